//! The `model-explorer` reader (Arm's SPIR-V and VGF adapters for Model
//! Explorer in a persistent Python worker) against the corpus: every valid
//! case shown as it is but for the adapters' documented bugs, every invalid
//! case answered (an exception is an answer; a crash or a hang is not), each
//! documented bug still shown by its minimal module, and a worker that dies
//! or hangs replaced for the next module.

use spvgraph_oracle::external::model_explorer::{ModelExplorer, KNOWN};
use spvgraph_oracle::external::process::Limits;
use spvgraph_oracle::judge::{judge, Disagreement, Expectation, Kind, Observations, ReadSubject, ReadingAnswer};
use spvgraph_oracle::oracle::Reader as _;
use spvgraph_oracle::oracle::{Abnormal, Oracle, ReadOutcome};
use spvgraph_testkit::{registry_oracle, scratch};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn words_of(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn read_judged(reader: &dyn Oracle, words: &[u32], expect: &Expectation) -> Vec<Disagreement> {
    let outcome = reader.reader().and_then(|r| r.read(words));
    let obs = Observations {
        readings: vec![ReadingAnswer { oracle: reader, subject: ReadSubject::Module(words), outcome }],
        module: Some(words),
        ..Observations::default()
    };
    judge(expect, &obs)
}

/// The `.spv` files of a corpus folder, sorted.
fn modules(folder: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("corpus").join(folder))
        .expect("corpus folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .collect();
    out.sort();
    out
}

#[test]
fn valid_cases_are_shown_as_they_are_but_for_documented_bugs() {
    let Some(reader) = registry_oracle("model-explorer") else { return };
    let mut documented: BTreeMap<String, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    let files = modules("valid");
    for f in &files {
        for d in read_judged(reader.as_ref(), &words_of(f), &Expectation::Valid) {
            match &d.documented {
                Some(doc) => *documented.entry(doc.finding.clone()).or_default() += 1,
                None => wrong.push(format!("{}: {}: {}", f.display(), d.signature().key(), d.detail)),
            }
        }
    }
    eprintln!("{} valid cases; documented: {documented:#?}", files.len());
    assert!(wrong.is_empty(), "{} undocumented:\n{}", wrong.len(), wrong.join("\n"));
    // The corpus has bf16, fp8 and nested integer constants: their bugs show.
    for stem in ["bf16-constant-read-as-half", "fp8-constant-raw-bits", "nested-int-constant-unsigned"] {
        assert!(documented.keys().any(|k| k.contains(stem)), "{stem} not seen on the corpus: {documented:?}");
    }
}

#[test]
fn invalid_cases_are_answered_without_a_crash_or_a_hang() {
    let Some(reader) = registry_oracle("model-explorer") else { return };
    let mut crashes = Vec::new();
    for f in modules("invalid") {
        let expect = Expectation::Invalid { rules: Vec::new(), mutator: None };
        for d in read_judged(reader.as_ref(), &words_of(&f), &expect) {
            if d.documented.is_none() {
                crashes.push(format!("{}: {}", f.display(), d.signature().key()));
            }
        }
    }
    assert!(crashes.is_empty(), "{}", crashes.join("\n"));
}

#[test]
fn every_documented_bug_still_shows_with_its_minimal_module() {
    let Some(reader) = registry_oracle("model-explorer") else { return };
    for k in KNOWN {
        let spv = root().join(k.finding);
        let words = words_of(&spv);
        let vgf = spv.with_extension("vgf");
        let (outcome, subject) = if vgf.is_file() {
            let bytes = std::fs::read(&vgf).expect("vgf");
            let subject = ReadSubject::Produced {
                producer: "model-converter".into(),
                words: words.clone(),
                graph_constants: BTreeMap::new(),
                container: true,
            };
            (reader.reader().and_then(|r| r.read_container(&bytes)), subject)
        } else {
            (reader.reader().and_then(|r| r.read(&words)), ReadSubject::Module(&words))
        };
        let obs = Observations {
            readings: vec![ReadingAnswer { oracle: reader.as_ref(), subject, outcome }],
            module: Some(&words),
            ..Observations::default()
        };
        let ds = judge(&Expectation::Valid, &obs);
        assert!(
            ds.iter()
                .any(|d| d.kind.name() == k.kind && d.documented.as_ref().is_some_and(|doc| doc.finding == k.finding)),
            "{}: not shown as documented: {ds:#?}",
            k.finding
        );
    }
}

/// A stand-in for Python that dies on a signal (or hangs) once it has read
/// a request: the oracle must answer a crash (a timeout) and start a new
/// worker for the next module.
fn fake_python(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("python");
    std::fs::write(&path, format!("#!/bin/sh\nread line\n{body}\n")).expect("write");
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).expect("chmod");
    path
}

#[test]
fn a_worker_that_dies_or_hangs_is_an_answer_and_is_replaced() {
    let dir = scratch("model-explorer-fake");
    let words = spvgraph_ir::samples::elementwise_chain(2).encode_words().expect("encodes");
    let tools = spvgraph_oracle::tools::Tools::discover();
    let crashing = ModelExplorer::from_config(&tools, Some(&fake_python(dir.path(), "kill -SEGV $$")));
    for _ in 0..2 {
        match crashing.read(&words) {
            Ok(ReadOutcome::Abnormal { how: Abnormal::Signal(11), .. }) => {}
            other => panic!("expected a SIGSEGV answer, got {other:?}"),
        }
    }
    assert_eq!(crashing.worker_stats().started, 2, "a new worker for the second module");
    let hang_dir = scratch("model-explorer-hang");
    let limits = Limits { timeout: Duration::from_secs(1), memory_bytes: None };
    let hanging =
        ModelExplorer::from_config(&tools, Some(&fake_python(hang_dir.path(), "sleep 600"))).with_limits(limits);
    let start = std::time::Instant::now();
    match hanging.read(&words) {
        Ok(ReadOutcome::Abnormal { how: Abnormal::Timeout, .. }) => {}
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(start.elapsed() < Duration::from_secs(30), "killed in {:?}", start.elapsed());
    let ds = {
        let outcome = Ok(ReadOutcome::Abnormal { how: Abnormal::Timeout, detail: String::new() });
        let obs = Observations {
            readings: vec![ReadingAnswer { oracle: &hanging, subject: ReadSubject::Module(&words), outcome }],
            ..Observations::default()
        };
        judge(&Expectation::Valid, &obs)
    };
    assert_eq!(ds.iter().map(|d| d.kind).collect::<Vec<_>>(), [Kind::ReaderCrash]);
}
