//! `spvgraph report DIR`: a hunt's output directory as a report for
//! people, in Markdown (`report.md`) and self-contained HTML
//! (`report.html`, no script): findings by oracle, kind, severity and
//! operator; what is new since the last run into the directory;
//! throughput; operator × type-row coverage; and each finding with a link
//! to its note and its reproduce command.
//!
//! The report is built once as [`Section`]s and rendered twice, so both
//! forms say the same. A hunt that was killed (its `progress.json` not
//! finished, or no `summary.json`) has its summary rebuilt from disk first.

use super::findings::{self, Finding};
use super::progress::Progress;
use super::upstream::{self, Sibling};
use anyhow::Context;
use serde_json::Value;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::oracle::Oracle;
use spvgraph_oracle::registry::{self, OracleConfig};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One cell of a table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    /// Its text.
    pub text: String,
    /// A relative link.
    pub link: Option<String>,
    /// Shown as code (commands, signatures).
    pub code: bool,
    /// A count of zero where one was wanted (coverage holes), shown marked.
    pub hole: bool,
}

impl Cell {
    fn text(t: impl ToString) -> Cell {
        Cell { text: t.to_string(), ..Cell::default() }
    }

    fn code(t: impl ToString) -> Cell {
        Cell { text: t.to_string(), code: true, ..Cell::default() }
    }
}

/// A section: a heading, paragraphs, a table, and pictures.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// The heading.
    pub title: String,
    /// Paragraphs before the table.
    pub text: Vec<String>,
    /// Column names (no table when empty).
    pub header: Vec<String>,
    /// Rows.
    pub rows: Vec<Vec<Cell>>,
    /// Pictures after the table.
    pub figures: Vec<Figure>,
}

/// A picture of a finding's graph: inline SVG in the HTML report, a link to
/// the file in the Markdown one.
#[derive(Clone, Debug, Default)]
pub struct Figure {
    /// What it shows (the finding).
    pub caption: String,
    /// The SVG file, relative to the report.
    pub file: String,
    /// Its contents.
    pub svg: String,
    /// The finding's `UPSTREAM.md`, relative to the report.
    pub upstream: Option<String>,
    /// Made by the report itself (a chart): [`write`] writes `file` too.
    pub generated: bool,
}

/// The report of one hunt directory.
#[derive(Clone, Debug)]
pub struct Report {
    /// Its title.
    pub title: String,
    /// Its sections.
    pub sections: Vec<Section>,
}

