//! `spvgraph findings status`: every corpus finding's reproducers
//! ([`super::reproduce`]) run again on every installed version of the tools
//! (the release, each channel such as `dev`, a user's build), recording per
//! finding and version whether the bug is still there, fixed in that
//! version, or fixed behind a flag (`upstream.fixed_behind`), and what
//! changed since a previous run ([`changes`]), for the nightly.

use super::reproduce::{self, Finding, RunError, Toolset};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// Where a finding stands on one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Its reproducer still shows the bug.
    Still,
    /// Its reproducer no longer shows it: fixed in this version.
    FixedIn,
    /// It shows with the defaults, and its `fixed_behind` reproducer shows
    /// the fix with an option on.
    FixedBehindFlag,
    /// The reproducer could not run here (a tool is missing, a step failed).
    NotRun,
}

impl State {
    /// Its name in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            State::Still => "still",
            State::FixedIn => "fixed-in",
            State::FixedBehindFlag => "fixed-behind-flag",
            State::NotRun => "not-run",
        }
    }
}

/// One finding on one version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Where it stands.
    pub state: State,
    /// The version it is fixed in, the flag, or why it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The versions of the tools its reproducer ran on.
    pub versions: String,
    /// Each reproducer's answer, by kind (`reproduce`, `reproduce_mlir`,
    /// `reproduce_api`, `fixed_behind`): `shows`, or what no longer holds,
    /// or why it did not run.
    pub reproducers: BTreeMap<String, String>,
    /// The version whose run answered for this one: both run the same
    /// binaries (a channel that pins none of the reproducer's tools).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<String>,
}

impl Cell {
    /// The state and its detail, as a table cell says it (`still`,
    /// `fixed-in ai-ml-sdk-model-converter 0.12.0`, `fixed-behind-flag
    /// allow-non-finites`, `not-run: ...`).
    pub fn summary(&self) -> String {
        match (&self.state, &self.detail) {
            (State::NotRun, Some(d)) => format!("not-run: {d}"),
            (s, Some(d)) => format!("{} {d}", s.name()),
            (s, None) => s.name().to_string(),
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())?;
        // A secondary reproducer that disagrees with the main one is worth a look.
        let main_shows = self.reproducers.get("reproduce").is_some_and(|r| r == SHOWS);
        let odd: Vec<String> = self
            .reproducers
            .iter()
            .filter(|(k, v)| {
                k.as_str() != "reproduce"
                    && k.as_str() != reproduce::FIXED_BEHIND
                    && (v.as_str() == SHOWS) != main_shows
            })
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        if !odd.is_empty() {
            write!(f, " ({})", odd.join("; "))?;
        }
        Ok(())
    }
}

/// One finding on every version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingStatus {
    /// The finding's stem.
    pub stem: String,
    /// `upstream.owner`.
    pub owner: String,
    /// By version label.
    pub versions: BTreeMap<String, Cell>,
}

/// A version the findings were run on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// `release`, a channel's name, or a user's label.
    pub label: String,
    /// What it is made of: the packages it has (a channel: those it pins
    /// over the release's; a user's build: the oracle and directory).
    pub tools: String,
}

/// The status of every finding.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The versions, in the order they were given.
    pub versions: Vec<Version>,
    /// Every finding, by stem.
    pub findings: Vec<FindingStatus>,
}

/// What a reproducer's answer is called when it shows what the finding says.
const SHOWS: &str = "shows";

/// One reproducer's answer on one version.
#[derive(Clone, Debug)]
enum Answer {
    Shows,
    NoLonger(String),
    NotRun(String),
}

impl Answer {
    fn text(&self) -> String {
        match self {
            Answer::Shows => SHOWS.to_string(),
            Answer::NoLonger(why) => format!("no longer shows: {why}"),
            Answer::NotRun(why) => format!("not run: {why}"),
        }
    }
}

fn answer(dir: &Path, stem: &str, r: &Value, toolset: &Toolset) -> Answer {
    if let Err(e) = reproduce::checked(r) {
        return Answer::NotRun(format!("not a reproducer: {e}"));
    }
    match reproduce::run(dir, stem, r, toolset) {
        Ok(ran) => match reproduce::shows(&r["shows"], &ran) {
            Ok(()) => Answer::Shows,
            Err(why) => Answer::NoLonger(why),
        },
        Err(e @ (RunError::Missing { .. } | RunError::Setup { .. } | RunError::Harness(_))) => {
            Answer::NotRun(first_line(&e.to_string()))
        }
    }
}

/// The first line of `text`, cut to a table's width.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let mut out: String = line.chars().take(160).collect();
    if out.len() < line.len() {
        out.push('…');
    }
    out
}

/// Runs every finding of `dir` whose stem contains `filter` (all when
/// empty) on every toolset; `progress` hears each finding and version as it
/// starts. A reproducer whose resolved programs and environment on a
/// version are those of an earlier version is not run again.
pub fn status(dir: &Path, toolsets: &[Toolset], filter: &str, progress: &dyn Fn(&str, &str)) -> anyhow::Result<Report> {
    let findings: Vec<Finding> = reproduce::findings(dir)?.into_iter().filter(|f| f.stem.contains(filter)).collect();
    let mut report = Report {
        versions: toolsets.iter().map(|t| Version { label: t.label.clone(), tools: t.describe() }).collect(),
        findings: Vec::new(),
    };
    for f in &findings {
        // (kind, key) -> (answer, label of the version that ran it).
        let mut seen: BTreeMap<(String, String), (Answer, String)> = BTreeMap::new();
        let mut cells = BTreeMap::new();
        for t in toolsets {
            progress(&f.stem, &t.label);
            cells.insert(t.label.clone(), cell(dir, f, t, &mut seen));
        }
        report.findings.push(FindingStatus { stem: f.stem.clone(), owner: f.owner().to_string(), versions: cells });
    }
    Ok(report)
}

