//! The bug hunt as a library: for a time or a number of cases, on every
//! core, generate valid and near-valid cases, run every oracle on them, and
//! write every disagreement as a finding.
//!
//! Case `i` uses seed `S + i`. Whether it is valid or near-valid, which rule
//! a near-valid case breaks, and which sampled oracles run it are decided
//! from the seed alone, so every finding is reproduced by one command.
//!
//! Each case goes through two phases. The first (on the worker that
//! generated it): the round-trip, every validator, and, when a sampled
//! backend or producer takes the case, the in-tree executor. The second:
//! the case waits in each sampled oracle's queue until a batch is full, and
//! the worker that fills it runs the batch ([`batch`]). Both phases end in
//! the one judgement (`spvgraph_oracle::judge`), and the store writes each
//! new signature as it is found.

pub mod batch;
pub mod case;
pub mod cost;
pub mod feed;
pub mod findings;
pub mod guard;
pub mod merge;
pub mod neighbours;
pub mod networks;
pub mod note;
pub mod oracles;
pub mod picture;
pub mod priority;
pub mod progress;
pub mod reduce_finding;
pub mod report;
pub mod reproduce_command;
pub mod shard;
pub mod store;
pub mod summary;
pub mod upstream;

use case::{CaseOutcome, Hunter, Pending};
use oracles::OracleSet;
use serde_json::Value;
use spvgraph_generator::Config;
use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::judge::{Disagreement, DocumentedPolicy};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use store::{Recorded, Store, StoreContext};
use summary::{Stats, SummaryContext};

/// What to hunt through.
#[derive(Clone)]
pub struct HuntOptions {
    /// Stop after this long (checked between cases).
    pub time: Option<Duration>,
    /// Stop when case index `count` is reached (with `start` 0: after this many cases).
    pub count: Option<u64>,
    /// The share of the case indices this hunt runs ([`shard::Shard::WHOLE`]: all).
    pub shard: shard::Shard,
    /// First seed: case `i` uses seed `seed + i`.
    pub seed: u64,
    /// The first position (of the shard's cases, see [`shard`]) to run (0;
    /// a resumed hunt starts where the killed one had finished every case,
    /// see [`progress`]).
    pub start: u64,
    /// This run's name, recorded in each finding it writes and in
    /// `progress.json` (a resumed hunt keeps the name of the run it resumes).
    pub run_id: String,
    /// Worker threads.
    pub jobs: usize,
    /// Where `findings/` and `summary.json` go.
    pub out: PathBuf,
    /// Share of near-valid cases.
    pub near_valid_ratio: f64,
    /// The rules near-valid cases break.
    pub rules: Vec<RuleId>,
    /// Generator configuration.
    pub config: Config,
    /// Whether the configuration came from a file (then each finding keeps a copy).
    pub config_from_file: bool,
    /// The oracles.
    pub oracles: OracleSet,
    /// Whether documented discrepancies are known;
    /// [`DocumentedPolicy::Ignored`] is the recall self-check (see
    /// [`store::Store::recall`]).
    pub documented: DocumentedPolicy,
    /// Seeds at which the in-tree validator is made to panic (tests only).
    pub inject_panic: Vec<u64>,
    /// Whether backends also run each valid case's observed form (every
    /// operator judged on its own); else only graph outputs are judged.
    pub observe: bool,
    /// Reduce each new signature's case before its finding is written.
    pub reduce: Option<reduce_finding::FindingReduction>,
    /// Mutants run around each case that shows a new signature (its
    /// neighbours, see [`neighbours`]); 0 turns them off.
    pub neighbours: usize,
    /// The share of a guided backend's picks made at random ([`feed::Policy::Guided`]).
    pub guide_floor: f64,
    /// What a guided backend's candidates are ranked by.
    pub guide_by: feed::GuideBy,
    /// The most candidates a guided backend's pool keeps.
    pub guide_pool: usize,
    /// Real networks to make every case a neighbour of (`--profile
    /// networks`, see [`networks`]) instead of generating cases.
    pub networks: Option<Arc<networks::NetworkSeeds>>,
}

