//! Comparing a candidate implementation's run of a graph against a precise
//! reference run (fp64 results and bounds tensors, as the TOSA reference
//! model's precise mode gives them), and tallying many such comparisons per
//! operator × type row for differential sweeps.

use super::{
    compare, compare_except, compare_with_mode, output_contexts, ComplianceResult, Mode, ReferenceTensor, Unjudged,
};
use crate::oracle::{Abnormal, ExecOutcome, ExecRequest, OracleError, Refusal};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;

/// One output of a precise (fp64) run.
#[derive(Clone, Debug, PartialEq)]
pub struct PreciseOutput {
    /// The fp64 result for floating-point outputs, the exact typed result otherwise.
    pub reference: ReferenceTensor,
    /// The bounds tensor of the second (absolute-value) pass.
    pub bounds: Option<ReferenceTensor>,
}

/// The result of a precise run.
#[derive(Clone, Debug, PartialEq)]
pub enum PreciseOutcome {
    /// One entry per output, in OutputIndex order.
    Outputs(Vec<PreciseOutput>),
    /// No outputs, and why.
    Refused {
        /// The class of refusal.
        kind: Refusal,
        /// The model's explanation.
        reason: String,
    },
    /// The reference process crashed, hung or ran out of memory.
    Abnormal {
        /// How it ended.
        how: Abnormal,
        /// What it printed last.
        detail: String,
    },
}

/// How a candidate's run of a graph compares with a precise reference run.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    /// Both produced outputs and every candidate output is compliant.
    Compliant(Vec<ComplianceResult>),
    /// Both refused to produce outputs.
    BothRefused {
        /// The candidate's refusal.
        candidate: Refusal,
        /// The model's refusal.
        reference: Refusal,
    },
    /// The model found a failed REQUIRE (or level limit): any result is acceptable.
    Unconstrained(String),
    /// The candidate declined for its own reasons (over its resource budget).
    Skipped(String),
    /// The comparison could not be made (a fact the accuracy rule needs is unknown).
    Incomparable(String),
    /// They disagree.
    Mismatch {
        /// The output concerned, when the disagreement is about one output.
        output: Option<usize>,
        /// What differs.
        detail: String,
    },
}

impl Agreement {
    /// Whether this is a disagreement.
    pub fn is_mismatch(&self) -> bool {
        matches!(self, Agreement::Mismatch { .. })
    }
}

/// A candidate's answer judged against a precise run, output by output.
#[derive(Clone, Debug, PartialEq)]
pub enum Judged {
    /// The answer is settled without looking at output values: refusals,
    /// abnormal ends, a different number of outputs, an unreadable graph.
    Settled(Agreement),
    /// One verdict per output, in OutputIndex order.
    Outputs(Vec<OutputVerdict>),
}

/// One output's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputVerdict {
    /// The operator that produced the output (`None`: a pass-through, compared exactly).
    pub op: Option<TosaOp>,
    /// The comparison, or why it could not be made.
    pub verdict: Result<ComplianceResult, String>,
}

impl OutputVerdict {
    /// Whether the output was compared and is compliant.
    pub fn passed(&self) -> bool {
        matches!(&self.verdict, Ok(v) if v.pass)
    }

    /// Whether the output was compared and is not compliant.
    pub fn failed(&self) -> bool {
        matches!(&self.verdict, Ok(v) if !v.pass)
    }
}

impl Judged {
    /// The [`Agreement`] it amounts to: the first output that cannot be
    /// compared makes it incomparable, the first that fails a mismatch.
    pub fn agreement(self) -> Agreement {
        let outputs = match self {
            Judged::Settled(a) => return a,
            Judged::Outputs(o) => o,
        };
        let mut results = Vec::with_capacity(outputs.len());
        for (j, o) in outputs.into_iter().enumerate() {
            match o.verdict {
                Err(e) => return Agreement::Incomparable(format!("output {j}: {e}")),
                Ok(v) if !v.pass => {
                    let op = o.op.map_or("a pass-through".to_string(), |op| op.to_string());
                    return Agreement::Mismatch { output: Some(j), detail: format!("output {j} ({op}): {v}") };
                }
                Ok(v) => results.push(v),
            }
        }
        Agreement::Compliant(results)
    }
}

/// Compares a candidate's answer to `request` with a precise reference run
/// of the same request: outputs with the TOSA compliance rules of each
/// output's operator ([`output_contexts`], [`compare`]), refusals by kind. A
/// candidate that cannot run at all (unavailable, unsupported) is an error;
/// one that failed while running is a mismatch.
pub fn compare_run(
    request: &ExecRequest<'_>,
    reference: &PreciseOutcome,
    candidate_name: &str,
    candidate: Result<ExecOutcome, OracleError>,
) -> Result<Agreement, OracleError> {
    compare_run_each(request, reference, candidate_name, candidate, &[]).map(Judged::agreement)
}

