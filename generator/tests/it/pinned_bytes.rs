//! The bytes a seed generates are pinned: the module's words, every graph
//! input's data and every graph constant's data of a few seeds hash to the
//! values recorded here (taken from the generator before its throughput work,
//! so optimisations must not change what a seed stands for; a seed in a
//! finding's manifest must keep reproducing the finding).
//!
//! When a change to the generator is meant to change its output, rerun with
//! `-- --nocapture` and update the table from the printed lines.

use spvgraph_generator::{generate_from_seed, Config};

/// FNV-1a, 64 bits: enough to tell any change of the bytes apart, and
/// defined here so the pin does not depend on a hasher's version.
fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// (module hash, data hash) of a seed: the module's little-endian bytes,
/// then every input (entry-point order, then input order) and every graph
/// constant (by GraphConstantID), each prefixed with its length.
fn hashes(seed: u64, config: &Config) -> (u64, u64) {
    let case = generate_from_seed(seed, config);
    let mut module = 0xcbf2_9ce4_8422_2325;
    fnv1a(&mut module, &case.module.encode_bytes().expect("generated modules encode"));
    let mut data = 0xcbf2_9ce4_8422_2325;
    for ep in &case.entry_points {
        for input in &ep.inputs {
            let bytes = input.data.to_le_bytes();
            fnv1a(&mut data, &(bytes.len() as u64).to_le_bytes());
            fnv1a(&mut data, &bytes);
        }
    }
    for (id, constant) in &case.graph_constants {
        let bytes = constant.to_le_bytes();
        fnv1a(&mut data, &id.to_le_bytes());
        fnv1a(&mut data, &(bytes.len() as u64).to_le_bytes());
        fnv1a(&mut data, &bytes);
    }
    (module, data)
}

fn ten_nodes() -> Config {
    Config { min_graphs: 1, max_graphs: 1, min_nodes: 10, max_nodes: 10, ..Config::default() }
}

fn check(config: &Config, pinned: &[(u64, u64, u64)]) {
    let mut wrong = Vec::new();
    for &(seed, module, data) in pinned {
        let got = hashes(seed, config);
        println!("({seed}, {:#018x}, {:#018x}),", got.0, got.1);
        if got != (module, data) {
            wrong.push(seed);
        }
    }
    assert!(wrong.is_empty(), "seeds {wrong:?} no longer generate their pinned bytes");
}

#[test]
fn default_config_seeds_keep_their_bytes() {
    check(
        &Config::default(),
        &[
            (0, 0x2c218906d3f38e90, 0x0b9fdcaecf75a37f),
            (1, 0xc008000ca092e729, 0x094fe3f175e609c0),
            (7, 0xbd73efc4fddfc5d2, 0xec1ae68b7eea718b),
            (42, 0x0e6f36cda3dc41e5, 0x90505a433b9a0914),
            (1000, 0xb3f13029bb263304, 0xe17d9ca406d2ed4e),
            (123456789, 0x738ec24573e59ca3, 0x99fa29a586d95540),
        ],
    );
}

#[test]
fn ten_node_seeds_keep_their_bytes() {
    check(
        &ten_nodes(),
        &[
            (0, 0xf39f76eebe593102, 0x429eb7a85238adf7),
            (3, 0x36d7a76f5c7a706c, 0x06da1f81d3beb5e2),
            (99, 0xa4feca7570b63062, 0xe2268ca3c5d5a466),
            (2024, 0xb246c60a986aafae, 0xbd9babd9e2ac6a51),
            (u64::MAX, 0x7ec41f1908485347, 0x5a05ad65ff230ad4),
        ],
    );
}

/// The first 300 ten-node seeds at once (one hash over all their module and
/// data hashes), so a change that only shows on rarer constructs is caught.
#[test]
fn three_hundred_ten_node_seeds_keep_their_bytes() {
    let config = ten_nodes();
    let mut all = 0xcbf2_9ce4_8422_2325;
    for seed in 0..300 {
        let (m, d) = hashes(seed, &config);
        fnv1a(&mut all, &m.to_le_bytes());
        fnv1a(&mut all, &d.to_le_bytes());
    }
    println!("all: {all:#018x}");
    assert_eq!(all, 0xd046_1397_447a_7810, "the first 300 ten-node seeds no longer generate their pinned bytes");
}

/// `generate_from_seed` expands only a prefix of a seed's bytes at first;
/// cases that read past it (large graphs) must still be those of the whole
/// expansion, as `generate` over `seed_bytes(seed, SEED_BYTES)` gives them.
#[test]
fn seeds_of_large_cases_match_their_whole_expansion() {
    use arbitrary::Unstructured;
    use spvgraph_generator::prng::{seed_bytes, SEED_BYTES};
    let configs =
        [Config { min_graphs: 4, max_graphs: 6, min_nodes: 600, max_nodes: 1000, ..Config::default() }, ten_nodes()];
    let mut read_past = 0;
    for config in &configs {
        for seed in 0..6 {
            let bytes = seed_bytes(seed, SEED_BYTES);
            let mut u = Unstructured::new(&bytes);
            let whole = spvgraph_generator::generate(&mut u, config).expect("usable config");
            read_past += usize::from(SEED_BYTES - u.len() > 8 * 1024);
            let by_seed = generate_from_seed(seed, config);
            assert_eq!(by_seed.module, whole.module, "seed {seed}");
            let data = |c: &spvgraph_generator::Case| {
                c.entry_points.iter().flat_map(|e| e.inputs.iter().map(|t| t.data.to_bits())).collect::<Vec<_>>()
            };
            assert_eq!(data(&by_seed), data(&whole), "seed {seed}");
        }
    }
    assert!(read_past > 0, "no case read past the prefix: the test does not reach the second expansion");
}
