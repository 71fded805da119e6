//! The documentation against the tree: every `--flag` the README and `docs/*.md` give a
//! `spvgraph` command is one that command's `--help` lists, every repository path they name
//! exists, every relative link (and its `#anchor`) resolves, and the README stays a front door
//! of at most 12 KiB.

use spvgraph_testkit::bin;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The README's budget: a front door, the manual lives in `docs/`.
const README_MAX_BYTES: usize = 12 * 1024;

/// Where repository paths named in backticks start.
const REPO_PREFIXES: &[&str] =
    &["corpus/", "docs/", "src/", "ir/", "oracle/", "generator/", "reducer/", "fuzz/", "ci/", "tests/", ".github/"];

/// Paths the docs name that are build outputs, absent from a fresh checkout.
const BUILD_OUTPUTS: &[&str] = &["fuzz/target/"];

/// Upper-case words that are real file names, not placeholders such as `SLUG` or `DIR`.
const UPPER_CASE_NAMES: &[&str] = &["README", "UPSTREAM", "LICENSE", "DESIGN"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked, as (path relative to the root, text).
fn documents() -> Vec<(PathBuf, String)> {
    let mut paths = vec![PathBuf::from("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| PathBuf::from("docs").join(e.expect("docs/ entry").file_name()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    assert!(!pages.is_empty(), "docs/ has no .md page");
    paths.extend(pages);
    paths.extend(["ir/README.md", "oracle/README.md"].map(PathBuf::from));
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root().join(&p)).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, text)
        })
        .collect()
}

/// What a Markdown document holds that the checks read.
#[derive(Default)]
struct Parsed {
    /// Inline code spans and lines of fenced code blocks, with their line number.
    code: Vec<(usize, String)>,
    /// Rows of tables whose header's first cell is `command` (the CLI tables).
    cli_rows: Vec<(usize, String)>,
    /// Link targets `](...)`, with their line number.
    links: Vec<(usize, String)>,
    /// GitHub's anchors of the headings.
    anchors: BTreeSet<String>,
}

fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let mut in_fence = false;
    let mut in_cli_table = false;
    let mut previous_was_table = false;
    let mut paragraph: Vec<(usize, &str)> = Vec::new();
    let mut slug_counts: BTreeMap<String, usize> = BTreeMap::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            spans(&paragraph, &mut parsed.code);
            paragraph.clear();
            continue;
        }
        if in_fence {
            parsed.code.push((number, line.to_string()));
            continue;
        }
        let is_table = line.starts_with('|');
        if is_table && !previous_was_table {
            in_cli_table = cells(line).first().is_some_and(|c| c.trim() == "command");
        } else if is_table && in_cli_table && !line.starts_with("|---") {
            parsed.cli_rows.push((number, line.to_string()));
        }
        previous_was_table = is_table;
        if let Some(heading) = line.strip_prefix('#') {
            let title = heading.trim_start_matches('#').trim();
            let slug = github_slug(title);
            let count = slug_counts.entry(slug.clone()).or_insert(0);
            parsed.anchors.insert(if *count == 0 { slug.clone() } else { format!("{slug}-{count}") });
            *count += 1;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            parsed.links.push((number, after[..end].to_string()));
            rest = &after[end..];
        }
        if line.trim().is_empty() || is_table {
            spans(&paragraph, &mut parsed.code);
            paragraph.clear();
            if is_table {
                spans(&[(number, line)], &mut parsed.code);
            }
        } else {
            paragraph.push((number, line));
        }
    }
    spans(&paragraph, &mut parsed.code);
    parsed
}

/// The table cells of a row, split at `|` that are not escaped.
fn cells(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut chars = row.trim().trim_start_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cell)),
            other => cell.push(other),
        }
    }
    if !cell.trim().is_empty() {
        out.push(cell);
    }
    out
}