/// Told about the hunt's progress (the CLI draws a bar; tests ignore it).
pub trait Progress: Sync {
    /// Every ~100 ms: cases done, findings (occurrences, signatures) so far.
    fn tick(&self, done: u64, occurrences: u64, signatures: u64);
    /// A new signature was written (`documented`: a known discrepancy).
    fn finding(&self, seed: u64, key: &str, dir: &std::path::Path, documented: bool);
    /// A line about the hunt's work (a finding being reduced).
    fn note(&self, _line: &str) {}
}

/// A [`Progress`] that says nothing.
pub struct Silent;

impl Progress for Silent {
    fn tick(&self, _: u64, _: u64, _: u64) {}
    fn finding(&self, _: u64, _: &str, _: &std::path::Path, _: bool) {}
}

/// The result of a hunt.
pub struct HuntReport {
    /// The summary (also written to `OUT/summary.json`).
    pub summary: Value,
    /// The same as a table for people.
    pub table: String,
    /// Signatures neither known from an earlier run nor documented.
    pub new_signatures: u64,
    /// Errors writing findings or running workers (the hunt still finished).
    pub errors: Vec<String>,
}

/// The order findings are reduced in: undocumented before documented
/// (whose reduction only confirms the match, even in the recall
/// self-check, whatever its policy), then by severity, then in the order
/// they were found.
fn reduction_priority(
    d: &Disagreement,
    index: u64,
    queued: usize,
) -> (bool, spvgraph_oracle::judge::Severity, u64, usize) {
    (d.disposition(DocumentedPolicy::Known).documented().is_some(), d.severity, index, queued)
}

/// What the workers share.
struct Shared<'a> {
    hunter: Hunter<'a>,
    store: &'a Store,
    feeds: Vec<feed::Feed>,
    next: AtomicU64,
    done: AtomicU64,
    /// The shard's positions below this one are run.
    limit: u64,
    shard: shard::Shard,
    deadline: Option<Instant>,
    progress: &'a dyn Progress,
    reduce: Option<&'a reduce_finding::FindingReduction>,
    /// Findings waiting for the background reducer (case, disagreement).
    reductions: Mutex<Option<std::sync::mpsc::Sender<(CaseOutcome, Disagreement)>>>,
    /// Set when the cases are done: the end of the reductions' tail.
    reductions_until: std::sync::OnceLock<Instant>,
    completion: progress::Completion,
    /// Mutants per case that shows a new signature.
    neighbours: usize,
    /// Cases whose neighbours wait for a worker.
    neighbour_jobs: Mutex<Vec<CaseOutcome>>,
}