/// The summary of `dir`: `summary.json`, or rebuilt from disk when the
/// hunt did not finish (or wrote none).
pub fn summary(dir: &Path) -> anyhow::Result<Value> {
    let path = dir.join("summary.json");
    let unfinished = Progress::load(dir)?.is_some_and(|p| !p.finished);
    if unfinished || !path.is_file() {
        return super::summary::rebuild(dir);
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a hunt summary", path.display()))
}

fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

fn relative(dir: &Path, p: &Path) -> String {
    p.strip_prefix(dir).unwrap_or(p).to_string_lossy().into_owned()
}

/// Writes `UPSTREAM.md` (and its reproducer and graph picture) for every
/// finding in `found` that has none, with the registry's oracles and the
/// other findings as evidence; returns the errors, one line each.
pub fn write_upstream_reports(found: &[Finding]) -> Vec<String> {
    let oracles: Vec<Arc<dyn Oracle>> =
        registry::build_all(&OracleConfig::default()).into_iter().map(Arc::from).collect();
    let lookup = |name: &str| oracles.iter().find(|o| o.name() == name).cloned();
    let siblings: Vec<Sibling> = found.iter().map(Sibling::of).collect();
    let mut errors = Vec::new();
    for f in found.iter().filter(|f| !f.dir.join(upstream::FILE).is_file()) {
        if let Err(e) = upstream::write(&f.dir, &lookup, &siblings) {
            errors.push(format!("{}: {}: {e:#}", f.slug, upstream::FILE));
        }
    }
    errors
}

/// Builds the report of the hunt output directory `dir`.
pub fn build(dir: &Path) -> anyhow::Result<Report> {
    let s = summary(dir)?;
    let found = findings::read(&findings::findings_dir(dir))?;
    let upstream_errors = write_upstream_reports(&found);
    let status: BTreeMap<String, String> = s["findings"]["list"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| Some((f["signature"].as_str()?.to_string(), f["status"].as_str()?.to_string())))
        .collect();
    let status_of = |f: &Finding| status.get(f.key()).cloned().unwrap_or_else(|| "not seen this run".into());
    let mut sections = vec![overview(&s), new_since(dir, &found, &status_of)];
    sections.extend(groupings(&found));
    sections.push(listing(dir, &found, &status_of));
    sections.push(notes(&s));
    sections.push(pictures(dir, &found, &status_of, upstream_errors));
    sections.push(throughput(&s));
    sections.push(judged(&s));
    sections.push(judged_cells(&s));
    sections.push(coverage(&s));
    Ok(Report { title: format!("spvgraph hunt report: {}", dir.display()), sections })
}

fn overview(s: &Value) -> Section {
    let f = &s["findings"];
    let mut text = vec![format!(
        "{} cases (seeds {}..={}), {} distinct signatures: {} new, {} documented, {} occurrences.",
        count(&s["cases"]),
        s["seeds"]["first"],
        s["seeds"]["last"],
        count(&f["signatures"]),
        count(&f["new_signatures"]),
        count(&f["documented_signatures"]),
        count(&f["occurrences"]),
    )];
    if let Some(hunts) = s["merged"]["hunts"].as_u64() {
        text.push(format!("Merged from {hunts} hunts (`spvgraph findings merge`): the findings and the cases of each; per-oracle counts and times are in each hunt's own summary.json."));
    } else if s["rebuilt"] == Value::Bool(true) {
        text.push("The hunt did not finish (killed, or still running): this summary was rebuilt from the findings on disk, without its per-oracle counts.".into());
    }
    for u in s["unavailable_oracles"].as_array().into_iter().flatten() {
        text.push(format!("Not run: {} ({}).", u["oracle"].as_str().unwrap_or("?"), u["why"].as_str().unwrap_or("?")));
    }
    Section { title: "Overview".into(), text, ..Section::default() }
}

/// The project a finding's bug belongs to, as `UPSTREAM.md` decided it
/// (its first bold line), or the documented owner.
fn owner_of(f: &Finding) -> String {
    if let Some(o) = f.finding()["documented"]["owner"].as_str().and_then(Owner::from_name) {
        return o.project().to_string();
    }
    std::fs::read_to_string(f.dir.join(upstream::FILE))
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| l.strip_prefix("**").and_then(|r| r.split("**").next()).map(str::to_string))
        })
        .unwrap_or_else(|| "-".into())
}

fn finding_row(dir: &Path, f: &Finding, status: String) -> Vec<Cell> {
    let md = f.dir.join(format!("{}.md", f.slug));
    let up = f.dir.join(upstream::FILE);
    vec![
        Cell::text(status),
        Cell::text(f.text("severity")),
        Cell::text(f.text("kind")),
        Cell::text(f.oracles().join(", ")),
        Cell::text(f.finding()["operator"].as_str().unwrap_or("-")),
        Cell::text(f.occurrences()),
        Cell::text(f.reduction()),
        Cell { text: f.slug.clone(), link: Some(relative(dir, &md)), ..Cell::default() },
        Cell { text: owner_of(f), link: up.is_file().then(|| relative(dir, &up)), ..Cell::default() },
        Cell::code(format!("cd {} && {}", relative(dir, &f.dir), f.text("reproduce"))),
    ]
}

const FINDING_COLUMNS: [&str; 10] = [
    "status",
    "severity",
    "kind",
    "oracles",
    "operator",
    "occurrences",
    "reduced to",
    "finding",
    "belongs to (UPSTREAM.md)",
    "reproduce (from the report's directory)",
];

