//! Convolution as matrix multiplication: rows of an im2col matrix (one per
//! output position, filled on the fly in blocks) times a weight matrix per
//! group, with `matrixmultiply`'s SIMD GEMM (through ndarray) and rayon over
//! row blocks.
//!
//! Integer convolutions use the same engine in `f32`/`f64` when the
//! magnitude bound `K·max|a|·max|b|` keeps every partial sum an exactly
//! representable integer, whatever order the GEMM adds in; otherwise
//! [`exact`] evaluates the dot products in the pseudocode's order with `i64`
//! arithmetic and checks every accumulator REQUIRE.

use super::error::OpError;
use super::intmath::{self as im, Require};
use ndarray::linalg::general_mat_mul;
use ndarray::LinalgScalar;
use ndarray::{Array2, ArrayView2, ShapeBuilder};
use rayon::prelude::*;

/// Largest im2col block (bytes) one worker fills before multiplying.
const BLOCK_BYTES: usize = 4 << 20;

/// Scratch bytes the engine may allocate at once, for the memory estimate:
/// one block and its product per worker.
pub(crate) fn scratch_bytes(k: usize, oc: usize) -> u64 {
    let workers = rayon::current_num_threads().max(1) as u64;
    workers * (BLOCK_BYTES as u64 + 8 * k as u64 + 8 * (oc as u64) * block_rows(k, 8) as u64)
}

fn block_rows(k: usize, elem_bytes: usize) -> usize {
    (BLOCK_BYTES / (k.max(1) * elem_bytes)).clamp(1, 4096)
}

/// Rows per block: bounded by the block size, and small enough that every
/// worker gets a block.
fn rows_per_block(rows: usize, k: usize, elem_bytes: usize) -> usize {
    let workers = rayon::current_num_threads().max(1);
    block_rows(k, elem_bytes).min(rows.div_ceil(workers)).max(1)
}

/// The shape of a grouped convolution-as-GEMM: `rows` output positions,
/// `groups` groups of `ocg` output channels, each a dot product of length `k`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dims {
    pub(crate) rows: usize,
    pub(crate) k: usize,
    pub(crate) groups: usize,
    pub(crate) ocg: usize,
}

impl Dims {
    fn oc(&self) -> usize {
        self.groups * self.ocg
    }
}

/// Fills the `k` im2col values of (`row`, `group`) into the slice.
pub(crate) type Fill<'a, T> = dyn Fn(usize, usize, &mut [T]) + Sync + 'a;

/// `out[row, g*ocg + j] = Σ_k A_g[row, k] · W_g[k, j]`, row-major `rows × oc`.
/// `weights(g)` is the `k × ocg` matrix of group `g`.
pub(crate) fn gemm<'w, T>(
    d: Dims,
    weights: &(dyn Fn(usize) -> Option<ArrayView2<'w, T>> + Sync),
    fill: &Fill<'_, T>,
) -> Result<Vec<T>, OpError>
where
    T: LinalgScalar + Send + Sync,
{
    let mut out = vec![T::zero(); d.rows * d.oc()];
    gemm_into(d, weights, fill, &mut out)?;
    Ok(out)
}

