//! AVG_POOL2D and MAX_POOL2D (§4.1): windows over NHWC input, padding never
//! contributing; rayon over output rows.

use super::convert::{flat, from_f32, from_i64, int_bits, shaped, to_f32, to_i64};
use super::ctx::Ctx;
use super::elementwise::{fmax, nan_mode};
use super::error::OpError;
use super::intmath::{self as im, Require};
use rayon::prelude::*;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{NanMode, TosaOp};

#[derive(Clone, Copy)]
struct Window {
    n: usize,
    ih: usize,
    iw: usize,
    c: usize,
    oh: usize,
    ow: usize,
    kernel: [usize; 2],
    stride: [usize; 2],
    pad: [usize; 2],
}

impl Window {
    fn new(cx: &Ctx<'_>) -> Result<Window, OpError> {
        let input = cx.tensor("input")?;
        let [n, ih, iw, c] = <[usize; 4]>::try_from(input.shape())
            .map_err(|_| OpError::invalid(format!("{}: input must have rank 4", cx.op)))?;
        let [_, oh, ow, _] = <[usize; 4]>::try_from(cx.out_shape(0)?)
            .map_err(|_| OpError::invalid(format!("{}: output must have rank 4", cx.op)))?;
        let k = cx.ints_n::<2>("kernel")?;
        let s = cx.ints_n::<2>("stride")?;
        let p = cx.ints_n::<4>("pad")?;
        let u = |v: i64, min: i64| usize::try_from(v).ok().filter(|&v| v as i64 >= min);
        match (u(k[0], 1), u(k[1], 1), u(s[0], 1), u(s[1], 1), u(p[0], 0), u(p[2], 0)) {
            (Some(ky), Some(kx), Some(sy), Some(sx), Some(pt), Some(pl)) => {
                Ok(Window { n, ih, iw, c, oh, ow, kernel: [ky, kx], stride: [sy, sx], pad: [pt, pl] })
            }
            _ => Err(OpError::invalid(format!("{}: kernel/stride must be >= 1 and pad >= 0", cx.op))),
        }
    }

    /// Input offsets (without the channel) of the valid positions of the
    /// window of output `(n, oy, ox)`, in (ky, kx) order.
    fn taps(&self, n: usize, oy: usize, ox: usize, out: &mut Vec<usize>) {
        out.clear();
        for ky in 0..self.kernel[0] {
            let y = (oy * self.stride[0] + ky).checked_sub(self.pad[0]).filter(|&y| y < self.ih);
            for kx in 0..self.kernel[1] {
                let x = (ox * self.stride[1] + kx).checked_sub(self.pad[1]).filter(|&x| x < self.iw);
                if let (Some(y), Some(x)) = (y, x) {
                    out.push(((n * self.ih + y) * self.iw + x) * self.c);
                }
            }
        }
    }

    /// Maps every output element `(row = n*OH+oy, ox, c)` through `f(taps, c)`.
    fn map<T: Send>(&self, f: impl Fn(&[usize], usize) -> Result<T, Require> + Sync) -> Result<Vec<T>, OpError> {
        let rows: Vec<Result<Vec<T>, OpError>> = (0..self.n * self.oh)
            .into_par_iter()
            .map(|row| {
                let (n, oy) = (row / self.oh, row % self.oh);
                let mut taps = Vec::with_capacity(self.kernel[0] * self.kernel[1]);
                let mut out = Vec::with_capacity(self.ow * self.c);
                for ox in 0..self.ow {
                    self.taps(n, oy, ox, &mut taps);
                    for ch in 0..self.c {
                        out.push(f(&taps, ch).map_err(|e| OpError::require_at(e, vec![n, oy, ox, ch]))?);
                    }
                }
                Ok(out)
            })
            .collect();
        let mut all = Vec::with_capacity(self.n * self.oh * self.ow * self.c);
        for r in rows {
            all.extend(r?);
        }
        Ok(all)
    }
}

/// Runs AVG_POOL2D or MAX_POOL2D.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let w = Window::new(cx)?;
    let input = cx.tensor("input")?;
    let elem = cx.out_elem()?;
    let out_shape = cx.out_shape(0)?.to_vec();
    if input.len() != w.n * w.ih * w.iw * w.c {
        return Err(OpError::invalid(format!("{}: input size does not match its shape", cx.op)));
    }
    let is_max = cx.op == TosaOp::MaxPool2d;
    let (in_zp, out_zp) = if is_max { (0, 0) } else { (cx.zero_point("input_zp")?, cx.zero_point("output_zp")?) };
    if elem.is_float() {
        let x = flat(&*to_f32(input)?).into_owned();
        let vals = if is_max {
            let mode = nan_mode(cx)?;
            let init = if mode == NanMode::Ignore { f32::NAN } else { f32::NEG_INFINITY };
            w.map(|taps, ch| Ok(taps.iter().fold(init, |acc, &t| fmax(acc, x[t + ch], mode))))?
        } else {
            // Accumulating in f32 is at least as precise as acc_type (fp16 or fp32).
            w.map(|taps, ch| {
                let sum: f32 = taps.iter().map(|&t| x[t + ch]).sum();
                Ok(sum / taps.len().max(1) as f32)
            })?
        };
        return from_f32(elem, shaped(&out_shape, vals)?);
    }
    let x = flat(&to_i64(input)?).into_owned();
    let vals = if is_max {
        w.map(|taps, ch| Ok(taps.iter().map(|&t| x[t + ch]).max().unwrap_or(i64::MIN)))?
    } else {
        let (lo, hi) = im::signed_range(int_bits(elem));
        w.map(|taps, ch| {
            let mut acc = 0i64;
            for &t in taps {
                let v = im::sub_s(x[t + ch], in_zp, 32).map_err(|_| Require::AccumulatorOverflow)?;
                acc = im::add_s(acc, v, 32).map_err(|_| Require::AccumulatorOverflow)?;
            }
            let (mult, shift) = im::reciprocal_scale(taps.len() as u32);
            let scaled = im::apply_scale_32(acc, mult, shift, false)?;
            let v = im::add_s(i64::from(scaled), out_zp, 32)?;
            Ok(im::clip(v, lo, hi))
        })?
    };
    from_i64(elem, shaped(&out_shape, vals)?)
}
