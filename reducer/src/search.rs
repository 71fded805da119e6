//! The search: passes in order, ddmin-style chunking of each pass's atoms,
//! validity filtering before the predicate, a cache of candidates already
//! judged, and predicate calls in parallel with a result that does not
//! depend on thread timing.

use crate::candidate::{Candidate, Size};
use crate::passes::{self, Level, Pass};
use rayon::prelude::*;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::Module;
use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The must-reject rules a module breaks (empty: valid).
pub type Rules = BTreeSet<RuleId>;

/// The validity check candidates must pass before the predicate sees them.
pub type ValidityFn<'a> = Box<dyn Fn(&Module) -> Rules + Send + Sync + 'a>;

/// A progress report, sent after every batch of candidates.
pub type ProgressFn<'a> = Box<dyn Fn(&Progress) + Send + Sync + 'a>;

/// Which rules every candidate must break.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Expect {
    /// Exactly the rules the input breaks (none, for a valid input).
    #[default]
    Same,
    /// None: the input and every candidate are valid.
    Valid,
    /// Exactly this one rule (a validity finding about it).
    Rule(RuleId),
}

/// Why a reduction could not start.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// The predicate rejects the input.
    #[error("the input is not interesting: the test rejects it")]
    NotInteresting,
    /// The input does not break the expected rules.
    #[error("the input breaks {found} but the reduction was asked to keep {expected}")]
    Expectation {
        /// What was asked.
        expected: String,
        /// What the validity check found.
        found: String,
    },
}

/// Where a reduction stands.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Size of the input.
    pub initial: Size,
    /// Size of the smallest interesting candidate so far.
    pub current: Size,
    /// The pass running.
    pub pass: &'static str,
    /// Candidates accepted so far.
    pub steps: u64,
    /// Predicate calls so far.
    pub predicate_calls: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// What one pass did over the whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassInfo {
    /// Pass name.
    pub name: &'static str,
    /// Its level.
    pub level: Option<Level>,
    /// Candidates accepted.
    pub steps: u64,
    /// Candidates built.
    pub candidates: u64,
    /// Candidates the validity check turned away.
    pub invalid: u64,
    /// Predicate calls.
    pub predicate_calls: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// Size of the input.
    pub initial: Size,
    /// Size of the result.
    pub result: Size,
    /// Predicate calls, the input's included.
    pub predicate_calls: u64,
    /// Predicate calls avoided because the candidate had been judged before.
    pub cache_hits: u64,
    /// Candidates built.
    pub candidates: u64,
    /// Candidates the validity check turned away.
    pub invalid: u64,
    /// Candidates accepted.
    pub steps: u64,
    /// Rounds over all passes.
    pub rounds: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Whether the time limit stopped the run.
    pub timed_out: bool,
    /// Per pass, in order.
    pub passes: Vec<PassInfo>,
}

/// The result: the smallest interesting candidate and how it was found.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The smallest interesting candidate (the input if nothing was smaller).
    pub candidate: Candidate,
    /// Statistics.
    pub info: Info,
}

/// A configured reducer (builder style, after wasm-shrink).
pub struct Reducer<'a> {
    validity: Option<ValidityFn<'a>>,
    expect: Expect,
    jobs: usize,
    seed: u64,
    time_limit: Option<Duration>,
    progress: Option<ProgressFn<'a>>,
    passes: Vec<Box<dyn Pass>>,
}

impl Default for Reducer<'_> {
    fn default() -> Self {
        Reducer::new()
    }
}

