//! What float and quantised networks share: window geometry (convolution
//! and pooling attributes that make the output-size division exact),
//! pooling, the layout blocks (space-to-depth, channel shuffle) and the
//! choice between downsampling blocks.

use super::{Net, NetKind};
use crate::synth::node::{Arg, NodeSpec};
use crate::synth::Synth;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;

/// Kernel, stride, dilation and pads of a 2-D window over `[N, H, W, C]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Window {
    pub k: [u32; 2],
    pub stride: [u32; 2],
    pub dilation: [u32; 2],
    /// top, bottom, left, right.
    pub pad: [u32; 4],
}

/// The output channels of a convolution: `oc` (the channel multiplier of a
/// depthwise one), exactly (a residual ADD needs them), or fewer when the
/// budgets require it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Channels {
    pub oc: u32,
    pub depthwise: bool,
    pub exact: bool,
}

impl Channels {
    /// `oc` channels, or fewer to fit.
    pub(crate) fn about(oc: u32) -> Channels {
        Channels { oc, depthwise: false, exact: false }
    }

    /// Exactly `oc` channels.
    pub(crate) fn exactly(oc: u32) -> Channels {
        Channels { oc, depthwise: false, exact: true }
    }

    /// A depthwise convolution with multiplier 1.
    pub(crate) fn depthwise() -> Channels {
        Channels { oc: 1, depthwise: true, exact: true }
    }
}

impl Window {
    /// The output extent along spatial axis `a` (0: H, 1: W) for an input
    /// extent `i` (the division is exact by construction).
    pub(crate) fn out(&self, a: usize, i: u32) -> u32 {
        let reach = (self.k[a] - 1) * self.dilation[a];
        (i - 1 + self.pad[2 * a] + self.pad[2 * a + 1] - reach) / self.stride[a] + 1
    }

    /// The output shape of a window over `s` with `c` output channels.
    pub(crate) fn out_shape(&self, s: &[u32], c: u32) -> Vec<u32> {
        let (n, h, w) =
            (s.first().copied().unwrap_or(1), s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        vec![n, self.out(0, h), self.out(1, w), c]
    }

    /// Taps of one output element.
    pub(crate) fn taps(&self) -> u64 {
        u64::from(self.k[0]) * u64::from(self.k[1])
    }
}

/// The shapes of one convolution block, float or quantised: its weight
/// shape, output channels and multiply-accumulates.
pub(crate) struct ConvShape {
    /// The weight's shape.
    pub(crate) weight: Vec<u32>,
    /// The output's channel count.
    pub(crate) out_c: u32,
    /// Multiply-accumulates of one output element (KS).
    pub(crate) ks: u64,
    /// Multiply-accumulates of the whole convolution.
    pub(crate) macs: u64,
}

impl Synth<'_, '_> {
    /// The shapes of a convolution of value `x` over `win` with `ch`'s
    /// channels (exactly, or fewer until it fits its budgets).
    pub(crate) fn conv_shape(&self, net: &Net, x: usize, win: Window, ch: Channels) -> Option<ConvShape> {
        let depthwise = ch.depthwise;
        let input = self.shape_of(x);
        let oc = if ch.exact {
            self.conv_fits(net, &input, win, ch.oc, depthwise).then_some(ch.oc)?
        } else {
            self.fit_channels(net, &input, win, ch.oc, depthwise)?
        };
        let ic = input.get(3).copied().unwrap_or(1);
        let (kh, kw) = (win.k[0], win.k[1]);
        let weight = if depthwise { vec![kh, kw, ic, oc] } else { vec![oc, kh, kw, ic] };
        let out_c = if depthwise { ic * oc } else { oc };
        let out = win.out_shape(&input, out_c);
        let ks = if depthwise { win.taps() } else { win.taps() * u64::from(ic) };
        let macs = crate::synth::elements(&out).saturating_mul(ks);
        Some(ConvShape { weight, out_c, ks, macs })
    }

    /// Whether a convolution of `shape` over `win` with `oc` output
    /// channels (the multiplier, for depthwise) fits the tensor, element
    /// and multiply-accumulate budgets.
    pub(crate) fn conv_fits(&self, net: &Net, shape: &[u32], win: Window, oc: u32, depthwise: bool) -> bool {
        let ic = shape.get(3).copied().unwrap_or(1);
        let out_c = if depthwise { ic.saturating_mul(oc) } else { oc };
        let out = crate::synth::elements(&win.out_shape(shape, out_c));
        let weights = win.taps() * u64::from(ic) * u64::from(oc);
        let ks = if depthwise { win.taps() } else { win.taps() * u64::from(ic) };
        out <= self.cfg.max_tensor_elements
            && self.room(2 * out + weights)
            && self.mac_room(net, out.saturating_mul(ks))
    }

