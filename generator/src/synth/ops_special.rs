//! GATHER, SCATTER, RESIZE, RESCALE, TABLE and CLAMP: the operators whose
//! attributes or constant inputs carry value constraints.

use super::node::{internal, Arg, NodeSpec, Skip};
use super::transfer::{sext, zext};
use super::Synth;
use crate::config::LEVEL_8K;
use crate::data::{self, DataSpec, Fill};
use crate::floats;
use crate::range::{Domain, Range};
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::tosa::{LevelLimits, RoundingMode, RowQualifier, TosaOp};

/// One RESIZE axis: `(scale_n, scale_d, offset, border)` and the output extent.
type ResizeAxis = ((i64, i64, i64, i64), u32);

/// RESIZE's bound on `scale_n` (ERROR_IF).
const MAX_SCALE_N: i64 = 1 << 11;
/// TOSA 8K MAX_SCALE: the largest upscale ratio `scale_n / scale_d`.
const MAX_SCALE: i64 = LevelLimits::EIGHT_K.max_scale;
/// RESIZE input and output extents are below this (ERROR_IF).
const RESIZE_MAX_DIM: i64 = 16384;

impl Synth<'_, '_> {
    /// An index operand: a leaf (reused only if its data already satisfies
    /// the bound, and uniqueness for SCATTER) or a fresh one.
    fn indices(&mut self, batch: u32, w: u32, k: u32, unique: bool) -> usize {
        let domain = Domain::Indices { k, unique };
        let spec = DataSpec { domain, scale: 1.0, specials: 0.0, fill: Fill::Random };
        let need = super::Need { admit: domain, leaf_only: true, fresh: spec, weight: false };
        let ok = |v: &super::Value| {
            v.elem == ElemType::I32 && v.shape.len() == 2 && v.shape[0] == batch && (!unique || v.shape[1] <= k)
        };
        match self.pick_value(&need, ok) {
            Some(v) => v,
            None => self.fresh_leaf(ElemType::I32, &[batch, w], &need),
        }
    }