/// [`compare_run`], output by output, leaving out the elements `unjudged[j]` names
/// in output `j` (on top of those each output's context leaves out).
pub fn compare_run_each(
    request: &ExecRequest<'_>,
    reference: &PreciseOutcome,
    candidate_name: &str,
    candidate: Result<ExecOutcome, OracleError>,
    unjudged: &[Unjudged],
) -> Result<Judged, OracleError> {
    let name = candidate_name;
    let settled = |a: Agreement| Ok(Judged::Settled(a));
    let ours = match candidate {
        Ok(o) => o,
        Err(e @ (OracleError::Unavailable { .. } | OracleError::Unsupported { .. })) => return Err(e),
        Err(e) => return settled(Agreement::Mismatch { output: None, detail: format!("{name} failed: {e}") }),
    };
    let (reference, candidate_outputs) = match (reference, ours) {
        (PreciseOutcome::Abnormal { how, detail }, _) => {
            let detail = format!("the reference {how}: {detail}");
            return settled(Agreement::Mismatch { output: None, detail });
        }
        (_, ExecOutcome::Abnormal { how, detail }) => {
            let detail = format!("{name} {how}: {detail}");
            return settled(Agreement::Mismatch { output: None, detail });
        }
        (PreciseOutcome::Refused { kind: Refusal::Unpredictable, reason }, _) => {
            return settled(Agreement::Unconstrained(reason.clone()))
        }
        (_, ExecOutcome::Refused { kind: Refusal::OverBudget, reason }) => return settled(Agreement::Skipped(reason)),
        (PreciseOutcome::Refused { kind: r, .. }, ExecOutcome::Refused { kind: c, .. }) => {
            return settled(Agreement::BothRefused { candidate: c, reference: *r })
        }
        (PreciseOutcome::Refused { kind, reason }, ExecOutcome::Outputs(_)) => {
            let detail = format!("the reference refused ({kind:?}: {reason}) but {name} produced outputs");
            return settled(Agreement::Mismatch { output: None, detail });
        }
        (PreciseOutcome::Outputs(_), ExecOutcome::Refused { kind, reason }) => {
            let detail = format!("{name} refused ({kind:?}: {reason}) but the reference produced outputs");
            return settled(Agreement::Mismatch { output: None, detail });
        }
        (PreciseOutcome::Outputs(r), ExecOutcome::Outputs(c)) => (r, c),
    };
    if reference.len() != candidate_outputs.len() {
        let detail = format!("{} outputs from {name}, {} from the reference", candidate_outputs.len(), reference.len());
        return settled(Agreement::Mismatch { output: None, detail });
    }
    let module = match Module::decode_words(request.module) {
        Ok(m) => m,
        Err(e) => return settled(Agreement::Incomparable(format!("the module does not decode: {e}"))),
    };
    let contexts = match output_contexts(&module, request.entry_point, request.inputs, request.graph_constants) {
        Ok(c) => c,
        Err(e) => return settled(Agreement::Incomparable(format!("cannot read the graph's operators: {e}"))),
    };
    let none = Unjudged::none();
    let verdicts = reference
        .iter()
        .zip(&candidate_outputs)
        .enumerate()
        .map(|(j, (r, c))| {
            let ctx = contexts.get(j).and_then(Option::as_ref);
            let extra = unjudged.get(j).unwrap_or(&none);
            let verdict = match ctx {
                Some(ctx) => compare_except(ctx, &r.reference, c, r.bounds.as_ref(), extra),
                // Outputs that are graph inputs or constants must come back unchanged.
                None => compare_with_mode(&Mode::Exact, &r.reference, c, None),
            };
            OutputVerdict { op: ctx.map(|c| c.op), verdict: verdict.map_err(|e| e.to_string()) }
        })
        .collect();
    Ok(Judged::Outputs(verdicts))
}

/// Compares one output of a candidate with the same output of a precise
/// reference run, with the compliance rule of the operator that produced
/// it (an output that is a graph input or constant must be exact). For
/// comparing outputs one at a time, e.g. to leave out those that
/// [`super::inexact_upstream`] says cannot be judged.
pub fn compare_run_output(
    request: &ExecRequest<'_>,
    output: usize,
    reference: &PreciseOutput,
    candidate: &spvgraph_ir::tensor::TensorData,
) -> Result<ComplianceResult, String> {
    let module = Module::decode_words(request.module).map_err(|e| format!("the module does not decode: {e}"))?;
    let contexts = output_contexts(&module, request.entry_point, request.inputs, request.graph_constants)?;
    let verdict = match contexts.get(output).and_then(Option::as_ref) {
        Some(ctx) => compare(ctx, &reference.reference, candidate, reference.bounds.as_ref()),
        None => compare_with_mode(&Mode::Exact, &reference.reference, candidate, None),
    };
    verdict.map_err(|e| format!("output {output}: {e}"))
}

/// Per operator × type row counts of a differential sweep.
#[derive(Clone, Debug, Default)]
pub struct SweepTally {
    rows: std::collections::BTreeMap<(TosaOp, usize), RowTally>,
}

