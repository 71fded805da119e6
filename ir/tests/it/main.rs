//! The `spvgraph-ir` crate's integration tests, linked as one binary
//! (`cargo test -p spvgraph-ir --test it -- MODULE::`): the codec, the builder, the MLIR printer against tosa-opt and model-converter, the fixtures.
//! Shared helpers come from `spvgraph-testkit`; no test here changes the
//! process's environment or current directory.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

mod builder_valid;
mod catalogue_grammar;
mod decode_never_panics;
mod mlir_common;
mod mlir_constants;
mod mlir_corpus;
mod mlir_fixtures;
mod mlir_graphs;
mod mlir_ops;
mod npy_numpy;
mod roundtrip_fixtures;
mod roundtrip_proptest;
mod support;
