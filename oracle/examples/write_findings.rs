//! Writes the hand-made corpus findings (`corpus/findings/STEM.*`: module,
//! inputs, manifest, `.md` note) of one family, from the same tables and
//! note functions the tests check the stored files against, so what is
//! written is what the tests expect:
//!
//! ```text
//! cargo run --release -p spvgraph-oracle --example write_findings -- FAMILY
//! ```
//!
//! FAMILY is `emulation-layer` (`oracle/tests/it/emulation_layer_findings.rs`;
//! `emulation-layer-attributions` rewrites only the notes' attribution
//! sections), `vulkan` (`vulkan_findings.rs`), `external` (model-converter
//! and IREE, `external_findings/`) or `reference` (the TOSA reference
//! model, `reference_findings.rs`). The tools the family's manifests record
//! answers from must be installed (`ci/setup-oracles`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

// The findings' tables live with their tests (one module each of the oracle
// crate's test binary); the writer includes the same files, and their tests
// are compiled out here, so the helpers only they use are dead code.
#[allow(dead_code, unused_imports)]
#[path = "../tests/it/consumer_common.rs"]
mod consumer_common;
#[allow(dead_code, unused_imports)]
#[path = "../tests/it/emulation_layer_findings.rs"]
mod emulation_layer_findings;
#[allow(dead_code, unused_imports)]
#[path = "../tests/it/external_findings/mod.rs"]
mod external_findings;
#[allow(dead_code, unused_imports)]
#[path = "../tests/it/reference_findings.rs"]
mod reference_findings;
#[allow(dead_code, unused_imports)]
#[path = "../tests/it/vulkan_findings.rs"]
mod vulkan_findings;

const USAGE: &str = "usage: write_findings emulation-layer|emulation-layer-attributions|vulkan|external|reference";

fn main() {
    let family = std::env::args().nth(1).unwrap_or_default();
    match family.as_str() {
        "emulation-layer" => emulation_layer_findings::write_findings(),
        "emulation-layer-attributions" => emulation_layer_findings::write_attributions(),
        "vulkan" => vulkan_findings::write_findings(),
        "external" => external_findings::write_findings(),
        "reference" => reference_findings::write_findings(),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
    eprintln!("wrote the {family} findings under corpus/findings/");
}
