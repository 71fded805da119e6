//! Codec throughput: `Module::decode_bytes`, `Module::encode_bytes`, and the
//! two together, on a small builder module and a large model-converter module.
//!
//! Run: `cargo bench -p spvgraph-ir --bench codec` (about a minute).
//!
//! Groups:
//! - `codec_bytes/<module>/{decode,encode,roundtrip}`: MB/s (`Throughput::Bytes`).
//! - `codec_modules/<module>/roundtrip`: modules/s (criterion prints it as
//!   `elem/s`, one element per module).
//!
//! Modules:
//! - `chain10`: 10 element-wise TOSA ops over two inputs, built with
//!   `ModuleBuilder` (like `tests/it/builder_valid.rs`), ~0.8 KB.
//! - `large_cnn`: `data/large_cnn.spv`, model-converter's output for the
//!   358-op CNN in `data/large_cnn.mlir` (98 `OpGraphConstantARM` weights,
//!   ~3k inline `OpConstant`s, debug info), 126 KB in 5,205 instructions. It is checked in so the
//!   benchmark needs no external tools. To regenerate it after editing the
//!   MLIR, from the repository root (relative paths keep the file names that
//!   the debug info records stable):
//!
//! ```sh
//! .oracles/venv/bin/model-converter --emit-debug-info \
//!     -i ir/benches/data/large_cnn.mlir -o /tmp/large_cnn.vgf
//! .oracles/venv/bin/vgf_dump -i /tmp/large_cnn.vgf \
//!     -o ir/benches/data/large_cnn.spv --dump-spirv 0
//! ```
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use spvgraph_ir::Module;
use std::hint::black_box;
use std::time::Duration;

/// model-converter output for `data/large_cnn.mlir` (see the module docs).
const LARGE_CNN: &[u8] = include_bytes!("data/large_cnn.spv");

fn chain(n: usize) -> Module {
    spvgraph_ir::samples::elementwise_chain(n)
}

/// The benchmark inputs as (name, bytes), each checked to round-trip so the
/// timings are of the success path.
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let small = chain(10).encode_bytes().expect("builder module encodes");
    let all = vec![("chain10", small), ("large_cnn", LARGE_CNN.to_vec())];
    for (name, bytes) in &all {
        let m = Module::decode_bytes(bytes).expect("benchmark module decodes");
        let again = m.encode_bytes().expect("benchmark module encodes");
        assert!(&again == bytes, "{name} does not round-trip");
        eprintln!("{name}: {} bytes, {} instructions", bytes.len(), m.insts.len());
    }
    all
}

fn codec(c: &mut Criterion) {
    let inputs = inputs();

    let mut g = c.benchmark_group("codec_bytes");
    for (name, bytes) in &inputs {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::new(*name, "decode"), bytes, |b, bytes| {
            b.iter(|| Module::decode_bytes(black_box(bytes)).expect("decodes"))
        });
        let module = Module::decode_bytes(bytes).expect("decodes");
        g.bench_with_input(BenchmarkId::new(*name, "encode"), &module, |b, m| {
            b.iter(|| black_box(m).encode_bytes().expect("encodes"))
        });
        g.bench_with_input(BenchmarkId::new(*name, "roundtrip"), bytes, |b, bytes| {
            b.iter(|| Module::decode_bytes(black_box(bytes)).expect("decodes").encode_bytes().expect("encodes"))
        });
    }
    g.finish();

    // The same round trip counted in modules, for "modules per second".
    let mut g = c.benchmark_group("codec_modules");
    g.throughput(Throughput::Elements(1));
    for (name, bytes) in &inputs {
        g.bench_with_input(BenchmarkId::new(*name, "roundtrip"), bytes, |b, bytes| {
            b.iter(|| Module::decode_bytes(black_box(bytes)).expect("decodes").encode_bytes().expect("encodes"))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // Short runs: these are throughput sanity figures, not a regression gate.
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = codec
}
criterion_main!(benches);
