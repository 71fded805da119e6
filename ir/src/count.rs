//! Element counts of shapes that come from modules.
//!
//! A module may declare any rank and any dimension up to 2^32 − 1, so the
//! product of a declared shape overflows 64 bits easily (six dimensions of
//! 4,244,570,113 each did, in the executor's interface code, found by the
//! `execute` fuzz target). Every count derived from a module goes through
//! here: checked (`None` when it does not fit) where the count is used as a
//! size, saturating where it is an upper bound for a budget. Never a wrapping
//! product, never a `product()` that panics in a build with overflow checks.

/// The product of `dims`, or `None` when it does not fit in a `u64`.
pub fn checked(dims: impl IntoIterator<Item = u64>) -> Option<u64> {
    dims.into_iter().try_fold(1u64, u64::checked_mul)
}

/// The product of `dims`, saturating at `u64::MAX`: an upper bound for
/// budgets and estimates.
pub fn saturating(dims: impl IntoIterator<Item = u64>) -> u64 {
    dims.into_iter().fold(1u64, u64::saturating_mul)
}

/// The element count of `shape`, or `None` when it does not fit in a `usize`.
pub fn checked_len(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// The element count of a declared (`u32`-dimensioned) shape as a `usize`,
/// or `None` when it does not fit.
pub fn checked_len_u32(shape: &[u32]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(usize::try_from(d).ok()?))
}

/// The element count of `shape` as a saturating `u64` (see [`saturating`]).
pub fn saturating_len(shape: &[usize]) -> u64 {
    saturating(shape.iter().map(|&d| d as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflowing_shapes_are_caught_not_wrapped() {
        let big = 4_244_570_113u64;
        // 6 dimensions of ~2^32 overflow 64 bits after the second factor.
        let dims = [big, big, 3, big, 3, 2];
        assert_eq!(checked(dims), None);
        assert_eq!(saturating(dims), u64::MAX);
        let shape: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
        assert_eq!(checked_len(&shape), None);
        assert_eq!(saturating_len(&shape), u64::MAX);
        assert_eq!(checked_len_u32(&[u32::MAX, u32::MAX, u32::MAX]), None);
    }

    #[test]
    fn counts_that_fit_are_exact() {
        assert_eq!(checked([2, 3, 4]), Some(24));
        assert_eq!(checked([]), Some(1));
        assert_eq!(checked([5, 0, u64::MAX]), Some(0));
        assert_eq!(saturating([2, 3, 4]), 24);
        assert_eq!(checked_len(&[1, 8, 8, 4]), Some(256));
        assert_eq!(checked_len_u32(&[7, 9]), Some(63));
    }
}
