//! Counts over a hunt, and its summary as JSON and as a table.

use super::case::{Answer, CaseOutcome, RoundTrip, Subject};
use super::store::{KindTotals, Store};
use serde_json::{json, Value};
use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::judge::{Coverage, Kind, UnjudgedReason};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// What one oracle did over the hunt.
#[derive(Clone, Debug, Default)]
pub struct OracleTally {
    /// Cases it answered.
    pub cases: u64,
    /// Answers by label (`valid`, `invalid`, `outputs`, `refused`, `abnormal`, `error`, ...).
    pub answers: BTreeMap<String, u64>,
    /// Its wall time, summed.
    pub time: Duration,
    /// Where a backend's time went, by phase (what its adapter counts).
    pub phases: spvgraph_oracle::oracle::PhaseTimes,
    /// Time the hunt spent judging its answers.
    pub judgement: Duration,
}

/// What a backend's feed did over the hunt: its policy, the cells its
/// judged-coverage map holds and how that count grew.
#[derive(Clone, Debug)]
pub struct FeedReport {
    /// The backend (its release version's name).
    pub oracle: String,
    /// How its cases were chosen.
    pub policy: String,
    /// Cells judged.
    pub cells: usize,
    /// `(seconds into the hunt, cells judged)`, one point per growth.
    pub curve: Vec<(f64, usize)>,
    /// Candidates offered, taken (at random), dropped.
    pub tally: super::feed::FeedTally,
    /// The backend's fitted cost per case and per operator node, in
    /// seconds, once its batches told them apart.
    pub cost: Option<(f64, f64)>,
}

/// The most points of a coverage curve the summary keeps.
const CURVE_POINTS: usize = 200;

/// `curve` thinned to at most [`CURVE_POINTS`] points, keeping the last.
fn thin(curve: &[(f64, usize)]) -> Vec<(f64, usize)> {
    if curve.len() <= CURVE_POINTS {
        return curve.to_vec();
    }
    let step = curve.len().div_ceil(CURVE_POINTS);
    let mut out: Vec<(f64, usize)> = curve.iter().step_by(step).copied().collect();
    if let Some(&last) = curve.last() {
        if out.last() != Some(&last) {
            out.push(last);
        }
    }
    out
}

/// How many reasons a backend's cases were not run the text summary names.
const NOT_RUN_SHOWN: usize = 3;

/// What was judged of one backend's runs over the hunt (valid cases).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JudgedTally {
    /// Valid cases sent to it.
    pub sent: u64,
    /// Those it gave outputs for (the plain or the observed form).
    pub ran: u64,
    /// Those judged at every operator (and every output passed through).
    pub complete: u64,
    /// Those whose every graph output was judged (what judging graph
    /// outputs alone can reach at most).
    pub outputs_judged: u64,
    /// Those judged through graph outputs only (the observed form could not
    /// be made or run): the fallback.
    pub fallback: u64,
    /// Operators of the cases sent.
    pub operators: u64,
    /// Operators judged.
    pub judged: u64,
    /// Operators not judged, by reason.
    pub unjudged: BTreeMap<UnjudgedReason, u64>,
    /// Cases it gave no outputs for, by why (a refusal's first words).
    pub not_run: BTreeMap<String, u64>,
}

