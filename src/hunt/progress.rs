//! Where a hunt is, on disk: `OUT/progress.json`, so that a hunt killed
//! (even by `kill -9`) can be resumed (`spvgraph hunt --resume`) from the
//! first case it had not finished.
//!
//! Workers take case indices from one counter, so indices start in order
//! but finish out of order, and a case a sampled backend takes is finished
//! only when its batch has run. [`Completion`] keeps the low-water mark:
//! the smallest index not finished, below which every case is. The file is
//! rewritten (to a temporary file renamed into place, so a kill leaves the
//! old or the new one, never half of one) about once a second and at the end.

use super::shard::Shard;
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file's name under the hunt's output directory.
pub const FILE: &str = "progress.json";

/// What `progress.json` records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The hunt's first seed: case `i` uses seed `seed + i`.
    pub seed: u64,
    /// Every case index below this one is finished (first phase and every batch).
    pub done_below: u64,
    /// The `--count` the hunt was started with (`None`: time-bounded).
    pub count: Option<u64>,
    /// A digest of what decides the cases (configuration, near-valid share
    /// and rules): a resumed hunt must make the same cases.
    pub plan: String,
    /// The run's name (findings it wrote carry it as `finding.run`).
    pub run: String,
    /// Whether the hunt ran to its end (count reached or time up).
    pub finished: bool,
    /// The shard it runs (`None`: the whole range); `done_below` counts
    /// the shard's positions, not case indices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

impl Progress {
    /// The path of the file under `out`.
    pub fn path(out: &Path) -> PathBuf {
        out.join(FILE)
    }

    /// Reads `out/progress.json` (`None` when there is none).
    pub fn load(out: &Path) -> anyhow::Result<Option<Progress>> {
        let path = Progress::path(out);
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some(
                serde_json::from_str(&text).with_context(|| format!("{}: not a hunt progress file", path.display()))?,
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    /// Writes `out/progress.json` atomically.
    pub fn store(&self, out: &Path) -> anyhow::Result<()> {
        write_atomically(&Progress::path(out), &format!("{}\n", serde_json::to_string_pretty(self)?))
    }
}

/// Where a resumed hunt continues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    /// The hunt's first seed.
    pub seed: u64,
    /// The first case index not finished.
    pub start: u64,
    /// The case count (the one given now, else the hunt's own; `None`: time-bounded).
    pub count: Option<u64>,
    /// The run's name.
    pub run: String,
}

/// Where `hunt --resume` continues the hunt in `out`: it must have made its
/// cases with the same `plan` ([`super::plan_digest`]) and `shard`; `count`
/// is the `--count` given now, `timed` whether `--time` was (a hunt bounded
/// by time needs a bound again). Rebuilds its summary first, so a second
/// kill still leaves one.
pub fn resume_point(
    out: &Path,
    plan: &str,
    shard: Option<Shard>,
    count: Option<u64>,
    timed: bool,
) -> anyhow::Result<ResumePoint> {
    let Some(p) = Progress::load(out)? else {
        bail!("--resume: {} has no {FILE} (no hunt to resume there)", out.display());
    };
    if p.plan != plan {
        bail!(
            "--resume: the hunt in {} made its cases with other settings (--config, --near-valid-ratio or --rule \
             differ), so its seeds would give other cases",
            out.display()
        );
    }
    let shard = shard.filter(|s| !s.is_whole());
    if p.shard != shard {
        let named = |s: Option<Shard>| s.map_or("the whole range".to_string(), |s| format!("shard {s}"));
        bail!(
            "--resume: the hunt in {} ran {}, not {}: give the same --shard",
            out.display(),
            named(p.shard),
            named(shard)
        );
    }
    let count = count.or(p.count);
    if count.is_none() && !timed {
        bail!("--resume: the hunt in {} was bounded by time: give --time (or --count)", out.display());
    }
    super::summary::rebuild(out)?;
    Ok(ResumePoint { seed: p.seed, start: p.done_below, count, run: p.run })
}

/// Writes `text` to `path` through a temporary file renamed into place.
pub fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot move {} into place", tmp.display()))
}

