//! A hunt by hand through model-converter (producer) and IREE (executor) on
//! valid generated cases: every disagreement kind, counted, with the first
//! seed of each distinct signature (and, with `--out DIR`, its case files).
//!
//! ```sh
//! cargo run --release -p spvgraph-oracle --example producer_executor_hunt -- \
//!     [--oracle model-converter|iree|both] [--seed S] [--count N] [--jobs J] [--out DIR] [--set FIELD=VALUE]...
//! ```
//!
//! Per graph entry point of case `seed`: the in-tree executor's outputs are
//! the expectation (entry points it refuses, e.g. unpredictable ones, are
//! skipped). model-converter converts the entry point's MLIR with and
//! without `--emit-debug-info`; the module must pass the in-tree validator
//! and spirv-val and compute the case's outputs (bit-exact, else within the
//! TOSA compliance rules of a precise reference-model run). IREE must
//! compute the same outputs, or say that it cannot lower the graph.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

use rayon::prelude::*;
use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::tensor::TensorData;
use spvgraph_oracle::compliance::{compare_run_output, inexact_upstream, PreciseOutcome, PreciseOutput};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::iree::Iree;
use spvgraph_oracle::external::model_converter::ModelConverter;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::oracle::{
    ExecOutcome, ExecRequest, Oracle, ProduceOutcome, ProduceRequest, Refusal, ValidateOptions, Verdict,
};
use spvgraph_oracle::oracle::{Executor as _, Producer as _, Validator as _};
use spvgraph_oracle::produced::{bit_identical, ProducedRun};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

struct Oracles {
    mc: Option<ModelConverter>,
    iree: Option<Iree>,
    spirv_val: SpirvVal,
    reference: TosaReferenceModel,
}

#[derive(Default)]
struct Tally {
    /// kind → count.
    kinds: BTreeMap<String, usize>,
    /// signature → (count, first seed, entry point, detail).
    signatures: BTreeMap<String, (usize, u64, String, String)>,
}

impl Tally {
    fn record(&mut self, kind: &str, signature: &str, seed: u64, ep: &str, detail: &str) {
        *self.kinds.entry(kind.to_string()).or_insert(0) += 1;
        let e = self.signatures.entry(format!("{kind} | {signature}")).or_insert((
            0,
            seed,
            ep.to_string(),
            detail.to_string(),
        ));
        e.0 += 1;
        if seed < e.1 {
            (e.1, e.2, e.3) = (seed, ep.to_string(), detail.to_string());
        }
    }
}

