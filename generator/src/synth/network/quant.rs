//! Quantised (int8) network blocks: int8 convolutions and MATMULs into
//! int32 accumulators, RESCALE chains back to int8 (per-channel
//! multipliers, zero points, every rounding mode the extensions allow),
//! CLAMP and TABLE activations, residual ADDs in int32 between rescales,
//! concatenations of branches requantised to one zero point, and a head
//! that dequantises to floating point when the profiles allow.

use super::blocks::{Channels, ConvShape, Window};
use super::{BlockKind, Net, QInfo, Trunk};
use crate::datasets::IntConvSet;
use crate::synth::node::{Arg, NodeSpec};
use crate::synth::{elements, transfer, Synth};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::{RoundingMode, RowQualifier, TosaOp};

/// The quantised blocks, drawn with the weights of [`QuantBlock::weight`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QuantBlock {
    ConvAct,
    DepthwiseSeparable,
    Residual,
    Inception,
    TokenDense,
    Requantize,
    TableAct,
    Shuffle,
    LayoutRoundtrip,
    Downsample,
}

impl QuantBlock {
    const ALL: [QuantBlock; 10] = [
        QuantBlock::ConvAct,
        QuantBlock::DepthwiseSeparable,
        QuantBlock::Residual,
        QuantBlock::Inception,
        QuantBlock::TokenDense,
        QuantBlock::Requantize,
        QuantBlock::TableAct,
        QuantBlock::Shuffle,
        QuantBlock::LayoutRoundtrip,
        QuantBlock::Downsample,
    ];
}

impl BlockKind for QuantBlock {
    /// Most operators the block emits.
    fn max_ops(self) -> usize {
        match self {
            QuantBlock::ConvAct | QuantBlock::Shuffle | QuantBlock::Downsample => 3,
            QuantBlock::DepthwiseSeparable | QuantBlock::Inception => 6,
            QuantBlock::Residual => 10,
            QuantBlock::TokenDense => 5,
            QuantBlock::Requantize | QuantBlock::TableAct => 1,
            QuantBlock::LayoutRoundtrip => 4,
        }
    }

    /// How often the block is drawn, relative to the others.
    fn weight(self) -> u32 {
        match self {
            QuantBlock::ConvAct | QuantBlock::Residual => 4,
            QuantBlock::DepthwiseSeparable => 3,
            QuantBlock::Inception | QuantBlock::TokenDense => 2,
            QuantBlock::Requantize
            | QuantBlock::TableAct
            | QuantBlock::Shuffle
            | QuantBlock::LayoutRoundtrip
            | QuantBlock::Downsample => 1,
        }
    }
}

/// The spread an int8 tensor is requantised to: three of them span the
/// positive half of the type.
const TARGET_SPREAD: f64 = 127.0 / 3.0;

impl Synth<'_, '_> {
    /// The graph input (int8, or uint8 read through a RESCALE that
    /// subtracts 128, as quantised image models take it) and a first
    /// convolution block; with `test_sets`, the input and weights of that
    /// convolution are one of the conformance generator's extreme sets.
    pub(crate) fn quant_stem(&mut self, net: &mut Net) -> Option<usize> {
        let shape = self.input_shape(net);
        let win = self.stem_window(net, &shape)?;
        let oc = self.stem_channels(&shape, win);
        let count = elements(&shape) as usize;
        let set = if self.dice.chance(net.cfg.test_sets) { self.dice.pick(&IntConvSet::ALL).copied() } else { None };
        let uint8 =
            set.is_none() && self.dice.chance(0.3) && self.has_row(TosaOp::Rescale, &[ElemType::I8], ElemType::I8);
        let (bits, zp) = match set {
            Some(s) => {
                self.feature(format!("net:dataset=int-conv-{}", s.name()));
                (vec![i8_bits(s.input(ElemType::I8)); count], self.quant_zp())
            }
            // uint8 codes 0..=255, stored as the same eight bits.
            None if uint8 => (self.int_bits(count, 0, 255).into_iter().map(|b| i8_bits(b as i64)).collect(), 128),
            None => (self.int_bits(count, -128, 127), self.quant_zp()),
        };
        let x = self.net_leaf(ElemType::I8, &shape, &bits, true);
        let spread = rms_from(&bits, zp, uint8);
        net.quant.insert(x, QInfo { zp, spread });
        self.feature("net:block=stem");
        let x = if uint8 {
            self.feature("net:input=uint8");
            let y = self.net_rescale(net, x, ElemType::I8, &[1.0], (128, true), (0, false))?;
            net.quant.insert(y, QInfo { zp: 0, spread });
            y
        } else {
            x
        };
        let (acc, spread) = self.quant_conv(net, x, win, Channels::about(oc), set)?;
        let y = self.requantize(net, acc, spread, None)?;
        self.quant_act(net, y)
    }

