//! What the comparison needs to know about the operator that produced an
//! output, and the mode that follows from the catalogue's accuracy class.

use super::bound::AbsErrorParams;
use super::format::FpFormat;
use super::mode::{DotProductParams, Mode};
use super::Unjudged;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::{err_base, AbsErrorBound, AbsErrorSpec, Accuracy, RoundingMode, ShapeRule, TosaOp};

/// Parameters of a dot-product operator's output.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DotInfo {
    /// `KS`: the length of each dot product (§5.4).
    pub ks: u64,
    /// The accumulator type (`acc_type`, or the output type where implied).
    pub acc: ElemType,
    /// Whether any bias value is non-zero (adds 1 to `ksb`).
    pub bias_nonzero: bool,
    /// Appendix A test set, or −1 for other data.
    pub test_set: i32,
    /// AVG_POOL2D: the pseudocode sums the KS inputs in the accumulator type
    /// and divides afterwards, so the sum can overflow the accumulator while
    /// the result (bounded by the bounds tensor, which carries the 1/KS
    /// weights) is finite. Such elements get no accuracy requirement, as §5.4
    /// already exempts outputs whose bound overflows the output type.
    pub summed_before_division: bool,
}

impl DotInfo {
    /// The bound above which the sum overflows the accumulator (AVG_POOL2D
    /// only: its bounds carry the 1/KS weights, so the sum is KS times the
    /// bound); `None` for the others.
    pub fn accumulator_limit(&self) -> Option<f64> {
        if !self.summed_before_division {
            return None;
        }
        FpFormat::of(self.acc).map(|f| f.normal_max / self.ks.max(1) as f64)
    }
}

/// The operator an output comes from, and the facts its accuracy rule needs.
#[derive(Clone, Debug, PartialEq)]
pub struct OpContext {
    /// The operator.
    pub op: TosaOp,
    /// Element type of the operator's first tensor input (CAST's source type).
    pub input: ElemType,
    /// Element type of the output compared.
    pub output: ElemType,
    /// Dot-product facts (CONV*, MATMUL, AVG_POOL2D, REDUCE_SUM, FFT2D, RFFT2D).
    pub dot: Option<DotInfo>,
    /// REDUCE_PRODUCT: the number of values multiplied (`shape[axis]`).
    pub reduce_n: Option<u64>,
    /// RESIZE: `max |input|`.
    pub max_abs_input: Option<f64>,
    /// RESCALE: its rounding mode.
    pub rounding: Option<RoundingMode>,
    /// RESCALE: `output_unsigned`.
    pub output_unsigned: bool,
    /// The inputs hold inf or NaN (dot products are then checked with FP_SPECIAL).
    pub special_inputs: bool,
    /// Elements the operator's data leaves without an accuracy requirement
    /// (see [`super::Exemption`]).
    pub unjudged: Unjudged,
}

/// The context lacks a fact that the operator's accuracy rule needs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{op} ({output} output): the {mode} comparison needs {missing}")]
pub struct MissingFact {
    /// The operator.
    pub op: TosaOp,
    /// The output type.
    pub output: ElemType,
    /// The mode chosen.
    pub mode: &'static str,
    /// What is missing.
    pub missing: &'static str,
}

impl OpContext {
    /// A context with only the operator and its types; add the facts its
    /// accuracy class needs with the `with_*` methods.
    pub fn new(op: TosaOp, input: ElemType, output: ElemType) -> OpContext {
        OpContext {
            op,
            input,
            output,
            dot: None,
            reduce_n: None,
            max_abs_input: None,
            rounding: None,
            output_unsigned: false,
            special_inputs: false,
            unjudged: Unjudged::none(),
        }
    }

    /// Adds dot-product facts.
    pub fn with_dot(mut self, dot: DotInfo) -> OpContext {
        self.dot = Some(dot);
        self
    }

    /// Adds the REDUCE_PRODUCT length.
    pub fn with_reduce_n(mut self, n: u64) -> OpContext {
        self.reduce_n = Some(n);
        self
    }

    /// Adds RESIZE's `max |input|`.
    pub fn with_max_abs_input(mut self, max: f64) -> OpContext {
        self.max_abs_input = Some(max);
        self
    }

    /// Adds RESCALE's rounding mode and `output_unsigned`.
    pub fn with_rescale(mut self, rounding: RoundingMode, output_unsigned: bool) -> OpContext {
        self.rounding = Some(rounding);
        self.output_unsigned = output_unsigned;
        self
    }