impl Shared<'_> {
    /// Records a case's disagreements; each finding written as found goes
    /// to the background reducer, so the hunt goes on meanwhile. A case of
    /// the generator that shows a new signature that is not documented
    /// queues its neighbours. How many such signatures it showed.
    fn record(&self, case: &CaseOutcome) -> usize {
        let mut new = 0;
        for d in &case.disagreements {
            let written = match self.store.record(case, d) {
                Recorded::New(path, documented) => {
                    self.progress.finding(case.seed, &d.signature().key(), &path, documented);
                    // A documented discrepancy's neighbours are the corpus's
                    // business: a case's backend time goes to new ones.
                    new += usize::from(!documented);
                    true
                }
                Recorded::Smaller => true,
                Recorded::Again | Recorded::Note => false,
            };
            if written && self.reduce.is_some() {
                if let Some(tx) = self.reductions.lock().ok().and_then(|q| q.clone()) {
                    let _ = tx.send((case.clone(), d.clone()));
                }
            }
        }
        let has_neighbours = matches!(case.subject, case::Subject::Valid(_)) && case.neighbour.is_none();
        if new > 0 && self.neighbours > 0 && has_neighbours {
            if let Ok(mut jobs) = self.neighbour_jobs.lock() {
                jobs.push(case.clone());
            }
        }
        new
    }

    /// Runs the neighbours of `parent` through the first phase and then
    /// every sampled oracle that takes them (at once, not through the
    /// queues: they are no case of the hunt's index range), and records
    /// what they show.
    fn run_neighbours(&self, parent: &CaseOutcome, stats: &mut Stats) {
        let parent_keys: std::collections::BTreeSet<String> =
            parent.disagreements.iter().map(|d| d.signature().key()).collect();
        let mutants = self.hunter.neighbours(parent, self.neighbours);
        let oracles = self.hunter.oracles;
        let (mut same, mut new) = (0, 0);
        for (outcome, pending) in &mutants {
            let mut keys: Vec<String> = outcome.disagreements.iter().map(|d| d.signature().key()).collect();
            let mut found = self.record(outcome);
            if let Some(p) = pending {
                for q in &self.feeds {
                    let takes = match q.producer {
                        true => q.considers(outcome.seed) && p.mlir.is_some(),
                        false => oracles.executor_takes(&q.member, outcome.seed, true),
                    };
                    if !takes {
                        continue;
                    }
                    let result = if q.producer {
                        batch::run_producer(&q.member, oracles, vec![p.clone()])
                    } else {
                        batch::run_executor(&q.member, oracles, vec![p.clone()], &|_, _| true)
                    };
                    for case in &result.cases {
                        keys.extend(case.disagreements.iter().map(|d| d.signature().key()));
                        found += self.record(case);
                    }
                }
            }
            same += u64::from(keys.iter().any(|k| parent_keys.contains(k)));
            new += u64::from(found > 0);
        }
        let t = &mut stats.neighbours;
        t.findings += 1;
        t.run += mutants.len() as u64;
        t.same_signature += same;
        t.new_signature += new;
        self.progress.note(&format!(
            "neighbours of seed {}: {} mutant(s) run, {same} with its signature, {new} with a new one",
            parent.seed,
            mutants.len()
        ));
    }

    /// The next case whose neighbours wait, if any.
    fn next_neighbours(&self) -> Option<CaseOutcome> {
        self.neighbour_jobs.lock().ok()?.pop()
    }

    /// Whether `d` counts as documented in this hunt (the recall self-check
    /// treats every documented discrepancy as unknown).
    fn documented(&self, d: &Disagreement) -> bool {
        d.disposition(self.store.documented_policy()).documented().is_some()
    }

    /// The background reducer: reduces each finding it is sent, within its
    /// own budget, and writes the reduced case next to the original, until
    /// the queue is closed and empty.
    fn reducer(&self, jobs: std::sync::mpsc::Receiver<(CaseOutcome, Disagreement)>) {
        let Some(settings) = self.reduce else { return };
        let mut waiting: Vec<(CaseOutcome, Disagreement)> = Vec::new();
        loop {
            // Everything queued so far, then the most urgent first: when the
            // time runs short, the new findings are the ones reduced.
            waiting.extend(jobs.try_iter());
            if waiting.is_empty() {
                match jobs.recv() {
                    Ok(job) => waiting.push(job),
                    Err(_) => return,
                }
                continue;
            }
            // While cases run, a documented instance waits for the tail: its
            // reduction only confirms the match, and it would take the
            // cores the backends judge new cases on.
            let cases_running = self.reductions_until.get().is_none();
            if cases_running && waiting.iter().all(|(_, d)| self.documented(d)) {
                match jobs.recv_timeout(Duration::from_millis(500)) {
                    Ok(job) => waiting.push(job),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    // Closed only after the tail is set: the loop reduces then.
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                        if self.reductions_until.get().is_none() {
                            return;
                        }
                    }
                }
                continue;
            }
            let next = waiting
                .iter()
                .enumerate()
                .min_by_key(|(i, (case, d))| reduction_priority(d, case.index, *i))
                .map(|(i, _)| i);
            let Some((case, d)) = next.map(|i| waiting.swap_remove(i)) else { continue };
            let note = |line: String| self.progress.note(&line);
            let until = self.reductions_until.get().copied();
            if let Some(r) = reduce_finding::reduce(&self.hunter, settings, &case, &d, until, &note) {
                self.store.reduced(&case, &d, &r);
            }
        }
    }

    /// Runs one batch a backend's feed gave, records what it found and
    /// what it judged, and finishes each case for this backend.
    fn run_batch(&self, q: &feed::Feed, batch: Vec<feed::Candidate>, stats: &mut Stats) {
        let started = Instant::now();
        let (count, operators) = (batch.len(), batch.iter().map(feed::Candidate::operators).sum());
        let cells: std::collections::BTreeMap<u64, Arc<spvgraph_oracle::cells::CaseCells>> =
            batch.iter().map(|c| (c.pending.case.index, c.cells.clone())).collect();
        let pending: Vec<Pending> = batch.into_iter().map(|c| c.pending).collect();
        // The answers each case had before the batch: the rest are the batch's.
        let before: BTreeMap<u64, usize> = pending.iter().map(|p| (p.case.index, p.case.answers.len())).collect();
        let versions: Vec<Arc<dyn spvgraph_oracle::oracle::Oracle>> = q.member.versions().cloned().collect();
        let phases_before: Vec<spvgraph_oracle::oracle::PhaseTimes> =
            versions.iter().map(|o| o.phase_times()).collect();
        let wants = |p: &Pending, f: &spvgraph_oracle::forms::Rewritten| q.wants_form(&p.cells, f);
        let result = if q.producer {
            batch::run_producer(&q.member, self.hunter.oracles, pending)
        } else {
            batch::run_executor(&q.member, self.hunter.oracles, pending, &wants)
        };
        for (o, b) in versions.iter().zip(&phases_before) {
            stats.add_phases(o.name(), &o.phase_times().since(b));
        }
        stats.add_judgement(q.member.oracle.name(), result.judgement);
        let release = q.member.oracle.name();
        for case in &result.cases {
            // Every version's answers (a producer's: without and with debug
            // info; an executor's: the case, its forms and its rescue).
            let had = before.get(&case.index).copied().unwrap_or(0);
            stats.add_backend(case, case.answers.len().saturating_sub(had));
            self.record(case);
            if let Some(c) = cells.get(&case.index) {
                let coverage = case.coverage.iter().find(|c| c.oracle == release);
                let produced = q.producer
                    && case
                        .answers
                        .iter()
                        .skip(had)
                        .any(|(n, a)| n == release && matches!(a, case::Answer::Produced { .. }));
                q.learn(c, coverage, produced);
            }
            self.batch_ran(case.index);
        }
        // The whole batch, judgement included, is what the backend's thread
        // spent on these cases.
        q.learn_cost(count, operators, started.elapsed().as_secs_f64());
    }

    /// Finishes cases a feed dropped: they are done for that backend.
    fn dropped(&self, indices: Vec<u64>) {
        for i in indices {
            self.batch_ran(i);
        }
    }

    /// One of the backends case `index` waited for is done with it.
    fn batch_ran(&self, index: u64) {
        if let Some(position) = self.shard.position(index) {
            self.completion.batch_ran(position);
        }
    }
}

