//! Building `corpus/valid/`: one small single-operation case per operator ×
//! type row of the catalogue and one case per consumer-breaking construct
//! the generator knows ([`spvgraph_generator::coverage::CONSTRUCTS`]), each
//! with its expected outputs.
//!
//! Expected outputs come from the in-tree executor and are confirmed, output
//! by output, against the TOSA reference model's precise run under the TOSA
//! compliance rules wherever the model can run the graph; the model's fp64
//! result and bounds tensor are kept next to them so a candidate is judged
//! by the same rule the specification gives (`STEM.ep<k>.out<j>.ref.npy`,
//! `.bounds.npy`). The manifest's `expected` list records, per output, the
//! compliance mode, the accuracy class, who confirmed it and the profiles
//! and extensions it needs.

use anyhow::{anyhow, Context};
use rayon::prelude::*;
use spvgraph_generator::coverage::CONSTRUCTS;
use spvgraph_generator::files::{self, ExpectedOutputRecord, Extras, Manifest};
use spvgraph_generator::{generate_from_seed, single_op_case, Case, Config};
use spvgraph_ir::npy::NpyArray;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::compliance::{
    compare, compare_run_output, compare_with_mode, inexact_upstream, output_contexts, Mode, PreciseOutcome,
    PreciseOutput, ReferenceTensor,
};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, Oracle};
use std::path::{Path, PathBuf};

/// Largest set of files one construct case may take, in bytes: the corpus
/// stays a few megabytes.
const CONSTRUCT_CASE_BYTES: u64 = 128 << 10;

/// Seeds tried per construct before it counts as unreached.
const CONSTRUCT_ATTEMPTS: u64 = 3000;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The folder to write into (`corpus/valid`).
    pub out: PathBuf,
    /// Base seed (`0` gives the committed corpus).
    pub seed: u64,
    /// Operators whose rows to write (all 66 when empty).
    pub ops: Vec<TosaOp>,
    /// Write the construct cases too.
    pub constructs: bool,
    /// Generation attempts per row before it counts as unreached.
    pub attempts: u64,
}

/// What a build wrote.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Stems written.
    pub written: Vec<String>,
    /// Rows and constructs no attempt reached.
    pub unreached: Vec<String>,
    /// Constructs reached by a case already written for another one
    /// (`feature in stem`).
    pub shared: Vec<String>,
    /// Outputs written, and how many of them the reference model confirmed.
    pub outputs: usize,
    /// Outputs confirmed by the reference model.
    pub confirmed: usize,
    /// Outputs the reference model could not confirm, with why (it could
    /// not run the graph, or it disagrees: a finding for one of the two).
    pub unconfirmed: Vec<String>,
    /// Bytes written.
    pub bytes: u64,
}

/// The generation settings of corpus cases: tiny shapes and no
/// level-sized tensors or attributes, so the whole corpus stays a few MB.
pub fn corpus_config() -> Config {
    let mut c = Config {
        max_rank: 4,
        max_dim: 4,
        max_tensor_elements: 256,
        max_graph_elements: 4096,
        max_graph_inputs: 4,
        max_graph_outputs: 4,
        max_nodes: 3,
        max_graphs: 1,
        ..Config::default()
    };
    c.probs.level_shape = 0.0;
    c.probs.wide_attributes = 0.0;
    c
}

/// The settings of an operator × type row case: [`corpus_config`] without
/// the consumer-breaking constructs (those have cases of their own), so the
/// operation's result is what the graph outputs.
pub fn row_config() -> Config {
    // Rank 5: CONV3D's operands have that rank.
    let mut c = Config { max_rank: 5, ..corpus_config() };
    let p = &mut c.probs;
    p.unused_result = 0.0;
    p.output_from_input = 0.0;
    p.output_from_constant = 0.0;
    p.duplicate_output = 0.0;
    p.pass_through_graph = 0.0;
    p.alias_entry_point = 0.0;
    p.tensor_array_output = 0.0;
    p.tensor_array_input = 0.0;
    p.null_scalar = 0.0;
    p.constant_rows = 0.0;
    p.special_leaf = 0.0;
    p.fft_both_results = 1.0;
    p.unused_extracted_member = 0.0;
    c
}

