//! FFT2D and RFFT2D (§4.1, EXT-FFT): unnormalised 2-D DFTs in `f64`, rounded
//! to fp32 at the end. Forward transforms use `exp(−i·a)`, inverse `exp(+i·a)`.
//!
//! Small transforms are evaluated directly, with the weights `cos a`, `sin a`
//! of `a = ±2π(((iy·oy) mod H)/H + ((ix·ox) mod W)/W)` computed as the
//! specification writes them. The TOSA compliance bound of these operators is
//! built from exactly those weights, including the rounding noise of
//! `sin(π) ≠ 0`, so on inputs near the top of the fp32 range only the direct
//! sum stays inside it. Larger transforms (see [`DIRECT_MAX_WORK`]) use radix-2
//! FFTs along rows then columns (H and W are powers of two), which are more
//! accurate but can leave that bound for such extreme inputs.

use super::convert::{flat, from_f64, shaped, to_f64};
use super::ctx::Ctx;
use super::error::OpError;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use std::f64::consts::PI;

/// Largest `N·(H·W)²` evaluated as a direct sum.
pub(crate) const DIRECT_MAX_WORK: u64 = 1 << 24;

/// The direct 2-D DFT of `[N, H, W]` data, output columns `0..wo`. With
/// `real_input`, the imaginary terms whose weight is exactly zero
/// (`ay mod H/2 = 0` and `ax mod W/2 = 0`) are left out, as RFFT2D specifies.
#[allow(clippy::too_many_arguments)]
fn direct(
    re: &[f64],
    im: &[f64],
    n: usize,
    h: usize,
    w: usize,
    wo: usize,
    inverse: bool,
    real_input: bool,
) -> (Vec<f64>, Vec<f64>) {
    let sign = if inverse { -1.0 } else { 1.0 };
    // Weights by (ay, ax): the angle depends on the products only through them.
    let weights: Vec<(f64, f64)> = (0..h * w)
        .map(|i| {
            let (ay, ax) = (i / w, i % w);
            let a = sign * 2.0 * PI * (ay as f64 / h as f64 + ax as f64 / w as f64);
            (a.cos(), a.sin())
        })
        .collect();
    let (half_h, half_w) = (h / 2, w / 2);
    let imag_term = |ay: usize, ax: usize| (h > 1 && ay % half_h.max(1) > 0) || (w > 1 && ax % half_w.max(1) > 0);
    let (mut out_re, mut out_im) = (Vec::with_capacity(n * h * wo), Vec::with_capacity(n * h * wo));
    for b in 0..n {
        let plane = b * h * w;
        for oy in 0..h {
            for ox in 0..wo {
                let (mut sr, mut si) = (0.0f64, 0.0f64);
                for iy in 0..h {
                    let ay = (iy * oy) % h;
                    for ix in 0..w {
                        let ax = (ix * ox) % w;
                        let (c, s) = weights[ay * w + ax];
                        let (xr, xi) = (re[plane + iy * w + ix], im[plane + iy * w + ix]);
                        if real_input {
                            sr += xr * c;
                            if imag_term(ay, ax) {
                                si += -xr * s;
                            }
                        } else {
                            sr += xr * c + xi * s;
                            si += -xr * s + xi * c;
                        }
                    }
                }
                out_re.push(sr);
                out_im.push(si);
            }
        }
    }
    (out_re, out_im)
}

/// In-place radix-2 FFT of a power-of-two length.
fn fft(re: &mut [f64], im: &mut [f64], inverse: bool) {
    let n = re.len();
    if n < 2 || !n.is_power_of_two() || im.len() != n {
        return;
    }
    let bits = n.trailing_zeros();
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - bits);
        if j > i {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let sign = if inverse { 1.0 } else { -1.0 };
    let mut len = 2;
    while len <= n {
        let half = len / 2;
        // Twiddles computed directly (not by recurrence) to keep the error at one rounding.
        let tw: Vec<(f64, f64)> = (0..half)
            .map(|k| {
                let a = sign * 2.0 * PI * k as f64 / len as f64;
                (a.cos(), a.sin())
            })
            .collect();
        for start in (0..n).step_by(len) {
            for (k, &(wr, wi)) in tw.iter().enumerate() {
                let (a, b) = (start + k, start + k + half);
                let (xr, xi) = (re[b] * wr - im[b] * wi, re[b] * wi + im[b] * wr);
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
            }
        }
        len *= 2;
    }
}

/// 2-D transform of each `[H, W]` plane of `[N, H, W]` data.
fn fft2d(re: &mut [f64], im: &mut [f64], n: usize, h: usize, w: usize, inverse: bool) {
    let plane = h * w;
    let (mut col_re, mut col_im) = (vec![0.0; h], vec![0.0; h]);
    for b in 0..n {
        let (pr, pi) = (&mut re[b * plane..(b + 1) * plane], &mut im[b * plane..(b + 1) * plane]);
        for row in 0..h {
            fft(&mut pr[row * w..(row + 1) * w], &mut pi[row * w..(row + 1) * w], inverse);
        }
        for col in 0..w {
            for row in 0..h {
                col_re[row] = pr[row * w + col];
                col_im[row] = pi[row * w + col];
            }
            fft(&mut col_re, &mut col_im, inverse);
            for row in 0..h {
                pr[row * w + col] = col_re[row];
                pi[row * w + col] = col_im[row];
            }
        }
    }
}