impl JudgedTally {
    /// Counts one backend's run of one case.
    pub fn add(&mut self, c: &Coverage) {
        self.sent += 1;
        self.ran += u64::from(c.ran);
        self.complete += u64::from(c.complete());
        self.outputs_judged += u64::from(c.ran && c.outputs_judged);
        self.fallback += u64::from(c.fallback.is_some());
        self.operators += c.operators as u64;
        self.judged += c.judged as u64;
        for (why, n) in &c.unjudged {
            *self.unjudged.entry(*why).or_default() += *n as u64;
        }
        if let Some(why) = &c.not_run {
            *self.not_run.entry(why.clone()).or_default() += 1;
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: &JudgedTally) {
        self.sent += o.sent;
        self.ran += o.ran;
        self.complete += o.complete;
        self.outputs_judged += o.outputs_judged;
        self.fallback += o.fallback;
        self.operators += o.operators;
        self.judged += o.judged;
        for (why, n) in &o.unjudged {
            *self.unjudged.entry(*why).or_default() += n;
        }
        for (why, n) in &o.not_run {
            *self.not_run.entry(why.clone()).or_default() += n;
        }
    }

    /// The commonest reasons cases were not run, most first.
    pub fn not_run_by_count(&self) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.not_run.iter().map(|(w, n)| (w.as_str(), *n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// The share of cases sent judged at every operator, in percent.
    pub fn complete_percent(&self) -> f64 {
        if self.sent == 0 {
            0.0
        } else {
            100.0 * self.complete as f64 / self.sent as f64
        }
    }
}

/// Counts over the cases one worker ran.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Cases generated.
    pub cases: u64,
    /// Valid ones.
    pub valid: u64,
    /// Near-valid ones.
    pub near_valid: u64,
    /// Planned near-valid cases no mutator could make.
    pub unavailable: u64,
    /// Round-trip: identical, differs, undecodable, not run.
    pub roundtrip: [u64; 4],
    /// Per oracle.
    pub oracles: BTreeMap<String, OracleTally>,
    /// Per rule: near-valid cases made, planned but unavailable.
    pub per_rule: BTreeMap<RuleId, [u64; 2]>,
    /// Disagreements (occurrences).
    pub disagreements: u64,
    /// Operator × type-row coverage of the valid cases generated.
    pub coverage: spvgraph_generator::Coverage,
    /// Per backend, what was judged of its runs.
    pub judged: BTreeMap<String, JudgedTally>,
    /// What the neighbours of new findings showed.
    pub neighbours: super::neighbours::NeighbourTally,
    /// `--profile networks`: cases per network and kind of change
    /// (`weights`, `cut`, ...; see [`super::networks`]).
    pub networks: BTreeMap<String, BTreeMap<String, u64>>,
}

fn label(a: &Answer) -> &'static str {
    match a {
        Answer::Valid => "accept",
        Answer::Invalid { .. } => "reject",
        Answer::Outputs { .. } => "outputs",
        Answer::Refused { kind, .. } if kind == "unsupported" => "unsupported",
        Answer::Refused { .. } => "refused",
        Answer::Abnormal { .. } => "abnormal",
        Answer::Read { .. } => "read",
        Answer::Produced { .. } => "produced",
        Answer::Error { .. } => "error",
    }
}

impl Stats {
    /// Counts a case after its first phase.
    pub fn add_case(&mut self, o: &CaseOutcome) {
        self.cases += 1;
        match (&o.subject, o.planned_rule) {
            (Subject::Valid(c), _) => {
                self.valid += 1;
                self.coverage.add(&c.meta);
            }
            (Subject::NearValid(_), _) => self.near_valid += 1,
            (Subject::Nothing, _) if o.unavailable.is_some() => self.unavailable += 1,
            (Subject::Nothing, None) => self.valid += 1,
            (Subject::Nothing, Some(_)) => self.near_valid += 1,
        }
        if let Some(r) = o.planned_rule {
            let e = self.per_rule.entry(r).or_default();
            e[usize::from(o.unavailable.is_some())] += 1;
        }
        if o.words.is_some() {
            self.roundtrip[match &o.roundtrip {
                RoundTrip::Identical => 0,
                RoundTrip::Differs(_) => 1,
                RoundTrip::Undecodable(_) => 2,
                RoundTrip::NotRun => 3,
            }] += 1;
        }
        for (name, a) in &o.answers {
            self.answer(name, a);
        }
        self.time(o);
        self.disagreements += o.disagreements.len() as u64;
        if let Some(n) = &o.network {
            *self.networks.entry(n.network.clone()).or_default().entry(n.kind().to_string()).or_default() += 1;
        }
    }