/// The inline code spans of a paragraph (they may cross lines), with the line each starts on.
fn spans(paragraph: &[(usize, &str)], out: &mut Vec<(usize, String)>) {
    let mut text = String::new();
    let mut line_of = Vec::new();
    for (number, line) in paragraph {
        for _ in 0..=line.len() {
            line_of.push(*number);
        }
        text.push_str(line);
        text.push('\n');
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
        let start = i + run;
        let mut j = start;
        let mut close = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let other = bytes[j..].iter().take_while(|&&b| b == b'`').count();
                if other == run {
                    close = Some(j);
                    break;
                }
                j += other;
            } else {
                j += 1;
            }
        }
        let Some(end) = close else { break };
        out.push((line_of[i], text[start..end].replace('\n', " ")));
        i = end + run;
    }
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn github_slug(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// `spvgraph` invocations in a piece of code: (command words, the text up to the next
/// invocation or comment, with quoted arguments, which belong to other programs, removed).
fn invocations(code: &str) -> Vec<(Vec<String>, String)> {
    let code = match code.find(" #") {
        Some(at) => &code[..at],
        None => code,
    };
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("spvgraph ") {
        let at = from + at;
        let word_start =
            at == 0 || code[..at].chars().next_back().is_some_and(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
        if word_start {
            starts.push(at);
        }
        from = at + "spvgraph ".len();
    }
    let mut out = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(code.len());
        let segment = &code[start + "spvgraph ".len()..end];
        let words: Vec<String> = segment
            .split_whitespace()
            .take(2)
            .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .take_while(|w| !w.starts_with('-'))
            .map(str::to_string)
            .collect();
        if words.is_empty() {
            continue;
        }
        out.push((words, strip_quoted(segment)));
    }
    out
}

/// The text without its complete `'...'` strings.
fn strip_quoted(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('\'') {
        let Some(close) = rest[open + 1..].find('\'') else { break };
        out.push_str(&rest[..open]);
        rest = &rest[open + 1 + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The `--flags` a piece of text names.
fn flags(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("--") {
        let at = i + at;
        let boundary = at == 0 || matches!(bytes[at - 1], b' ' | b'[' | b'(' | b'|' | b':' | b'{' | b'`');
        let name: String =
            text[at + 2..].chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-').collect();
        if boundary && name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.insert(format!("--{name}"));
        }
        i = at + 2 + name.len();
    }
    out
}

/// `spvgraph WORDS... --help`: the flags it lists, or `None` when WORDS is no command.
struct Helps(BTreeMap<Vec<String>, Option<BTreeSet<String>>>);

impl Helps {
    fn get(&mut self, words: &[String]) -> Option<&BTreeSet<String>> {
        self.0
            .entry(words.to_vec())
            .or_insert_with(|| {
                let out = bin!().args(words).arg("--help").output().expect("spvgraph runs");
                out.status.success().then(|| flags(&String::from_utf8_lossy(&out.stdout)))
            })
            .as_ref()
    }

    /// The command that `words` start with (`corpus check`, or `hunt` for `hunt --resume`)
    /// and its flags; `None` when the first word is no command.
    fn command(&mut self, words: &[String]) -> Option<(Vec<String>, BTreeSet<String>)> {
        for n in (1..=words.len()).rev() {
            if let Some(flags) = self.get(&words[..n]) {
                return Some((words[..n].to_vec(), flags.clone()));
            }
        }
        None
    }
}

#[test]
fn readme_is_a_front_door() {
    let size = std::fs::metadata(root().join("README.md")).expect("README.md").len();
    assert!(
        size <= README_MAX_BYTES as u64,
        "README.md is {size} bytes, over {README_MAX_BYTES}: move the detail to docs/"
    );
}

#[test]
fn every_documented_flag_exists() {
    let mut helps = Helps(BTreeMap::new());
    let mut problems = Vec::new();
    let mut checked = 0usize;
    for (path, text) in documents() {
        let parsed = parse(&text);
        for (line, code) in &parsed.code {
            for (words, segment) in invocations(code) {
                let Some((command, known)) = helps.command(&words) else {
                    problems.push(format!("{}:{line}: `spvgraph {}` is no command", path.display(), words[0]));
                    continue;
                };
                for flag in flags(&segment) {
                    checked += 1;
                    if !known.contains(&flag) {
                        problems.push(format!(
                            "{}:{line}: `spvgraph {}` has no {flag}",
                            path.display(),
                            command.join(" ")
                        ));
                    }
                }
            }
        }
        for (line, row) in &parsed.cli_rows {
            let first = cells(row).into_iter().next().unwrap_or_default();
            let mut commands = Vec::new();
            let mut first_spans = Vec::new();
            spans(&[(*line, first.as_str())], &mut first_spans);
            for (_, span) in first_spans {
                for (words, _) in invocations(&span) {
                    commands.extend(helps.command(&words));
                }
            }
            if commands.is_empty() {
                problems.push(format!("{}:{line}: a CLI row names no command", path.display()));
                continue;
            }
            for flag in flags(&strip_quoted(row)) {
                checked += 1;
                if !commands.iter().any(|(_, known)| known.contains(&flag)) {
                    let names: Vec<String> = commands.iter().map(|(c, _)| c.join(" ")).collect();
                    problems.push(format!(
                        "{}:{line}: CLI row of `spvgraph {}`: no such flag {flag}",
                        path.display(),
                        names.join("` / `spvgraph ")
                    ));
                }
            }
        }
    }
    println!("{checked} documented flags checked");
    assert!(checked > 100, "only {checked} flags found: the parser lost them");
    assert!(problems.is_empty(), "stale flags:\n{}", problems.join("\n"));
}

/// A path with a placeholder (`SLUG`, `DIR`, `<slug>`), a glob or a template is not a file.
fn is_pattern(path: &str) -> bool {
    if path.contains(['*', '<', '{', '$']) || path.contains("...") {
        return true;
    }
    path.split(['/', '.', '-']).filter(|w| w.len() >= 2).any(|w| {
        w.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            && w.starts_with(|c: char| c.is_ascii_uppercase())
            && !UPPER_CASE_NAMES.contains(&w)
    })
}

#[test]
fn every_documented_path_and_link_exists() {
    let documents = documents();
    let anchors: BTreeMap<PathBuf, BTreeSet<String>> =
        documents.iter().map(|(path, text)| (path.clone(), parse(text).anchors)).collect();
    let mut problems = Vec::new();
    let mut checked = 0usize;
    for (path, text) in &documents {
        let parsed = parse(text);
        let dir = path.parent().unwrap_or(Path::new(""));
        for (line, target) in &parsed.links {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if file.is_empty() { path.clone() } else { normalise(&dir.join(file)) };
            if !root().join(&file).exists() {
                problems.push(format!("{}:{line}: link to missing {target}", path.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let known = match anchors.get(&file) {
                    Some(known) => known.clone(),
                    None => parse(&std::fs::read_to_string(root().join(&file)).unwrap_or_default()).anchors,
                };
                if !known.contains(anchor) {
                    problems.push(format!(
                        "{}:{line}: link {target}: no heading #{anchor} in {}",
                        path.display(),
                        file.display()
                    ));
                }
            }
        }
        for (line, code) in &parsed.code {
            let Some(first) = code.split_whitespace().next() else { continue };
            let candidate = first.split(':').next().unwrap_or(first).trim_end_matches([',', ';', ')']);
            if !REPO_PREFIXES.iter().any(|p| candidate.starts_with(p))
                || is_pattern(candidate)
                || BUILD_OUTPUTS.contains(&candidate)
            {
                continue;
            }
            checked += 1;
            if !root().join(candidate).exists() {
                problems.push(format!("{}:{line}: no such path `{candidate}`", path.display()));
            }
        }
    }
    println!("{checked} documented paths and links checked");
    assert!(checked > 100, "only {checked} paths found: the parser lost them");
    assert!(problems.is_empty(), "stale paths or links:\n{}", problems.join("\n"));
}

/// `docs/../corpus/x` as `corpus/x`.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_parser_finds_what_it_checks() {
    let parsed = parse(
        "# A `b` (c)\n\nSee `spvgraph hunt --time\n10m` and [x](docs/a.md#b).\n\n\
         | command | what |\n|---|---|\n| `spvgraph diff F` | `--forms N` \\| x |\n\n\
         ```sh\nspvgraph corpus check --validator 'v --env {e}'   # --not-this\n```\n",
    );
    assert!(parsed.anchors.contains("a-b-c"), "{:?}", parsed.anchors);
    assert_eq!(parsed.links, vec![(4, "docs/a.md#b".to_string())]);
    assert_eq!(parsed.cli_rows.len(), 1);
    let hunt = parsed.code.iter().find(|(_, c)| c.starts_with("spvgraph hunt")).expect("the span across lines");
    assert_eq!(hunt.1, "spvgraph hunt --time 10m");
    let check = parsed.code.iter().find(|(_, c)| c.starts_with("spvgraph corpus")).expect("the fenced line");
    let found = invocations(&check.1);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, vec!["corpus".to_string(), "check".to_string()]);
    assert_eq!(flags(&found[0].1), BTreeSet::from(["--validator".to_string()]));
    assert!(is_pattern("corpus/findings/SLUG.md"));
    assert!(!is_pattern("corpus/README.md"));
    assert!(!is_pattern("reducer/README2.md"));
}

/// The number the docs quote in front of `noun` wherever `pattern` (the
/// text after the number) appears: every occurrence, so that one stale copy
/// fails too.
fn quoted_counts(text: &str, after: &str) -> Vec<usize> {
    text.match_indices(after)
        .filter_map(|(at, _)| {
            let before = text[..at].trim_end();
            let digits: String = before
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            digits.replace(',', "").parse().ok()
        })
        .collect()
}

#[test]
fn the_counts_the_docs_quote_are_the_catalogues() {
    let rules = spvgraph_ir::rules::RuleId::ALL.len();
    let kinds = spvgraph_oracle::judge::Kind::ALL.len();
    let forms = spvgraph_oracle::forms::Form::ALL.len();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for (path, text) in documents() {
        for (after, actual) in [
            (" rules)", rules),
            (" rules,", rules),
            (" kinds of disagreement", kinds),
            (" forms (`Form`", forms),
            (": every form that applies", forms),
        ] {
            for n in quoted_counts(&text, after) {
                seen += 1;
                if n != actual {
                    wrong.push(format!("{}: \"{n}{after}\" but the catalogue has {actual}", path.display()));
                }
            }
        }
    }
    assert!(seen >= 3, "the counts were not found in the docs ({seen}): the phrasing changed");
    assert!(wrong.is_empty(), "stale counts: {wrong:#?}");
}

/// Every oracle of the registry, and every channel instance `all` names,
/// has its row in docs/oracles.md's table of oracles: adding an oracle is
/// not done until a user can read what it is (a trial addition of one
/// found nothing else that would have said so).
#[test]
fn every_oracle_has_its_row_in_the_oracles_table() {
    let text = std::fs::read_to_string(root().join("docs/oracles.md")).expect("docs/oracles.md");
    let names = spvgraph_oracle::registry::NAMES.iter().chain(spvgraph_oracle::registry::PINNED_INSTANCES);
    let missing: Vec<&str> =
        names.filter(|n| !text.lines().any(|l| l.starts_with(&format!("| `{n}` |")))).map(|n| &**n).collect();
    assert!(missing.is_empty(), "docs/oracles.md has no table row for {missing:?}");
}