/// A backend's thread: takes batches from its feed and runs them until the
/// feed is closed and empty, or the hunt's time is up.
fn runner(sh: &Shared<'_>, q: &feed::Feed) -> Stats {
    let mut stats = Stats::default();
    loop {
        let batch = q.take(q.member.batch, sh.deadline);
        if batch.is_empty() {
            break;
        }
        sh.run_batch(q, batch, &mut stats);
    }
    // Whatever is left when the time is up is not run.
    sh.dropped(q.drop_waiting());
    stats
}

fn worker(sh: &Shared<'_>) -> Stats {
    let mut stats = Stats::default();
    loop {
        if sh.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        // Neighbours of the findings so far go before new cases.
        if let Some(parent) = sh.next_neighbours() {
            sh.run_neighbours(&parent, &mut stats);
            continue;
        }
        let position = sh.next.fetch_add(1, Ordering::Relaxed);
        if position >= sh.limit {
            break;
        }
        let index = sh.shard.case(position);
        let (outcome, pending) = sh.hunter.run(index);
        stats.add_case(&outcome);
        sh.record(&outcome);
        let valid = matches!(outcome.subject, case::Subject::Valid(_));
        let oracles = sh.hunter.oracles;
        let takers: Vec<&feed::Feed> = match &pending {
            Some(p) => sh
                .feeds
                .iter()
                .filter(|q| match q.producer {
                    true => q.considers(outcome.seed) && p.mlir.is_some(),
                    false => oracles.executor_takes(&q.member, outcome.seed, valid),
                })
                .collect(),
            None => Vec::new(),
        };
        // Counted before any backend can run it, so the mark never passes a queued case.
        sh.completion.first_phase(position, takers.len());
        if let Some(p) = pending {
            for q in takers {
                let dropped = q.offer(feed::Candidate { pending: p.clone(), cells: p.cells.clone() });
                sh.dropped(dropped);
            }
        }
        sh.done.fetch_add(1, Ordering::Relaxed);
    }
    // And the neighbours of the last findings (within the time limit).
    while let Some(parent) = sh.next_neighbours() {
        if sh.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        sh.run_neighbours(&parent, &mut stats);
    }
    stats
}