    /// Counts a sampled backend's answers on a case (the last ones it added).
    /// `answers`: how many answers the backend added (a producer runs each
    /// case twice, without and with debug information).
    pub fn add_backend(&mut self, o: &CaseOutcome, answers: usize) {
        for (name, a) in o.answers.iter().rev().take(answers) {
            self.answer(name, a);
        }
        for c in &o.coverage {
            self.judged.entry(c.oracle.clone()).or_default().add(c);
        }
        self.time(o);
        self.disagreements += o.disagreements.len() as u64;
    }

    /// Adds a backend's phase times of one batch.
    pub fn add_phases(&mut self, name: &str, p: &spvgraph_oracle::oracle::PhaseTimes) {
        self.oracles.entry(name.to_string()).or_default().phases.add(p);
    }

    /// Adds the time spent judging one batch of a backend's answers.
    pub fn add_judgement(&mut self, name: &str, d: Duration) {
        self.oracles.entry(name.to_string()).or_default().judgement += d;
    }

    fn answer(&mut self, name: &str, a: &Answer) {
        let t = self.oracles.entry(name.to_string()).or_default();
        t.cases += 1;
        *t.answers.entry(label(a).to_string()).or_default() += 1;
    }

    fn time(&mut self, o: &CaseOutcome) {
        for (name, d) in &o.durations {
            self.oracles.entry(name.clone()).or_default().time += *d;
        }
    }

    /// Adds another worker's counts.
    pub fn merge(&mut self, o: &Stats) {
        self.cases += o.cases;
        self.valid += o.valid;
        self.near_valid += o.near_valid;
        self.unavailable += o.unavailable;
        for i in 0..4 {
            self.roundtrip[i] += o.roundtrip[i];
        }
        for (name, t) in &o.oracles {
            let e = self.oracles.entry(name.clone()).or_default();
            e.cases += t.cases;
            e.time += t.time;
            e.phases.add(&t.phases);
            e.judgement += t.judgement;
            for (l, c) in &t.answers {
                *e.answers.entry(l.clone()).or_default() += c;
            }
        }
        for (r, c) in &o.per_rule {
            let e = self.per_rule.entry(*r).or_default();
            e[0] += c[0];
            e[1] += c[1];
        }
        self.disagreements += o.disagreements;
        self.coverage.merge(&o.coverage);
        for (name, t) in &o.judged {
            self.judged.entry(name.clone()).or_default().merge(t);
        }
        self.neighbours.merge(&o.neighbours);
        for (net, kinds) in &o.networks {
            let e = self.networks.entry(net.clone()).or_default();
            for (k, n) in kinds {
                *e.entry(k.clone()).or_default() += n;
            }
        }
    }
}

/// The operator × type-row table of `coverage` as JSON: every row of the
/// catalogue (all profiles and extensions) with the valid cases that reached it.
pub fn coverage_json(coverage: &spvgraph_generator::Coverage) -> Value {
    use spvgraph_generator::RowUse;
    use spvgraph_ir::tosa::TosaOp;
    let rows: Vec<Value> = spvgraph_generator::Coverage::catalogue_rows(&TosaOp::ALL, &spvgraph_ir::elem::Profile::ALL)
        .into_iter()
        .map(|(op, i)| {
            let r = RowUse::new(op, i);
            json!({ "op": op.name(), "row": i, "types": r.types, "profiles": r.profiles, "cases": coverage.count(op, i) })
        })
        .collect();
    let reached = rows.iter().filter(|r| r["cases"].as_u64().unwrap_or(0) > 0).count();
    json!({ "cases": coverage.cases, "rows_reached": reached, "rows": rows.len(), "table": rows })
}

/// What the summary reports about the hunt's set-up.
pub struct SummaryContext<'a> {
    /// First seed.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// Signatures on disk before this run.
    pub known_before: usize,
    /// Share of near-valid cases.
    pub near_valid_ratio: f64,
    /// Rules near-valid cases chose from.
    pub rules: &'a [RuleId],
    /// Each oracle's version.
    pub versions: &'a BTreeMap<String, String>,
    /// Each sampled oracle's share of cases.
    pub samples: &'a BTreeMap<String, f64>,
    /// Oracles left out, and why.
    pub unavailable: &'a [(String, String)],
    /// What each backend's feed did (policy, judged cells and their curve).
    pub guidance: &'a [FeedReport],
    /// The shard of the seed range the hunt ran (its seeds step by its count).
    pub shard: super::shard::Shard,
}

