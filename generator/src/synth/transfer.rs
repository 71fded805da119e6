//! Value ranges of operation results, by interval arithmetic, and the
//! REQUIREs that depend on operand values.
//!
//! Operand synthesizers choose operands so that no REQUIRE can fail; this
//! module re-derives every such condition from the operands actually chosen
//! and reports a violation as an error (the operation is then dropped and
//! the case records an internal error, which tests assert never happens).
//! Ranges are conservative: integer results are exact bounds or the whole
//! type range; float bounds may be infinite and `nan` is set whenever a NaN
//! could appear, so CAST float→int, POW, LOG and RSQRT only ever see operands
//! in their domain.

use super::node::{Arg, NodeSpec};
use super::{Synth, Value};
use crate::floats;
use crate::range::{Domain, Range};
use spvgraph_ir::count;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::{NanMode, RoundingMode, TosaOp, TypeRow};

type R<T> = Result<T, String>;

/// Ranges of the results (one per result tensor).
pub(crate) fn output_ranges(s: &Synth<'_, '_>, n: &NodeSpec, row: &TypeRow, shapes: &[Vec<u32>]) -> R<Vec<Range>> {
    let a = Args { s, n, row };
    let out_elem = row.slot(n.op.spec().result.slot).ok_or("no result slot")?;
    let out_shape = shapes.first().cloned().unwrap_or_default();
    use TosaOp::*;
    let r = match n.op {
        Argmax => {
            let axis = a.u32("axis")? as usize;
            let d = a.val("input")?.shape.get(axis).copied().unwrap_or(1);
            Range::Int { lo: 0, hi: i64::from(d) - 1 }
        }
        AvgPool2d => avg_pool(&a, out_elem)?,
        Conv2d | Conv3d | DepthwiseConv2d | TransposeConv2d => convolution(&a, out_elem)?,
        Matmul => {
            let (av, bv) = (a.val("A")?, a.val("B")?);
            let c = av.shape.get(2).copied().unwrap_or(1);
            dot(&a, av.range, bv.range, ("A_zp", "B_zp"), u64::from(c), None, out_elem)?
        }
        MaxPool2d | ReduceMax | ReduceMin | Reverse | Reshape | Slice | Tile | Transpose => {
            a.tensor_inputs().first().map(|v| v.range).ok_or("no input")?
        }
        Fft2d | Rfft2d => {
            let [_, h, w] = fixed3(&a.val("input_real")?.shape);
            let mut m = a.val("input_real")?.range.float_magnitude();
            let mut finite = a.val("input_real")?.range.is_finite();
            if n.op == Fft2d {
                let im = a.val("input_imag")?.range;
                m += im.float_magnitude();
                finite &= im.is_finite();
            }
            let bound = m * f64::from(h) * f64::from(w);
            let r = fit(out_elem, -bound, bound, !finite);
            return Ok(vec![r, r]);
        }
        Clamp => clamp(&a, out_elem)?,
        Erf | Tanh => unit_fn(a.range("input")?, -1.0, 1.0),
        Sigmoid => unit_fn(a.range("input")?, 0.0, 1.0),
        Add | Sub => add_sub(&a, out_elem, n.op == Sub)?,
        ArithmeticRightShift => {
            shift_amounts(&a, out_elem)?;
            let (lo, hi) = a.range("input1")?.int_bounds();
            Range::Int { lo: lo.min(0), hi: hi.max(0) }
        }
        LogicalLeftShift | LogicalRightShift => {
            shift_amounts(&a, out_elem)?;
            Range::full(out_elem)
        }
        BitwiseAnd | BitwiseOr | BitwiseXor | BitwiseNot => Range::full(out_elem),
        Intdiv => intdiv(&a)?,
        LogicalAnd | LogicalOr | LogicalXor | LogicalNot | Equal | Greater | GreaterEqual | ReduceAll | ReduceAny => {
            Range::Bool
        }
        Maximum | Minimum => {
            let (x, y) = (a.range("input1")?, a.range("input2")?);
            match (x, y) {
                (Range::Int { lo: a1, hi: b1 }, Range::Int { lo: a2, hi: b2 }) if n.op == Maximum => {
                    Range::Int { lo: a1.max(a2), hi: b1.max(b2) }
                }
                (Range::Int { lo: a1, hi: b1 }, Range::Int { lo: a2, hi: b2 }) => {
                    Range::Int { lo: a1.min(a2), hi: b1.min(b2) }
                }
                _ => {
                    let ((l1, h1, n1), (l2, h2, n2)) = (x.float_bounds(), y.float_bounds());
                    if n.op == Maximum {
                        Range::Float { lo: l1.max(l2), hi: h1.max(h2), nan: n1 || n2 }
                    } else {
                        Range::Float { lo: l1.min(l2), hi: h1.min(h2), nan: n1 || n2 }
                    }
                }
            }
        }
        Mul => mul(&a, out_elem)?,
        Pow => {
            let (base, exp) = (a.range("input1")?, a.range("input2")?);
            let (bl, _, _) = base.float_bounds();
            if !(base.is_finite() && exp.is_finite() && bl > 0.0) {
                return Err(format!("POW operands outside the domain: base {base:?}, exponent {exp:?}"));
            }
            fit(out_elem, 0.0, f64::INFINITY, false)
        }
        Table => table(&a, out_elem)?,
        Abs => match a.range("input1")? {
            Range::Int { lo, hi } => {
                if out_elem == ElemType::I32 && lo == i64::from(i32::MIN) {
                    return Err("ABS of a range holding INT32_MIN".into());
                }
                abs_int(lo, hi)
            }
            r => {
                let (lo, hi, nan) = r.float_bounds();
                let m = lo.abs().max(hi.abs());
                let l = if lo <= 0.0 && hi >= 0.0 { 0.0 } else { lo.abs().min(hi.abs()) };
                Range::Float { lo: l, hi: m, nan }
            }
        },
        Ceil | Floor => {
            let (lo, hi, nan) = a.range("input1")?.float_bounds();
            fit(out_elem, lo.floor(), hi.ceil(), nan)
        }
        Clz => Range::Int { lo: 0, hi: 32 },
        Cos | Sin => {
            let r = a.range("input1")?;
            Range::Float { lo: -1.0, hi: 1.0, nan: !r.is_finite() }
        }
        Exp => {
            let (lo, hi, nan) = a.range("input1")?.float_bounds();
            fit(out_elem, lo.exp(), hi.exp(), nan)
        }
        Log => {
            let (lo, hi, nan) = a.range("input1")?.float_bounds();
            if lo < 0.0 || nan {
                return Err("LOG operand may be negative or NaN".into());
            }
            fit(out_elem, lo.ln(), hi.ln(), false)
        }
        Rsqrt => {
            let (lo, hi, nan) = a.range("input1")?.float_bounds();
            if lo < 0.0 || nan {
                return Err("RSQRT operand may be negative or NaN".into());
            }
            // rsqrt(-0) is -inf, so a range touching 0 reaches both infinities.
            let l = if lo == 0.0 { f64::NEG_INFINITY } else { 1.0 / hi.sqrt() };
            let h = if lo == 0.0 { f64::INFINITY } else { 1.0 / lo.sqrt() };
            fit(out_elem, l, h, false)
        }
        Reciprocal => {
            let (lo, hi, nan) = a.range("input1")?.float_bounds();
            if lo > 0.0 || hi < 0.0 {
                fit(out_elem, 1.0 / hi, 1.0 / lo, nan)
            } else {
                fit(out_elem, f64::NEG_INFINITY, f64::INFINITY, nan)
            }
        }
        Negate => negate(&a, out_elem)?,
        Select => a.range("input2")?.union(a.range("input3")?),
        ReduceProduct => {
            let axis = a.u32("axis")? as usize;
            let x = a.val("input")?;
            let d = x.shape.get(axis).copied().unwrap_or(1) as i32;
            let m = x.range.float_magnitude();
            let bound = if m <= 1.0 { 1.0 } else { m.powi(d) };
            fit(out_elem, -bound, bound, !x.range.is_finite())
        }
        ReduceSum => {
            let axis = a.u32("axis")? as usize;
            let x = a.val("input")?;
            let d = i128::from(x.shape.get(axis).copied().unwrap_or(1));
            match x.range {
                Range::Int { lo, hi } => int_out(d * i128::from(lo), d * i128::from(hi), out_elem, "REDUCE_SUM")?,
                r => {
                    let (lo, hi, nan) = r.float_bounds();
                    let df = d as f64;
                    fit(out_elem, (df * lo).min(lo), (df * hi).max(hi), nan || !r.is_finite())
                }
            }
        }
        Concat => {
            let mut it = a.tensor_inputs().into_iter().map(|v| v.range);
            let first = it.next().ok_or("CONCAT without inputs")?;
            it.fold(first, Range::union)
        }
        Pad => {
            let x = a.range("input1")?;
            let (e, bits) = a.tensor("pad_const")?;
            let pad = single_value_range(e, bits.first().copied().unwrap_or(0));
            x.union(pad)
        }
        Gather => {
            let k = a.val("values")?.shape.get(1).copied().unwrap_or(1);
            a.check_leaf("indices", Domain::Indices { k, unique: false })?;
            a.range("values")?
        }
        Scatter => {
            let k = a.val("values_in")?.shape.get(1).copied().unwrap_or(1);
            a.check_leaf("indices", Domain::Indices { k, unique: true })?;
            a.range("values_in")?.union(a.range("input")?)
        }
        Resize => resize(&a, out_elem)?,
        Cast => cast(a.range("input")?, a.val("input")?.elem, out_elem)?,
        Rescale => rescale(&a, out_elem, &out_shape)?,
    };
    Ok(vec![r])
}