/// A digest of what decides the case of each index (configuration,
/// near-valid share, rules): `--resume` refuses to continue a hunt whose
/// cases would differ.
pub fn plan_digest(options: &HuntOptions) -> String {
    let rules: Vec<&str> = options.rules.iter().map(|r| r.name()).collect();
    // Over networks, the cases are the networks' neighbours: which networks
    // decides them (the generator's settings do not).
    let networks = options.networks.as_ref().map(|n| {
        serde_json::json!({
            "filter": n.filter,
            "networks": n.seeds.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        })
    });
    let mut plan = serde_json::json!({
        "config": options.config,
        "near_valid_ratio": options.near_valid_ratio,
        "rules": rules,
    });
    if let Some(n) = networks {
        plan["networks"] = n;
    }
    let text = plan.to_string();
    format!("{:016x}", spvgraph_oracle::judge::fnv1a(text.as_bytes()))
}

/// Runs the hunt.
pub fn run(options: &HuntOptions, progress: &dyn Progress) -> anyhow::Result<HuntReport> {
    let findings_dir = options.out.join("findings");
    let config_json =
        if options.config_from_file { Some(serde_json::to_string_pretty(&options.config)? + "\n") } else { None };
    let versions = options.oracles.versions();
    let context = StoreContext {
        run: Some(options.run_id.clone()),
        config_json,
        validators: options.oracles.validators.iter().map(|v| v.name().to_string()).collect(),
        referee: options.oracles.referee.as_ref().map(|r| r.name().to_string()),
        versions: versions.clone(),
        documented: options.documented,
        network_args: options.networks.as_ref().map(|n| n.args()).unwrap_or_default(),
    };
    // Channel instances (`model-converter@dev`) run beside their release
    // and can be a finding's culprit: the upstream report needs them too.
    let sampled = options.oracles.executors.iter().chain(&options.oracles.producers);
    let all: Vec<Arc<dyn spvgraph_oracle::oracle::Oracle>> = (options.oracles.validators.iter().cloned())
        .chain(sampled.flat_map(|m| m.versions().cloned()))
        .chain(options.oracles.referee.iter().cloned())
        .collect();
    let store = Store::open(&findings_dir, context)?.with_oracles(all);
    let known_before = store.known();
    guard::install_panic_hook();
    let start = Instant::now();
    let executors = options.oracles.executors.iter().map(|m| (m, false));
    let producers = options.oracles.producers.iter().map(|m| (m, true));
    let feeds: Vec<feed::Feed> = executors
        .chain(producers)
        .map(|(m, producer)| {
            let policy = match m.guided {
                true => feed::Policy::Guided {
                    floor: options.guide_floor,
                    by: options.guide_by,
                    pool: options.guide_pool,
                    // A hunt of a number of cases costs what it did: each
                    // backend runs its default share, chosen by its map.
                    budget: match options.time {
                        Some(_) => None,
                        None => Some(m.oracle.default_sample()),
                    },
                },
                false => feed::Policy::Fixed { sample: m.sample },
            };
            feed::Feed::new(m.clone(), producer, policy, options.seed)
        })
        .collect();
    let samples: BTreeMap<String, f64> = feeds
        .iter()
        .filter(|q| !q.member.guided)
        .flat_map(|q| q.member.versions().map(|o| (o.name().to_string(), q.member.sample)))
        .collect();
    let shared = Shared {
        hunter: Hunter {
            config: &options.config,
            ratio: options.near_valid_ratio,
            rules: &options.rules,
            oracles: &options.oracles,
            base_seed: options.seed,
            inject_panic: &options.inject_panic,
            observe: options.observe,
            networks: options.networks.as_deref(),
        },
        store: &store,
        feeds,
        next: AtomicU64::new(options.start),
        done: AtomicU64::new(0),
        limit: options.count.map_or(u64::MAX, |c| options.shard.share(c)),
        shard: options.shard,
        deadline: options.time.map(|t| start + t),
        progress,
        reduce: options.reduce.as_ref(),
        reductions: Mutex::new(None),
        reductions_until: std::sync::OnceLock::new(),
        completion: progress::Completion::new(options.start),
        neighbours: options.neighbours,
        neighbour_jobs: Mutex::new(Vec::new()),
    };
    let (to_reducer, reducer_jobs) = std::sync::mpsc::channel();
    if options.reduce.is_some() {
        if let Ok(mut q) = shared.reductions.lock() {
            *q = Some(to_reducer);
        }
    }
    let plan = plan_digest(options);
    let mark = |finished: bool| progress::Progress {
        shard: (!options.shard.is_whole()).then_some(options.shard),
        seed: options.seed,
        done_below: shared.completion.done_below(),
        count: options.count,
        plan: plan.clone(),
        run: options.run_id.clone(),
        finished,
    };
    let mut errors = Vec::new();
    if let Err(e) = mark(false).store(&options.out) {
        errors.push(format!("{e:#}"));
    }
    let mut stats = Stats::default();
    // The case loop's time (the summary's rate), without the reductions' tail.
    let mut cases_elapsed = None;
    std::thread::scope(|s| -> anyhow::Result<()> {
        let reducer = std::thread::Builder::new()
            .name("hunt-reducer".to_string())
            .stack_size(64 << 20)
            .spawn_scoped(s, || shared.reducer(reducer_jobs))
            .map_err(|e| anyhow::anyhow!("cannot start the reducer thread: {e}"))?;
        let tick = || {
            let totals = store.totals();
            progress.tick(
                shared.done.load(Ordering::Relaxed),
                totals.values().map(|t| t.occurrences).sum(),
                totals.values().map(|t| t.signatures).sum(),
            );
        };
        // Without a sender the reducer thread ends once its queue is empty:
        // closed when the cases are done, or when a worker cannot start.
        let close_queue = || {
            if let Ok(mut q) = shared.reductions.lock() {
                q.take();
            }
        };
        let mut handles = Vec::new();
        let mut runners = Vec::new();
        for q in &shared.feeds {
            let shared = &shared;
            let spawned = std::thread::Builder::new()
                .name(format!("backend-{}", q.member.oracle.tool()))
                .stack_size(64 << 20)
                .spawn_scoped(s, move || runner(shared, q));
            match spawned {
                Ok(h) => runners.push(h),
                Err(e) => {
                    close_queue();
                    shared.feeds.iter().for_each(feed::Feed::close);
                    return Err(anyhow::anyhow!("cannot start a backend thread: {e}"));
                }
            }
        }
        for k in 0..options.jobs.max(1) {
            let spawned =
                std::thread::Builder::new().name(format!("hunt-{k}")).stack_size(64 << 20).spawn_scoped(s, || {
                    // The first phase is cheap and plentiful; the backends'
                    // time is the scarce resource: cases are made with what
                    // CPU the backends leave.
                    priority::lower_priority();
                    worker(&shared)
                });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    close_queue();
                    shared.feeds.iter().for_each(feed::Feed::close);
                    return Err(anyhow::anyhow!("cannot start a worker thread: {e}"));
                }
            }
        }
        let mut saved = Instant::now();
        let mut closed = false;
        while !(handles.iter().all(|h| h.is_finished()) && runners.iter().all(|h| h.is_finished())) {
            std::thread::sleep(Duration::from_millis(100));
            if !closed && handles.iter().all(|h| h.is_finished()) {
                // No more cases: the backends finish what they hold (or stop
                // at the deadline).
                shared.feeds.iter().for_each(feed::Feed::close);
                closed = true;
            }
            if saved.elapsed() >= Duration::from_secs(1) {
                // A failed write is retried a second later; the last one is reported.
                let _ = mark(false).store(&options.out);
                saved = Instant::now();
            }
            tick();
        }
        for h in handles.into_iter().chain(runners) {
            match h.join() {
                Ok(st) => stats.merge(&st),
                Err(_) => errors.push("a worker thread panicked outside the guarded components".to_string()),
            }
        }
        cases_elapsed = Some(start.elapsed());
        // The cases are done: the reductions queued so far go on for at most
        // the tail's time, then the summary is written.
        if let Some(r) = options.reduce.as_ref() {
            let _ = shared.reductions_until.set(Instant::now() + r.tail);
        }
        close_queue();
        while !reducer.is_finished() {
            std::thread::sleep(Duration::from_millis(100));
            tick();
        }
        if reducer.join().is_err() {
            errors.push("the reducer thread panicked outside the guarded components".to_string());
        }
        Ok(())
    })?;
    let elapsed = cases_elapsed.unwrap_or_else(|| start.elapsed());
    store.finish();
    if let Err(e) = mark(errors.is_empty()).store(&options.out) {
        errors.push(format!("{e:#}"));
    }
    let guidance: Vec<summary::FeedReport> = shared
        .feeds
        .iter()
        .map(|q| {
            let (cells, curve, tally) = q.report();
            summary::FeedReport {
                oracle: q.member.oracle.name().to_string(),
                policy: q.policy.describe(),
                cells,
                curve,
                tally,
                cost: q.fitted_cost(),
            }
        })
        .collect();
    let cx = SummaryContext {
        guidance: &guidance,
        seed: options.seed.wrapping_add(options.shard.case(options.start)),
        shard: options.shard,
        jobs: options.jobs.max(1),
        elapsed,
        known_before,
        near_valid_ratio: options.near_valid_ratio,
        rules: &options.rules,
        versions: &versions,
        samples: &samples,
        unavailable: &options.oracles.unavailable,
    };
    let mut summary = summary::summary_json(&stats, &store, &cx);
    summary["run"] = serde_json::json!(options.run_id);
    summary["first_index"] = serde_json::json!(options.start);
    let table = summary::table(&stats, &store, &cx);
    let summary_path = options.out.join("summary.json");
    if let Err(e) = progress::write_atomically(&summary_path, &format!("{}\n", serde_json::to_string_pretty(&summary)?))
    {
        errors.push(format!("{e:#}"));
    }
    errors.extend(store.errors());
    let new_signatures = store.totals().values().map(|t| t.new).sum();
    Ok(HuntReport { summary, table, new_signatures, errors })
}

