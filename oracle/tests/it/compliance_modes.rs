//! Hand-computed cases at the edges of every compliance mode: just inside
//! the bound passes, just outside fails.

use ndarray::{ArrayD, IxDyn};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{RoundingMode, TosaOp};
use spvgraph_oracle::compliance::{
    bounds, compare, compare_with_mode, pow2, AbsErrorParams, CompareError, DotInfo, DotProductParams, Mode, OpContext,
    ReferenceTensor,
};

fn precise(values: &[f64]) -> ReferenceTensor {
    ReferenceTensor::Precise { shape: vec![values.len()], values: values.to_vec() }
}

fn f32s(values: &[f64]) -> TensorData {
    let v = values.iter().map(|&v| v as f32).collect();
    TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(&[values.len()]), v).expect("shape"))
}

fn f16s(values: &[f64]) -> TensorData {
    let v = values.iter().map(|&x| half::f16::from_f64(x)).collect();
    TensorData::Fp16(ArrayD::from_shape_vec(IxDyn(&[values.len()]), v).expect("shape"))
}

fn bf16s(values: &[f64]) -> TensorData {
    let v = values.iter().map(|&x| half::bf16::from_f64(x)).collect();
    TensorData::Bf16(ArrayD::from_shape_vec(IxDyn(&[values.len()]), v).expect("shape"))
}

fn ints(elem: ElemType, values: &[i64]) -> TensorData {
    TensorData::from_bits(elem, &[values.len()], &values.iter().map(|&v| v as u64).collect::<Vec<_>>()).expect("shape")
}

fn verdict(mode: Mode, reference: &[f64], candidate: TensorData, bounds: Option<&[f64]>) -> bool {
    let b = bounds.map(precise);
    let r = compare_with_mode(&mode, &precise(reference), &candidate, b.as_ref()).expect("comparable");
    r.pass
}

#[test]
fn exact_integers_name_the_first_worst_element() {
    let r = ReferenceTensor::Typed(ints(ElemType::I8, &[1, -2, 3, 4]));
    let same = compare_with_mode(&Mode::Exact, &r, &ints(ElemType::I8, &[1, -2, 3, 4]), None).expect("ok");
    assert!(same.pass, "{same}");
    let off = compare_with_mode(&Mode::Exact, &r, &ints(ElemType::I8, &[1, -2, 3, 7]), None).expect("ok");
    assert!(!off.pass);
    let w = off.worst.expect("worst element");
    assert_eq!((w.index, w.reference, w.candidate, w.error), (3, 4.0, 7.0, 3.0));
    assert_eq!(off.stats.failures, 1);
    let typed = compare_with_mode(&Mode::Exact, &r, &ints(ElemType::I16, &[1, -2, 3, 4]), None).expect("ok");
    assert!(!typed.pass && typed.reason.as_deref().unwrap_or("").contains("i16"), "{typed}");
    // i48 values beyond 2^32 still compare exactly.
    let big = ReferenceTensor::Typed(ints(ElemType::I48, &[1 << 46, -(1 << 40)]));
    let same_big = ints(ElemType::I48, &[1 << 46, -(1 << 40)]);
    assert!(compare_with_mode(&Mode::Exact, &big, &same_big, None).expect("ok").pass);
    let off_big = ints(ElemType::I48, &[(1 << 46) + 1, -(1 << 40)]);
    assert!(!compare_with_mode(&Mode::Exact, &big, &off_big, None).expect("ok").pass);
}

#[test]
fn exact_floats_allow_any_nan_either_zero_and_flushed_subnormals() {
    let ctx = OpContext::new(TosaOp::Maximum, ElemType::Fp32, ElemType::Fp32);
    let r = precise(&[f64::NAN, 0.0, 1e-40, 2.5]);
    let ok = f32s(&[f64::NAN, -0.0, 0.0, 2.5]);
    assert!(compare(&ctx, &r, &ok, None).expect("ok").pass);
    let one_ulp = f32s(&[f64::NAN, 0.0, 1e-40, 2.5 + pow2(-22)]);
    assert!(!compare(&ctx, &r, &one_ulp, None).expect("ok").pass);
    let not_nan = f32s(&[1.0, 0.0, 1e-40, 2.5]);
    let res = compare(&ctx, &r, &not_nan, None).expect("ok");
    assert!(!res.pass && res.worst.expect("worst").error.is_nan());
    // fp8 must keep subnormals: flushing 2^-16 to zero is a failure.
    let e5 = TensorData::from_bits(ElemType::Fp8E5M2, &[1], &[0x00]).expect("fp8");
    assert!(!compare_with_mode(&Mode::Exact, &precise(&[pow2(-16)]), &e5, None).expect("ok").pass);
    let e5_sub = TensorData::from_bits(ElemType::Fp8E5M2, &[1], &[0x01]).expect("fp8");
    assert!(compare_with_mode(&Mode::Exact, &precise(&[pow2(-16)]), &e5_sub, None).expect("ok").pass);
}

