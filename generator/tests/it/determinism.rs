//! Same bytes, same case; different seeds, different cases; arbitrary bytes
//! and arbitrary configurations never panic.

use arbitrary::{Arbitrary, Unstructured};
use spvgraph_generator::prng::seed_bytes;
use spvgraph_generator::{generate, generate_from_seed, Config};

fn fingerprint(seed: u64, config: &Config) -> (Vec<u32>, Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let case = generate_from_seed(seed, config);
    let words = case.module.encode_words().expect("encodes");
    let inputs = case.entry_points.iter().flat_map(|e| e.inputs.iter().map(|t| t.data.to_bits())).collect();
    let constants = case.graph_constants.values().map(|t| t.to_bits()).collect();
    (words, inputs, constants)
}

#[test]
fn the_same_seed_gives_identical_bytes_and_data() {
    let config = Config::default();
    for seed in 0..200 {
        assert_eq!(fingerprint(seed, &config), fingerprint(seed, &config), "seed {seed}");
    }
}

#[test]
fn the_same_unstructured_bytes_give_the_same_case() {
    let config = Config::default();
    for seed in 0..50u64 {
        let bytes = seed_bytes(seed, 5000);
        let a = generate(&mut Unstructured::new(&bytes), &config).expect("usable config");
        let b = generate(&mut Unstructured::new(&bytes), &config).expect("usable config");
        assert_eq!(a.module, b.module);
        assert_eq!(a.meta.type_rows, b.meta.type_rows);
    }
}

#[test]
fn different_seeds_give_different_modules() {
    let config = Config::default();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..100 {
        seen.insert(fingerprint(seed, &config).0);
    }
    assert!(seen.len() >= 95, "only {} distinct modules in 100 seeds", seen.len());
}

#[test]
fn arbitrary_bytes_and_configs_never_panic() {
    for seed in 0..400u64 {
        let bytes = seed_bytes(seed, 3000 + (seed as usize * 37) % 5000);
        let mut u = Unstructured::new(&bytes);
        let config = Config::arbitrary(&mut u).unwrap_or_default();
        // Whatever the configuration and however few bytes remain, generation
        // returns (an error only when no operator is usable).
        match generate(&mut u, &config) {
            Ok(case) => assert!(case.meta.internal_errors.is_empty(), "seed {seed}: {:?}", case.meta.internal_errors),
            Err(_) => assert!(config.usable_ops().is_empty(), "seed {seed}: error with usable operators"),
        }
    }
    // No bytes at all: every choice minimal, still a case.
    let case = generate(&mut Unstructured::new(&[]), &Config::default()).expect("usable");
    assert!(!case.entry_points.is_empty());
}