    /// A zero point for an int8 tensor: 0, -128 (after a ReLU) or any.
    fn quant_zp(&mut self) -> i64 {
        if !self.dice.chance(self.cfg.probs.nonzero_zero_point) {
            return 0;
        }
        if self.dice.chance(0.5) {
            -128
        } else {
            self.dice.range_i64(-128, 127)
        }
    }

    /// An int8 CONV2D or DEPTHWISE_CONV2D into int32: the input's zero point,
    /// a weight zero point (rarely non-zero), weights spread over a third,
    /// half or all of the int8 range (or `set`'s), a bias inside the range
    /// that keeps the accumulator defined. The accumulator and its typical
    /// spread.
    pub(crate) fn quant_conv(
        &mut self,
        net: &mut Net,
        x: usize,
        win: Window,
        ch: Channels,
        set: Option<IntConvSet>,
    ) -> Option<(usize, f64)> {
        let depthwise = ch.depthwise;
        let op = if depthwise { TosaOp::DepthwiseConv2d } else { TosaOp::Conv2d };
        let row = self.net_row(op, &[ElemType::I8, ElemType::I8, ElemType::I32], ElemType::I32)?;
        let acc = Synth::row_acc_type(op, row).ok()?;
        let ConvShape { weight: w_shape, out_c, ks, macs } = self.conv_shape(net, x, win, ch)?;
        let xq = net.q(x);
        let wzp = if set.is_none() && self.dice.chance(self.cfg.probs.nonzero_zero_point * 0.3) {
            self.feature("net:weight-zero-point");
            self.dice.range_i64(-8, 8)
        } else {
            0
        };
        let count = elements(&w_shape) as usize;
        let wbits: Vec<u64> = match set {
            Some(set) => (0..count).map(|_| i8_bits(set.weight(ElemType::I8, &mut self.rng))).collect(),
            None => {
                let wmax = *self.dice.pick(&[127i64, 63, 31]).unwrap_or(&63);
                self.int_bits(count, -wmax, wmax)
            }
        };
        let w = self.net_weight(ElemType::I8, &w_shape, &wbits);
        let w_rms = rms_from(&wbits, wzp, false);
        let spread = ((ks as f64).sqrt() * xq.spread * w_rms).max(1.0);
        let bias_len = if self.dice.chance(0.2) { 1 } else { out_c };
        let domain = self.bias_domain(x, w, (xq.zp, wzp), ks, ElemType::I32);
        let (lo, hi) = match domain {
            crate::range::Domain::Int { lo, hi, .. } => (lo, hi),
            _ => (0, 0),
        };
        let b_mag = (spread / 4.0) as i64;
        let bbits = if set.is_some() || self.dice.chance(0.2) || lo > 0 || hi < 0 {
            vec![0u64; bias_len as usize]
        } else {
            self.int_bits(bias_len as usize, (-b_mag).max(lo), b_mag.min(hi))
        };
        let b = self.net_weight(ElemType::I32, &[bias_len], &bbits);
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Ints(win.pad.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.stride.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.dilation.map(i64::from).to_vec()));
        n.arg(Arg::U32(acc));
        n.arg(Arg::Bool(false));
        n.arg(Arg::Val(x));
        n.arg(Arg::Val(w));
        n.arg(Arg::Val(b));
        n.arg(Arg::Tensor(ElemType::I8, vec![xq.zp as u64]));
        n.arg(Arg::Tensor(ElemType::I8, vec![wzp as u64]));
        let y = self.net_emit(n)?;
        net.macs += macs;
        Some((y, spread))
    }

    /// RESCALE of `x` to `out` by `factors` (one, or one per channel):
    /// multiplier and shift per factor for the row's multiplier width, the
    /// shift raised until every REQUIRE of the operator holds on `x`'s
    /// range; a rounding mode the extensions allow. `input`/`output` are
    /// (zero point, unsigned).
    pub(crate) fn net_rescale(
        &mut self,
        net: &Net,
        x: usize,
        out: ElemType,
        factors: &[f64],
        input: (i64, bool),
        output: (i64, bool),
    ) -> Option<usize> {
        let in_e = self.value(x)?.elem;
        let row = self.net_row(TosaOp::Rescale, &[in_e], out)?;
        let r = Synth::row(TosaOp::Rescale, row).ok()?;
        let RowQualifier::Scale32(scale32) = r.qualifier else { return None };
        let mul_e = r.slot(2)?;
        let rounding = match net.rounding {
            RoundingMode::DoubleRound if !scale32 => RoundingMode::SingleRound,
            r => r,
        };
        let per_channel = factors.len() > 1;
        let pairs: Vec<(i64, i64)> = factors.iter().map(|&f| mult_shift(f, scale32)).collect();
        let shape = self.shape_of(x);
        let row_spec = Synth::row(TosaOp::Rescale, row).ok()?;
        // Raise every shift until the operator's REQUIREs hold on x's range
        // (the same check add_node makes, run first so nothing is dropped).
        for extra in 0..=60i64 {
            let mut n = NodeSpec::new(TosaOp::Rescale, row);
            n.arg(Arg::Bool(scale32));
            n.arg(Arg::U32(rounding.value()));
            n.arg(Arg::Bool(per_channel));
            n.arg(Arg::Bool(input.1));
            n.arg(Arg::Bool(output.1));
            n.arg(Arg::Val(x));
            n.arg(Arg::Tensor(mul_e, pairs.iter().map(|&(m, _)| m as u64).collect()));
            n.arg(Arg::Tensor(ElemType::I8, pairs.iter().map(|&(_, s)| (s + extra).min(62) as u64).collect()));
            n.arg(Arg::Tensor(in_e, vec![zp_bits(in_e, input.0)]));
            n.arg(Arg::Tensor(out, vec![zp_bits(out, output.0)]));
            if transfer::output_ranges(self, &n, row_spec, std::slice::from_ref(&shape)).is_ok() {
                self.op_feature(format!("rescale:rounding={}", rounding.name()));
                return self.net_emit(n);
            }
            if pairs.iter().all(|&(_, s)| s + extra >= 62) {
                break;
            }
        }
        None
    }

    /// Requantises an int32 accumulator of typical spread `spread` to int8
    /// (per-channel factors around the one mapping three spreads to 127);
    /// the output zero point `zp`, or one drawn.
    pub(crate) fn requantize(&mut self, net: &mut Net, acc: usize, spread: f64, zp: Option<i64>) -> Option<usize> {
        let c = self.shape_of(acc).last().copied().unwrap_or(1);
        let f = TARGET_SPREAD / spread.max(1.0);
        let factors: Vec<f64> = if c > 1 && self.dice.chance(0.5) {
            (0..c).map(|_| f * (0.7 + 0.7 * self.rng.unit())).collect()
        } else {
            vec![f]
        };
        let ozp = match zp {
            Some(z) => z,
            None => self.quant_zp(),
        };
        let y = self.net_rescale(net, acc, ElemType::I8, &factors, (0, false), (ozp, false))?;
        net.quant.insert(y, QInfo { zp: ozp, spread: TARGET_SPREAD });
        Some(y)
    }

    /// An int8 activation: CLAMP from the zero point (ReLU) to 127 or to a
    /// lower cap (ReLU6-like), a TABLE lookup of tanh or sigmoid, or none.
    pub(crate) fn quant_act(&mut self, net: &mut Net, x: usize) -> Option<usize> {
        let q = net.q(x);
        match self.dice.below(4) {
            0 | 1 if self.ops.contains(&TosaOp::Clamp) => {
                let hi = if self.dice.chance(0.5) { 127 } else { (q.zp + self.dice.range_i64(32, 127)).min(127) };
                let lo = q.zp.min(hi);
                self.feature("net:act=relu-i8");
                let row = self.net_row(TosaOp::Clamp, &[ElemType::I8], ElemType::I8)?;
                let mut n = NodeSpec::new(TosaOp::Clamp, row);
                n.arg(Arg::Scalar(ElemType::I8, lo as u64));
                n.arg(Arg::Scalar(ElemType::I8, hi as u64));
                n.arg(Arg::U32(self.nan_mode()));
                n.arg(Arg::Val(x));
                let y = self.net_emit(n)?;
                net.quant.insert(y, QInfo { zp: q.zp, spread: q.spread * 0.7 });
                Some(y)
            }
            2 if self.has_row(TosaOp::Table, &[ElemType::I8], ElemType::I8) => self.table_act(net, x),
            _ => Some(x),
        }
    }

    /// A TABLE of tanh (output zero point 0) or sigmoid (output zero point
    /// -128) over the input's dequantised range, as converters build it.
    fn table_act(&mut self, net: &mut Net, x: usize) -> Option<usize> {
        let q = net.q(x);
        let sigmoid = self.dice.chance(0.5);
        self.feature(if sigmoid { "net:act=sigmoid-table" } else { "net:act=tanh-table" });
        // Three spreads of input span about [-4, 4].
        let scale = 4.0 / (3.0 * q.spread.max(1.0));
        let table: Vec<u64> = (-128i64..=127)
            .map(|i| {
                let v = (i - q.zp) as f64 * scale;
                let out = if sigmoid { 256.0 / (1.0 + (-v).exp()) - 128.0 } else { 127.0 * v.tanh() };
                (out.round().clamp(-128.0, 127.0) as i64) as u64
            })
            .collect();
        let row = self.net_row(TosaOp::Table, &[ElemType::I8], ElemType::I8)?;
        let mut n = NodeSpec::new(TosaOp::Table, row);
        n.arg(Arg::Val(x));
        n.arg(Arg::Tensor(ElemType::I8, table));
        let y = self.net_emit(n)?;
        let zp = if sigmoid { -128 } else { 0 };
        net.quant.insert(y, QInfo { zp, spread: 64.0 });
        Some(y)
    }

    /// A "same" int8 convolution block: convolution (channels `ch`),
    /// requantisation, activation.
    pub(crate) fn quant_conv_block(
        &mut self,
        net: &mut Net,
        x: usize,
        k: u32,
        stride: u32,
        ch: Channels,
    ) -> Option<usize> {
        let s = self.shape_of(x);
        let win = self.conv_window(&s, k, stride, 1, true, 0);
        let (acc, spread) = self.quant_conv(net, x, win, ch, None)?;
        let y = self.requantize(net, acc, spread, None)?;
        self.quant_act(net, y)
    }

    /// One quantised block on the trunk `t`.
    pub(crate) fn quant_block(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let block = self.draw_block(QuantBlock::ALL)?;
        let Trunk { shape: s, channels: c, wider } = self.trunk(net, t);
        match block {
            QuantBlock::ConvAct => {
                self.feature("net:block=conv");
                if self.dice.chance(net.cfg.wide_convolution) {
                    let win = self.wide_window(&s);
                    let (acc, spread) = self.quant_conv(net, t, win, Channels::about(wider), None)?;
                    let y = self.requantize(net, acc, spread, None)?;
                    return self.quant_act(net, y);
                }
                let k = *self.dice.pick(&[1u32, 3, 3, 5]).unwrap_or(&3);
                self.quant_conv_block(net, t, k, 1, Channels::about(wider))
            }
            QuantBlock::DepthwiseSeparable => {
                self.feature("net:block=depthwise-separable");
                let stride = if self.dice.chance(0.3) { 2 } else { 1 };
                let d = self.quant_conv_block(net, t, 3, stride, Channels::depthwise())?;
                self.quant_conv_block(net, d, 1, 1, Channels::about(wider))
            }
            QuantBlock::Residual => self.quant_residual(net, t),
            QuantBlock::Inception => {
                self.feature("net:block=inception");
                let part = (c / 2).clamp(8, 64);
                let zp = self.quant_zp();
                let mut parts = Vec::new();
                for k in [1u32, 3] {
                    let win = self.conv_window(&s, k, 1, 1, true, 0);
                    let (acc, spread) = self.quant_conv(net, t, win, Channels::about(part), None)?;
                    parts.push(self.requantize(net, acc, spread, Some(zp))?);
                }
                let y = self.net_concat(&parts, 3)?;
                net.quant.insert(y, QInfo { zp, spread: TARGET_SPREAD });
                self.quant_act(net, y)
            }
            QuantBlock::TokenDense => {
                let [n, h, w, c] = s.as_slice() else { return None };
                let (n, h, w, c) = (*n, *h, *w, *c);
                self.feature("net:block=token-dense");
                let x = self.net_reshape(t, &[n, h * w, c])?;
                self.keep_quant(net, t, x);
                let y = self.quant_dense(net, x, wider, true)?;
                let back = self.net_reshape(y, &[n, h, w, wider])?;
                self.keep_quant(net, y, back);
                Some(back)
            }
            QuantBlock::Requantize => {
                self.feature("net:block=requantize");
                let q = net.q(t);
                let f = 0.5 + 1.5 * self.rng.unit();
                let ozp = self.quant_zp();
                let y = self.net_rescale(net, t, ElemType::I8, &[f], (q.zp, false), (ozp, false))?;
                net.quant.insert(y, QInfo { zp: ozp, spread: q.spread * f });
                Some(y)
            }
            QuantBlock::TableAct => self.table_act(net, t),
            QuantBlock::Shuffle => self.channel_shuffle(net, t),
            QuantBlock::LayoutRoundtrip => self.layout_roundtrip(net, t),
            QuantBlock::Downsample => self.downsample(net, t),
        }
    }

    /// A residual block in int8: two convolutions, both branches rescaled
    /// into int32 at a common scale (2^10 per spread unit), ADD, RESCALE
    /// back to int8.
    fn quant_residual(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        if !self.has_row(TosaOp::Add, &[ElemType::I32, ElemType::I32], ElemType::I32) {
            return None;
        }
        self.feature("net:block=residual");
        let c = self.shape_of(t).get(3).copied().unwrap_or(1);
        let a = self.quant_conv_block(net, t, 3, 1, Channels::about(c))?;
        let win = self.conv_window(&self.shape_of(a), 3, 1, 1, true, 0);
        let (acc, spread) = self.quant_conv(net, a, win, Channels::exactly(c), None)?;
        let b = self.requantize(net, acc, spread, None)?;
        let up = 1024.0;
        let (qa, qb) = (net.q(t), net.q(b));
        let ta = self.net_rescale(
            net,
            t,
            ElemType::I32,
            &[up * TARGET_SPREAD / qa.spread.max(1.0)],
            (qa.zp, false),
            (0, false),
        )?;
        let tb = self.net_rescale(
            net,
            b,
            ElemType::I32,
            &[up * TARGET_SPREAD / qb.spread.max(1.0)],
            (qb.zp, false),
            (0, false),
        )?;
        let sum = self.net_binary(TosaOp::Add, ta, tb)?;
        let y = self.requantize(net, sum, up * TARGET_SPREAD * std::f64::consts::SQRT_2, None)?;
        self.quant_act(net, y)
    }

    /// A dense layer on int8 tokens `[N, T, C]`: MATMUL by int8 weights into
    /// int32 (both zero points), requantised, and (`act`) an activation.
    pub(crate) fn quant_dense(&mut self, net: &mut Net, x: usize, width: u32, act: bool) -> Option<usize> {
        let s = self.shape_of(x);
        let (n, tokens, c) =
            (s.first().copied().unwrap_or(1), s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        let row = self.net_row(TosaOp::Matmul, &[ElemType::I8, ElemType::I8], ElemType::I32)?;
        let macs = u64::from(n) * u64::from(tokens) * u64::from(c) * u64::from(width);
        let out = u64::from(n) * u64::from(tokens) * u64::from(width);
        if out > self.cfg.max_tensor_elements
            || !self.room(2 * out + u64::from(n * c * width))
            || !self.mac_room(net, macs)
        {
            return None;
        }
        let xq = net.q(x);
        let w_shape = [n, c, width];
        let wmax = *self.dice.pick(&[127i64, 63, 31]).unwrap_or(&63);
        let wbits = self.int_bits(elements(&w_shape) as usize, -wmax, wmax);
        let w_rms = rms_from(&wbits, 0, false);
        let w = self.net_weight(ElemType::I8, &w_shape, &wbits);
        let mut m = NodeSpec::new(TosaOp::Matmul, row);
        m.arg(Arg::Val(x));
        m.arg(Arg::Val(w));
        m.arg(Arg::Tensor(ElemType::I8, vec![xq.zp as u64]));
        m.arg(Arg::Tensor(ElemType::I8, vec![0]));
        let acc = self.net_emit(m)?;
        net.macs += macs;
        let spread = (f64::from(c).sqrt() * xq.spread * w_rms).max(1.0);
        let y = self.requantize(net, acc, spread, None)?;
        if act {
            self.quant_act(net, y)
        } else {
            Some(y)
        }
    }

    /// `[N, H, W, C]` to `[N, 1, 1, C]` in int8: a whole-image AVG_POOL2D
    /// (zero points kept) or a global REDUCE_MAX.
    pub(crate) fn quant_global_pool(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let s = self.shape_of(t);
        let (h, w) = (s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        if self.dice.chance(0.7) && h <= 8192 && w <= 8192 {
            let win = Window { k: [h, w], stride: [1, 1], dilation: [1, 1], pad: [0; 4] };
            if let Some(v) = self.net_avg_pool(net, t, win) {
                return Some(v);
            }
        }
        let a = self.net_reduce(TosaOp::ReduceMax, t, 1)?;
        let b = self.net_reduce(TosaOp::ReduceMax, a, 2)?;
        self.keep_quant(net, t, b);
        Some(b)
    }

    /// The int8 logits: dequantised (CAST to fp32, SUB the zero point, MUL
    /// by the scale) and through a softmax when the floating-point
    /// operators are there, else rescaled to uint8 output codes.
    pub(crate) fn quant_output(&mut self, net: &mut Net, logits: usize) -> Option<usize> {
        let q = net.q(logits);
        let fp = ElemType::Fp32;
        let float_ok = self.has_row(TosaOp::Cast, &[ElemType::I8], fp)
            && [TosaOp::Sub, TosaOp::Mul, TosaOp::Exp, TosaOp::ReduceMax, TosaOp::ReduceSum, TosaOp::Reciprocal]
                .iter()
                .all(|op| self.ops.contains(op))
            && self.has_row(TosaOp::Sub, &[fp, fp], fp);
        if float_ok {
            self.feature("net:dequantize");
            let f = self.net_unary(TosaOp::Cast, logits, fp)?;
            let zp = self.net_scalar(fp, 3, q.zp as f64);
            let d = self.net_binary(TosaOp::Sub, f, zp)?;
            let scale = self.net_scalar(fp, 3, 4.0 / (3.0 * q.spread.max(1.0)));
            let y = self.net_mul(d, scale)?;
            return self.softmax(y, 2);
        }
        self.feature("net:output=uint8");
        self.net_rescale(net, logits, ElemType::I8, &[1.0], (q.zp, false), (128, true))
    }
}

/// A RESCALE multiplier and shift for `factor`: the multiplier in the top
/// half of its width (2^30..2^31 for 32 bits, 2^14..2^15 for 16), the shift
/// that makes `multiplier / 2^shift` the factor, within 2..=62.
fn mult_shift(factor: f64, scale32: bool) -> (i64, i64) {
    let top = if scale32 { (1i64 << 30) as f64 } else { (1i64 << 14) as f64 };
    let f = if factor.is_finite() && factor > 0.0 { factor } else { 1.0 };
    let s = ((top / f).log2().ceil() as i64).clamp(2, 62);
    let m = (f * 2f64.powi(s as i32)).round().clamp(1.0, 2.0 * top - 1.0) as i64;
    (m, s)
}

/// An int8 value (or code 0..=255) as sign-extended int8 bits, the
/// generator's encoding of int8 data.
fn i8_bits(v: i64) -> u64 {
    (v as u8 as i8 as i64) as u64
}

/// A zero point's bits in `elem` (int8 ones sign-extended).
fn zp_bits(elem: ElemType, v: i64) -> u64 {
    if elem == ElemType::I8 {
        i8_bits(v)
    } else {
        v as u64
    }
}

/// The root-mean-square distance of int8 `bits` from `zp` (read as
/// unsigned codes when `unsigned`).
fn rms_from(bits: &[u64], zp: i64, unsigned: bool) -> f64 {
    if bits.is_empty() {
        return 1.0;
    }
    let sum: f64 = bits
        .iter()
        .map(|&b| {
            let v = if unsigned { (b & 0xff) as i64 } else { b as u8 as i8 as i64 };
            let d = (v - zp) as f64;
            d * d
        })
        .sum();
    (sum / bits.len() as f64).sqrt().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipliers_represent_their_factor() {
        for (f, wide) in [(0.001, true), (0.37, true), (1.0, true), (1024.0, true), (0.01, false), (3.0, false)] {
            let (m, s) = mult_shift(f, wide);
            let got = m as f64 / 2f64.powi(s as i32);
            assert!((got / f - 1.0).abs() < 1e-3, "{f}: {m}/2^{s} = {got}");
            assert!((2..=62).contains(&s));
            assert!(m < if wide { 1 << 31 } else { 1 << 15 });
        }
    }

    #[test]
    fn spread_is_measured_from_the_zero_point() {
        assert_eq!(rms_from(&[3u64, (-3i64) as u64], 0, false), 3.0);
        assert_eq!(rms_from(&[200, 200], 128, true), 72.0);
    }
}
