//! Element-wise, activation, comparison and TABLE operators on small graphs,
//! against hand-computed results.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::elem::ElemType::{self, Bool, Fp16, Fp32, I16, I32, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::exec::Require;

fn f32_values(t: &TensorData) -> Vec<f32> {
    t.to_f64().into_iter().map(|v| v as f32).collect()
}

#[test]
fn add_broadcasts_and_overflow_is_unpredictable() {
    let a = ints(I32, &[2, 1], &[10, 20]);
    let b = ints(I32, &[1, 3], &[1, 2, 3]);
    let out = op_plain(TosaOp::Add, &[a, b], (I32, &[2, 3])).expect("add");
    assert_eq!(int_values(&out), vec![11, 12, 13, 21, 22, 23]);
    let a = ints(I32, &[3], &[0, i64::from(i32::MAX), 5]);
    let b = ints(I32, &[1], &[1]);
    let (req, at) = unpredictable_at(op_plain(TosaOp::Add, &[a, b], (I32, &[3])));
    assert_eq!((req, at), (Require::AddOverflow, Some(vec![1])));
    let a = ints(I32, &[2], &[i64::from(i32::MIN), 0]);
    let (req, _) = unpredictable_at(op_plain(TosaOp::Sub, &[a, ints(I32, &[1], &[1])], (I32, &[2])));
    assert_eq!(req, Require::SubOverflow);
}

#[test]
fn fp_add_sub_mul_round_once() {
    // fp16: 1 + 2^-11 ties to 1.0; 2048 + 1 = 2049 ties to 2048.
    let a = TensorData::from_bits(Fp16, &[2], &[0x3c00, 0x6800]).expect("fp16");
    let b = TensorData::from_bits(Fp16, &[2], &[0x1000, 0x3c00]).expect("fp16");
    let out = op_plain(TosaOp::Add, &[a, b], (Fp16, &[2])).expect("add");
    assert_eq!(out.to_bits(), vec![0x3c00, 0x6800]);
    let a = f32s(&[3], &[1.5, f32::INFINITY, f32::INFINITY]);
    let b = f32s(&[3], &[-0.25, 1.0, f32::INFINITY]);
    let out = op_plain(TosaOp::Sub, &[a, b], (Fp32, &[3])).expect("sub");
    let v = f32_values(&out);
    assert_eq!(&v[..2], &[1.75, f32::INFINITY]);
    assert!(v[2].is_nan(), "inf - inf is NaN");
    let a = f32s(&[2], &[3.0, f32::INFINITY]);
    let b = f32s(&[2], &[-0.5, 0.0]);
    let out = op_n(TosaOp::Mul, &[a, b], (Fp32, &[2]), |g, x| vec![x[0], x[1], g.one(I8, 0)]).expect("mul");
    let v = f32_values(&out);
    assert_eq!(v[0], -1.5);
    assert!(v[1].is_nan(), "inf * 0 is NaN");
}

#[test]
fn mul_integer_rows_and_shift() {
    let a = ints(I8, &[3], &[-128, 127, -1]);
    let b = ints(I8, &[3], &[-128, 127, 5]);
    let out =
        op_n(TosaOp::Mul, &[a.clone(), b.clone()], (I32, &[3]), |g, x| vec![x[0], x[1], g.one(I8, 0)]).expect("mul");
    assert_eq!(int_values(&out), vec![16384, 16129, -5]);
    let (req, at) = unpredictable_at(op_n(TosaOp::Mul, &[a, b], (I32, &[3]), |g, x| vec![x[0], x[1], g.one(I8, 1)]));
    assert_eq!((req, at), (Require::MulShift, None), "a shift on i8 inputs is a REQUIRE");
    let a = ints(I32, &[4], &[3, -3, i64::from(i32::MAX), i64::from(i32::MIN)]);
    let b = ints(I32, &[4], &[1, 1, 2, i64::from(i32::MIN)]);
    let out = op_n(TosaOp::Mul, &[a.clone(), b.clone()], (I32, &[4]), |g, x| vec![x[0], x[1], g.one(I8, 0)])
        .expect("mul shift 0 wraps");
    assert_eq!(int_values(&out), vec![3, -3, -2, 0]);
    let out = op_n(TosaOp::Mul, &[a.clone(), b.clone()], (I32, &[4]), |g, x| vec![x[0], x[1], g.one(I8, 63)])
        .expect("mul shift 63");
    assert_eq!(int_values(&out), vec![0, 0, 0, 1]);
    let (req, at) = unpredictable_at(op_n(TosaOp::Mul, &[a, b], (I32, &[4]), |g, x| vec![x[0], x[1], g.one(I8, 1)]));
    assert_eq!((req, at), (Require::MulResultRange, Some(vec![3])));
}