/// Digits and long hex runs stripped, so that messages about different
/// shapes or ids share a signature.
fn normalize(text: &str) -> String {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let mut out = String::new();
    let mut last_digit = false;
    for c in first.chars().take(200) {
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            out.push(c);
            last_digit = false;
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let which = arg("--oracle").unwrap_or_else(|| "both".into());
    let seed: u64 = arg("--seed").and_then(|s| s.parse().ok()).unwrap_or(0);
    let count: u64 = arg("--count").and_then(|s| s.parse().ok()).unwrap_or(100);
    let jobs: usize = arg("--jobs").and_then(|s| s.parse().ok()).unwrap_or(2);
    let out = arg("--out").map(std::path::PathBuf::from);
    let oracles = Oracles {
        mc: (which == "both" || which == "model-converter").then(ModelConverter::discover),
        iree: (which == "both" || which == "iree").then(Iree::discover),
        spirv_val: SpirvVal::discover(),
        reference: TosaReferenceModel::discover(),
    };
    for o in [oracles.mc.as_ref().map(|o| o as &dyn Oracle), oracles.iree.as_ref().map(|o| o as &dyn Oracle)]
        .into_iter()
        .flatten()
    {
        if let Err(e) = o.available() {
            eprintln!("{e}");
            std::process::exit(2);
        }
        eprintln!("{}: {}", o.name(), o.version().unwrap_or_default());
    }
    let tally = Mutex::new(Tally::default());
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().expect("thread pool");
    let mut config = Config::default();
    for (i, a) in args.iter().enumerate() {
        if a == "--set" {
            let Some((field, value)) = args.get(i + 1).and_then(|s| s.split_once('=')) else {
                eprintln!("--set FIELD=VALUE");
                std::process::exit(2);
            };
            if let Err(e) = config.set(field, value) {
                eprintln!("--set {field}={value}: {e}");
                std::process::exit(2);
            }
        }
    }
    let graphs = std::sync::atomic::AtomicUsize::new(0);
    pool.install(|| {
        (seed..seed + count).into_par_iter().for_each(|s| {
            let case = generate_from_seed(s, &config);
            let n = hunt_case(&oracles, &case, s, &tally, out.as_deref());
            graphs.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        });
    });
    let t = tally.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    println!(
        "{count} cases (seeds {seed}..{}), {} graphs in {:.1} s",
        seed + count - 1,
        graphs.into_inner(),
        start.elapsed().as_secs_f64()
    );
    println!("\n{:<40} {:>7}", "outcome", "count");
    for (k, n) in &t.kinds {
        println!("{k:<40} {n:>7}");
    }
    println!("\nsignatures (count, first seed, entry point):");
    for (sig, (n, s, ep, detail)) in &t.signatures {
        println!(
            "{n:>6}  seed {s} {ep}  {sig}\n        {}",
            detail.lines().take(6).collect::<Vec<_>>().join("\n        ")
        );
    }
}

/// Runs every entry point of `case`; returns how many were run.
fn hunt_case(o: &Oracles, case: &Case, seed: u64, tally: &Mutex<Tally>, out: Option<&std::path::Path>) -> usize {
    let Ok(words) = case.module.encode_words() else { return 0 };
    let mut graphs = 0;
    for ep in &case.entry_points {
        let inputs: Vec<TensorData> = ep.inputs.iter().map(|i| i.data.clone()).collect();
        let request = ExecRequest {
            module: &words,
            entry_point: Some(&ep.name),
            inputs: &inputs,
            graph_constants: &case.graph_constants,
        };
        let expected = match Executor::default().execute(&request) {
            Ok(ExecOutcome::Outputs(o)) => o,
            _ => continue,
        };
        graphs += 1;
        let mut record = |kind: &str, signature: &str, detail: &str| {
            let mut t = tally.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let new = !t.signatures.contains_key(&format!("{kind} | {signature}"));
            t.record(kind, signature, seed, &ep.name, detail);
            drop(t);
            if let (true, Some(dir), false) = (new, out, kind.ends_with("ok") || kind.contains("unsupported")) {
                let _ = std::fs::create_dir_all(dir);
                let _ = spvgraph_generator::files::write_case(
                    dir,
                    &format!("{}_{seed}", kind.replace(' ', "_")),
                    case,
                    &spvgraph_generator::files::Extras { spvasm: true, mlir: true },
                );
            }
        };
        if let Some(mc) = &o.mc {
            let Ok(mlir) = spvgraph_ir::mlir::module_to_mlir(&case.module, &ep.name, &case.graph_constants) else {
                record("mlir-unprintable", "", "");
                continue;
            };
            for debug_info in [false, true] {
                let tag = if debug_info { "mc+debug" } else { "mc" };
                match mc.produce(&ProduceRequest { mlir: &mlir, debug_info }) {
                    Err(e) => record(&format!("{tag} harness-error"), &normalize(&e.to_string()), &e.to_string()),
                    Ok(ProduceOutcome::Abnormal { how, detail }) => {
                        record(&format!("{tag} producer-crash"), &format!("{how} {}", normalize(&detail)), &detail)
                    }
                    Ok(ProduceOutcome::Rejected { message }) => {
                        record(&format!("{tag} producer-rejects"), &normalize(&message), &message)
                    }
                    Ok(produced @ ProduceOutcome::Module { .. }) => {
                        check_produced(o, tag, &request, &expected, &produced, &mut record);
                    }
                }
            }
        }
        if let Some(iree) = &o.iree {
            match iree.execute(&request) {
                Err(e) => record("iree harness-error", &normalize(&e.to_string()), &e.to_string()),
                Ok(ExecOutcome::Abnormal { how, detail }) => {
                    record("iree crash", &format!("{how} {}", normalize(&detail)), &detail)
                }
                Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, reason }) => {
                    record("iree unsupported", &normalize(&reason), &reason)
                }
                Ok(ExecOutcome::Refused { kind, reason }) => {
                    record(&format!("iree refused-{kind:?}"), &normalize(&reason), &reason)
                }
                Ok(ExecOutcome::Outputs(got)) => compare(o, "iree", &request, &expected, got, &mut record),
            }
        }
    }
    graphs
}

