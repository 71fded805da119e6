//! The comparison modes of §5.5 and their parameters.

use super::bound::AbsErrorParams;
use serde_json::{json, Value};
use spvgraph_ir::elem::ElemType;

/// Parameters of the dot-product rule (§5.4).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DotProductParams {
    /// Appendix A test set `S` (0–5), or −1 for other data (no bias check).
    pub test_set: i32,
    /// `ksb`: the kernel-size bound.
    pub ksb: u64,
    /// `ABS_BOUND`: the largest allowed normalised error of one element.
    pub abs_bound: f64,
    /// `VARIANCE_ERROR_BOUND`: the allowed mean squared normalised error.
    pub variance_error_bound: f64,
    /// Elements whose bound exceeds this have no accuracy requirement: the
    /// sum the pseudocode accumulates would overflow the accumulator type
    /// (see [`super::DotInfo::summed_before_division`]). `None`: no such limit.
    #[serde(default)]
    pub accumulator_limit: Option<f64>,
}

impl DotProductParams {
    /// The parameters of §5.4 for a dot product of length `ks` accumulated in
    /// `acc` and rounded to `out`, with or without a non-zero bias.
    pub fn for_kernel(ks: u64, acc: ElemType, out: ElemType, bias_nonzero: bool, test_set: i32) -> DotProductParams {
        let frac = |e: ElemType| super::format::FpFormat::of(e).map_or(0, |f| f.normal_frac);
        // The exponent is a real number (2^6.5 for fp16 output with fp32
        // accumulation), as the reference test generator evaluates it.
        let divide_by = 2f64.powf(f64::from(frac(acc) - frac(out)) / 2.0);
        let ksb = (ks as f64 / divide_by).ceil() as u64 + u64::from(bias_nonzero);
        DotProductParams {
            test_set,
            ksb,
            abs_bound: 2.0 * ksb as f64,
            variance_error_bound: 4.0 * 0.4 * ksb as f64,
            accumulator_limit: None,
        }
    }
}

/// One comparison mode with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Mode {
    /// Bit-exact integers and bools; FP values equal (any NaN matches any NaN,
    /// zeros of either sign, flushed subnormals for bf16/fp16/fp32).
    Exact,
    /// `|ref| − ulp_lower·u ≤ |out| ≤ |ref| + ulp·u`, `u = ulp(ref)`.
    Ulp {
        /// Allowed ulps above the reference magnitude.
        ulp: f64,
        /// Allowed ulps below it.
        ulp_lower: f64,
    },
    /// `calcAbsErrorBound` with a per-element bound value (from the bounds tensor).
    AbsError(AbsErrorParams),
    /// The bounds tensor holds the allowed absolute error of each element (POW).
    Precomputed,
    /// The dot-product statistics of §5.4 (needs the bounds tensor).
    DotProduct(DotProductParams),
    /// Dot-product ops fed with inf/NaN: only NaN-ness, finiteness and sign must agree.
    FpSpecial {
        /// As [`DotProductParams::accumulator_limit`]: elements whose bound
        /// exceeds it have no requirement (the sum overflows the accumulator).
        #[serde(default)]
        accumulator_limit: Option<f64>,
    },
    /// REDUCE_PRODUCT over `n` values.
    ReduceProduct {
        /// Number of multiplied values.
        n: u64,
    },
    /// RESIZE: `max(scale · max, calcAbsErrorBound(max, ulp_bound, 0, 1))`.
    Relative {
        /// `max |input|`.
        max: f64,
        /// Relative factor (0.006).
        scale: f64,
        /// Ulp multiplier (20).
        ulp_bound: f64,
    },
    /// RESCALE with INEXACT_ROUND: the reference holds each element's lowest
    /// allowed value and the bounds tensor its highest.
    RescaleInexact {
        /// The output is read as unsigned (`output_unsigned`).
        unsigned: bool,
    },
}