#[test]
fn half_ulp_edges() {
    let half = Mode::Ulp { ulp: 0.5, ulp_lower: 0.5 };
    let u = pow2(-23);
    // The exact midpoint between two fp32 values: both neighbours are 0.5 ulp away.
    let mid = 1.5 + u / 2.0;
    assert!(verdict(half, &[mid], f32s(&[1.5]), None));
    assert!(verdict(half, &[mid], f32s(&[1.5 + u]), None));
    // Nudge the reference up: 1.5 is now just over 0.5 ulp below it.
    let above = mid + pow2(-40);
    assert!(!verdict(half, &[above], f32s(&[1.5]), None));
    assert!(verdict(half, &[above], f32s(&[1.5 + u]), None));
    // Through the catalogue: ADD is 0.5 ulp.
    let ctx = OpContext::new(TosaOp::Add, ElemType::Fp32, ElemType::Fp32);
    assert!(!compare(&ctx, &precise(&[above]), &f32s(&[1.5]), None).expect("ok").pass);
}

#[test]
fn rsqrt_two_ulp_edges_in_fp16() {
    let ctx = OpContext::new(TosaOp::Rsqrt, ElemType::Fp16, ElemType::Fp16);
    let u = pow2(-10);
    assert!(compare(&ctx, &precise(&[1.25]), &f16s(&[1.25 + 2.0 * u]), None).expect("ok").pass);
    assert!(!compare(&ctx, &precise(&[1.25]), &f16s(&[1.25 + 3.0 * u]), None).expect("ok").pass);
    assert!(compare(&ctx, &precise(&[-1.25]), &f16s(&[-1.25 + 2.0 * u]), None).expect("ok").pass);
}

#[test]
fn cast_float_to_float_is_asymmetric() {
    // fp32 → bf16: 1 ulp below the reference magnitude, 0.5 ulp above; bf16 ulp at 1 is 2^-7.
    let ctx = OpContext::new(TosaOp::Cast, ElemType::Fp32, ElemType::Bf16);
    assert_eq!(ctx.mode(), Ok(Mode::Ulp { ulp: 0.5, ulp_lower: 1.0 }));
    let u = pow2(-7);
    let eps = pow2(-20);
    let run = |r: f64, c: f64| compare(&ctx, &precise(&[r]), &bf16s(&[c]), None).expect("ok").pass;
    assert!(run(1.0 + u - eps, 1.0), "truncation (just under 1 ulp below) is allowed");
    assert!(!run(1.0 + u + eps, 1.0), "just over 1 ulp below is not");
    assert!(run(1.0 + u / 2.0, 1.0 + u), "0.5 ulp above is allowed");
    assert!(!run(1.0 + u / 2.0 - eps, 1.0 + u), "just over 0.5 ulp above is not");
    // The sign must be right: magnitudes are compared, so -1 for +1 fails.
    assert!(!run(1.0, -1.0));
}

#[test]
fn exp_abs_error_edges_with_in_tree_bounds() {
    // EXP fp32 at x = 1: allowed = (err_base 3 + 2|x|) · e · 2^-23 = 5e·2^-23 ≈ 6.80 ulps of 2^-22.
    let x = f32s(&[1.0]);
    let b = bounds::elementwise_bounds(TosaOp::Exp, ElemType::Fp32, &[&x]).expect("bounds");
    assert_eq!(b, vec![2.0]);
    let ctx = OpContext::new(TosaOp::Exp, ElemType::Fp32, ElemType::Fp32);
    let e = std::f64::consts::E;
    let e32 = f64::from(e as f32); // 0.35 ulp below e
    let ulp = pow2(-22);
    let run = |k: f64| compare(&ctx, &precise(&[e]), &f32s(&[e32 + k * ulp]), Some(&precise(&b))).expect("ok");
    assert!(run(7.0).pass, "6.65 ulps off is inside 6.80");
    let out = run(8.0);
    assert!(!out.pass, "7.65 ulps off is outside");
    let w = out.worst.expect("worst");
    assert!((w.allowed - 5.0 * e * pow2(-23)).abs() < 1e-18, "{}", w.allowed);
    assert!(run(-6.0).pass && !run(-7.0).pass, "below: 6.35 ulps inside, 7.35 outside");
    // Without a bounds tensor the mode cannot run.
    let missing = compare(&ctx, &precise(&[e]), &f32s(&[e]), None);
    assert!(matches!(missing, Err(CompareError::MissingBounds { mode: "ABS_ERROR" })));
}

