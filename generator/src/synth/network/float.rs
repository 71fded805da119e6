//! Floating-point network blocks: convolutions with fan-in-scaled weights
//! (or the conformance dot-product data sets), activations, residual and
//! inception blocks, normalisation chains, squeeze-excitation, token MLPs
//! and attention, the classifier head.

use super::blocks::{Channels, ConvShape, Window};
use super::{BlockKind, Net, Trunk};
use crate::datasets::{self, DotPlan, DotRole, DotSet};
use crate::floats;
use crate::range::Range;
use crate::synth::node::{Arg, NodeSpec};
use crate::synth::{elements, Synth};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::{AccType, ResizeMode, TosaOp};

/// The floating-point blocks, drawn with the weights of [`FloatBlock::weight`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FloatBlock {
    ConvAct,
    DepthwiseSeparable,
    Residual,
    Bottleneck,
    Inception,
    LayerNorm,
    Affine,
    SqueezeExcite,
    TokenMlp,
    Attention,
    Hourglass,
    PadConv,
    Shuffle,
    LayoutRoundtrip,
    Downsample,
    MixedPrecision,
}

impl FloatBlock {
    const ALL: [FloatBlock; 16] = [
        FloatBlock::ConvAct,
        FloatBlock::DepthwiseSeparable,
        FloatBlock::Residual,
        FloatBlock::Bottleneck,
        FloatBlock::Inception,
        FloatBlock::LayerNorm,
        FloatBlock::Affine,
        FloatBlock::SqueezeExcite,
        FloatBlock::TokenMlp,
        FloatBlock::Attention,
        FloatBlock::Hourglass,
        FloatBlock::PadConv,
        FloatBlock::Shuffle,
        FloatBlock::LayoutRoundtrip,
        FloatBlock::Downsample,
        FloatBlock::MixedPrecision,
    ];
}

impl BlockKind for FloatBlock {
    /// Most operators the block emits.
    fn max_ops(self) -> usize {
        match self {
            FloatBlock::ConvAct | FloatBlock::Downsample => 6,
            FloatBlock::DepthwiseSeparable | FloatBlock::SqueezeExcite => 12,
            FloatBlock::Residual | FloatBlock::Hourglass => 15,
            FloatBlock::Bottleneck => 19,
            FloatBlock::Inception => 26,
            FloatBlock::LayerNorm => 16,
            FloatBlock::Affine | FloatBlock::PadConv => 7,
            FloatBlock::TokenMlp => 22,
            FloatBlock::Attention => 60,
            FloatBlock::Shuffle => 3,
            FloatBlock::LayoutRoundtrip => 4,
            FloatBlock::MixedPrecision => 2,
        }
    }

    /// How often the block is drawn, relative to the others.
    fn weight(self) -> u32 {
        match self {
            FloatBlock::ConvAct | FloatBlock::Residual => 4,
            FloatBlock::DepthwiseSeparable => 3,
            FloatBlock::Bottleneck | FloatBlock::Inception | FloatBlock::LayerNorm | FloatBlock::TokenMlp => 2,
            FloatBlock::Affine
            | FloatBlock::SqueezeExcite
            | FloatBlock::Attention
            | FloatBlock::Hourglass
            | FloatBlock::PadConv
            | FloatBlock::Shuffle
            | FloatBlock::LayoutRoundtrip
            | FloatBlock::Downsample
            | FloatBlock::MixedPrecision => 1,
        }
    }
}

/// Activation functions, as networks write them in TOSA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Relu,
    Relu6,
    Clip,
    Sigmoid,
    Tanh,
    Gelu,
    Swish,
    HardSwish,
    HardSigmoid,
    Leaky,
}

impl Act {
    const ALL: [Act; 10] = [
        Act::Relu,
        Act::Relu6,
        Act::Clip,
        Act::Sigmoid,
        Act::Tanh,
        Act::Gelu,
        Act::Swish,
        Act::HardSwish,
        Act::HardSigmoid,
        Act::Leaky,
    ];

    /// Whether the result is bounded whatever the input (so a huge or
    /// infinite input range ends here).
    fn bounded(self) -> bool {
        match self {
            Act::Relu6 | Act::Clip | Act::Sigmoid | Act::Tanh | Act::HardSigmoid => true,
            Act::Relu | Act::Gelu | Act::Swish | Act::HardSwish | Act::Leaky => false,
        }
    }