    /// `desired` output channels, or fewer (down to 4) until the
    /// convolution fits its budgets.
    pub(crate) fn fit_channels(
        &self,
        net: &Net,
        shape: &[u32],
        win: Window,
        desired: u32,
        depthwise: bool,
    ) -> Option<u32> {
        let mut oc = desired.max(1);
        while oc > 4 && !self.conv_fits(net, shape, win, oc, depthwise) {
            oc = oc * 3 / 4;
        }
        self.conv_fits(net, shape, win, oc, depthwise).then_some(oc)
    }

    /// The stem's window over the graph input: 3x3 to 7x7, mostly with
    /// stride 2, or wide attributes; the stride doubled (up to 8) until a
    /// convolution with 4 output channels fits the budgets.
    pub(crate) fn stem_window(&mut self, net: &Net, shape: &[u32]) -> Option<Window> {
        let mut win = if self.dice.chance(net.cfg.wide_convolution) {
            self.wide_window(shape)
        } else {
            let k = self.dice.pick_or(&[3u32, 3, 5, 7], 3);
            let stride = if self.dice.chance(0.7) { 2 } else { 1 };
            self.conv_window(shape, k, stride, 1, true, 0)
        };
        for _ in 0..4 {
            if self.conv_fits(net, shape, win, 4, false) {
                return Some(win);
            }
            let stride = (win.stride[0] * 2).min(8);
            win = self.conv_window(shape, win.k[0], stride, 1, true, 0);
        }
        None
    }

    /// The stem's output channels: 8 to 32, fewer when the output would
    /// hold more than twice the input's elements (a stem expands channels
    /// while it shrinks the image).
    pub(crate) fn stem_channels(&mut self, shape: &[u32], win: Window) -> u32 {
        let per_channel = crate::synth::elements(&win.out_shape(shape, 1)).max(1);
        let cap = (2 * crate::synth::elements(shape) / per_channel).clamp(4, 256) as u32;
        self.dice.pick_or(&[8u32, 16, 16, 24, 32], 16).min(cap)
    }

    /// A convolution window over `shape`: kernel `k`, `stride` and
    /// `dilation` on both axes; "same" padding (or none, `same = false`),
    /// plus up to `extra` more on each side, and the bottom/right pad grown
    /// until the stride divides the output-size numerator.
    pub(crate) fn conv_window(
        &mut self,
        shape: &[u32],
        k: u32,
        stride: u32,
        dilation: u32,
        same: bool,
        extra: u32,
    ) -> Window {
        let mut pad = [0u32; 4];
        for a in 0..2 {
            let i = shape.get(1 + a).copied().unwrap_or(1);
            let reach = (k - 1) * dilation;
            let (mut pa, mut pb) = if same { (reach / 2, reach - reach / 2) } else { (0, 0) };
            if extra > 0 {
                pa += self.dice.range_u32(0, extra);
                pb += self.dice.range_u32(0, extra);
            }
            if i - 1 + pa + pb < reach {
                pb += reach - (i - 1 + pa + pb);
            }
            let r = (i - 1 + pa + pb - reach) % stride;
            if r != 0 {
                pb += stride - r;
            }
            pad[2 * a] = pa;
            pad[2 * a + 1] = pb;
        }
        Window { k: [k, k], stride: [stride, stride], dilation: [dilation, dilation], pad }
    }

    /// A pooling window (pads below the kernel, ERROR_IF), or `None` when
    /// no pad makes the division exact.
    pub(crate) fn pool_window(&self, shape: &[u32], k: u32, stride: u32, same: bool) -> Option<Window> {
        let mut pad = [0u32; 4];
        for a in 0..2 {
            let i = shape.get(1 + a).copied().unwrap_or(1);
            let (pa, mut pb) = if same { ((k - 1) / 2, k - 1 - (k - 1) / 2) } else { (0, 0) };
            if i + pa + pb < k {
                pb = k - i - pa;
            }
            let r = (i + pa + pb - k) % stride;
            if r != 0 {
                pb += stride - r;
            }
            if pa >= k || pb >= k {
                return None;
            }
            pad[2 * a] = pa;
            pad[2 * a + 1] = pb;
        }
        // Pooling has no dilation; the conv formula with dilation 1 is the pool's.
        Some(Window { k: [k, k], stride: [stride, stride], dilation: [1, 1], pad })
    }

