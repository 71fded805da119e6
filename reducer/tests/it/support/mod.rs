//! Shared by the reducer's tests: generated cases as candidates, and the
//! in-tree validator as the validity check.

use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use spvgraph_reducer::{Candidate, InputKey, Rules};

/// A generated case as a candidate (inputs keyed by graph).
pub fn candidate(case: &Case) -> Candidate {
    let a = Analysis::new(&case.module);
    let mut c = Candidate::new(case.module.clone());
    for ep in &case.entry_points {
        let Some(g) = a.graphs.get(ep.graph) else { continue };
        for t in &ep.inputs {
            c.inputs.insert(InputKey { graph: g.result, index: t.slot.index, element: t.slot.element }, t.data.clone());
        }
    }
    c.graph_constants = case.graph_constants.clone();
    c
}

/// The must-reject rules the in-tree validator reports.
pub fn rules(m: &Module) -> Rules {
    Validator::new(ValidateOptions::default()).check(m).errors().map(|f| f.rule).collect()
}

/// TOSA instructions of a module.
pub fn ops(m: &Module) -> Vec<TosaOp> {
    m.insts.iter().filter_map(|i| if let Inst::Tosa { op, .. } = i { Some(*op) } else { None }).collect()
}

/// A generated module of about 30 operators with POW among them.
pub fn thirty_ops_with_pow() -> Case {
    let mut config = Config { min_graphs: 1, max_graphs: 1, min_nodes: 28, max_nodes: 30, ..Config::default() };
    config.allow_ops = [
        "POW",
        "ADD",
        "MUL",
        "SUB",
        "ABS",
        "EXP",
        "CONV2D",
        "MAX_POOL2D",
        "RESHAPE",
        "TRANSPOSE",
        "CLAMP",
        "CAST",
        "CONCAT",
        "PAD",
        "RESCALE",
    ]
    .iter()
    .filter_map(|n| TosaOp::from_name(n))
    .collect();
    let case = generate_from_seed(1, &config);
    assert!(ops(&case.module).contains(&TosaOp::Pow), "seed 1 has POW");
    case
}
