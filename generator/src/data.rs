//! Tensor data drawn from a [`Domain`]: graph inputs, graph constants and
//! inline constants all come from here, so every operand whose operator has a
//! REQUIRE on its values gets data that keeps the result defined.
//!
//! Following the TOSA conformance data generator, values are drawn from a
//! magnitude window (`scale`) inside the domain rather than from the whole
//! type range, so chained integer arithmetic has headroom; on request a
//! fraction of the elements are special values (NaN, ±Inf, ±0, subnormals,
//! extremes) wherever the domain admits them.

use crate::floats;
use crate::prng::SplitMix64;
use crate::range::{Domain, Range};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;

/// How to fill a tensor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fill {
    /// Independent values.
    Random,
    /// Every element zero (false, +0.0).
    Zero,
    /// Every element the same random value.
    Uniform,
    /// Per outermost row (sub-tensor of the first dimension): all zero
    /// (where the domain admits 0), all one random value, or random values.
    Rows,
}

/// What data to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataSpec {
    /// The values allowed.
    pub domain: Domain,
    /// Typical magnitude: values come from `[-scale, scale]` inside the domain.
    pub scale: f64,
    /// Per-element probability of a special value.
    pub specials: f64,
    /// Fill pattern.
    pub fill: Fill,
}

impl DataSpec {
    #[cfg(test)]
    /// Random data from `domain` with magnitude `scale`, no specials.
    pub fn new(domain: Domain, scale: f64) -> DataSpec {
        DataSpec { domain, scale, specials: 0.0, fill: Fill::Random }
    }
}

/// Draws a tensor of `elem` with `shape` (row-major).
pub fn generate(rng: &mut SplitMix64, elem: ElemType, shape: &[u32], spec: &DataSpec) -> TensorData {
    tensor(elem, shape, &draw_bits(rng, elem, shape, spec))
}

/// Draws a tensor like [`generate`] and reads its [`Summary`] off the drawn
/// bits in the same pass, instead of decoding the tensor again.
pub fn generate_summarised(
    rng: &mut SplitMix64,
    elem: ElemType,
    shape: &[u32],
    spec: &DataSpec,
) -> (TensorData, Summary) {
    let bits = draw_bits(rng, elem, shape, spec);
    let summary = Summary::of_bits(elem, &bits);
    (tensor(elem, shape, &bits), summary)
}

/// What the generator needs to know of a leaf's data: its value range and
/// which special floating-point values it holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The tightest range holding every element ([`Range::of_data`]).
    pub range: Range,
    /// A NaN is among the elements.
    pub nan: bool,
    /// An infinity is among the elements.
    pub inf: bool,
    /// A subnormal is among the elements.
    pub subnormal: bool,
}

impl Summary {
    /// The summary of `bits` (as [`TensorData::to_bits`] gives them) of `elem`.
    pub fn of_bits(elem: ElemType, bits: &[u64]) -> Summary {
        let mut s = Summary { range: Range::Bool, nan: false, inf: false, subnormal: false };
        if elem == ElemType::Bool {
            return s;
        }
        if !elem.is_float() {
            let lo = bits.iter().map(|&b| b as i64).min().unwrap_or(0);
            let hi = bits.iter().map(|&b| b as i64).max().unwrap_or(0);
            s.range = Range::Int { lo, hi };
            return s;
        }
        let (lo, hi) = match elem {
            // The decoding picked once per tensor, not per element.
            ElemType::Fp32 => s.floats(elem, bits, |b| f64::from(f32::from_bits(b as u32))),
            ElemType::Fp16 => s.floats(elem, bits, |b| f64::from(half::f16::from_bits(b as u16))),
            ElemType::Bf16 => s.floats(elem, bits, |b| f64::from(half::bf16::from_bits(b as u16))),
            _ => s.floats(elem, bits, |b| floats::decode(elem, b)),
        };
        s.range = Range::Float { lo, hi, nan: s.nan };
        s
    }

