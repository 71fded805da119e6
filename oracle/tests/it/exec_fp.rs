//! Rounding to fp16, bf16 and the fp8 formats: ties to even, overflow,
//! subnormals, checked by hand and against `half`'s independent `f32`
//! conversions; then the same through CAST graphs.

use crate::exec_common as common;

use common::*;
use half::{bf16, f16};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::exec::fp::FpFormat;
use spvgraph_oracle::exec::{ExecError, Require};

fn p2(e: i32) -> f64 {
    2f64.powi(e)
}

#[test]
fn fp16_ties_overflow_subnormals() {
    let f = FpFormat::FP16;
    assert_eq!(f.encode(1.0 + p2(-11)), 0x3c00, "tie to even (down)");
    assert_eq!(f.encode(1.0 + 3.0 * p2(-11)), 0x3c02, "tie to even (up)");
    assert_eq!(f.encode(1.0 + p2(-11) + p2(-40)), 0x3c01, "just above a tie rounds up");
    assert_eq!(f.encode(65504.0), 0x7bff);
    assert_eq!(f.encode(65519.0), 0x7bff);
    assert_eq!(f.encode(65520.0), 0x7c00, "the tie above the maximum overflows");
    assert_eq!(f.encode(-1e6), 0xfc00);
    assert_eq!(f.encode(p2(-24)), 0x0001, "smallest subnormal");
    assert_eq!(f.encode(p2(-25)), 0x0000, "half of it ties to zero");
    assert_eq!(f.encode(3.0 * p2(-25)), 0x0002, "1.5 subnormal units tie to 2");
    assert_eq!(f.encode(p2(-14) - p2(-25)), 0x0400, "rounds up into the normal range");
    assert_eq!(f.encode(-0.0), 0x8000);
    assert!(f.decode(f.encode(f64::NAN)).is_nan());
}

#[test]
fn bf16_ties_and_overflow() {
    let f = FpFormat::BF16;
    assert_eq!(f.encode(1.0 + p2(-8)), 0x3f80);
    assert_eq!(f.encode(1.0 + 3.0 * p2(-8)), 0x3f82);
    assert_eq!(f.encode(f64::from(f32::MAX)), 0x7f80, "fp32 max rounds up to inf in bf16");
    assert_eq!(f.encode(p2(-133)), 0x0001, "smallest bf16 subnormal");
    assert_eq!(f.max_finite(), p2(128) - p2(120));
}

#[test]
fn fp8e4m3_ties_overflow_subnormals() {
    let f = FpFormat::FP8E4M3;
    assert_eq!(f.encode(1.0 + p2(-4)), 0x38);
    assert_eq!(f.encode(1.0 + 3.0 * p2(-4)), 0x3a);
    assert_eq!(f.encode(448.0), 0x7e);
    assert_eq!(f.encode(464.0), 0x7e, "the tie between 448 and 480 goes to even 448");
    assert_eq!(f.encode(464.001), 0x7f, "beyond it: NaN (no infinity, non-saturating)");
    assert_eq!(f.encode(-500.0), 0xff);
    assert_eq!(f.encode(f64::INFINITY), 0x7f);
    assert_eq!(f.encode(p2(-9)), 0x01);
    assert_eq!(f.encode(p2(-10)), 0x00);
    assert_eq!(f.encode(3.0 * p2(-10)), 0x02);
    assert_eq!(f.encode(p2(-6)), 0x08, "smallest normal");
    assert_eq!(f.decode(0x7e), 448.0);
    assert!(f.decode(0x7f).is_nan());
    assert_eq!(f.decode(0x78), 256.0, "exponent 1111 is still finite");
}

#[test]
fn fp8e5m2_ties_overflow_subnormals() {
    let f = FpFormat::FP8E5M2;
    assert_eq!(f.encode(57344.0), 0x7b);
    assert_eq!(f.encode(61439.0), 0x7b);
    assert_eq!(f.encode(61440.0), 0x7c, "tie above the maximum overflows to inf");
    assert_eq!(f.encode(-70000.0), 0xfc);
    assert_eq!(f.encode(p2(-16)), 0x01);
    assert_eq!(f.encode(p2(-17)), 0x00);
    assert_eq!(f.encode(1.0 + p2(-3)), 0x3c);
    assert_eq!(f.encode(1.0 + 3.0 * p2(-3)), 0x3e);
}

#[test]
fn every_code_round_trips() {
    for (f, n) in
        [(FpFormat::FP8E4M3, 256u64), (FpFormat::FP8E5M2, 256), (FpFormat::FP16, 65536), (FpFormat::BF16, 65536)]
    {
        for bits in 0..n {
            let v = f.decode(bits);
            if v.is_nan() {
                assert!(f.decode(f.encode(v)).is_nan());
            } else {
                assert_eq!(f.encode(v), bits, "{f:?} {bits:#x} = {v}");
            }
        }
    }
}

#[test]
fn agrees_with_half_on_f32_inputs() {
    // half's f32 -> f16/bf16 conversions round to nearest-even (hardware F16C
    // or its own fallback), an independent implementation to compare with.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..400_000u32 {
        let bits = match i % 4 {
            0 => rng.bits() as u32,
            // Around fp16's range and its subnormals.
            1 => (rng.bits() as u32 & 0x807f_ffff) | (((rng.bits() % 40) as u32 + 100) << 23),
            // Values just around ties of fp16: low mantissa bits near 0x1000.
            2 => (0x3f80_0000 | (rng.bits() as u32 & 0x7f_e000)) ^ (rng.bits() as u32 & 0x1fff),
            _ => (rng.bits() as u32 & 0x8000_0000) | (0x3f80_0000 + (rng.bits() as u32 % 0x0100_0000)),
        };
        let x = f32::from_bits(bits);
        if x.is_nan() {
            continue;
        }
        assert_eq!(
            FpFormat::FP16.encode(f64::from(x)),
            u64::from(f16::from_f32(x).to_bits()),
            "fp16 of {x:e} ({bits:#x})"
        );
        assert_eq!(
            FpFormat::BF16.encode(f64::from(x)),
            u64::from(bf16::from_f32(x).to_bits()),
            "bf16 of {x:e} ({bits:#x})"
        );
        assert_eq!(FpFormat::FP32.encode(f64::from(x)), u64::from(bits), "fp32 of {x:e}");
    }
}