#[test]
fn intdiv_by_zero_is_unpredictable_at_its_element() {
    let a = ints(I32, &[2, 2], &[7, -7, 1, 2]);
    let b = ints(I32, &[2, 2], &[2, 2, 1, 0]);
    let (req, at) = unpredictable_at(op_plain(TosaOp::Intdiv, &[a, b], (I32, &[2, 2])));
    assert_eq!((req, at), (Require::DivideByZero, Some(vec![1, 1])));
    let a = ints(I32, &[3], &[7, -7, i64::from(i32::MIN)]);
    let b = ints(I32, &[3], &[2, 2, 1]);
    let out = op_plain(TosaOp::Intdiv, &[a, b], (I32, &[3])).expect("intdiv");
    assert_eq!(int_values(&out), vec![3, -3, i64::from(i32::MIN)]);
}

#[test]
fn shifts_and_bitwise() {
    let a = ints(I8, &[4], &[5, -5, -128, 7]);
    let b = ints(I8, &[4], &[1, 1, 7, 0]);
    let out = op_n(TosaOp::ArithmeticRightShift, &[a.clone(), b.clone()], (I8, &[4]), |g, x| {
        vec![g.boolean(true), x[0], x[1]]
    })
    .expect("ars");
    assert_eq!(int_values(&out), vec![3, -2, -1, 7]);
    let out = op_plain(TosaOp::LogicalRightShift, &[a.clone(), b.clone()], (I8, &[4])).expect("lrs");
    assert_eq!(int_values(&out), vec![2, 125, 1, 7]);
    let out = op_plain(TosaOp::LogicalLeftShift, &[a.clone(), b.clone()], (I8, &[4])).expect("lls");
    assert_eq!(int_values(&out), vec![10, -10, 0, 7]);
    let (req, at) =
        unpredictable_at(op_plain(TosaOp::LogicalLeftShift, &[a, ints(I8, &[4], &[0, 0, 8, 0])], (I8, &[4])));
    assert_eq!((req, at), (Require::ShiftRange, Some(vec![2])));
    let a = ints(I16, &[3], &[0x0f0f, -1, 0]);
    let b = ints(I16, &[3], &[0x00ff, 0x1234, -1]);
    assert_eq!(
        int_values(&op_plain(TosaOp::BitwiseAnd, &[a.clone(), b.clone()], (I16, &[3])).expect("and")),
        vec![0x000f, 0x1234, 0]
    );
    assert_eq!(
        int_values(&op_plain(TosaOp::BitwiseOr, &[a.clone(), b.clone()], (I16, &[3])).expect("or")),
        vec![0x0fff, -1, -1]
    );
    assert_eq!(
        int_values(&op_plain(TosaOp::BitwiseXor, &[a.clone(), b], (I16, &[3])).expect("xor")),
        vec![0x0ff0, !0x1234, -1]
    );
    assert_eq!(int_values(&op_plain(TosaOp::BitwiseNot, &[a], (I16, &[3])).expect("not")), vec![!0x0f0f, 0, -1]);
}

