//! Tensor operators: pooling, convolutions, MATMUL, FFT2D/RFFT2D.
//!
//! Attributes are solved per spatial axis so that the output-size divisions
//! are exact: kernel, dilation and pads are drawn first, then the stride is
//! drawn among the divisors of the resulting numerator.

use super::node::{internal, Arg, NodeSpec, Skip};
use super::{elements, Need, Synth};
use crate::floats;
use crate::range::Domain;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::{RowQualifier, TosaOp};

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
    fn row_acc_type(op: TosaOp, row: usize) -> Result<u32, Skip> {
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
        let (y, xa) = (self.pool_axis(ih), self.pool_axis(iw));
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
    fn bias_domain(&self, x: usize, w: usize, zps: (i64, i64), ks: u64, out: ElemType) -> Domain {
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
        let axes: Vec<Axis> =
            (0..spatial).map(|i| s.get(1 + i).copied().unwrap_or(1)).map(|i| self.conv_axis(i)).collect();
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
        let out_count = |oc: u32| u64::from(batch) * elements(&out_spatial) * u64::from(out_channels(oc));
        while oc > 1 && (!self.fits(&w_shape(oc)) || out_count(oc) > self.cfg.max_tensor_elements) {
            oc -= 1;
        }
        if !self.fits(&w_shape(oc)) || out_count(oc) > self.cfg.max_tensor_elements {
            return Err(Skip::Budget);
        }
        let wneed = self.weight_need(w_e, Domain::any(w_e));
        let w = self.value_of_shape(w_e, &w_shape(oc), &wneed);
        let (izp, wzp) = (self.zero_point(in_e), self.zero_point(w_e));
        let terms: u64 = if op == TosaOp::DepthwiseConv2d {
            ks.iter().map(|&k| u64::from(k)).product()
        } else {
            ks.iter().map(|&k| u64::from(k)).product::<u64>() * u64::from(ic)
        };
        let zps = (izp as i64, wzp as i64);
        let bdom = self.bias_domain(x, w, zps, terms, out_e);
        let bc = if self.dice.chance(0.3) { 1 } else { out_channels(oc) };
        let bneed = self.weight_need(out_e, bdom);
        let bias = self.value_of_shape(out_e, &[bc], &bneed);
        if bc == 1 && out_channels(oc) > 1 {
            self.feature("conv:bias-broadcast");
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
        let x = self.value_of_rank(in_e, Some(4), &need);
        let s = self.shape_of(x);
        let (batch, ic) = (s.first().copied().unwrap_or(1), s.last().copied().unwrap_or(1));
        let mut axes = Vec::new();
        let mut out_hw = Vec::new();
        for i in [s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1)] {
            let k = self.dice.range_u32(1, 3);
            let stride = self.dice.range_u32(1, 3);
            // out_pad > -K (ERROR_IF); negative values crop the output.
            let lo = -(i64::from(k) - 1);
            let mut pa = self.dice.range_i64(lo, 2);
            let mut pb = self.dice.range_i64(lo, 2);
            let mut o = (i64::from(i) - 1) * i64::from(stride) + pa + pb + i64::from(k);
            if o < 1 {
                (pa, pb) = (0, 0);
                o = (i64::from(i) - 1) * i64::from(stride) + i64::from(k);
            }
            if pa < 0 || pb < 0 {
                self.feature("transpose_conv2d:negative-out_pad");
            }
            axes.push((k, stride, pa, pb));
            out_hw.push(o as u32);
        }
        let mut oc = self.dice.range_u32(1, self.cfg.max_dim.clamp(1, 8));
        let w_shape = |oc: u32| vec![oc, axes[0].0, axes[1].0, ic];
        let out_count = |oc: u32| u64::from(batch) * elements(&out_hw) * u64::from(oc);
        while oc > 1 && (!self.fits(&w_shape(oc)) || out_count(oc) > self.cfg.max_tensor_elements) {
            oc -= 1;
        }
        if !self.fits(&w_shape(oc)) || out_count(oc) > self.cfg.max_tensor_elements {
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
                self.feature("fft2d:inverse");
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
