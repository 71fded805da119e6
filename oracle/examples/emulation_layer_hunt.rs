//! A bug hunt on the emulation layer by hand: generated cases through the
//! layer (batched), the in-tree executor and, where it runs, the TOSA
//! reference model in precise mode, judged with the TOSA compliance rules;
//! near-valid cases (one must-reject rule broken) through the layer alone.
//! Prints every disagreement and a table of distinct signatures; with
//! `--save DIR`, writes the first case of each signature there in corpus
//! format with the scenario that reproduces it.
//!
//! ```text
//! cargo run --release -p spvgraph-oracle --example emulation_layer_hunt -- \
//!     [--seed S] [--count N] [--near-valid | --per-row N | --per-rule N] [--special P] [--batch B]
//!     [--timeout SECS] [--save DIR]
//! ```
//!
//! `--per-row N` runs N single-operator graphs per operator × type row (so a
//! wrong output names its operator); otherwise `--count` generated cases
//! (seeds from `--seed`) with the default generator configuration, without
//! tensor-array interfaces (the scenario runner cannot bind them).
//! `--per-rule N` runs N near-valid cases for every must-reject rule a
//! near-valid mutator breaks. `--special P`: each input element is a special value (NaN, ±inf, ±0,
//! subnormals, extremes) with probability P.
//!
//! Kinds: `crash`, `timeout`, `out-of-memory`, `refused-valid`,
//! `wrong-output` (judged against the precise reference where the model ran,
//! else against the in-tree executor; all three verdicts are printed),
//! `accepts-invalid` (a near-valid module ran and produced outputs),
//! `unsupported` (what the scenario runner cannot express; not a finding).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

use spvgraph_generator::files::{write_case, Extras};
use spvgraph_generator::near_valid::{covered_rules, near_valid_from_seed};
use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::compliance::{compare_run, Agreement, PreciseOutcome, PreciseOutput, ReferenceTensor};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::emulation_layer::EmulationLayer;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle, OracleError, Refusal};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

struct Args {
    seed: u64,
    count: u64,
    near_valid: bool,
    per_row: Option<u64>,
    per_rule: Option<u64>,
    special: f64,
    batch: usize,
    timeout: u64,
    save: Option<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        seed: 0,
        count: 50,
        near_valid: false,
        per_row: None,
        per_rule: None,
        special: 0.0,
        batch: 16,
        timeout: 60,
        save: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--seed" => a.seed = value().parse().expect("--seed N"),
            "--count" => a.count = value().parse().expect("--count N"),
            "--batch" => a.batch = value().parse().expect("--batch N"),
            "--timeout" => a.timeout = value().parse().expect("--timeout SECS"),
            "--save" => a.save = Some(PathBuf::from(value())),
            "--near-valid" => a.near_valid = true,
            "--per-row" => a.per_row = Some(value().parse().expect("--per-row N")),
            "--special" => a.special = value().parse().expect("--special PROBABILITY"),
            "--per-rule" => a.per_rule = Some(value().parse().expect("--per-rule N")),
            other => panic!("unknown flag {other}"),
        }
    }
    a
}

/// One request to run: the case it came from, the words, the entry point.
struct Item {
    seed: u64,
    case: Case,
    words: Vec<u32>,
    entry: usize,
    rule: Option<String>,
}

impl Item {
    fn inputs(&self) -> Vec<TensorData> {
        self.case.entry_points[self.entry].inputs.iter().map(|i| i.data.clone()).collect()
    }
}

fn items(a: &Args) -> Vec<Item> {
    if let Some(n) = a.per_row {
        return single_op_items(a.seed, n, a.special);
    }
    let mut config = Config::default();
    config.probs.tensor_array_input = 0.0;
    config.probs.tensor_array_output = 0.0;
    config.probs.special_values = a.special;
    let mut out = Vec::new();
    if let Some(n) = a.per_rule {
        // One graph per module: the adapter keeps only the entry point it
        // runs, so a break in another graph would never reach the layer.
        config.max_graphs = 1;
        config.probs.alias_entry_point = 0.0;
        for rule in covered_rules() {
            for seed in a.seed..a.seed + n {
                let Ok(nv) = near_valid_from_seed(seed, &config, Some(rule)) else { continue };
                // The layer is a Vulkan 1.3 consumer with every profile: a
                // break that needs an older environment or fewer profiles
                // is no break for it.
                if nv.target_env != TargetEnv::VULKAN_1_3 || nv.profiles.is_some() {
                    continue;
                }
                let rule = Some(format!("{} ({})", nv.rule, nv.mutator));
                out.push(Item { seed, case: nv.base, words: nv.words, entry: 0, rule });
            }
        }
        return out;
    }
    for seed in a.seed..a.seed + a.count {
        let (case, words, rule) = if a.near_valid {
            match near_valid_from_seed(seed, &config, None) {
                Ok(nv) => (nv.base, nv.words, Some(format!("{} ({})", nv.rule, nv.mutator))),
                Err(_) => continue,
            }
        } else {
            let case = generate_from_seed(seed, &config);
            let Ok(words) = case.module.encode_words() else { continue };
            (case, words, None)
        };
        if !case.meta.internal_errors.is_empty() {
            continue;
        }
        for entry in 0..case.entry_points.len() {
            out.push(Item { seed, case: case.clone(), words: words.clone(), entry, rule: rule.clone() });
        }
    }
    out
}