/// Typed access to the operands of the instruction.
struct Args<'x, 's, 'u> {
    s: &'x Synth<'s, 'u>,
    n: &'x NodeSpec,
    row: &'x TypeRow,
}

impl<'x> Args<'x, '_, '_> {
    fn arg(&self, name: &str) -> R<&'x Arg> {
        let (i, _) = self.n.op.spec().operand_named(name).ok_or_else(|| format!("no operand {name}"))?;
        self.n.args.get(i).ok_or_else(|| format!("operand {name} missing"))
    }

    fn val(&self, name: &str) -> R<&'x Value> {
        match self.arg(name)? {
            Arg::Val(v) => self.s.g.values.get(*v).ok_or_else(|| format!("{name}: no value {v}")),
            other => Err(format!("{name} is {other:?}, not a value")),
        }
    }

    fn range(&self, name: &str) -> R<Range> {
        Ok(self.val(name)?.range)
    }

    fn u32(&self, name: &str) -> R<u32> {
        match self.arg(name)? {
            Arg::U32(v) => Ok(*v),
            other => Err(format!("{name} is {other:?}, not a u32 constant")),
        }
    }

    fn boolean(&self, name: &str) -> R<bool> {
        match self.arg(name)? {
            Arg::Bool(v) => Ok(*v),
            other => Err(format!("{name} is {other:?}, not a bool constant")),
        }
    }

    fn ints(&self, name: &str) -> R<&'x [i64]> {
        match self.arg(name)? {
            Arg::Ints(v) => Ok(v),
            other => Err(format!("{name} is {other:?}, not an i32 array")),
        }
    }

    fn tensor(&self, name: &str) -> R<(ElemType, &'x [u64])> {
        match self.arg(name)? {
            Arg::Tensor(e, b) => Ok((*e, b)),
            other => Err(format!("{name} is {other:?}, not a tensor constant")),
        }
    }

    fn scalar(&self, name: &str) -> R<(ElemType, u64)> {
        match self.arg(name)? {
            Arg::Scalar(e, b) => Ok((*e, *b)),
            other => Err(format!("{name} is {other:?}, not a scalar constant")),
        }
    }

    /// A zero point's value, sign-extended.
    fn zp(&self, name: &str) -> R<i64> {
        let (e, bits) = self.tensor(name)?;
        Ok(sext(bits.first().copied().unwrap_or(0), e.storage_bits()))
    }

    fn tensor_inputs(&self) -> Vec<&'x Value> {
        self.n.args.iter().filter_map(|a| if let Arg::Val(v) = a { self.s.g.values.get(*v) } else { None }).collect()
    }

    /// The operand must be a leaf whose data satisfies `d`.
    fn check_leaf(&self, name: &str, d: Domain) -> R<()> {
        let v = self.val(name)?;
        match &v.data {
            // The leaf's range holds its data: see `admits_value`.
            Some(data) if d.admits(&v.range) || d.admits_data(data) => Ok(()),
            Some(_) => Err(format!("{name}: data outside {d:?}")),
            None => Err(format!("{name}: not a leaf, its data cannot be checked")),
        }
    }
}

