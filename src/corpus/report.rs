//! What a check prints: a table per operator and per rule (pass, fail,
//! crash, skip; failures that are documented discrepancies counted apart),
//! the failing cases, and the same as JSON or JUnit XML.

use super::check::{CaseResult, CheckReport, Role, Status};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Counts of one group (or of everything).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Cases.
    pub cases: usize,
    /// Passed.
    pub pass: usize,
    /// Failed.
    pub fail: usize,
    /// Crashed, hung or ran out of memory.
    pub crash: usize,
    /// Skipped.
    pub skip: usize,
    /// Failures and crashes that are documented discrepancies.
    pub documented: usize,
}

impl Counts {
    fn add(&mut self, r: &CaseResult) {
        self.cases += 1;
        match r.status {
            Status::Pass => self.pass += 1,
            Status::Fail => self.fail += 1,
            Status::Crash => self.crash += 1,
            Status::Skip => self.skip += 1,
        }
        if r.documented.is_some() {
            self.documented += 1;
        }
    }
}

impl CheckReport {
    /// Totals over every case.
    pub fn totals(&self) -> Counts {
        let mut c = Counts::default();
        self.cases.iter().for_each(|r| c.add(r));
        c
    }

    /// Whether no case failed or crashed.
    pub fn passed(&self) -> bool {
        let t = self.totals();
        t.fail == 0 && t.crash == 0
    }

    /// Counts per group, for must-reject cases (`true`: per rule) or the
    /// others (`false`: per operator).
    pub fn groups(&self, must_reject: bool) -> BTreeMap<String, Counts> {
        let mut out: BTreeMap<String, Counts> = BTreeMap::new();
        for r in self.cases.iter().filter(|r| r.must_reject == must_reject) {
            out.entry(r.group.clone()).or_default().add(r);
        }
        out
    }

    /// The tables, the failing cases and the totals, as printed.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let version = self.version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
        let role = match self.role {
            Role::Validator => "validator",
            Role::Executor => "executor",
            Role::Reader => "reader",
        };
        let _ = writeln!(s, "{role} {}{version}", self.implementation);
        for (must_reject, title) in [(false, "operator"), (true, "rule")] {
            let groups = self.groups(must_reject);
            if groups.is_empty() {
                continue;
            }
            let _ = writeln!(s);
            s.push_str(&table(title, &groups));
        }
        let failing: Vec<&CaseResult> =
            self.cases.iter().filter(|r| matches!(r.status, Status::Fail | Status::Crash)).collect();
        if !failing.is_empty() {
            let _ = writeln!(s, "\nfailing cases:");
            for r in failing {
                let doc = r.documented.as_deref().map(|d| format!(" [documented: {d}]")).unwrap_or_default();
                let _ = writeln!(s, "  {} {}: {}{doc}", r.status.name(), r.name, r.detail);
            }
        }
        if !self.documented.is_empty() {
            let _ = writeln!(s, "\ndocumented discrepancies of {} (cases failing as each):", self.implementation);
            for finding in &self.documented {
                let n = self.cases.iter().filter(|r| r.documented.as_deref() == Some(finding.as_str())).count();
                let seen = if n == 0 { "not seen in this run".to_string() } else { format!("{n} cases") };
                let _ = writeln!(s, "  {finding}: {seen}");
            }
        }
        let t = self.totals();
        let _ = writeln!(
            s,
            "\n{} cases in {:.1} s: {} pass, {} fail, {} crash, {} skip ({} of the failures documented)",
            t.cases, self.seconds, t.pass, t.fail, t.crash, t.skip, t.documented
        );
        s
    }

    /// The report as JSON: the run, the totals, per-operator and per-rule
    /// counts, and every case.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "role": self.role,
            "implementation": self.implementation,
            "version": self.version,
            "profiles": self.profiles,
            "seconds": self.seconds,
            "totals": self.totals(),
            "operators": self.groups(false),
            "rules": self.groups(true),
            "cases": self.cases,
        })
    }

    /// The report as JUnit XML: one test suite, one test case per corpus
    /// case (class name: its operator or rule), failures as `<failure>`,
    /// crashes as `<error>`, skips as `<skipped>`.
    pub fn junit(&self) -> String {
        let t = self.totals();
        let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let name = format!("spvgraph corpus check {}", self.implementation);
        // The one suite's totals are also the whole run's.
        let attrs = format!(
            "name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\"",
            xml(&name),
            t.cases,
            t.fail,
            t.crash,
            t.skip,
            self.seconds
        );
        let _ = writeln!(s, "<testsuites {attrs}>");
        let _ = writeln!(s, "  <testsuite {attrs}>");
        for r in &self.cases {
            let _ = write!(
                s,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                xml(&r.group),
                xml(&r.name),
                r.seconds
            );
            let mut detail = r.detail.clone();
            if let Some(d) = &r.documented {
                detail.push_str(&format!(" [documented: {d}]"));
            }
            let body = match r.status {
                Status::Pass => None,
                Status::Fail => Some(("failure", detail)),
                Status::Crash => Some(("error", detail)),
                Status::Skip => Some(("skipped", detail)),
            };
            match body {
                None => s.push_str("/>\n"),
                Some((tag, text)) => {
                    let _ = writeln!(s, ">\n      <{tag} message=\"{}\"/>\n    </testcase>", xml(&text));
                }
            }
        }
        s.push_str("  </testsuite>\n</testsuites>\n");
        s
    }
}