/// The registry oracle behind a summary row: `in-tree executor` is
/// `in-tree`'s, `model-converter (debug info)` is `model-converter`'s second
/// conversion (its time is counted in that row).
fn base_oracle(row: &str) -> &str {
    row.trim_end_matches(" (debug info)").trim_end_matches(" executor")
}

fn round(x: f64, places: i32) -> f64 {
    let p = 10f64.powi(places);
    (x * p).round() / p
}

/// What the `judged` part of a summary counts, in its own words.
pub const JUDGED_WHY: &str = "per backend, over the valid cases it was sent: each operator is judged on its own \
    (its reference computed from the backend's own values of its operands, shown by its run of the observed form); \
    a case is judged at every operator when every operator was; unjudged operators are counted by reason";

/// What the notes of a summary are, in its own words.
pub const NOTES_WHY: &str = "outside the tools' contracts, not findings: what a Vulkan consumer does with an \
    invalid module is undefined behaviour (spvgraph hunt --strict-consumers files them as low-severity findings); \
    where the TOSA reference model's own result fails an accuracy rule, the rule asks what no one delivers \
    (checker-disagrees-with-reference, charged to no one)";

/// What the `judged_cells` part of a summary counts, in its own words.
pub const CELLS_WHY: &str = "per backend, the cells of its judged-coverage map (operator x type row, each attribute \
    class, each class of the data it read, each construct of the case, each equivalent form per type row) that at \
    least one of its runs was judged on, and how that count grew over the hunt (seconds, cells); a guided backend is \
    sent first the cases that bring cells it lacks";

fn guidance_json(feeds: &[FeedReport]) -> Value {
    let map: serde_json::Map<String, Value> = feeds
        .iter()
        .map(|f| {
            let curve: Vec<Value> = thin(&f.curve).iter().map(|(t, n)| json!([round(*t, 1), n])).collect();
            let v = json!({
                "policy": f.policy,
                "cells": f.cells,
                "offered": f.tally.offered,
                "taken": f.tally.taken,
                "taken_at_random": f.tally.random,
                "dropped": f.tally.dropped,
                "cost_s": f.cost.map(|(case, operator)| json!({
                    "per_case": round(case, 4),
                    "per_operator": round(operator, 4),
                })),
                "curve": curve,
            });
            (f.oracle.clone(), v)
        })
        .collect();
    Value::Object(map)
}