fn fixed3(s: &[u32]) -> [u32; 3] {
    [s.first().copied().unwrap_or(1), s.get(1).copied().unwrap_or(1), s.get(2).copied().unwrap_or(1)]
}

pub(crate) fn sext(bits: u64, width: u32) -> i64 {
    if width >= 64 || width == 0 {
        return bits as i64;
    }
    let shift = 64 - width;
    ((bits << shift) as i64) >> shift
}

pub(crate) fn zext(bits: u64, width: u32) -> i64 {
    if width >= 64 {
        return bits as i64;
    }
    (bits & ((1u64 << width) - 1)) as i64
}

fn fits(lo: i128, hi: i128, elem: ElemType) -> bool {
    let (a, b) = floats::int_range(elem);
    lo >= i128::from(a) && hi <= i128::from(b)
}

/// An integer result whose overflow is unpredictable (REQUIRE).
fn int_out(lo: i128, hi: i128, elem: ElemType, what: &str) -> R<Range> {
    if !fits(lo, hi, elem) {
        return Err(format!("{what}: {lo}..={hi} may overflow {elem}"));
    }
    Ok(Range::Int { lo: lo as i64, hi: hi as i64 })
}

/// An integer result clipped (saturated) to its type.
fn clip(lo: i128, hi: i128, elem: ElemType) -> Range {
    let (a, b) = floats::int_range(elem);
    let c = |v: i128| v.clamp(i128::from(a), i128::from(b)) as i64;
    Range::Int { lo: c(lo), hi: c(hi) }
}

