//! Reduction operators (§4.7) and ARGMAX (§4.1).
//!
//! A tensor reduced along `axis` is viewed as `[outer, len, inner]`; each
//! output element folds `len` values in index order, which is the order the
//! pseudocode's REQUIREs are evaluated in.

use super::convert::{bools, flat, from_f64, from_i64, shaped, to_f32, to_f64, to_i64};
use super::ctx::Ctx;
use super::elementwise::{fmax, fmin, nan_mode};
use super::error::{unflatten, OpError};
use super::intmath::{self as im, Require};
use super::layout::axis;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::NanMode;

/// `[outer, len, inner]` of `shape` around `axis`.
fn split(shape: &[usize], axis: usize) -> Result<(usize, usize, usize), OpError> {
    if axis >= shape.len() {
        return Err(OpError::invalid(format!("axis {axis} out of range for rank {}", shape.len())));
    }
    Ok((shape[..axis].iter().product(), shape[axis], shape[axis + 1..].iter().product()))
}

/// Folds each lane of `data` (row-major, `shape`) along `axis` with `f`,
/// which also receives the output position for error reports.
fn fold<T: Copy, A>(
    data: &[T],
    shape: &[usize],
    axis: usize,
    mut f: impl FnMut(usize, &mut dyn Iterator<Item = T>) -> Result<A, OpError>,
) -> Result<Vec<A>, OpError> {
    let (outer, len, inner) = split(shape, axis)?;
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let mut lane = (0..len).map(|k| data[(o * len + k) * inner + i]);
            out.push(f(o * inner + i, &mut lane)?);
        }
    }
    Ok(out)
}

/// The operators of this group, each named by [`super::dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reduction {
    All,
    Any,
    Max,
    Min,
    Product,
    Sum,
}

/// Runs one REDUCE_* operator.
pub(crate) fn run(cx: &Ctx<'_>, op: Reduction) -> Result<TensorData, OpError> {
    let input = cx.tensor("input")?;
    let axis = axis(cx)?;
    let shape = input.shape().to_vec();
    let out_shape = cx.out_shape(0)?.to_vec();
    let elem = cx.out_elem()?;
    match op {
        Reduction::All | Reduction::Any => {
            let all = op == Reduction::All;
            let a = bools(input)?;
            let r = fold(&flat(a), &shape, axis, |_, mut lane| {
                Ok(if all { Iterator::all(&mut lane, |v| v) } else { Iterator::any(&mut lane, |v| v) })
            })?;
            Ok(TensorData::Bool(shaped(&out_shape, r)?))
        }
        Reduction::Max | Reduction::Min if elem.is_float() => {
            let is_max = op == Reduction::Max;
            let mode = nan_mode(cx)?;
            let init = match (mode, is_max) {
                (NanMode::Ignore, _) => f32::NAN,
                (NanMode::Propagate, true) => f32::NEG_INFINITY,
                (NanMode::Propagate, false) => f32::INFINITY,
            };
            let a = to_f32(input)?;
            let r = fold(&flat(&a), &shape, axis, |_, lane| {
                Ok(f64::from(lane.fold(init, |acc, v| if is_max { fmax(acc, v, mode) } else { fmin(acc, v, mode) })))
            })?;
            from_f64(elem, shaped(&out_shape, r)?)
        }
        Reduction::Max | Reduction::Min => {
            let is_max = op == Reduction::Max;
            let a = to_i64(input)?;
            let r = fold(&flat(&a), &shape, axis, |_, lane| {
                Ok(if is_max { lane.max().unwrap_or(i64::MIN) } else { lane.min().unwrap_or(i64::MAX) })
            })?;
            from_i64(elem, shaped(&out_shape, r)?)
        }
        Reduction::Product => {
            let a = to_f64(input)?;
            let r = fold(&flat(&a), &shape, axis, |_, lane| Ok(lane.product::<f64>()))?;
            from_f64(elem, shaped(&out_shape, r)?)
        }
        Reduction::Sum if elem.is_float() => {
            let a = to_f64(input)?;
            let r = fold(&flat(&a), &shape, axis, |_, lane| Ok(lane.sum::<f64>()))?;
            from_f64(elem, shaped(&out_shape, r)?)
        }
        Reduction::Sum => {
            let a = to_i64(input)?;
            let r = fold(&flat(&a), &shape, axis, |pos, mut lane| {
                Iterator::try_fold(&mut lane, 0i64, |acc, v| im::add_s(acc, v, 32))
                    .map_err(|e| OpError::require_at(e, unflatten(pos, &out_shape)))
            })?;
            from_i64(elem, shaped(&out_shape, r)?)
        }
    }
}

/// ARGMAX: index of the first maximum along `axis` (NaN rules by `nan_mode`).
pub(crate) fn argmax(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let input = cx.tensor("input")?;
    let axis = axis(cx)?;
    let shape = input.shape().to_vec();
    let out_shape = cx.out_shape(0)?.to_vec();
    let check = |i: usize| i64::try_from(i).ok().filter(|&i| i <= i64::from(i32::MAX));
    let r = if input.elem().is_float() {
        let mode = nan_mode(cx)?;
        let a = to_f32(input)?;
        fold(&flat(&a), &shape, axis, |pos, lane| {
            let mut best = (0usize, if mode == NanMode::Ignore { f32::NAN } else { f32::NEG_INFINITY });
            for (i, v) in lane.enumerate() {
                let replace = match mode {
                    // The first NaN wins and is never replaced.
                    NanMode::Propagate => !best.1.is_nan() && (v.is_nan() || v > best.1),
                    NanMode::Ignore => !v.is_nan() && (best.1.is_nan() || v > best.1),
                };
                if replace {
                    best = (i, v);
                }
            }
            check(best.0).ok_or_else(|| OpError::require_at(Require::ArgmaxIndex, unflatten(pos, &out_shape)))
        })?
    } else {
        let a = to_i64(input)?;
        fold(&flat(&a), &shape, axis, |pos, lane| {
            let mut best = (0usize, i64::MIN);
            for (i, v) in lane.enumerate() {
                if v > best.1 {
                    best = (i, v);
                }
            }
            check(best.0).ok_or_else(|| OpError::require_at(Require::ArgmaxIndex, unflatten(pos, &out_shape)))
        })?
    };
    Ok(TensorData::I32(shaped(&out_shape, r.into_iter().map(|v| v as i32).collect())?))
}