fn table(title: &str, groups: &BTreeMap<String, Counts>) -> String {
    let width = groups.keys().map(|k| k.len()).max().unwrap_or(0).max(title.len());
    let mut s = String::new();
    let _ = writeln!(s, "{title:<width$}  cases  pass  fail  crash  skip  documented");
    let mut total = Counts::default();
    for (g, c) in groups {
        let _ = writeln!(
            s,
            "{g:<width$}  {:>5}  {:>4}  {:>4}  {:>5}  {:>4}  {:>10}",
            c.cases, c.pass, c.fail, c.crash, c.skip, c.documented
        );
        total.cases += c.cases;
        total.pass += c.pass;
        total.fail += c.fail;
        total.crash += c.crash;
        total.skip += c.skip;
        total.documented += c.documented;
    }
    let _ = writeln!(
        s,
        "{:<width$}  {:>5}  {:>4}  {:>4}  {:>5}  {:>4}  {:>10}",
        "total", total.cases, total.pass, total.fail, total.crash, total.skip, total.documented
    );
    s
}

/// Escapes text for an XML attribute.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, group: &str, status: Status) -> CaseResult {
        CaseResult {
            name: name.into(),
            group: group.into(),
            must_reject: group.contains('.'),
            status,
            detail: if status == Status::Pass { String::new() } else { "x < y & \"z\"".into() },
            documented: None,
            seconds: 0.5,
        }
    }

    #[test]
    fn junit_counts_and_escapes() {
        let report = CheckReport {
            role: Role::Validator,
            implementation: "v".into(),
            version: None,
            profiles: vec![],
            seconds: 1.0,
            cases: vec![
                case("valid/a", "ADD", Status::Pass),
                case("invalid/b", "Tosa.Operands", Status::Fail),
                case("valid/c", "ADD", Status::Skip),
                case("valid/d", "MUL", Status::Crash),
            ],
            documented: vec![],
        };
        let x = report.junit();
        assert!(x.contains("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\""), "{x}");
        assert!(x.contains("<failure message=\"x &lt; y &amp; &quot;z&quot;\"/>"), "{x}");
        assert_eq!(x.matches("<testcase ").count(), 4);
        assert!(!report.passed());
        let add = report.groups(false)["ADD"];
        assert_eq!((add.cases, add.pass, add.skip), (2, 1, 1));
        let text = report.text();
        assert!(text.contains("rule") && text.contains("Tosa.Operands"), "{text}");
        assert!(!text.contains("documented discrepancies of"), "a template has none: {text}");
    }

    #[test]
    fn each_documented_discrepancy_is_counted_even_when_not_seen() {
        let mut failing = case("valid/d", "MUL", Status::Fail);
        failing.documented = Some("corpus/findings/a.spv".into());
        let report = CheckReport {
            role: Role::Executor,
            implementation: "emulation-layer@dev".into(),
            version: None,
            profiles: vec![],
            seconds: 1.0,
            cases: vec![failing, case("valid/a", "ADD", Status::Pass)],
            documented: vec!["corpus/findings/a.spv".into(), "corpus/findings/b.spv".into()],
        };
        let text = report.text();
        assert!(text.contains("documented discrepancies of emulation-layer@dev"), "{text}");
        assert!(text.contains("  corpus/findings/a.spv: 1 cases\n"), "{text}");
        assert!(text.contains("  corpus/findings/b.spv: not seen in this run\n"), "{text}");
    }
}
