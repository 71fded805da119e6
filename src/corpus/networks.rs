//! `corpus check` on the real networks (`corpus/networks/`, see
//! [`crate::networks`]).
//!
//! A network is a TOSA flatbuffer, not a module: it becomes one through the
//! producer (model-converter), and is then judged exactly as `spvgraph diff`
//! judges it ([`crate::diff::diff_module`]): the implementation next to the
//! in-tree validator and executor, on the network's fixed inputs and the
//! producer's graph constants, every operator judged on its own through the
//! observed form, the TOSA reference model's precise run as the referee. The
//! network's stored outputs (the reference model on the flatbuffer itself)
//! are shown next to the in-tree executor's in the notes. A network the
//! producer makes no module of is skipped with the producer's answer: the
//! implementation was never asked.

use super::check::{status_of, CaseResult, Concern, Role, Status};
use crate::diff::{diff_module, DiffInputs, DiffReport};
use crate::hunt::case::Answer;
use crate::networks::Network;
use spvgraph_oracle::oracle::Oracle;
use std::sync::Arc;
use std::time::Instant;

/// The group reports file networks under.
pub const GROUP: &str = "(network)";

/// Judges `implementation` on every network, with `helpers` (the in-tree
/// oracle, the producer and the referee) beside it.
pub fn check_networks(
    networks: &[Network],
    implementation: &Arc<dyn Oracle>,
    role: Role,
    helpers: &[Arc<dyn Oracle>],
) -> Vec<CaseResult> {
    let mut oracles: Vec<Arc<dyn Oracle>> =
        helpers.iter().filter(|h| h.name() != implementation.name()).cloned().collect();
    oracles.push(implementation.clone());
    networks
        .iter()
        .map(|net| {
            let started = Instant::now();
            let (status, detail, documented) = match diff_module(&net.file(), &oracles, &DiffInputs::default()) {
                Ok(report) => verdict(&report, implementation.name(), role),
                Err(e) => (Status::Crash, format!("the network does not load: {e:#}"), None),
            };
            CaseResult {
                name: net.case_name(),
                group: GROUP.to_string(),
                must_reject: false,
                status,
                detail,
                documented,
                seconds: started.elapsed().as_secs_f64(),
            }
        })
        .collect()
}

/// The implementation's verdict in a network's diff report.
fn verdict(report: &DiffReport, name: &str, role: Role) -> (Status, String, Option<String>) {
    let Some((_, answer)) = report.answers.iter().find(|(n, _)| n == name) else {
        // The producer made no module, so nothing reached the implementation.
        let producer = report.answers.first().map(|(n, a)| format!("{n}: {}", answer_text(a))).unwrap_or_default();
        return (Status::Skip, format!("not run: no module was made of the network ({producer})"), None);
    };
    if let Answer::Refused { kind, reason } = answer {
        if kind == "unsupported" || kind == "over-budget" {
            return (Status::Skip, format!("not run: {kind}: {}", first_line(reason)), None);
        }
    }
    // A crash first: it is what the implementation did before anything else.
    let mine = report
        .disagreements
        .iter()
        .filter(|d| d.oracles.iter().any(|o| o == name))
        .filter_map(Concern::of)
        .min_by_key(|c| status_of(c.disagreement.kind) != Status::Crash);
    let others: Vec<String> = report
        .disagreements
        .iter()
        .filter(|d| !d.oracles.iter().any(|o| o == name))
        .map(|d| format!("{} ({})", d.kind.name(), d.oracles.join(",")))
        .collect();
    let judged = match role {
        Role::Executor => report.coverage.iter().find(|c| c.oracle == name).map(|c| format!("judged: {c}")),
        // A validator's or a reader's answer is judged whole.
        Role::Validator | Role::Reader => None,
    };
    let mut detail = judged.unwrap_or_default();
    if !others.is_empty() {
        detail = format!("{detail}; others disagree: {}", others.join(", "));
    }
    let Some(Concern { disagreement: d, documented }) = mine else {
        return (Status::Pass, detail.trim_start_matches("; ").to_string(), None);
    };
    (status_of(d.kind), format!("{}: {}", d.kind.name(), first_line(&d.detail)), documented)
}

fn answer_text(a: &Answer) -> String {
    serde_json::to_value(a)
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            format!("{} {}{}", s("answer"), s("how"), first_line(&(s("reason") + &s("error") + &s("detail"))))
        })
        .unwrap_or_default()
}

fn first_line(s: &str) -> &str {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}
