//! The commands a finding records: how to regenerate its case and how to
//! see the disagreement again, each a `cargo run` of the checkout the
//! finding is in.

use super::case::CaseOutcome;
use super::store::StoreContext;
use spvgraph_oracle::judge::{Disagreement, Kind};
use spvgraph_oracle::registry::IN_TREE;

/// How a finding's commands start: the `spvgraph` of the checkout the
/// directory is in, built on demand. A bare `spvgraph` is not on PATH after
/// `cargo build --release`; `cargo run` finds the workspace from any
/// directory inside the checkout and leaves the working directory alone, so
/// the files a command names stay relative to the finding.
pub const RUN: [&str; 7] = ["cargo", "run", "--release", "-q", "--bin", "spvgraph", "--"];

fn run_prefix() -> Vec<String> {
    RUN.map(String::from).to_vec()
}

/// The command that regenerates case `seed` (run in the finding's
/// directory, inside an spvgraph checkout), and the module file it writes.
pub fn reproduce(seed: u64, rule: Option<&str>, config: bool) -> (Vec<String>, String) {
    let mut argv = run_prefix();
    argv.extend(["generate", "--seed"].map(String::from));
    argv.extend([seed.to_string(), "--count".into(), "1".into()]);
    if let Some(r) = rule {
        argv.extend(["--near-valid".into(), "--rule".into(), r.to_string()]);
    }
    if config {
        argv.extend(["--config".into(), "config.json".into()]);
    }
    argv.extend(["--spvasm", "--no-mlir", "-o", "repro"].map(String::from));
    (argv, format!("repro/case_{seed}.spv"))
}

/// The command that makes network case `seed` again (`--profile networks`,
/// `network_args` selecting the same networks) and files what it shows
/// under `repro/findings/`: a network neighbour is no generator case, so
/// the hunt itself makes it again, from its seed over the same networks.
pub fn reproduce_network(seed: u64, network_args: &[String]) -> (Vec<String>, String) {
    let mut argv = run_prefix();
    argv.extend(["hunt", "--seed"].map(String::from));
    argv.extend([seed.to_string(), "--count".into(), "1".into()]);
    argv.extend(network_args.iter().cloned());
    argv.extend(["--neighbours", "0", "--no-reduce", "--out", "repro"].map(String::from));
    (argv, "repro/findings".to_string())
}