    /// MAX_POOL2D of `x` over `win`.
    pub(crate) fn net_max_pool(&mut self, x: usize, win: Window) -> Option<usize> {
        let e = self.value(x)?.elem;
        let row = self.net_row(TosaOp::MaxPool2d, &[e], e)?;
        let mut n = NodeSpec::new(TosaOp::MaxPool2d, row);
        n.arg(Arg::Ints(win.k.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.stride.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.pad.map(i64::from).to_vec()));
        n.arg(Arg::U32(self.nan_mode()));
        n.arg(Arg::Val(x));
        self.net_emit(n)
    }

    /// AVG_POOL2D of `x` over `win`; quantised inputs keep their zero point.
    pub(crate) fn net_avg_pool(&mut self, net: &mut Net, x: usize, win: Window) -> Option<usize> {
        let e = self.value(x)?.elem;
        let row = self.net_row(TosaOp::AvgPool2d, &[e], e)?;
        let s = self.shape_of(x);
        let out = win.out_shape(&s, s.get(3).copied().unwrap_or(1));
        let macs = spvgraph_ir::count::saturating(out.iter().map(|&d| u64::from(d))).saturating_mul(win.taps());
        if !self.mac_room(net, macs) {
            return None;
        }
        let zp = if e == ElemType::I8 { net.q(x).zp as u64 } else { 0 };
        let mut n = NodeSpec::new(TosaOp::AvgPool2d, row);
        n.arg(Arg::Ints(win.k.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.stride.map(i64::from).to_vec()));
        n.arg(Arg::Ints(win.pad.map(i64::from).to_vec()));
        n.arg(Arg::U32(Synth::row_acc_type(TosaOp::AvgPool2d, row).ok()?));
        n.arg(Arg::Val(x));
        n.arg(Arg::Tensor(e, vec![zp]));
        n.arg(Arg::Tensor(e, vec![zp]));
        let v = self.net_emit(n)?;
        net.macs += macs;
        if e == ElemType::I8 {
            let q = net.q(x);
            net.quant.insert(v, q);
        }
        Some(v)
    }

    /// Halves (or quarters) the spatial size: max or average pooling, a
    /// strided convolution, or space-to-depth.
    pub(crate) fn downsample(&mut self, net: &mut Net, x: usize) -> Option<usize> {
        let s = self.shape_of(x);
        let choice = self.dice.below(5);
        let v = match choice {
            0 => {
                let win = self.pool_window(&s, 2, 2, false)?;
                self.feature("net:block=max-pool");
                self.net_max_pool(x, win)
            }
            1 => {
                let win = self.pool_window(&s, 3, 2, true)?;
                self.feature("net:block=max-pool");
                self.net_max_pool(x, win)
            }
            2 => {
                let win = self.pool_window(&s, 3, 2, true)?;
                self.feature("net:block=avg-pool");
                self.net_avg_pool(net, x, win)
            }
            3 => self.space_to_depth(net, x),
            _ => {
                self.feature("net:block=strided-conv");
                let c = s.get(3).copied().unwrap_or(1);
                match net.kind {
                    NetKind::Float(_) => self.float_conv_act(net, x, 3, 2, Channels::about((c * 2).min(128))),
                    NetKind::Quant => self.quant_conv_block(net, x, 3, 2, Channels::about((c * 2).min(128))),
                }
            }
        };
        // A fallback that always shrinks when the chosen block could not.
        match v {
            Some(v) => Some(v),
            None if choice != 0 => {
                let win = self.pool_window(&s, 2, 2, false)?;
                self.net_max_pool(x, win)
            }
            None => None,
        }
    }

    /// Space-to-depth: `[N, H, W, C]` to `[N, H/2, W/2, 4C]` by RESHAPE to
    /// rank 6, TRANSPOSE and RESHAPE back (a rank-6 tensor on the way).
    pub(crate) fn space_to_depth(&mut self, net: &mut Net, x: usize) -> Option<usize> {
        let s = self.shape_of(x);
        let [n, h, w, c] = s.as_slice() else { return None };
        let (n, h, w, c) = (*n, *h, *w, *c);
        if h % 2 != 0 || w % 2 != 0 || self.cfg.max_rank < 6 || !self.room(3 * self.trunk_elements(x)) {
            return None;
        }
        self.feature("net:block=space-to-depth");
        let a = self.net_reshape(x, &[n, h / 2, 2, w / 2, 2, c])?;
        let b = self.net_transpose(a, &[0, 1, 3, 2, 4, 5])?;
        let y = self.net_reshape(b, &[n, h / 2, w / 2, 4 * c])?;
        self.keep_quant(net, x, y);
        Some(y)
    }