/// The counts of one operator × type row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowTally {
    /// Cases run.
    pub cases: u64,
    /// Compliant, or refused by both.
    pub pass: u64,
    /// Disagreements.
    pub fail: u64,
    /// Not checked: unpredictable in the model, over the candidate's budget, or incomparable.
    pub unchecked: u64,
    /// Model errors (crashes, time-outs).
    pub errors: u64,
    /// The first disagreement or error: (case label, what happened).
    pub first_problem: Option<(String, String)>,
    /// The comparison modes used.
    pub modes: std::collections::BTreeSet<&'static str>,
    /// The largest `error / allowed` over the compliant cases' elements (how
    /// close the candidate came to its bounds; 0 when every value was exact).
    pub worst_ratio: f64,
}

impl SweepTally {
    /// An empty tally.
    pub fn new() -> SweepTally {
        SweepTally::default()
    }

    /// Records the outcome of one case of `op` row `row`, labelled `label` (e.g. its seed).
    pub fn record(&mut self, op: TosaOp, row: usize, label: &str, outcome: &Result<Agreement, OracleError>) {
        let t = self.rows.entry((op, row)).or_default();
        t.cases += 1;
        let problem = match outcome {
            Ok(Agreement::Compliant(results)) => {
                t.pass += 1;
                for r in results {
                    t.modes.insert(r.mode.name());
                    if r.stats.worst_ratio.is_finite() {
                        t.worst_ratio = t.worst_ratio.max(r.stats.worst_ratio);
                    }
                }
                None
            }
            Ok(Agreement::BothRefused { .. }) => {
                t.pass += 1;
                None
            }
            Ok(Agreement::Unconstrained(_) | Agreement::Skipped(_) | Agreement::Incomparable(_)) => {
                t.unchecked += 1;
                None
            }
            Ok(Agreement::Mismatch { detail, .. }) => {
                t.fail += 1;
                Some(detail.clone())
            }
            Err(e) => {
                t.errors += 1;
                Some(e.to_string())
            }
        };
        if let (Some(p), None) = (problem, &t.first_problem) {
            t.first_problem = Some((label.to_string(), p));
        }
    }

    /// Adds another tally (for parallel sweeps).
    pub fn merge(&mut self, other: &SweepTally) {
        for (k, v) in &other.rows {
            let t = self.rows.entry(*k).or_default();
            t.cases += v.cases;
            t.pass += v.pass;
            t.fail += v.fail;
            t.unchecked += v.unchecked;
            t.errors += v.errors;
            t.modes.extend(v.modes.iter().copied());
            t.worst_ratio = t.worst_ratio.max(v.worst_ratio);
            if t.first_problem.is_none() {
                t.first_problem.clone_from(&v.first_problem);
            }
        }
    }

    /// The counts of one row.
    pub fn row(&self, op: TosaOp, row: usize) -> Option<&RowTally> {
        self.rows.get(&(op, row))
    }

    /// Every row tallied, in opcode and row order.
    pub fn rows(&self) -> impl Iterator<Item = (TosaOp, usize, &RowTally)> {
        self.rows.iter().map(|(&(op, row), t)| (op, row, t))
    }

    /// Totals over all rows.
    pub fn total(&self) -> RowTally {
        let mut sum = RowTally::default();
        for t in self.rows.values() {
            sum.cases += t.cases;
            sum.pass += t.pass;
            sum.fail += t.fail;
            sum.unchecked += t.unchecked;
            sum.errors += t.errors;
            sum.modes.extend(t.modes.iter().copied());
            sum.worst_ratio = sum.worst_ratio.max(t.worst_ratio);
        }
        sum
    }

    /// The per-operator table (one line per operator × row, then the problems):
    /// cases, pass, fail, unchecked, errors, the modes used and the worst
    /// `error / allowed` ratio seen in a compliant case.
    pub fn table(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let line = |s: &mut String, op: &str, row: &str, t: &RowTally| {
            let modes = t.modes.iter().copied().collect::<Vec<_>>().join(",");
            let _ = writeln!(
                s,
                "{op:<24} {row:<28} {:>6} {:>6} {:>6} {:>9} {:>6}  {:<16} {:>7.3}",
                t.cases, t.pass, t.fail, t.unchecked, t.errors, modes, t.worst_ratio
            );
        };
        let _ = writeln!(
            s,
            "{:<24} {:<28} {:>6} {:>6} {:>6} {:>9} {:>6}  {:<16} {:>7}",
            "op", "row", "cases", "pass", "fail", "unchecked", "error", "modes", "worst"
        );
        for ((op, row), t) in &self.rows {
            let types =
                op.spec().type_rows.get(*row).map(|r| r.types.iter().map(|e| e.name()).collect::<Vec<_>>().join(","));
            line(&mut s, op.name(), &format!("{row}: {}", types.unwrap_or_default()), t);
        }
        line(&mut s, "TOTAL", "", &self.total());
        for ((op, row), t) in &self.rows {
            if let Some((label, p)) = &t.first_problem {
                let _ = writeln!(s, "{op} row {row}, case {label}: {p}");
            }
        }
        s
    }
}