/// The command that shows the disagreement again on the finding's own
/// files (run in the finding's directory, inside an spvgraph checkout).
pub fn check_command(slug: &str, case: &CaseOutcome, d: &Disagreement, context: &StoreContext) -> Vec<String> {
    let spv = format!("{slug}.spv");
    let mut argv = run_prefix();
    match d.kind {
        Kind::Roundtrip => argv.extend(["roundtrip".into(), spv]),
        Kind::Crash
        | Kind::Timeout
        | Kind::OutOfMemory
        | Kind::RefusedValid
        | Kind::WrongOutput
        | Kind::FormDiffers
        | Kind::ObservedFormDiffers
        | Kind::AcceptsInvalid
        | Kind::CheckerDisagreesWithReference => {
            let mut oracles = vec![IN_TREE.to_string()];
            oracles.extend(d.oracles.iter().filter(|o| *o != IN_TREE).cloned());
            // The referee shows a checker disagreement as both backend and referee.
            if matches!(
                d.kind,
                Kind::WrongOutput | Kind::ObservedFormDiffers | Kind::FormDiffers | Kind::CheckerDisagreesWithReference
            ) {
                oracles.extend(context.referee.clone());
            }
            oracles.dedup();
            argv.extend(["diff".into(), spv, "--oracles".into(), oracles.join(",")]);
            if let Some(e) = &case.entry {
                argv.extend(["--entry".into(), e.clone()]);
            }
            // Every form that applies, so the pair the finding names is among them.
            if d.kind == Kind::FormDiffers {
                argv.extend(["--forms".into(), spvgraph_oracle::forms::Form::ALL.len().to_string()]);
            }
            // A backend that ran the case only rescued shows the finding only
            // with the rescue.
            let rescued = d.oracles.iter().any(|o| {
                let label = super::batch::rescue_label(o);
                case.answers.iter().any(|(name, _)| *name == label)
            });
            if rescued {
                argv.push("--rescue".into());
            }
        }
        // The reader, and the producer whose module or container it read.
        Kind::ReaderCrash | Kind::ReaderRejectsValid | Kind::ReaderDiffers => {
            let mut oracles = vec![IN_TREE.to_string()];
            oracles.extend(d.oracles.iter().cloned());
            oracles.dedup();
            // A producer's output is read from the case's TOSA MLIR.
            let produced = d.oracles.len() > 1;
            let file = if produced { format!("{slug}.mlir") } else { spv };
            argv.extend(["diff".into(), file, "--oracles".into(), oracles.join(",")]);
        }
        Kind::ProducerCrash | Kind::ProducerRejects | Kind::ProducerInvalidOutput | Kind::ProducerWrongSemantics => {
            let mut oracles: Vec<String> = d.oracles.clone();
            oracles.extend(context.validators.iter().cloned());
            oracles.push(IN_TREE.into());
            oracles.sort();
            oracles.dedup();
            argv.extend(["diff".into(), spv, "--oracles".into(), oracles.join(",")]);
            if let Some(e) = &case.entry {
                argv.extend(["--entry".into(), e.clone()]);
            }
        }
        // Both versions of the tool, with whatever judges a backend's or a producer's answer.
        Kind::Regression | Kind::Fix => {
            let mut oracles = vec![IN_TREE.to_string()];
            oracles.extend(d.oracles.iter().cloned());
            oracles.extend(context.validators.iter().cloned());
            oracles.extend(context.referee.clone());
            let mut seen = std::collections::BTreeSet::new();
            oracles.retain(|o| seen.insert(o.clone()));
            argv.extend(["diff".into(), spv, "--oracles".into(), oracles.join(",")]);
            if let Some(e) = &case.entry {
                argv.extend(["--entry".into(), e.clone()]);
            }
        }
        Kind::RejectsValid
        | Kind::MissesRule
        | Kind::WrongRule
        | Kind::ExtraRules
        | Kind::Stricter
        | Kind::OracleError
        | Kind::GeneratorInvariant
        | Kind::Panic => {
            let both = context.validators.iter().any(|v| v == spvgraph_oracle::registry::SPIRV_VAL);
            argv.extend(["validate".into(), "--oracle".into(), if both { "both" } else { "in-tree" }.into()]);
            argv.extend(["--target-env".into(), case.target_env.to_string()]);
            if let Some(p) = &case.profiles {
                argv.extend(["--profiles".into(), p.iter().map(|p| p.name()).collect::<Vec<_>>().join(",")]);
            }
            argv.push(spv);
        }
    }
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduce_commands_name_the_rule_and_config() {
        let (argv, out) = reproduce(42, Some("tosa.shape.output"), true);
        assert_eq!(
            argv.join(" "),
            "cargo run --release -q --bin spvgraph -- generate --seed 42 --count 1 --near-valid --rule \
             tosa.shape.output --config config.json --spvasm --no-mlir -o repro"
        );
        assert_eq!(out, "repro/case_42.spv");
        let (argv, _) = reproduce(7, None, false);
        assert_eq!(
            argv.join(" "),
            "cargo run --release -q --bin spvgraph -- generate --seed 7 --count 1 --spvasm --no-mlir -o repro"
        );
    }

    /// A finding seen only through a backend's rescue checks with
    /// `--rescue`; a form difference names every form.
    #[test]
    fn the_check_command_rescues_when_the_finding_came_through_the_rescue() {
        use spvgraph_oracle::judge::{Disagreement, Kind};
        use spvgraph_oracle::oracle::{ExecOutcome, Refusal};
        let mut case = CaseOutcome { entry: Some("g".into()), ..CaseOutcome::empty(0, 0) };
        let refused = Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, reason: "no".into() });
        case.answers.push(("iree".into(), super::super::case::Answer::of_outcome(&refused)));
        let context = StoreContext { referee: Some("tosa-ref".into()), ..StoreContext::default() };
        let d = Disagreement::new(Kind::WrongOutput, "iree", "ADD is wrong");
        let plain = check_command("s", &case, &d, &context).join(" ");
        assert!(plain.ends_with("diff s.spv --oracles in-tree,iree,tosa-ref --entry g"), "{plain}");
        let outputs = Ok(ExecOutcome::Outputs(Vec::new()));
        case.answers
            .push((super::super::batch::rescue_label("iree"), super::super::case::Answer::of_outcome(&outputs)));
        let rescued = check_command("s", &case, &d, &context).join(" ");
        assert!(rescued.ends_with("--entry g --rescue"), "{rescued}");
        let forms = Disagreement::new(Kind::FormDiffers, "iree", "forms differ");
        let all = check_command("s", &case, &forms, &context).join(" ");
        let n = spvgraph_oracle::forms::Form::ALL.len();
        assert!(all.contains(&format!("--forms {n}")), "{all}");
    }
}
