//! The acceptance case: a generated module of about 30 operators,
//! reduced with "valid, and still contains POW", gives a one-operator graph.

use crate::support;

use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_reducer::{Candidate, Expect, Reducer};

#[test]
fn thirty_operators_reduce_to_one_pow() {
    let case = support::thirty_ops_with_pow();
    let input = support::candidate(&case);
    assert!(support::ops(&input.module).len() >= 25, "{} ops", support::ops(&input.module).len());
    assert!(support::rules(&input.module).is_empty(), "the generated case is valid");
    let has_pow = |c: &Candidate| support::ops(&c.module).contains(&TosaOp::Pow);
    let reduced = Reducer::new()
        .validity(support::rules)
        .expect(Expect::Valid)
        .jobs(2)
        .run(input, has_pow)
        .expect("the input is interesting");
    let m = &reduced.candidate.module;
    eprintln!("{}", spvgraph_ir::text::disassemble(m));
    eprintln!("{:#?}", reduced.info);
    assert_eq!(support::ops(m), vec![TosaOp::Pow]);
    assert_eq!(Analysis::new(m).graphs.len(), 1);
    assert!(support::rules(m).is_empty());
}
