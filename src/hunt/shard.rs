//! One share of a hunt's seed range, for hunts spread over machines: shard
//! `K` of `N` (`spvgraph hunt --shard K/N`) runs the case indices `i` with
//! `i mod N = K`, so any scheduler that hands out an index (a CI matrix, a
//! Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, a Slurm array task id)
//! can drive it, and `spvgraph findings merge` of the N findings
//! directories gives what one process hunting the whole range gives.
//!
//! A shard counts its own cases by *position* (`0, 1, 2, ...`); case index
//! `K + position * N` uses seed `SEED + index`, as in an unsharded hunt.
//! `progress.json` records positions, so a killed shard resumes as any hunt.

/// Shard `index` of `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which one, from 0.
    pub index: u64,
    /// How many there are.
    pub of: u64,
}

impl Shard {
    /// The whole range: one shard.
    pub const WHOLE: Shard = Shard { index: 0, of: 1 };

    /// Parses `K/N` (0 ≤ K < N).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s.trim().split_once('/').ok_or_else(|| format!("{s:?}: expected K/N, e.g. 0/8"))?;
        let index: u64 = k.trim().parse().map_err(|_| format!("{s:?}: {k:?} is not a shard index"))?;
        let of: u64 = n.trim().parse().map_err(|_| format!("{s:?}: {n:?} is not a shard count"))?;
        if of == 0 || index >= of {
            return Err(format!("{s:?}: the shard index must be from 0 to the count minus 1"));
        }
        Ok(Shard { index, of })
    }

    /// Whether this is the whole range.
    pub fn is_whole(&self) -> bool {
        self.of == 1
    }

    /// The hunt case index of this shard's case at `position`.
    pub fn case(&self, position: u64) -> u64 {
        self.index.saturating_add(position.saturating_mul(self.of))
    }

    /// The position of case `index` in this shard (`None`: another shard's).
    pub fn position(&self, index: u64) -> Option<u64> {
        (index >= self.index && (index - self.index) % self.of == 0).then(|| (index - self.index) / self.of)
    }

    /// How many of the case indices below `count` are this shard's.
    pub fn share(&self, count: u64) -> u64 {
        if count <= self.index {
            0
        } else {
            (count - self.index).div_ceil(self.of)
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_range() {
        let count = 103;
        let shards: Vec<Shard> = (0..4).map(|k| Shard { index: k, of: 4 }).collect();
        let mut seen: Vec<u64> = shards.iter().flat_map(|s| (0..s.share(count)).map(move |p| s.case(p))).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..count).collect::<Vec<_>>());
        for s in &shards {
            for p in 0..s.share(count) {
                assert_eq!(s.position(s.case(p)), Some(p));
            }
        }
        assert_eq!(Shard { index: 1, of: 4 }.position(2), None);
        assert_eq!(Shard::WHOLE.share(7), 7);
        assert_eq!(Shard { index: 5, of: 8 }.share(3), 0);
    }

    #[test]
    fn shards_are_parsed() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, of: 8 }));
        assert!(Shard::parse("8/8").is_err());
        assert!(Shard::parse("1/0").is_err());
        assert!(Shard::parse("x").is_err());
        assert_eq!(Shard { index: 2, of: 8 }.to_string(), "2/8");
    }
}