/// An integer result that wraps (keeps the low bits).
fn wrap(lo: i128, hi: i128, elem: ElemType) -> Range {
    if fits(lo, hi, elem) {
        Range::Int { lo: lo as i64, hi: hi as i64 }
    } else {
        Range::full(elem)
    }
}

fn abs_int(lo: i64, hi: i64) -> Range {
    if lo >= 0 {
        Range::Int { lo, hi }
    } else if hi <= 0 {
        Range::Int { lo: hi.saturating_neg(), hi: lo.saturating_neg() }
    } else {
        Range::Int { lo: 0, hi: lo.saturating_neg().max(hi) }
    }
}

/// A float result rounded to `elem`: bounds past the largest finite value
/// become infinite (or NaN for fp8 E4M3, which has no infinity).
fn fit(elem: ElemType, lo: f64, hi: f64, nan: bool) -> Range {
    let max = floats::max_finite(elem);
    let mut nan = nan || lo.is_nan() || hi.is_nan();
    let lo = if lo.is_nan() { f64::NEG_INFINITY } else { lo };
    let hi = if hi.is_nan() { f64::INFINITY } else { hi };
    let (lo, hi) = (lo.min(hi), hi.max(lo));
    let bound = |v: f64, nan: &mut bool| {
        if v.abs() <= max {
            v
        } else if floats::has_inf(elem) {
            v.signum() * f64::INFINITY
        } else {
            *nan = true;
            v.signum() * max
        }
    };
    let l = bound(lo, &mut nan);
    let h = bound(hi, &mut nan);
    Range::Float { lo: l, hi: h, nan }
}

fn single_value_range(elem: ElemType, bits: u64) -> Range {
    if elem == ElemType::Bool {
        Range::Bool
    } else if elem.is_float() {
        let v = floats::decode(elem, bits);
        if v.is_nan() {
            Range::Float { lo: 0.0, hi: 0.0, nan: true }
        } else {
            Range::Float { lo: v, hi: v, nan: false }
        }
    } else {
        let v = sext(bits, elem.storage_bits());
        Range::Int { lo: v, hi: v }
    }
}

fn unit_fn(r: Range, lo: f64, hi: f64) -> Range {
    let (_, _, nan) = r.float_bounds();
    Range::Float { lo, hi, nan }
}

/// Products of two float intervals, with 0·∞ flagged as NaN.
fn float_mul(x: Range, y: Range) -> (f64, f64, bool) {
    let ((a, b, n1), (c, d, n2)) = (x.float_bounds(), y.float_bounds());
    let mut nan = n1 || n2;
    let zero_x = a <= 0.0 && b >= 0.0;
    let zero_y = c <= 0.0 && d >= 0.0;
    if (zero_x && (c.is_infinite() || d.is_infinite())) || (zero_y && (a.is_infinite() || b.is_infinite())) {
        nan = true;
    }
    let prods = [a * c, a * d, b * c, b * d].map(|p| if p.is_nan() { 0.0 } else { p });
    let lo = prods.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = prods.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo, hi, nan)
}

