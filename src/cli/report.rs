//! `spvgraph report DIR`: writes DIR/report.md and DIR/report.html from a
//! hunt's output directory ([`spvgraph::hunt::report`]).
//!
//! ```text
//! spvgraph report hunt-out            # then open hunt-out/report.html
//! ```

use super::Outcome;
use std::path::PathBuf;

/// Arguments of `report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A hunt's output directory (the --out of `spvgraph hunt`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Also print the Markdown on stdout.
    #[arg(long)]
    print: bool,
}

/// Writes the report.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    if !args.dir.is_dir() {
        anyhow::bail!("{}: not a directory", args.dir.display());
    }
    let (md, html) = spvgraph::hunt::report::write(&args.dir)?;
    if args.print {
        print!("{}", std::fs::read_to_string(&md)?);
    }
    eprintln!("wrote {} and {}", md.display(), html.display());
    Ok(Outcome::Success)
}