    /// Channel shuffle: `[N, H, W, g * c]` to rank 5 `[N, H, W, g, c]`,
    /// TRANSPOSE of the last two axes, back to rank 4.
    pub(crate) fn channel_shuffle(&mut self, net: &mut Net, x: usize) -> Option<usize> {
        let s = self.shape_of(x);
        let [n, h, w, c] = s.as_slice() else { return None };
        let (n, h, w, c) = (*n, *h, *w, *c);
        let groups: Vec<u32> = [2u32, 3, 4, 8].into_iter().filter(|g| c % g == 0 && c / g > 1).collect();
        let g = self.dice.pick(&groups).copied()?;
        if self.cfg.max_rank < 5 || !self.room(3 * self.trunk_elements(x)) {
            return None;
        }
        self.feature("net:block=channel-shuffle");
        let a = self.net_reshape(x, &[n, h, w, g, c / g])?;
        let b = self.net_transpose(a, &[0, 1, 2, 4, 3])?;
        let y = self.net_reshape(b, &[n, h, w, c])?;
        self.keep_quant(net, x, y);
        Some(y)
    }

    /// NHWC to NCHW and back around a reshape of the spatial axes (what a
    /// converter emits between layout conventions).
    pub(crate) fn layout_roundtrip(&mut self, net: &mut Net, x: usize) -> Option<usize> {
        let s = self.shape_of(x);
        let [n, h, w, c] = s.as_slice() else { return None };
        let (n, h, w, c) = (*n, *h, *w, *c);
        if !self.room(4 * self.trunk_elements(x)) {
            return None;
        }
        self.feature("net:block=layout-roundtrip");
        let a = self.net_transpose(x, &[0, 3, 1, 2])?;
        let b = self.net_reshape(a, &[n, c, h * w])?;
        let b2 = self.net_reshape(b, &[n, c, h, w])?;
        let y = self.net_transpose(b2, &[0, 2, 3, 1])?;
        self.keep_quant(net, x, y);
        Some(y)
    }

    /// Records that `y` has `x`'s quantisation (layout operators).
    pub(crate) fn keep_quant(&mut self, net: &mut Net, x: usize, y: usize) {
        if net.kind == NetKind::Quant {
            let q = net.q(x);
            net.quant.insert(y, q);
        }
    }

    /// The classifier head: global pooling, then dense layers on `[N, 1, C]`
    /// until the graph has its operator count, then the logits (a softmax
    /// for floating point).
    pub(crate) fn network_head(&mut self, net: &mut Net, trunk: usize) {
        let pooled = match net.kind {
            NetKind::Float(_) => self.float_global_pool(net, trunk),
            NetKind::Quant => self.quant_global_pool(net, trunk),
        };
        let Some(mut v) = pooled else { return };
        let s = self.shape_of(v);
        let (n, c) = (s.first().copied().unwrap_or(1), s.last().copied().unwrap_or(1));
        let Some(flat) = self.net_reshape(v, &[n, 1, c]) else { return };
        self.keep_quant(net, v, flat);
        v = flat;
        self.feature("net:head");
        // Dense layers: what is left of the operator target, less the logits
        // (MATMUL, ADD or RESCALE, maybe an activation) and the softmax or
        // the dequantisation.
        let (tail_min, tail_max) = match net.kind {
            NetKind::Float(_) => (8, 13),
            NetKind::Quant => (2, 11),
        };
        let mut guard = 0;
        while self.wants_dense(net, tail_min, tail_max) && guard < 64 {
            guard += 1;
            let width = *self.dice.pick(&[32u32, 64, 96, 128, 256]).unwrap_or(&64);
            let next = match net.kind {
                NetKind::Float(_) => self.float_dense(net, v, width, true),
                NetKind::Quant => self.quant_dense(net, v, width, true),
            };
            match next {
                Some(x) => v = x,
                None => break,
            }
        }
        let classes = *self.dice.pick(&[10u32, 100, 1000]).unwrap_or(&10);
        let logits = match net.kind {
            NetKind::Float(_) => self.float_dense(net, v, classes, false),
            NetKind::Quant => self.quant_dense(net, v, classes, false),
        };
        let Some(logits) = logits else { return };
        match net.kind {
            NetKind::Float(_) => {
                self.softmax(logits, 2);
            }
            NetKind::Quant => {
                self.quant_output(net, logits);
            }
        }
    }
}