/// The summary as JSON (also written to `OUT/summary.json`).
pub fn summary_json(st: &Stats, store: &Store, cx: &SummaryContext<'_>) -> Value {
    let secs = cx.elapsed.as_secs_f64();
    let totals = store.totals();
    let by_kind: serde_json::Map<String, Value> = totals
        .iter()
        .map(|(k, t)| {
            let v = json!({ "occurrences": t.occurrences, "signatures": t.signatures, "new": t.new, "documented": t.documented });
            (k.name().to_string(), v)
        })
        .collect();
    let signatures: Vec<Value> = store
        .seen()
        .into_iter()
        .map(|s| {
            json!({
                "signature": s.key,
                "kind": s.kind,
                "severity": s.severity,
                "oracles": s.oracles,
                "dir": store.dir().join(&s.slug),
                "occurrences": s.count,
                "status": s.status,
            })
        })
        .collect();
    let notes: Vec<Value> = store
        .notes()
        .into_iter()
        .map(|n| {
            json!({
                "signature": n.key,
                "kind": n.kind,
                "oracles": n.oracles,
                "occurrences": n.count,
                "seed": n.seed,
                "detail": n.detail,
            })
        })
        .collect();
    let oracles: serde_json::Map<String, Value> = st
        .oracles
        .iter()
        .map(|(name, t)| {
            let busy = t.time.as_secs_f64();
            let v = json!({
                "version": cx.versions.get(base_oracle(name)),
                "sample": cx.samples.get(base_oracle(name)),
                "cases": t.cases,
                "answers": t.answers,
                "busy_s": round(busy, 3),
                "cases_per_busy_s": if busy > 0.0 { round(t.cases as f64 / busy, 1) } else { 0.0 },
            });
            let mut v = v;
            if t.phases.total() > Duration::ZERO || t.judgement > Duration::ZERO {
                v["phases_s"] = json!({
                    "start": round(t.phases.start.as_secs_f64(), 3),
                    "compile": round(t.phases.compile.as_secs_f64(), 3),
                    "run": round(t.phases.run.as_secs_f64(), 3),
                    "readback": round(t.phases.readback.as_secs_f64(), 3),
                    "judgement": round(t.judgement.as_secs_f64(), 3),
                });
            }
            (name.clone(), v)
        })
        .collect();
    let per_rule: serde_json::Map<String, Value> = st
        .per_rule
        .iter()
        .map(|(r, c)| (r.name().to_string(), json!({ "cases": c[0], "unavailable": c[1] })))
        .collect();
    let minutes = secs / 60.0;
    let judged: serde_json::Map<String, Value> = st
        .judged
        .iter()
        .map(|(name, t)| {
            let unjudged: serde_json::Map<String, Value> =
                t.unjudged.iter().map(|(why, n)| (why.name().to_string(), json!(n))).collect();
            let v = json!({
                "cases_sent": t.sent,
                "cases_run": t.ran,
                "cases_judged_at_every_operator": t.complete,
                "judged_at_every_operator_percent": round(t.complete_percent(), 1),
                "cases_with_every_output_judged": t.outputs_judged,
                "cases_judged_through_outputs_only": t.fallback,
                "cases_not_run_by_reason": t.not_run,
                "operators": t.operators,
                "operators_judged": t.judged,
                "unjudged_operators": unjudged,
                "judged_operators_per_minute": if minutes > 0.0 { round(t.judged as f64 / minutes, 1) } else { 0.0 },
            });
            (name.clone(), v)
        })
        .collect();
    let last = (st.cases > 0).then(|| cx.seed.wrapping_add((st.cases - 1).wrapping_mul(cx.shard.of)));
    json!({
        "cases": st.cases,
        "seeds": { "first": cx.seed, "last": last, "step": cx.shard.of },
        "shard": (!cx.shard.is_whole()).then(|| cx.shard.to_string()),
        "valid": st.valid,
        "near_valid": st.near_valid,
        "near_valid_unavailable": st.unavailable,
        "elapsed_s": round(secs, 3),
        "cases_per_s": if secs > 0.0 { round(st.cases as f64 / secs, 1) } else { 0.0 },
        "jobs": cx.jobs,
        "near_valid_ratio": cx.near_valid_ratio,
        "near_valid_rules": cx.rules.len(),
        "oracles": oracles,
        "judged": {
            "why": JUDGED_WHY,
            "backends": judged,
        },
        "judged_cells": {
            "why": CELLS_WHY,
            "backends": guidance_json(cx.guidance),
        },
        // Mutants of the cases of new findings (`--neighbours`).
        "neighbours": st.neighbours,
        // `--profile networks`: the cases of each network, by kind of change.
        "networks": st.networks,
        "unavailable_oracles": cx.unavailable.iter().map(|(n, why)| json!({ "oracle": n, "why": why })).collect::<Vec<_>>(),
        "roundtrip": {
            "identical": st.roundtrip[0],
            "differs": st.roundtrip[1],
            "undecodable": st.roundtrip[2],
            "not_run": st.roundtrip[3],
        },
        "findings": {
            "dir": store.dir(),
            "occurrences": st.disagreements,
            "signatures": totals.values().map(|t| t.signatures).sum::<u64>(),
            "new_signatures": totals.values().map(|t| t.new).sum::<u64>(),
            "documented_signatures": totals.values().map(|t| t.documented).sum::<u64>(),
            "known_before": cx.known_before,
            "by_kind": by_kind,
            "list": signatures,
        },
        "notes": {
            "why": NOTES_WHY,
            "list": notes,
        },
        "recall": recall_json(store),
        "per_rule": per_rule,
        "coverage": coverage_json(&st.coverage),
    })
}

