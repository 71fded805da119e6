//! CONV2D, CONV3D, DEPTHWISE_CONV2D and TRANSPOSE_CONV2D (§4.1) through the
//! im2col GEMM of [`super::gemm`].
//!
//! CONV2D is CONV3D with depth 1. The im2col columns of each output position
//! are in the pseudocode's summation order: `(kd, ky, kx, ic)` for the
//! convolutions, `(ky, kx)` per channel for DEPTHWISE_CONV2D, and for
//! TRANSPOSE_CONV2D the input positions in increasing order (the kernel
//! flipped), so the exact integer path checks REQUIREs in that order too.

use super::convert::{flat, from_f32, from_i64, int_bits, shaped, to_f32, to_i64};
use super::ctx::Ctx;
use super::error::{unflatten, OpError};
use super::gemm::{exact, gemm, view2, Dims};
use super::intmath::signed_range;
use ndarray::ArrayView2;
use spvgraph_ir::tensor::TensorData;
use std::borrow::Cow;

/// The operators of this group, each named by [`super::dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Convolution {
    Conv2d,
    Conv3d,
    DepthwiseConv2d,
    TransposeConv2d,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Conv,
    Depthwise,
    Transpose,
}

/// Sizes and attributes, with 2-D operators given depth 1.
#[derive(Clone, Copy, Debug)]
struct Geom {
    kind: Kind,
    n: usize,
    id: usize,
    ih: usize,
    iw: usize,
    ic: usize,
    od: usize,
    oh: usize,
    ow: usize,
    oc: usize,
    kd: usize,
    kh: usize,
    kw: usize,
    /// DEPTHWISE_CONV2D channel multiplier.
    m: usize,
    stride: [i64; 3],
    dilation: [i64; 3],
    /// Padding before each spatial axis (front, top, left); TRANSPOSE_CONV2D: out_pad top/left.
    pad: [i64; 3],
}

fn dims<const N: usize>(t: &TensorData, what: &str) -> Result<[usize; N], OpError> {
    <[usize; N]>::try_from(t.shape()).map_err(|_| OpError::invalid(format!("{what} must have rank {N}")))
}

impl Geom {
    fn new(cx: &Ctx<'_>, op: Convolution) -> Result<Geom, OpError> {
        let input = cx.tensor("input")?;
        let weight = cx.tensor("weight")?;
        let out = cx.out_shape(0)?;
        let g = match op {
            Convolution::Conv2d | Convolution::DepthwiseConv2d => {
                let [n, ih, iw, ic] = dims(input, "input")?;
                let [_, oh, ow, oc] = <[usize; 4]>::try_from(out).map_err(|_| OpError::invalid("output rank"))?;
                let [pt, _, pl, _] = cx.ints_n::<4>("pad")?;
                let [sy, sx] = cx.ints_n::<2>("stride")?;
                let [dy, dx] = cx.ints_n::<2>("dilation")?;
                let (kind, kh, kw, m) = if op == Convolution::Conv2d {
                    let [_, kh, kw, _] = dims(weight, "weight")?;
                    (Kind::Conv, kh, kw, 1)
                } else {
                    let [kh, kw, _, m] = dims(weight, "weight")?;
                    (Kind::Depthwise, kh, kw, m)
                };
                Geom {
                    kind,
                    n,
                    id: 1,
                    ih,
                    iw,
                    ic,
                    od: 1,
                    oh,
                    ow,
                    oc,
                    kd: 1,
                    kh,
                    kw,
                    m,
                    stride: [1, sy, sx],
                    dilation: [1, dy, dx],
                    pad: [0, pt, pl],
                }
            }
            Convolution::Conv3d => {
                let [n, id, ih, iw, ic] = dims(input, "input")?;
                let [_, od, oh, ow, oc] = <[usize; 5]>::try_from(out).map_err(|_| OpError::invalid("output rank"))?;
                let [_, kd, kh, kw, _] = dims(weight, "weight")?;
                let [pd, _, pt, _, pl, _] = cx.ints_n::<6>("pad")?;
                let stride = cx.ints_n::<3>("stride")?;
                let dilation = cx.ints_n::<3>("dilation")?;
                Geom {
                    kind: Kind::Conv,
                    n,
                    id,
                    ih,
                    iw,
                    ic,
                    od,
                    oh,
                    ow,
                    oc,
                    kd,
                    kh,
                    kw,
                    m: 1,
                    stride,
                    dilation,
                    pad: [pd, pt, pl],
                }
            }
            Convolution::TransposeConv2d => {
                let [n, ih, iw, ic] = dims(input, "input")?;
                let [_, oh, ow, oc] = <[usize; 4]>::try_from(out).map_err(|_| OpError::invalid("output rank"))?;
                let [_, kh, kw, _] = dims(weight, "weight")?;
                let [pt, _, pl, _] = cx.ints_n::<4>("out_pad")?;
                let [sy, sx] = cx.ints_n::<2>("stride")?;
                Geom {
                    kind: Kind::Transpose,
                    n,
                    id: 1,
                    ih,
                    iw,
                    ic,
                    od: 1,
                    oh,
                    ow,
                    oc,
                    kd: 1,
                    kh,
                    kw,
                    m: 1,
                    stride: [1, sy, sx],
                    dilation: [1, 1, 1],
                    pad: [0, pt, pl],
                }
            }
        };
        if g.stride.iter().chain(&g.dilation).any(|&s| s < 1) {
            return Err(OpError::invalid(format!("{}: stride and dilation must be >= 1", cx.op)));
        }
        Ok(g)
    }

