//! TOSA level limits (§2.2). A level check is a REQUIRE: a graph beyond the
//! limits is valid, but its execution is unpredictable, so the executor
//! refuses it as [`Require::Level`] before running the operator.

use super::ctx::{Ctx, Operand};
use super::error::OpError;
use super::intmath::{LevelLimit, Require};
use crate::oracle::Level;
use spvgraph_ir::tosa::TosaOp;

/// The limits of a level (`None`: no limits are checked).
#[derive(Clone, Copy, Debug)]
struct Limits {
    max_rank: usize,
    max_kernel: i64,
    max_stride: i64,
    max_scale: i64,
    max_log2_size: u32,
    max_tensor_list_size: usize,
}

fn limits(level: Level) -> Option<Limits> {
    match level {
        Level::EightK => Some(Limits {
            max_rank: 6,
            max_kernel: 8192,
            max_stride: 8192,
            max_scale: 256,
            max_log2_size: 31,
            max_tensor_list_size: 64,
        }),
        Level::None => None,
    }
}

fn require(ok: bool, limit: LevelLimit) -> Result<(), OpError> {
    if ok {
        Ok(())
    } else {
        Err(OpError::require(Require::Level(limit)))
    }
}

/// Checks the level limits that apply to the operator of `cx`.
pub(crate) fn check(cx: &Ctx<'_>, level: Level) -> Result<(), OpError> {
    let Some(l) = limits(level) else { return Ok(()) };
    // Every tensor: rank and byte size (at least one byte per element).
    let tensors = cx.operands.iter().filter_map(|o| match o {
        Operand::Tensor(t) => Some((t.shape().to_vec(), t.elem().storage_bits().div_ceil(8))),
        _ => None,
    });
    let results = cx.out_shapes.iter().map(|s| (s.clone(), cx.out_elem().map_or(8, |e| e.storage_bits().div_ceil(8))));
    for (shape, bytes) in tensors.chain(results) {
        require(shape.len() <= l.max_rank, LevelLimit::MaxRank)?;
        let size = shape.iter().try_fold(u128::from(bytes), |acc, &d| acc.checked_mul(d as u128));
        require(size.is_some_and(|s| s < 1u128 << l.max_log2_size), LevelLimit::MaxLog2Size)?;
    }
    let le = |v: i64, max: i64| v <= max;
    match cx.op {
        TosaOp::AvgPool2d | TosaOp::MaxPool2d => {
            require(cx.ints("kernel")?.iter().all(|&k| le(k, l.max_kernel)), LevelLimit::MaxKernel)?;
            require(cx.ints("stride")?.iter().all(|&s| le(s, l.max_stride)), LevelLimit::MaxStride)?;
            require(cx.ints("pad")?.iter().all(|&p| le(p, l.max_kernel)), LevelLimit::MaxKernel)?;
        }
        TosaOp::Conv2d | TosaOp::Conv3d | TosaOp::DepthwiseConv2d => {
            let w = cx.tensor("weight")?.shape().to_vec();
            // Spatial kernel sizes: [OC,KH,KW,IC], [OC,KD,KH,KW,IC] or [KH,KW,C,M].
            let kernel: Vec<usize> = match cx.op {
                TosaOp::DepthwiseConv2d => w.iter().take(2).copied().collect(),
                _ => w.iter().skip(1).take(w.len().saturating_sub(2)).copied().collect(),
            };
            let dilation = cx.ints("dilation")?;
            let fits =
                kernel.iter().zip(dilation).all(|(&k, &d)| (k as i128) * i128::from(d) <= i128::from(l.max_kernel));
            require(fits, LevelLimit::MaxKernel)?;
            require(cx.ints("pad")?.iter().all(|&p| le(p, l.max_kernel)), LevelLimit::MaxKernel)?;
            require(cx.ints("stride")?.iter().all(|&s| le(s, l.max_stride)), LevelLimit::MaxStride)?;
        }
        TosaOp::TransposeConv2d => {
            let w = cx.tensor("weight")?.shape().to_vec();
            require(w.iter().skip(1).take(2).all(|&k| k as i64 <= l.max_kernel), LevelLimit::MaxKernel)?;
            require(cx.ints("out_pad")?.iter().all(|&p| le(p, l.max_kernel)), LevelLimit::MaxKernel)?;
            require(cx.ints("stride")?.iter().all(|&s| le(s, l.max_stride)), LevelLimit::MaxStride)?;
        }
        TosaOp::Fft2d | TosaOp::Rfft2d => {
            let s = cx.tensor("input_real")?.shape().to_vec();
            require(s.iter().skip(1).all(|&d| d as i64 <= l.max_kernel), LevelLimit::MaxKernel)?;
        }
        TosaOp::Resize => {
            let [syn, syd, sxn, sxd] = cx.ints_n::<4>("scale")?;
            let ratio = |n: i64, d: i64| if d > 0 { n / d } else { i64::MAX };
            require(ratio(syn, syd) <= l.max_scale && ratio(sxn, sxd) <= l.max_scale, LevelLimit::MaxScale)?;
        }
        TosaOp::Concat => {
            require(cx.operands.len().saturating_sub(1) <= l.max_tensor_list_size, LevelLimit::MaxTensorListSize)?
        }
        _ => {}
    }
    Ok(())
}
