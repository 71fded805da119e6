//! The `spvgraph-reducer` crate's integration tests, linked as one binary
//! (`cargo test -p spvgraph-reducer --test it -- MODULE::`): reduction of generated cases, checked by the in-tree validator.
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

mod pow;
mod search;
mod support;