/// One finding on one version; `seen` keeps the answers of earlier
/// versions by reproducer and resolved programs.
fn cell(dir: &Path, f: &Finding, t: &Toolset, seen: &mut BTreeMap<(String, String), (Answer, String)>) -> Cell {
    let mut reproducers = BTreeMap::new();
    let mut same_as: Option<String> = None;
    let mut all_reused = true;
    let mut ask = |kind: &str, r: &Value, reproducers: &mut BTreeMap<String, String>| -> Answer {
        let key = (kind.to_string(), t.key(r));
        let a = match seen.get(&key) {
            Some((a, label)) => {
                same_as.get_or_insert_with(|| label.clone());
                a.clone()
            }
            None => {
                all_reused = false;
                let a = answer(dir, &f.stem, r, t);
                seen.insert(key, (a.clone(), t.label.clone()));
                a
            }
        };
        reproducers.insert(kind.to_string(), a.text());
        a
    };
    let list = f.reproducers();
    let Some((_, main)) = list.first().copied() else {
        return Cell {
            state: State::NotRun,
            detail: Some("the finding has no upstream.reproduce".into()),
            versions: String::new(),
            reproducers,
            same_as: None,
        };
    };
    let main_answer = ask("reproduce", main, &mut reproducers);
    for (kind, r) in list.iter().skip(1) {
        ask(kind, r, &mut reproducers);
    }
    let (state, detail) = match &main_answer {
        Answer::NotRun(why) => (State::NotRun, Some(why.clone())),
        Answer::NoLonger(_) => (State::FixedIn, Some(t.versions_of(main))),
        Answer::Shows => match f.fixed_behind() {
            Some((flag, r)) => match ask(reproduce::FIXED_BEHIND, r, &mut reproducers) {
                Answer::Shows => (State::FixedBehindFlag, Some(flag.to_string())),
                Answer::NoLonger(_) | Answer::NotRun(_) => (State::Still, None),
            },
            None => (State::Still, None),
        },
    };
    Cell { state, detail, versions: t.versions_of(main), reproducers, same_as: if all_reused { same_as } else { None } }
}

/// What changed from `before` to `now`: one line per finding and version
/// whose state changed, per finding added or gone, and per version whose
/// tools changed.
pub fn changes(before: &Report, now: &Report) -> Vec<String> {
    let mut out = Vec::new();
    for v in &now.versions {
        match before.versions.iter().find(|b| b.label == v.label) {
            None => out.push(format!("{}: a version not measured before ({})", v.label, v.tools)),
            Some(b) if b.tools != v.tools => out.push(format!("{}: tools were {}, now {}", v.label, b.tools, v.tools)),
            Some(_) => {}
        }
    }
    for b in &before.versions {
        if !now.versions.iter().any(|v| v.label == b.label) {
            out.push(format!("{}: not measured this time", b.label));
        }
    }
    for f in &now.findings {
        let Some(old) = before.findings.iter().find(|b| b.stem == f.stem) else {
            let cells: Vec<String> = f.versions.iter().map(|(l, c)| format!("{l}: {}", c.summary())).collect();
            out.push(format!("{}: new finding ({})", f.stem, cells.join(", ")));
            continue;
        };
        for (label, cell) in &f.versions {
            if let Some(was) = old.versions.get(label) {
                if was.summary() != cell.summary() {
                    out.push(format!("{} on {label}: {} -> {}", f.stem, was.summary(), cell.summary()));
                }
            }
        }
    }
    for b in &before.findings {
        if !now.findings.iter().any(|f| f.stem == b.stem) {
            out.push(format!("{}: no longer in the corpus", b.stem));
        }
    }
    out
}

impl Report {
    /// A Markdown table: one row per finding, one column per version.
    pub fn table(&self) -> String {
        let mut out = String::from("| finding | owner |");
        for v in &self.versions {
            out.push_str(&format!(" {} |", v.label));
        }
        out.push_str("\n|---|---|");
        for _ in &self.versions {
            out.push_str("---|");
        }
        out.push('\n');
        for f in &self.findings {
            out.push_str(&format!("| `{}` | {} |", f.stem, f.owner));
            for v in &self.versions {
                let text = f.versions.get(&v.label).map(Cell::to_string).unwrap_or_default();
                out.push_str(&format!(" {} |", text.replace('|', "\\|")));
            }
            out.push('\n');
        }
        out
    }

    /// Per version, how many findings are in each state.
    pub fn totals(&self) -> BTreeMap<String, BTreeMap<State, usize>> {
        let mut out: BTreeMap<String, BTreeMap<State, usize>> = BTreeMap::new();
        for f in &self.findings {
            for (label, c) in &f.versions {
                *out.entry(label.clone()).or_default().entry(c.state).or_default() += 1;
            }
        }
        out
    }

    /// Reads a report written by `--json` or `--out`.
    pub fn read(path: &Path) -> anyhow::Result<Report> {
        let text =
            std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a `spvgraph findings status` report: {e}", path.display()))
    }
}
