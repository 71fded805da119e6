//! `spvgraph findings`: work on findings directories.
//!
//! ```text
//! spvgraph findings merge shard-0 shard-1 shard-2 --out all     # by signature, into all/findings/
//! spvgraph findings merge shard-1 --out shard-0                 # into an existing directory
//! spvgraph findings merge shard-* --out store --known store      # a night into the store; exit 1 on new signatures
//! spvgraph findings summary hunt-out                            # rebuild summary.json after a kill
//! spvgraph findings status --out nightly --since last/status.json # every corpus finding on every version
//! ```

use super::Outcome;
use spvgraph::corpus::{reproduce, status};
use spvgraph_oracle::tools::Tools;
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
    /// Run every corpus finding's upstream reproducers (reproduce, and
    /// reproduce_mlir, reproduce_api, fixed_behind where present) on every
    /// installed version of the tools: the release, each channel (`dev`),
    /// each user's build; per finding and version: still, fixed-in VERSION,
    /// fixed-behind-flag FLAG, or not-run. A table, or JSON.
    Status(StatusArgs),
}

/// Arguments of `findings status`.
#[derive(clap::Args, Debug)]
struct StatusArgs {
    /// The findings directory.
    #[arg(long, value_name = "DIR", default_value = "corpus/findings")]
    dir: PathBuf,
    /// Only these channels besides the release (default: every installed one).
    #[arg(long = "channel", value_name = "NAME")]
    channels: Vec<String>,
    /// A user's build of an oracle as one more version (NAME[@LABEL]=DIR).
    #[arg(long = "oracle-path", value_name = "NAME=DIR")]
    oracle_paths: Vec<String>,
    /// Only the findings whose stem contains TEXT.
    #[arg(long, value_name = "TEXT", default_value = "")]
    filter: String,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the report to OUT/status.json.
    #[arg(long, value_name = "OUT")]
    out: Option<PathBuf>,
    /// Print what changed since the report PREVIOUS.json (a status.json).
    #[arg(long, value_name = "PREVIOUS.json")]
    since: Option<PathBuf>,
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
        Command::Status(a) => findings_status(&a)?,
    }
    Ok(Outcome::Success)
}

fn findings_status(a: &StatusArgs) -> anyhow::Result<()> {
    let previous = a.since.as_deref().map(status::Report::read).transpose()?;
    let channels = (!a.channels.is_empty()).then_some(a.channels.as_slice());
    let toolsets = reproduce::toolsets(&Tools::discover(), channels, &a.oracle_paths)?;
    let report = status::status(&a.dir, &toolsets, &a.filter, &|stem, label| eprintln!("{stem} on {label}"))?;
    let json = serde_json::to_string_pretty(&report)?;
    if let Some(out) = &a.out {
        std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", out.display()))?;
        let file = out.join("status.json");
        std::fs::write(&file, &json).map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", file.display()))?;
    }
    if a.json {
        println!("{json}");
    } else {
        for v in &report.versions {
            println!("{}: {}", v.label, v.tools);
        }
        println!();
        print!("{}", report.table());
        for (label, totals) in report.totals() {
            let parts: Vec<String> = totals.iter().map(|(s, n)| format!("{n} {}", s.name())).collect();
            println!("{label}: {}", parts.join(", "));
        }
    }
    if let (Some(previous), Some(path)) = (previous, &a.since) {
        let changes = status::changes(&previous, &report);
        let mut text = format!("since {}:", path.display());
        if changes.is_empty() {
            text.push_str(" no change");
        }
        for c in changes {
            text.push_str(&format!("\n  {c}"));
        }
        // With --json, stdout holds the report alone.
        if a.json {
            eprintln!("{text}");
        } else {
            println!("{text}");
        }
    }
    Ok(())
}