#[cfg(test)]
mod tests {
    use super::reduction_priority;
    use spvgraph_oracle::judge::{Disagreement, Documented, Kind};
    use spvgraph_oracle::oracle::Oracle;

    #[test]
    fn new_findings_are_reduced_before_documented_ones_and_by_severity() {
        let layer = spvgraph_oracle::external::emulation_layer::EmulationLayer::discover();
        let row = layer.known_discrepancies().first().expect("the layer documents discrepancies");
        let mut documented_crash = Disagreement::new(Kind::Crash, "emulation-layer", "");
        documented_crash.documented = Some(Documented::of(row));
        let new_refusal = Disagreement::new(Kind::RefusedValid, "emulation-layer", "");
        let new_wrong = Disagreement::new(Kind::WrongOutput, "emulation-layer", "");
        // Found first, but documented: last.
        assert!(reduction_priority(&new_refusal, 9, 2) < reduction_priority(&documented_crash, 1, 0));
        // Among new ones, high severity first, whatever the order found.
        assert!(reduction_priority(&new_wrong, 9, 2) < reduction_priority(&new_refusal, 1, 0));
        // Same severity: the order found.
        assert!(reduction_priority(&new_wrong, 1, 5) < reduction_priority(&new_wrong, 2, 0));
    }
}
