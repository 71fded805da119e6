//! TOSA floating-point compliance: is a candidate output an acceptable
//! answer, given the reference result? (§5 of the implementer's reference.)
//!
//! One function, [`compare`], takes the operator's [`OpContext`], the
//! reference (ideally the fp64 result of a precise run, see
//! [`ReferenceTensor::Precise`]), the candidate output and, for the modes that
//! need one, the bounds tensor, and answers pass/fail with the worst element.
//! The mode comes from the catalogue's accuracy class
//! ([`spvgraph_ir::tosa::OpSpec::accuracy`], [`spvgraph_ir::tosa::Accuracy::for_cast`]):
//!
//! | mode | rule |
//! |---|---|
//! | EXACT | integers and bools bit-exact; FP equal (any NaN, either zero sign, flushed subnormals) |
//! | ULP | `abs(ref) − ulp_lower·u ≤ abs(out) ≤ abs(ref) + ulp·u` |
//! | ABS_ERROR | `calcAbsErrorBound` over the per-element bound value ([`bounds`]) |
//! | PRECOMPUTED | the bounds tensor is the allowed absolute error (POW) |
//! | DOT_PRODUCT | per-element `|err| ≤ ABS_BOUND`, tensor variance and bias (§5.4) |
//! | FP_SPECIAL | same NaN-ness, finiteness and sign |
//! | REDUCE_PRODUCT | `max(|ref|, normal_min)·((1+2^-(frac+1))^n − 1)` |
//! | MAX_RELATIVE | RESIZE: `max(0.006·max|in|, 20 ulp of max|in|)` |
//! | RESCALE_INEXACT | the interval `[reference, bounds]` |
//!
//! Where the TOSA reference model's own verifier (`tosa_verify`) differs from
//! the specification text, this module follows the specification and says
//! so: RESIZE's ulp term uses `max|input|` (the verifier uses `ulp(ref)`, a
//! tighter bound), the dot-product `ABS_BOUND` is `2·ksb` for every type
//! (the conformance generator relaxes fp32 to `6·ksb`), and an infinite
//! reference must be met by the same infinity in every mode (the operators'
//! special-value tables, e.g. LOG(±0) = −∞; `check_fp_bnd` and the verifier
//! accept anything there, because `calcAbsErrorBound` of an infinite
//! magnitude is infinite).
//!
//! Some elements have no accuracy requirement; each is counted with its
//! [`Exemption`] in [`Stats::exempt_by`]. Besides those the rules name (a NaN
//! or overflowing dot-product bound), an [`OpContext`] or the caller can mark
//! elements [`Unjudged`]: a REDUCE_PRODUCT whose running product, computed in
//! the operator's own type as the pseudocode does, leaves that type's normal
//! range ([`from_graph`](output_contexts)), and FFT elements where the TOSA
//! reference model's own normal-mode result fails the rule (the judgement
//! finds those, see `crate::judge`).
//!
//! [`flush`] computes the other reference TOSA allows: bf16/fp16/fp32
//! subnormal inputs flushed to sign-preserved zero before each operator.

mod bound;
pub mod bounds;
mod check;
mod context;
mod differential;
mod dot;
mod extra;
pub mod flush;
mod format;
mod from_graph;
mod mode;
mod product;

pub use bound::{abs_error_bound, check_float_bound, reduce_product_bound, relative_bound, AbsErrorParams, BoundCheck};
pub use context::{
    abs_error_params, has_computed_weights, DotInfo, MissingFact, OpContext, RESIZE_RELATIVE_SCALE, RESIZE_ULP_BOUND,
};
pub use differential::{
    compare_run, compare_run_each, compare_run_output, Agreement, Judged, OutputVerdict, PreciseOutcome, PreciseOutput,
    RowTally, SweepTally,
};
pub use extra::{transpose_conv2d_nan_allowed, TransposeGeometry};
pub use format::{floor_log2, pow2, FpFormat};
pub use from_graph::{inexact_upstream, output_contexts};
pub use mode::{verify_type_name, DotProductParams, Mode};
pub use product::reduce_product_unjudged;
pub use spvgraph_ir::tosa::err_base;

use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use std::collections::BTreeMap;
use std::fmt;