/// `per_row` single-operator graphs of every operator × type row.
fn single_op_items(seed: u64, per_row: u64, special: f64) -> Vec<Item> {
    let mut out = Vec::new();
    for op in TosaOp::ALL {
        for row in 0..op.spec().type_rows.len() {
            let mut config = Config::single_op(op, row, &Config::default());
            config.probs.tensor_array_input = 0.0;
            config.probs.tensor_array_output = 0.0;
            config.probs.special_values = special;
            let mut found = 0;
            for k in 0..200 * per_row {
                if found == per_row {
                    break;
                }
                let s = seed.wrapping_add((u64::from(op.opcode()) * 1000 + row as u64) * 100_000).wrapping_add(k);
                let case = generate_from_seed(s, &config);
                if !case.meta.internal_errors.is_empty()
                    || !case.meta.type_rows.iter().any(|u| u.op == op && u.row == row)
                {
                    continue;
                }
                let Ok(words) = case.module.encode_words() else { continue };
                found += 1;
                out.push(Item { seed: s, case, words, entry: 0, rule: None });
            }
        }
    }
    out
}

/// Digits and ids out, so that messages group.
fn shape_of(message: &str) -> String {
    let mut s: String = message.chars().map(|c| if c.is_ascii_digit() { '#' } else { c }).collect();
    s.truncate(160);
    s
}

fn typed(outcome: &ExecOutcome) -> Option<PreciseOutcome> {
    match outcome {
        ExecOutcome::Outputs(o) => Some(PreciseOutcome::Outputs(
            o.iter().map(|t| PreciseOutput { reference: ReferenceTensor::Typed(t.clone()), bounds: None }).collect(),
        )),
        _ => None,
    }
}

fn brief(r: &Result<Agreement, OracleError>) -> String {
    match r {
        Ok(Agreement::Compliant(_)) => "compliant".into(),
        Ok(Agreement::Mismatch { detail, .. }) => format!("MISMATCH {detail}"),
        Ok(other) => format!("{other:?}").chars().take(200).collect(),
        Err(e) => format!("error: {e}"),
    }
}