/// The summary as a table for people.
pub fn table(st: &Stats, store: &Store, cx: &SummaryContext<'_>) -> String {
    use std::fmt::Write as _;
    let secs = cx.elapsed.as_secs_f64();
    let rate = if secs > 0.0 { st.cases as f64 / secs } else { 0.0 };
    let mut t = String::new();
    let seeds = match st.cases {
        0 => "no seeds".to_string(),
        n if cx.shard.is_whole() => format!("seeds {}..={}", cx.seed, cx.seed.wrapping_add(n - 1)),
        n => format!(
            "shard {}: seeds {}, {}, ..., {}",
            cx.shard,
            cx.seed,
            cx.seed.wrapping_add(cx.shard.of),
            cx.seed.wrapping_add((n - 1).wrapping_mul(cx.shard.of))
        ),
    };
    let _ = writeln!(t, "hunt: {} cases in {secs:.1} s on {} job(s): {rate:.1} cases/s ({seeds})", st.cases, cx.jobs);
    let _ = writeln!(
        t,
        "  {} valid, {} near-valid, {} near-valid with no applicable case",
        st.valid, st.near_valid, st.unavailable
    );
    let _ = writeln!(
        t,
        "  round-trip: {} identical, {} differ, {} near-valid modules do not decode",
        st.roundtrip[0], st.roundtrip[1], st.roundtrip[2]
    );
    if !st.networks.is_empty() {
        let _ = writeln!(t, "  neighbours of {} network(s):", st.networks.len());
        for (net, kinds) in &st.networks {
            let total: u64 = kinds.values().sum();
            let by: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
            let _ = writeln!(t, "    {net}: {total} ({})", by.join(", "));
        }
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "{:<30}{:>8}{:>10}  {:<44} version", "oracle", "share", "cases/s", "answers");
    for (name, o) in &st.oracles {
        let busy = o.time.as_secs_f64();
        let per_s = if busy > 0.0 {
            format!("{:.1}", o.cases as f64 / busy)
        } else if base_oracle(name) != name.trim_end_matches(" executor") {
            "(above)".into()
        } else {
            "-".into()
        };
        let share = cx.samples.get(base_oracle(name)).map_or("all".to_string(), |f| format!("{f}"));
        let answers: Vec<String> = o.answers.iter().map(|(l, c)| format!("{c} {l}")).collect();
        let version = cx.versions.get(base_oracle(name)).map_or("", String::as_str);
        let _ = writeln!(t, "  {name:<28}{share:>8}{per_s:>10}  {:<44} {version}", answers.join(", "));
    }
    for (name, why) in cx.unavailable {
        let _ = writeln!(t, "  {name:<28}  not run: {why}");
    }
    let _ = writeln!(t, "  (cases/s: per second of the oracle's own time)");
    let _ = writeln!(t);
    if !st.judged.is_empty() {
        let minutes = secs / 60.0;
        let _ = writeln!(
            t,
            "{:<22}{:>7}{:>7}{:>10}{:>8}{:>11}{:>9}{:>10}  unjudged operators by reason",
            "judged per backend", "sent", "run", "every op", "share", "operators", "judged", "per min"
        );
        for (name, j) in &st.judged {
            let reasons: Vec<String> = j.unjudged.iter().map(|(why, n)| format!("{n} {why}")).collect();
            let per_min = if minutes > 0.0 { j.judged as f64 / minutes } else { 0.0 };
            let _ = writeln!(
                t,
                "  {name:<20}{:>7}{:>7}{:>10}{:>7.1}%{:>11}{:>9}{per_min:>10.1}  {}",
                j.sent,
                j.ran,
                j.complete,
                j.complete_percent(),
                j.operators,
                j.judged,
                if reasons.is_empty() { "-".to_string() } else { reasons.join(", ") }
            );
        }
        for (name, j) in &st.judged {
            let top: Vec<String> =
                j.not_run_by_count().iter().take(NOT_RUN_SHOWN).map(|(why, n)| format!("{n} {why}")).collect();
            if !top.is_empty() {
                let _ = writeln!(t, "  {name}: {} case(s) not run: {}", j.sent - j.ran, top.join("; "));
            }
        }
        let _ = writeln!(
            t,
            "  (every op: valid cases judged at every operator, each from the backend's own operand values; per min: operators judged per minute of the hunt)"
        );
        let _ = writeln!(t);
    }
    let totals = store.totals();
    let _ = writeln!(
        t,
        "{:<34}{:>12}{:>12}{:>6}{:>12}",
        "findings by kind", "occurrences", "signatures", "new", "documented"
    );
    for kind in Kind::ALL {
        let Some(k) = totals.get(&kind).copied() else { continue };
        let _ = writeln!(
            t,
            "  {:<32}{:>12}{:>12}{:>6}{:>12}",
            kind.name(),
            k.occurrences,
            k.signatures,
            k.new,
            k.documented
        );
    }
    let sum = |f: fn(&KindTotals) -> u64| totals.values().map(f).sum::<u64>();
    let (occ, sigs, new, doc) = (sum(|k| k.occurrences), sum(|k| k.signatures), sum(|k| k.new), sum(|k| k.documented));
    let _ = writeln!(t, "  {:<32}{:>12}{:>12}{:>6}{:>12}", "total", occ, sigs, new, doc);
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "{sigs} distinct signature(s): {new} new, {doc} documented, {} known from earlier runs; findings in {}",
        sigs - new - doc,
        store.dir().display()
    );
    for s in store.seen() {
        let _ = writeln!(
            t,
            "  {:<10} {:<6} {:>7}x  {}\n{:>26}{}",
            s.status,
            s.severity.name(),
            s.count,
            s.key,
            "-> ",
            store.dir().join(&s.slug).display()
        );
    }
    let notes = store.notes();
    if !notes.is_empty() {
        let _ = writeln!(t);
        let _ = writeln!(t, "{} note(s), {NOTES_WHY}:", notes.len());
        for n in notes {
            let _ = writeln!(t, "  note {:>7}x  {}  (first at seed {})", n.count, n.key, n.seed);
        }
    }
    if store.ignores_documented() {
        let recall = store.recall();
        let found = recall.iter().filter(|r| !r.found.is_empty()).count();
        let _ = writeln!(t);
        let _ = writeln!(
            t,
            "recall self-check (--ignore-documented): {found} of {} documented discrepancies found again",
            recall.len()
        );
        for r in &recall {
            let when =
                r.first_after.map_or_else(|| "not found".to_string(), |d| format!("after {:.0} s", d.as_secs_f64()));
            let _ = writeln!(t, "  {:<16} {:<18} {:<12} {}", r.oracle, r.kind, when, r.finding);
        }
    }
    t
}