    /// Leaves these elements unjudged.
    pub fn with_unjudged(mut self, unjudged: Unjudged) -> OpContext {
        self.unjudged = unjudged;
        self
    }

    /// Marks the inputs as holding inf or NaN.
    pub fn with_special_inputs(mut self, special: bool) -> OpContext {
        self.special_inputs = special;
        self
    }

    /// The comparison mode for this output, from the operator's catalogue
    /// accuracy class (§5.3) and the output type.
    pub fn mode(&self) -> Result<Mode, MissingFact> {
        let accuracy = match self.op.spec().accuracy {
            Accuracy::Cast => Accuracy::for_cast(self.input, self.output),
            a => a,
        };
        let missing =
            |mode: &'static str, missing: &'static str| MissingFact { op: self.op, output: self.output, mode, missing };
        if accuracy == Accuracy::InexactRound {
            return Ok(match self.rounding {
                Some(RoundingMode::InexactRound) => Mode::RescaleInexact { unsigned: self.output_unsigned },
                _ => Mode::Exact,
            });
        }
        if FpFormat::of(self.output).is_none() {
            return Ok(Mode::Exact);
        }
        Ok(match accuracy {
            Accuracy::Exact | Accuracy::Cast | Accuracy::InexactRound => Mode::Exact,
            Accuracy::Ulp(u) => Mode::Ulp { ulp: u, ulp_lower: u },
            Accuracy::AsymmetricUlp { below, above } => Mode::Ulp { ulp: above, ulp_lower: below },
            Accuracy::AbsError(AbsErrorBound::Calc(spec)) => Mode::AbsError(abs_error_params_of(spec, self.output)),
            Accuracy::AbsError(AbsErrorBound::PerElement) => Mode::Precomputed,
            Accuracy::DotProduct if self.special_inputs => {
                Mode::FpSpecial { accumulator_limit: self.dot.and_then(|d| d.accumulator_limit()) }
            }
            Accuracy::DotProduct => {
                let d = self.dot.ok_or_else(|| missing("DOT_PRODUCT", "the kernel size and accumulator type"))?;
                let mut p = DotProductParams::for_kernel(d.ks, d.acc, self.output, d.bias_nonzero, d.test_set);
                p.accumulator_limit = d.accumulator_limit();
                Mode::DotProduct(p)
            }
            Accuracy::Relative => {
                let max = self.max_abs_input.ok_or_else(|| missing("MAX_RELATIVE", "max |input|"))?;
                Mode::Relative { max, scale: RESIZE_RELATIVE_SCALE, ulp_bound: RESIZE_ULP_BOUND }
            }
            Accuracy::Product => {
                Mode::ReduceProduct { n: self.reduce_n.ok_or_else(|| missing("REDUCE_PRODUCT", "the axis length"))? }
            }
        })
    }
}

/// Whether `op`'s dot products use coefficients the operator computes (FFT2D
/// and RFFT2D twiddle factors) rather than tensor data. Where a coefficient
/// is the cosine or sine of a multiple of π/2, the TOSA reference model's
/// fp64 value is about 1e-16 instead of 0: the precise reference and its
/// bound collapse to that size (with a zero imaginary input, for example),
/// and no result in fp32, the model's own included, meets the rule there.
pub fn has_computed_weights(op: TosaOp) -> bool {
    matches!(op.spec().shape, ShapeRule::Fft2d | ShapeRule::Rfft2d)
}

/// RESIZE's relative factor (§4 RESIZE).
pub const RESIZE_RELATIVE_SCALE: f64 = 0.006;
/// RESIZE's ulp multiplier (§4 RESIZE).
pub const RESIZE_ULP_BOUND: f64 = 20.0;

/// The ABS_ERROR parameters of an operator whose catalogue accuracy is
/// [`Accuracy::AbsError`] with `calcAbsErrorBound` constants, for results
/// of type `output` (the per-element part of the bound is computed by
/// [`super::bounds`]). `None` for every other operator, POW included: its
/// whole bound is per element (PRECOMPUTED).
pub fn abs_error_params(op: TosaOp, output: ElemType) -> Option<AbsErrorParams> {
    match op.spec().accuracy {
        Accuracy::AbsError(AbsErrorBound::Calc(spec)) => Some(abs_error_params_of(spec, output)),
        _ => None,
    }
}