/// The settings of a construct case: [`corpus_config`] with the level-sized
/// shapes and wide attributes back (a case over the size cap is passed
/// over) and rank 6 allowed.
pub fn construct_config() -> Config {
    let mut c = corpus_config();
    let d = Config::default();
    c.max_rank = d.max_rank;
    c.probs.level_shape = d.probs.level_shape;
    c.probs.wide_attributes = d.probs.wide_attributes;
    c
}

/// The stem of row `row` of `op`: `op-conv2d-r3`.
pub fn row_stem(op: TosaOp, row: usize) -> String {
    format!("op-{}-r{row}", op.name().to_ascii_lowercase())
}

/// The stem of a construct case: `shape-unused-result`.
pub fn construct_stem(feature: &str) -> String {
    let slug: String =
        feature.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    format!("shape-{}", slug.trim_matches('-'))
}

/// Builds the corpus cases `options` asks for, confirming expected outputs
/// with `reference` (the TOSA reference model) when given.
pub fn build(options: &BuildOptions, reference: Option<&dyn Oracle>) -> anyhow::Result<BuildReport> {
    std::fs::create_dir_all(&options.out).with_context(|| format!("{}: cannot create", options.out.display()))?;
    let ops = if options.ops.is_empty() { TosaOp::ALL.to_vec() } else { options.ops.clone() };
    let row_base = row_config();
    let construct_base = construct_config();
    let rows: Vec<(TosaOp, usize)> =
        ops.iter().flat_map(|&op| (0..op.spec().type_rows.len()).map(move |row| (op, row))).collect();
    let row_results: Vec<anyhow::Result<Option<CaseReport>>> = rows
        .par_iter()
        .map(|&(op, row)| match single_op_case(op, row, options.seed, &row_base, options.attempts) {
            None => Ok(None),
            Some(case) => write_expected_case(&options.out, &row_stem(op, row), &case, reference).map(Some),
        })
        .collect();
    let mut report = BuildReport::default();
    for ((op, row), r) in rows.iter().zip(row_results) {
        match r? {
            Some(c) => report.add(c),
            None => report.unreached.push(format!("{op} row {row}")),
        }
    }
    if options.constructs {
        // Several constructs often first show up in the same case: it is
        // written once, under the first construct's name.
        let found: Vec<Option<Case>> =
            CONSTRUCTS.par_iter().map(|k| construct_case(k.feature, options.seed, &construct_base)).collect();
        let mut written_seeds: Vec<(Option<u64>, String)> = Vec::new();
        for (k, case) in CONSTRUCTS.iter().zip(found) {
            let Some(case) = case else {
                report.unreached.push(format!("construct {}", k.feature));
                continue;
            };
            if let Some((_, stem)) = written_seeds.iter().find(|(s, _)| *s == case.meta.seed) {
                report.shared.push(format!("{} in {stem}", k.feature));
                continue;
            }
            let stem = construct_stem(k.feature);
            report.add(write_expected_case(&options.out, &stem, &case, reference)?);
            written_seeds.push((case.meta.seed, stem));
        }
    }
    Ok(report)
}

/// What writing one case gave.
struct CaseReport {
    stem: String,
    outputs: usize,
    confirmed: usize,
    unconfirmed: Vec<String>,
    bytes: u64,
}

impl BuildReport {
    fn add(&mut self, c: CaseReport) {
        self.written.push(c.stem);
        self.outputs += c.outputs;
        self.confirmed += c.confirmed;
        self.unconfirmed.extend(c.unconfirmed);
        self.bytes += c.bytes;
    }
}

/// The first small case (by seed) that reaches `feature`.
fn construct_case(feature: &str, seed: u64, base: &Config) -> Option<Case> {
    (0..CONSTRUCT_ATTEMPTS)
        .map(|k| generate_from_seed(seed.wrapping_mul(1_000_000_007).wrapping_add(k), base))
        .filter(|c| c.meta.internal_errors.is_empty() && c.meta.features.contains(feature))
        .find(|c| case_bytes(c) <= CONSTRUCT_CASE_BYTES)
}

/// A case's size on disk, roughly: its module and its tensors.
fn case_bytes(case: &Case) -> u64 {
    let module = case.module.encode_words().map_or(0, |w| w.len() as u64 * 4);
    let inputs: u64 = case.entry_points.iter().flat_map(|e| &e.inputs).map(|t| t.data.to_le_bytes().len() as u64).sum();
    let constants: u64 = case.graph_constants.values().map(|t| t.to_le_bytes().len() as u64).sum();
    module + inputs + constants
}

