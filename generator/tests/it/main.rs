//! The `spvgraph-generator` crate's integration tests, linked as one binary
//! (`cargo test -p spvgraph-generator --test it -- MODULE::`): generated modules against spirv-val, tosa-opt and the TOSA rules; determinism and coverage.
//! Shared helpers come from `spvgraph-testkit`; no test here changes the
//! process's environment or current directory.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a test, bench or example: a failure names its place"
)]

mod constructs;
mod corpus_samples;
mod coverage;
mod data_constraints;
mod determinism;
mod network;
mod optional_constructs;
mod pinned_bytes;
mod spirv_val;
mod support;
mod swarm;
