//! Element-wise operators (unary, binary with broadcasting, SELECT,
//! comparisons), ARGMAX and the reductions.

use super::node::{internal, Arg, NodeSpec, Skip};
use super::{Need, Synth};
use crate::floats;
use crate::range::{Domain, Range};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;

impl Synth<'_, '_> {
    /// A random `nan_mode` enumerant.
    pub(crate) fn nan_mode(&mut self) -> u32 {
        let mode = self.dice.range_u32(1, 2);
        self.op_feature(if mode == 1 { "attr:nan_mode=PROPAGATE" } else { "attr:nan_mode=IGNORE" });
        mode
    }

    /// Unary operators and the other identity-shaped ones (CLAMP, NEGATE,
    /// REVERSE, CAST, TABLE, RESCALE).
    pub(crate) fn unary_like(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        match op {
            TosaOp::Table => return self.table_op(row),
            TosaOp::Rescale => return self.rescale_op(row),
            TosaOp::Clamp => return self.clamp_op(row),
            _ => {}
        }
        let spec = op.spec();
        let Some((_, input)) = spec.inputs().next() else { return internal("no tensor input") };
        let e = Synth::operand_elem(op, row, input.name)?;
        let out = Synth::operand_elem(op, row, "output")?;
        let mut need = self.unary_need(op, e, out);
        let x = if op == TosaOp::Cast && narrows(e, out) && self.dice.chance(self.cfg.probs.cast_out_of_range) {
            // The whole input range: most values lie beyond the output's.
            need.fresh.scale = if e.is_float() { floats::max_finite(e) } else { floats::int_range(e).1 as f64 };
            let rank = self.random_rank();
            let shape = self.random_shape(rank);
            self.fresh_leaf(e, &shape, &need)
        } else {
            self.value_of_rank(e, None, &need)
        };
        if op == TosaOp::Cast && beyond(self.range_of(x), out) {
            self.op_feature("special:cast-out-of-range");
        }
        let mut n = NodeSpec::new(op, row);
        match op {
            TosaOp::Negate => {
                n.arg(Arg::Val(x));
                let izp = self.zero_point(e);
                let ozp = self.zero_point(e);
                n.arg(Arg::Tensor(e, vec![izp]));
                n.arg(Arg::Tensor(e, vec![ozp]));
            }
            TosaOp::Reverse => {
                let rank = self.shape_of(x).len();
                n.arg(Arg::U32(self.dice.below(rank) as u32));
                n.arg(Arg::Val(x));
            }
            _ => n.arg(Arg::Val(x)),
        }
        Ok(n)
    }

    /// What the single input of a unary operator must hold.
    fn unary_need(&mut self, op: TosaOp, e: ElemType, out: ElemType) -> Need {
        let int32_no_min = Domain::ints(i64::from(i32::MIN) + 1, i64::from(i32::MAX));
        match op {
            // |INT32_MIN| and -INT32_MIN overflow (REQUIRE).
            TosaOp::Abs | TosaOp::Negate if e == ElemType::I32 => self.need(e, int32_no_min, int32_no_min),
            TosaOp::Log | TosaOp::Rsqrt => {
                let d = Domain::floats(0.0, f64::INFINITY);
                let mut n = self.need(e, d, d);
                n.leaf_only = true;
                n
            }
            // NaN → integer is unpredictable; infinities saturate.
            TosaOp::Cast if e.is_float() && out.is_int() => {
                let d = Domain::Float { lo: f64::NEG_INFINITY, hi: f64::INFINITY, nan: false };
                self.need(e, d, d)
            }
            _ => self.any_need(e),
        }
    }

    /// A zero point for `elem`: non-zero only for i8 (ERROR_IF otherwise).
    pub(crate) fn zero_point(&mut self, elem: ElemType) -> u64 {
        if elem == ElemType::I8 && self.dice.chance(self.cfg.probs.nonzero_zero_point) {
            self.op_feature("zero-point:nonzero");
            let v = self.dice.range_i64(-128, 127);
            let v = if v == 0 { 1 } else { v };
            return v as u64;
        }
        0
    }

