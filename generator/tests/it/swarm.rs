//! `Config::swarm`: configurations drawn from fuzz bytes stay within the
//! base configuration's sizes, vary the operator set, and always generate
//! without breaking a generator invariant.

use arbitrary::Unstructured;
use spvgraph_generator::prng::seed_bytes;
use spvgraph_generator::{generate, Config};
use std::collections::BTreeSet;

#[test]
fn swarm_configs_stay_within_the_base_and_generate() {
    let base = Config { max_graphs: 2, max_nodes: 6, ..Config::default() };
    let mut op_sets = BTreeSet::new();
    let mut generated = 0;
    for seed in 0..300u64 {
        let bytes = seed_bytes(seed, 2048);
        let mut u = Unstructured::new(&bytes);
        let c = Config::swarm(&mut u, &base);
        assert!(c.max_graphs <= base.max_graphs && c.min_graphs >= 1 && c.min_graphs <= c.max_graphs);
        assert!(c.max_nodes <= base.max_nodes && c.min_nodes <= c.max_nodes);
        assert!(c.max_tensor_elements <= base.max_tensor_elements);
        assert!(c.probs.entries().iter().all(|(_, p)| (0.0..=1.0).contains(p)));
        op_sets.insert(c.usable_ops());
        if let Ok(case) = generate(&mut u, &c) {
            assert!(case.meta.internal_errors.is_empty(), "seed {seed}: {:?}", case.meta.internal_errors);
            assert!(case.meta.nodes <= (c.max_graphs * c.max_nodes) as usize, "seed {seed}");
            generated += 1;
        } else {
            assert!(c.usable_ops().is_empty(), "seed {seed}: no case with usable operators");
        }
    }
    assert!(generated > 250, "only {generated} of 300 swarm configurations generate");
    assert!(op_sets.len() > 150, "only {} distinct operator sets", op_sets.len());
}

#[test]
fn no_bytes_give_the_base_with_minimal_sizes() {
    let base = Config::default();
    let c = Config::swarm(&mut Unstructured::new(&[]), &base);
    assert_eq!((&c.allow_ops, &c.deny_ops, &c.profiles), (&base.allow_ops, &base.deny_ops, &base.profiles));
    assert_eq!((c.max_graphs, c.max_nodes, c.max_rank), (1, 1, 1));
}
