//! Tensor operators: pooling, convolutions, MATMUL, FFT2D/RFFT2D.
//!
//! Attributes are solved per spatial axis so that the output-size divisions
//! are exact: kernel, dilation and pads are drawn first, then the stride is
//! drawn among the divisors of the resulting numerator.

use super::node::{internal, Arg, NodeSpec, Skip};
use super::{Need, Synth};
use crate::config::LEVEL_8K;
use crate::floats;
use crate::range::Domain;
use spvgraph_ir::count;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::{LevelLimits, RowQualifier, TosaOp};

/// One spatial axis of a convolution: kernel, pads, dilation, stride.
#[derive(Clone, Copy, Debug)]
struct Axis {
    k: u32,
    pad_a: u32,
    pad_b: u32,
    dilation: u32,
    stride: u32,
}

impl Synth<'_, '_> {
    /// The `acc_type` value a type row is tied to.
    pub(crate) fn row_acc_type(op: TosaOp, row: usize) -> Result<u32, Skip> {
        match Synth::row(op, row)?.qualifier {
            RowQualifier::AccType(a) => Ok(a.value()),
            q => internal(format!("row qualifier {q:?} is not an acc_type")),
        }
    }

    /// A stride in `1..=max` dividing `num` (any when `num` is 0).
    fn dividing_stride(&mut self, num: u32, max: u32) -> u32 {
        let divisors: Vec<u32> = (1..=max).filter(|&s| num % s == 0).collect();
        self.dice.pick_or(&divisors, 1)
    }

    /// Pool kernel/pads/stride over the whole legal range (up to MAX_KERNEL
    /// and MAX_STRIDE) for an input extent `i`: a kernel up to 8192, an
    /// output extent of 1..=4, a stride up to what the kernel and input
    /// span, and pads (< kernel) that make the division exact.
    fn wide_pool_axis(&mut self, i: u32) -> Axis {
        let k = self.wide_pick(1, i64::from(LEVEL_8K)) as u32;
        // Output extent 2 half the time: the stride may then span the whole kernel.
        let o = if self.dice.chance(0.5) { 2 } else { self.dice.range_u32(1, 4) };
        // pads = (o-1)*stride + k - i must lie in 0..=2(k-1).
        let span = i64::from(k) - 2 + i64::from(i);
        let max_stride = LevelLimits::EIGHT_K.max_stride;
        let stride = if o > 1 { self.wide_pick(1, (span / i64::from(o - 1)).min(max_stride)) } else { 1 };
        let pads = i64::from(o - 1) * stride + i64::from(k) - i64::from(i);
        if !(0..=2 * (i64::from(k) - 1)).contains(&pads) {
            return self.pool_axis(i);
        }
        let pad_a = self.dice.range_i64((pads - i64::from(k) + 1).max(0), pads.min(i64::from(k) - 1));
        let pad_b = pads - pad_a;
        let axis = Axis { k, pad_a: pad_a as u32, pad_b: pad_b as u32, dilation: 1, stride: stride as u32 };
        self.note_wide_axis("pool", &axis);
        axis
    }

    /// Records the attributes of an axis drawn near their level limits.
    fn note_wide_axis(&mut self, op: &str, a: &Axis) {
        let near = LEVEL_8K / 2;
        if a.k.saturating_mul(a.dilation) >= near {
            self.op_feature(format!("attr:{op}-kernel>=4096"));
        }
        if a.stride >= near {
            self.op_feature(format!("attr:{op}-stride>=4096"));
        }
        if a.pad_a.max(a.pad_b) >= near {
            self.op_feature(format!("attr:{op}-pad>=4096"));
        }
    }

    /// Pool kernel/pads/stride for an input extent `i`: pads < kernel, exact division.
    fn pool_axis(&mut self, i: u32) -> Axis {
        let k = self.dice.range_u32(1, 4);
        let mut pad_a = self.dice.range_u32(0, k - 1);
        let mut pad_b = self.dice.range_u32(0, k - 1);
        if i + pad_a + pad_b < k {
            (pad_a, pad_b) = (k - 1, k - 1);
        }
        let num = i + pad_a + pad_b - k;
        let stride = self.dividing_stride(num, 4);
        Axis { k, pad_a, pad_b, dilation: 1, stride }
    }

