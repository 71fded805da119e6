//! What the generator knows about the values of a tensor ([`Range`]) and what
//! an operand requires of them ([`Domain`]).
//!
//! Ranges are conservative: every element lies inside. They come exactly from
//! the data of graph inputs and constants, and from interval arithmetic for
//! operator results (`synth::transfer`). An operator whose REQUIRE could
//! fail on an operand's range does not take that operand: it gets a fresh
//! leaf whose data is drawn from a [`Domain`] that keeps the result defined.

use crate::floats;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;

/// Bounds on the elements of a tensor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// Bool data (nothing to bound).
    Bool,
    /// Integers in `lo..=hi` (signed view).
    Int {
        /// Lower bound.
        lo: i64,
        /// Upper bound.
        hi: i64,
    },
    /// Floats: every non-NaN element in `lo..=hi` (bounds may be infinite);
    /// `nan` says whether NaN may occur.
    Float {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
        /// NaN may occur.
        nan: bool,
    },
}

impl Range {
    /// Anything the element type can hold.
    pub fn full(elem: ElemType) -> Range {
        if elem == ElemType::Bool {
            Range::Bool
        } else if elem.is_float() {
            let m = if floats::has_inf(elem) { f64::INFINITY } else { floats::max_finite(elem) };
            Range::Float { lo: -m, hi: m, nan: true }
        } else {
            let (lo, hi) = floats::int_range(elem);
            Range::Int { lo, hi }
        }
    }

    /// The exact bounds of some data.
    pub fn of_data(t: &TensorData) -> Range {
        let elem = t.elem();
        if elem == ElemType::Bool {
            return Range::Bool;
        }
        if elem.is_float() {
            let (mut lo, mut hi, mut nan) = (f64::INFINITY, f64::NEG_INFINITY, false);
            for v in t.to_f64() {
                if v.is_nan() {
                    nan = true;
                } else {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
            if lo > hi {
                // All NaN: no finite bound holds, keep a degenerate interval.
                (lo, hi) = (0.0, 0.0);
            }
            return Range::Float { lo, hi, nan };
        }
        let bits = t.to_bits();
        let vals = bits.iter().map(|&b| b as i64);
        let lo = vals.clone().min().unwrap_or(0);
        let hi = vals.max().unwrap_or(0);
        Range::Int { lo, hi }
    }

    /// The smallest range holding both.
    pub fn union(self, other: Range) -> Range {
        match (self, other) {
            (Range::Int { lo: a, hi: b }, Range::Int { lo: c, hi: d }) => Range::Int { lo: a.min(c), hi: b.max(d) },
            (Range::Float { lo: a, hi: b, nan: n }, Range::Float { lo: c, hi: d, nan: m }) => {
                Range::Float { lo: a.min(c), hi: b.max(d), nan: n || m }
            }
            (Range::Bool, Range::Bool) => Range::Bool,
            // Mixed kinds never meet (operands of one slot share a type); be safe anyway.
            (a, _) => a,
        }
    }

    /// Integer bounds (`(0, 0)` for other kinds).
    pub fn int_bounds(self) -> (i64, i64) {
        match self {
            Range::Int { lo, hi } => (lo, hi),
            _ => (0, 0),
        }
    }

    /// Largest magnitude of an integer range.
    pub fn int_magnitude(self) -> u64 {
        let (lo, hi) = self.int_bounds();
        lo.unsigned_abs().max(hi.unsigned_abs())
    }

    /// Float bounds and NaN flag (`(0, 0, false)` for other kinds).
    pub fn float_bounds(self) -> (f64, f64, bool) {
        match self {
            Range::Float { lo, hi, nan } => (lo, hi, nan),
            Range::Int { lo, hi } => (lo as f64, hi as f64, false),
            Range::Bool => (0.0, 1.0, false),
        }
    }

    /// Largest magnitude of a float range (infinite when unbounded).
    pub fn float_magnitude(self) -> f64 {
        let (lo, hi, _) = self.float_bounds();
        lo.abs().max(hi.abs())
    }

    /// Whether every element is finite and not NaN.
    pub fn is_finite(self) -> bool {
        match self {
            Range::Float { lo, hi, nan } => !nan && lo.is_finite() && hi.is_finite(),
            _ => true,
        }
    }
}

/// The values an operand may take for its operator's result to be defined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Domain {
    /// Any bool.
    Bool,
    /// Integers in `lo..=hi`, optionally without 0 and without `except`.
    Int {
        /// Lower bound.
        lo: i64,
        /// Upper bound.
        hi: i64,
        /// 0 excluded (INTDIV divisor).
        nonzero: bool,
        /// One more excluded value (−1 for a divisor of a possible INT32_MIN).
        except: Option<i64>,
    },
    /// Floats in `lo..=hi` (infinite bounds admit infinities), NaN if `nan`.
    Float {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
        /// NaN allowed.
        nan: bool,
    },
    /// i32 indices in `0..k`; with `unique`, distinct within each row of a
    /// rank-2 `[N, W]` tensor (SCATTER).
    Indices {
        /// Exclusive bound.
        k: u32,
        /// Distinct per row.
        unique: bool,
    },
}

impl Domain {
    /// No constraint beyond the element type.
    pub fn any(elem: ElemType) -> Domain {
        match Range::full(elem) {
            Range::Bool => Domain::Bool,
            Range::Int { lo, hi } => Domain::Int { lo, hi, nonzero: false, except: None },
            Range::Float { lo, hi, nan } => Domain::Float { lo, hi, nan },
        }
    }