    fn rows(&self) -> usize {
        self.n * self.od * self.oh * self.ow
    }

    fn gemm_dims(&self) -> Dims {
        match self.kind {
            Kind::Conv | Kind::Transpose => {
                Dims { rows: self.rows(), k: self.kd * self.kh * self.kw * self.ic, groups: 1, ocg: self.oc }
            }
            Kind::Depthwise => Dims { rows: self.rows(), k: self.kh * self.kw, groups: self.ic, ocg: self.m },
        }
    }

    /// `(n, od, oy, ox)` of an output row.
    fn position(&self, row: usize) -> [usize; 4] {
        let ox = row % self.ow;
        let r = row / self.ow;
        let oy = r % self.oh;
        let r = r / self.oh;
        [r / self.od, r % self.od, oy, ox]
    }

    /// Input coordinate of output coordinate `o` and kernel tap `k` on axis `a`.
    fn tap(&self, a: usize, o: usize, k: usize, size: usize) -> Option<usize> {
        let v = o as i64 * self.stride[a] - self.pad[a] + k as i64 * self.dilation[a];
        usize::try_from(v).ok().filter(|&v| v < size)
    }

    /// TRANSPOSE_CONV2D: input coordinate contributing to output `o` through tap `k`.
    fn transpose_tap(&self, a: usize, o: usize, k: usize, size: usize) -> Option<usize> {
        let y = o as i64 - self.pad[a] - k as i64;
        let s = self.stride[a];
        (y >= 0 && y % s == 0).then(|| (y / s) as usize).filter(|&i| i < size)
    }

    /// Fills one im2col row (`group` is the channel for DEPTHWISE_CONV2D).
    fn fill<T: Copy + Default>(&self, input: &[T], row: usize, group: usize, out: &mut [T]) {
        let [n, od, oy, ox] = self.position(row);
        let zero = T::default();
        let ic = self.ic;
        match self.kind {
            Kind::Conv => {
                let mut at = 0;
                for kd in 0..self.kd {
                    let z = self.tap(0, od, kd, self.id);
                    for ky in 0..self.kh {
                        let y = self.tap(1, oy, ky, self.ih);
                        for kx in 0..self.kw {
                            let x = self.tap(2, ox, kx, self.iw);
                            let dst = &mut out[at..at + ic];
                            at += ic;
                            match (z, y, x) {
                                (Some(z), Some(y), Some(x)) => {
                                    let src = (((n * self.id + z) * self.ih + y) * self.iw + x) * ic;
                                    dst.copy_from_slice(&input[src..src + ic]);
                                }
                                _ => dst.fill(zero),
                            }
                        }
                    }
                }
            }
            Kind::Depthwise => {
                let mut at = 0;
                for ky in 0..self.kh {
                    let y = self.tap(1, oy, ky, self.ih);
                    for kx in 0..self.kw {
                        let x = self.tap(2, ox, kx, self.iw);
                        out[at] = match (y, x) {
                            (Some(y), Some(x)) => input[((n * self.ih + y) * self.iw + x) * ic + group],
                            _ => zero,
                        };
                        at += 1;
                    }
                }
            }
            Kind::Transpose => {
                let mut at = 0;
                for kyp in 0..self.kh {
                    let y = self.transpose_tap(1, oy, self.kh - 1 - kyp, self.ih);
                    for kxp in 0..self.kw {
                        let x = self.transpose_tap(2, ox, self.kw - 1 - kxp, self.iw);
                        let dst = &mut out[at..at + ic];
                        at += ic;
                        match (y, x) {
                            (Some(y), Some(x)) => {
                                let src = ((n * self.ih + y) * self.iw + x) * ic;
                                dst.copy_from_slice(&input[src..src + ic]);
                            }
                            _ => dst.fill(zero),
                        }
                    }
                }
            }
        }
    }

    /// The weight matrix data in the layout [`Geom::weights`] views: for
    /// TRANSPOSE_CONV2D a flipped `K × OC` copy, otherwise the weights as given.
    fn weight_data<'w, T: Copy>(&self, w: Cow<'w, [T]>) -> Cow<'w, [T]> {
        if self.kind != Kind::Transpose {
            return w;
        }
        let (kh, kw, ic, oc) = (self.kh, self.kw, self.ic, self.oc);
        let mut out = Vec::with_capacity(w.len());
        for kyp in 0..kh {
            for kxp in 0..kw {
                for c in 0..ic {
                    for o in 0..oc {
                        out.push(w[((o * kh + (kh - 1 - kyp)) * kw + (kw - 1 - kxp)) * ic + c]);
                    }
                }
            }
        }
        Cow::Owned(out)
    }

    /// The `k × ocg` weight matrix of `group`.
    fn weights<'w, T>(&self, data: &'w [T], group: usize) -> Option<ArrayView2<'w, T>> {
        let d = self.gemm_dims();
        match self.kind {
            Kind::Conv => view2(data, d.k, d.ocg, (1, d.k)),
            Kind::Transpose => view2(data, d.k, d.ocg, (d.ocg, 1)),
            Kind::Depthwise => view2(data.get(group * self.m..)?, d.k, d.ocg, (self.ic * self.m, 1)),
        }
    }
}