/// A reference result to compare against.
#[derive(Clone, Debug, PartialEq)]
pub enum ReferenceTensor {
    /// The fp64 result of a precise run (TOSA reference model `--precise_mode=1`),
    /// or any other real-valued reference.
    Precise {
        /// Shape.
        shape: Vec<usize>,
        /// Row-major values.
        values: Vec<f64>,
    },
    /// A result in the output's own element type (integer outputs, or another
    /// implementation's FP output used as the reference).
    Typed(TensorData),
}

impl ReferenceTensor {
    /// The shape.
    pub fn shape(&self) -> &[usize] {
        match self {
            ReferenceTensor::Precise { shape, .. } => shape,
            ReferenceTensor::Typed(t) => t.shape(),
        }
    }

    /// Row-major values as `f64` (exact for every element type).
    pub fn values(&self) -> Vec<f64> {
        match self {
            ReferenceTensor::Precise { values, .. } => values.clone(),
            ReferenceTensor::Typed(t) => t.to_f64(),
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            ReferenceTensor::Precise { values, .. } => values.len(),
            ReferenceTensor::Typed(t) => t.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The element that decided the verdict: the worst failing element, or,
/// when everything passed, the one closest to its bound.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WorstElement {
    /// Row-major index.
    pub index: usize,
    /// Multi-dimensional position.
    pub position: Vec<usize>,
    /// The reference value.
    pub reference: f64,
    /// The candidate value.
    pub candidate: f64,
    /// The error measured: `|candidate − reference|`, or the normalised
    /// dot-product error; NaN when exactly one of the two is NaN.
    pub error: f64,
    /// The error allowed on that side (0 for exact modes).
    pub allowed: f64,
}

/// Dot-product tensor statistics (§5.4 step 4).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct DotStats {
    /// `Σ err` over the checked elements.
    pub error_sum: f64,
    /// `Σ err²`.
    pub error_sum_sq: f64,
    /// The allowed `Σ err²`: `VARIANCE_ERROR_BOUND · T`.
    pub variance_limit: f64,
    /// The allowed `|Σ err|` (test sets 3–5 only).
    pub bias_limit: Option<f64>,
}

/// Why an element has no accuracy requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Exemption {
    /// Both error allowances are infinite (`check_fp_bnd` step 2).
    UnboundedError,
    /// The dot-product bound is NaN (§5.4: no further accuracy requirement).
    NanBound,
    /// The dot-product bound, widened by `ABS_BOUND`, overflows the output type.
    BoundOverflows,
    /// AVG_POOL2D: the sum the pseudocode takes before dividing overflows the accumulator.
    AccumulatorOverflows,
    /// REDUCE_PRODUCT: the running product in the operator's type (the
    /// pseudocode's arithmetic) overflows before the last factor, while the
    /// fp64 product is finite in that type.
    ProductOverflows,
    /// REDUCE_PRODUCT: the running product in the operator's type falls below
    /// its normal range before the last factor (it loses precision, or becomes
    /// zero without a zero factor), while the fp64 product does not.
    ProductUnderflows,
    /// The TOSA reference model's own normal-mode result fails the rule here:
    /// the rule, or the fp64 reference it is measured against, asks for what
    /// no implementation in the operator's type delivers (FFT twiddle factors
    /// sin(kπ), whose fp64 value is not 0, collapse the dot-product bound).
    ReferenceModelFails,
    /// A NaN result where TOSA's optional extra multiplies
    /// (`tosa_extra_multiplies`) may make one: a TRANSPOSE_CONV2D tap with
    /// no input element (outside the input, or between strides) has an
    /// infinite or NaN `weight - weight_zp`, and `0 * inf` is NaN. Only a
    /// NaN candidate is let through; any other value is judged as usual.
    ExtraMultiplies,
}

impl Exemption {
    /// Every exemption, in report order.
    pub const ALL: [Exemption; 8] = [
        Exemption::UnboundedError,
        Exemption::NanBound,
        Exemption::BoundOverflows,
        Exemption::AccumulatorOverflows,
        Exemption::ProductOverflows,
        Exemption::ProductUnderflows,
        Exemption::ReferenceModelFails,
        Exemption::ExtraMultiplies,
    ];