    /// Convolution dilation, stride and pads over their whole legal range
    /// (dilation·K, stride and each pad up to 8192) for an input extent `i`
    /// and a kernel of 1..=3; the second pad makes the division exact.
    fn wide_conv_axis(&mut self, i: u32) -> Axis {
        let max = i64::from(LEVEL_8K);
        let k = self.dice.range_u32(1, 3);
        let dilation = if k > 1 { self.wide_pick(1, max / i64::from(k)) } else { 1 };
        let stride = self.wide_pick(1, LevelLimits::EIGHT_K.max_stride);
        let base = i64::from(i) - 1 - (i64::from(k) - 1) * dilation;
        let pad_a = if self.dice.chance(0.5) { self.wide_pick(0, max) } else { self.dice.range_i64(0, 2) };
        // pad_b >= 0 with base + pad_a + pad_b >= 0 and divisible by the stride.
        let low = (-(base + pad_a)).max(0);
        let pad_b = low + (-(base + pad_a + low)).rem_euclid(stride);
        if pad_b > max {
            return self.conv_axis(i);
        }
        let axis =
            Axis { k, pad_a: pad_a as u32, pad_b: pad_b as u32, dilation: dilation as u32, stride: stride as u32 };
        self.note_wide_axis("conv", &axis);
        axis
    }

    /// Convolution kernel/dilation/pads/stride for an input extent `i`.
    fn conv_axis(&mut self, i: u32) -> Axis {
        let k = self.dice.range_u32(1, 3);
        let dilation = if k > 1 { self.dice.range_u32(1, 2) } else { 1 };
        let mut pad_a = self.dice.range_u32(0, 2);
        let pad_b = self.dice.range_u32(0, 2);
        let reach = (k - 1) * dilation;
        if i - 1 + pad_a + pad_b < reach {
            pad_a = reach - (i - 1) - pad_b;
        }
        let num = i - 1 + pad_a + pad_b - reach;
        let stride = self.dividing_stride(num, 3);
        Axis { k, pad_a, pad_b, dilation, stride }
    }