fn main() {
    let a = args();
    let el = EmulationLayer::discover().with_batch_size(a.batch).with_timeout(Duration::from_secs(a.timeout));
    if let Err(e) = el.available() {
        eprintln!("emulation layer unavailable: {e}");
        std::process::exit(2);
    }
    let model = TosaReferenceModel::discover();
    let model = model.available().is_ok().then_some(model);
    println!("{}", el.version().unwrap_or_default());
    let items = items(&a);
    let executor = Executor::default();
    let started = Instant::now();
    let mut table: BTreeMap<(String, String), (u64, Vec<u64>)> = BTreeMap::new();
    let mut saved: std::collections::HashSet<(String, String)> = Default::default();
    for chunk in items.chunks(a.batch.max(1)) {
        let inputs: Vec<Vec<TensorData>> = chunk.iter().map(Item::inputs).collect();
        let requests: Vec<ExecRequest<'_>> = chunk
            .iter()
            .zip(&inputs)
            .map(|(it, inp)| ExecRequest {
                module: &it.words,
                entry_point: Some(&it.case.entry_points[it.entry].name),
                inputs: inp,
                graph_constants: &it.case.graph_constants,
            })
            .collect();
        let results = el.execute_batch(&requests);
        for ((it, req), got) in chunk.iter().zip(&requests).zip(results) {
            let ops: Vec<String> = it.case.meta.ops.iter().map(|o| o.to_string()).collect();
            // In single-operator graphs, the type row the operator used.
            let row_types = match it.case.meta.type_rows.iter().collect::<Vec<_>>().as_slice() {
                [one] if ops.len() == 1 => one.types.join(","),
                _ => String::new(),
            };
            let (kind, signature, detail) = match (&it.rule, &got) {
                (_, Err(e)) => ("adapter-error", shape_of(&e.to_string()), e.to_string()),
                (Some(rule), Ok(ExecOutcome::Outputs(_))) => ("accepts-invalid", rule.clone(), String::new()),
                (Some(_), Ok(_)) => ("rejected-invalid", String::new(), String::new()),
                (None, Ok(ExecOutcome::Abnormal { how, detail })) => {
                    let kind = match how {
                        Abnormal::Signal(_) | Abnormal::Threw => "crash",
                        Abnormal::Timeout => "timeout",
                        Abnormal::OutOfMemory => "out-of-memory",
                    };
                    let phase = detail.split(':').next().unwrap_or("").to_string();
                    (kind, format!("{how} {phase}"), detail.clone())
                }
                (None, Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, reason })) => {
                    ("unsupported", shape_of(reason), reason.clone())
                }
                (None, Ok(ExecOutcome::Refused { reason, .. })) => {
                    let said = reason
                        .split_once("): ")
                        .or_else(|| reason.split_once("pipeline: "))
                        .map_or(reason.as_str(), |(_, m)| m);
                    ("refused-valid", shape_of(said), reason.clone())
                }
                (None, Ok(outcome @ ExecOutcome::Outputs(_))) => {
                    let in_tree = executor.execute(req);
                    let precise = model.as_ref().map(|m| m.execute_precise(req));
                    let el_vs_ref = precise
                        .as_ref()
                        .and_then(|p| p.as_ref().ok())
                        .map(|p| compare_run(req, p, "emulation-layer", Ok(outcome.clone())));
                    let tree_vs_ref = precise
                        .as_ref()
                        .and_then(|p| p.as_ref().ok())
                        .map(|p| compare_run(req, p, "in-tree", in_tree.clone()));
                    let el_vs_tree = in_tree
                        .as_ref()
                        .ok()
                        .and_then(typed)
                        .map(|t| compare_run(req, &t, "emulation-layer", Ok(outcome.clone())));
                    let mismatch =
                        |v: &Option<Result<Agreement, OracleError>>| matches!(v, Some(Ok(Agreement::Mismatch { .. })));
                    let compliant =
                        |v: &Option<Result<Agreement, OracleError>>| matches!(v, Some(Ok(Agreement::Compliant(_))));
                    let verdicts = format!(
                        "emulation-layer vs reference: {}\n      in-tree vs reference: {}\n      emulation-layer vs in-tree: {}",
                        el_vs_ref.as_ref().map_or("-".into(), brief),
                        tree_vs_ref.as_ref().map_or("-".into(), brief),
                        el_vs_tree.as_ref().map_or("-".into(), brief)
                    );
                    // The layer is wrong when it disagrees with the reference
                    // while the in-tree executor agrees with it, or (without
                    // a usable reference) when it disagrees with the in-tree
                    // executor. Both disagreeing with the reference in the
                    // same way is the reference comparison's problem.
                    let decisive = if mismatch(&el_vs_ref) && compliant(&tree_vs_ref) {
                        el_vs_ref.as_ref()
                    } else if mismatch(&el_vs_tree)
                        && (mismatch(&el_vs_ref) || (!compliant(&el_vs_ref) && !compliant(&tree_vs_ref)))
                    {
                        el_vs_tree.as_ref()
                    } else {
                        None
                    };
                    match decisive {
                        Some(Ok(Agreement::Mismatch { detail, .. })) => {
                            let op = detail.split(['(', ')']).nth(1).unwrap_or("?").to_string();
                            ("wrong-output", format!("{op} {row_types}"), verdicts)
                        }
                        _ if mismatch(&el_vs_ref) => ("reference-disagrees", String::new(), verdicts),
                        _ => ("pass", String::new(), verdicts),
                    }
                }
            };
            if kind == "pass" || kind == "rejected-invalid" || kind == "reference-disagrees" {
                table.entry((kind.into(), String::new())).or_default().0 += 1;
                continue;
            }
            println!("seed {} entry {} [{kind}] {signature}\n      ops {ops:?}\n      {detail}", it.seed, it.entry);
            let e = table.entry((kind.into(), signature.clone())).or_default();
            e.0 += 1;
            if e.1.len() < 8 {
                e.1.push(it.seed);
            }
            if let Some(dir) = &a.save {
                if saved.insert((kind.into(), signature.clone())) {
                    let stem = format!("{kind}-seed{}-ep{}", it.seed, it.entry);
                    let d = dir.join(&stem);
                    let _ = std::fs::create_dir_all(&d);
                    let mut case = it.case.clone();
                    if let Ok(m) = Module::decode_words(&it.words) {
                        case.module = m;
                    }
                    let _ = write_case(&d, &stem, &case, &Extras { spvasm: true, mlir: it.rule.is_none() });
                    let _ = std::fs::write(d.join("outcome.txt"), format!("{kind}\n{signature}\n{detail}\n"));
                    if let Ok(cmd) = el.write_scenario(req, &d.join("scenario")) {
                        let _ = std::fs::write(d.join("scenario/run.sh"), format!("{cmd}\n"));
                    }
                }
            }
        }
    }
    let s = el.stats();
    println!(
        "\n{} requests in {:.0?}; runner: {} processes, {} graphs submitted, {:.0?} busy, peak RSS {} MiB",
        items.len(),
        started.elapsed(),
        s.processes,
        s.graphs,
        s.busy,
        s.peak_rss_bytes >> 20
    );
    println!("{:<18} {:>6}  {:<60} seeds", "kind", "count", "signature");
    for ((kind, sig), (count, seeds)) in &table {
        println!("{kind:<18} {count:>6}  {sig:<60} {seeds:?}");
    }
}
