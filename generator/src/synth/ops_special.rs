//! GATHER, SCATTER, RESIZE, RESCALE, TABLE and CLAMP: the operators whose
//! attributes or constant inputs carry value constraints.

use super::node::{internal, Arg, NodeSpec, Skip};
use super::transfer::{sext, zext};
use super::Synth;
use crate::data::{self, DataSpec, Fill};
use crate::floats;
use crate::range::{Domain, Range};
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::tosa::{RoundingMode, RowQualifier, TosaOp};

/// One RESIZE axis: `(scale_n, scale_d, offset, border)` and the output extent.
type ResizeAxis = ((i64, i64, i64, i64), u32);

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
        let i = i64::from(i);
        let identity = ((1, 1, 0, 0), i as u32);
        let n = self.dice.range_i64(1, 16);
        let d = self.dice.range_i64(1, (16 * n - 1).min(32));
        let o = self.dice.range_i64(-n, (16 * n - 1).min(4 * n).min(i * n - 1));
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
            Ok(v) if (1..16384).contains(&v) => ((n, d, o, border), v),
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
        self.feature(if mode == 1 { "resize:mode=NEAREST_NEIGHBOR" } else { "resize:mode=BILINEAR" });
        let need = self.any_need(e);
        let x = self.value_of_rank(e, Some(4), &need);
        let s = self.shape_of(x);
        let (batch, ih, iw, c) = (
            s.first().copied().unwrap_or(1),
            s.get(1).copied().unwrap_or(1),
            s.get(2).copied().unwrap_or(1),
            s.get(3).copied().unwrap_or(1),
        );
        let (mut y, mut xa) = (self.resize_axis(ih), self.resize_axis(iw));
        if !self.fits(&[batch, y.1, xa.1, c]) {
            (y, xa) = (((1, 1, 0, 0), ih), ((1, 1, 0, 0), iw));
        }
        let ((yn, yd, oy, by), _) = y;
        let ((xn, xd, ox, bx), _) = xa;
        if yn < yd || xn < xd {
            self.feature("resize:downscale");
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
        let (a, b) = if e.is_float() {
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
        let mut mults = Vec::new();
        let mut shifts = Vec::new();
        for _ in 0..nc {
            let (m, s) = self.rescale_pair(vl, vh, scale32, out_max);
            mults.push(m as u64);
            shifts.push(s as u64);
        }
        self.feature(format!("rescale:rounding={}", rounding.name()));
        self.feature(format!("rescale:scale32={scale32}"));
        if iu {
            self.feature(format!("rescale:input_unsigned:{in_e}"));
        }
        if ou {
            self.feature(format!("rescale:output_unsigned:{out_e}"));
        }
        if per_channel {
            self.feature("rescale:per_channel");
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
    fn rescale_zp(&mut self, elem: ElemType, unsigned: bool) -> u64 {
        if !self.dice.chance(self.cfg.probs.nonzero_zero_point) {
            return 0;
        }
        match (elem, unsigned) {
            (ElemType::I8, _) => self.dice.range_i64(-128, 127) as u64,
            (ElemType::I16, true) => 0x8000,
            _ => 0,
        }
    }

    /// A multiplier/shift pair for values in `vl..=vh`.
    fn rescale_pair(&mut self, vl: i128, vh: i128, scale32: bool, out_max: f64) -> (i64, i64) {
        let mag = vl.abs().max(vh.abs()).max(1);
        if scale32 {
            // apply_scale_32: -(2^(s-1)) <= v < 2^(s-1).
            let need = (-vl).max(vh + 1).max(1) as u128;
            let bits = 128 - (need - 1).leading_zeros() as i64;
            let s_min = (bits + 1).max(2);
            let mbits = self.dice.range_i64(0, 31);
            let m = if mbits == 0 { 0 } else { self.rng.range_i64(1 << (mbits - 1), (1i64 << mbits) - 1) };
            let s = self.pick_shift(s_min, mag, m, out_max);
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
        let s = self.pick_shift(s_min, mag, m, out_max);
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