#[test]
fn sin_uses_the_input_as_magnitude_and_a_floor() {
    // SIN fp32: max(2^-11 · max(|x|, normal_min) · 2, π·normal_min); x = 0.5 → 2^-11.
    let p = AbsErrorParams {
        base_bound: 2.0,
        bound_as_magnitude: true,
        normal_divisor: 2.0,
        max_compare: std::f64::consts::PI * pow2(-126),
        ..AbsErrorParams::default()
    };
    let r = 0.5f64.sin();
    let inside = r + pow2(-11) * 0.99;
    let outside = r + pow2(-11) * 1.01;
    assert!(verdict(Mode::AbsError(p), &[r], f32s(&[inside]), Some(&[0.5])));
    assert!(!verdict(Mode::AbsError(p), &[r], f32s(&[outside]), Some(&[0.5])));
}

#[test]
fn precomputed_bound_edges() {
    assert!(verdict(Mode::Precomputed, &[10.0], f32s(&[10.25]), Some(&[0.25])));
    assert!(!verdict(Mode::Precomputed, &[10.0], f32s(&[10.25 + pow2(-20)]), Some(&[0.25])));
}

fn dot_params() -> DotProductParams {
    // KS = 4, fp32 in fp32: ksb 4, ABS_BOUND 8, VARIANCE_ERROR_BOUND 6.4.
    DotProductParams::for_kernel(4, ElemType::Fp32, ElemType::Fp32, false, -1)
}

fn dot(p: DotProductParams, refs: &[f64], imps: &[f64], bnds: &[f64]) -> spvgraph_oracle::compliance::ComplianceResult {
    compare_with_mode(&Mode::DotProduct(p), &precise(refs), &f32s(imps), Some(&precise(bnds))).expect("ok")
}

#[test]
fn dot_product_element_and_variance_edges() {
    let p = dot_params();
    assert_eq!((p.ksb, p.abs_bound), (4, 8.0));
    // A bound of 2^24 makes the error scale 2^24 · 2^-24 = 1: err = imp − ref.
    let refs = [1000.0; 10];
    let bnds = [pow2(24); 10];
    let mut imps = [1000.0; 10];
    imps[0] = 1008.0; // err 8: on the per-element edge; Σerr² = 64 = 6.4 · 10, the variance edge
    assert!(dot(p, &refs, &imps, &bnds).pass);
    imps[1] = 1000.5; // Σerr² = 64.25: just over the variance limit
    let r = dot(p, &refs, &imps, &bnds);
    assert!(!r.pass && r.stats.failures == 0, "{r}");
    assert!(r.reason.as_deref().unwrap_or("").contains("variance"), "{r}");
    let mut one = [1000.0; 10];
    one[3] = 1009.0; // err 9 > ABS_BOUND
    let r = dot(p, &refs, &one, &bnds);
    assert!(!r.pass && r.stats.failures == 1);
    let w = r.worst.expect("worst");
    assert_eq!((w.index, w.error, w.allowed), (3, 9.0, 8.0));
}

#[test]
fn dot_product_zero_nan_and_overflow_rules() {
    let p = dot_params();
    // Zero bound: ref and result must both be zero (either sign).
    assert!(dot(p, &[0.0], &[-0.0], &[0.0]).pass);
    assert!(!dot(p, &[0.0], &[1e-30], &[0.0]).pass);
    // NaN bound: no requirement.
    assert!(dot(p, &[1.0], &[123.0], &[f64::NAN]).pass);
    // NaN reference: the result must be NaN.
    assert!(!dot(p, &[f64::NAN], &[1.0], &[1.0]).pass);
    // A bound that overflows fp32 once widened by ABS_BOUND half-ulps: no requirement.
    assert!(dot(p, &[1e38], &[-3e38], &[f64::from(f32::MAX)]).pass);
    assert!(!dot(p, &[1e38], &[-3e38], &[1e38]).pass);
}

