//! `spvgraph findings`: work on findings directories.
//!
//! ```text
//! spvgraph findings merge shard-0 shard-1 shard-2 --out all     # by signature, into all/findings/
//! spvgraph findings merge shard-1 --out shard-0                 # into an existing directory
//! spvgraph findings merge shard-* --out store --known store      # a night into the store; exit 1 on new signatures
//! spvgraph findings summary hunt-out                            # rebuild summary.json after a kill
//! ```

use super::Outcome;
use std::path::PathBuf;

/// Arguments of `findings`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Merge findings directories (hunt output directories or their
    /// findings/) by signature: the smallest-seed case is kept, occurrences
    /// summed, example seeds and tool versions united; OUT/summary.json is
    /// rebuilt. OUT may be one of the inputs.
    Merge {
        /// The directories to merge.
        #[arg(value_name = "DIR", required = true)]
        dirs: Vec<PathBuf>,
        /// Where the merged findings go (OUT/findings/).
        #[arg(long, value_name = "OUT")]
        out: PathBuf,
        /// The findings known before (a store of earlier nights; read before
        /// the merge writes, so it may be OUT itself): print the signatures
        /// neither in it nor documented, mark them new in OUT/summary.json,
        /// and exit 1 when there is any.
        #[arg(long, value_name = "DIR")]
        known: Option<PathBuf>,
    },
    /// Rebuild DIR/summary.json from the findings on disk and
    /// DIR/progress.json (after a hunt was killed).
    Summary {
        /// A hunt's output directory.
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    match args.command {
        Command::Merge { dirs, out, known } => {
            let m = spvgraph::hunt::merge::merge(&dirs, &out, known.as_deref())?;
            println!(
                "merged {} findings of {} directories into {} signatures ({} found by more than one) in {}",
                m.read,
                dirs.len(),
                m.signatures,
                m.shared,
                m.dir.display()
            );
            if let Some(known) = &known {
                println!("{} new signature(s): in neither {} nor documented", m.new.len(), known.display());
                for n in &m.new {
                    println!("  {} {}: {}", n.kind, m.dir.join(&n.slug).display(), n.signature);
                }
                if !m.new.is_empty() {
                    return Ok(Outcome::CheckFailed);
                }
            }
        }
        Command::Summary { dir } => {
            let s = spvgraph::hunt::summary::rebuild(&dir)?;
            println!(
                "rebuilt {}: {} cases, {} signatures ({} new)",
                dir.join("summary.json").display(),
                s["cases"],
                s["findings"]["signatures"],
                s["findings"]["new_signatures"]
            );
        }
    }
    Ok(Outcome::Success)
}
