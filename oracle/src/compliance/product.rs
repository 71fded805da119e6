//! REDUCE_PRODUCT elements the rule cannot judge.
//!
//! The pseudocode multiplies in the operator's own type (`in_out_t acc =
//! 1.0; acc = apply_mul_s(acc, value)`), while the bound of §4 is relative
//! to the product in fp64. The bound assumes every step rounds with a
//! relative error of half an ulp; a step outside the type's normal range
//! does not: the product overflows to infinity (and becomes NaN at a later
//! zero: TOSA reference model and IREE both answer NaN where the fp64
//! product is 0), or loses its precision below `normal_min`. Such elements
//! are left unjudged.

use super::format::FpFormat;
use super::{Exemption, Unjudged};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;

/// The elements of REDUCE_PRODUCT(`input`, `axis`) with result type `output`
/// whose running product, in `output`'s arithmetic and the pseudocode's
/// order, leaves the normal range before the last factor while the fp64
/// product, rounded to `output`, stays in it.
pub fn reduce_product_unjudged(input: &TensorData, axis: usize, output: ElemType) -> Unjudged {
    let mut unjudged = Unjudged::none();
    let Some(f) = FpFormat::of(output) else { return unjudged };
    let shape = input.shape();
    let Some(&len) = shape.get(axis) else { return unjudged };
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let values = input.to_f64();
    for o in 0..outer {
        for i in 0..inner {
            let lane = (0..len).filter_map(|k| values.get((o * len + k) * inner + i).copied());
            if let Some(why) = lane_exemption(&f, lane, len) {
                unjudged.element(o * inner + i, why);
            }
        }
    }
    unjudged
}

fn lane_exemption(f: &FpFormat, lane: impl Iterator<Item = f64>, len: usize) -> Option<Exemption> {
    let (mut typed, mut wide) = (1.0f64, 1.0f64);
    let mut zero_seen = false;
    let mut left_range = None;
    for (k, x) in lane.enumerate() {
        zero_seen |= x == 0.0;
        // Both factors are values of a type of at most 24 significant bits,
        // so their f64 product is exact and one rounding gives the typed step.
        typed = f.round(typed * x);
        wide *= x;
        if k + 1 == len || left_range.is_some() || x.is_nan() || x.is_infinite() {
            continue;
        }
        if typed.is_infinite() {
            left_range = Some(Exemption::ProductOverflows);
        } else if typed.abs() < f.normal_min() && (typed != 0.0 || !zero_seen) {
            left_range = Some(Exemption::ProductUnderflows);
        }
    }
    let reference = f.round(wide);
    match left_range? {
        Exemption::ProductOverflows if reference.is_finite() => Some(Exemption::ProductOverflows),
        Exemption::ProductUnderflows if reference.abs() >= f.normal_min() && reference.is_finite() => {
            Some(Exemption::ProductUnderflows)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};

    fn fp32(shape: &[usize], v: &[f32]) -> TensorData {
        TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(shape), v.to_vec()).expect("shape"))
    }

    #[test]
    fn overflow_before_a_zero_is_unjudged() {
        // Lanes along axis 1: [1e30, 1e30, 0] overflows then meets the zero
        // (fp32: NaN, fp64: 0); [2, 3, 4] is ordinary; [1e30, 1e30, 1e-30]
        // overflows and stays infinite in fp32 while fp64 gives 1e30.
        let t = fp32(&[3, 3], &[1e30, 1e30, 0.0, 2.0, 3.0, 4.0, 1e30, 1e30, 1e-30]);
        let u = reduce_product_unjudged(&t, 1, ElemType::Fp32);
        let got: Vec<_> = u.elements().collect();
        assert_eq!(got, vec![(0, Exemption::ProductOverflows), (2, Exemption::ProductOverflows)]);
    }

    #[test]
    fn overflow_at_the_last_factor_and_true_overflow_are_judged() {
        // The last factor overflows: so does the fp64 product. Both infinite.
        let t = fp32(&[1, 3], &[1e20, 1e10, 1e20]);
        assert!(reduce_product_unjudged(&t, 1, ElemType::Fp32).is_empty());
        let t = fp32(&[1, 3], &[1e30, 1e30, 1e30]);
        assert!(reduce_product_unjudged(&t, 1, ElemType::Fp32).is_empty());
    }

    #[test]
    fn underflow_before_a_large_factor_is_unjudged_but_a_zero_factor_is_not() {
        let t = fp32(&[2, 3], &[1e-30, 1e-30, 1e30, 0.0, 1e-30, 1e30]);
        let got: Vec<_> = reduce_product_unjudged(&t, 1, ElemType::Fp32).elements().collect();
        assert_eq!(got, vec![(0, Exemption::ProductUnderflows)]);
    }

    #[test]
    fn fp16_overflows_at_its_own_range() {
        let v: Vec<half::f16> = [300.0, 300.0, 0.001].iter().map(|&x| half::f16::from_f64(x)).collect();
        let t = TensorData::Fp16(ArrayD::from_shape_vec(IxDyn(&[3]), v).expect("shape"));
        let got: Vec<_> = reduce_product_unjudged(&t, 0, ElemType::Fp16).elements().collect();
        assert_eq!(got, vec![(0, Exemption::ProductOverflows)]);
    }
}