/// The low-water mark of finished case indices.
pub struct Completion {
    state: Mutex<State>,
}

struct State {
    /// Every index below it is finished.
    low: u64,
    /// Finished indices above `low`.
    above: BTreeSet<u64>,
    /// Cases waiting in sampled oracles' queues: batches still to run.
    waiting: HashMap<u64, usize>,
}

impl Completion {
    /// Nothing below `start` is left to do.
    pub fn new(start: u64) -> Completion {
        Completion { state: Mutex::new(State { low: start, above: BTreeSet::new(), waiting: HashMap::new() }) }
    }

    /// Case `index` finished its first phase and went into `queued` sampled
    /// oracles' queues (0: it is finished).
    pub fn first_phase(&self, index: u64, queued: usize) {
        let Ok(mut s) = self.state.lock() else { return };
        if queued == 0 {
            s.finish(index);
        } else {
            s.waiting.insert(index, queued);
        }
    }

    /// One of the batches case `index` waited for has run.
    pub fn batch_ran(&self, index: u64) {
        let Ok(mut s) = self.state.lock() else { return };
        let left = match s.waiting.get_mut(&index) {
            Some(n) => {
                *n = n.saturating_sub(1);
                *n
            }
            None => return,
        };
        if left == 0 {
            s.waiting.remove(&index);
            s.finish(index);
        }
    }

    /// Every index below this one is finished.
    pub fn done_below(&self) -> u64 {
        self.state.lock().map(|s| s.low).unwrap_or(0)
    }
}

impl State {
    fn finish(&mut self, index: u64) {
        if index < self.low {
            return;
        }
        self.above.insert(index);
        while self.above.remove(&self.low) {
            self.low += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resume_continues_the_same_plan_and_shard_from_the_mark() {
        let out = spvgraph_testkit::scratch("resume-point");
        let err = |r: anyhow::Result<ResumePoint>| r.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err(resume_point(&out, "p", None, Some(5), false)).contains("no progress.json"));
        let p = Progress {
            seed: 100,
            done_below: 7,
            count: None,
            plan: "p".into(),
            run: "run-1".into(),
            finished: false,
            shard: None,
        };
        p.store(&out).expect("stored");
        assert!(err(resume_point(&out, "other", None, Some(5), false)).contains("other settings"));
        assert!(err(resume_point(&out, "p", Shard::parse("1/2").ok(), Some(5), false)).contains("same --shard"));
        assert!(err(resume_point(&out, "p", None, None, false)).contains("bounded by time"));
        let r = resume_point(&out, "p", None, None, true).expect("resumes");
        assert_eq!(r, ResumePoint { seed: 100, start: 7, count: None, run: "run-1".into() });
        assert_eq!(resume_point(&out, "p", Shard::parse("0/1").ok(), Some(9), false).expect("resumes").count, Some(9));
    }

    #[test]
    fn the_mark_waits_for_the_smallest_unfinished_case_and_its_batches() {
        let c = Completion::new(10);
        c.first_phase(11, 0);
        assert_eq!(c.done_below(), 10, "10 is not finished");
        c.first_phase(10, 2);
        assert_eq!(c.done_below(), 10, "10 waits for two batches");
        c.batch_ran(10);
        assert_eq!(c.done_below(), 10);
        c.batch_ran(10);
        assert_eq!(c.done_below(), 12, "10 and 11 are finished");
        c.first_phase(13, 0);
        assert_eq!(c.done_below(), 12);
    }

    #[test]
    fn progress_files_are_written_whole_and_read_back() {
        let d = std::env::temp_dir().join(format!("spvgraph-progress-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("scratch");
        let p = Progress {
            seed: 5,
            done_below: 40,
            count: Some(100),
            plan: "ab".into(),
            run: "r".into(),
            finished: false,
            shard: None,
        };
        p.store(&d).expect("write");
        assert_eq!(Progress::load(&d).expect("read"), Some(p));
        assert!(!d.join(".progress.json.tmp").exists());
        assert_eq!(Progress::load(&d.join("none")).expect("absent is fine"), None);
        let _ = std::fs::remove_dir_all(&d);
    }
}
