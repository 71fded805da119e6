//! A tiny deterministic pseudo-random generator (SplitMix64).
//!
//! Two uses: expanding a `--seed` into the byte string that drives
//! [`arbitrary::Unstructured`] (so a seed reproduces a case exactly on every
//! platform), and producing bulk tensor data from a 64-bit seed drawn from
//! that byte string (so large tensors do not consume the structural bytes a
//! fuzzer mutates).

/// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, full period.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform value in `0..n` (0 when `n` is 0), by multiply-shift
    /// (bias below 2^-32 for the small `n` used here).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A uniform integer in `lo..=hi` (either order).
    pub fn range_i64(&mut self, lo: i64, hi: i64) -> i64 {
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let span = (i128::from(hi) - i128::from(lo)) as u128;
        if span >= u128::from(u64::MAX) {
            return self.next_u64() as i64;
        }
        let off = self.below(span as u64 + 1);
        (i128::from(lo) + i128::from(off)) as i64
    }

    /// A uniform `f64` in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }
}

/// The byte string a seed stands for: `len` bytes of SplitMix64 output.
///
/// `spvgraph generate --seed S` feeds case `i` the bytes of seed `S + i`, so
/// any case can be regenerated alone.
pub fn seed_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut out = vec![0; len];
    fill_seed_bytes(seed, &mut out);
    out
}

/// Overwrites `out` with the first `out.len()` bytes [`seed_bytes`] gives
/// for `seed`, so a caller generating many cases can reuse one buffer.
pub fn fill_seed_bytes(seed: u64, out: &mut [u8]) {
    let mut rng = SplitMix64::new(seed);
    let mut chunks = out.chunks_exact_mut(8);
    for chunk in &mut chunks {
        chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
    }
    let tail = chunks.into_remainder();
    let last = rng.next_u64().to_le_bytes();
    tail.copy_from_slice(&last[..tail.len()]);
}

/// How many bytes [`crate::generate_from_seed`] expands a seed into: enough
/// that the structural choices of the largest default-sized module never run
/// out (running out is harmless, it only makes the remaining choices minimal).
pub const SEED_BYTES: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 0 (reference implementation).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn ranges_stay_in_bounds() {
        let mut r = SplitMix64::new(7);
        for _ in 0..10_000 {
            let v = r.range_i64(-3, 5);
            assert!((-3..=5).contains(&v));
            assert!(r.below(10) < 10);
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(r.range_i64(4, 4), 4);
        let _ = r.range_i64(i64::MIN, i64::MAX);
    }

    #[test]
    fn seed_bytes_are_deterministic() {
        assert_eq!(seed_bytes(42, 100), seed_bytes(42, 100));
        assert_ne!(seed_bytes(42, 100), seed_bytes(43, 100));
        assert_eq!(seed_bytes(1, 13).len(), 13);
        // Every length is a prefix of the longer expansion.
        assert_eq!(seed_bytes(9, 13)[..], seed_bytes(9, 64)[..13]);
        let mut buf = vec![0xaa; 21];
        fill_seed_bytes(9, &mut buf);
        assert_eq!(buf, seed_bytes(9, 21));
    }
}