#[test]
fn dot_product_bias_edge_for_test_sets_3_to_5() {
    let mut p = dot_params();
    p.test_set = 3;
    // T = 100: bias limit sqrt(10 · 6.4 · 100) = 80; variance limit 640.
    let refs = vec![0.0; 100];
    let bnds = vec![pow2(24); 100];
    assert!(dot(p, &refs, &[0.79; 100], &bnds).pass);
    let r = dot(p, &refs, &[0.81; 100], &bnds);
    assert!(!r.pass && r.reason.as_deref().unwrap_or("").contains("bias"), "{r}");
    // Set -1 (other data) has no bias check.
    assert!(dot(dot_params(), &refs, &[0.81; 100], &bnds).pass);
}

#[test]
fn dot_product_context_adds_one_for_bias() {
    let dot = DotInfo { ks: 9, acc: ElemType::Fp16, bias_nonzero: true, test_set: -1, summed_before_division: false };
    let ctx = OpContext::new(TosaOp::Conv2d, ElemType::Fp16, ElemType::Fp16).with_dot(dot);
    match ctx.mode() {
        Ok(Mode::DotProduct(p)) => assert_eq!((p.ksb, p.abs_bound), (10, 20.0)),
        other => panic!("expected DOT_PRODUCT, got {other:?}"),
    }
}

#[test]
fn fp_special_checks_class_and_sign_only() {
    let m = Mode::FpSpecial { accumulator_limit: None };
    assert!(verdict(m, &[f64::INFINITY], f32s(&[f64::INFINITY]), Some(&[1.0])));
    assert!(!verdict(m, &[f64::INFINITY], f32s(&[3e38]), Some(&[1.0])));
    assert!(verdict(m, &[-0.0], f32s(&[0.0]), Some(&[0.0])));
    assert!(verdict(m, &[5.0], f32s(&[7.0]), Some(&[1.0])), "finite values need statistics, not this mode");
    assert!(!verdict(m, &[5.0], f32s(&[-7.0]), Some(&[1.0])));
    assert!(verdict(m, &[5.0], f32s(&[f64::NAN]), Some(&[f64::NAN])), "a NaN bound admits NaN");
    assert!(!verdict(m, &[5.0], f32s(&[f64::NAN]), Some(&[1.0])));
}

/// A finite fp64 reference beyond fp16's largest value is fp16's infinity:
/// a TRANSPOSE_CONV2D whose exact sum is 1.5e41 gives +inf in fp16 (the hunt
/// filed the in-tree executor's right answer as wrong before).
#[test]
fn fp_special_takes_the_reference_in_the_output_format() {
    let m = Mode::FpSpecial { accumulator_limit: None };
    assert!(verdict(m, &[1.5e41], f16s(&[f64::INFINITY]), Some(&[1.5e41])));
    assert!(verdict(m, &[-7.0e4], f16s(&[f64::NEG_INFINITY]), Some(&[7.0e4])));
    assert!(!verdict(m, &[-7.0e4], f16s(&[f64::INFINITY]), Some(&[7.0e4])), "the sign still counts");
    assert!(!verdict(m, &[6.0e4], f16s(&[f64::INFINITY]), Some(&[6.0e4])), "within range it stays finite");
    assert!(verdict(m, &[1.5e41], f16s(&[65504.0]), Some(&[1.5e41])), "finite beyond range: sign and class agree");
}

/// An fp8e5m2 DEPTHWISE_CONV2D (fp16 accumulator, inf elsewhere in its
/// input) whose product 73728 overflows fp16 before a bias of -8560 brings the
/// exact sum back to 65168: the reference model gives inf, and so may any
/// implementation; with terms of one sign the sign still counts.
#[test]
fn fp_special_exempts_a_bound_that_overflows_with_terms_of_both_signs() {
    let m = Mode::FpSpecial { accumulator_limit: None };
    let bound = 73728.0 + 8560.0;
    assert!(verdict(m, &[65168.0], f16s(&[f64::INFINITY]), Some(&[bound])));
    assert!(verdict(m, &[65168.0], f16s(&[f64::NAN]), Some(&[bound])));
    assert!(verdict(m, &[65168.0], f16s(&[65184.0]), Some(&[bound])));
    assert!(!verdict(m, &[65168.0], f16s(&[f64::INFINITY]), Some(&[65168.0])), "no overflow on the way");
    assert!(
        !verdict(m, &[f64::INFINITY], f16s(&[f64::NEG_INFINITY]), Some(&[f64::INFINITY])),
        "an inf input still counts"
    );
}