#[test]
fn logical_operators() {
    let a = bools(&[4], &[false, false, true, true]);
    let b = bools(&[4], &[false, true, false, true]);
    let run2 = |op| op_plain(op, &[a.clone(), b.clone()], (Bool, &[4])).expect("logical").to_bits();
    assert_eq!(run2(TosaOp::LogicalAnd), vec![0, 0, 0, 1]);
    assert_eq!(run2(TosaOp::LogicalOr), vec![0, 1, 1, 1]);
    assert_eq!(run2(TosaOp::LogicalXor), vec![0, 1, 1, 0]);
    assert_eq!(op_plain(TosaOp::LogicalNot, &[a], (Bool, &[4])).expect("not").to_bits(), vec![1, 1, 0, 0]);
}

#[test]
fn maximum_minimum_nan_modes() {
    let a = f32s(&[4], &[1.0, f32::NAN, f32::NAN, -0.0]);
    let b = f32s(&[4], &[2.0, 3.0, f32::NAN, 0.0]);
    let with = |op, mode| {
        f32_values(&op_n(op, &[a.clone(), b.clone()], (Fp32, &[4]), |g, x| vec![g.u32(mode), x[0], x[1]]).expect("op"))
    };
    let p = with(TosaOp::Maximum, 1);
    assert_eq!(p[0], 2.0);
    assert!(p[1].is_nan() && p[2].is_nan());
    let i = with(TosaOp::Maximum, 2);
    assert_eq!(&i[..2], &[2.0, 3.0]);
    assert!(i[2].is_nan());
    let m = with(TosaOp::Minimum, 2);
    assert_eq!(&m[..2], &[1.0, 3.0]);
    let a = ints(I32, &[2], &[-5, 7]);
    let b = ints(I32, &[2], &[3, 6]);
    let out = op_n(TosaOp::Maximum, &[a, b], (I32, &[2]), |g, x| vec![g.u32(1), x[0], x[1]]).expect("max");
    assert_eq!(int_values(&out), vec![3, 7]);
}

#[test]
fn pow_and_its_domain() {
    let a = f32s(&[2], &[2.0, 9.0]);
    let b = f32s(&[2], &[10.0, 0.5]);
    assert_eq!(f32_values(&op_plain(TosaOp::Pow, &[a, b], (Fp32, &[2])).expect("pow")), vec![1024.0, 3.0]);
    let a = f32s(&[2], &[2.0, -1.0]);
    let b = f32s(&[2], &[1.0, 2.0]);
    let (req, at) = unpredictable_at(op_plain(TosaOp::Pow, &[a, b], (Fp32, &[2])));
    assert_eq!((req, at), (Require::PowDomain, Some(vec![1])));
}

#[test]
fn unary_float_functions() {
    let x = f32s(&[4], &[-1.5, -0.0, 0.5, 2.0]);
    let run1 = |op| f32_values(&op_plain(op, std::slice::from_ref(&x), (Fp32, &[4])).expect("unary"));
    assert_eq!(run1(TosaOp::Abs), vec![1.5, 0.0, 0.5, 2.0]);
    assert!(run1(TosaOp::Abs)[1].is_sign_positive());
    assert_eq!(run1(TosaOp::Ceil), vec![-1.0, -0.0, 1.0, 2.0]);
    assert_eq!(run1(TosaOp::Floor), vec![-2.0, -0.0, 0.0, 2.0]);
    assert_eq!(run1(TosaOp::Reciprocal), vec![-1.0 / 1.5, f32::NEG_INFINITY, 2.0, 0.5]);
    assert_eq!(run1(TosaOp::Exp), vec![(-1.5f64).exp() as f32, 1.0, 0.5f64.exp() as f32, 2f64.exp() as f32]);
    assert_eq!(run1(TosaOp::Sin)[3], 2f64.sin() as f32);
    assert_eq!(run1(TosaOp::Cos)[1], 1.0);
    let log = run1(TosaOp::Log);
    assert!(log[0].is_nan());
    assert_eq!(log[1], f32::NEG_INFINITY);
    assert_eq!(log[3], std::f64::consts::LN_2 as f32);
    let rsqrt = run1(TosaOp::Rsqrt);
    assert!(rsqrt[0].is_nan());
    assert_eq!(rsqrt[3], std::f64::consts::FRAC_1_SQRT_2 as f32);
}

