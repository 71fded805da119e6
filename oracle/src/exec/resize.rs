//! RESIZE (§4.10): nearest neighbour and bilinear, integer (exact, the
//! result carrying the factor `scale_y_n·scale_x_n`) and floating point
//! (`dy`, `dx` rounded to the element type as the pseudocode computes them in
//! `resize_t`, the blend in `f32`).

use super::convert::{flat, from_f32, from_i64, round_f32, shaped, to_f32, to_i64};
use super::ctx::Ctx;
use super::error::OpError;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::ResizeMode;

/// Source coordinates of one output coordinate on one axis.
#[derive(Clone, Copy, Debug)]
struct Tap {
    /// Lower and upper source index (clamped into the input).
    i0: usize,
    i1: usize,
    /// Remainder `r` (integer weight numerator, `0 <= r < scale_n`).
    r: i64,
}

fn taps(out: usize, input: usize, scale_n: i64, scale_d: i64, offset: i64) -> Vec<Tap> {
    let last = input.saturating_sub(1) as i64;
    (0..out)
        .map(|o| {
            let v = o as i64 * scale_d + offset;
            let i = v.div_euclid(scale_n);
            let r = v - i * scale_n;
            Tap { i0: i.clamp(0, last) as usize, i1: (i + 1).clamp(0, last) as usize, r }
        })
        .collect()
}

/// Runs RESIZE.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let mode_value = cx.int("mode")?;
    let mode = u32::try_from(mode_value)
        .ok()
        .and_then(ResizeMode::from_u32)
        .ok_or_else(|| OpError::invalid(format!("RESIZE: mode {mode_value} is not a valid enumerant")))?;
    let input = cx.tensor("input")?;
    let [n, ih, iw, c] =
        <[usize; 4]>::try_from(input.shape()).map_err(|_| OpError::invalid("RESIZE: input must have rank 4"))?;
    let out_shape = cx.out_shape(0)?.to_vec();
    let [_, oh, ow, _] = <[usize; 4]>::try_from(out_shape.as_slice())
        .map_err(|_| OpError::invalid("RESIZE: output must have rank 4"))?;
    let [syn, syd, sxn, sxd] = cx.ints_n::<4>("scale")?;
    let [offy, offx] = cx.ints_n::<2>("offset")?;
    if syn <= 0 || syd <= 0 || sxn <= 0 || sxd <= 0 {
        return Err(OpError::invalid("RESIZE: scale values must be positive (ERROR_IF)"));
    }
    let ty = taps(oh, ih, syn, syd, offy);
    let tx = taps(ow, iw, sxn, sxd, offx);
    let at = |b: usize, y: usize, x: usize| ((b * ih + y) * iw + x) * c;
    let out_elem = cx.out_elem()?;
    if input.elem().is_float() {
        let elem = input.elem();
        let v = flat(&*to_f32(input)?).into_owned();
        // dy, dx in the element type (resize_t), as the pseudocode computes them.
        let frac = |r: i64, n: i64| round_f32(elem, round_f32(elem, r as f32) / round_f32(elem, n as f32));
        let mut out = Vec::with_capacity(n * oh * ow * c);
        for b in 0..n {
            for py in &ty {
                let dy = frac(py.r, syn);
                for px in &tx {
                    let dx = frac(px.r, sxn);
                    for ch in 0..c {
                        out.push(match mode {
                            ResizeMode::NearestNeighbor => {
                                let y = if dy >= 0.5 { py.i1 } else { py.i0 };
                                let x = if dx >= 0.5 { px.i1 } else { px.i0 };
                                v[at(b, y, x) + ch]
                            }
                            ResizeMode::Bilinear => {
                                let (v00, v01) = (v[at(b, py.i0, px.i0) + ch], v[at(b, py.i0, px.i1) + ch]);
                                let (v10, v11) = (v[at(b, py.i1, px.i0) + ch], v[at(b, py.i1, px.i1) + ch]);
                                v00 * (1.0 - dy) * (1.0 - dx)
                                    + v01 * (1.0 - dy) * dx
                                    + v10 * dy * (1.0 - dx)
                                    + v11 * dy * dx
                            }
                        });
                    }
                }
            }
        }
        return from_f32(out_elem, shaped(&out_shape, out)?);
    }
    let v = flat(&to_i64(input)?).into_owned();
    let mut out = Vec::with_capacity(n * oh * ow * c);
    for b in 0..n {
        for py in &ty {
            for px in &tx {
                for ch in 0..c {
                    out.push(match mode {
                        ResizeMode::NearestNeighbor => {
                            let y = if 2 * py.r >= syn { py.i1 } else { py.i0 };
                            let x = if 2 * px.r >= sxn { px.i1 } else { px.i0 };
                            v[at(b, y, x) + ch]
                        }
                        ResizeMode::Bilinear => {
                            let (dy, dx) = (py.r, px.r);
                            let (v00, v01) = (v[at(b, py.i0, px.i0) + ch], v[at(b, py.i0, px.i1) + ch]);
                            let (v10, v11) = (v[at(b, py.i1, px.i0) + ch], v[at(b, py.i1, px.i1) + ch]);
                            v00 * (syn - dy) * (sxn - dx)
                                + v01 * (syn - dy) * dx
                                + v10 * dy * (sxn - dx)
                                + v11 * dy * dx
                        }
                    });
                }
            }
        }
    }
    from_i64(out_elem, shaped(&out_shape, out)?)
}