    /// Integers in `lo..=hi`.
    pub fn ints(lo: i64, hi: i64) -> Domain {
        Domain::Int { lo, hi, nonzero: false, except: None }
    }

    /// Finite, non-NaN floats in `lo..=hi`.
    pub fn floats(lo: f64, hi: f64) -> Domain {
        Domain::Float { lo, hi, nan: false }
    }

    /// Whether data known to lie in `r` satisfies the domain. Indices are
    /// never admitted from a range (their constraints are per-row), so index
    /// operands always come from a dedicated leaf.
    pub fn admits(&self, r: &Range) -> bool {
        match (self, r) {
            (Domain::Bool, Range::Bool) => true,
            (Domain::Int { lo, hi, nonzero, except }, Range::Int { lo: a, hi: b }) => {
                a >= lo && b <= hi && !(*nonzero && *a <= 0 && *b >= 0) && except.is_none_or(|e| e < *a || e > *b)
            }
            (Domain::Float { lo, hi, nan }, Range::Float { lo: a, hi: b, nan: n }) => {
                a >= lo && b <= hi && (*nan || !n)
            }
            _ => false,
        }
    }

    /// Whether every element of `t` satisfies the domain (exact, unlike
    /// [`Domain::admits`]: a divisor leaf may straddle 0 without holding it).
    pub fn admits_data(&self, t: &TensorData) -> bool {
        match *self {
            Domain::Indices { k, unique } => {
                if t.elem() != ElemType::I32 {
                    return false;
                }
                let bits = t.to_bits();
                if !bits.iter().all(|&b| (0..i64::from(k)).contains(&(b as i64))) {
                    return false;
                }
                if !unique {
                    return true;
                }
                let w = t.shape().last().copied().unwrap_or(1).max(1);
                bits.chunks(w).all(|row| {
                    let mut r = row.to_vec();
                    r.sort_unstable();
                    r.windows(2).all(|p| p[0] != p[1])
                })
            }
            Domain::Int { lo, hi, nonzero, except } => {
                if !t.elem().is_int() {
                    return false;
                }
                t.to_bits().iter().all(|&b| {
                    let v = b as i64;
                    v >= lo && v <= hi && !(nonzero && v == 0) && except != Some(v)
                })
            }
            _ => self.admits(&Range::of_data(t)),
        }
    }

    /// The domain intersected with what `elem` can hold (so derived bounds
    /// such as `i32::MIN - lo` never leave the type).
    pub fn clamp_to(self, elem: ElemType) -> Domain {
        match (self, Domain::any(elem)) {
            (Domain::Int { lo, hi, nonzero, except }, Domain::Int { lo: a, hi: b, .. }) => {
                let (lo, hi) = (lo.clamp(a, b), hi.clamp(a, b));
                Domain::Int { lo, hi: hi.max(lo), nonzero, except }
            }
            (d, _) => d,
        }
    }

    /// Whether the domain admits the value 0 (for all-zero `OpConstantNull` data).
    pub fn admits_zero(&self) -> bool {
        match *self {
            Domain::Bool => true,
            Domain::Int { lo, hi, nonzero, except } => !nonzero && lo <= 0 && hi >= 0 && except != Some(0),
            Domain::Float { lo, hi, .. } => lo <= 0.0 && hi >= 0.0,
            Domain::Indices { unique, .. } => !unique,
        }
    }

    /// Whether every element may hold the same value (replicated constants).
    pub fn admits_uniform(&self) -> bool {
        !matches!(self, Domain::Indices { unique: true, .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_respects_exclusions() {
        let div = Domain::Int { lo: -10, hi: 10, nonzero: true, except: Some(-1) };
        assert!(div.admits(&Range::Int { lo: 1, hi: 10 }));
        assert!(!div.admits(&Range::Int { lo: -2, hi: 3 }));
        assert!(!div.admits(&Range::Int { lo: -5, hi: -1 }));
        assert!(div.admits(&Range::Int { lo: -5, hi: -2 }));
        assert!(!div.admits_zero());
        let pos = Domain::floats(0.0, f64::INFINITY);
        assert!(pos.admits(&Range::Float { lo: 0.5, hi: 3.0, nan: false }));
        assert!(!pos.admits(&Range::Float { lo: 0.5, hi: 3.0, nan: true }));
        assert!(!pos.admits(&Range::Float { lo: -0.5, hi: 3.0, nan: false }));
        assert!(!Domain::Indices { k: 4, unique: false }.admits(&Range::Int { lo: 0, hi: 1 }));
    }

    #[test]
    fn data_ranges_are_exact() {
        let t = TensorData::from_bits(ElemType::I8, &[3], &[0xff, 5, 0x80]).expect("shape");
        assert_eq!(Range::of_data(&t), Range::Int { lo: -128, hi: 5 });
        let f = TensorData::from_bits(ElemType::Fp16, &[3], &[0x3c00, 0x7e00, 0xc000]).expect("shape");
        assert_eq!(Range::of_data(&f), Range::Float { lo: -2.0, hi: 1.0, nan: true });
        let i48 = TensorData::from_bits(ElemType::I48, &[2], &[(-5i64) as u64, 7]).expect("shape");
        assert_eq!(Range::of_data(&i48), Range::Int { lo: -5, hi: 7 });
    }
}
