//! Argument parsing and dispatch; one module per subcommand.

mod dis;
mod info;
mod input;
mod roundtrip;

use clap::{Parser, Subcommand};

/// What a subcommand concluded (I/O and usage errors are `Err`).
pub enum Outcome {
    /// Everything checked out.
    Success,
    /// The check the command performs failed; details were printed.
    CheckFailed,
}

/// Fuzzing and differential-testing harness for SPIR-V graph modules.
#[derive(Parser, Debug)]
#[command(name = "spvgraph", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print a readable, spirv-dis-like listing with friendly names.
    Dis(dis::Args),
    /// Summarise a module: graphs, entry points, interfaces and bindings,
    /// graph constants, operator histogram.
    Info(info::Args),
    /// Decode and re-encode each file; fail naming the first differing word.
    Roundtrip(roundtrip::Args),
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Dis(a) => dis::run(a),
        Command::Info(a) => info::run(a),
        Command::Roundtrip(a) => roundtrip::run(a),
    }
}