    /// Sets the special-value flags from `bits` and returns the finite
    /// bounds (0, 0 when every element is NaN: no finite bound holds).
    #[inline(always)]
    fn floats(&mut self, elem: ElemType, bits: &[u64], decode: impl Fn(u64) -> f64) -> (f64, f64) {
        let normal = floats::min_normal(elem);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &b in bits {
            let v = decode(b);
            if v.is_nan() {
                self.nan = true;
                continue;
            }
            self.inf |= v.is_infinite();
            self.subnormal |= v != 0.0 && v.abs() < normal;
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if lo > hi {
            (0.0, 0.0)
        } else {
            (lo, hi)
        }
    }
}

fn draw_bits(rng: &mut SplitMix64, elem: ElemType, shape: &[u32], spec: &DataSpec) -> Vec<u64> {
    let count: usize = shape.iter().map(|&d| d as usize).product();
    match spec.fill {
        Fill::Zero => vec![0; count],
        Fill::Uniform => vec![Plan::new(elem, spec).value(rng); count],
        Fill::Rows if spec.domain.admits_uniform() => rows(rng, elem, shape, spec),
        Fill::Random | Fill::Rows => match spec.domain {
            Domain::Indices { k, unique } => indices(rng, shape, k, unique),
            _ => {
                let mut out = Vec::with_capacity(count);
                Plan::new(elem, spec).extend(rng, count, &mut out);
                out
            }
        },
    }
}

fn tensor(elem: ElemType, shape: &[u32], bits: &[u64]) -> TensorData {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    match TensorData::from_bits(elem, &dims, bits) {
        Ok(t) => t,
        // `bits` has exactly one entry per element, so this cannot happen.
        Err(_) => TensorData::zeros(elem, &dims),
    }
}

/// Row-wise data (see [`Fill::Rows`]): each row of the first dimension zero,
/// uniform or random.
fn rows(rng: &mut SplitMix64, elem: ElemType, shape: &[u32], spec: &DataSpec) -> Vec<u64> {
    let count: usize = shape.iter().map(|&d| d as usize).product();
    let outer = shape.first().map_or(1, |&d| d as usize).max(1);
    let per_row = count / outer;
    let plan = Plan::new(elem, spec);
    let mut out = Vec::with_capacity(count);
    for _ in 0..outer {
        match rng.below(3) {
            0 if spec.domain.admits_zero() => out.extend(std::iter::repeat_n(0, per_row)),
            1 => out.extend(std::iter::repeat_n(plan.value(rng), per_row)),
            // Element-wise draws: fine for every domain but distinct
            // indices, which never admit uniform rows and so never get here.
            _ => plan.extend(rng, per_row, &mut out),
        }
    }
    out
}

/// What drawing one element of a tensor needs, worked out once per tensor
/// rather than per element (the draws, and so the bits, are those of the
/// element-wise definition: magnitude window, then exclusions or rounding
/// back inside the domain).
enum Plan {
    Bool,
    Indices { k: u64 },
    Int { lo: i64, hi: i64, window: (i64, i64), nonzero: bool, except: Option<i64>, specials: f64 },
    Float(FloatPlan),
}

struct FloatPlan {
    elem: ElemType,
    lo: f64,
    hi: f64,
    nan: bool,
    /// Where uniform values are drawn: the scale window inside the domain.
    window: (f64, f64),
    /// The domain clipped to the finite range, when rounding can leave it.
    clip: Option<(f64, f64)>,
    specials: f64,
    /// The special values the domain admits, computed on the first special draw.
    candidates: std::cell::OnceCell<Vec<u64>>,
}

impl Plan {
    fn new(elem: ElemType, spec: &DataSpec) -> Plan {
        match spec.domain {
            Domain::Bool => Plan::Bool,
            Domain::Indices { k, .. } => Plan::Indices { k: u64::from(k.max(1)) },
            Domain::Int { lo, hi, nonzero, except } => {
                let scale = spec.scale;
                let s = if scale.is_finite() && scale >= 1.0 { scale.min(9.0e18) as i64 } else { 1 };
                let (a, b) = (lo.max(-s), hi.min(s));
                let window = if a <= b { (a, b) } else { (lo, hi) };
                Plan::Int { lo, hi, window, nonzero, except, specials: spec.specials }
            }
            Domain::Float { lo, hi, nan } => {
                let max = floats::max_finite(elem);
                let scale = spec.scale;
                let s = if scale.is_finite() && scale > 0.0 { scale.min(max) } else { max };
                let (mut a, mut b) = (lo.max(-s), hi.min(s));
                if a > b {
                    (a, b) = (lo.max(-max), hi.min(max));
                }
                let (l, h) = (lo.max(-max), hi.min(max));
                // The whole finite range: rounding to nearest cannot leave it.
                let clip = if l <= -max && h >= max { None } else { Some((l, h)) };
                Plan::Float(FloatPlan {
                    elem,
                    lo,
                    hi,
                    nan,
                    window: (a, b),
                    clip,
                    specials: spec.specials,
                    candidates: std::cell::OnceCell::new(),
                })
            }
        }
    }

