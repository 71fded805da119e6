//! Moving tensor data between its storage form ([`TensorData`]) and the
//! compute forms the operators use: `i64` for integers (sign-extended),
//! `f32`/`f64` for floats (decoded exactly), `bool`.

use super::error::OpError;
use super::fp::FpFormat;
use half::{bf16, f16};
use ndarray::{ArrayD, ArrayViewD, IxDyn};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use std::borrow::Cow;

/// Bit width of an integer element type (i48 counts as 48).
pub(crate) fn int_bits(elem: ElemType) -> u32 {
    match elem {
        ElemType::I8 => 8,
        ElemType::I16 => 16,
        ElemType::I32 => 32,
        ElemType::I48 => 48,
        _ => 64,
    }
}

/// Integer elements, sign-extended to `i64` (i48 from its low 48 bits).
pub(crate) fn to_i64(t: &TensorData) -> Result<ArrayD<i64>, OpError> {
    Ok(match t {
        TensorData::I8(a) => a.mapv(i64::from),
        TensorData::I16(a) => a.mapv(i64::from),
        TensorData::I32(a) => a.mapv(i64::from),
        TensorData::I48(a) => a.mapv(|v| super::intmath::sext(v, 48)),
        other => return Err(OpError::invalid(format!("expected an integer tensor, found {}", other.elem()))),
    })
}

/// Integer tensor of `elem` from `i64` values, keeping the low bits of each
/// (callers have already saturated or checked where the operator needs it).
pub(crate) fn from_i64(elem: ElemType, a: ArrayD<i64>) -> Result<TensorData, OpError> {
    Ok(match elem {
        ElemType::I8 => TensorData::I8(a.mapv(|v| v as i8)),
        ElemType::I16 => TensorData::I16(a.mapv(|v| v as i16)),
        ElemType::I32 => TensorData::I32(a.mapv(|v| v as i32)),
        ElemType::I48 => TensorData::I48(a.mapv(|v| super::intmath::sext(v, 48))),
        ElemType::Bool => TensorData::Bool(a.mapv(|v| v != 0)),
        other => return Err(OpError::invalid(format!("expected an integer result type, found {other}"))),
    })
}

/// Boolean elements.
pub(crate) fn bools(t: &TensorData) -> Result<&ArrayD<bool>, OpError> {
    match t {
        TensorData::Bool(a) => Ok(a),
        other => Err(OpError::invalid(format!("expected a bool tensor, found {}", other.elem()))),
    }
}

/// Float elements as `f32` (exact for every float type); fp32 data is borrowed.
pub(crate) fn to_f32(t: &TensorData) -> Result<Cow<'_, ArrayD<f32>>, OpError> {
    Ok(match t {
        TensorData::Fp32(a) => Cow::Borrowed(a),
        TensorData::Fp16(a) => Cow::Owned(a.mapv(f32::from)),
        TensorData::Bf16(a) => Cow::Owned(a.mapv(f32::from)),
        TensorData::Fp8E4M3(a) => Cow::Owned(a.mapv(|b| FpFormat::FP8E4M3.decode(u64::from(b)) as f32)),
        TensorData::Fp8E5M2(a) => Cow::Owned(a.mapv(|b| FpFormat::FP8E5M2.decode(u64::from(b)) as f32)),
        other => return Err(OpError::invalid(format!("expected a floating-point tensor, found {}", other.elem()))),
    })
}

/// Float elements as `f64` (exact).
pub(crate) fn to_f64(t: &TensorData) -> Result<ArrayD<f64>, OpError> {
    Ok(to_f32(t)?.mapv(f64::from))
}

/// One `f32` value rounded to `elem` (nearest, ties to even), as bits-carrying data.
fn f32_to_fp8(fmt: FpFormat, v: f32) -> u8 {
    fmt.encode(f64::from(v)) as u8
}

/// A float tensor of `elem` from `f32` values, each rounded to nearest-even.
pub(crate) fn from_f32(elem: ElemType, a: ArrayD<f32>) -> Result<TensorData, OpError> {
    Ok(match elem {
        ElemType::Fp32 => TensorData::Fp32(a),
        // half's from_f32 rounds to nearest-even (checked against FpFormat in the tests).
        ElemType::Fp16 => TensorData::Fp16(a.mapv(f16::from_f32)),
        ElemType::Bf16 => TensorData::Bf16(a.mapv(bf16::from_f32)),
        ElemType::Fp8E4M3 => TensorData::Fp8E4M3(a.mapv(|v| f32_to_fp8(FpFormat::FP8E4M3, v))),
        ElemType::Fp8E5M2 => TensorData::Fp8E5M2(a.mapv(|v| f32_to_fp8(FpFormat::FP8E5M2, v))),
        other => return Err(OpError::invalid(format!("expected a floating-point result type, found {other}"))),
    })
}

/// A float tensor of `elem` from `f64` values, each rounded once to nearest-even.
pub(crate) fn from_f64(elem: ElemType, a: ArrayD<f64>) -> Result<TensorData, OpError> {
    Ok(match elem {
        // `as f32` rounds to nearest-even.
        ElemType::Fp32 => TensorData::Fp32(a.mapv(|v| v as f32)),
        ElemType::Fp16 => TensorData::Fp16(a.mapv(|v| f16::from_bits(FpFormat::FP16.encode(v) as u16))),
        ElemType::Bf16 => TensorData::Bf16(a.mapv(|v| bf16::from_bits(FpFormat::BF16.encode(v) as u16))),
        ElemType::Fp8E4M3 => TensorData::Fp8E4M3(a.mapv(|v| FpFormat::FP8E4M3.encode(v) as u8)),
        ElemType::Fp8E5M2 => TensorData::Fp8E5M2(a.mapv(|v| FpFormat::FP8E5M2.encode(v) as u8)),
        other => return Err(OpError::invalid(format!("expected a floating-point result type, found {other}"))),
    })
}

/// Rounds one `f32` to the precision of `elem` and back (identity for fp32).
pub(crate) fn round_f32(elem: ElemType, v: f32) -> f32 {
    match elem {
        ElemType::Fp32 => v,
        ElemType::Fp16 => f32::from(f16::from_f32(v)),
        ElemType::Bf16 => f32::from(bf16::from_f32(v)),
        other => FpFormat::of(other).map_or(v, |f| f.round(f64::from(v)) as f32),
    }
}

/// A row-major array of `shape` from a flat vector.
pub(crate) fn shaped<T>(shape: &[usize], data: Vec<T>) -> Result<ArrayD<T>, OpError> {
    ArrayD::from_shape_vec(IxDyn(shape), data).map_err(|e| OpError::invalid(format!("internal shape error: {e}")))
}

/// A view of `a` broadcast to `shape` (TOSA rule: equal ranks, 1s stretch).
pub(crate) fn broadcast<'a, T>(a: &'a ArrayD<T>, shape: &[usize]) -> Result<ArrayViewD<'a, T>, OpError> {
    a.broadcast(IxDyn(shape))
        .ok_or_else(|| OpError::invalid(format!("shape {:?} does not broadcast to {:?}", a.shape(), shape)))
}

/// The flat data of a tensor in row-major order (copied only if it is not
/// already contiguous).
pub(crate) fn flat<T: Clone>(a: &ArrayD<T>) -> Cow<'_, [T]> {
    match a.as_slice() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(a.iter().cloned().collect()),
    }
}