    /// Element-wise binary and ternary operators with broadcasting.
    pub(crate) fn broadcast_op(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let spec = op.spec();
        let data_name = if op == TosaOp::Select { "input2" } else { "input1" };
        let e = Synth::operand_elem(op, row, data_name)?;
        let first_need = self.first_operand_need(op, e);
        let x = self.value_of_rank(e, None, &first_need);
        let out_shape = self.broadcast_target(&self.shape_of(x));
        let mut n = NodeSpec::new(op, row);
        for o in spec.operands {
            match o.name {
                "nan_mode" => n.arg(Arg::U32(self.nan_mode())),
                "round" => n.arg(Arg::Bool(self.dice.chance(0.5))),
                "shift" => {
                    let s = self.mul_shift(e, &n)?;
                    n.arg(Arg::Tensor(ElemType::I8, vec![s]));
                }
                name if name == data_name => n.arg(Arg::Val(x)),
                name => {
                    let oe = Synth::operand_elem(op, row, name)?;
                    let need = self.second_operand_need(op, oe, self.range_of(x));
                    let partner = self.partner_shape(&out_shape);
                    let y = self.broadcast_partner(oe, &out_shape, &partner, &need);
                    n.arg(Arg::Val(y));
                }
            }
        }
        Ok(n)
    }

    fn first_operand_need(&mut self, op: TosaOp, e: ElemType) -> Need {
        match op {
            TosaOp::Pow => {
                let admit = Domain::floats(floats::min_subnormal(e), floats::max_finite(e));
                let mut n = self.need(e, admit, Domain::floats(0.125, 16.0));
                n.leaf_only = true;
                n
            }
            _ => self.any_need(e),
        }
    }

    /// What the second (third) operand must hold given the first one's range.
    fn second_operand_need(&mut self, op: TosaOp, e: ElemType, first: Range) -> Need {
        let (i32_min, i32_max) = (i64::from(i32::MIN), i64::from(i32::MAX));
        let leaf = |mut n: Need| {
            n.leaf_only = true;
            n
        };
        match op {
            TosaOp::Add | TosaOp::Sub if e == ElemType::I32 => {
                let (lo, hi) = first.int_bounds();
                let d = if op == TosaOp::Add {
                    Domain::ints(i32_min - lo, i32_max - hi)
                } else {
                    Domain::ints(hi - i32_max, lo - i32_min)
                };
                self.need(e, d, d)
            }
            TosaOp::Intdiv => {
                let (lo, _) = first.int_bounds();
                let except = (lo == i32_min).then_some(-1);
                let d = Domain::Int { lo: i32_min, hi: i32_max, nonzero: true, except };
                leaf(self.need(e, d, d))
            }
            TosaOp::ArithmeticRightShift | TosaOp::LogicalLeftShift | TosaOp::LogicalRightShift => {
                let d = Domain::ints(0, i64::from(e.storage_bits()) - 1);
                leaf(self.need(e, d, d))
            }
            TosaOp::Pow => {
                let max = floats::max_finite(e);
                leaf(self.need(e, Domain::floats(-max, max), Domain::floats(-4.0, 4.0)))
            }
            _ => self.any_need(e),
        }
    }

    /// The broadcast result shape: `base` with some size-1 dimensions expanded.
    fn broadcast_target(&mut self, base: &[u32]) -> Vec<u32> {
        let mut out = base.to_vec();
        for i in 0..out.len() {
            if out[i] == 1 && self.dice.chance(0.3) {
                let d = self.random_dim();
                let old = out[i];
                out[i] = d;
                if !self.fits(&out) {
                    out[i] = old;
                }
            }
        }
        out
    }

    /// A shape broadcastable to `target`: each dimension the target's or 1.
    fn partner_shape(&mut self, target: &[u32]) -> Vec<u32> {
        target.iter().map(|&d| if d > 1 && self.dice.chance(0.25) { 1 } else { d }).collect()
    }

    /// An operand broadcastable to `target`: reused if one fits, else fresh with `shape`.
    fn broadcast_partner(&mut self, elem: ElemType, target: &[u32], shape: &[u32], need: &Need) -> usize {
        let found = self.pick_value(need, |v| {
            v.elem == elem
                && v.shape.len() == target.len()
                && v.shape.iter().zip(target).all(|(&a, &t)| a == t || a == 1)
        });
        match found {
            Some(v) => v,
            None => self.fresh_leaf(elem, shape, need),
        }
    }