    /// The reason, in words.
    pub fn reason(self) -> &'static str {
        match self {
            Exemption::UnboundedError => "the error bound is infinite",
            Exemption::NanBound => "the dot-product bound is NaN",
            Exemption::BoundOverflows => "the dot-product bound overflows the output type",
            Exemption::AccumulatorOverflows => "the sum before the division overflows the accumulator",
            Exemption::ProductOverflows => {
                "the running product overflows the operator's type before the last factor (the fp64 product does not)"
            }
            Exemption::ProductUnderflows => {
                "the running product falls below the operator's normal range before the last factor (the fp64 product does not)"
            }
            Exemption::ReferenceModelFails => "the TOSA reference model's own result fails the rule here",
            Exemption::ExtraMultiplies => {
                "NaN from an optional extra multiply: a tap without an input element has a non-finite weight"
            }
        }
    }
}

/// Elements of one output that are not judged, each with its reason, on top
/// of those the comparison mode exempts by itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Unjudged {
    elements: BTreeMap<usize, Exemption>,
    statistics: Option<Exemption>,
    // Elements where a NaN candidate meets the rule (any other value is
    // judged): the spec lets the operator compute NaN there.
    nan_allowed: BTreeMap<usize, Exemption>,
}

impl Unjudged {
    /// Nothing unjudged.
    pub fn none() -> Unjudged {
        Unjudged::default()
    }

    /// Marks the element at row-major `index` (the first reason given stays).
    pub fn element(&mut self, index: usize, why: Exemption) {
        self.elements.entry(index).or_insert(why);
    }

    /// Leaves out the dot-product tensor statistics (variance, bias) as well.
    pub fn statistics(&mut self, why: Exemption) {
        self.statistics.get_or_insert(why);
    }

    /// Lets a NaN candidate at row-major `index` pass (the first reason
    /// given stays); a candidate that is not NaN is still judged.
    pub fn allow_nan(&mut self, index: usize, why: Exemption) {
        self.nan_allowed.entry(index).or_insert(why);
    }

    /// The reason the element at `index` is not judged, if it is not.
    pub fn get(&self, index: usize) -> Option<Exemption> {
        self.elements.get(&index).copied()
    }

    /// Why the element at `index`, whose candidate is `candidate`, is not
    /// judged: unjudged outright, or a NaN where NaN is allowed.
    pub fn get_for(&self, index: usize, candidate: f64) -> Option<Exemption> {
        self.get(index).or_else(|| candidate.is_nan().then(|| self.nan_allowed.get(&index).copied()).flatten())
    }

    /// The elements where a NaN candidate passes, in index order.
    pub fn nan_allowed(&self) -> impl Iterator<Item = (usize, Exemption)> + '_ {
        self.nan_allowed.iter().map(|(&i, &w)| (i, w))
    }

    /// Why the tensor statistics are not judged, if they are not.
    pub fn statistics_exempt(&self) -> Option<Exemption> {
        self.statistics
    }

    /// The unjudged elements, in index order.
    pub fn elements(&self) -> impl Iterator<Item = (usize, Exemption)> + '_ {
        self.elements.iter().map(|(&i, &w)| (i, w))
    }

    /// Number of unjudged elements.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether nothing is unjudged (and no NaN allowed).
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty() && self.statistics.is_none() && self.nan_allowed.is_empty()
    }

    /// Adds `other`'s elements, NaN allowances and statistics exemption.
    pub fn merge(&mut self, other: &Unjudged) {
        for (i, w) in other.elements() {
            self.element(i, w);
        }
        for (i, w) in other.nan_allowed() {
            self.allow_nan(i, w);
        }
        if let Some(w) = other.statistics {
            self.statistics(w);
        }
    }
}

/// Counts over the whole tensor.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Elements compared.
    pub elements: usize,
    /// Elements outside their bound.
    pub failures: usize,
    /// Elements with no accuracy requirement (the sum of [`Stats::exempt_by`]).
    pub exempt: usize,
    /// The exempt elements by reason.
    pub exempt_by: BTreeMap<Exemption, usize>,
    /// Why the dot-product tensor statistics were not checked, when they were not.
    pub statistics_exempt: Option<Exemption>,
    /// Row-major indices of the elements outside their bound, in order.
    #[serde(skip)]
    pub failing: Vec<usize>,
    /// The largest `error / allowed` seen (infinite for a mismatch where nothing was allowed).
    pub worst_ratio: f64,
    /// Dot-product statistics, in DOT_PRODUCT mode.
    pub dot: Option<DotStats>,
}