    /// One element's bits.
    fn value(&self, rng: &mut SplitMix64) -> u64 {
        match self {
            Plan::Bool => rng.below(2),
            Plan::Indices { k } => rng.below(*k),
            &Plan::Int { lo, hi, window, nonzero, except, specials } => {
                let v = int_value(rng, (lo, hi), window, specials);
                fix_exclusions(v, lo, hi, nonzero, except) as u64
            }
            Plan::Float(f) => f.value(rng, |v| floats::encode(f.elem, v)),
        }
    }

    /// Appends `n` elements' bits to `out`, with the element type's encoding
    /// chosen once for the whole run (the hot loop of data generation).
    fn extend(&self, rng: &mut SplitMix64, n: usize, out: &mut Vec<u64>) {
        let Plan::Float(f) = self else {
            out.extend((0..n).map(|_| self.value(rng)));
            return;
        };
        match f.elem {
            ElemType::Fp32 => f.extend(rng, n, out, |v| floats::encode(ElemType::Fp32, v)),
            ElemType::Fp16 => f.extend(rng, n, out, |v| floats::encode(ElemType::Fp16, v)),
            ElemType::Bf16 => f.extend(rng, n, out, |v| floats::encode(ElemType::Bf16, v)),
            _ => f.extend(rng, n, out, |v| floats::encode(f.elem, v)),
        }
    }
}

impl FloatPlan {
    #[inline(always)]
    fn extend(&self, rng: &mut SplitMix64, n: usize, out: &mut Vec<u64>, encode: impl Fn(f64) -> u64) {
        out.extend((0..n).map(|_| self.value(rng, &encode)));
    }

