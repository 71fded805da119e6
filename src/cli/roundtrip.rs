//! `spvgraph roundtrip FILE...`: decode then encode must give the same bytes.

use super::{input, Outcome};
use std::path::PathBuf;

/// Arguments of `roundtrip`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SPIR-V module files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Checks every file; reports the first differing word of each that changes.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let mut failed = 0usize;
    for path in &args.files {
        let bytes = input::read_bytes(path)?;
        let module = match input::decode(path, &bytes) {
            Ok(m) => m,
            Err(msg) => {
                eprintln!("{msg}");
                failed += 1;
                continue;
            }
        };
        let again = match module.encode_bytes() {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{}: cannot re-encode: {e}", path.display());
                failed += 1;
                continue;
            }
        };
        if again == bytes {
            println!("{}: identical ({} words)", path.display(), bytes.len() / 4);
            continue;
        }
        failed += 1;
        let (old, endian) = spvgraph_ir::binary::bytes_to_words(&bytes).unwrap_or_default();
        let new = module.encode_words().unwrap_or_default();
        let _ = endian;
        match spvgraph_ir::module::first_difference(&old, &new) {
            Some(w) => eprintln!(
                "{}: differs at word {w}: was {}, re-encoded {}",
                path.display(),
                old.get(w).map(|v| format!("{v:#010x}")).unwrap_or_else(|| "end of module".into()),
                new.get(w).map(|v| format!("{v:#010x}")).unwrap_or_else(|| "end of module".into())
            ),
            None => eprintln!("{}: byte order changed on re-encoding", path.display()),
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} file(s) did not round-trip", args.files.len());
        Ok(Outcome::CheckFailed)
    } else {
        Ok(Outcome::Success)
    }
}
