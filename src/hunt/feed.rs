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
//! A guided feed ranks by new cells per second of the backend's time
//! ([`GuideBy::CellsPerSecond`], the default): what a candidate brings,
//! divided by what a case of its size costs this backend
//! ([`super::cost::CostModel`], learnt from its batches).
//!
//! The feed also keeps the backend's judged-coverage curve (cells judged
//! over the hunt's time) for the summary and the report.

use super::case::Pending;
use super::cost::CostModel;
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
        /// What a candidate is ranked by.
        by: GuideBy,
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
            Policy::Guided { floor, pool, by, budget: None } => {
                format!("guided by {} (pool {pool}, random floor {floor})", by.name())
            }
            Policy::Guided { floor, pool, by, budget: Some(b) } => {
                format!("guided by {} (pool {pool}, random floor {floor}, at most {b} of the cases)", by.name())
            }
        }
    }
}

/// What a guided feed ranks its candidates by (`--guide-by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GuideBy {
    /// The cells a candidate brings that the backend has not been judged on.
    Cells,
    /// Those cells divided by what a case of the candidate's size costs the
    /// backend ([`CostModel`]): smaller cases first, where they bring as much.
    CellsPerSecond,
}

impl GuideBy {
    /// The name on the command line and in the summary.
    pub fn name(self) -> &'static str {
        match self {
            GuideBy::Cells => "cells",
            GuideBy::CellsPerSecond => "cells-per-second",
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

impl Candidate {
    /// Its operator nodes: what its cost grows with.
    pub fn operators(&self) -> usize {
        self.cells.operators.len()
    }
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
    cost: CostModel,
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
                cost: CostModel::new(),
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
                            let (x, y) = (self.value(&s, &s.waiting[a]), self.value(&s, &s.waiting[b]));
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
                                let (x, y) = (self.value(&s, &s.waiting[a]), self.value(&s, &s.waiting[b]));
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

    /// Learns what a batch cost the backend: `seconds` of its time for
    /// `cases` cases with `operators` operator nodes in all (see
    /// [`CostModel`]).
    pub fn learn_cost(&self, cases: usize, operators: usize, seconds: f64) {
        self.lock().cost.learn(cases, operators, seconds);
    }

    /// The backend's fitted cost per case and per operator, in seconds, if
    /// its batches have told them apart (for the summary).
    pub fn fitted_cost(&self) -> Option<(f64, f64)> {
        self.lock().cost.fitted()
    }

    /// Whether running `form` on a case of these cells is worth its time,
    /// and if so, counts its form cells as judged. Guided by cells, a form
    /// runs when it would judge a form cell (form, operator, type row) this
    /// backend has not been judged on; by cells per second, only when its
    /// new form cells per second of a run are at least what the best case
    /// waiting would bring, since the form costs about a case of its size.
    /// The random floor runs a few forms whatever they bring.
    pub fn wants_form(&self, cells: &CaseCells, form: &Rewritten) -> bool {
        let mut s = self.lock();
        let (floor, by) = match self.policy {
            Policy::Fixed { .. } => return true,
            Policy::Guided { floor, by, .. } => (floor, by),
        };
        let name = form.label();
        let form_cells: BTreeSet<Cell> = cells.rows.iter().map(|&(op, row)| Cell::form(&name, op, row)).collect();
        let new = form_cells.iter().filter(|c| !s.map.is_judged(c)).count();
        let worth = match by {
            GuideBy::Cells => new > 0,
            GuideBy::CellsPerSecond => {
                let per_second = new as f64 / s.cost.cost(cells.operators.len());
                new > 0 && per_second >= self.best_waiting(&s)
            }
        };
        if worth || s.rng.chance(floor / 4.0) {
            s.map.judge(form_cells.iter());
            return true;
        }
        false
    }

    /// What the most wanted candidate waiting would bring ([`Feed::value`]);
    /// 0 with none waiting.
    fn best_waiting(&self, s: &State) -> f64 {
        s.waiting.iter().map(|c| self.value(s, c)).fold(0.0, f64::max)
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

impl Feed {
    /// How much the feed wants `c` now: its new cells, per what it costs
    /// when the policy says so.
    fn value(&self, s: &State, c: &Candidate) -> f64 {
        let cells = s.map.score(c.cells.all());
        match self.policy {
            Policy::Guided { by: GuideBy::CellsPerSecond, .. } => cells / s.cost.cost(c.operators()),
            Policy::Guided { by: GuideBy::Cells, .. } | Policy::Fixed { .. } => cells,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hunt::case::CaseOutcome;
    use spvgraph_ir::tosa::TosaOp;
    use spvgraph_oracle::oracle::{Oracle, OwnedExecRequest};
    use std::collections::BTreeMap;

    fn feed(by: GuideBy) -> Feed {
        let oracle: Arc<dyn Oracle> = Arc::new(spvgraph_oracle::registry::InTree::default());
        let member = Sampled { oracle, channels: Vec::new(), sample: 1.0, batch: 1, guided: true };
        // No random floor: every pick is the ranking's.
        Feed::new(member, false, Policy::Guided { floor: 0.0, by, pool: 16, budget: None }, 7)
    }

    /// A candidate whose `cells` new cells are spread over `operators`
    /// operator nodes (named apart by `tag`).
    fn candidate(index: u64, tag: &str, operators: u32, cells: usize) -> Candidate {
        let mut c = CaseCells::default();
        for k in 0..cells {
            let node = spvgraph_ir::Id(1 + (k as u32 % operators));
            c.operators.entry(node).or_default().push(Cell(format!("{tag}:{k}")));
        }
        c.rows.insert((TosaOp::Add, 0));
        let request = OwnedExecRequest {
            module: Vec::new(),
            entry_point: None,
            inputs: Vec::new(),
            graph_constants: BTreeMap::new(),
        };
        let pending = Pending {
            case: CaseOutcome::empty(index, index),
            request,
            reference: None,
            mlir: None,
            observed: Err("none".into()),
            cells: Arc::new(CaseCells::default()),
        };
        Candidate { pending, cells: Arc::new(c) }
    }

    fn first_taken(by: GuideBy) -> u64 {
        let f = feed(by);
        // The large case first: the oldest wins a tie.
        f.offer(candidate(1, "large", 8, 8));
        f.offer(candidate(2, "small", 1, 8));
        f.close();
        f.take(1, None).first().map(|c| c.pending.case.index).unwrap_or(0)
    }

    #[test]
    fn by_cells_per_second_the_smaller_of_two_equally_new_candidates_goes_first() {
        assert_eq!(first_taken(GuideBy::CellsPerSecond), 2);
        // By cells alone the two tie, and the older goes first.
        assert_eq!(first_taken(GuideBy::Cells), 1);
    }

    #[test]
    fn a_form_gives_way_to_a_waiting_case_that_brings_more_per_second() {
        let form = Rewritten {
            forms: vec![spvgraph_oracle::forms::Form::Renumbered],
            stages: Vec::new(),
            outputs: Vec::new(),
        };
        let case = candidate(1, "ran", 1, 1);
        for (by, wanted) in [(GuideBy::Cells, true), (GuideBy::CellsPerSecond, false)] {
            let f = feed(by);
            f.offer(candidate(2, "rich", 1, 40));
            assert_eq!(f.wants_form(&case.cells, &form), wanted, "{by:?}");
        }
        // With nothing better waiting, the form's one new cell is worth its run.
        let f = feed(GuideBy::CellsPerSecond);
        assert!(f.wants_form(&case.cells, &form));
        // And once run, it is not new any more.
        assert!(!f.wants_form(&case.cells, &form));
    }
}
