//! What each expensive backend runs next: the hunt's scheduler of backend
//! time.
//!
//! Every valid case the first phase makes is offered to every sampled
//! backend's [`Feed`]. A backend runs on a thread of its own and takes
//! batches from its feed as fast as it can judge them, so the cheap first
//! phase never waits for a slow backend and a slow backend never idles.
//!
//! Two policies ([`Policy`]):
//!
//! * **guided** (the default): the feed is a pool of candidates; each batch
//!   takes the candidates that bring the most cells the backend has not yet
//!   been judged on ([`spvgraph_oracle::cells::CoverageMap`]), with a floor
//!   of random picks so that nothing is starved for good. A full pool drops
//!   its least useful candidate. Which cases a backend gets depends on how
//!   fast it judges, as in any coverage-guided fuzzer; every finding still
//!   reproduces from its seed and module.
//! * **fixed** (`--sample NAME=F`): the backend runs exactly the cases of
//!   its sample, decided by seed and name alone (reproducible at any
//!   `--jobs`); the first phase waits when the backend falls behind.
//!
//! The feed also keeps the backend's judged-coverage curve (cells judged
//! over the hunt's time) for the summary and the report.

use super::case::Pending;
use super::oracles::Sampled;
use spvgraph_generator::prng::SplitMix64;
use spvgraph_oracle::cells::{CaseCells, Cell, CoverageMap};
use spvgraph_oracle::forms::Rewritten;
use spvgraph_oracle::judge::Coverage;
use std::collections::{BTreeSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How a backend's cases are chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Every case of a fixed sample (`--sample NAME=F`), in order.
    Fixed {
        /// The share of cases, decided by seed and name.
        sample: f64,
    },
    /// The cases that bring the most new judged cells, from a pool.
    Guided {
        /// The share of picks made at random among the pool.
        floor: f64,
        /// The most candidates the pool keeps.
        pool: usize,
        /// In a hunt bounded by a number of cases, the share of the cases
        /// offered the backend may run (its default sample), so that
        /// `--count N` costs what it did; `None` in a hunt bounded by time,
        /// where the backend runs as many as its time allows.
        budget: Option<f64>,
    },
}

impl Policy {
    /// For the summary: `guided` or `fixed 0.05`.
    pub fn describe(&self) -> String {
        match self {
            Policy::Fixed { sample } => format!("fixed sample {sample}"),
            Policy::Guided { floor, pool, budget: None } => format!("guided (pool {pool}, random floor {floor})"),
            Policy::Guided { floor, pool, budget: Some(b) } => {
                format!("guided (pool {pool}, random floor {floor}, at most {b} of the cases)")
            }
        }
    }
}

/// The default share of random picks of a guided feed (`--guide-floor`).
pub const DEFAULT_FLOOR: f64 = 0.15;
/// The default size of a guided feed's pool (`--guide-pool`).
pub const DEFAULT_POOL: u64 = 96;
/// How many cases a fixed feed holds before the first phase waits for it.
const FIXED_BACKLOG: usize = 4;

/// A case waiting for a backend, with its cells.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// What the backend runs.
    pub pending: Pending,
    /// Its cells in the judged-coverage map.
    pub cells: Arc<CaseCells>,
}

/// What a feed took and dropped, for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FeedTally {
    /// Candidates offered.
    pub offered: u64,
    /// Taken to run.
    pub taken: u64,
    /// Of those, taken at random (the floor).
    pub random: u64,
    /// Dropped from a full pool, or left when the hunt's time was up.
    pub dropped: u64,
}

struct State {
    waiting: VecDeque<Candidate>,
    map: CoverageMap,
    curve: Vec<(f64, usize)>,
    rng: SplitMix64,
    tally: FeedTally,
    /// No more offers will come.
    closed: bool,
}

/// One sampled backend's queue of cases (see the module documentation).
pub struct Feed {
    /// The backend (every version of it).
    pub member: Sampled,
    /// A producer's feed takes valid cases with TOSA MLIR only.
    pub producer: bool,
    /// How cases are chosen.
    pub policy: Policy,
    state: Mutex<State>,
    changed: Condvar,
    start: Instant,
}