/// Writes `case` as `dir/STEM.*` with the expected outputs of every entry
/// point and the manifest's `expected` list.
fn write_expected_case(
    dir: &Path,
    stem: &str,
    case: &Case,
    reference: Option<&dyn Oracle>,
) -> anyhow::Result<CaseReport> {
    let mut manifest = files::write_case(dir, stem, case, &Extras { spvasm: true, mlir: true })?;
    let words = case.module.encode_words().map_err(|e| anyhow!("{stem}: the module does not encode: {e}"))?;
    let executor = Executor::default();
    let reference_name = reference.map(|r| match r.version() {
        Some(v) => format!("{} {v}", r.name()),
        None => r.name().to_string(),
    });
    let mut report = CaseReport { stem: stem.into(), outputs: 0, confirmed: 0, unconfirmed: Vec::new(), bytes: 0 };
    for (k, ep) in case.entry_points.iter().enumerate() {
        let inputs: Vec<_> = ep.inputs.iter().map(|i| i.data.clone()).collect();
        let request = ExecRequest {
            module: &words,
            entry_point: Some(&ep.name),
            inputs: &inputs,
            graph_constants: &case.graph_constants,
        };
        let outputs = match executor.execute(&request) {
            Ok(ExecOutcome::Outputs(o)) => o,
            other => {
                return Err(anyhow!("{stem}: the in-tree executor does not run entry point {}: {other:?}", ep.name))
            }
        };
        let module = Module::decode_words(&words).map_err(|e| anyhow!("{stem}: {e}"))?;
        let contexts = output_contexts(&module, Some(&ep.name), &inputs, &case.graph_constants)
            .map_err(|e| anyhow!("{stem}: {e}"))?;
        let inexact = inexact_upstream(&module, Some(&ep.name)).map_err(|e| anyhow!("{stem}: {e}"))?;
        // One operation: the precise run's fp64 result and bounds judge it
        // as the specification says. Several: the precise run does not
        // round between operations, so the model's typed run is compared.
        let single = case.meta.nodes <= 1;
        let answer = reference.map(|r| {
            if single {
                r.referee().and_then(|x| x.execute_precise(&request)).map(Answer::Precise)
            } else {
                r.executor().and_then(|x| x.execute(&request)).map(Answer::Typed)
            }
        });
        for (j, out) in outputs.iter().enumerate() {
            let file = format!("{stem}.ep{k}.out{j}.npy");
            out.write_npy(&dir.join(&file)).map_err(|e| anyhow!("{}: {e}", dir.join(&file).display()))?;
            let ctx = contexts.get(j).and_then(Option::as_ref);
            let mode = match ctx {
                Some(c) => c.mode().ok(),
                None => Some(Mode::Exact),
            };
            let mut record = ExpectedOutputRecord {
                entry_point: k,
                output: j,
                file,
                elem: out.elem(),
                shape: out.shape().iter().map(|&d| d as u32).collect(),
                operator: ctx.map(|c| c.op.name().to_string()),
                accuracy: ctx.map(|c| format!("{:?}", c.op.spec().accuracy)),
                compliance: mode.map_or(serde_json::Value::Null, |m| serde_json::to_value(m).unwrap_or_default()),
                reference: None,
                bounds: None,
                confirmed_by: vec![spvgraph_oracle::registry::IN_TREE.to_string()],
                upstream_inexact: inexact.get(j).copied().unwrap_or(false),
                profiles: Vec::new(),
                extensions: Vec::new(),
            };
            needs(&manifest, &mut record);
            report.outputs += 1;
            let name = reference_name.as_deref().unwrap_or("the reference");
            let verdict: Result<(), String> = match &answer {
                None => Err(String::new()),
                Some(Err(e)) => Err(e.to_string()),
                Some(Ok(Answer::Precise(PreciseOutcome::Outputs(p)))) => match p.get(j) {
                    None => Err(format!("{name} gave fewer outputs")),
                    Some(pj) => match compare_run_output(&request, j, pj, out) {
                        Ok(v) if v.pass => keep_precise(dir, stem, k, j, pj, &mut record),
                        Ok(v) => Err(format!("{name} disagrees: {v}")),
                        Err(e) => Err(format!("not comparable: {e}")),
                    },
                },
                Some(Ok(Answer::Precise(other))) => Err(format!("{name} did not run it: {}", brief(other))),
                Some(Ok(Answer::Typed(ExecOutcome::Outputs(o)))) => match o.get(j) {
                    None => Err(format!("{name} gave fewer outputs")),
                    Some(theirs) => {
                        let typed = ReferenceTensor::Typed(theirs.clone());
                        let v = match ctx {
                            Some(c) => compare(c, &typed, out, None),
                            None => compare_with_mode(&Mode::Exact, &typed, out, None),
                        };
                        match v {
                            Ok(v) if v.pass => Ok(()),
                            Ok(v) => Err(format!("{name} disagrees: {v}")),
                            Err(e) => Err(format!("not comparable: {e}")),
                        }
                    }
                },
                Some(Ok(Answer::Typed(other))) => Err(format!("{name} did not run it: {other:?}")),
            };
            match verdict {
                Ok(()) => {
                    record.confirmed_by.push(name.to_string());
                    report.confirmed += 1;
                }
                Err(why) if !why.is_empty() => report.unconfirmed.push(format!("{stem} ep{k} out{j}: {why}")),
                Err(_) => {}
            }
            manifest.expected.push(record);
        }
    }
    files::write_manifest(dir, stem, &manifest)?;
    report.bytes = dir_bytes(dir, stem);
    Ok(report)
}