/// Runs one convolution.
pub(crate) fn run(cx: &Ctx<'_>, op: Convolution) -> Result<TensorData, OpError> {
    let g = Geom::new(cx, op)?;
    let input = cx.tensor("input")?;
    let weight = cx.tensor("weight")?;
    let bias = cx.tensor("bias")?;
    let in_zp = cx.zero_point("input_zp")?;
    let w_zp = cx.zero_point("weight_zp")?;
    let out_elem = cx.out_elem()?;
    let out_shape = cx.out_shape(0)?.to_vec();
    let expected_len = g.n * g.id * g.ih * g.iw * g.ic;
    if input.len() != expected_len || weight.len() != g.gemm_dims().k * g.oc {
        return Err(OpError::invalid(format!("{}: operand sizes do not match the geometry", cx.op)));
    }
    if bias.len() != 1 && bias.len() != g.oc {
        return Err(OpError::invalid(format!("{}: bias has {} elements, expected 1 or {}", cx.op, bias.len(), g.oc)));
    }
    if input.elem().is_float() {
        // fp32 operands are borrowed, not copied, and the bias is added in
        // place: the only tensor-sized allocation is the result.
        let (x32, w32, b32) = (to_f32(input)?, to_f32(weight)?, to_f32(bias)?);
        let x = flat(&x32);
        let w = g.weight_data(flat(&w32));
        let b = flat(&b32);
        let mut out = gemm(g.gemm_dims(), &|grp| g.weights(&w, grp), &|row, grp, dst| g.fill(&x, row, grp, dst))?;
        let bias_of = |oc: usize| b[if b.len() == 1 { 0 } else { oc }];
        for (i, v) in out.iter_mut().enumerate() {
            *v += bias_of(i % g.oc);
        }
        return from_f32(out_elem, shaped(&out_shape, out)?);
    }
    let x: Vec<i64> = to_i64(input)?.iter().map(|&v| v - in_zp).collect();
    let w: Vec<i64> = g.weight_data(Cow::Owned(to_i64(weight)?.iter().map(|&v| v - w_zp).collect())).into_owned();
    let b = flat(&to_i64(bias)?).into_owned();
    let bias_of = |oc: usize| b[if b.len() == 1 { 0 } else { oc }];
    let bits = int_bits(out_elem);
    let d = g.gemm_dims();
    let vals = if fast_path_fits(&x, &w, &b, d.k, bits) {
        let product_bound = bound(&x, &w, d.k, &[]);
        if product_bound < 1 << 24 {
            let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let wf: Vec<f32> = w.iter().map(|&v| v as f32).collect();
            let out = gemm(d, &|grp| g.weights(&wf, grp), &|row, grp, dst| g.fill(&xf, row, grp, dst))?;
            out.iter().enumerate().map(|(i, &v)| v as i64 + bias_of(i % g.oc)).collect()
        } else {
            let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
            let wf: Vec<f64> = w.iter().map(|&v| v as f64).collect();
            let out = gemm(d, &|grp| g.weights(&wf, grp), &|row, grp, dst| g.fill(&xf, row, grp, dst))?;
            out.iter().enumerate().map(|(i, &v)| v as i64 + bias_of(i % g.oc)).collect()
        }
    } else {
        let bias_first = g.kind == Kind::Transpose;
        exact(d, &|grp| g.weights(&w, grp), &|row, grp, dst| g.fill(&x, row, grp, dst), &bias_of, bias_first, bits)
            .map_err(|(row, oc, e)| {
                let mut at = unflatten(row, &out_shape[..out_shape.len() - 1]);
                at.push(oc);
                OpError::require_at(e, at)
            })?
    };
    from_i64(out_elem, shaped(&out_shape, vals)?)
}

/// `k · max|a| · max|w| + max|bias|`: no partial sum of a dot product can exceed it.
pub(crate) fn bound(a: &[i64], w: &[i64], k: usize, bias: &[i64]) -> u128 {
    let max = |v: &[i64]| v.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0) as u128;
    (k as u128) * max(a) * max(w) + max(bias)
}

/// Whether the GEMM may run in floating point: every partial sum (bias
/// included) fits the accumulator, so no REQUIRE can fail, and stays far
/// below 2^53, so `f64` (or `f32` below 2^24) adds exactly in any order.
pub(crate) fn fast_path_fits(a: &[i64], w: &[i64], bias: &[i64], k: usize, acc_bits: u32) -> bool {
    bound(a, w, k, bias) <= signed_range(acc_bits).1 as u128
}