fn add_sub(a: &Args, out: ElemType, sub: bool) -> R<Range> {
    let (x, y) = (a.range("input1")?, a.range("input2")?);
    if let (Range::Int { lo: a1, hi: b1 }, Range::Int { lo: a2, hi: b2 }) = (x, y) {
        let (a1, b1, a2, b2) = (i128::from(a1), i128::from(b1), i128::from(a2), i128::from(b2));
        let (lo, hi) = if sub { (a1 - b2, b1 - a2) } else { (a1 + a2, b1 + b2) };
        return int_out(lo, hi, out, if sub { "SUB" } else { "ADD" });
    }
    let ((l1, h1, n1), (l2, h2, n2)) = (x.float_bounds(), y.float_bounds());
    let (lo, hi) = if sub { (l1 - h2, h1 - l2) } else { (l1 + l2, h1 + h2) };
    // inf − inf (or inf + −inf) is NaN.
    let clash = if sub {
        (h1.is_infinite() && h1 == h2) || (l1.is_infinite() && l1 == l2)
    } else {
        (h1 == f64::INFINITY && l2 == f64::NEG_INFINITY) || (l1 == f64::NEG_INFINITY && h2 == f64::INFINITY)
    };
    Ok(fit(out, lo, hi, n1 || n2 || clash))
}

fn mul(a: &Args, out: ElemType) -> R<Range> {
    let (x, y) = (a.range("input1")?, a.range("input2")?);
    let (_, shift_bits) = a.tensor("shift")?;
    let shift = sext(shift_bits.first().copied().unwrap_or(0), 8);
    let in_elem = a.val("input1")?.elem;
    if let (Range::Int { lo: a1, hi: b1 }, Range::Int { lo: a2, hi: b2 }) = (x, y) {
        if in_elem != ElemType::I32 && shift != 0 {
            return Err(format!("MUL shift {shift} on {in_elem} inputs"));
        }
        if !(0..=63).contains(&shift) {
            return Err(format!("MUL shift {shift} outside 0..=63"));
        }
        let (a1, b1, a2, b2) = (i128::from(a1), i128::from(b1), i128::from(a2), i128::from(b2));
        let p = [a1 * a2, a1 * b2, b1 * a2, b1 * b2];
        let (lo, hi) = (p.iter().copied().min().unwrap_or(0), p.iter().copied().max().unwrap_or(0));
        if shift == 0 {
            return Ok(wrap(lo, hi, out));
        }
        let round = 1i128 << (shift - 1);
        let f = |v: i128| (v + round) >> shift;
        return int_out(f(lo), f(hi), out, "MUL with shift");
    }
    let (lo, hi, nan) = float_mul(x, y);
    Ok(fit(out, lo, hi, nan))
}

fn shift_amounts(a: &Args, elem: ElemType) -> R<()> {
    let bits = i64::from(elem.storage_bits());
    a.check_leaf("input2", Domain::ints(0, bits - 1))
}

fn intdiv(a: &Args) -> R<Range> {
    let (lo, hi) = a.range("input1")?.int_bounds();
    let min_possible = lo == i64::from(i32::MIN);
    let except = min_possible.then_some(-1);
    a.check_leaf("input2", Domain::Int { lo: i64::from(i32::MIN), hi: i64::from(i32::MAX), nonzero: true, except })?;
    let m = lo.unsigned_abs().max(hi.unsigned_abs()).min(i32::MAX as u64) as i64;
    Ok(Range::Int { lo: -m, hi: m })
}

fn clamp(a: &Args, elem: ElemType) -> R<Range> {
    let (e1, lo_bits) = a.scalar("min_val")?;
    let (_, hi_bits) = a.scalar("max_val")?;
    let x = a.range("input")?;
    if elem.is_float() {
        let (mn, mx) = (floats::decode(e1, lo_bits), floats::decode(e1, hi_bits));
        if mn.is_nan() || mx.is_nan() || mn > mx {
            return Err(format!("CLAMP bounds {mn}..{mx}"));
        }
        let (lo, hi, nan) = x.float_bounds();
        let propagate = a.u32("nan_mode")? == NanMode::Propagate.value();
        return Ok(Range::Float { lo: lo.max(mn).min(mx), hi: hi.min(mx).max(mn), nan: nan && propagate });
    }
    let w = elem.storage_bits();
    let (mn, mx) = (sext(lo_bits, w), sext(hi_bits, w));
    if mn > mx {
        return Err(format!("CLAMP bounds {mn}..{mx}"));
    }
    let (lo, hi) = x.int_bounds();
    Ok(Range::Int { lo: lo.max(mn).min(mx), hi: hi.min(mx).max(mn) })
}