fn check_produced(
    o: &Oracles,
    tag: &str,
    request: &ExecRequest<'_>,
    expected: &[TensorData],
    produced: &ProduceOutcome,
    record: &mut dyn FnMut(&str, &str, &str),
) {
    let ProduceOutcome::Module { words, .. } = produced else { return };
    let report = Validator::new(ValidateOptions::default()).check_words(words);
    if let Verdict::Invalid(d) = report.verdict() {
        let rules: Vec<String> = d
            .iter()
            .map(|d| d.rule.map_or("?".into(), |r| r.to_string()))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        record(&format!("{tag} invalid-output (in-tree)"), &rules.join(","), &d[0].message);
    }
    match o.spirv_val.validate(words, &ValidateOptions::default()) {
        Ok(Verdict::Invalid(d)) => {
            let rule = d[0].rule.map_or("?".into(), |r| r.to_string());
            record(
                &format!("{tag} invalid-output (spirv-val)"),
                &format!("{rule} {}", normalize(&d[0].message)),
                &d[0].message,
            )
        }
        Ok(Verdict::Valid) => {}
        Err(e) => record("spirv-val error", &normalize(&e.to_string()), &e.to_string()),
    }
    let run = match ProducedRun::new(request, produced) {
        Ok(r) => r,
        Err(e) => return record(&format!("{tag} unrunnable"), &normalize(&e.to_string()), &e.to_string()),
    };
    match Executor::default().execute(&run.request()) {
        Ok(ExecOutcome::Outputs(out)) => match run.case_outputs(&out) {
            Ok(got) => compare(o, tag, request, expected, got, record),
            Err(e) => record(&format!("{tag} unrunnable"), &normalize(&e.to_string()), &e.to_string()),
        },
        Ok(other) => record(
            &format!("{tag} produced-refused-by-executor"),
            &normalize(&format!("{other:?}")),
            &format!("{other:?}"),
        ),
        Err(e) => record(&format!("{tag} produced-executor-error"), &normalize(&e.to_string()), &e.to_string()),
    }
}

/// Bit-exact, or within the compliance rules of a precise reference run,
/// output by output; for IREE, outputs computed from approximations
/// ([`inexact_upstream`]) are counted apart, not judged.
fn compare(
    o: &Oracles,
    tag: &str,
    request: &ExecRequest<'_>,
    expected: &[TensorData],
    got: Vec<TensorData>,
    record: &mut dyn FnMut(&str, &str, &str),
) {
    if bit_identical(&got, expected) {
        return record(&format!("{tag} exact-ok"), "", "");
    }
    if got.len() != expected.len() {
        let detail = format!("{} outputs, {} expected", got.len(), expected.len());
        return record(&format!("{tag} wrong-output"), "output count", &detail);
    }
    let Ok(module) = spvgraph_ir::Module::decode_words(request.module) else { return };
    let inexact = inexact_upstream(&module, request.entry_point).unwrap_or_else(|_| vec![true; got.len()]);
    let mut reference: Option<Vec<PreciseOutput>> = None;
    let mut all_ok = true;
    for (j, (g, e)) in got.iter().zip(expected).enumerate() {
        if bit_identical(std::slice::from_ref(g), std::slice::from_ref(e)) {
            continue;
        }
        all_ok = false;
        let op = spvgraph_oracle::compliance::output_contexts(
            &module,
            request.entry_point,
            request.inputs,
            request.graph_constants,
        )
        .ok()
        .and_then(|c| c.get(j).cloned().flatten())
        .map_or("pass-through".to_string(), |c| c.op.to_string());
        // Between two implementations, an output computed from
        // approximations may differ legitimately; a producer's module runs
        // on the same executor as the case, so any difference is its doing.
        if inexact[j] && !tag.starts_with("mc") {
            record(&format!("{tag} differs after inexact upstream"), &op, "");
            continue;
        }
        if reference.is_none() {
            match o.reference.execute_precise(request) {
                Ok(PreciseOutcome::Outputs(r)) => reference = Some(r),
                other => {
                    let detail = format!("{other:?}").chars().take(300).collect::<String>();
                    return record(&format!("{tag} differs (no reference)"), &op, &detail);
                }
            }
        }
        let Some(r) = reference.as_ref().and_then(|r| r.get(j)) else { return };
        match compare_run_output(request, j, r, g) {
            Ok(v) if v.pass => record(&format!("{tag} compliant-ok"), &op, ""),
            Ok(v) => {
                let ours = compare_run_output(request, j, r, e).map_or_else(|e| e, |v| format!("in-tree: {v}"));
                record(&format!("{tag} wrong-output"), &op, &format!("output {j} ({op}): {v}\n{ours}"))
            }
            Err(e) => record(&format!("{tag} differs (judge error)"), &normalize(&e), &e),
        }
    }
    if all_ok {
        record(&format!("{tag} exact-ok"), "", "");
    }
}