impl Mode {
    /// The reference model's name for the mode.
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Exact => "EXACT",
            Mode::Ulp { .. } => "ULP",
            Mode::AbsError(_) => "ABS_ERROR",
            Mode::Precomputed => "PRECOMPUTED",
            Mode::DotProduct(_) => "DOT_PRODUCT",
            Mode::FpSpecial { .. } => "FP_SPECIAL",
            Mode::ReduceProduct { .. } => "REDUCE_PRODUCT",
            Mode::Relative { .. } => "MAX_RELATIVE",
            Mode::RescaleInexact { .. } => "RESCALE_INEXACT",
        }
    }

    /// Whether the mode reads a bounds tensor.
    pub fn needs_bounds(&self) -> bool {
        matches!(
            self,
            Mode::AbsError(_)
                | Mode::Precomputed
                | Mode::DotProduct(_)
                | Mode::FpSpecial { .. }
                | Mode::RescaleInexact { .. }
        )
    }

    /// The tensor entry of a `tosa_verify` compliance configuration
    /// (`meta.compliance.tensors.<name>` of a test descriptor).
    pub fn verify_config(&self, elem: ElemType, shape: &[usize]) -> Value {
        let mut v = json!({ "mode": self.name(), "data_type": verify_type_name(elem), "shape": shape });
        let extra = match *self {
            Mode::Ulp { ulp, ulp_lower } => Some(("ulp_info", json!({ "ulp": ulp, "ulp_lower": ulp_lower }))),
            Mode::AbsError(p) => Some((
                "abs_error_info",
                json!({
                    "lower_bound": p.lower_bound,
                    "base_bound": p.base_bound,
                    "bound_as_magnitude": p.bound_as_magnitude,
                    "normal_divisor": p.normal_divisor,
                    "max_compare": p.max_compare,
                }),
            )),
            Mode::DotProduct(d) => Some((
                "dot_product_info",
                json!({
                    "s": d.test_set,
                    "ksb": d.ksb,
                    "abs_bound": d.abs_bound.ceil() as i64,
                    "variance_error_bound": d.variance_error_bound,
                }),
            )),
            Mode::ReduceProduct { n } => Some(("reduce_product_info", json!({ "n": n }))),
            Mode::Relative { max, scale, ulp_bound } => {
                Some(("max_relative_info", json!({ "max": max, "scale": scale, "ulp_bound": ulp_bound })))
            }
            Mode::RescaleInexact { unsigned } => Some(("rescale_inexact_info", json!({ "unsigned_data": unsigned }))),
            Mode::Exact | Mode::Precomputed | Mode::FpSpecial { .. } => None,
        };
        if let (Some((key, info)), Some(obj)) = (extra, v.as_object_mut()) {
            obj.insert(key.to_string(), info);
        }
        v
    }
}

/// The reference model's data-type name (`FP32`, `INT48`, ...).
pub fn verify_type_name(elem: ElemType) -> &'static str {
    match elem {
        ElemType::Bool => "BOOL",
        ElemType::I8 => "INT8",
        ElemType::I16 => "INT16",
        ElemType::I32 => "INT32",
        ElemType::I48 => "INT48",
        ElemType::Fp16 => "FP16",
        ElemType::Bf16 => "BF16",
        ElemType::Fp32 => "FP32",
        ElemType::Fp8E4M3 => "FP8E4M3",
        ElemType::Fp8E5M2 => "FP8E5M2",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ksb_follows_the_accumulator_gap() {
        let same = DotProductParams::for_kernel(27, ElemType::Fp32, ElemType::Fp32, false, -1);
        assert_eq!(same.ksb, 27);
        assert_eq!(same.abs_bound, 54.0);
        assert!((same.variance_error_bound - 43.2).abs() < 1e-12);
        // fp16 output with fp32 accumulation: KS / 2^6.5, rounded up, +1 for bias.
        let mixed = DotProductParams::for_kernel(1000, ElemType::Fp32, ElemType::Fp16, true, -1);
        assert_eq!(mixed.ksb, (1000.0 / 2f64.powf(6.5)).ceil() as u64 + 1);
    }

    #[test]
    fn verify_config_carries_the_parameters() {
        let v = Mode::Ulp { ulp: 0.5, ulp_lower: 1.0 }.verify_config(ElemType::Bf16, &[2, 3]);
        assert_eq!(v["mode"], "ULP");
        assert_eq!(v["data_type"], "BF16");
        assert_eq!(v["ulp_info"]["ulp_lower"], 1.0);
        assert_eq!(v["shape"], json!([2, 3]));
        assert!(Mode::Exact.verify_config(ElemType::I8, &[1]).get("ulp_info").is_none());
    }
}