/// Runs FFT2D or RFFT2D; returns `[real, imaginary]`.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<Vec<TensorData>, OpError> {
    let real = cx.tensor("input_real")?;
    let [n, h, w] = <[usize; 3]>::try_from(real.shape())
        .map_err(|_| OpError::invalid(format!("{}: input must have rank 3", cx.op)))?;
    if !h.is_power_of_two() || !w.is_power_of_two() {
        return Err(OpError::invalid(format!("{}: H = {h} and W = {w} must be powers of two", cx.op)));
    }
    let mut re = flat(&to_f64(real)?).into_owned();
    let (mut im, inverse) = if cx.op == TosaOp::Fft2d {
        let imag = cx.tensor("input_imag")?;
        if imag.shape() != real.shape() {
            return Err(OpError::invalid("FFT2D: input_real and input_imag shapes differ"));
        }
        (flat(&to_f64(imag)?).into_owned(), cx.flag("inverse")?)
    } else {
        (vec![0.0; re.len()], false)
    };
    let wo = if cx.op == TosaOp::Fft2d { w } else { w / 2 + 1 };
    let work = (n as u64).saturating_mul((h as u64).saturating_mul(w as u64).saturating_pow(2));
    if work <= DIRECT_MAX_WORK {
        let (out_re, out_im) = direct(&re, &im, n, h, w, wo, inverse, cx.op == TosaOp::Rfft2d);
        return Ok(vec![
            from_f64(ElemType::Fp32, shaped(&[n, h, wo], out_re)?)?,
            from_f64(ElemType::Fp32, shaped(&[n, h, wo], out_im)?)?,
        ]);
    }
    fft2d(&mut re, &mut im, n, h, w, inverse);
    if cx.op == TosaOp::Fft2d {
        return Ok(vec![
            from_f64(ElemType::Fp32, shaped(&[n, h, w], re)?)?,
            from_f64(ElemType::Fp32, shaped(&[n, h, w], im)?)?,
        ]);
    }
    let (mut out_re, mut out_im) = (Vec::with_capacity(n * h * wo), Vec::with_capacity(n * h * wo));
    for b in 0..n {
        for y in 0..h {
            for x in 0..wo {
                let i = (b * h + y) * w + x;
                out_re.push(re[i]);
                // The bins that are real for real input are written exactly 0.
                let real_bin = (y == 0 || y == h / 2) && (x == 0 || x == w / 2);
                out_im.push(if real_bin { 0.0 } else { im[i] });
            }
        }
    }
    Ok(vec![
        from_f64(ElemType::Fp32, shaped(&[n, h, wo], out_re)?)?,
        from_f64(ElemType::Fp32, shaped(&[n, h, wo], out_im)?)?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The FFT path (used above [`DIRECT_MAX_WORK`]) against the direct sum.
    #[test]
    fn radix2_matches_the_direct_sum() {
        let (n, h, w) = (2, 8, 16);
        let mut state = 0x1234_5678_u64;
        let mut next = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let re: Vec<f64> = (0..n * h * w).map(|_| next()).collect();
        let im: Vec<f64> = (0..n * h * w).map(|_| next()).collect();
        for inverse in [false, true] {
            let (dr, di) = direct(&re, &im, n, h, w, w, inverse, false);
            let (mut fr, mut fi) = (re.clone(), im.clone());
            fft2d(&mut fr, &mut fi, n, h, w, inverse);
            for (a, b) in dr.iter().zip(&fr).chain(di.iter().zip(&fi)) {
                assert!((a - b).abs() < 1e-12, "{a} vs {b}");
            }
        }
        // Real input: the half spectrum of the full transform, real bins exactly real.
        let zeros = vec![0.0; re.len()];
        let (rr, ri) = direct(&re, &zeros, n, h, w, w / 2 + 1, false, true);
        let (mut fr, mut fi) = (re.clone(), zeros.clone());
        fft2d(&mut fr, &mut fi, n, h, w, false);
        for b in 0..n {
            for y in 0..h {
                for x in 0..=w / 2 {
                    let (i, j) = ((b * h + y) * (w / 2 + 1) + x, (b * h + y) * w + x);
                    assert!((rr[i] - fr[j]).abs() < 1e-12 && (ri[i] - fi[j]).abs() < 1e-12);
                    if (y == 0 || y == h / 2) && (x == 0 || x == w / 2) {
                        assert_eq!(ri[i], 0.0);
                    }
                }
            }
        }
    }
}