#[test]
fn encoding_from_f64_is_single_rounding() {
    // f64 -> f32 by the encoder equals Rust's `as f32` (round to nearest even).
    let mut rng = Rng(12345);
    for _ in 0..200_000 {
        let x = f64::from_bits(rng.bits());
        if x.is_nan() {
            continue;
        }
        assert_eq!(FpFormat::FP32.encode(x), u64::from((x as f32).to_bits()), "{x:e}");
    }
}

fn cast(from: ElemType, to: ElemType, input: TensorData) -> Result<TensorData, ExecError> {
    let shape: Vec<u32> = input.shape().iter().map(|&d| d as u32).collect();
    let mut g = Graph::new(&[(from, &shape)], &[(to, &shape)]);
    let x = g.inputs[0];
    let y = g.op(TosaOp::Cast, (to, &shape), vec![x]);
    g.output(y);
    let m = g.finish();
    run(&m, &[input]).map(|mut v| v.remove(0))
}

#[test]
fn cast_float_to_float_rounds_to_nearest_even() {
    let x = f32s(&[6], &[65520.0, 65519.0, 1.000_488_3, 1e-8, -3.0e38, f32::NAN]);
    let out = cast(ElemType::Fp32, ElemType::Fp16, x).expect("cast");
    let bits = out.to_bits();
    assert_eq!(&bits[..5], &[0x7c00, 0x7bff, 0x3c00, 0x0000, 0xfc00]);
    assert!(FpFormat::FP16.decode(bits[5]).is_nan());
    let x = f32s(&[5], &[464.0, 465.0, -0.001_953_125, 3.0 * 2f32.powi(-10), 240.0]);
    let out = cast(ElemType::Fp32, ElemType::Fp8E4M3, x).expect("cast");
    assert_eq!(out.to_bits(), vec![0x7e, 0x7f, 0x81, 0x02, 0x77]);
    let x = TensorData::Fp16(
        ndarray::ArrayD::from_shape_vec(vec![3], vec![f16::from_f32(61440.0), f16::MAX, f16::from_f32(1.125)])
            .expect("shape"),
    );
    let out = cast(ElemType::Fp16, ElemType::Fp8E5M2, x).expect("cast");
    assert_eq!(out.to_bits(), vec![0x7c, 0x7c, 0x3c]);
    let x = f32s(&[2], &[1.0 + 2f32.powi(-8), 1.0 + 3.0 * 2f32.powi(-8)]);
    let out = cast(ElemType::Fp32, ElemType::Bf16, x).expect("cast");
    assert_eq!(out.to_bits(), vec![0x3f80, 0x3f82]);
}

#[test]
fn cast_float_to_int_saturates_and_nan_is_unpredictable() {
    let x = f32s(&[7], &[2.5, 3.5, -2.5, 127.5, -200.0, f32::INFINITY, f32::NEG_INFINITY]);
    let out = cast(ElemType::Fp32, ElemType::I8, x).expect("cast");
    assert_eq!(int_values(&out), vec![2, 4, -2, 127, -128, 127, -128]);
    let x = f32s(&[3], &[1.0, f32::NAN, 2.0]);
    match cast(ElemType::Fp32, ElemType::I32, x) {
        Err(ExecError::Unpredictable { op: TosaOp::Cast, require: Require::CastNan, element, .. }) => {
            assert_eq!(element, Some(vec![1]));
        }
        other => panic!("expected unpredictable, got {other:?}"),
    }
}

#[test]
fn cast_int_to_float_and_int_to_int() {
    let out = cast(ElemType::I32, ElemType::Fp16, ints(ElemType::I32, &[3], &[65520, 2049, -70000])).expect("cast");
    assert_eq!(out.to_bits(), vec![0x7c00, 0x6800, 0xfc00]);
    let out = cast(ElemType::I32, ElemType::Bf16, ints(ElemType::I32, &[2], &[16_777_217, 257])).expect("cast");
    assert_eq!(out.to_f64(), vec![16_777_216.0, 256.0]);
    let out = cast(ElemType::I32, ElemType::I8, ints(ElemType::I32, &[3], &[300, -129, 127])).expect("cast");
    assert_eq!(int_values(&out), vec![44, 127, 127]);
    let out = cast(ElemType::I8, ElemType::I32, ints(ElemType::I8, &[2], &[-128, 5])).expect("cast");
    assert_eq!(int_values(&out), vec![-128, 5]);
    let out = cast(ElemType::I16, ElemType::Bool, ints(ElemType::I16, &[3], &[0, -1, 256])).expect("cast");
    assert_eq!(out.to_bits(), vec![0, 1, 1]);
    let out = cast(ElemType::Bool, ElemType::I32, bools(&[2], &[true, false])).expect("cast");
    assert_eq!(int_values(&out), vec![1, 0]);
}

#[test]
fn cast_type_pairs_outside_the_table_are_invalid() {
    let r = cast(ElemType::Fp16, ElemType::Bf16, TensorData::zeros(ElemType::Fp16, &[2]));
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "{r:?}");
    let r = cast(ElemType::Fp32, ElemType::Fp32, TensorData::zeros(ElemType::Fp32, &[2]));
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "{r:?}");
}