/// An fp16 AVG_POOL2D (fp16 accumulator) with inf elsewhere in its input:
/// a window whose sum overflows 65504 may be inf, as the TOSA reference
/// model's own result is; a window that does not overflow may not.
#[test]
fn fp_special_lets_an_overflowing_fp16_accumulator_be_infinite() {
    let dot = DotInfo { ks: 3, acc: ElemType::Fp16, bias_nonzero: false, test_set: -1, summed_before_division: true };
    let ctx = OpContext::new(TosaOp::AvgPool2d, ElemType::Fp16, ElemType::Fp16).with_dot(dot).with_special_inputs(true);
    let m = ctx.mode().expect("a mode");
    assert_eq!(m, Mode::FpSpecial { accumulator_limit: Some(65504.0 / 3.0) });
    // Bounds are sum |x| / KS: 51488 (three values summing past 65504) and 100.
    assert!(verdict(m, &[51488.0], f16s(&[f64::INFINITY]), Some(&[51488.0])));
    assert!(!verdict(m, &[100.0], f16s(&[f64::INFINITY]), Some(&[100.0])));
}

#[test]
fn reduce_product_edges() {
    // fp16, n = 3: bound = |ref| · ((1 + 2^-11)^3 − 1) ≈ 1.466e-3 at ref 1; fp16 ulp at 1 is 2^-10.
    let ctx = OpContext::new(TosaOp::ReduceProduct, ElemType::Fp16, ElemType::Fp16).with_reduce_n(3);
    let u = pow2(-10);
    assert!(compare(&ctx, &precise(&[1.0]), &f16s(&[1.0 + u]), None).expect("ok").pass);
    assert!(!compare(&ctx, &precise(&[1.0]), &f16s(&[1.0 + 2.0 * u]), None).expect("ok").pass);
    // n = 1: 2^-11 at ref 1, so one fp16 ulp (2^-10) is already too far.
    let one = OpContext::new(TosaOp::ReduceProduct, ElemType::Fp16, ElemType::Fp16).with_reduce_n(1);
    assert!(!compare(&one, &precise(&[1.0]), &f16s(&[1.0 + u]), None).expect("ok").pass);
    assert!(compare(&one, &precise(&[1.0 + u / 2.0]), &f16s(&[1.0 + u]), None).expect("ok").pass);
}

#[test]
fn resize_relative_edges() {
    // fp16, max|input| 10: max(0.006·10, 20 · 2^-10 · 10) = 0.1953125, exactly representable.
    let ctx = OpContext::new(TosaOp::Resize, ElemType::Fp16, ElemType::Fp16).with_max_abs_input(10.0);
    assert!(compare(&ctx, &precise(&[5.0]), &f16s(&[5.1953125]), None).expect("ok").pass);
    assert!(!compare(&ctx, &precise(&[5.0]), &f16s(&[5.19921875]), None).expect("ok").pass);
    // fp32: the 0.006 term dominates (0.06).
    let f32ctx = OpContext::new(TosaOp::Resize, ElemType::Fp32, ElemType::Fp32).with_max_abs_input(10.0);
    assert!(compare(&f32ctx, &precise(&[5.0]), &f32s(&[5.0599]), None).expect("ok").pass);
    assert!(!compare(&f32ctx, &precise(&[5.0]), &f32s(&[5.0601]), None).expect("ok").pass);
}