/// The catalogue's constants resolved for an output type.
fn abs_error_params_of(spec: AbsErrorSpec, output: ElemType) -> AbsErrorParams {
    let normal_min = FpFormat::of(output).map_or(0.0, |f| f.normal_min());
    AbsErrorParams {
        lower_bound: spec.lower_bound,
        base_bound: spec.base_bound + spec.err_base_multiple * err_base(output),
        bound_as_magnitude: spec.bound_as_magnitude,
        normal_divisor: spec.normal_divisor,
        max_compare: spec.normal_min_floor * normal_min,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abs_error_parameters_come_from_the_catalogue() {
        use ElemType::{Bf16, Fp16, Fp32};
        let p = |op, out| abs_error_params(op, out).expect("an ABS_ERROR operator");
        let base = AbsErrorParams::default();
        assert_eq!(p(TosaOp::Exp, Fp32), AbsErrorParams { base_bound: 3.0, ..base });
        assert_eq!(p(TosaOp::Exp, Fp16), AbsErrorParams { base_bound: 1.0, ..base });
        assert_eq!(p(TosaOp::Log, Fp32), AbsErrorParams { lower_bound: 0.5, ..base });
        assert_eq!(p(TosaOp::Sigmoid, Bf16), base);
        assert_eq!(p(TosaOp::Tanh, Fp32), AbsErrorParams { lower_bound: 0.5, base_bound: 12.0, ..base });
        let cos = AbsErrorParams { base_bound: 1.0, bound_as_magnitude: true, normal_divisor: 2.0, ..base };
        assert_eq!(p(TosaOp::Cos, Fp16), cos);
        let sin = AbsErrorParams { base_bound: 2.0, max_compare: std::f64::consts::PI * 2f64.powi(-126), ..cos };
        assert_eq!(p(TosaOp::Sin, Fp32), sin);
        assert_eq!(abs_error_params(TosaOp::Pow, Fp32), None, "POW's bound is per element");
        assert_eq!(abs_error_params(TosaOp::Add, Fp32), None);
    }

    #[test]
    fn modes_follow_the_catalogue() {
        let m = |op, i, o| OpContext::new(op, i, o).mode().expect("mode");
        assert_eq!(m(TosaOp::Add, ElemType::Fp32, ElemType::Fp32), Mode::Ulp { ulp: 0.5, ulp_lower: 0.5 });
        assert_eq!(m(TosaOp::Add, ElemType::I32, ElemType::I32), Mode::Exact);
        assert_eq!(m(TosaOp::Rsqrt, ElemType::Fp16, ElemType::Fp16), Mode::Ulp { ulp: 2.0, ulp_lower: 2.0 });
        assert_eq!(m(TosaOp::Cast, ElemType::Fp32, ElemType::Bf16), Mode::Ulp { ulp: 0.5, ulp_lower: 1.0 });
        let above = 0.5 + 2f64.powi(11 - 25);
        assert_eq!(m(TosaOp::Cast, ElemType::I32, ElemType::Fp16), Mode::Ulp { ulp: above, ulp_lower: 1.0 });
        assert_eq!(m(TosaOp::Cast, ElemType::Fp32, ElemType::I8), Mode::Exact);
        assert_eq!(m(TosaOp::Pow, ElemType::Fp32, ElemType::Fp32), Mode::Precomputed);
        assert!(matches!(m(TosaOp::Exp, ElemType::Fp32, ElemType::Fp32), Mode::AbsError(p) if p.base_bound == 3.0));
        assert_eq!(m(TosaOp::Argmax, ElemType::Fp32, ElemType::I32), Mode::Exact);
        assert_eq!(m(TosaOp::Rescale, ElemType::I8, ElemType::I8), Mode::Exact);
        let inexact = OpContext::new(TosaOp::Rescale, ElemType::I8, ElemType::I8)
            .with_rescale(RoundingMode::InexactRound, true)
            .mode()
            .expect("mode");
        assert_eq!(inexact, Mode::RescaleInexact { unsigned: true });
    }

    #[test]
    fn missing_facts_are_reported() {
        let e = OpContext::new(TosaOp::Conv2d, ElemType::Fp32, ElemType::Fp32).mode();
        assert!(e.is_err());
        let msg = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("CONV2D") && msg.contains("kernel size"), "{msg}");
        assert!(OpContext::new(TosaOp::ReduceProduct, ElemType::Fp16, ElemType::Fp16).mode().is_err());
        assert!(OpContext::new(TosaOp::Resize, ElemType::Fp16, ElemType::Fp16).mode().is_err());
        let special = OpContext::new(TosaOp::Matmul, ElemType::Fp32, ElemType::Fp32).with_special_inputs(true);
        assert_eq!(special.mode(), Ok(Mode::FpSpecial { accumulator_limit: None }));
    }
}
