//! MATMUL (§4.1): one GEMM per batch through [`super::gemm`], integers with
//! the same exactness rule as the convolutions.

use super::conv::{bound, fast_path_fits};
use super::convert::{flat, from_f32, from_i64, int_bits, shaped, to_f32, to_i64};
use super::ctx::Ctx;
use super::error::OpError;
use super::gemm::{exact, gemm_into, view2, Dims};
use spvgraph_ir::tensor::TensorData;

/// Runs MATMUL: `out[n,h,w] = Σ_c (A[n,h,c] − A_zp)·(B[n,c,w] − B_zp)`.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let a = cx.tensor("A")?;
    let b = cx.tensor("B")?;
    let a_zp = cx.zero_point("A_zp")?;
    let b_zp = cx.zero_point("B_zp")?;
    let (n, h, c) = match a.shape() {
        [n, h, c] => (*n, *h, *c),
        s => return Err(OpError::invalid(format!("MATMUL: A has shape {s:?}, expected rank 3"))),
    };
    let w = match b.shape() {
        [bn, bc, w] if *bn == n && *bc == c => *w,
        s => return Err(OpError::invalid(format!("MATMUL: B has shape {s:?}, expected [{n}, {c}, W]"))),
    };
    let out_elem = cx.out_elem()?;
    let out_shape = cx.out_shape(0)?.to_vec();
    let d = Dims { rows: h, k: c, groups: 1, ocg: w };
    if a.elem().is_float() {
        // fp32 operands are borrowed, not copied; the result is filled in place.
        let (a32, b32) = (to_f32(a)?, to_f32(b)?);
        let (af, bf) = (flat(&a32), flat(&b32));
        let mut out = vec![0f32; n * h * w];
        for (batch, dst) in out.chunks_mut((h * w).max(1)).enumerate() {
            batch_gemm_into(d, batch, &af, &bf, dst)?;
        }
        return from_f32(out_elem, shaped(&out_shape, out)?);
    }
    let ai: Vec<i64> = to_i64(a)?.iter().map(|&v| v - a_zp).collect();
    let bi: Vec<i64> = to_i64(b)?.iter().map(|&v| v - b_zp).collect();
    let bits = int_bits(out_elem);
    let mut out: Vec<i64> = Vec::with_capacity(n * h * w);
    if fast_path_fits(&ai, &bi, &[], c, bits) {
        if bound(&ai, &bi, c, &[]) < 1 << 24 {
            let (af, bf): (Vec<f32>, Vec<f32>) =
                (ai.iter().map(|&v| v as f32).collect(), bi.iter().map(|&v| v as f32).collect());
            for batch in 0..n {
                out.extend(batch_gemm(d, batch, &af, &bf)?.into_iter().map(|v| v as i64));
            }
        } else {
            let (af, bf): (Vec<f64>, Vec<f64>) =
                (ai.iter().map(|&v| v as f64).collect(), bi.iter().map(|&v| v as f64).collect());
            for batch in 0..n {
                out.extend(batch_gemm(d, batch, &af, &bf)?.into_iter().map(|v| v as i64));
            }
        }
    } else {
        for batch in 0..n {
            let (ab, bb) = batch_slices(d, batch, &ai, &bi)?;
            let r = exact(
                d,
                &|_| view2(bb, c, w, (w, 1)),
                &|row, _, dst| dst.copy_from_slice(&ab[row * c..(row + 1) * c]),
                &|_| 0,
                false,
                bits,
            )
            .map_err(|(row, col, e)| OpError::require_at(e, vec![batch, row, col]))?;
            out.extend(r);
        }
    }
    from_i64(out_elem, shaped(&out_shape, out)?)
}

fn batch_slices<'a, T>(d: Dims, batch: usize, a: &'a [T], b: &'a [T]) -> Result<(&'a [T], &'a [T]), OpError> {
    let (asz, bsz) = (d.rows * d.k, d.k * d.ocg);
    match (a.get(batch * asz..(batch + 1) * asz), b.get(batch * bsz..(batch + 1) * bsz)) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(OpError::invalid("MATMUL: operand sizes do not match their shapes")),
    }
}

fn batch_gemm<T>(d: Dims, batch: usize, a: &[T], b: &[T]) -> Result<Vec<T>, OpError>
where
    T: ndarray::LinalgScalar + Send + Sync,
{
    let mut out = vec![T::zero(); d.rows * d.ocg];
    batch_gemm_into(d, batch, a, b, &mut out)?;
    Ok(out)
}

fn batch_gemm_into<T>(d: Dims, batch: usize, a: &[T], b: &[T], out: &mut [T]) -> Result<(), OpError>
where
    T: ndarray::LinalgScalar + Send + Sync,
{
    let (ab, bb) = batch_slices(d, batch, a, b)?;
    gemm_into(
        d,
        &|_| view2(bb, d.k, d.ocg, (d.ocg, 1)),
        &|row, _, dst: &mut [T]| dst.copy_from_slice(&ab[row * d.k..(row + 1) * d.k]),
        out,
    )
}