/// The reference model's answer for one entry point.
enum Answer {
    Precise(PreciseOutcome),
    Typed(ExecOutcome),
}

fn brief(outcome: &PreciseOutcome) -> String {
    match outcome {
        PreciseOutcome::Outputs(_) => "outputs".into(),
        PreciseOutcome::Refused { kind, reason } => format!("refused ({kind:?}): {}", first_line(reason)),
        PreciseOutcome::Abnormal { how, detail } => format!("{how}: {}", first_line(detail)),
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Keeps the precise run's fp64 result and bounds of a floating-point
/// output next to the expected output.
fn keep_precise(
    dir: &Path,
    stem: &str,
    k: usize,
    j: usize,
    p: &PreciseOutput,
    record: &mut ExpectedOutputRecord,
) -> Result<(), String> {
    let save = |t: &ReferenceTensor, suffix: &str| -> Result<Option<String>, String> {
        match t {
            ReferenceTensor::Precise { shape, values } => {
                let name = format!("{stem}.ep{k}.out{j}.{suffix}.npy");
                let path = dir.join(&name);
                NpyArray::from_f64(shape, values)
                    .and_then(|a| a.write(&path))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(Some(name))
            }
            ReferenceTensor::Typed(_) => Ok(None),
        }
    };
    // Integer outputs keep no fp64 result (the expected file is exact),
    // but RESCALE's INEXACT_ROUND interval still needs the bounds.
    record.reference = match (&p.reference, &p.bounds) {
        // RESCALE with INEXACT_ROUND: the precise run's typed result is the
        // interval's lower limit (the bounds its upper one).
        (ReferenceTensor::Typed(t), Some(_)) => {
            let name = format!("{stem}.ep{k}.out{j}.ref.npy");
            let path = dir.join(&name);
            t.write_npy(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(name)
        }
        (r, _) => save(r, "ref")?,
    };
    record.bounds = match &p.bounds {
        // RESCALE's bounds are in the output type (an unsigned output's
        // bits included): kept as they are.
        Some(ReferenceTensor::Typed(t)) => {
            let name = format!("{stem}.ep{k}.out{j}.bounds.npy");
            let path = dir.join(&name);
            t.write_npy(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(name)
        }
        Some(b) => save(b, "bounds")?,
        None => None,
    };
    Ok(())
}

/// The profiles and extensions of the type rows of the output's operator
/// (a pass-through output needs none).
fn needs(manifest: &Manifest, record: &mut ExpectedOutputRecord) {
    let Some(op) = &record.operator else { return };
    for r in manifest.type_rows.iter().filter(|r| &r.op == op) {
        for p in &r.profiles {
            if !record.profiles.contains(p) {
                record.profiles.push(p.clone());
            }
        }
        for e in &r.also {
            if !record.extensions.contains(e) {
                record.extensions.push(e.clone());
            }
        }
    }
}

/// Bytes of every `dir/STEM.*` file.
fn dir_bytes(dir: &Path, stem: &str) -> u64 {
    let prefix = format!("{stem}.");
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}