/// [`gemm`] into `out` (`rows × oc`, row-major), so a caller with several
/// products (MATMUL batches) fills one result instead of joining copies.
pub(crate) fn gemm_into<'w, T>(
    d: Dims,
    weights: &(dyn Fn(usize) -> Option<ArrayView2<'w, T>> + Sync),
    fill: &Fill<'_, T>,
    out: &mut [T],
) -> Result<(), OpError>
where
    T: LinalgScalar + Send + Sync,
{
    // general_mat_mul panics on mismatched shapes; check every group first.
    if let Some(g) = (0..d.groups).find(|&g| weights(g).map(|w| w.dim()) != Some((d.k, d.ocg))) {
        return Err(OpError::invalid(format!("weight matrix of group {g} is not {} x {}", d.k, d.ocg)));
    }
    let oc = d.oc();
    if out.len() != d.rows * oc {
        return Err(OpError::invalid(format!("GEMM result has {} elements, expected {} x {oc}", out.len(), d.rows)));
    }
    if out.is_empty() {
        return Ok(());
    }
    if d.k == 0 {
        out.fill(T::zero());
        return Ok(());
    }
    let block = rows_per_block(d.rows, d.k, std::mem::size_of::<T>());
    out.par_chunks_mut(block * oc).enumerate().for_each(|(b, chunk)| {
        let r0 = b * block;
        let nr = chunk.len() / oc;
        let mut a = Array2::<T>::zeros((nr, d.k));
        let mut c = Array2::<T>::zeros((nr, d.ocg));
        for g in 0..d.groups {
            for (r, mut row) in a.rows_mut().into_iter().enumerate() {
                if let Some(s) = row.as_slice_mut() {
                    fill(r0 + r, g, s);
                }
            }
            let Some(w) = weights(g) else { continue };
            general_mat_mul(T::one(), &a, &w, T::zero(), &mut c);
            for (r, crow) in c.rows().into_iter().enumerate() {
                let dst = &mut chunk[r * oc + g * d.ocg..r * oc + (g + 1) * d.ocg];
                for (o, v) in dst.iter_mut().zip(crow.iter()) {
                    *o = *v;
                }
            }
        }
    });
    Ok(())
}

/// A row-major `rows × cols` matrix view of `data` with the given strides
/// (`None` when the data is too short for them).
pub(crate) fn view2<T>(data: &[T], rows: usize, cols: usize, strides: (usize, usize)) -> Option<ArrayView2<'_, T>> {
    ArrayView2::from_shape((rows, cols).strides(strides), data).ok()
}

/// Where an exact integer convolution failed: output row, output channel, and the REQUIRE.
pub(crate) type ExactFailure = (usize, usize, Require);

/// The integer dot products in pseudocode order, each addition checked
/// against a signed accumulator of `bits` bits. `bias(oc)` is added first or
/// last, as the operator's pseudocode does. The failure reported is the first
/// in row-major output order.
pub(crate) fn exact<'w>(
    d: Dims,
    weights: &(dyn Fn(usize) -> Option<ArrayView2<'w, i64>> + Sync),
    fill: &Fill<'_, i64>,
    bias: &(dyn Fn(usize) -> i64 + Sync),
    bias_first: bool,
    bits: u32,
) -> Result<Vec<i64>, ExactFailure> {
    let oc = d.oc();
    let mut out = vec![0i64; d.rows * oc];
    if out.is_empty() {
        return Ok(out);
    }
    let block = rows_per_block(d.rows, d.k, 8);
    // One result per block (its first failure, if any) keeps the bookkeeping
    // small and the reported failure deterministic.
    let failures: Vec<Option<ExactFailure>> = out
        .par_chunks_mut(block * oc)
        .enumerate()
        .map(|(b, chunk)| {
            let mut a = vec![0i64; d.k];
            for (r, dst) in chunk.chunks_mut(oc).enumerate() {
                let row = b * block + r;
                for g in 0..d.groups {
                    fill(row, g, &mut a);
                    let w = weights(g);
                    for j in 0..d.ocg {
                        let o = g * d.ocg + j;
                        match dot(&a, w.as_ref(), j, bias(o), bias_first, bits) {
                            Ok(v) => dst[o] = v,
                            Err(e) => return Some((row, o, e)),
                        }
                    }
                }
            }
            None
        })
        .collect();
    match failures.into_iter().flatten().next() {
        Some(f) => Err(f),
        None => Ok(out),
    }
}

/// One checked dot product of `a` with column `j` of `w`.
fn dot(
    a: &[i64],
    w: Option<&ArrayView2<'_, i64>>,
    j: usize,
    bias: i64,
    bias_first: bool,
    bits: u32,
) -> Result<i64, Require> {
    let overflow = |_| Require::AccumulatorOverflow;
    let mut acc = if bias_first { bias } else { 0 };
    for (kk, &x) in a.iter().enumerate() {
        let wv = w.and_then(|w| w.get((kk, j)).copied()).unwrap_or(0);
        acc = im::add_s(acc, im::sext(x.wrapping_mul(wv), bits), bits).map_err(overflow)?;
    }
    if !bias_first {
        acc = im::add_s(acc, bias, bits).map_err(overflow)?;
    }
    Ok(acc)
}