fn negate(a: &Args, out: ElemType) -> R<Range> {
    let x = a.range("input1")?;
    match x {
        Range::Int { lo, hi } => {
            let (izp, ozp) = (i128::from(a.zp("input1_zp")?), i128::from(a.zp("output_zp")?));
            // Each step is an i32 operation whose overflow is unpredictable.
            let v = int_out(i128::from(lo) - izp, i128::from(hi) - izp, ElemType::I32, "NEGATE input - zp")?;
            let (vl, vh) = v.int_bounds();
            let n = int_out(-i128::from(vh), -i128::from(vl), ElemType::I32, "NEGATE 0 - v")?;
            let (nl, nh) = n.int_bounds();
            let r = int_out(i128::from(nl) + ozp, i128::from(nh) + ozp, ElemType::I32, "NEGATE + output_zp")?;
            let (rl, rh) = r.int_bounds();
            Ok(clip(i128::from(rl), i128::from(rh), out))
        }
        r => {
            let (lo, hi, nan) = r.float_bounds();
            Ok(Range::Float { lo: -hi, hi: -lo, nan })
        }
    }
}

fn table(a: &Args, out: ElemType) -> R<Range> {
    let (e, bits) = a.tensor("table")?;
    let vals: Vec<i64> = bits.iter().map(|&b| sext(b, e.storage_bits())).collect();
    let (mn, mx) = (vals.iter().copied().min().unwrap_or(0), vals.iter().copied().max().unwrap_or(0));
    if e == ElemType::I8 {
        return Ok(Range::Int { lo: mn, hi: mx });
    }
    if let Some(w) = vals.windows(2).find(|w| !(-32768..=32767).contains(&(w[1] - w[0]))) {
        return Err(format!("TABLE i16 slope {} - {} leaves i16", w[1], w[0]));
    }
    int_out(i128::from(mn) * 128, i128::from(mx) * 128, out, "TABLE")
}

fn avg_pool(a: &Args, out: ElemType) -> R<Range> {
    let x = a.val("input")?;
    let kernel = a.ints("kernel")?;
    let count = kernel.iter().fold(1i64, |acc, &k| acc.saturating_mul(k)).max(1);
    match x.range {
        Range::Int { lo, hi } => {
            let (izp, ozp) = (a.zp("input_zp")?, a.zp("output_zp")?);
            let (vl, vh) = (i128::from(lo) - i128::from(izp), i128::from(hi) - i128::from(izp));
            let m = vl.abs().max(vh.abs());
            let acc = i128::from(count) * m;
            int_out(-acc, acc, ElemType::I32, "AVG_POOL2D accumulator")?;
            // apply_scale_32 with reciprocal_scale(c) for every window count c
            // up to the kernel's: shift = 30 + k with 2^(k-1) < c <= 2^k; per k
            // the largest c, min(count, 2^k), is the one to check.
            let kmax = 64 - (count as u64 - 1).leading_zeros() as i64;
            for k in 0..=kmax {
                let c = i128::from(count).min(1i128 << k);
                if c * m >= 1i128 << (29 + k) {
                    return Err(format!("AVG_POOL2D apply_scale_32 input range for count {c}"));
                }
            }
            Ok(clip(vl.min(0) - 1 + i128::from(ozp), vh.max(0) + 1 + i128::from(ozp), out))
        }
        r => {
            let (lo, hi, nan) = r.float_bounds();
            Ok(fit(out, lo.min(0.0), hi.max(0.0), nan || !r.is_finite()))
        }
    }
}

