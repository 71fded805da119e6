//! `spvgraph`: the command-line front end.
//!
//! Exit status: 0 success, 1 the check failed (a module does not decode, does
//! not round-trip, ...), 2 usage or I/O error.

mod cli;

use clap::Parser;
use std::process::ExitCode;

#[allow(clippy::print_stderr, reason = "the command's error goes to standard error")]
fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(cli::Outcome::Success) => ExitCode::SUCCESS,
        Ok(cli::Outcome::CheckFailed) => ExitCode::from(1),
        Err(e) => {
            eprintln!("spvgraph: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
