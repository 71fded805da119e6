//! Modules per second for 10-node graphs on one core (criterion), and the
//! time of one case of the `network` profile (50-200 operators, tensors of
//! 10^5-10^7 elements: module and input data).
//!
//! `cargo bench -p spvgraph-generator --bench generate`; the throughput line
//! reports elements = modules, so criterion prints modules/s directly.
//! `-- network` runs the network profile alone.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a test, bench or example: a failure names its place"
)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use spvgraph_generator::{generate_from_seed, Config};
use std::hint::black_box;

fn ten_node_config() -> Config {
    Config { min_graphs: 1, max_graphs: 1, min_nodes: 10, max_nodes: 10, ..Config::default() }
}

fn bench(c: &mut Criterion) {
    let config = ten_node_config();
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("10-node graph module", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            let case = generate_from_seed(black_box(seed), &config);
            black_box(case.module.encode_words().map(|w| w.len()).unwrap_or(0))
        })
    });
    group.finish();

    // Network cases differ widely in size from seed to seed, so the seeds
    // cycle through a fixed set: the figure is the mean over those cases.
    let network = Config::network();
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    let mut seed = 0u64;
    group.bench_function("network case", |b| {
        b.iter(|| {
            seed = (seed + 1) % 24;
            let case = generate_from_seed(black_box(seed), &network);
            black_box(case.module.encode_words().map(|w| w.len()).unwrap_or(0))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