/// The graph of every finding that has a picture, new ones first.
fn pictures(dir: &Path, found: &[Finding], status_of: &dyn Fn(&Finding) -> String, errors: Vec<String>) -> Section {
    let mut sorted: Vec<&Finding> = found.iter().collect();
    sorted.sort_by_key(|f| (status_of(f) != "new", f.slug.clone()));
    let figures = sorted
        .into_iter()
        .filter_map(|f| {
            let file = f.dir.join(upstream::PICTURE);
            let svg = std::fs::read_to_string(&file).ok()?;
            let up = f.dir.join(upstream::FILE);
            Some(Figure {
                caption: format!(
                    "{} ({}): {} by {}, operator {}",
                    f.slug,
                    status_of(f),
                    f.text("kind"),
                    f.oracles().join(", "),
                    f.finding()["operator"].as_str().unwrap_or("not known")
                ),
                file: relative(dir, &file),
                svg,
                upstream: up.is_file().then(|| relative(dir, &up)),
                generated: false,
            })
        })
        .collect();
    let mut text = vec!["Each finding's graph as reduced, the culprit operator marked in red; its UPSTREAM.md is the report for the project it belongs to.".into()];
    text.extend(errors);
    Section { title: "Graphs".into(), text, figures, ..Section::default() }
}

fn new_since(dir: &Path, found: &[Finding], status_of: &dyn Fn(&Finding) -> String) -> Section {
    let rows: Vec<Vec<Cell>> =
        found.iter().filter(|f| status_of(f) == "new").map(|f| finding_row(dir, f, "new".into())).collect();
    let text = vec![if rows.is_empty() {
        "No new signature: everything this run found was known from an earlier run into this directory, or documented."
            .into()
    } else {
        format!("{} signature(s) no earlier run into this directory had found, none of them documented.", rows.len())
    }];
    let header = if rows.is_empty() { Vec::new() } else { FINDING_COLUMNS.map(String::from).to_vec() };
    Section { title: "New since the last run".into(), text, header, rows, ..Section::default() }
}

fn groupings(found: &[Finding]) -> Vec<Section> {
    let by = |title: &str, keys: &dyn Fn(&Finding) -> Vec<String>| {
        let mut t: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for f in found {
            for k in keys(f) {
                let e = t.entry(k).or_default();
                e.0 += 1;
                e.1 += f.occurrences();
            }
        }
        Section {
            title: format!("Findings by {title}"),
            text: Vec::new(),
            header: vec![title.to_string(), "signatures".into(), "occurrences".into()],
            rows: t.into_iter().map(|(k, (n, o))| vec![Cell::text(k), Cell::text(n), Cell::text(o)]).collect(),
            ..Section::default()
        }
    };
    let or_none = |v: Vec<String>| if v.is_empty() { vec!["-".to_string()] } else { v };
    vec![
        by("oracle", &|f| or_none(f.oracles())),
        by("kind", &|f| vec![f.text("kind").to_string()]),
        by("severity", &|f| vec![f.text("severity").to_string()]),
        by("operator", &|f| or_none(findings::strings(&f.finding()["operators"]))),
    ]
}

fn listing(dir: &Path, found: &[Finding], status_of: &dyn Fn(&Finding) -> String) -> Section {
    let mut sorted: Vec<&Finding> = found.iter().collect();
    sorted.sort_by_key(|f| (status_of(f) != "new", f.text("severity") != "high", f.slug.clone()));
    Section {
        title: "Every finding".into(),
        text: vec!["Each note says how to see the disagreement again; the reproduce command regenerates the case from its seed (run inside an spvgraph checkout).".into()],
        header: FINDING_COLUMNS.map(String::from).to_vec(),
        rows: sorted.into_iter().map(|f| finding_row(dir, f, status_of(f))).collect(),
        ..Section::default()
    }
}

/// What the run saw outside the tools' contracts (the summary's notes).
fn notes(s: &Value) -> Section {
    let list = s["notes"]["list"].as_array().cloned().unwrap_or_default();
    let why = s["notes"]["why"].as_str().unwrap_or(super::summary::NOTES_WHY);
    let text = vec![if list.is_empty() {
        "No notes.".to_string()
    } else {
        format!("{} note(s), {why}. `--strict-consumers` makes them findings.", list.len())
    }];
    let rows: Vec<Vec<Cell>> = list
        .iter()
        .map(|n| {
            vec![
                Cell::code(n["signature"].as_str().unwrap_or("?")),
                Cell::text(n["occurrences"].as_u64().unwrap_or(0)),
                Cell::text(n["seed"].as_u64().map_or_else(|| "?".to_string(), |x| x.to_string())),
                Cell::text(n["detail"].as_str().unwrap_or("")),
            ]
        })
        .collect();
    let header = if rows.is_empty() {
        Vec::new()
    } else {
        ["signature", "occurrences", "first seed", "detail"].map(String::from).to_vec()
    };
    Section { title: "Notes".into(), text, header, rows, ..Section::default() }
}

