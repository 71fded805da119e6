//! Input data keeps results defined: checked on the data itself, independently
//! of the generator's range reasoning, for every operator whose REQUIREs
//! depend on values: INTDIV divisors non-zero (and no INT32_MIN / -1), shift
//! amounts in range, GATHER indices in range, SCATTER indices in range and
//! unique per batch, POW/LOG/RSQRT operands in their domains, no i32
//! overflow in ADD/SUB/MUL/NEGATE/ABS/REDUCE_SUM of leaves, TABLE i16 slopes,
//! RESCALE multiplier/shift ranges, MUL shift 0 off i32. Run with and
//! without special values.

use crate::support;

use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use std::collections::{BTreeMap, HashMap};

const I32_MIN: i64 = i32::MIN as i64;
const I32_MAX: i64 = i32::MAX as i64;

fn ints(t: &TensorData) -> Vec<i64> {
    t.to_bits().into_iter().map(|b| b as i64).collect()
}

/// Element-wise `f` over two leaves with TOSA broadcasting (equal ranks).
fn broadcast2(a: &TensorData, b: &TensorData, f: impl Fn(i64, i64) -> bool) -> bool {
    let (sa, sb) = (a.shape().to_vec(), b.shape().to_vec());
    if sa.len() != sb.len() {
        return false;
    }
    let out: Vec<usize> = sa.iter().zip(&sb).map(|(&x, &y)| x.max(y)).collect();
    let (va, vb) = (ints(a), ints(b));
    let count: usize = out.iter().product();
    let index = |shape: &[usize], coord: &[usize]| {
        coord.iter().zip(shape).fold(0usize, |acc, (&c, &d)| acc * d + if d == 1 { 0 } else { c })
    };
    let mut coord = vec![0usize; out.len()];
    for _ in 0..count {
        if !f(va[index(&sa, &coord)], vb[index(&sb, &coord)]) {
            return false;
        }
        for d in (0..out.len()).rev() {
            coord[d] += 1;
            if coord[d] < out[d] {
                break;
            }
            coord[d] = 0;
        }
    }
    true
}

