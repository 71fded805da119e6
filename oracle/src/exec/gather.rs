//! GATHER and SCATTER (§4.9), generic over the element type. An index
//! outside `[0, K)` and a SCATTER position written twice are REQUIRE failures,
//! reported at the `[n, w]` position of `indices`.

use super::convert::{flat, shaped};
use super::ctx::Ctx;
use super::error::OpError;
use super::generic::{map_tensor, map_tensor_pair};
use super::intmath::Require;
use ndarray::ArrayD;
use spvgraph_ir::tensor::TensorData;

/// The operators of this group, each named by [`super::dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Indexed {
    Gather,
    Scatter,
}

/// Runs GATHER or SCATTER.
pub(crate) fn run(cx: &Ctx<'_>, op: Indexed) -> Result<TensorData, OpError> {
    let indices = match cx.tensor("indices")? {
        TensorData::I32(a) => a,
        other => return Err(OpError::invalid(format!("{}: indices must be i32, found {}", cx.op, other.elem()))),
    };
    match op {
        Indexed::Gather => map_tensor!(cx.tensor("values")?, v => gather(v, indices)),
        Indexed::Scatter => {
            map_tensor_pair!(cx.tensor("values_in")?, cx.tensor("input")?, (v, x) => scatter(v, indices, x))
        }
    }
}

fn dims3(a: &[usize], what: &str) -> Result<(usize, usize, usize), OpError> {
    match a {
        [n, k, c] => Ok((*n, *k, *c)),
        _ => Err(OpError::invalid(format!("{what} must have rank 3, found {a:?}"))),
    }
}

fn index_dims(indices: &ArrayD<i32>, n: usize) -> Result<usize, OpError> {
    match indices.shape() {
        [m, w] if *m == n => Ok(*w),
        s => Err(OpError::invalid(format!("indices has shape {s:?}, expected [{n}, W]"))),
    }
}

fn gather<T: Clone>(values: &ArrayD<T>, indices: &ArrayD<i32>) -> Result<ArrayD<T>, OpError> {
    let (n, k, c) = dims3(values.shape(), "values")?;
    let w = index_dims(indices, n)?;
    let vals = flat(values);
    let idx = flat(indices);
    let mut out = Vec::with_capacity(n * w * c);
    for b in 0..n {
        for j in 0..w {
            let i = idx[b * w + j];
            let Some(row) = usize::try_from(i).ok().filter(|&i| i < k) else {
                return Err(OpError::require_at(Require::IndexRange, vec![b, j]));
            };
            let at = (b * k + row) * c;
            out.extend_from_slice(&vals[at..at + c]);
        }
    }
    shaped(&[n, w, c], out)
}

fn scatter<T: Clone>(values_in: &ArrayD<T>, indices: &ArrayD<i32>, input: &ArrayD<T>) -> Result<ArrayD<T>, OpError> {
    let (n, k, c) = dims3(values_in.shape(), "values_in")?;
    let w = index_dims(indices, n)?;
    if input.shape() != [n, w, c] {
        return Err(OpError::invalid(format!("input has shape {:?}, expected [{n}, {w}, {c}]", input.shape())));
    }
    let mut out: Vec<T> = flat(values_in).into_owned();
    let idx = flat(indices);
    let src = flat(input);
    let mut written = vec![false; n * k];
    for b in 0..n {
        for j in 0..w {
            let i = idx[b * w + j];
            let Some(row) = usize::try_from(i).ok().filter(|&i| i < k) else {
                return Err(OpError::require_at(Require::IndexRange, vec![b, j]));
            };
            if std::mem::replace(&mut written[b * k + row], true) {
                return Err(OpError::require_at(Require::DuplicateIndex, vec![b, j]));
            }
            let (to, from) = ((b * k + row) * c, (b * w + j) * c);
            out[to..to + c].clone_from_slice(&src[from..from + c]);
        }
    }
    shaped(&[n, k, c], out)
}