/// A dot product of `ks` terms plus an optional bias, in the accumulator of `out`.
fn dot(a: &Args, x: Range, w: Range, zps: (&str, &str), ks: u64, bias: Option<Range>, out: ElemType) -> R<Range> {
    if let (Range::Int { lo: xl, hi: xh }, Range::Int { lo: wl, hi: wh }) = (x, w) {
        let (izp, wzp) = (i128::from(a.zp(zps.0)?), i128::from(a.zp(zps.1)?));
        let xm = (i128::from(xl) - izp).abs().max((i128::from(xh) - izp).abs());
        let wm = (i128::from(wl) - wzp).abs().max((i128::from(wh) - wzp).abs());
        let acc = i128::from(ks) * xm * wm;
        let acc_range = int_out(-acc, acc, out, "accumulator")?;
        let Some(b) = bias else { return Ok(acc_range) };
        let (bl, bh) = b.int_bounds();
        return int_out(-acc + i128::from(bl), acc + i128::from(bh), out, "accumulator + bias");
    }
    let (xm, wm) = (x.float_magnitude(), w.float_magnitude());
    let mut bound = ks as f64 * xm * wm;
    let mut finite = x.is_finite() && w.is_finite();
    if let Some(b) = bias {
        bound += b.float_magnitude();
        finite &= b.is_finite();
    }
    let (_, _, n1) = x.float_bounds();
    let (_, _, n2) = w.float_bounds();
    Ok(fit(out, -bound, bound, !finite || n1 || n2))
}

fn convolution(a: &Args, out: ElemType) -> R<Range> {
    let x = a.val("input")?;
    let w = a.val("weight")?;
    let ks: u64 = match a.n.op {
        // [KH, KW, C, M]: each output channel sums KH*KW terms.
        TosaOp::DepthwiseConv2d => count::saturating(w.shape.iter().take(2).map(|&d| u64::from(d))),
        // [OC, K..., IC]: everything but OC.
        _ => count::saturating(w.shape.iter().skip(1).map(|&d| u64::from(d))),
    };
    let bias = a.range("bias")?;
    dot(a, x.range, w.range, ("input_zp", "weight_zp"), ks, Some(bias), out)
}

fn resize(a: &Args, out: ElemType) -> R<Range> {
    let x = a.range("input")?;
    let scale = a.ints("scale")?;
    let mode = a.u32("mode")?;
    match x {
        Range::Int { lo, hi } => {
            if mode == spvgraph_ir::tosa::ResizeMode::NearestNeighbor.value() {
                return Ok(x);
            }
            let f = i128::from(scale.first().copied().unwrap_or(1)) * i128::from(scale.get(2).copied().unwrap_or(1));
            int_out(i128::from(lo) * f, i128::from(hi) * f, out, "RESIZE bilinear")
        }
        r => {
            let (lo, hi, nan) = r.float_bounds();
            Ok(fit(out, lo, hi, nan || !r.is_finite()))
        }
    }
}

fn cast(x: Range, from: ElemType, to: ElemType) -> R<Range> {
    if to == ElemType::Bool {
        return Ok(Range::Bool);
    }
    if from == ElemType::Bool {
        return Ok(Range::Int { lo: 0, hi: 1 });
    }
    if from.is_int() && to.is_int() {
        let (lo, hi) = x.int_bounds();
        return Ok(wrap(i128::from(lo), i128::from(hi), to));
    }
    if to.is_int() {
        let (lo, hi, nan) = x.float_bounds();
        if nan {
            return Err("CAST of a possible NaN to an integer".into());
        }
        let (a, b) = floats::int_range(to);
        let sat = |v: f64| v.round().clamp(a as f64, b as f64) as i64;
        return Ok(Range::Int { lo: sat(lo), hi: sat(hi) });
    }
    let (lo, hi, nan) = x.float_bounds();
    Ok(fit(to, lo, hi, nan))
}