    /// GATHER `[N,K,C] + [N,W] -> [N,W,C]` and SCATTER.
    pub(crate) fn gather_scatter(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let first = if op == TosaOp::Gather { "values" } else { "values_in" };
        let e = Synth::operand_elem(op, row, first)?;
        let need = self.any_need(e);
        let values = self.value_of_rank(e, Some(3), &need);
        let s = self.shape_of(values);
        let (batch, k, c) =
            (s.first().copied().unwrap_or(1), s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1));
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Val(values));
        if op == TosaOp::Gather {
            let mut w = self.random_dim();
            while w > 1 && !self.fits(&[batch, w, c]) {
                w -= 1;
            }
            let idx = self.indices(batch, w, k, false);
            n.arg(Arg::Val(idx));
        } else {
            // Each (n, k) written at most once (REQUIRE), hence W <= K.
            let w = self.dice.range_u32(1, k);
            let idx = self.indices(batch, w, k, true);
            let w = self.shape_of(idx).get(1).copied().unwrap_or(w);
            let input = self.value_of_shape(e, &[batch, w, c], &need);
            n.arg(Arg::Val(idx));
            n.arg(Arg::Val(input));
        }
        Ok(n)
    }

    /// One RESIZE axis of extent `i`: scale, offset and border within their
    /// ERROR_IF ranges with `((i-1)*n - offset + border)` divisible by `d`.
    fn resize_axis(&mut self, i: u32) -> ResizeAxis {
        let n = self.dice.range_i64(1, 16);
        let d = self.dice.range_i64(1, (16 * n - 1).min(32));
        self.resize_axis_with(i, n, d, 4 * n)
    }

    /// One RESIZE axis over the whole legal range: `scale_n` up to 2048,
    /// upscales up to MAX_SCALE (256) and downscales up to 16, offsets up
    /// to `16 * scale_n`, with the output extent below 16384.
    fn wide_resize_axis(&mut self, i: u32) -> ResizeAxis {
        let n = self.wide_pick(1, MAX_SCALE_N);
        // n/d <= MAX_SCALE; ((i+1)*n - 1)/d + 1 < 16384 bounds the output extent.
        let d_lo = (n + MAX_SCALE - 1) / MAX_SCALE;
        let d_lo = d_lo.max(((i64::from(i) + 1) * n + RESIZE_MAX_DIM - 3) / (RESIZE_MAX_DIM - 2));
        let d_hi = 16 * n - 1;
        if d_lo > d_hi {
            return self.resize_axis(i);
        }
        let d = if self.dice.chance(0.7) {
            d_lo + self.dice.range_i64(0, 3).min(d_hi - d_lo)
        } else {
            self.wide_pick(d_lo, d_hi)
        };
        let axis = self.resize_axis_with(i, n, d, 16 * n);
        let ((n, d, _, _), out) = axis;
        if n >= MAX_SCALE_N / 2 {
            self.op_feature("attr:resize-scale_n>=1024");
        }
        if n >= d * (MAX_SCALE / 2) {
            self.op_feature("attr:resize-upscale>=128");
        }
        if d >= 8 * n {
            self.op_feature("attr:resize-downscale>=8");
        }
        if i64::from(i.max(out)) >= RESIZE_MAX_DIM / 2 {
            self.op_feature("level:resize-dim>=8192");
        }
        axis
    }

    /// A RESIZE axis with scale `n/d` and an offset up to `o_hi` (further
    /// bounded by the input extent); identity when no border fits.
    fn resize_axis_with(&mut self, i: u32, n: i64, d: i64, o_hi: i64) -> ResizeAxis {
        let i = i64::from(i);
        let identity = ((1, 1, 0, 0), i as u32);
        let o = self.dice.range_i64(-n, (16 * n - 1).min(o_hi).min(i * n - 1));
        let lower = (-16 * n).max(o - (i - 1) * n);
        let upper = n - 1;
        if lower > upper {
            return identity;
        }
        let r = (o - (i - 1) * n).rem_euclid(d);
        let first = lower + (r - lower).rem_euclid(d);
        if first > upper {
            return identity;
        }
        let choices = ((upper - first) / d + 1).min(64);
        let border = first + d * self.dice.range_i64(0, choices - 1);
        let out = ((i - 1) * n - o + border) / d + 1;
        match u32::try_from(out) {
            Ok(v) if (1..RESIZE_MAX_DIM).contains(&i64::from(v)) => ((n, d, o, border), v),
            _ => identity,
        }
    }

    /// RESIZE.
    pub(crate) fn resize(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let e = Synth::operand_elem(op, row, "input")?;
        let mode = match Synth::row(op, row)?.qualifier {
            RowQualifier::Mode(m) => m.value(),
            _ => self.dice.range_u32(1, 2),
        };
        self.op_feature(if mode == 1 { "resize:mode=NEAREST_NEIGHBOR" } else { "resize:mode=BILINEAR" });
        let need = self.any_need(e);
        let wide = self.wide_axis(2);
        let x = match wide {
            // A thin input [1, IH, 1, 1] (or [1, 1, IW, 1]), so that one
            // extent can grow towards 16384.
            Some(axis) => {
                let extent = if self.dice.chance(0.3) {
                    self.dice.range_u32(1, 8)
                } else {
                    self.wide_pick(32, i64::from(LEVEL_8K / 2)) as u32
                };
                let mut shape = vec![1, 1, 1, 1];
                shape[1 + axis] = extent;
                self.value_of_shape(e, &shape, &need)
            }
            None => self.value_of_rank(e, Some(4), &need),
        };
        let s = self.shape_of(x);
        let (batch, ih, iw, c) = (
            s.first().copied().unwrap_or(1),
            s.get(1).copied().unwrap_or(1),
            s.get(2).copied().unwrap_or(1),
            s.get(3).copied().unwrap_or(1),
        );
        // The other axis of a wide one stays the identity, keeping the output thin.
        let (mut y, mut xa) = match wide {
            Some(0) => (self.wide_resize_axis(ih), ((1, 1, 0, 0), iw)),
            Some(_) => (((1, 1, 0, 0), ih), self.wide_resize_axis(iw)),
            None => (self.resize_axis(ih), self.resize_axis(iw)),
        };
        if !self.fits(&[batch, y.1, xa.1, c]) {
            self.pending.retain(|f| !f.starts_with("attr:resize") && !f.starts_with("level:resize"));
            (y, xa) = (((1, 1, 0, 0), ih), ((1, 1, 0, 0), iw));
        }
        let ((yn, yd, oy, by), _) = y;
        let ((xn, xd, ox, bx), _) = xa;
        if yn < yd || xn < xd {
            self.op_feature("resize:downscale");
        }
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::U32(mode));
        n.arg(Arg::Val(x));
        n.arg(Arg::Ints(vec![yn, yd, xn, xd]));
        n.arg(Arg::Ints(vec![oy, ox]));
        n.arg(Arg::Ints(vec![by, bx]));
        Ok(n)
    }

    /// TABLE: i8 → 256-entry i8 table; i16 → 513-entry i16 table whose
    /// neighbouring entries differ by at most 32767 (REQUIRE of apply_lookup_s).
    pub(crate) fn table_op(&mut self, row: usize) -> Result<NodeSpec, Skip> {
        let op = TosaOp::Table;
        let e = Synth::operand_elem(op, row, "input1")?;
        let need = self.any_need(e);
        let x = self.value_of_rank(e, None, &need);
        let size = spvgraph_ir::tosa::spec::table_size(e).unwrap_or(256);
        let (lo, hi) = floats::int_range(e);
        let step = if e == ElemType::I8 { 255 } else { self.dice.pick_or(&[64, 4096, 32767], 4096) };
        let mut v = self.rng.range_i64(lo, hi);
        let mut table = Vec::with_capacity(size as usize);
        for _ in 0..size {
            table.push(v as u64);
            v = (v + self.rng.range_i64(-step, step)).clamp(lo, hi);
        }
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Val(x));
        n.arg(Arg::Tensor(e, table));
        Ok(n)
    }

    /// CLAMP: bounds of the element type, neither NaN, `min <= max`.
    pub(crate) fn clamp_op(&mut self, row: usize) -> Result<NodeSpec, Skip> {
        let op = TosaOp::Clamp;
        let e = Synth::operand_elem(op, row, "input")?;
        let need = self.any_need(e);
        let x = self.value_of_rank(e, None, &need);
        let wide = self.dice.chance(self.cfg.probs.wide_attributes);
        let (a, b) = if wide {
            self.wide_clamp_bounds(e)
        } else if e.is_float() {
            let d = Domain::Float { lo: f64::NEG_INFINITY, hi: f64::INFINITY, nan: false };
            let spec = self.default_data(e, d);
            let spec = DataSpec { specials: spec.specials.max(0.1), ..spec };
            let pair = data::generate(&mut self.rng, e, &[2], &spec).to_bits();
            let (p, q) = (pair.first().copied().unwrap_or(0), pair.get(1).copied().unwrap_or(0));
            if floats::decode(e, p) <= floats::decode(e, q) {
                (p, q)
            } else {
                (q, p)
            }
        } else {
            let (lo, hi) = floats::int_range(e);
            let p = self.rng.range_i64(lo, hi);
            let q = self.rng.range_i64(lo, hi);
            ((p.min(q)) as u64, (p.max(q)) as u64)
        };
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Scalar(e, a));
        n.arg(Arg::Scalar(e, b));
        n.arg(Arg::U32(self.nan_mode()));
        n.arg(Arg::Val(x));
        Ok(n)
    }

    /// CLAMP bounds at the edges of the legal range: equal bounds (a
    /// constant result), or the type's extremes (infinities where the type
    /// has them, which clamp nothing).
    fn wide_clamp_bounds(&mut self, e: ElemType) -> (u64, u64) {
        if self.dice.chance(0.5) {
            self.op_feature("attr:clamp-min=max");
            let spec = self.default_data(e, Domain::Float { lo: f64::NEG_INFINITY, hi: f64::INFINITY, nan: false });
            let v = if e.is_float() {
                data::generate(&mut self.rng, e, &[1], &spec).to_bits().first().copied().unwrap_or(0)
            } else {
                let (lo, hi) = floats::int_range(e);
                self.rng.range_i64(lo, hi) as u64
            };
            return (v, v);
        }
        self.op_feature("attr:clamp-extreme-bounds");
        if e.is_float() {
            let m = if floats::has_inf(e) { f64::INFINITY } else { floats::max_finite(e) };
            (floats::encode(e, -m), floats::encode(e, m))
        } else {
            let (lo, hi) = floats::int_range(e);
            (lo as u64, hi as u64)
        }
    }

    /// RESCALE: valid flag/zero-point combinations for the row, a rounding
    /// mode the enabled extensions allow, and per-channel multiplier/shift
    /// pairs chosen from the input's range so every REQUIRE holds
    /// (apply_scale_32 input range, scale16 result in i32, output_zp add).
    pub(crate) fn rescale_op(&mut self, row: usize) -> Result<NodeSpec, Skip> {
        let op = TosaOp::Rescale;
        let r = Synth::row(op, row)?;
        let (Some(in_e), Some(out_e), Some(mul_e)) = (r.slot(0), r.slot(1), r.slot(2)) else {
            return internal("RESCALE row has three slots");
        };
        let RowQualifier::Scale32(scale32) = r.qualifier else { return internal("RESCALE row without scale32") };
        let small = |t: ElemType| matches!(t, ElemType::I8 | ElemType::I16);
        let mut flags = vec![(false, false)];
        if small(in_e) && out_e != ElemType::I32 {
            flags.push((true, false));
        }
        if small(out_e) && small(in_e) {
            flags.push((false, true));
        }
        let (iu, ou) = self.dice.pick_or(&flags, (false, false));
        let mut rounding = vec![RoundingMode::SingleRound];
        if self.enabled(Profile::ExtInexactRound) {
            rounding.push(RoundingMode::InexactRound);
        }
        if scale32 && self.enabled(Profile::ExtDoubleRound) {
            rounding.push(RoundingMode::DoubleRound);
        }
        let rounding = self.dice.pick_or(&rounding, RoundingMode::SingleRound);
        let need = self.any_need(in_e);
        let x = self.value_of_rank(in_e, None, &need);
        let per_channel = self.dice.chance(0.4);
        let nc = if per_channel { self.shape_of(x).last().copied().unwrap_or(1) } else { 1 };
        let izp = self.rescale_zp(in_e, iu);
        let ozp = self.rescale_zp(out_e, ou);
        let (vl, vh) = rescale_value_bounds(self.range_of(x), in_e, iu, izp);
        let out_max = floats::int_range(out_e).1 as f64;
        let wide = self.dice.chance(self.cfg.probs.wide_attributes);
        let mut mults = Vec::new();
        let mut shifts = Vec::new();
        for _ in 0..nc {
            let (m, s) = self.rescale_pair(vl, vh, scale32, out_max, wide);
            mults.push(m as u64);
            shifts.push(s as u64);
        }
        if shifts.iter().any(|&s| s >= 48) {
            self.op_feature("attr:rescale-shift>=48");
        }
        self.op_feature(format!("rescale:rounding={}", rounding.name()));
        self.op_feature(format!("rescale:scale32={scale32}"));
        if iu {
            self.op_feature(format!("rescale:input_unsigned:{in_e}"));
        }
        if ou {
            self.op_feature(format!("rescale:output_unsigned:{out_e}"));
        }
        if per_channel {
            self.op_feature("rescale:per_channel");
        }
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Bool(scale32));
        n.arg(Arg::U32(rounding.value()));
        n.arg(Arg::Bool(per_channel));
        n.arg(Arg::Bool(iu));
        n.arg(Arg::Bool(ou));
        n.arg(Arg::Val(x));
        n.arg(Arg::Tensor(mul_e, mults));
        n.arg(Arg::Tensor(ElemType::I8, shifts));
        n.arg(Arg::Tensor(in_e, vec![izp]));
        n.arg(Arg::Tensor(out_e, vec![ozp]));
        Ok(n)
    }

    /// A RESCALE zero point: any value for i8; 0 or 32768 for unsigned i16;
    /// otherwise 0 (ERROR_IF).
    pub(crate) fn rescale_zp(&mut self, elem: ElemType, unsigned: bool) -> u64 {
        if !self.dice.chance(self.cfg.probs.nonzero_zero_point) {
            return 0;
        }
        match (elem, unsigned) {
            (ElemType::I8, _) => self.dice.range_i64(-128, 127) as u64,
            (ElemType::I16, true) => 0x8000,
            _ => 0,
        }
    }

    /// A multiplier/shift pair for values in `vl..=vh`; with `wide`, the
    /// shift is drawn over everything from the smallest that keeps the
    /// result defined up to 62.
    fn rescale_pair(&mut self, vl: i128, vh: i128, scale32: bool, out_max: f64, wide: bool) -> (i64, i64) {
        let mag = vl.abs().max(vh.abs()).max(1);
        if scale32 {
            // apply_scale_32: -(2^(s-1)) <= v < 2^(s-1).
            let need = (-vl).max(vh + 1).max(1) as u128;
            let bits = 128 - (need - 1).leading_zeros() as i64;
            let s_min = (bits + 1).max(2);
            let mbits = self.dice.range_i64(0, 31);
            let m = if mbits == 0 { 0 } else { self.rng.range_i64(1 << (mbits - 1), (1i64 << mbits) - 1) };
            let s = if wide { self.wide_pick(s_min.min(62), 62) } else { self.pick_shift(s_min, mag, m, out_max) };
            return (m, s);
        }
        let m = self.rng.range_i64(0, 32767);
        // apply_scale_16: the result must fit i32, with room for the output zero point.
        let limit = i128::from(i32::MAX) - 65536;
        let fits = |s: i64| {
            let half = 1i128 << (s - 1);
            ((mag * i128::from(m) + half) >> s) <= limit && ((-mag * i128::from(m) + half) >> s) >= -limit
        };
        let s_min = (2..=62).find(|&s| fits(s)).unwrap_or(62);
        let s = if wide { self.wide_pick(s_min, 62) } else { self.pick_shift(s_min, mag, m, out_max) };
        (m, s)
    }

    /// A shift >= `s_min` (and <= 62) that maps `mag * m` near the output range.
    fn pick_shift(&mut self, s_min: i64, mag: i128, m: i64, out_max: f64) -> i64 {
        let product = mag as f64 * m as f64;
        let target = if product > out_max { (product / out_max).log2().ceil() as i64 } else { 0 };
        let s = target.max(s_min) + self.dice.range_i64(-1, 2);
        s.clamp(s_min, 62)
    }
}

/// The range of `input - input_zp` as RESCALE computes it (zero-extended
/// when `input_unsigned`).
pub(crate) fn rescale_value_bounds(x: Range, in_e: ElemType, iu: bool, izp_bits: u64) -> (i128, i128) {
    let w = in_e.storage_bits();
    let izp = if iu { zext(izp_bits, w) } else { sext(izp_bits, w) };
    let (lo, hi) = x.int_bounds();
    let unsigned_max = if w >= 63 { i64::MAX } else { (1i64 << w) - 1 };
    let (xl, xh) = if iu && lo < 0 {
        (0, unsigned_max)
    } else if iu {
        (zext(lo as u64, w), zext(hi as u64, w))
    } else {
        (lo, hi)
    };
    (i128::from(xl) - i128::from(izp), i128::from(xh) - i128::from(izp))
}