#[derive(Default)]
struct Seen(BTreeMap<&'static str, usize>);

impl Seen {
    fn hit(&mut self, what: &'static str) {
        *self.0.entry(what).or_insert(0) += 1;
    }
}

fn check_case(case: &Case, seen: &mut Seen) -> Vec<String> {
    let m = &case.module;
    let a = Analysis::new(m);
    let leaves: HashMap<Id, TensorData> = support::leaf_data(case);
    let mut bad = Vec::new();
    let elem = |id: Id| a.type_of(id).and_then(|t| a.tensor_type(t)).and_then(|t| t.elem);
    for inst in &m.insts {
        let Inst::Tosa { op, args, result, .. } = inst else { continue };
        let leaf = |i: usize| args.get(i).and_then(|id| leaves.get(id));
        let mut fail = |msg: String| bad.push(format!("{op} {result}: {msg}"));
        match op {
            TosaOp::Intdiv => {
                let Some(d) = leaf(1) else {
                    fail("divisor is not a leaf".into());
                    continue;
                };
                seen.hit("INTDIV");
                if ints(d).contains(&0) {
                    fail("divisor holds 0".into());
                }
                if let Some(n) = leaf(0) {
                    if !broadcast2(n, d, |x, y| !(x == I32_MIN && y == -1)) {
                        fail("INT32_MIN / -1".into());
                    }
                }
            }
            TosaOp::ArithmeticRightShift | TosaOp::LogicalLeftShift | TosaOp::LogicalRightShift => {
                let i = if *op == TosaOp::ArithmeticRightShift { 2 } else { 1 };
                let (Some(s), Some(e)) = (leaf(i), elem(args[i])) else {
                    fail("shift amount is not a leaf".into());
                    continue;
                };
                seen.hit("shift");
                let bits = i64::from(e.storage_bits());
                if ints(s).iter().any(|&v| v < 0 || v >= bits) {
                    fail(format!("shift amount outside 0..{bits}"));
                }
            }
            TosaOp::Gather | TosaOp::Scatter => {
                let k =
                    a.type_of(args[0]).and_then(|t| a.tensor_type(t)).and_then(|t| t.shape).map_or(0, |s| s[1]) as i64;
                let Some(idx) = leaf(1) else {
                    fail("indices are not a leaf".into());
                    continue;
                };
                seen.hit(if *op == TosaOp::Gather { "GATHER" } else { "SCATTER" });
                let v = ints(idx);
                if v.iter().any(|&i| i < 0 || i >= k) {
                    fail(format!("index outside 0..{k}"));
                }
                if *op == TosaOp::Scatter {
                    let w = idx.shape().last().copied().unwrap_or(1);
                    for row in v.chunks(w) {
                        let mut r = row.to_vec();
                        r.sort_unstable();
                        if r.windows(2).any(|p| p[0] == p[1]) {
                            fail("duplicate index within a batch".into());
                        }
                    }
                }
            }
            TosaOp::Pow => {
                let (Some(x), Some(y)) = (leaf(0), leaf(1)) else {
                    fail("POW operands are not leaves".into());
                    continue;
                };
                seen.hit("POW");
                if x.to_f64().iter().any(|&v| !(v > 0.0 && v.is_finite())) {
                    fail("POW base not finite and positive".into());
                }
                if y.to_f64().iter().any(|v| !v.is_finite()) {
                    fail("POW exponent not finite".into());
                }
            }
            TosaOp::Log | TosaOp::Rsqrt => {
                let Some(x) = leaf(0) else {
                    fail("operand is not a leaf".into());
                    continue;
                };
                seen.hit("LOG/RSQRT");
                if x.to_f64().iter().any(|&v| v.is_nan() || v < 0.0) {
                    fail("negative or NaN operand".into());
                }
            }
            TosaOp::Add | TosaOp::Sub if elem(args[0]) == Some(ElemType::I32) => {
                if let (Some(x), Some(y)) = (leaf(0), leaf(1)) {
                    seen.hit("ADD/SUB i32 leaves");
                    let sub = *op == TosaOp::Sub;
                    if !broadcast2(x, y, |p, q| (I32_MIN..=I32_MAX).contains(&if sub { p - q } else { p + q })) {
                        fail("i32 overflow".into());
                    }
                }
            }
            TosaOp::Mul => {
                let shift = leaf(2).map(|t| ints(t)[0]).unwrap_or(-1);
                let e = elem(args[0]);
                if e != Some(ElemType::I32) && e.is_some_and(|e| e.is_int()) && shift != 0 {
                    fail(format!("shift {shift} on {e:?} inputs"));
                }
                if e == Some(ElemType::I32) && shift > 0 {
                    if let (Some(x), Some(y)) = (leaf(0), leaf(1)) {
                        seen.hit("MUL i32 shift leaves");
                        let r = 1i128 << (shift - 1);
                        let ok = broadcast2(x, y, |p, q| {
                            let v = (i128::from(p) * i128::from(q) + r) >> shift;
                            (i128::from(I32_MIN)..=i128::from(I32_MAX)).contains(&v)
                        });
                        if !ok {
                            fail("shifted product overflows i32".into());
                        }
                    }
                }
            }
            TosaOp::Abs | TosaOp::Negate if elem(args[0]) == Some(ElemType::I32) => {
                if let Some(x) = leaf(0) {
                    seen.hit("ABS/NEGATE i32 leaves");
                    if ints(x).contains(&I32_MIN) {
                        fail("INT32_MIN operand".into());
                    }
                }
            }
            TosaOp::ReduceSum if elem(args[1]) == Some(ElemType::I32) => {
                let Some(x) = leaf(1) else { continue };
                seen.hit("REDUCE_SUM i32 leaves");
                let axis = a.const_uint(args[0]).unwrap_or(0) as usize;
                let shape = x.shape().to_vec();
                let v = ints(x);
                let inner: usize = shape[axis + 1..].iter().product();
                let d = shape[axis];
                let outer: usize = shape[..axis].iter().product();
                for o in 0..outer {
                    for i in 0..inner {
                        let mut acc = 0i64;
                        for k in 0..d {
                            acc += v[(o * d + k) * inner + i];
                            if !(I32_MIN..=I32_MAX).contains(&acc) {
                                fail("partial sum overflows i32".into());
                            }
                        }
                    }
                }
            }
            TosaOp::Table if elem(args[0]) == Some(ElemType::I16) => {
                let Some(t) = leaf(1) else {
                    fail("table is not a constant".into());
                    continue;
                };
                seen.hit("TABLE i16");
                if ints(t).windows(2).any(|w| !(-32768..=32767).contains(&(w[1] - w[0]))) {
                    fail("table slope outside i16".into());
                }
            }
            TosaOp::Rescale => {
                let (Some(mult), Some(shift)) = (leaf(6), leaf(7)) else {
                    fail("multiplier/shift not constants".into());
                    continue;
                };
                seen.hit("RESCALE");
                if ints(mult).iter().any(|&v| v < 0) {
                    fail("negative multiplier".into());
                }
                if ints(shift).iter().any(|&v| !(2..=62).contains(&v)) {
                    fail("shift outside 2..=62".into());
                }
            }
            _ => {}
        }
    }
    bad
}

fn run(config: &Config, seeds: std::ops::Range<u64>) -> Seen {
    let mut seen = Seen::default();
    for seed in seeds {
        let case = generate_from_seed(seed, config);
        assert!(case.meta.internal_errors.is_empty(), "seed {seed}: {:?}", case.meta.internal_errors);
        let bad = check_case(&case, &mut seen);
        assert!(bad.is_empty(), "seed {seed}: {}", bad.join("; "));
    }
    seen
}

fn assert_exercised(seen: &Seen) {
    for what in [
        "INTDIV",
        "shift",
        "GATHER",
        "SCATTER",
        "POW",
        "LOG/RSQRT",
        "ADD/SUB i32 leaves",
        "REDUCE_SUM i32 leaves",
        "TABLE i16",
        "RESCALE",
        "ABS/NEGATE i32 leaves",
    ] {
        assert!(seen.0.get(what).copied().unwrap_or(0) >= 5, "{what} checked only {:?} times", seen.0.get(what));
    }
}

#[test]
fn data_keeps_every_require_satisfied() {
    let seen = run(&Config::default(), 0..1500);
    assert_exercised(&seen);
}

#[test]
fn special_values_only_where_the_result_stays_defined() {
    let mut config = Config::default();
    config.probs.special_values = 0.3;
    let seen = run(&config, 5000..6000);
    assert_exercised(&seen);
    // The specials really are there.
    let (mut nan, mut inf, mut neg_zero) = (false, false, false);
    for seed in 5000..5100 {
        let case = generate_from_seed(seed, &config);
        for t in case.entry_points.iter().flat_map(|e| &e.inputs) {
            if t.data.elem().is_float() {
                for v in t.data.to_f64() {
                    nan |= v.is_nan();
                    inf |= v.is_infinite();
                    neg_zero |= v == 0.0 && v.is_sign_negative();
                }
            }
        }
    }
    assert!(nan && inf && neg_zero, "nan {nan} inf {inf} -0 {neg_zero}");
}