fn throughput(s: &Value) -> Section {
    let mut text = vec![format!(
        "{} cases in {} s on {} job(s): {} cases/s.",
        count(&s["cases"]),
        s["elapsed_s"],
        s["jobs"],
        s["cases_per_s"]
    )];
    if s["oracles"].as_object().is_none() {
        text = vec!["Not recorded (the summary was rebuilt after the hunt stopped).".into()];
    }
    let rows = s["oracles"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, o)| {
            let answers: Vec<String> =
                o["answers"].as_object().into_iter().flatten().map(|(l, c)| format!("{c} {l}")).collect();
            let p = &o["phases_s"];
            let phases = if p.is_object() {
                ["start", "compile", "run", "readback", "judgement"]
                    .iter()
                    .map(|k| format!("{k} {}", p[*k]))
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                String::new()
            };
            vec![
                Cell::text(name),
                Cell::text(o["sample"].as_f64().map_or("all".to_string(), |f| f.to_string())),
                Cell::text(count(&o["cases"])),
                Cell::text(&o["cases_per_busy_s"]),
                Cell::text(phases),
                Cell::text(answers.join(", ")),
                Cell::text(o["version"].as_str().unwrap_or("")),
            ]
        })
        .collect();
    Section {
        title: "Throughput".into(),
        text,
        header: ["oracle", "share", "cases", "cases per busy second", "where its time went (s)", "answers", "version"]
            .map(String::from)
            .to_vec(),
        rows,
        ..Section::default()
    }
}