fn rescale(a: &Args, out: ElemType, out_shape: &[u32]) -> R<Range> {
    let x = a.val("input")?;
    let in_elem = x.elem;
    let scale32 = a.boolean("scale32")?;
    let rounding = a.u32("rounding_mode")?;
    let (iu, ou) = (a.boolean("input_unsigned")?, a.boolean("output_unsigned")?);
    let (_, mults) = a.tensor("multiplier")?;
    let (_, shifts) = a.tensor("shift")?;
    let (_, zi) = a.tensor("input_zp")?;
    let (zo_e, zo) = a.tensor("output_zp")?;
    let _ = (out_shape, a.row);
    let ozp = if ou {
        zext(zo.first().copied().unwrap_or(0), zo_e.storage_bits())
    } else {
        sext(zo.first().copied().unwrap_or(0), zo_e.storage_bits())
    };
    if !matches!(x.range, Range::Int { .. }) {
        return Err("RESCALE of a non-integer".into());
    }
    let (vl, vh) = super::ops_special::rescale_value_bounds(x.range, in_elem, iu, zi.first().copied().unwrap_or(0));
    let mut out_lo = i128::MAX;
    let mut out_hi = i128::MIN;
    let mul_width = if scale32 { 32 } else { 16 };
    for (&mb, &sb) in mults.iter().zip(shifts.iter()) {
        let m = i128::from(sext(mb, mul_width));
        let s = sext(sb, 8);
        if m < 0 {
            return Err(format!("RESCALE multiplier {m} < 0"));
        }
        if !(2..=62).contains(&s) {
            return Err(format!("RESCALE shift {s} outside 2..=62"));
        }
        let half = 1i128 << (s - 1);
        if scale32 && (vl < -half || vh >= half) {
            return Err(format!("RESCALE value {vl}..={vh} outside apply_scale_32 range for shift {s}"));
        }
        let double = rounding == RoundingMode::DoubleRound.value() && s > 31;
        let f = |v: i128| {
            let mut round = half;
            if double {
                round += if v >= 0 { 1 << 30 } else { -(1 << 30) };
            }
            (v * m + round) >> s
        };
        // Monotone in v for m >= 0 (the double-round step only adds at the sign change).
        let (mut l, mut h) = (f(vl).min(f(0)), f(vh).max(f(0)));
        if vl >= 0 {
            l = f(vl);
        }
        if vh < 0 {
            h = f(vh);
        }
        if rounding == RoundingMode::InexactRound.value() {
            (l, h) = (l - 1, h + 1);
        }
        int_out(l, h, ElemType::I32, "RESCALE scaled value")?;
        out_lo = out_lo.min(l);
        out_hi = out_hi.max(h);
    }
    if out_lo > out_hi {
        return Err("RESCALE without multipliers".into());
    }
    int_out(out_lo + i128::from(ozp), out_hi + i128::from(ozp), ElemType::I32, "RESCALE + output_zp")?;
    if ou {
        return Ok(Range::full(out));
    }
    Ok(clip(out_lo + i128::from(ozp), out_hi + i128::from(ozp), out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_overflows_to_infinity_or_nan() {
        assert_eq!(fit(ElemType::Fp16, -1e6, 1.0, false), Range::Float { lo: f64::NEG_INFINITY, hi: 1.0, nan: false });
        assert_eq!(fit(ElemType::Fp8E4M3, 0.0, 1000.0, false), Range::Float { lo: 0.0, hi: 448.0, nan: true });
        assert_eq!(
            fit(ElemType::Fp32, f64::NAN, 1.0, false),
            Range::Float { lo: f64::NEG_INFINITY, hi: 1.0, nan: true }
        );
    }

    #[test]
    fn integer_helpers() {
        assert_eq!(sext(0xff, 8), -1);
        assert_eq!(zext(0xffff_ffff_ffff_ff80, 8), 128);
        assert!(int_out(0, 1 << 31, ElemType::I32, "x").is_err());
        assert_eq!(clip(-300, 300, ElemType::I8), Range::Int { lo: -128, hi: 127 });
        assert_eq!(wrap(0, 300, ElemType::I8), Range::full(ElemType::I8));
        assert_eq!(abs_int(-5, 3), Range::Int { lo: 0, hi: 5 });
        assert_eq!(
            cast(Range::Float { lo: -1e9, hi: 2.6, nan: false }, ElemType::Fp32, ElemType::I8).ok(),
            Some(Range::Int { lo: -128, hi: 3 })
        );
        assert!(cast(Range::Float { lo: 0.0, hi: 1.0, nan: true }, ElemType::Fp32, ElemType::I8).is_err());
    }

    #[test]
    fn float_products_flag_zero_times_infinity() {
        let x = Range::Float { lo: 0.0, hi: 1.0, nan: false };
        let y = Range::Float { lo: 1.0, hi: f64::INFINITY, nan: false };
        assert!(float_mul(x, y).2);
        let z = Range::Float { lo: 1.0, hi: 2.0, nan: false };
        assert_eq!(float_mul(z, z), (1.0, 4.0, false));
    }
}