    /// The operators it needs.
    fn ops(self) -> &'static [TosaOp] {
        match self {
            Act::Relu | Act::Relu6 | Act::Clip => &[TosaOp::Clamp],
            Act::Sigmoid => &[TosaOp::Sigmoid],
            Act::Tanh => &[TosaOp::Tanh],
            Act::Gelu => &[TosaOp::Mul, TosaOp::Erf, TosaOp::Add],
            Act::Swish => &[TosaOp::Sigmoid, TosaOp::Mul],
            Act::HardSwish => &[TosaOp::Add, TosaOp::Clamp, TosaOp::Mul],
            Act::HardSigmoid => &[TosaOp::Mul, TosaOp::Add, TosaOp::Clamp],
            Act::Leaky => &[TosaOp::Mul, TosaOp::Maximum],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Act::Relu => "relu",
            Act::Relu6 => "relu6",
            Act::Clip => "clip",
            Act::Sigmoid => "sigmoid",
            Act::Tanh => "tanh",
            Act::Gelu => "gelu",
            Act::Swish => "swish",
            Act::HardSwish => "hard-swish",
            Act::HardSigmoid => "hard-sigmoid",
            Act::Leaky => "leaky-relu",
        }
    }
}

impl Synth<'_, '_> {
    /// The graph input and the first convolution: an image-like NHWC input
    /// of 10^5 or more elements (as the budget allows), a 3x3 to 7x7
    /// convolution (or a patchify one, kernel = stride), an activation.
    pub(crate) fn float_stem(&mut self, net: &mut Net) -> Option<usize> {
        let e = net.elem();
        let shape = self.input_shape(net);
        let win = self.stem_window(net, &shape)?;
        let oc = self.stem_channels(&shape, win);
        // The input itself, image-like or a conformance data set (with the weights).
        let count = elements(&shape) as usize;
        let plan = self.dot_plan(net, true);
        let bits = match plan {
            Some(p) => {
                let (kh, kw) = (win.k[0], win.k[1]);
                let ks = u64::from(kh * kw * shape[3]);
                let values = datasets::dot_values(
                    &p,
                    DotRole::Input,
                    ks,
                    count,
                    |t| datasets::conv_input_k(t, &shape, kh, kw),
                    &mut self.rng,
                );
                datasets::encode_all(e, &values)
            }
            None => {
                let (lo, hi) = *self.dice.pick(&[(0.0, 1.0), (-1.0, 1.0), (-2.5, 2.5)]).unwrap_or(&(0.0, 1.0));
                self.uniform_bits(e, count, lo, hi)
            }
        };
        let x = self.net_leaf(e, &shape, &bits, true);
        self.feature("net:block=stem");
        let (y, large) = self.float_conv(net, x, win, Channels::about(oc), plan)?;
        self.float_act(y, large)
    }

    /// The graph input's NHWC shape: elements drawn log-uniformly between
    /// the configured bounds, lowered so that the graph's operators fit its
    /// element budget.
    pub(crate) fn input_shape(&mut self, net: &Net) -> Vec<u32> {
        let lo = net.cfg.min_input_elements.max(64);
        // The input, the stem and a few blocks at that size fit the graph's
        // elements; the rest of the budget goes to the other operators.
        let per_op = self.cfg.max_graph_elements.saturating_mul(3) / (net.target.max(1) as u64);
        let hi = net
            .cfg
            .max_input_elements
            .min(self.cfg.max_tensor_elements)
            .min(per_op)
            .min(self.cfg.max_graph_elements / 8)
            .max(lo);
        let u = self.rng.unit();
        let count = (lo as f64 * (hi as f64 / lo as f64).powf(u)) as u64;
        let n = self.dice.pick_or(&[1u32, 1, 1, 2, 4], 1);
        let c = self.dice.pick_or(&[1u32, 3, 3, 4, 8, 16], 3);
        let hw = count.div_ceil(u64::from(n * c)).max(64);
        let aspect = 0.5 + 1.5 * self.rng.unit();
        let h = ((hw as f64 * aspect).sqrt().ceil() as u32).clamp(8, 8192);
        let w = (hw.div_ceil(u64::from(h)) as u32).clamp(8, 8192);
        vec![n, h, w, c]
    }

    /// A window with wide attributes: a patchify stem (kernel = stride, no
    /// padding), a large stride, a dilation, or paddings beyond "same".
    pub(crate) fn wide_window(&mut self, shape: &[u32]) -> Window {
        let small = shape.get(1).copied().unwrap_or(1).min(shape.get(2).copied().unwrap_or(1));
        match self.dice.below(4) {
            0 if small >= 16 => {
                let p = *self.dice.pick(&[4u32, 8, 16]).unwrap_or(&4);
                self.feature("net:wide=patchify");
                self.conv_window(shape, p.min(small), p.min(small), 1, false, 0)
            }
            1 => {
                self.feature("net:wide=stride");
                let k = *self.dice.pick(&[3u32, 5, 7]).unwrap_or(&3);
                let s = self.dice.range_u32(3, 8);
                self.conv_window(shape, k, s, 1, true, 0)
            }
            2 => {
                self.feature("net:wide=dilation");
                let d = self.dice.range_u32(2, 4);
                self.conv_window(shape, 3, 1, d, true, 0)
            }
            _ => {
                self.feature("net:wide=padding");
                let k = *self.dice.pick(&[3u32, 5]).unwrap_or(&3);
                self.conv_window(shape, k, 1, 1, true, k * 2)
            }
        }
    }

