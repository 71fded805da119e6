//! The `spvgraph-oracle` crate's integration tests, linked as one binary
//! (`cargo test -p spvgraph-oracle --test it -- MODULE::`, e.g. `near_valid::`):
//! the validator and its rules, the executor, the compliance rules, the
//! judge, every external oracle's adapter against the real tool, and the
//! corpus findings. Shared helpers come from `spvgraph-testkit`, and the
//! oracle-specific ones from `consumer_common`, `exec_common` and
//! `validate_common`.
//!
//! No test here changes the process's environment or current directory
//! (tools get theirs through `Command::env`), so the tests of one process do
//! not race; an oracle's worker processes belong to the oracle value a test
//! makes, not to the process.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

mod channels;
mod compliance_compare;
mod compliance_flush;
mod compliance_modes;
mod compliance_tosa_verify;
mod consumer_common;
mod corpus_invalid;
mod ecosystem;
mod emulation_layer;
#[allow(dead_code, reason = "its writer, used by examples/write_findings.rs, is compiled here too")]
mod emulation_layer_findings;
mod exec_common;
mod exec_conv;
mod exec_elementwise;
mod exec_fp;
mod exec_graph;
mod exec_intmath;
mod exec_layout;
mod exec_reference;
mod exec_robust;
mod exec_rows;
mod exec_tensor_ops;
#[allow(dead_code, reason = "its writer, used by examples/write_findings.rs, is compiled here too")]
mod external_findings;
mod forms;
mod iree;
mod judge;
mod local_judge;
mod model_converter;
mod model_explorer;
mod near_valid;
mod near_valid_spirv_val;
mod network_graphs;
mod observed_form;
mod reading;
mod reference_differential;
#[allow(dead_code, reason = "its writer, used by examples/write_findings.rs, is compiled here too")]
mod reference_findings;
mod reference_model;
mod root_cause;
mod tensor_functions;
mod validate_common;
mod validate_fixtures;
mod validate_generated;
mod validate_model_converter;
mod validate_never_panics;
mod validate_rules;
mod validate_ruling;
mod validate_spirv_val;
mod vulkan;
#[allow(dead_code, reason = "its writer, used by examples/write_findings.rs, is compiled here too")]
mod vulkan_findings;