    /// AVG_POOL2D and MAX_POOL2D.
    pub(crate) fn pool2d(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let e = Synth::operand_elem(op, row, "input")?;
        let need = self.any_need(e);
        let x = self.value_of_rank(e, Some(4), &need);
        let s = self.shape_of(x);
        let (ih, iw) = (s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        // Wide attributes on one axis only: the window visits kernel_y * kernel_x taps.
        let (y, xa) = match self.wide_axis(2) {
            Some(0) => (self.wide_pool_axis(ih), self.pool_axis(iw)),
            Some(_) => (self.pool_axis(ih), self.wide_pool_axis(iw)),
            None => (self.pool_axis(ih), self.pool_axis(iw)),
        };
        let mut n = NodeSpec::new(op, row);
        for o in op.spec().operands {
            match o.name {
                "kernel" => n.arg(Arg::Ints(vec![i64::from(y.k), i64::from(xa.k)])),
                "stride" => n.arg(Arg::Ints(vec![i64::from(y.stride), i64::from(xa.stride)])),
                "pad" => n.arg(Arg::Ints([y.pad_a, y.pad_b, xa.pad_a, xa.pad_b].map(i64::from).to_vec())),
                "acc_type" => n.arg(Arg::U32(Synth::row_acc_type(op, row)?)),
                "nan_mode" => n.arg(Arg::U32(self.nan_mode())),
                "input" => n.arg(Arg::Val(x)),
                _ => n.arg(Arg::Tensor(e, vec![self.zero_point(e)])),
            }
        }
        Ok(n)
    }

    /// A weight/bias requirement: any value, fresh leaves lean to constants.
    fn weight_need(&mut self, elem: ElemType, domain: Domain) -> Need {
        let mut n = self.need(elem, domain, domain);
        n.weight = true;
        n
    }

    /// The bias domain that keeps `acc ± bias` inside the accumulator
    /// (integer rows), given the input, weight and zero points.
    pub(crate) fn bias_domain(&self, x: usize, w: usize, zps: (i64, i64), ks: u64, out: ElemType) -> Domain {
        if !out.is_int() {
            return Domain::any(out);
        }
        let (xl, xh) = self.range_of(x).int_bounds();
        let (wl, wh) = self.range_of(w).int_bounds();
        let xm = (i128::from(xl) - i128::from(zps.0)).abs().max((i128::from(xh) - i128::from(zps.0)).abs());
        let wm = (i128::from(wl) - i128::from(zps.1)).abs().max((i128::from(wh) - i128::from(zps.1)).abs());
        let acc = (i128::from(ks) * xm * wm).min(i128::from(i64::MAX)) as i64;
        let (lo, hi) = floats::int_range(out);
        Domain::ints(lo.saturating_add(acc), hi.saturating_sub(acc))
    }

    /// CONV2D, DEPTHWISE_CONV2D and CONV3D.
    pub(crate) fn convolution(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let spatial = if op == TosaOp::Conv3d { 3 } else { 2 };
        let (in_e, w_e, out_e) = (
            Synth::operand_elem(op, row, "input")?,
            Synth::operand_elem(op, row, "weight")?,
            Synth::operand_elem(op, row, "bias")?,
        );
        let need = self.any_need(in_e);
        let x = self.value_of_rank(in_e, Some(spatial as u32 + 2), &need);
        let s = self.shape_of(x);
        let (batch, ic) = (s.first().copied().unwrap_or(1), s.last().copied().unwrap_or(1));
        let wide = self.wide_axis(spatial);
        let axes: Vec<Axis> = (0..spatial)
            .map(|a| {
                let i = s.get(1 + a).copied().unwrap_or(1);
                if wide == Some(a) {
                    self.wide_conv_axis(i)
                } else {
                    self.conv_axis(i)
                }
            })
            .collect();
        let ks: Vec<u32> = axes.iter().map(|a| a.k).collect();
        let out_spatial: Vec<u32> = axes
            .iter()
            .zip(s.iter().skip(1))
            .map(|(a, &i)| (i - 1 + a.pad_a + a.pad_b - (a.k - 1) * a.dilation) / a.stride + 1)
            .collect();
        // Output channels (OC, or the multiplier M for depthwise), shrunk to the budget.
        let mut oc = self.dice.range_u32(1, self.cfg.max_dim.clamp(1, 8));
        let w_shape = |oc: u32| -> Vec<u32> {
            if op == TosaOp::DepthwiseConv2d {
                vec![ks[0], ks[1], ic, oc]
            } else {
                let mut v = vec![oc];
                v.extend(&ks);
                v.push(ic);
                v
            }
        };
        let out_channels = |oc: u32| if op == TosaOp::DepthwiseConv2d { ic * oc } else { oc };
        let out_shape = |oc: u32| {
            let mut v = vec![batch];
            v.extend(&out_spatial);
            v.push(out_channels(oc));
            v
        };
        while oc > 1 && (!self.fits(&w_shape(oc)) || !self.fits(&out_shape(oc))) {
            oc -= 1;
        }
        if !self.fits(&w_shape(oc)) || !self.fits(&out_shape(oc)) {
            return Err(Skip::Budget);
        }
        let wneed = self.weight_need(w_e, Domain::any(w_e));
        let w = self.value_of_shape(w_e, &w_shape(oc), &wneed);
        let (izp, wzp) = (self.zero_point(in_e), self.zero_point(w_e));
        let kernel = count::saturating(ks.iter().map(|&k| u64::from(k)));
        let terms: u64 = if op == TosaOp::DepthwiseConv2d { kernel } else { kernel.saturating_mul(u64::from(ic)) };
        let zps = (izp as i64, wzp as i64);
        let bdom = self.bias_domain(x, w, zps, terms, out_e);
        let bc = if self.dice.chance(0.3) { 1 } else { out_channels(oc) };
        let bneed = self.weight_need(out_e, bdom);
        let bias = self.value_of_shape(out_e, &[bc], &bneed);
        if bc == 1 && out_channels(oc) > 1 {
            self.op_feature("conv:bias-broadcast");
        }
        let mut n = NodeSpec::new(op, row);
        let pads: Vec<i64> = axes.iter().flat_map(|a| [i64::from(a.pad_a), i64::from(a.pad_b)]).collect();
        n.arg(Arg::Ints(pads));
        n.arg(Arg::Ints(axes.iter().map(|a| i64::from(a.stride)).collect()));
        n.arg(Arg::Ints(axes.iter().map(|a| i64::from(a.dilation)).collect()));
        n.arg(Arg::U32(Synth::row_acc_type(op, row)?));
        n.arg(Arg::Bool(self.dice.chance(0.3)));
        n.arg(Arg::Val(x));
        n.arg(Arg::Val(w));
        n.arg(Arg::Val(bias));
        n.arg(Arg::Tensor(in_e, vec![izp]));
        n.arg(Arg::Tensor(w_e, vec![wzp]));
        Ok(n)
    }

    /// TRANSPOSE_CONV2D: `OH = (IH - 1) * stride + out_pad_top + out_pad_bottom + KH`.
    pub(crate) fn transpose_conv2d(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let (in_e, w_e, out_e) = (
            Synth::operand_elem(op, row, "input")?,
            Synth::operand_elem(op, row, "weight")?,
            Synth::operand_elem(op, row, "bias")?,
        );
        let need = self.any_need(in_e);
        let wide = self.wide_axis(2);
        let x = match wide {
            // A thin input [1, IH, 1, 1] (or [1, 1, IW, 1]): the wide axis
            // makes a long output and a long kernel, the other stays 1.
            Some(axis) => {
                let mut shape = vec![1, 1, 1, 1];
                shape[1 + axis] = self.dice.range_u32(1, 4);
                self.value_of_shape(in_e, &shape, &need)
            }
            None => self.value_of_rank(in_e, Some(4), &need),
        };
        let s = self.shape_of(x);
        let (batch, ic) = (s.first().copied().unwrap_or(1), s.last().copied().unwrap_or(1));
        let mut axes = Vec::new();
        let mut out_hw = Vec::new();
        for (a, i) in [s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1)].into_iter().enumerate() {
            let (mut k, mut stride, mut hi) = (self.dice.range_u32(1, 3), self.dice.range_u32(1, 3), 2);
            if wide.is_some() && wide != Some(a) {
                (k, stride, hi) = (1, 1, 0);
            }
            if wide == Some(a) {
                // Kernel, stride and out_pad up to MAX_KERNEL / MAX_STRIDE.
                let max = i64::from(LEVEL_8K);
                match self.dice.below(3) {
                    0 => k = self.wide_pick(1, max) as u32,
                    1 => stride = self.wide_pick(1, LevelLimits::EIGHT_K.max_stride) as u32,
                    _ => hi = self.wide_pick(0, max),
                }
            }
            // out_pad > -K (ERROR_IF); negative values crop the output.
            let lo = -(i64::from(k) - 1);
            let mut pa = self.dice.range_i64(lo, hi);
            let mut pb = self.dice.range_i64(lo, hi.min(2));
            let mut o = (i64::from(i) - 1) * i64::from(stride) + pa + pb + i64::from(k);
            if o < 1 {
                (pa, pb) = (0, 0);
                o = (i64::from(i) - 1) * i64::from(stride) + i64::from(k);
            }
            if pa < 0 || pb < 0 {
                self.op_feature("transpose_conv2d:negative-out_pad");
            }
            let near = i64::from(LEVEL_8K / 2);
            for (what, v) in [("kernel", i64::from(k)), ("stride", i64::from(stride)), ("out_pad", pa.abs())] {
                if v >= near {
                    self.op_feature(format!("attr:transpose_conv2d-{what}>=4096"));
                }
            }
            axes.push((k, stride, pa, pb));
            out_hw.push(u32::try_from(o).unwrap_or(u32::MAX));
        }
        let mut oc = self.dice.range_u32(1, self.cfg.max_dim.clamp(1, 8));
        let w_shape = |oc: u32| vec![oc, axes[0].0, axes[1].0, ic];
        let out_shape = |oc: u32| vec![batch, out_hw[0], out_hw[1], oc];
        while oc > 1 && (!self.fits(&w_shape(oc)) || !self.fits(&out_shape(oc))) {
            oc -= 1;
        }
        if !self.fits(&w_shape(oc)) || !self.fits(&out_shape(oc)) {
            return Err(Skip::Budget);
        }
        let wneed = self.weight_need(w_e, Domain::any(w_e));
        let w = self.value_of_shape(w_e, &w_shape(oc), &wneed);
        let (izp, wzp) = (self.zero_point(in_e), self.zero_point(w_e));
        let terms = u64::from(axes[0].0) * u64::from(axes[1].0) * u64::from(ic);
        let bdom = self.bias_domain(x, w, (izp as i64, wzp as i64), terms, out_e);
        let bc = if self.dice.chance(0.3) { 1 } else { oc };
        let bneed = self.weight_need(out_e, bdom);
        let bias = self.value_of_shape(out_e, &[bc], &bneed);
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Ints(vec![axes[0].2, axes[0].3, axes[1].2, axes[1].3]));
        n.arg(Arg::Ints(vec![i64::from(axes[0].1), i64::from(axes[1].1)]));
        n.arg(Arg::U32(Synth::row_acc_type(op, row)?));
        n.arg(Arg::Bool(self.dice.chance(0.3)));
        n.arg(Arg::Val(x));
        n.arg(Arg::Val(w));
        n.arg(Arg::Val(bias));
        n.arg(Arg::Tensor(in_e, vec![izp]));
        n.arg(Arg::Tensor(w_e, vec![wzp]));
        Ok(n)
    }

    /// MATMUL: `[N,H,C] x [N,C,W]`.
    pub(crate) fn matmul(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let e = Synth::operand_elem(op, row, "A")?;
        let need = self.any_need(e);
        let a = self.value_of_rank(e, Some(3), &need);
        let s = self.shape_of(a);
        let (batch, h, c) =
            (s.first().copied().unwrap_or(1), s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        let bneed = self.weight_need(e, Domain::any(e));
        let found = self.pick_value(&bneed, |v| {
            v.elem == e
                && v.shape.len() == 3
                && v.shape[0] == batch
                && v.shape[1] == c
                && u64::from(batch) * u64::from(h) * u64::from(v.shape[2]) <= 1 << 40
        });
        let b = match found {
            Some(b) => b,
            None => {
                let mut w = self.random_dim();
                while w > 1 && !(self.fits(&[batch, c, w]) && self.fits(&[batch, h, w])) {
                    w -= 1;
                }
                self.fresh_leaf(e, &[batch, c, w], &bneed)
            }
        };
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Val(a));
        n.arg(Arg::Val(b));
        n.arg(Arg::Tensor(e, vec![self.zero_point(e)]));
        n.arg(Arg::Tensor(e, vec![self.zero_point(e)]));
        Ok(n)
    }

    /// FFT2D and RFFT2D: `[N,H,W]` with H and W powers of two.
    pub(crate) fn fft(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let e = Synth::operand_elem(op, row, "input_real")?;
        let need = self.any_need(e);
        let pow2 = |v: &super::Value| {
            v.elem == e && v.shape.len() == 3 && v.shape[1].is_power_of_two() && v.shape[2].is_power_of_two()
        };
        let re = match self.pick_value(&need, pow2) {
            Some(v) => v,
            None => {
                let max = self.cfg.max_dim.max(1);
                let pows: Vec<u32> = (0..14).map(|p| 1u32 << p).filter(|&p| p <= max).collect();
                let mut shape =
                    vec![self.dice.range_u32(1, 2), self.dice.pick_or(&pows, 1), self.dice.pick_or(&pows, 1)];
                if self.dice.chance(self.cfg.probs.wide_attributes) {
                    // FFT sizes near MAX_KERNEL: one of H and W 4096 or 8192.
                    let big = if self.dice.chance(0.5) { LEVEL_8K } else { LEVEL_8K / 2 };
                    let axis = 1 + self.dice.below(2);
                    shape = vec![1, 1, 1];
                    shape[axis] = big;
                    if self.fits(&shape) {
                        self.op_feature("level:fft-size>=4096");
                    } else {
                        shape[axis] = 1;
                    }
                }
                while !self.fits(&shape) && shape.iter().any(|&d| d > 1) {
                    let i = if shape[1] >= shape[2] { 1 } else { 2 };
                    shape[i] = (shape[i] / 2).max(1);
                    shape[0] = 1;
                }
                self.fresh_leaf(e, &shape, &need)
            }
        };
        let mut n = NodeSpec::new(op, row);
        if op == TosaOp::Fft2d {
            let inverse = self.dice.chance(0.5);
            if inverse {
                self.op_feature("fft2d:inverse");
            }
            n.arg(Arg::Bool(inverse));
            n.arg(Arg::Bool(self.dice.chance(0.3)));
            n.arg(Arg::Val(re));
            let shape = self.shape_of(re);
            let im = self.value_of_shape(e, &shape, &need);
            n.arg(Arg::Val(im));
        } else {
            n.arg(Arg::Bool(self.dice.chance(0.3)));
            n.arg(Arg::Val(re));
        }
        Ok(n)
    }
}
