//! TOSA's optional extra multiplies (`tosa_extra_multiplies()` in the
//! TRANSPOSE_CONV2D pseudocode): an implementation may also multiply the
//! weights of taps that have no input element (the tap falls outside the
//! input, or between two strided input positions) by a zero input. For
//! finite weights those products are 0 and change nothing; an infinite or
//! NaN `weight - weight_zp` makes `0 * w` NaN, and the output element it
//! lands on may then be NaN. The converse, a real input multiplied by a
//! zero the operator does not have (an infinite input landing on an output
//! TOSA defines as the bias alone), is not an extra multiply and stays a
//! wrong result.

use super::{Exemption, Unjudged};
use spvgraph_ir::tensor::TensorData;

/// The geometry of one TRANSPOSE_CONV2D, NHWC throughout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransposeGeometry {
    /// `[N, IH, IW, IC]`.
    pub input: [usize; 4],
    /// `[N, OH, OW, OC]`.
    pub output: [usize; 4],
    /// The weight's `[KH, KW]` (its shape is `[OC, KH, KW, IC]`).
    pub kernel: [usize; 2],
    /// `[out_pad_top, out_pad_left]` (bottom and right do not move taps).
    pub out_pad: [i64; 2],
    /// `[stride_y, stride_x]`, each at least 1.
    pub stride: [i64; 2],
}

impl TransposeGeometry {
    /// Whether output coordinate `o` reaches an input element through tap
    /// `k` on axis `a` (0: y, 1: x): `o = i * stride + out_pad + k` for an
    /// `i` inside the input.
    fn has_input(&self, a: usize, o: usize, k: usize) -> bool {
        let size = self.input[1 + a] as i64;
        let y = o as i64 - self.out_pad[a] - k as i64;
        let s = self.stride[a];
        s >= 1 && y >= 0 && y % s == 0 && y / s < size
    }
}

/// The output elements (row-major) where TRANSPOSE_CONV2D may give NaN by
/// an optional extra multiply: some tap without an input element has a
/// non-finite `weight - weight_zp` for that output channel. `None` when the
/// weight's shape does not fit the geometry.
pub fn transpose_conv2d_nan_allowed(g: &TransposeGeometry, weight: &TensorData, weight_zp: f64) -> Option<Unjudged> {
    let [n, oh, ow, oc] = g.output;
    let [kh, kw] = g.kernel;
    let ic = g.input[3];
    if weight.shape() != [oc, kh, kw, ic] {
        return None;
    }
    let values = weight.to_f64();
    // Per (oc, ky, kx): whether any input channel's weight is not finite.
    let special: Vec<bool> = values.chunks(ic.max(1)).map(|c| c.iter().any(|w| !(w - weight_zp).is_finite())).collect();
    let mut out = Unjudged::none();
    if !special.iter().any(|&s| s) {
        return Some(out);
    }
    for oy in 0..oh {
        for ox in 0..ow {
            for c in 0..oc {
                let allowed = (0..kh).any(|ky| {
                    (0..kw).any(|kx| {
                        special[(c * kh + ky) * kw + kx] && !(g.has_input(0, oy, ky) && g.has_input(1, ox, kx))
                    })
                });
                if allowed {
                    for b in 0..n {
                        out.allow_nan(((b * oh + oy) * ow + ox) * oc + c, Exemption::ExtraMultiplies);
                    }
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::elem::ElemType;

    /// One row: input `1x1xIWx1`, weight `1x1xKWx1`, output `1x1xOWx1`.
    fn row(iw: usize, kw: usize, ow: usize, pad_left: i64, stride: i64) -> TransposeGeometry {
        TransposeGeometry {
            input: [1, 1, iw, 1],
            output: [1, 1, ow, 1],
            kernel: [1, kw],
            out_pad: [0, pad_left],
            stride: [1, stride],
        }
    }

    fn weight(values: &[f32]) -> TensorData {
        let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits())).collect();
        TensorData::from_bits(ElemType::Fp32, &[1, 1, values.len(), 1], &bits).expect("fp32 weights")
    }

    fn allowed(u: &Unjudged) -> Vec<usize> {
        u.nan_allowed().map(|(i, _)| i).collect()
    }

    #[test]
    fn an_infinite_weight_at_a_tap_without_input_allows_nan_there_only() {
        // Input [a, b], weight [inf, 1], stride 1: out[0] = a*inf, out[1] =
        // b*inf + a, out[2] = b. Output 2's tap 0 (weight inf) would read
        // input 2, which does not exist: an extra multiply 0 * inf may make
        // it NaN. Outputs 0 and 1 read real inputs through the inf tap.
        let u = transpose_conv2d_nan_allowed(&row(2, 2, 3, 0, 1), &weight(&[f32::INFINITY, 1.0]), 0.0).expect("fits");
        assert_eq!(allowed(&u), [2]);
        assert_eq!(u.get_for(2, f64::NAN), Some(Exemption::ExtraMultiplies));
        assert_eq!(u.get_for(2, 5.0), None, "a non-NaN value is judged as usual");
        // Finite weights: no extra multiply can make NaN.
        let finite = transpose_conv2d_nan_allowed(&row(2, 2, 3, 0, 1), &weight(&[2.0, 1.0]), 0.0).expect("fits");
        assert!(finite.is_empty());
    }

    #[test]
    fn taps_between_strides_count_and_an_infinite_input_does_not() {
        // Input [inf, 2], weight [1] (one tap), stride 3: outputs 1 and 2
        // lie between strides and are the bias alone. The weight is finite,
        // so NaN there (the inf input times a padded zero weight) is wrong.
        let u = transpose_conv2d_nan_allowed(&row(2, 1, 4, 0, 3), &weight(&[1.0]), 0.0).expect("fits");
        assert!(u.is_empty());
        // An infinite weight: every output has the tap, and outputs 1 and 2
        // have it without an input element.
        let u = transpose_conv2d_nan_allowed(&row(2, 1, 4, 0, 3), &weight(&[f32::NEG_INFINITY]), 0.0).expect("fits");
        assert_eq!(allowed(&u), [1, 2]);
        // Padding moves the taps: out_pad_left 1 shifts them right by one.
        let u = transpose_conv2d_nan_allowed(&row(2, 1, 5, 1, 3), &weight(&[f32::NAN]), 0.0).expect("fits");
        assert_eq!(allowed(&u), [0, 2, 3]);
        // A shape that does not fit is not guessed at.
        assert!(transpose_conv2d_nan_allowed(&row(2, 2, 3, 0, 1), &weight(&[1.0]), 0.0).is_none());
    }
}