#[test]
fn rescale_inexact_interval_edges() {
    let rescale = |rounding, unsigned| {
        OpContext::new(TosaOp::Rescale, ElemType::I16, ElemType::I8).with_rescale(rounding, unsigned)
    };
    let ctx = rescale(RoundingMode::InexactRound, false);
    let lo = ReferenceTensor::Typed(ints(ElemType::I8, &[-3, 10]));
    let hi = ReferenceTensor::Typed(ints(ElemType::I8, &[-1, 12]));
    assert!(compare(&ctx, &lo, &ints(ElemType::I8, &[-3, 12]), Some(&hi)).expect("ok").pass);
    assert!(!compare(&ctx, &lo, &ints(ElemType::I8, &[-4, 12]), Some(&hi)).expect("ok").pass);
    assert!(!compare(&ctx, &lo, &ints(ElemType::I8, &[-2, 13]), Some(&hi)).expect("ok").pass);
    // Unsigned output: the i8 bit patterns are read as 0..255.
    let uctx = rescale(RoundingMode::InexactRound, true);
    let ulo = ReferenceTensor::Typed(ints(ElemType::I8, &[250 - 256]));
    let uhi = ReferenceTensor::Typed(ints(ElemType::I8, &[252 - 256]));
    assert!(compare(&uctx, &ulo, &ints(ElemType::I8, &[251 - 256]), Some(&uhi)).expect("ok").pass);
    assert!(!compare(&uctx, &ulo, &ints(ElemType::I8, &[5]), Some(&uhi)).expect("ok").pass);
    // Any other rounding mode is exact.
    let single = rescale(RoundingMode::SingleRound, false);
    assert!(!compare(&single, &lo, &ints(ElemType::I8, &[-3, 11]), None).expect("ok").pass);
}

#[test]
fn shape_mismatch_fails_and_float_modes_refuse_integers() {
    let ctx = OpContext::new(TosaOp::Add, ElemType::Fp32, ElemType::Fp32);
    let r = compare(&ctx, &precise(&[1.0, 2.0]), &f32s(&[1.0]), None).expect("ok");
    assert!(!r.pass && r.reason.as_deref().unwrap_or("").contains("shape"), "{r}");
    let ulp = Mode::Ulp { ulp: 1.0, ulp_lower: 1.0 };
    let e = compare_with_mode(&ulp, &precise(&[1.0]), &ints(ElemType::I32, &[1]), None);
    assert!(matches!(e, Err(CompareError::NotFloat { .. })));
    let bad = compare_with_mode(&Mode::Precomputed, &precise(&[1.0]), &f32s(&[1.0]), Some(&precise(&[1.0, 2.0])));
    assert!(matches!(bad, Err(CompareError::BoundsShape { .. })));
}

#[test]
fn passing_results_still_report_the_closest_element() {
    let half = Mode::Ulp { ulp: 0.5, ulp_lower: 0.5 };
    let u = pow2(-23);
    let r = compare_with_mode(&half, &precise(&[1.0, 1.5 + u * 0.4]), &f32s(&[1.0, 1.5]), None).expect("ok");
    assert!(r.pass);
    let w = r.worst.expect("closest element");
    assert_eq!(w.index, 1);
    assert!((r.stats.worst_ratio - 0.8).abs() < 1e-9, "{}", r.stats.worst_ratio);
}

#[test]
fn avg_pool_sums_that_overflow_the_accumulator_are_exempt() {
    // AVG_POOL2D fp32, KS = 9: the pseudocode sums 9 inputs in fp32 before
    // dividing, so an average above fp32 max / 9 may come out infinite.
    let dot = DotInfo { ks: 9, acc: ElemType::Fp32, bias_nonzero: false, test_set: -1, summed_before_division: true };
    let ctx = OpContext::new(TosaOp::AvgPool2d, ElemType::Fp32, ElemType::Fp32).with_dot(dot);
    let limit = f64::from(f32::MAX) / 9.0;
    let over = limit * 1.01;
    let r = compare(&ctx, &precise(&[over]), &f32s(&[f64::INFINITY]), Some(&precise(&[over]))).expect("ok");
    assert!(r.pass && r.stats.exempt == 1, "{r}");
    let under = limit * 0.99;
    let r = compare(&ctx, &precise(&[under]), &f32s(&[f64::INFINITY]), Some(&precise(&[under]))).expect("ok");
    assert!(!r.pass, "{r}");
    // Convolutions sum the weighted terms themselves: no such exemption.
    let conv = DotInfo { summed_before_division: false, ..dot };
    let ctx = OpContext::new(TosaOp::Conv2d, ElemType::Fp32, ElemType::Fp32).with_dot(conv);
    let r = compare(&ctx, &precise(&[over]), &f32s(&[f64::INFINITY]), Some(&precise(&[over]))).expect("ok");
    assert!(!r.pass, "{r}");
}