impl<'a> Reducer<'a> {
    /// Every pass, no validity check, one job per core, seed 0, no time limit.
    pub fn new() -> Reducer<'a> {
        Reducer {
            validity: None,
            expect: Expect::Same,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 0,
            time_limit: None,
            progress: None,
            passes: passes::all(),
        }
    }

    /// The validity check: the must-reject rules a module breaks. Candidates
    /// whose rules differ from what [`Reducer::expect`] asks never reach the
    /// predicate.
    pub fn validity(mut self, f: impl Fn(&Module) -> Rules + Send + Sync + 'a) -> Self {
        self.validity = Some(Box::new(f));
        self
    }

    /// Which rules candidates must break (default: the input's).
    pub fn expect(mut self, expect: Expect) -> Self {
        self.expect = expect;
        self
    }

    /// Predicate calls run at once (at least 1). The result does not depend on it.
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.max(1);
        self
    }

    /// Seed: 0 tries each pass's atoms in module order; any other value in
    /// an order drawn from it. The same seed gives the same result.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Stops after this long with the best candidate so far.
    pub fn time_limit(mut self, limit: Option<Duration>) -> Self {
        self.time_limit = limit;
        self
    }

    /// Called after every batch of candidates.
    pub fn on_progress(mut self, f: impl Fn(&Progress) + Send + Sync + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Only these passes, by name, in the default order (for tests and
    /// experiments; unknown names are ignored).
    pub fn only_passes(mut self, names: &[&str]) -> Self {
        self.passes.retain(|p| names.contains(&p.name()));
        self
    }

    /// Names of the passes in the order they run.
    pub fn pass_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Reduces `input` while `predicate` holds.
    pub fn run(&self, input: Candidate, predicate: impl Fn(&Candidate) -> bool + Sync) -> Result<Reduced, ReduceError> {
        let start = Instant::now();
        let expected = match &self.validity {
            None => None,
            Some(v) => {
                let found = v(&input.module);
                let want = match &self.expect {
                    Expect::Same => found.clone(),
                    Expect::Valid => Rules::new(),
                    Expect::Rule(r) => [*r].into_iter().collect(),
                };
                if found != want {
                    return Err(ReduceError::Expectation { expected: describe(&want), found: describe(&found) });
                }
                Some(want)
            }
        };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(self.jobs).build().ok();
        let mut s = State {
            r: self,
            expected,
            predicate: &predicate,
            pool,
            cache: Mutex::new(HashMap::new()),
            initial: input.size(),
            size: input.size(),
            cur: input,
            info: Info::default(),
            start,
        };
        s.info.initial = s.initial;
        s.info.passes = self
            .passes
            .iter()
            .map(|p| PassInfo { name: p.name(), level: Some(p.level()), ..PassInfo::default() })
            .collect();
        s.info.predicate_calls = 1;
        let fp = s.cur.fingerprint();
        if !predicate(&s.cur) {
            return Err(ReduceError::NotInteresting);
        }
        s.cache_put(fp, true);
        'rounds: loop {
            s.info.rounds += 1;
            let mut progressed = false;
            for (pi, pass) in self.passes.iter().enumerate() {
                if s.out_of_time() {
                    break 'rounds;
                }
                progressed |= s.run_pass(pi, pass.as_ref());
            }
            if !progressed || s.out_of_time() {
                break;
            }
        }
        s.info.timed_out = s.out_of_time();
        s.info.result = s.size;
        s.info.elapsed = start.elapsed();
        Ok(Reduced { candidate: s.cur, info: s.info })
    }
}

fn describe(rules: &Rules) -> String {
    if rules.is_empty() {
        "no rule (a valid module)".into()
    } else {
        rules.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
    }
}

/// One built candidate, as the batch sees it.
enum Built {
    /// Not a candidate: no module, not smaller, or not breaking the
    /// expected rules.
    Skip { invalid: bool },
    /// Judged before.
    Known(Box<Candidate>, Size, bool),
    /// Needs a predicate call.
    Fresh(Box<Candidate>, Size, u64),
}

struct State<'r, 'a, P> {
    r: &'r Reducer<'a>,
    expected: Option<Rules>,
    predicate: &'r P,
    pool: Option<rayon::ThreadPool>,
    cache: Mutex<HashMap<u64, bool>>,
    initial: Size,
    size: Size,
    cur: Candidate,
    info: Info,
    start: Instant,
}

impl<P: Fn(&Candidate) -> bool + Sync> State<'_, '_, P> {
    fn out_of_time(&self) -> bool {
        self.r.time_limit.is_some_and(|t| self.start.elapsed() >= t)
    }

    fn cache_get(&self, fp: u64) -> Option<bool> {
        self.cache.lock().ok().and_then(|c| c.get(&fp).copied())
    }

    fn cache_put(&self, fp: u64, v: bool) {
        if let Ok(mut c) = self.cache.lock() {
            c.insert(fp, v);
        }
    }