/// The verdict of [`compare`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ComplianceResult {
    /// Whether the candidate is compliant.
    pub pass: bool,
    /// The mode used.
    pub mode: Mode,
    /// The deciding element (none for an empty tensor or a shape mismatch).
    pub worst: Option<WorstElement>,
    /// Counts and statistics.
    pub stats: Stats,
    /// Why it failed, when it did.
    pub reason: Option<String>,
}

impl fmt::Display for ComplianceResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.pass { "pass" } else { "FAIL" };
        write!(
            f,
            "{verdict} ({}; {} elements, {} failing)",
            self.mode.name(),
            self.stats.elements,
            self.stats.failures
        )?;
        if let Some(r) = &self.reason {
            write!(f, ": {r}")?;
        }
        for (why, n) in &self.stats.exempt_by {
            write!(f, "; {n} unjudged: {}", why.reason())?;
        }
        if let Some(why) = self.stats.statistics_exempt {
            write!(f, "; tensor statistics unjudged: {}", why.reason())?;
        }
        if let Some(w) = &self.worst {
            write!(
                f,
                "; worst at {:?}: reference {:e}, candidate {:e}, error {:e}, allowed {:e}",
                w.position, w.reference, w.candidate, w.error, w.allowed
            )?;
        }
        Ok(())
    }
}

/// The comparison could not be made (as opposed to: it was made and failed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// The context lacks a fact the mode needs.
    #[error(transparent)]
    MissingFact(#[from] MissingFact),
    /// The mode needs a bounds tensor and none was given.
    #[error("{mode} comparison needs a bounds tensor (run the reference model with --precise_mode=1, or compute one with compliance::bounds)")]
    MissingBounds {
        /// The mode.
        mode: &'static str,
    },
    /// The bounds tensor's shape differs from the reference's.
    #[error("bounds tensor has shape {got:?}, the reference {expected:?}")]
    BoundsShape {
        /// Reference shape.
        expected: Vec<usize>,
        /// Bounds shape.
        got: Vec<usize>,
    },
    /// A floating-point mode was asked for an integer or bool output.
    #[error("{mode} comparison needs a floating-point output, the candidate is {elem}")]
    NotFloat {
        /// The mode.
        mode: &'static str,
        /// The candidate's element type.
        elem: ElemType,
    },
}

/// Compares `candidate` with `reference` under the accuracy rule of the
/// operator described by `ctx` (leaving out the elements its
/// [`OpContext::unjudged`] names). `bounds` is the bounds tensor of a precise
/// run (needed by ABS_ERROR, PRECOMPUTED, DOT_PRODUCT, FP_SPECIAL and
/// RESCALE_INEXACT).
pub fn compare(
    ctx: &OpContext,
    reference: &ReferenceTensor,
    candidate: &TensorData,
    bounds: Option<&ReferenceTensor>,
) -> Result<ComplianceResult, CompareError> {
    compare_except(ctx, reference, candidate, bounds, &Unjudged::none())
}

/// [`compare`], also leaving out the elements `extra` names.
pub fn compare_except(
    ctx: &OpContext,
    reference: &ReferenceTensor,
    candidate: &TensorData,
    bounds: Option<&ReferenceTensor>,
    extra: &Unjudged,
) -> Result<ComplianceResult, CompareError> {
    let mode = ctx.mode()?;
    if extra.is_empty() {
        return check::run(&mode, reference, candidate, bounds, &ctx.unjudged);
    }
    let mut unjudged = ctx.unjudged.clone();
    unjudged.merge(extra);
    check::run(&mode, reference, candidate, bounds, &unjudged)
}

/// [`compare`] with an explicit mode (and nothing unjudged beyond what the mode exempts).
pub fn compare_with_mode(
    mode: &Mode,
    reference: &ReferenceTensor,
    candidate: &TensorData,
    bounds: Option<&ReferenceTensor>,
) -> Result<ComplianceResult, CompareError> {
    check::run(mode, reference, candidate, bounds, &Unjudged::none())
}

/// Row-major position of flat index `index` in `shape`.
pub fn position(index: usize, shape: &[usize]) -> Vec<usize> {
    let mut pos = vec![0; shape.len()];
    let mut rest = index;
    for (p, &d) in pos.iter_mut().zip(shape).rev() {
        if d > 0 {
            *p = rest % d;
            rest /= d;
        }
    }
    pos
}
