//! Element-wise maps over broadcast operands, in parallel for large tensors,
//! and the conversion of per-element REQUIRE failures into an error that
//! names the first failing element (row-major order).

use super::convert::{broadcast, shaped};
use super::error::{unflatten, OpError};
use super::intmath::Checked;
use ndarray::{ArrayD, Zip};

/// Below this many elements the rayon split costs more than it saves.
const PARALLEL_MIN: usize = 1 << 15;

/// `f(a, b)` for every element of `shape`, with `a` and `b` broadcast to it.
pub(crate) fn map2<A, B, O, F>(a: &ArrayD<A>, b: &ArrayD<B>, shape: &[usize], f: F) -> Result<ArrayD<O>, OpError>
where
    A: Copy + Sync,
    B: Copy + Sync,
    O: Send,
    F: Fn(A, B) -> O + Sync + Send,
{
    let av = broadcast(a, shape)?;
    let bv = broadcast(b, shape)?;
    let z = Zip::from(&av).and(&bv);
    Ok(if av.len() >= PARALLEL_MIN { z.par_map_collect(|&x, &y| f(x, y)) } else { z.map_collect(|&x, &y| f(x, y)) })
}

/// `f(a)` for every element.
pub(crate) fn map1<A, O, F>(a: &ArrayD<A>, f: F) -> ArrayD<O>
where
    A: Copy + Sync,
    O: Send,
    F: Fn(A) -> O + Sync + Send,
{
    let z = Zip::from(a);
    if a.len() >= PARALLEL_MIN {
        z.par_map_collect(|&x| f(x))
    } else {
        z.map_collect(|&x| f(x))
    }
}

/// The values, or the first REQUIRE failure with its element index.
pub(crate) fn checked<T: Copy>(r: ArrayD<Checked<T>>) -> Result<ArrayD<T>, OpError> {
    let mut out = Vec::with_capacity(r.len());
    for (flat, v) in r.iter().enumerate() {
        match v {
            Ok(x) => out.push(*x),
            Err(e) => return Err(OpError::require_at(*e, unflatten(flat, r.shape()))),
        }
    }
    shaped(r.shape(), out)
}