#[test]
fn an_infinite_reference_needs_the_same_infinity() {
    // LOG(±0) = −∞ by the operator's table. calcAbsErrorBound of an infinite
    // magnitude is infinite, and check_fp_bnd alone would accept anything:
    // a LOG that answers −88 for a flushed subnormal must still fail.
    let log = OpContext::new(TosaOp::Log, ElemType::Fp32, ElemType::Fp32);
    let minus_inf = precise(&[f64::NEG_INFINITY, 0.0]);
    let bound = precise(&[5.0, 5.0]);
    let r = compare(&log, &minus_inf, &f32s(&[-88.0, 0.0]), Some(&bound)).expect("ok");
    assert!(!r.pass && r.stats.failures == 1, "{r}");
    assert!(compare(&log, &minus_inf, &f32s(&[f64::NEG_INFINITY, 0.0]), Some(&bound)).expect("ok").pass);
    assert!(!compare(&log, &minus_inf, &f32s(&[f64::INFINITY, 0.0]), Some(&bound)).expect("ok").pass);
    // EXP(+∞) = +∞; POW's precomputed bound the same; fp8e4m3 answers NaN for ∞.
    let exp = OpContext::new(TosaOp::Exp, ElemType::Fp32, ElemType::Fp32);
    let inf = precise(&[f64::INFINITY]);
    assert!(!compare(&exp, &inf, &f32s(&[3e38]), Some(&precise(&[f64::INFINITY]))).expect("ok").pass);
    assert!(!verdict(Mode::Precomputed, &[f64::INFINITY], f32s(&[1.0]), Some(&[f64::INFINITY])));
    assert!(verdict(Mode::Precomputed, &[f64::INFINITY], f32s(&[f64::INFINITY]), Some(&[f64::INFINITY])));
    let e4 = TensorData::from_bits(ElemType::Fp8E4M3, &[1], &[0x7f]).expect("NaN");
    assert!(verdict(Mode::Precomputed, &[f64::INFINITY], e4, Some(&[1.0])));
}

#[test]
fn unjudged_elements_are_counted_with_their_reason() {
    use spvgraph_oracle::compliance::{compare_except, Exemption, Unjudged};
    let ctx = OpContext::new(TosaOp::ReduceProduct, ElemType::Fp32, ElemType::Fp32).with_reduce_n(3);
    let reference = precise(&[0.0, 24.0]);
    let nan_first = f32s(&[f64::NAN, 24.0]);
    assert!(!compare(&ctx, &reference, &nan_first, None).expect("ok").pass);
    let mut unjudged = Unjudged::none();
    unjudged.element(0, Exemption::ProductOverflows);
    let r = compare_except(&ctx, &reference, &nan_first, None, &unjudged).expect("ok");
    assert!(r.pass, "{r}");
    assert_eq!((r.stats.exempt, r.stats.exempt_by.get(&Exemption::ProductOverflows)), (1, Some(&1)));
    assert!(r.to_string().contains("1 unjudged: the running product overflows"), "{r}");
    // The other element is still judged.
    let r = compare_except(&ctx, &reference, &f32s(&[f64::NAN, 25.0]), None, &unjudged).expect("ok");
    assert!(!r.pass && r.stats.failing == vec![1], "{r}");
    // In a dot product (KS 4: ABS_BOUND 8, variance limit 6.4 per element),
    // an unjudged element counts as error 0, and the tensor statistics can be
    // left out as well.
    let ctx = OpContext::new(TosaOp::Fft2d, ElemType::Fp32, ElemType::Fp32).with_dot(DotInfo {
        ks: 4,
        acc: ElemType::Fp32,
        bias_nonzero: false,
        test_set: -1,
        summed_before_division: false,
    });
    let refs = precise(&[1.0, 1.0]);
    let bnds = precise(&[1.0, 1.0]);
    let far = f32s(&[1.0 + 20.0 * pow2(-24), 1.0 + 7.0 * pow2(-24)]);
    assert!(!compare(&ctx, &refs, &far, Some(&bnds)).expect("ok").pass, "20 units is above ABS_BOUND");
    let mut first = Unjudged::none();
    first.element(0, Exemption::ReferenceModelFails);
    let r = compare_except(&ctx, &refs, &far, Some(&bnds), &first).expect("ok");
    assert!(!r.pass && r.stats.failures == 0 && r.stats.exempt == 1, "7² = 49 is above 2·6.4: {r}");
    let mut stats_too = Unjudged::none();
    stats_too.statistics(Exemption::ReferenceModelFails);
    first.merge(&stats_too);
    let r = compare_except(&ctx, &refs, &far, Some(&bnds), &first).expect("ok");
    assert!(r.pass && r.stats.statistics_exempt == Some(Exemption::ReferenceModelFails), "{r}");
}