impl Feed {
    /// A feed for `member`; `seed` seeds its random picks (the hunt's
    /// first seed, mixed with the tool's name).
    pub fn new(member: Sampled, producer: bool, policy: Policy, seed: u64) -> Feed {
        let mix = spvgraph_oracle::judge::fnv1a(member.oracle.tool().as_bytes());
        Feed {
            member,
            producer,
            policy,
            state: Mutex::new(State {
                waiting: VecDeque::new(),
                map: CoverageMap::new(),
                curve: vec![(0.0, 0)],
                rng: SplitMix64::new(seed ^ mix),
                tally: FeedTally::default(),
                closed: false,
            }),
            changed: Condvar::new(),
            start: Instant::now(),
        }
    }

    /// Waits for a change of the feed (an offer, a take, the close), at
    /// most a quarter of a second: callers check the time again.
    fn wait<'g>(&self, s: MutexGuard<'g, State>) -> MutexGuard<'g, State> {
        match self.changed.wait_timeout(s, Duration::from_millis(250)) {
            Ok((g, _)) => g,
            Err(e) => e.into_inner().0,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every update leaves the state whole: a panic elsewhere while it was
        // held does not make it unusable.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether this feed's policy takes case `seed` at all: a fixed sample
    /// takes its share, a guided pool every case.
    pub fn considers(&self, seed: u64) -> bool {
        match self.policy {
            Policy::Fixed { .. } => self.member.takes(seed),
            Policy::Guided { .. } => true,
        }
    }

    /// Offers a case. A fixed feed queues it, waiting first while its
    /// backlog is full (the backend sets the pace); a guided pool keeps it
    /// and, when full, drops its least useful candidate. Returns the case
    /// indices dropped (each is then finished for this backend).
    pub fn offer(&self, candidate: Candidate) -> Vec<u64> {
        let mut s = self.lock();
        s.tally.offered += 1;
        match self.policy {
            Policy::Fixed { .. } => {
                while s.waiting.len() >= FIXED_BACKLOG.max(self.member.batch * 2) && !s.closed {
                    s = self.wait(s);
                }
                s.waiting.push_back(candidate);
                self.changed.notify_all();
                Vec::new()
            }
            Policy::Guided { pool, .. } => {
                s.waiting.push_back(candidate);
                let mut dropped = Vec::new();
                while s.waiting.len() > pool.max(1) {
                    // The least useful candidate, the oldest among equals.
                    let worst = (0..s.waiting.len())
                        .min_by(|&a, &b| {
                            let (x, y) = (score(&s.map, &s.waiting[a]), score(&s.map, &s.waiting[b]));
                            x.total_cmp(&y).then(a.cmp(&b))
                        })
                        .unwrap_or(0);
                    if let Some(c) = s.waiting.remove(worst) {
                        dropped.push(c.pending.case.index);
                        s.tally.dropped += 1;
                    }
                }
                self.changed.notify_all();
                dropped
            }
        }
    }

    /// Says that no more offers will come (the first phase is done).
    pub fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// The next batch, at most `max` candidates; waits for candidates until
    /// `until` (or, with none, until the feed is closed). An empty batch
    /// means there is nothing more to run: the feed is closed and empty, or
    /// the time is up.
    pub fn take(&self, max: usize, until: Option<Instant>) -> Vec<Candidate> {
        let mut s = self.lock();
        let mut waited_for_more = false;
        let mut max = max.max(1);
        loop {
            if until.is_some_and(|u| Instant::now() >= u) {
                return Vec::new();
            }
            if let Policy::Guided { budget: Some(share), .. } = self.policy {
                // What the backend may still run of the cases offered so far.
                let allowed = (share * s.tally.offered as f64).ceil() as u64;
                let left = allowed.saturating_sub(s.tally.taken);
                if left == 0 {
                    if s.closed {
                        return Vec::new();
                    }
                    s = self.wait(s);
                    continue;
                }
                max = max.min(usize::try_from(left).unwrap_or(usize::MAX));
            }
            let enough = s.waiting.len() >= max || (s.closed && !s.waiting.is_empty());
            if enough || (waited_for_more && !s.waiting.is_empty()) {
                break;
            }
            if s.closed && s.waiting.is_empty() {
                return Vec::new();
            }
            // A batching backend gains from a full batch: wait a little for
            // more, then take what there is.
            let had = s.waiting.len();
            s = self.wait(s);
            waited_for_more = had > 0;
        }
        let n = max.min(s.waiting.len());
        let mut out = Vec::with_capacity(n);
        match self.policy {
            Policy::Fixed { .. } => out.extend(s.waiting.drain(..n)),
            Policy::Guided { floor, .. } => {
                for _ in 0..n {
                    let random = s.rng.chance(floor);
                    let pick = if random {
                        let len = s.waiting.len() as u64;
                        s.rng.below(len) as usize
                    } else {
                        (0..s.waiting.len())
                            .max_by(|&a, &b| {
                                let (x, y) = (score(&s.map, &s.waiting[a]), score(&s.map, &s.waiting[b]));
                                // The oldest among equals.
                                x.total_cmp(&y).then(b.cmp(&a))
                            })
                            .unwrap_or(0)
                    };
                    let Some(c) = s.waiting.remove(pick) else { break };
                    s.tally.random += u64::from(random);
                    // Counted as sent now, so the rest of this batch looks elsewhere.
                    s.map.attempt(c.cells.all());
                    out.push(c);
                }
            }
        }
        s.tally.taken += out.len() as u64;
        self.changed.notify_all();
        out
    }

    /// The indices of every candidate still waiting, which are dropped (the
    /// hunt's time is up).
    pub fn drop_waiting(&self) -> Vec<u64> {
        let mut s = self.lock();
        let dropped: Vec<u64> = s.waiting.drain(..).map(|c| c.pending.case.index).collect();
        s.tally.dropped += dropped.len() as u64;
        self.changed.notify_all();
        dropped
    }

    /// Learns what a run judged: `coverage` is the judgement's record for
    /// this backend's release version (`None`: a producer, judged whole when
    /// it `produced`).
    pub fn learn(&self, cells: &CaseCells, coverage: Option<&Coverage>, produced: bool) {
        let mut s = self.lock();
        let judged: Vec<&Cell> = match coverage {
            Some(c) => cells.judged(c.complete(), &c.judged_nodes),
            None if produced => cells.all().collect(),
            None => Vec::new(),
        };
        let before = s.map.judged();
        s.map.judge(judged);
        if s.map.judged() != before {
            let t = self.start.elapsed().as_secs_f64();
            let n = s.map.judged();
            s.curve.push((t, n));
        }
    }

    /// Whether running `form` on a case of these cells would judge a form
    /// cell this backend has not been judged on (or it is the floor's turn),
    /// and if so, counts those cells as judged: a form is run once per
    /// (form, operator, type row) and backend, plus the random floor.
    pub fn wants_form(&self, cells: &CaseCells, form: &Rewritten) -> bool {
        let mut s = self.lock();
        let floor = match self.policy {
            Policy::Fixed { .. } => return true,
            Policy::Guided { floor, .. } => floor,
        };
        let name = form.label();
        let form_cells: BTreeSet<Cell> = cells.rows.iter().map(|&(op, row)| Cell::form(&name, op, row)).collect();
        let new = form_cells.iter().any(|c| !s.map.is_judged(c));
        if new || s.rng.chance(floor / 4.0) {
            s.map.judge(form_cells.iter());
            return true;
        }
        false
    }

    /// Cells judged so far, with the curve of that count over the hunt's
    /// time (seconds since the feed was made), and what the feed took and
    /// dropped.
    pub fn report(&self) -> (usize, Vec<(f64, usize)>, FeedTally) {
        let s = self.lock();
        let mut curve = s.curve.clone();
        curve.push((self.start.elapsed().as_secs_f64(), s.map.judged()));
        (s.map.judged(), curve, s.tally)
    }
}

fn score(map: &CoverageMap, c: &Candidate) -> f64 {
    map.score(c.cells.all())
}
