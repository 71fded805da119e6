//! `spvgraph dis FILE`.

use super::{input, Outcome};
use std::path::PathBuf;

/// Arguments of `dis`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SPIR-V module file.
    file: PathBuf,
}

/// Prints the text form of the module to stdout.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let bytes = input::read_bytes(&args.file)?;
    match input::decode(&args.file, &bytes) {
        Ok(m) => {
            print!("{}", spvgraph_ir::text::disassemble(&m));
            Ok(Outcome::Success)
        }
        Err(msg) => {
            eprintln!("{msg}");
            Ok(Outcome::CheckFailed)
        }
    }
}