    /// Whether the next dot product draws a conformance data set, and which.
    /// `inputs_too`: the data operand is a fresh graph input the set also
    /// fills (the stem); otherwise only weights and bias follow it.
    pub(crate) fn dot_plan(&mut self, net: &Net, inputs_too: bool) -> Option<DotPlan> {
        if !self.dice.chance(net.cfg.test_sets) {
            return None;
        }
        let set = *self.dice.pick(&DotSet::ALL)?;
        // Large sets need a bounded activation right after.
        if set.large() && !self.ops.contains(&TosaOp::Clamp) && !self.ops.contains(&TosaOp::Sigmoid) {
            return None;
        }
        let e = net.elem();
        let shared = self.rng.next_u64();
        self.feature(format!("net:dataset=dot-s{}{}", set.number(), if inputs_too { "" } else { "-weights" }));
        Some(DotPlan { set, shared, inputs_too, bound: datasets::dot_bound(e, ElemType::Fp32, e) })
    }

    /// CONV2D (or DEPTHWISE_CONV2D with channel multiplier `oc`) of `x`
    /// over `win`: He-uniform weights and a small bias, or `plan`'s data
    /// set; the result, and whether it holds values near the type's range
    /// (then a bounded activation must follow).
    pub(crate) fn float_conv(
        &mut self,
        net: &mut Net,
        x: usize,
        win: Window,
        ch: Channels,
        plan: Option<DotPlan>,
    ) -> Option<(usize, bool)> {
        let depthwise = ch.depthwise;
        let e = net.elem();
        let op = if depthwise { TosaOp::DepthwiseConv2d } else { TosaOp::Conv2d };
        let row = self.net_row(op, &[e, e, e], e)?;
        let acc = Synth::row_acc_type(op, row).ok()?;
        let acc_elem = if AccType::from_u32(acc) == Some(AccType::Fp16) { ElemType::Fp16 } else { ElemType::Fp32 };
        let ConvShape { weight: w_shape, out_c, ks, macs } = self.conv_shape(net, x, win, ch)?;
        let w_count = elements(&w_shape) as usize;
        let bias_len = if self.dice.chance(0.2) { 1 } else { out_c };
        let (w_values, b_values, large) = match plan {
            Some(p) => {
                let p = DotPlan { bound: datasets::dot_bound(e, acc_elem, e), ..p };
                let ws = w_shape.clone();
                let k_of = move |t: usize| {
                    if depthwise {
                        datasets::depthwise_weight_k(t, &ws)
                    } else {
                        datasets::conv_weight_k(t, &ws)
                    }
                };
                let mut w = datasets::dot_values(&p, DotRole::Weight, ks, w_count, k_of, &mut self.rng);
                let mut b = datasets::dot_values(&p, DotRole::Bias, ks, bias_len as usize, |_| 0, &mut self.rng);
                if !p.inputs_too {
                    // The data operand is computed: scale the set so the
                    // sum stays finite for the input's whole range.
                    let xm = self.range_of(x).float_magnitude();
                    if !xm.is_finite() {
                        return None;
                    }
                    let max = floats::max_finite(e);
                    scale_to(&mut w, max / (4.0 * ks as f64 * xm.max(1.0)));
                    scale_to(&mut b, max / 4.0);
                }
                (w, b, p.set.large())
            }
            None => {
                let a = (6.0 / ks as f64).sqrt();
                let w: Vec<f64> = (0..w_count).map(|_| a * (2.0 * self.rng.unit() - 1.0)).collect();
                let zero_bias = self.dice.chance(0.2);
                let b: Vec<f64> =
                    (0..bias_len).map(|_| if zero_bias { 0.0 } else { 0.1 * (2.0 * self.rng.unit() - 1.0) }).collect();
                (w, b, false)
            }
        };
        let w = self.net_weight(e, &w_shape, &datasets::encode_all(e, &w_values));
        let b = self.net_weight(e, &[bias_len], &datasets::encode_all(e, &b_values));
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Ints(win.pad.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.stride.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.dilation.map(i64::from).to_vec()));
        n.arg(Arg::U32(acc));
        n.arg(Arg::Bool(self.dice.chance(0.2)));
        n.arg(Arg::Val(x));
        n.arg(Arg::Val(w));
        n.arg(Arg::Val(b));
        n.arg(Arg::Tensor(e, vec![0]));
        n.arg(Arg::Tensor(e, vec![0]));
        let y = self.net_emit(n)?;
        net.macs += macs;
        Some((y, large))
    }

    /// A "same" convolution (`k`, `stride`, `oc` channels, or fewer to fit
    /// the budgets unless `exact`) and an activation.
    pub(crate) fn float_conv_act(
        &mut self,
        net: &mut Net,
        x: usize,
        k: u32,
        stride: u32,
        ch: Channels,
    ) -> Option<usize> {
        let s = self.shape_of(x);
        let win = self.conv_window(&s, k, stride, 1, true, 0);
        let plan = self.dot_plan(net, false);
        let (y, large) = self.float_conv(net, x, win, ch, plan)?;
        self.float_act(y, large)
    }

    /// An activation on `x`: bounded when `bounded` or when `x`'s range is
    /// too wide for the next operators (a huge interval bound, or one that
    /// may hold NaN); `x` itself when no activation can be built.
    pub(crate) fn float_act(&mut self, x: usize, bounded: bool) -> Option<usize> {
        let e = self.value(x)?.elem;
        let r = self.range_of(x);
        let bounded = bounded || needs_bound(r, e);
        let acts: Vec<Act> = Act::ALL
            .into_iter()
            .filter(|a| !bounded || a.bounded())
            .filter(|a| a.ops().iter().all(|op| self.ops.contains(op)))
            .collect();
        let Some(&act) = self.dice.pick(&acts) else { return Some(x) };
        self.feature(format!("net:act={}", act.name()));
        let rank = self.shape_of(x).len();
        let max = floats::max_finite(e);
        match act {
            Act::Relu => self.net_clamp(x, 0.0, max),
            Act::Relu6 => self.net_clamp(x, 0.0, 6.0),
            Act::Clip => {
                let c = *self.dice.pick(&[1.0, 3.0, 8.0]).unwrap_or(&1.0);
                self.net_clamp(x, -c, c)
            }
            Act::Sigmoid => self.net_unary(TosaOp::Sigmoid, x, e),
            Act::Tanh => self.net_unary(TosaOp::Tanh, x, e),
            Act::Gelu => {
                let c = self.net_scalar(e, rank, std::f64::consts::FRAC_1_SQRT_2);
                let a = self.net_mul(x, c)?;
                let b = self.net_unary(TosaOp::Erf, a, e)?;
                let one = self.net_scalar(e, rank, 1.0);
                let c1 = self.net_binary(TosaOp::Add, b, one)?;
                let d = self.net_mul(x, c1)?;
                let half = self.net_scalar(e, rank, 0.5);
                self.net_mul(d, half)
            }
            Act::Swish => {
                let s = self.net_unary(TosaOp::Sigmoid, x, e)?;
                self.net_mul(x, s)
            }
            Act::HardSwish => {
                let three = self.net_scalar(e, rank, 3.0);
                let a = self.net_binary(TosaOp::Add, x, three)?;
                let b = self.net_clamp(a, 0.0, 6.0)?;
                let c = self.net_mul(x, b)?;
                let sixth = self.net_scalar(e, rank, 1.0 / 6.0);
                self.net_mul(c, sixth)
            }
            Act::HardSigmoid => {
                let sixth = self.net_scalar(e, rank, 1.0 / 6.0);
                let a = self.net_mul(x, sixth)?;
                let half = self.net_scalar(e, rank, 0.5);
                let b = self.net_binary(TosaOp::Add, a, half)?;
                self.net_clamp(b, 0.0, 1.0)
            }
            Act::Leaky => {
                let slope = self.dice.pick_or(&[0.01, 0.1, 0.2], 0.1);
                let alpha = self.net_scalar(e, rank, slope);
                let a = self.net_mul(x, alpha)?;
                self.net_minmax(TosaOp::Maximum, x, a)
            }
        }
    }

    /// CLAMP of `x` to `[lo, hi]`.
    pub(crate) fn net_clamp(&mut self, x: usize, lo: f64, hi: f64) -> Option<usize> {
        let e = self.value(x)?.elem;
        let row = self.net_row(TosaOp::Clamp, &[e], e)?;
        let mut n = NodeSpec::new(TosaOp::Clamp, row);
        n.arg(Arg::Scalar(e, floats::encode(e, lo)));
        n.arg(Arg::Scalar(e, floats::encode(e, hi)));
        n.arg(Arg::U32(self.nan_mode()));
        n.arg(Arg::Val(x));
        self.net_emit(n)
    }

    /// One floating-point block on the trunk `t`.
    pub(crate) fn float_block(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let block = self.draw_block(FloatBlock::ALL)?;
        let Trunk { shape: s, channels: c, wider } = self.trunk(net, t);
        match block {
            FloatBlock::ConvAct => {
                self.feature("net:block=conv");
                if self.dice.chance(net.cfg.wide_convolution) {
                    let win = self.wide_window(&s);
                    let plan = self.dot_plan(net, false);
                    let (y, large) = self.float_conv(net, t, win, Channels::about(wider), plan)?;
                    return self.float_act(y, large);
                }
                let k = *self.dice.pick(&[1u32, 3, 3, 5]).unwrap_or(&3);
                self.float_conv_act(net, t, k, 1, Channels::about(wider))
            }
            FloatBlock::DepthwiseSeparable => {
                self.feature("net:block=depthwise-separable");
                let stride = if self.dice.chance(0.3) { 2 } else { 1 };
                let win = self.conv_window(&s, 3, stride, 1, true, 0);
                let (d, large) = self.float_conv(net, t, win, Channels::depthwise(), None)?;
                let a = self.float_act(d, large)?;
                self.float_conv_act(net, a, 1, 1, Channels::about(wider))
            }
            FloatBlock::Residual => {
                self.feature("net:block=residual");
                let a = self.float_conv_act(net, t, 3, 1, Channels::about(c))?;
                let win = self.conv_window(&s, 3, 1, 1, true, 0);
                let (b, _) = self.float_conv(net, a, win, Channels::exactly(c), None)?;
                let b = if self.dice.chance(0.5) { self.float_affine(b)? } else { b };
                let sum = self.net_binary(TosaOp::Add, t, b)?;
                self.float_act(sum, false)
            }
            FloatBlock::Bottleneck => {
                self.feature("net:block=bottleneck");
                let mid = (c / 4).max(8);
                let a = self.float_conv_act(net, t, 1, 1, Channels::about(mid))?;
                let b = self.float_conv_act(net, a, 3, 1, Channels::about(mid))?;
                let win = self.conv_window(&self.shape_of(b), 1, 1, 1, true, 0);
                let (d, _) = self.float_conv(net, b, win, Channels::exactly(c), None)?;
                let sum = self.net_binary(TosaOp::Add, t, d)?;
                self.float_act(sum, false)
            }
            FloatBlock::Inception => self.float_inception(net, t),
            FloatBlock::LayerNorm => self.layer_norm(t),
            FloatBlock::Affine => {
                self.feature("net:block=affine");
                let y = self.float_affine(t)?;
                self.float_act(y, false)
            }
            FloatBlock::SqueezeExcite => self.squeeze_excite(net, t),
            FloatBlock::TokenMlp => self.token_mlp(net, t),
            FloatBlock::Attention => self.attention(net, t),
            FloatBlock::Hourglass => self.hourglass(net, t),
            FloatBlock::PadConv => self.pad_conv(net, t),
            FloatBlock::Shuffle => self.channel_shuffle(net, t),
            FloatBlock::LayoutRoundtrip => self.layout_roundtrip(net, t),
            FloatBlock::Downsample => self.downsample(net, t),
            FloatBlock::MixedPrecision => self.mixed_precision(t),
        }
    }

    /// Per-channel scale and shift (batch normalisation folded for
    /// inference): MUL by `[1, 1, 1, C]`, ADD `[1, 1, 1, C]`.
    fn float_affine(&mut self, x: usize) -> Option<usize> {
        let e = self.value(x)?.elem;
        let s = self.shape_of(x);
        let c = s.last().copied().unwrap_or(1);
        let mut shape = vec![1; s.len()];
        if let Some(l) = shape.last_mut() {
            *l = c;
        }
        let g = self.uniform_bits(e, c as usize, 0.5, 1.5);
        let gamma = self.net_weight(e, &shape, &g);
        let b = self.uniform_bits(e, c as usize, -0.2, 0.2);
        let beta = self.net_weight(e, &shape, &b);
        let y = self.net_mul(x, gamma)?;
        self.net_binary(TosaOp::Add, y, beta)
    }

    /// Branches of 1x1, 3x3 and pooled convolutions joined by CONCAT on
    /// the channel axis.
    fn float_inception(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        self.feature("net:block=inception");
        let c = self.shape_of(t).get(3).copied().unwrap_or(1);
        let part = (c / 2).clamp(8, 64);
        let b1 = self.float_conv_act(net, t, 1, 1, Channels::about(part))?;
        let r = self.float_conv_act(net, t, 1, 1, Channels::about(part))?;
        let b2 = self.float_conv_act(net, r, 3, 1, Channels::about(part))?;
        let mut parts = vec![b1, b2];
        if let Some(win) = self.pool_window(&self.shape_of(t), 3, 1, true) {
            if let Some(p) = self.net_max_pool(t, win) {
                if let Some(b3) = self.float_conv_act(net, p, 1, 1, Channels::about(part)) {
                    parts.push(b3);
                }
            }
        }
        self.net_concat(&parts, 3)
    }

    /// Layer normalisation over the channels: mean by REDUCE_SUM and a
    /// 1/C MUL, SUB, the variance as the mean of squares, RSQRT of it plus
    /// epsilon, then the per-channel scale and shift.
    pub(crate) fn layer_norm(&mut self, t: usize) -> Option<usize> {
        let e = self.value(t)?.elem;
        let c = self.shape_of(t).last().copied().unwrap_or(1);
        // RSQRT's operand must be known non-negative and NaN-free: the sum of
        // C squared deviations (each at most (2m)^2 for inputs within ±m)
        // must stay finite, else a bounded activation comes first.
        let limit = (floats::max_finite(e) / (8.0 * f64::from(c))).sqrt();
        let fits = |r: Range| r.is_finite() && r.float_magnitude() <= limit;
        let x = if fits(self.range_of(t)) { t } else { self.float_act(t, true)? };
        if !fits(self.range_of(x)) {
            return None;
        }
        let s = self.shape_of(x);
        let rank = s.len();
        let axis = rank as u32 - 1;
        if !self.room(5 * self.trunk_elements(x)) {
            return None;
        }
        self.feature("net:block=layer-norm");
        let sum = self.net_reduce(TosaOp::ReduceSum, x, axis)?;
        let inv = self.net_scalar(e, rank, 1.0 / f64::from(c));
        let mean = self.net_mul(sum, inv)?;
        let d = self.net_binary(TosaOp::Sub, x, mean)?;
        let sq = self.net_mul(d, d)?;
        self.tighten_square(sq);
        let vs = self.net_reduce(TosaOp::ReduceSum, sq, axis)?;
        let inv2 = self.net_scalar(e, rank, 1.0 / f64::from(c));
        let var = self.net_mul(vs, inv2)?;
        let eps = self.net_scalar(e, rank, if e == ElemType::Fp32 { 1e-5 } else { 1e-3 });
        let ve = self.net_binary(TosaOp::Add, var, eps)?;
        let r = self.net_unary(TosaOp::Rsqrt, ve, e)?;
        let y = self.net_mul(d, r)?;
        self.float_affine(y)
    }

    /// Squeeze-excitation: global average, a reducing and an expanding
    /// 1x1 convolution, SIGMOID, and the channel-wise MUL.
    fn squeeze_excite(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        self.feature("net:block=squeeze-excite");
        let c = self.shape_of(t).get(3).copied().unwrap_or(1);
        let p = self.float_global_pool(net, t)?;
        let a = self.float_conv_act(net, p, 1, 1, Channels::about((c / 4).max(4)))?;
        let win = self.conv_window(&self.shape_of(a), 1, 1, 1, true, 0);
        let (b, _) = self.float_conv(net, a, win, Channels::exactly(c), None)?;
        let e = self.value(b)?.elem;
        let g = self.net_unary(TosaOp::Sigmoid, b, e)?;
        self.net_mul(t, g)
    }

    /// `[N, H, W, C]` to `[N, 1, 1, C]`: AVG_POOL2D over the whole image, or
    /// REDUCE_SUM over H and W and a 1/(HW) MUL, or a global REDUCE_MAX.
    pub(crate) fn float_global_pool(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let s = self.shape_of(t);
        let (h, w) = (s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        let e = self.value(t)?.elem;
        match self.dice.below(3) {
            0 if h <= 8192 && w <= 8192 => {
                let win = Window { k: [h, w], stride: [1, 1], dilation: [1, 1], pad: [0; 4] };
                self.net_avg_pool(net, t, win)
            }
            1 => {
                let a = self.net_reduce(TosaOp::ReduceMax, t, 1)?;
                self.net_reduce(TosaOp::ReduceMax, a, 2)
            }
            _ => {
                let a = self.net_reduce(TosaOp::ReduceSum, t, 1)?;
                let b = self.net_reduce(TosaOp::ReduceSum, a, 2)?;
                let inv = self.net_scalar(e, 4, 1.0 / (f64::from(h) * f64::from(w)));
                self.net_mul(b, inv)
            }
        }
    }

    /// A dense layer on tokens `[N, T, C]`: MATMUL by `[N, C, width]`, a
    /// bias ADD and (`act`) an activation.
    pub(crate) fn float_dense(&mut self, net: &mut Net, x: usize, width: u32, act: bool) -> Option<usize> {
        let e = self.value(x)?.elem;
        let s = self.shape_of(x);
        let (n, tokens, c) =
            (s.first().copied().unwrap_or(1), s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        let row = self.net_row(TosaOp::Matmul, &[e, e], e)?;
        let macs = u64::from(n) * u64::from(tokens) * u64::from(c) * u64::from(width);
        let out = u64::from(n) * u64::from(tokens) * u64::from(width);
        if out > self.cfg.max_tensor_elements
            || !self.room(2 * out + u64::from(n * c * width))
            || !self.mac_room(net, macs)
        {
            return None;
        }
        let ks = u64::from(c);
        let w_shape = [n, c, width];
        let plan = self.dot_plan(net, false);
        let count = elements(&w_shape) as usize;
        let (values, large) = match plan {
            Some(p) => {
                let xm = self.range_of(x).float_magnitude();
                if !xm.is_finite() {
                    return None;
                }
                let mut v = datasets::dot_values(
                    &p,
                    DotRole::Weight,
                    ks,
                    count,
                    |t| datasets::matmul_b_k(t, &w_shape),
                    &mut self.rng,
                );
                scale_to(&mut v, floats::max_finite(e) / (4.0 * ks as f64 * xm.max(1.0)));
                (v, p.set.large())
            }
            None => {
                let a = (6.0 / ks as f64).sqrt();
                ((0..count).map(|_| a * (2.0 * self.rng.unit() - 1.0)).collect(), false)
            }
        };
        let wb = datasets::encode_all(e, &values);
        let w = self.net_weight(e, &w_shape, &wb);
        let mut m = NodeSpec::new(TosaOp::Matmul, row);
        m.arg(Arg::Val(x));
        m.arg(Arg::Val(w));
        m.arg(Arg::Tensor(e, vec![0]));
        m.arg(Arg::Tensor(e, vec![0]));
        let y = self.net_emit(m)?;
        net.macs += macs;
        let bias_bits = self.uniform_bits(e, width as usize, -0.1, 0.1);
        let bias = self.net_weight(e, &[1, 1, width], &bias_bits);
        let z = self.net_binary(TosaOp::Add, y, bias)?;
        if act || large {
            self.float_act(z, large)
        } else {
            Some(z)
        }
    }

    /// Tokens: RESHAPE to `[N, H*W, C]`, a two-layer MLP with a residual
    /// ADD, RESHAPE back.
    fn token_mlp(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let s = self.shape_of(t);
        let [n, h, w, c] = s.as_slice() else { return None };
        let (n, h, w, c) = (*n, *h, *w, *c);
        let macs = 4 * u64::from(n) * u64::from(h) * u64::from(w) * u64::from(c) * u64::from(c);
        if !self.mac_room(net, macs) || !self.room(8 * self.trunk_elements(t)) {
            return None;
        }
        self.feature("net:block=token-mlp");
        let x = self.net_reshape(t, &[n, h * w, c])?;
        let a = self.float_dense(net, x, (2 * c).min(256), true)?;
        let b = self.float_dense(net, a, c, false)?;
        let sum = self.net_binary(TosaOp::Add, x, b)?;
        let y = self.net_reshape(sum, &[n, h, w, c])?;
        self.float_act(y, false)
    }

    /// Self-attention over the `H*W` tokens (when few enough): layer norm,
    /// Q/K/V projections, `Q K^T` scaled, softmax (REDUCE_MAX, SUB, EXP,
    /// REDUCE_SUM, RECIPROCAL, MUL), the weighted sum, a projection and the
    /// residual ADD.
    fn attention(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let s = self.shape_of(t);
        let [n, h, w, c] = s.as_slice() else { return None };
        let (n, h, w, c) = (*n, *h, *w, *c);
        let tokens = h * w;
        let d = c.clamp(8, 64);
        let scores = u64::from(n) * u64::from(tokens) * u64::from(tokens);
        if tokens > 1024 || scores > self.cfg.max_tensor_elements || !self.room(6 * scores + 8 * self.trunk_elements(t))
        {
            return None;
        }
        let macs =
            u64::from(n) * u64::from(tokens) * (4 * u64::from(c) * u64::from(d) + 2 * u64::from(tokens) * u64::from(d));
        if !self.mac_room(net, macs) {
            return None;
        }
        self.feature("net:block=attention");
        let normed = self.layer_norm(t)?;
        let x = self.net_reshape(normed, &[n, tokens, c])?;
        let q = self.float_dense(net, x, d, false)?;
        let k = self.float_dense(net, x, d, false)?;
        let v = self.float_dense(net, x, d, false)?;
        let kt = self.net_transpose(k, &[0, 2, 1])?;
        let e = self.value(q)?.elem;
        let row = self.net_row(TosaOp::Matmul, &[e, e], e)?;
        let mut m = NodeSpec::new(TosaOp::Matmul, row);
        m.arg(Arg::Val(q));
        m.arg(Arg::Val(kt));
        m.arg(Arg::Tensor(e, vec![0]));
        m.arg(Arg::Tensor(e, vec![0]));
        let sc = self.net_emit(m)?;
        let scale = self.net_scalar(e, 3, 1.0 / f64::from(d).sqrt());
        let scaled = self.net_mul(sc, scale)?;
        let p = self.softmax(scaled, 2)?;
        let mut m2 = NodeSpec::new(TosaOp::Matmul, row);
        m2.arg(Arg::Val(p));
        m2.arg(Arg::Val(v));
        m2.arg(Arg::Tensor(e, vec![0]));
        m2.arg(Arg::Tensor(e, vec![0]));
        let o = self.net_emit(m2)?;
        net.macs += u64::from(n) * u64::from(tokens) * u64::from(tokens) * u64::from(d) * 2;
        let proj = self.float_dense(net, o, c, false)?;
        let x0 = self.net_reshape(t, &[n, tokens, c])?;
        let sum = self.net_binary(TosaOp::Add, x0, proj)?;
        self.net_reshape(sum, &[n, h, w, c])
    }

    /// Softmax along `axis` (the maximum subtracted first).
    pub(crate) fn softmax(&mut self, x: usize, axis: u32) -> Option<usize> {
        let e = self.value(x)?.elem;
        self.feature("net:softmax");
        let m = self.net_reduce(TosaOp::ReduceMax, x, axis)?;
        let d = self.net_binary(TosaOp::Sub, x, m)?;
        let ex = self.net_unary(TosaOp::Exp, d, e)?;
        let sum = self.net_reduce(TosaOp::ReduceSum, ex, axis)?;
        let r = self.net_unary(TosaOp::Reciprocal, sum, e)?;
        self.net_mul(ex, r)
    }

    /// Hourglass: pool by 2, convolve, RESIZE back up by 2 (nearest, or
    /// bilinear with half-pixel offsets), ADD to the input.
    fn hourglass(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let s = self.shape_of(t);
        let [_, h, w, c] = s.as_slice() else { return None };
        let (h, w, c) = (*h, *w, *c);
        if h % 2 != 0 || w % 2 != 0 || h < 4 || w < 4 {
            return None;
        }
        self.feature("net:block=hourglass");
        let win = self.pool_window(&s, 2, 2, false)?;
        let p = self.net_max_pool(t, win)?;
        let a = self.float_conv_act(net, p, 3, 1, Channels::exactly(c))?;
        let e = self.value(a)?.elem;
        let bilinear = self.dice.chance(0.5);
        let mode = if bilinear { ResizeMode::Bilinear } else { ResizeMode::NearestNeighbor };
        let row = self.net_row(TosaOp::Resize, &[e], e)?;
        let (sn, sd, off) = if bilinear && self.dice.chance(0.5) { (4, 2, -1) } else { (2, 1, 0) };
        let mut n = NodeSpec::new(TosaOp::Resize, row);
        n.arg(Arg::U32(mode.value()));
        n.arg(Arg::Val(a));
        n.arg(Arg::Ints(vec![sn, sd, sn, sd]));
        n.arg(Arg::Ints(vec![off, off]));
        n.arg(Arg::Ints(vec![1, 1]));
        let up = self.net_emit(n)?;
        let sum = self.net_binary(TosaOp::Add, t, up)?;
        self.float_act(sum, false)
    }

    /// Explicit PAD (zeros, or the edge value a converter folds in), then a
    /// convolution without padding.
    fn pad_conv(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let e = self.value(t)?.elem;
        let s = self.shape_of(t);
        let k = *self.dice.pick(&[3u32, 5]).unwrap_or(&3);
        let p = i64::from(k / 2) + i64::from(self.dice.range_u32(0, 2));
        let padded = vec![s[0], s[1] + 2 * p as u32, s[2] + 2 * p as u32, s[3]];
        if !self.room(2 * elements(&padded)) || elements(&padded) > self.cfg.max_tensor_elements {
            return None;
        }
        self.feature("net:block=pad-conv");
        let row = self.net_row(TosaOp::Pad, &[e], e)?;
        let value = if self.dice.chance(0.8) { 0.0 } else { -1.0 };
        let mut n = NodeSpec::new(TosaOp::Pad, row);
        n.arg(Arg::Val(t));
        n.arg(Arg::Ints(vec![0, 0, p, p, p, p, 0, 0]));
        n.arg(Arg::Tensor(e, vec![floats::encode(e, value)]));
        let x = self.net_emit(n)?;
        let win = self.conv_window(&padded, k, 1, 1, false, 0);
        let c = s.get(3).copied().unwrap_or(1);
        let (y, large) = self.float_conv(net, x, win, Channels::about(c), None)?;
        self.float_act(y, large)
    }

    /// A round trip through a narrower floating-point type (CAST there and
    /// back), as mixed-precision graphs do; only when the trunk's range
    /// fits the narrower type.
    fn mixed_precision(&mut self, t: usize) -> Option<usize> {
        let e = self.value(t)?.elem;
        let narrow = [ElemType::Fp16, ElemType::Bf16]
            .into_iter()
            .filter(|&n| n != e && self.has_row(TosaOp::Cast, &[e], n) && self.has_row(TosaOp::Cast, &[n], e))
            .find(|&n| self.range_of(t).float_magnitude() < floats::max_finite(n) / 2.0)?;
        if !self.room(2 * self.trunk_elements(t)) {
            return None;
        }
        self.feature("net:block=mixed-precision");
        let a = self.net_unary(TosaOp::Cast, t, narrow)?;
        self.net_unary(TosaOp::Cast, a, e)
    }
}

/// Scales `values` down (never up) so that none exceeds `cap` in magnitude.
fn scale_to(values: &mut [f64], cap: f64) {
    let m = values.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    if m > cap && m > 0.0 {
        let f = cap / m;
        values.iter_mut().for_each(|v| *v *= f);
    }
}

/// Whether a value's range is too wide for what follows: possibly NaN or
/// infinite, or past a sixteenth of the type's largest value (the next dot
/// product's interval bound would overflow).
fn needs_bound(r: Range, e: ElemType) -> bool {
    !r.is_finite() || r.float_magnitude() > floats::max_finite(e) / 16.0
}
