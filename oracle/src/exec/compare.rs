//! Comparison operators (§4.6) and SELECT (§4.5).

use super::convert::{bools, broadcast, to_f32, to_i64};
use super::ctx::Ctx;
use super::error::OpError;
use super::generic::map_tensor_pair;
use super::zipmap::map2;
use ndarray::{ArrayD, Zip};
use spvgraph_ir::tensor::TensorData;

/// The operators of this group, each named by [`super::dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comparison {
    Equal,
    Greater,
    GreaterEqual,
}

/// EQUAL, GREATER, GREATER_EQUAL: signed integers, or IEEE comparisons (any
/// NaN compares false, −0 equals +0).
pub(crate) fn compare(cx: &Ctx<'_>, op: Comparison) -> Result<TensorData, OpError> {
    let a = cx.tensor("input1")?;
    let b = cx.tensor("input2")?;
    let shape = cx.out_shape(0)?;
    let out = if a.elem().is_float() {
        let (x, y) = (to_f32(a)?, to_f32(b)?);
        map2(&x, &y, shape, move |p: f32, q: f32| match op {
            Comparison::Equal => p == q,
            Comparison::Greater => p > q,
            Comparison::GreaterEqual => p >= q,
        })?
    } else {
        let (x, y) = (to_i64(a)?, to_i64(b)?);
        map2(&x, &y, shape, move |p: i64, q: i64| match op {
            Comparison::Equal => p == q,
            Comparison::Greater => p > q,
            Comparison::GreaterEqual => p >= q,
        })?
    };
    Ok(TensorData::Bool(out))
}

/// SELECT: `cond ? input2 : input3`, all three broadcast to the output shape.
pub(crate) fn select(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let cond = bools(cx.tensor("input1")?)?;
    let shape = cx.out_shape(0)?.to_vec();
    map_tensor_pair!(cx.tensor("input2")?, cx.tensor("input3")?, (a, b) => pick(cond, a, b, &shape))
}

fn pick<T: Clone>(cond: &ArrayD<bool>, a: &ArrayD<T>, b: &ArrayD<T>, shape: &[usize]) -> Result<ArrayD<T>, OpError> {
    let (c, x, y) = (broadcast(cond, shape)?, broadcast(a, shape)?, broadcast(b, shape)?);
    Ok(Zip::from(&c).and(&x).and(&y).map_collect(|&c, x, y| if c { x.clone() } else { y.clone() }))
}