#[test]
fn activations() {
    let x = f32s(&[5], &[f32::NEG_INFINITY, -1.0, 0.0, 0.5, 3.5]);
    let act = |op| f32_values(&op_plain(op, std::slice::from_ref(&x), (Fp32, &[5])).expect("activation"));
    let sig = act(TosaOp::Sigmoid);
    assert_eq!(sig[0], 0.0);
    assert_eq!(sig[2], 0.5);
    assert_eq!(sig[1], (1.0 / (1.0 + 1f64.exp())) as f32);
    let tanh = act(TosaOp::Tanh);
    assert_eq!(tanh[0], -1.0);
    assert_eq!(tanh[3], 0.5f64.tanh() as f32);
    // erf against reference values (Abramowitz & Stegun tables / high-precision evaluations).
    let erf = act(TosaOp::Erf);
    assert_eq!(erf[0], -1.0);
    assert_eq!(erf[1], -0.842_700_8);
    assert_eq!(erf[2], 0.0);
    assert_eq!(erf[3], 0.520_499_9);
    assert_eq!(erf[4], 0.999_999_256_901_627_7_f64 as f32);
    for (x, want) in [
        (1.0, 0.842_700_792_949_714_9),
        (2.0, 0.995_322_265_018_952_7),
        (3.0, 0.999_977_909_503_001_4),
        (0.1, 0.112_462_916_018_284_9),
    ] {
        let got = spvgraph_oracle::exec::erf(x);
        assert!((got - want).abs() < 1e-15, "erf({x}) = {got}, want {want}");
    }
}

#[test]
fn negate_and_clamp() {
    let x = ints(I8, &[4], &[-128, 127, 0, 10]);
    let out = op_n(TosaOp::Negate, std::slice::from_ref(&x), (I8, &[4]), |g, i| vec![i[0], g.one(I8, 0), g.one(I8, 0)])
        .expect("neg");
    assert_eq!(int_values(&out), vec![127, -127, 0, -10]);
    // With zero points: -(x - 10) + (-5), saturated.
    let out = op_n(TosaOp::Negate, std::slice::from_ref(&x), (I8, &[4]), |g, i| {
        vec![i[0], g.one(I8, 10), g.one(I8, (-5i64) as u64)]
    })
    .expect("neg zp");
    assert_eq!(int_values(&out), vec![127, -122, 5, -5]);
    let x32 = ints(I32, &[2], &[1, i64::from(i32::MIN)]);
    let (req, at) =
        unpredictable_at(op_n(TosaOp::Negate, &[x32], (I32, &[2]), |g, i| vec![i[0], g.one(I32, 0), g.one(I32, 0)]));
    assert_eq!((req, at), (Require::SubOverflow, Some(vec![1])));
    // A non-zero zero point on i16 is an ERROR_IF.
    let r =
        op_n(TosaOp::Negate, &[ints(I16, &[1], &[1])], (I16, &[1]), |g, i| vec![i[0], g.one(I16, 1), g.one(I16, 0)]);
    assert!(matches!(r, Err(spvgraph_oracle::exec::ExecError::Invalid { .. })), "{r:?}");
    let out = op_n(TosaOp::Clamp, &[x], (I8, &[4]), |g, i| {
        vec![g.scalar(I8, (-100i64) as u64), g.scalar(I8, 50), g.u32(1), i[0]]
    })
    .expect("clamp");
    assert_eq!(int_values(&out), vec![-100, 50, 0, 10]);
    let xf = f32s(&[3], &[f32::NAN, -7.0, 7.0]);
    let clampf = |mode| {
        f32_values(
            &op_n(TosaOp::Clamp, std::slice::from_ref(&xf), (Fp32, &[3]), |g, i| {
                vec![
                    g.scalar(Fp32, u64::from((-1.0f32).to_bits())),
                    g.scalar(Fp32, u64::from(1.0f32.to_bits())),
                    g.u32(mode),
                    i[0],
                ]
            })
            .expect("clamp"),
        )
    };
    let p = clampf(1);
    assert!(p[0].is_nan());
    assert_eq!(&p[1..], &[-1.0, 1.0]);
    assert_eq!(clampf(2), vec![-1.0, -1.0, 1.0], "IGNORE maps NaN to min_val");
}

