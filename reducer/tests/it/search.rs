//! The search's promises: validity findings keep exactly their rule,
//! the result depends on the seed only (not on jobs), the cache never lets
//! the predicate see a candidate twice, and the input must be interesting.

use crate::support;

use spvgraph_generator::near_valid::near_valid_from_seed;
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_reducer::{Candidate, Expect, ReduceError, Reducer};
use std::collections::HashSet;
use std::sync::Mutex;

#[test]
fn a_validity_finding_keeps_exactly_its_rule() {
    for (rule, seed) in [
        (RuleId::TosaShapeOutput, 3),
        (RuleId::GraphOutputType, 5),
        (RuleId::TosaOperandCount, 7),
        (RuleId::ConstantsTensorCount, 11),
    ] {
        let nv = near_valid_from_seed(seed, &Config::default(), Some(rule)).expect("a near-valid case");
        let module = Module::decode_words(&nv.words).expect("decodes");
        let before = support::rules(&module);
        assert_eq!(before, [rule].into_iter().collect(), "{rule}: the case breaks exactly its rule");
        let input = Candidate::new(module);
        let initial = input.size();
        // Any candidate is interesting: only the validity check holds the
        // reduction back, so the result is the smallest module breaking R.
        let reduced = Reducer::new()
            .validity(support::rules)
            .expect(Expect::Rule(rule))
            .jobs(2)
            .run(input, |_| true)
            .expect("reduces");
        let m = &reduced.candidate.module;
        assert_eq!(support::rules(m), [rule].into_iter().collect(), "{rule}: still exactly the rule");
        assert!(reduced.info.result < initial, "{rule}: smaller");
        assert!(reduced.info.invalid > 0, "{rule}: the validity check turned candidates away");
        assert!(support::ops(m).len() <= 2, "{rule}: {:?} left", support::ops(m));
    }
}

#[test]
fn the_input_must_break_what_is_expected() {
    let case = generate_from_seed(2, &Config::default());
    let input = support::candidate(&case);
    let err = Reducer::new()
        .validity(support::rules)
        .expect(Expect::Rule(RuleId::TosaShapeOutput))
        .run(input.clone(), |_| true)
        .expect_err("a valid input does not break tosa.shape.output");
    assert!(matches!(err, ReduceError::Expectation { .. }), "{err}");
    let err = Reducer::new().run(input, |_| false).expect_err("not interesting");
    assert!(matches!(err, ReduceError::NotInteresting));
}

fn reduce_with(seed: u64, jobs: usize) -> (Vec<u32>, u64) {
    let case = support::thirty_ops_with_pow();
    let input = support::candidate(&case);
    let has = |c: &Candidate| {
        let ops = support::ops(&c.module);
        ops.contains(&TosaOp::Pow) && ops.contains(&TosaOp::Abs)
    };
    let r = Reducer::new().validity(support::rules).seed(seed).jobs(jobs).run(input, has).expect("reduces");
    (r.candidate.module.encode_words().expect("encodes"), r.info.predicate_calls)
}

#[test]
fn the_result_depends_on_the_seed_only() {
    let (a, _) = reduce_with(0, 1);
    let (b, _) = reduce_with(0, 3);
    assert_eq!(a, b, "jobs must not change the result");
    let (c, _) = reduce_with(7, 2);
    let (d, _) = reduce_with(7, 1);
    assert_eq!(c, d, "jobs must not change the result for another seed either");
    let (e, _) = reduce_with(7, 2);
    assert_eq!(c, e, "the same seed gives the same result");
}

#[test]
fn the_cache_keeps_the_predicate_from_seeing_a_candidate_twice() {
    let case = support::thirty_ops_with_pow();
    let input = support::candidate(&case);
    let seen: Mutex<HashSet<u64>> = Mutex::new(HashSet::new());
    let repeats = Mutex::new(0u32);
    let calls = Mutex::new(0u64);
    let reduced = Reducer::new()
        .validity(support::rules)
        .jobs(2)
        .run(input, |c| {
            *calls.lock().expect("lock") += 1;
            if !seen.lock().expect("lock").insert(c.fingerprint()) {
                *repeats.lock().expect("lock") += 1;
            }
            support::ops(&c.module).contains(&TosaOp::Pow)
        })
        .expect("reduces");
    assert_eq!(*repeats.lock().expect("lock"), 0, "a candidate reached the predicate twice");
    assert_eq!(*calls.lock().expect("lock"), reduced.info.predicate_calls);
    assert!(reduced.info.cache_hits > 0, "later rounds rebuild candidates already judged");
}
