//! The `spvgraph` crate's integration tests, one module per subject, linked
//! as one binary (`cargo test -p spvgraph --test it -- MODULE::`): the CLI's
//! contract command by command, the corpus and its findings, the documents.
//! Shared helpers come from `spvgraph-testkit`.
//!
//! No test here changes the process's environment or current directory:
//! tools get their environment through `Command::env`, so the tests of one
//! process do not race.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

mod cli;
mod corpus_check;
mod corpus_findings;
mod diff_cli;
mod docs;
mod findings_cli;
mod findings_status;
mod generate_cli;
mod hunt_cli;
mod hunt_kill;
mod hunt_neighbours;
mod hunt_release_differential;
mod hunt_reproduce;
mod hunt_shard;
mod networks;
mod planted_fault;
mod reduce_cli;
mod run_cli;
mod shard_oracles;
mod upstream_reproducers;
mod validate_cli;
