//! Structural choices drawn from [`arbitrary::Unstructured`], made total.
//!
//! `Unstructured` panics on an empty `int_in_range` range and errors on an
//! empty choice list; every helper here handles those cases, so synthesis
//! never fails or panics whatever the bytes are. When the bytes run out every
//! choice becomes its minimum and every optional construct is left out, which
//! keeps the case small and valid.

use arbitrary::Unstructured;

/// Total choice helpers over an `Unstructured`.
pub(crate) struct Dice<'a, 'u> {
    u: &'a mut Unstructured<'u>,
}

impl<'a, 'u> Dice<'a, 'u> {
    pub(crate) fn new(u: &'a mut Unstructured<'u>) -> Self {
        Dice { u }
    }

    /// A value in `0..n` (0 when `n <= 1`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.u.int_in_range(0..=n - 1).unwrap_or(0)
    }

    /// A value in `lo..=hi` (`lo` when the range is empty).
    pub(crate) fn range_u32(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    /// A value in `lo..=hi` (`lo` when the range is empty).
    pub(crate) fn range_i64(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    /// True with probability `p`; once the bytes are exhausted, only for `p >= 1`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        if p >= 1.0 {
            return true;
        }
        if p.is_nan() || p <= 0.0 || self.u.is_empty() {
            return false;
        }
        let v: u16 = self.u.int_in_range(0..=u16::MAX).unwrap_or(u16::MAX);
        f64::from(v) < p * 65536.0
    }

    /// One of `items`, `None` if there are none.
    pub(crate) fn pick<'t, T>(&mut self, items: &'t [T]) -> Option<&'t T> {
        if items.is_empty() {
            return None;
        }
        let i = self.below(items.len());
        items.get(i)
    }

    /// A copy of one of `items`, or `default` if there are none.
    pub(crate) fn pick_or<T: Copy>(&mut self, items: &[T], default: T) -> T {
        self.pick(items).copied().unwrap_or(default)
    }

    /// Shuffles in place (Fisher–Yates).
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// 64 bits (to seed bulk data generation).
    pub(crate) fn u64(&mut self) -> u64 {
        self.u.int_in_range(0..=u64::MAX).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhausted_bytes_give_minimal_choices() {
        let mut u = Unstructured::new(&[]);
        let mut d = Dice::new(&mut u);
        assert_eq!(d.below(10), 0);
        assert_eq!(d.range_u32(3, 9), 3);
        assert_eq!(d.range_i64(-4, 9), -4);
        assert!(!d.chance(0.99));
        assert!(d.chance(1.0));
        assert_eq!(d.pick::<u8>(&[]), None);
        assert_eq!(d.pick_or(&[7, 8], 0), 7);
    }

    #[test]
    fn empty_ranges_do_not_panic() {
        let bytes = [0xffu8; 64];
        let mut u = Unstructured::new(&bytes);
        let mut d = Dice::new(&mut u);
        assert_eq!(d.range_u32(5, 2), 5);
        assert_eq!(d.range_i64(5, -2), 5);
        assert_eq!(d.below(0), 0);
        assert!(!d.chance(f64::NAN));
        assert!(!d.chance(0.0));
        let mut v = [1, 2, 3, 4];
        d.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, [1, 2, 3, 4]);
    }
}