    #[inline(always)]
    fn value(&self, rng: &mut SplitMix64, encode: impl Fn(f64) -> u64) -> u64 {
        if rng.chance(self.specials) {
            let cands = self.candidates.get_or_init(|| float_specials(self.elem, self.lo, self.hi, self.nan));
            if !cands.is_empty() {
                return cands[rng.below(cands.len() as u64) as usize];
            }
        }
        let (a, b) = self.window;
        let bits = encode(a + (b - a) * rng.unit());
        match self.clip {
            None => bits,
            Some((l, h)) => inside(self.elem, bits, l, h),
        }
    }
}

fn int_value(rng: &mut SplitMix64, (lo, hi): (i64, i64), (a, b): (i64, i64), specials: f64) -> i64 {
    if rng.chance(specials) {
        let picks = [lo, hi, 0, 1, -1, lo.saturating_add(1), hi.saturating_sub(1)];
        let v = picks[rng.below(picks.len() as u64) as usize];
        if (lo..=hi).contains(&v) {
            return v;
        }
    }
    rng.range_i64(a, b)
}

/// Moves a value off 0 / `except`, staying inside `lo..=hi`.
fn fix_exclusions(v: i64, lo: i64, hi: i64, nonzero: bool, except: Option<i64>) -> i64 {
    let bad = |x: i64| (nonzero && x == 0) || except == Some(x) || x < lo || x > hi;
    if !bad(v) {
        return v;
    }
    for d in 1..=3i64 {
        for c in [v.saturating_add(d), v.saturating_sub(d)] {
            if !bad(c) {
                return c;
            }
        }
    }
    // Domains are built with room for at least a few admissible values.
    [hi, lo, 1, 2, -2].into_iter().find(|&c| !bad(c)).unwrap_or(hi)
}

fn indices(rng: &mut SplitMix64, shape: &[u32], k: u32, unique: bool) -> Vec<u64> {
    let count: usize = shape.iter().map(|&d| d as usize).product();
    let k = u64::from(k.max(1));
    if !unique {
        return (0..count).map(|_| rng.below(k)).collect();
    }
    let w = shape.last().map_or(1, |&d| d as usize);
    let rows = count.checked_div(w).unwrap_or(0);
    let mut out = Vec::with_capacity(count);
    let mut pool: Vec<u64> = (0..k).collect();
    for _ in 0..rows {
        // Partial Fisher–Yates: the first `w` entries become a random distinct pick.
        for i in 0..w.min(pool.len()) {
            let j = i + rng.below((pool.len() - i) as u64) as usize;
            pool.swap(i, j);
        }
        out.extend(pool.iter().take(w).copied());
        // W <= K is a generator invariant; pad defensively so shapes still match.
        out.extend(std::iter::repeat_n(0, w.saturating_sub(pool.len())));
    }
    out
}

/// `bits`, nudged one representable step at a time until it lies in `lo..=hi`.
fn inside(elem: ElemType, mut bits: u64, lo: f64, hi: f64) -> u64 {
    for _ in 0..8 {
        let v = floats::decode(elem, bits);
        if v >= lo && v <= hi {
            return bits;
        }
        bits = step(elem, bits, v < lo);
    }
    // Bounds built by the generator are representable; fall back to one of them.
    let l = floats::encode(elem, lo);
    if floats::decode(elem, l) >= lo {
        l
    } else {
        floats::encode(elem, hi)
    }
}

/// The next representable value up (`up`) or down, on sign–magnitude bits.
fn step(elem: ElemType, bits: u64, up: bool) -> u64 {
    let width = elem.storage_bits();
    let sign = 1u64 << (width - 1);
    let (neg, mag) = (bits & sign != 0, bits & (sign - 1));
    match (neg, up) {
        (false, true) => mag + 1,
        (true, false) => sign | (mag + 1),
        (false, false) if mag == 0 => sign | 1,
        (false, false) => mag - 1,
        (true, true) if mag <= 1 => 0,
        (true, true) => sign | (mag - 1),
    }
}

fn float_specials(elem: ElemType, lo: f64, hi: f64, nan: bool) -> Vec<u64> {
    let max = floats::max_finite(elem);
    let sub = floats::min_subnormal(elem);
    let norm = floats::min_normal(elem);
    let mut values = vec![0.0, -0.0, sub, -sub, norm, -norm, norm - sub, max, -max, 1.0, -1.0];
    if floats::has_inf(elem) {
        values.extend([f64::INFINITY, f64::NEG_INFINITY]);
    }
    let mut out: Vec<u64> = values
        .into_iter()
        .filter(|&v| v >= lo && v <= hi)
        .map(|v| floats::encode(elem, v))
        .filter(|&b| {
            let v = floats::decode(elem, b);
            v >= lo && v <= hi
        })
        .collect();
    if nan {
        out.push(floats::nan_bits(elem));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::range::Range;

    fn draw(elem: ElemType, domain: Domain, specials: f64) -> TensorData {
        let mut rng = SplitMix64::new(99);
        generate(&mut rng, elem, &[4, 64], &DataSpec { domain, scale: 100.0, specials, fill: Fill::Random })
    }

    #[test]
    fn data_stays_in_its_domain() {
        let cases = [
            (ElemType::I32, Domain::Int { lo: -50, hi: 50, nonzero: true, except: Some(-1) }),
            (ElemType::I8, Domain::ints(0, 7)),
            (ElemType::Fp16, Domain::floats(0.0, f64::INFINITY)),
            (ElemType::Fp8E4M3, Domain::floats(0.015625, 16.0)),
            (ElemType::Bf16, Domain::any(ElemType::Bf16)),
            (ElemType::Fp8E5M2, Domain::floats(-3.0, 3.0)),
        ];
        for (elem, d) in cases {
            for specials in [0.0, 0.5] {
                let t = draw(elem, d, specials);
                assert!(d.admits_data(&t), "{elem} {d:?} {:?}", Range::of_data(&t));
            }
        }
        let t = draw(ElemType::I32, Domain::Int { lo: -5, hi: 5, nonzero: true, except: Some(-1) }, 0.5);
        assert!(t.to_bits().iter().all(|&b| b != 0 && b as i64 != -1));
    }

    #[test]
    fn specials_appear_when_admitted() {
        let t = draw(ElemType::Fp32, Domain::any(ElemType::Fp32), 0.5);
        let v = t.to_f64();
        assert!(v.iter().any(|x| x.is_nan()));
        assert!(v.iter().any(|x| x.is_infinite()));
        assert!(v.iter().any(|x| *x == 0.0 && x.is_sign_negative()));
    }

    #[test]
    fn unique_indices_are_distinct_per_row() {
        let mut rng = SplitMix64::new(3);
        let spec = DataSpec::new(Domain::Indices { k: 9, unique: true }, 1.0);
        let t = generate(&mut rng, ElemType::I32, &[5, 9], &spec);
        for row in t.to_bits().chunks(9) {
            let mut r = row.to_vec();
            r.sort_unstable();
            r.dedup();
            assert_eq!(r.len(), 9);
            assert!(r.iter().all(|&i| i < 9));
        }
    }

    #[test]
    fn zero_and_uniform_fills() {
        let mut rng = SplitMix64::new(5);
        let mut spec = DataSpec::new(Domain::any(ElemType::Fp16), 10.0);
        spec.fill = Fill::Zero;
        assert!(generate(&mut rng, ElemType::Fp16, &[3, 2], &spec).to_bits().iter().all(|&b| b == 0));
        spec.fill = Fill::Uniform;
        let b = generate(&mut rng, ElemType::Fp16, &[3, 2], &spec).to_bits();
        assert!(b.windows(2).all(|w| w[0] == w[1]));
    }
}