    fn par<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }

    /// The order in which atoms are tried.
    fn order(&self, n: usize, pass: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).collect();
        if self.r.seed != 0 {
            let mut x = self.r.seed ^ ((pass as u64) << 32) ^ n as u64;
            for i in (1..n).rev() {
                x = splitmix(x);
                v.swap(i, (x % (i as u64 + 1)) as usize);
            }
        }
        v
    }

    fn build(&self, pass: &dyn Pass, chosen: &[usize]) -> Built {
        let Some(c) = pass.apply(&self.cur, chosen) else { return Built::Skip { invalid: false } };
        let size = c.size();
        if size >= self.size {
            return Built::Skip { invalid: false };
        }
        if let (Some(v), Some(want)) = (&self.r.validity, &self.expected) {
            if v(&c.module) != *want {
                return Built::Skip { invalid: true };
            }
        }
        let fp = c.fingerprint();
        match self.cache_get(fp) {
            Some(known) => Built::Known(Box::new(c), size, known),
            None => Built::Fresh(Box::new(c), size, fp),
        }
    }

    /// Runs one pass to its fixpoint; whether it changed the candidate.
    fn run_pass(&mut self, pi: usize, pass: &dyn Pass) -> bool {
        let mut any = false;
        let mut chunk = usize::MAX;
        loop {
            let mut n = pass.atoms(&self.cur);
            if n == 0 {
                return any;
            }
            chunk = chunk.min(n);
            let mut order = self.order(n, pi);
            let mut progressed = false;
            let mut at = 0;
            while at < n {
                if self.out_of_time() {
                    return any;
                }
                let jobs = self.r.jobs;
                let chunks: Vec<Vec<usize>> = (0..jobs)
                    .map(|j| at + j * chunk)
                    .take_while(|&s| s < n)
                    .map(|s| {
                        let mut c: Vec<usize> = order[s..(s + chunk).min(n)].to_vec();
                        c.sort_unstable();
                        c
                    })
                    .collect();
                let built: Vec<Built> = self.par(|| chunks.par_iter().map(|c| self.build(pass, c)).collect());
                let verdicts = self.judge(pi, &built);
                let winner = verdicts.iter().position(|&v| v);
                self.report(pass.name());
                match winner {
                    Some(j) => {
                        let (c, size) = match built.into_iter().nth(j) {
                            Some(Built::Known(c, s, _)) | Some(Built::Fresh(c, s, _)) => (c, s),
                            _ => return any,
                        };
                        self.cur = *c;
                        self.size = size;
                        self.info.steps += 1;
                        if let Some(p) = self.info.passes.get_mut(pi) {
                            p.steps += 1;
                        }
                        progressed = true;
                        any = true;
                        at += j * chunk;
                        n = pass.atoms(&self.cur);
                        order = self.order(n, pi);
                    }
                    None => at += chunks.len() * chunk,
                }
            }
            if !progressed {
                if chunk <= 1 {
                    return any;
                }
                chunk = chunk.div_ceil(2);
            }
        }
    }

    /// Whether each built candidate is interesting; fresh ones are judged
    /// by the predicate, in parallel, and remembered.
    fn judge(&mut self, pi: usize, built: &[Built]) -> Vec<bool> {
        let fresh: Vec<(usize, &Candidate, u64)> = built
            .iter()
            .enumerate()
            .filter_map(|(i, b)| match b {
                Built::Fresh(c, _, fp) => Some((i, c.as_ref(), *fp)),
                _ => None,
            })
            .collect();
        let pred = self.predicate;
        let answers: Vec<bool> = self.par(|| fresh.par_iter().map(|(_, c, _)| pred(c)).collect());
        let mut out = vec![false; built.len()];
        for ((i, _, fp), ok) in fresh.iter().zip(&answers) {
            self.cache_put(*fp, *ok);
            out[*i] = *ok;
        }
        let mut stats = PassInfo::default();
        for (i, b) in built.iter().enumerate() {
            stats.candidates += 1;
            match b {
                Built::Skip { invalid } => stats.invalid += u64::from(*invalid),
                Built::Known(_, _, known) => {
                    out[i] = *known;
                    self.info.cache_hits += 1;
                }
                Built::Fresh(..) => stats.predicate_calls += 1,
            }
        }
        if let Some(p) = self.info.passes.get_mut(pi) {
            p.candidates += stats.candidates;
            p.invalid += stats.invalid;
            p.predicate_calls += stats.predicate_calls;
        }
        self.info.candidates += stats.candidates;
        self.info.invalid += stats.invalid;
        self.info.predicate_calls += stats.predicate_calls;
        out
    }

    fn report(&self, pass: &'static str) {
        if let Some(f) = &self.r.progress {
            f(&Progress {
                initial: self.initial,
                current: self.size,
                pass,
                steps: self.info.steps,
                predicate_calls: self.info.predicate_calls,
                elapsed: self.start.elapsed(),
            });
        }
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