/// The recall self-check as JSON (`null` unless the hunt ignored the
/// documented discrepancies).
fn recall_json(store: &Store) -> Value {
    if !store.ignores_documented() {
        return Value::Null;
    }
    store
        .recall()
        .into_iter()
        .map(|r| {
            json!({
                "oracle": r.oracle,
                "kind": r.kind,
                "finding": r.finding,
                "found_as": r.found,
                "first_after_seconds": r.first_after.map(|d| d.as_secs_f64().round()),
            })
        })
        .collect()
}

/// Rebuilds `OUT/summary.json` from what is on disk (`progress.json` and
/// the findings), for a hunt that was killed before it could write its
/// own; returns it. Per-oracle counts and times lived in the workers'
/// memory and are gone: the rebuilt summary says so (`"rebuilt": true`).
/// Findings first written by the run `progress.json` names are `new`.
pub fn rebuild(out: &std::path::Path) -> anyhow::Result<Value> {
    rebuild_marking_new(out, None)
}

/// [`rebuild`], with the signatures that are `new` given (`Some`: those of
/// a merge that are not in the store of earlier nights, whatever run wrote
/// them) rather than read from `progress.json`.
pub fn rebuild_marking_new(out: &std::path::Path, new: Option<&BTreeSet<String>>) -> anyhow::Result<Value> {
    let progress = super::progress::Progress::load(out)?;
    let dir = out.join("findings");
    let found = super::findings::read(&dir)?;
    let run = progress.as_ref().map(|p| p.run.as_str());
    let is_new = |f: &super::findings::Finding| match new {
        Some(keys) => keys.contains(f.key()),
        None => run.is_some() && f.run() == run,
    };
    let mut by_kind: BTreeMap<String, KindTotals> = BTreeMap::new();
    let mut list = Vec::new();
    for f in &found {
        let status = if f.documented() {
            "documented"
        } else if is_new(f) {
            "new"
        } else {
            "known"
        };
        let t = by_kind.entry(f.text("kind").to_string()).or_default();
        t.occurrences += f.occurrences();
        t.signatures += 1;
        t.new += u64::from(status == "new");
        t.documented += u64::from(status == "documented");
        list.push(json!({
            "signature": f.key(),
            "kind": f.text("kind"),
            "severity": f.text("severity"),
            "oracles": f.oracles(),
            "dir": f.dir,
            "occurrences": f.occurrences(),
            "status": status,
        }));
    }
    let sum = |g: fn(&KindTotals) -> u64| by_kind.values().map(g).sum::<u64>();
    let by_kind_json: serde_json::Map<String, Value> = by_kind
        .iter()
        .map(|(k, t)| {
            let v = json!({ "occurrences": t.occurrences, "signatures": t.signatures, "new": t.new, "documented": t.documented });
            (k.clone(), v)
        })
        .collect();
    let (cases, first, last) = match &progress {
        Some(p) => (p.done_below, Some(p.seed), p.done_below.checked_sub(1).map(|n| p.seed.wrapping_add(n))),
        None => (0, None, None),
    };
    let summary = json!({
        "rebuilt": true,
        "why": "rebuilt from the findings on disk and progress.json: per-oracle counts and timings of the run were not saved",
        "cases": cases,
        "seeds": { "first": first, "last": last },
        "progress": progress,
        "findings": {
            "dir": dir,
            "occurrences": sum(|t| t.occurrences),
            "signatures": sum(|t| t.signatures),
            "new_signatures": sum(|t| t.new),
            "documented_signatures": sum(|t| t.documented),
            "by_kind": by_kind_json,
            "list": list,
        },
    });
    let path = out.join("summary.json");
    super::progress::write_atomically(&path, &format!("{}\n", serde_json::to_string_pretty(&summary)?))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::base_oracle;

    #[test]
    fn rows_of_one_oracle_share_its_version_and_share() {
        assert_eq!(base_oracle("model-converter (debug info)"), "model-converter");
        assert_eq!(base_oracle("in-tree executor"), "in-tree");
        assert_eq!(base_oracle("emulation-layer"), "emulation-layer");
    }
}