#[test]
fn abs_clz_int() {
    let x = ints(I32, &[4], &[-7, 0, 1, i64::from(i32::MAX)]);
    assert_eq!(
        int_values(&op_plain(TosaOp::Abs, std::slice::from_ref(&x), (I32, &[4])).expect("abs")),
        vec![7, 0, 1, i64::from(i32::MAX)]
    );
    assert_eq!(int_values(&op_plain(TosaOp::Clz, &[x], (I32, &[4])).expect("clz")), vec![0, 32, 31, 1]);
    let (req, at) = unpredictable_at(op_plain(TosaOp::Abs, &[ints(I32, &[2], &[0, i64::from(i32::MIN)])], (I32, &[2])));
    assert_eq!((req, at), (Require::NegateOverflow, Some(vec![1])));
}

#[test]
fn select_and_comparisons() {
    let c = bools(&[2, 1], &[true, false]);
    let a = ints(I16, &[1, 3], &[1, 2, 3]);
    let b = ints(I16, &[2, 3], &[10, 20, 30, 40, 50, 60]);
    let out = op_plain(TosaOp::Select, &[c, a, b], (I16, &[2, 3])).expect("select");
    assert_eq!(int_values(&out), vec![1, 2, 3, 40, 50, 60]);
    let x = f32s(&[4], &[1.0, f32::NAN, -0.0, 2.0]);
    let y = f32s(&[4], &[1.0, f32::NAN, 0.0, 3.0]);
    let cmp = |op| op_plain(op, &[x.clone(), y.clone()], (Bool, &[4])).expect("cmp").to_bits();
    assert_eq!(cmp(TosaOp::Equal), vec![1, 0, 1, 0]);
    assert_eq!(cmp(TosaOp::Greater), vec![0, 0, 0, 0]);
    assert_eq!(cmp(TosaOp::GreaterEqual), vec![1, 0, 1, 0]);
    let out =
        op_plain(TosaOp::Greater, &[ints(I32, &[2], &[-1, 5]), ints(I32, &[2], &[-2, 5])], (Bool, &[2])).expect("gt");
    assert_eq!(out.to_bits(), vec![1, 0]);
}

#[test]
fn table_i8_and_i16() {
    let table: Vec<u64> = (0..256u64).map(|i| (i as i64 - 128).wrapping_mul(-1).clamp(-128, 127) as u64).collect();
    let x = ints(I8, &[3], &[-128, 0, 127]);
    let out = op_n(TosaOp::Table, &[x], (I8, &[3]), |g, i| vec![i[0], g.tensor(I8, &[256], &table)]).expect("table i8");
    assert_eq!(int_values(&out), vec![127, 0, -127]);
    let t16: Vec<u64> = (0..513u64).map(|i| (i as i64 * 2 - 512) as u64).collect();
    let x = ints(I16, &[4], &[-32768, -1, 0, 32767]);
    let out =
        op_n(TosaOp::Table, &[x], (I32, &[4]), |g, i| vec![i[0], g.tensor(I16, &[513], &t16)]).expect("table i16");
    // base*128 + slope*fraction with table[i] = 2i - 512.
    assert_eq!(int_values(&out), vec![-512 * 128, (510 - 512) * 128 + 2 * 127, 0, (1022 - 512) * 128 + 2 * 127]);
}

#[test]
fn fp16_unary_rounds_to_fp16() {
    let x = TensorData::from_bits(ElemType::Fp16, &[2], &[0x3c00, 0x4000]).expect("fp16");
    let out = op_plain(TosaOp::Exp, &[x], (Fp16, &[2])).expect("exp");
    let want: Vec<u64> =
        [1f64.exp(), 2f64.exp()].iter().map(|&v| spvgraph_oracle::exec::fp::FpFormat::FP16.encode(v)).collect();
    assert_eq!(out.to_bits(), want);
}