/// What was judged of each backend's runs (the summary's `judged`).
fn judged(s: &Value) -> Section {
    let j = &s["judged"];
    let Some(backends) = j["backends"].as_object() else {
        return Section {
            title: "What was judged".into(),
            text: vec!["Not recorded (a rebuilt summary, or a hunt from before judged operators were counted).".into()],
            ..Section::default()
        };
    };
    let rows = backends
        .iter()
        .map(|(name, b)| {
            let reasons: Vec<String> = b["unjudged_operators"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(why, n)| format!("{n} {why}"))
                .collect();
            vec![
                Cell::text(name),
                Cell::text(count(&b["cases_sent"])),
                Cell::text(count(&b["cases_run"])),
                Cell::text(format!(
                    "{} ({}%)",
                    count(&b["cases_judged_at_every_operator"]),
                    b["judged_at_every_operator_percent"]
                )),
                Cell::text(format!("{} of {}", count(&b["operators_judged"]), count(&b["operators"]))),
                Cell::text(&b["judged_operators_per_minute"]),
                Cell::text(if reasons.is_empty() { "-".to_string() } else { reasons.join(", ") }),
            ]
        })
        .collect();
    Section {
        title: "What was judged".into(),
        text: vec![j["why"].as_str().unwrap_or_default().to_string()],
        header: [
            "backend",
            "valid cases sent",
            "run",
            "judged at every operator",
            "operators judged",
            "judged operators per minute",
            "unjudged operators by reason",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        ..Section::default()
    }
}

fn coverage(s: &Value) -> Section {
    let c = &s["coverage"];
    let Some(table) = c["table"].as_array() else {
        return Section {
            title: "Operator × type-row coverage".into(),
            text: vec!["Not recorded (a rebuilt summary, or a hunt from before coverage was recorded).".into()],
            ..Section::default()
        };
    };
    let mut per_op: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for r in table {
        per_op.entry(r["op"].as_str().unwrap_or("?").to_string()).or_default().push(r);
    }
    let rows = per_op
        .into_iter()
        .map(|(op, rs)| {
            let hit = rs.iter().filter(|r| count(&r["cases"]) > 0).count();
            let mut cells = vec![Cell::text(&op), Cell::text(format!("{hit}/{}", rs.len()))];
            let detail: Vec<String> = rs
                .iter()
                .map(|r| format!("{}: {}", findings::strings(&r["types"]).join(","), count(&r["cases"])))
                .collect();
            cells.push(Cell { text: detail.join("; "), hole: hit < rs.len(), ..Cell::default() });
            cells
        })
        .collect();
    Section {
        title: "Operator × type-row coverage".into(),
        text: vec![format!(
            "{} of {} type rows of the catalogue (every profile and extension) reached by {} valid cases.",
            count(&c["rows_reached"]),
            count(&c["rows"]),
            count(&c["cases"])
        )],
        header: ["operator", "rows reached", "cases per row (slot types: cases)"].map(String::from).to_vec(),
        rows,
        ..Section::default()
    }
}

/// The file the judged-cells chart is written to, beside the report.
const CELLS_CHART: &str = "judged-cells.svg";

/// Each backend's judged-coverage map: its policy, the cells judged and how
/// they grew (the summary's `judged_cells`), with the curves as a chart.
fn judged_cells(s: &Value) -> Section {
    let backends = s["judged_cells"]["backends"].as_object();
    let Some(backends) = backends.filter(|b| !b.is_empty()) else {
        return Section {
            title: "Judged cells".into(),
            text: vec!["Not recorded (no sampled backend, a rebuilt summary, or a hunt from before judged-coverage \
                        maps)."
                .into()],
            ..Section::default()
        };
    };
    let mut series = Vec::new();
    let rows = backends
        .iter()
        .map(|(name, b)| {
            let curve: Vec<(f64, f64)> = b["curve"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
                .collect();
            series.push((name.clone(), curve));
            vec![
                Cell::text(name),
                Cell::text(b["policy"].as_str().unwrap_or("")),
                Cell::text(count(&b["cells"])),
                Cell::text(format!("{} ({} at random)", count(&b["taken"]), count(&b["taken_at_random"]))),
                Cell::text(count(&b["offered"])),
                Cell::text(count(&b["dropped"])),
            ]
        })
        .collect();
    Section {
        title: "Judged cells".into(),
        text: vec![s["judged_cells"]["why"].as_str().unwrap_or("").to_string()],
        header: ["backend", "policy", "cells judged", "cases taken", "offered", "dropped"].map(String::from).to_vec(),
        rows,
        figures: vec![Figure {
            caption: "Cells judged per backend over the hunt (seconds)".into(),
            file: CELLS_CHART.into(),
            svg: curve_svg(&series),
            upstream: None,
            generated: true,
        }],
    }
}

/// Colours of the chart's lines, one per backend in turn.
const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

/// A line chart of `series` (name, points of x seconds and y cells), with
/// axes and a legend, as SVG.
pub fn curve_svg(series: &[(String, Vec<(f64, f64)>)]) -> String {
    let (w, h, left, bottom) = (640.0, 320.0, 60.0, 40.0);
    let xmax = series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0)).fold(1.0f64, f64::max);
    let ymax = series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1)).fold(1.0f64, f64::max);
    let x = |v: f64| left + v / xmax * (w - left - 140.0);
    let y = |v: f64| h - bottom - v / ymax * (h - bottom - 20.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" \
         font-size=\"11\"><rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>"
    );
    let _ = write!(
        out,
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\
         <line x1=\"{left}\" y1=\"20\" x2=\"{left}\" y2=\"{}\" stroke=\"black\"/>",
        h - bottom,
        w - 140.0,
        h - bottom,
        h - bottom
    );
    for k in 0..=4 {
        let (xv, yv) = (xmax * f64::from(k) / 4.0, ymax * f64::from(k) / 4.0);
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{xv:.0}</text>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{yv:.0}</text>",
            x(xv),
            h - bottom + 15.0,
            left - 5.0,
            y(yv) + 4.0
        );
    }
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">seconds into the hunt</text>\
         <text x=\"12\" y=\"{:.1}\" transform=\"rotate(-90 12 {:.1})\" text-anchor=\"middle\">cells judged</text>",
        x(xmax / 2.0),
        h - 5.0,
        h / 2.0,
        h / 2.0
    );
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = points.iter().map(|(a, b)| format!("{:.1},{:.1}", x(*a), y(*b))).collect();
        let _ = write!(
            out,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\
             <rect x=\"{}\" y=\"{}\" width=\"12\" height=\"3\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            path.join(" "),
            w - 130.0,
            24.0 + 16.0 * i as f64,
            w - 114.0,
            28.0 + 16.0 * i as f64,
            html_escape(name)
        );
    }
    out.push_str("</svg>");
    out
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The report as Markdown.
pub fn markdown(r: &Report) -> String {
    let mut out = format!("# {}\n", r.title);
    for s in &r.sections {
        let _ = write!(out, "\n## {}\n\n", s.title);
        for p in &s.text {
            let _ = write!(out, "{p}\n\n");
        }
        for fig in &s.figures {
            let _ = write!(out, "![{}]({})", md_escape(&fig.caption), fig.file.replace(' ', "%20"));
            if let Some(u) = &fig.upstream {
                let _ = write!(out, " ([UPSTREAM.md]({}))", u.replace(' ', "%20"));
            }
            out.push_str("\n\n");
        }
        if s.header.is_empty() {
            continue;
        }
        let _ = writeln!(out, "| {} |", s.header.join(" | "));
        let _ = writeln!(out, "|{}", "---|".repeat(s.header.len()));
        for row in &s.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|c| {
                    let t = md_escape(&c.text);
                    let t = if c.code { format!("`{t}`") } else { t };
                    let t = if c.hole { format!("**{t}**") } else { t };
                    match &c.link {
                        Some(l) => format!("[{t}]({})", l.replace(' ', "%20")),
                        None => t,
                    }
                })
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The report as one self-contained HTML page (inline style, no script).
pub fn html(r: &Report) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(out, "<title>{}</title>", html_escape(&r.title));
    out.push_str(
        "<style>body{font-family:sans-serif;margin:2em;max-width:110em}table{border-collapse:collapse;margin:1em 0}\
         td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}th{background:#eee}\
         code{font-size:90%}.hole{background:#fde2e2}</style>\n</head>\n<body>\n",
    );
    let _ = writeln!(out, "<h1>{}</h1>", html_escape(&r.title));
    for s in &r.sections {
        let _ = writeln!(out, "<h2>{}</h2>", html_escape(&s.title));
        for p in &s.text {
            let _ = writeln!(out, "<p>{}</p>", html_escape(p));
        }
        for fig in &s.figures {
            let link = fig.upstream.as_ref().map(|u| format!(" (<a href=\"{}\">UPSTREAM.md</a>)", html_escape(u)));
            let _ = writeln!(
                out,
                "<figure>{}<figcaption>{}{}</figcaption></figure>",
                fig.svg,
                html_escape(&fig.caption),
                link.unwrap_or_default()
            );
        }
        if s.header.is_empty() {
            continue;
        }
        out.push_str("<table>\n<tr>");
        for h in &s.header {
            let _ = write!(out, "<th>{}</th>", html_escape(h));
        }
        out.push_str("</tr>\n");
        for row in &s.rows {
            out.push_str("<tr>");
            for c in row {
                let mut t = html_escape(&c.text);
                if c.code {
                    t = format!("<code>{t}</code>");
                }
                if let Some(l) = &c.link {
                    t = format!("<a href=\"{}\">{t}</a>", html_escape(l));
                }
                let class = if c.hole { " class=\"hole\"" } else { "" };
                let _ = write!(out, "<td{class}>{t}</td>");
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// Writes `report.md` and `report.html` of the hunt directory `dir` into
/// `dir`; returns their paths.
pub fn write(dir: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    let r = build(dir)?;
    for f in r.sections.iter().flat_map(|s| &s.figures).filter(|f| f.generated) {
        let path = dir.join(&f.file);
        std::fs::write(&path, &f.svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let (md, page) = (dir.join("report.md"), dir.join("report.html"));
    std::fs::write(&md, markdown(&r)).with_context(|| format!("cannot write {}", md.display()))?;
    std::fs::write(&page, html(&r)).with_context(|| format!("cannot write {}", page.display()))?;
    Ok((md, page))
}