    /// MUL `shift`: 0 for i8/i16 (REQUIRE); for i32 either 0 (the product
    /// wraps, which is defined) or large enough that the rounded, shifted
    /// product fits i32.
    fn mul_shift(&mut self, e: ElemType, n: &NodeSpec) -> Result<u64, Skip> {
        if e != ElemType::I32 {
            return Ok(0);
        }
        let ranges: Vec<Range> =
            n.args.iter().filter_map(|a| if let Arg::Val(v) = a { Some(self.range_of(*v)) } else { None }).collect();
        let [x, y] = ranges.as_slice() else { return internal("MUL needs two inputs before its shift") };
        let (a1, b1) = x.int_bounds();
        let (a2, b2) = y.int_bounds();
        let p = [a1, b1].into_iter().flat_map(|u| [a2, b2].map(move |w| i128::from(u) * i128::from(w)));
        let (lo, hi) = p.fold((i128::MAX, i128::MIN), |(l, h), v| (l.min(v), h.max(v)));
        if self.dice.chance(0.4) {
            return Ok(0);
        }
        let fits = |s: u32| {
            let r = 1i128 << (s - 1);
            let f = |v: i128| (v + r) >> s;
            f(lo) >= i128::from(i32::MIN) && f(hi) <= i128::from(i32::MAX)
        };
        let Some(min) = (1..=63).find(|&s| fits(s)) else { return Ok(0) };
        self.op_feature("mul:shift");
        let shift = if self.dice.chance(self.cfg.probs.wide_attributes) {
            self.wide_pick(i64::from(min), 63) as u32
        } else {
            self.dice.range_u32(min, (min + 12).min(63))
        };
        if shift >= 32 {
            self.op_feature("attr:mul-shift>=32");
        }
        Ok(u64::from(shift))
    }

    /// ARGMAX and the REDUCE_* operators.
    pub(crate) fn reduction(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let e = Synth::operand_elem(op, row, "input")?;
        let need = self.any_need(e);
        let mut x = self.value_of_rank(e, None, &need);
        let rank = self.shape_of(x).len();
        let axis = self.dice.below(rank);
        if op == TosaOp::ReduceSum && e == ElemType::I32 {
            // The sum of D values must fit i32 (REQUIRE).
            let d = i64::from(self.shape_of(x).get(axis).copied().unwrap_or(1).max(1));
            let dom = Domain::ints(i64::from(i32::MIN) / d, i64::from(i32::MAX) / d);
            let need = self.need(e, dom, dom);
            x = self.ensure(x, &need);
        }
        let mut n = NodeSpec::new(op, row);
        for o in op.spec().operands {
            match o.name {
                "axis" => n.arg(Arg::U32(axis as u32)),
                "nan_mode" => n.arg(Arg::U32(self.nan_mode())),
                _ => n.arg(Arg::Val(x)),
            }
        }
        Ok(n)
    }
}

/// Whether CAST from `from` to `to` can meet values outside `to`'s range
/// (float to int, to a float with a smaller largest value, or an integer
/// range beyond it).
fn narrows(from: ElemType, to: ElemType) -> bool {
    match (from.is_float(), to.is_float()) {
        (true, false) => to != ElemType::Bool,
        (true, true) => floats::max_finite(to) < floats::max_finite(from),
        (false, true) => floats::int_range(from).1 as f64 > floats::max_finite(to),
        (false, false) => false,
    }
}

/// Whether values in `r` may lie outside what `to` represents (beyond its
/// largest finite value or integer range, or infinite).
fn beyond(r: Range, to: ElemType) -> bool {
    match r {
        Range::Bool => false,
        Range::Int { lo, hi } if to.is_float() => {
            lo.unsigned_abs().max(hi.unsigned_abs()) as f64 > floats::max_finite(to)
        }
        Range::Int { .. } => false,
        Range::Float { .. } if to.is_float() => r.float_magnitude() > floats::max_finite(to),
        Range::Float { .. } if to == ElemType::Bool => false,
        Range::Float { .. } => {
            let (lo, hi) = floats::int_range(to);
            let (a, b, _) = r.float_bounds();
            a < lo as f64 || b > hi as f64
        }
    }
}
