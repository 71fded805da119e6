//! Running graphs through one `scenario-runner` process, and finding out
//! which graph a failed run was about.
//!
//! A scenario creates every graph's pipeline in command order, then records
//! every dispatch and waits once. With `--log-level debug` the runner logs
//! `Graph Pipeline: <uid> created` after each pipeline, so when a run fails
//! while creating pipelines, the first graph without that line is the
//! culprit: it is run alone, and the graphs before and after it run again
//! without it. A failure after every pipeline was created cannot be pinned
//! on one graph: the group is halved (time-outs are retried one graph per
//! process, since halving a hung group would wait for the hang again).
//!
//! The log's timestamps (milliseconds) also say where a process's time went
//! ([`RunnerLog::phases`]).

use super::scenario::{self, Entry, OUTPUT_DIR};
use super::setup::Setup;
use crate::compliance::ReferenceTensor;
use crate::external::consumer::glslang::Preload;
use crate::external::consumer::Prepared;
use crate::external::process::{self, Ended, Limits, ProcessRun, ScratchDir};
use crate::external::tosa_reference;
use crate::oracle::{Abnormal, ExecOutcome, OracleError, PhaseTimes, Refusal};
use spvgraph_ir::tensor::TensorData;
use std::collections::HashSet;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One graph to run: a label unique in its batch, the graph and its inputs.
pub struct Job<'a> {
    /// `g<N>`: resource uid prefix and pipeline name.
    pub label: String,
    /// The graph.
    pub graph: &'a Prepared,
    /// Its inputs.
    pub inputs: &'a [TensorData],
}

/// What the runs of one oracle cost so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Processes started.
    pub processes: u64,
    /// Graphs submitted, counting re-runs after a failed batch.
    pub graphs: u64,
    /// Wall-clock time in the runner.
    pub busy: Duration,
    /// Highest resident set size of one process, in bytes.
    pub peak_rss_bytes: u64,
    /// Where the time went, by phase ([`RunnerLog::phases`]; writing the
    /// scenario under `compile`, reading the outputs back under `readback`).
    pub phases: PhaseTimes,
}

/// How to run: the tools, the limits, where the counts go.
pub struct Runner<'s> {
    /// The tools.
    pub setup: &'s Setup,
    /// Time limit per graph; a process running `n` graphs gets `n` times it.
    pub timeout: Duration,
    /// Resident-memory limit of one process.
    pub memory_bytes: Option<u64>,
    /// Cost counters.
    pub stats: &'s Mutex<RunStats>,
    /// The glslang shim preloaded into each process, if any.
    pub preload: Option<&'s Preload>,
}

/// Where in a scenario the runner was when it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading the scenario, loading its files, creating the device: the
    /// harness's business, nothing the module decides.
    Setup,
    /// The device is up; creating the module's tensors (its interface and
    /// its graph constants) and their memory on it.
    Resources,
    /// Creating pipelines; the first graph whose pipeline was not created.
    Pipelines(Option<usize>),
    /// Every pipeline was created; dispatching, waiting or storing results.
    Running,
}

impl Phase {
    fn describe(&self) -> &'static str {
        match self {
            Phase::Setup => "while reading the scenario or creating the device",
            Phase::Resources => "while creating the module's tensors and constants",
            Phase::Pipelines(_) => "while creating the pipeline",
            Phase::Running => "while running the graph",
        }
    }
}

/// What the runner's log says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunnerLog {
    /// The device was created (`Device: <name>, Type: ...`).
    pub device: bool,
    /// `Setup commands` was reached.
    pub commands: bool,
    /// Pipelines created, by uid.
    pub created: HashSet<String>,
    /// Dispatching began.
    pub dispatched: bool,
    /// The messages of `ERROR:` lines.
    pub errors: Vec<String>,
    /// When things happened, in milliseconds after the first timestamped line.
    pub marks: Marks,
}

/// When the runner logged what, in milliseconds after its first
/// timestamped line (the log's resolution).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// `Setup commands`: the device and resources are ready, pipeline
    /// creation begins.
    pub setup: Option<u64>,
    /// The last `Graph Pipeline: <uid> created`.
    pub created: Option<u64>,
    /// The first `Iteration:` or `Dispatch graph`: every pipeline was created.
    pub dispatched: Option<u64>,
    /// The first `<uid> output stored`: the dispatch was waited for.
    pub stored: Option<u64>,
    /// `Results stored`: every output file was written.
    pub results: Option<u64>,
}

/// A log line's `YYYY-MM-DD HH:MM:SS,mmm` as milliseconds since 1970-01-01
/// in the runner's local time (only differences are used).
fn timestamp(line: &str) -> Option<u64> {
    let b = line.as_bytes();
    if b.len() < 23 || b[4] != b'-' || b[7] != b'-' || b[10] != b' ' || b[13] != b':' || b[16] != b':' || b[19] != b','
    {
        return None;
    }
    let num = |from: usize, to: usize| line.get(from..to)?.parse::<u64>().ok();
    let (y, m, d) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (h, min, sec, ms) = (num(11, 13)?, num(14, 16)?, num(17, 19)?, num(20, 23)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || h > 23 || min > 59 || sec > 60 {
        return None;
    }
    // Days from the civil date (H. Hinnant's algorithm), years from 1970 on.
    let y = if m <= 2 { y.checked_sub(1)? } else { y };
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era * 146_097 + doe).checked_sub(719_468)?;
    Some(((days * 24 + h) * 60 + min) * 60_000 + sec * 1000 + ms)
}

impl RunnerLog {
    /// Parses the runner's `<date> <time> [Scenario-Runner] LEVEL: message` lines.
    pub fn parse(text: &str) -> RunnerLog {
        let mut log = RunnerLog::default();
        let mut first = None;
        for line in text.lines() {
            let Some((_, rest)) = line.split_once("] ") else { continue };
            let Some((level, msg)) = rest.split_once(": ") else { continue };
            let msg = msg.trim();
            let at = timestamp(line).map(|t| t.saturating_sub(*first.get_or_insert(t)));
            let marks = &mut log.marks;
            match level {
                "ERROR" => log.errors.push(msg.to_string()),
                _ if msg == "Setup commands" => {
                    log.commands = true;
                    marks.setup = marks.setup.or(at);
                }
                _ if msg.starts_with("Device: ") => log.device = true,
                _ if msg.starts_with("Dispatch graph") || msg.starts_with("Iteration:") => {
                    log.dispatched = true;
                    marks.dispatched = marks.dispatched.or(at);
                }
                _ if msg == "Results stored" => marks.results = at,
                _ if msg.ends_with(" output stored") => marks.stored = marks.stored.or(at),
                _ => {
                    if let Some(uid) = msg.strip_prefix("Graph Pipeline: ").and_then(|m| m.strip_suffix(" created")) {
                        log.created.insert(uid.to_string());
                        marks.created = at.or(marks.created);
                    }
                }
            }
        }
        log
    }

    /// Where a process that ran `elapsed` spent it, from the log's
    /// timestamps (milliseconds; the first line is taken as the process's
    /// start): until `Setup commands` and after `Results stored` (process,
    /// instance, device, tensors, tear-down) under `start`; pipeline creation
    /// (the layer compiling its shaders) under `compile`; from the last
    /// pipeline to the first stored output (dispatch and wait) under `run`;
    /// writing the output files under `readback`. A phase the log does not
    /// close (the process died in it) lasts until the process ended.
    pub fn phases(&self, elapsed: Duration) -> PhaseTimes {
        let end = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        let m = &self.marks;
        let at = |t: Option<u64>| t.map_or(end, |t| t.min(end));
        let setup = at(m.setup);
        // Pipelines are done once dispatching began; until then, a failed
        // run was still creating them.
        let created = if m.dispatched.is_some() || m.stored.is_some() { at(m.created.or(m.dispatched)) } else { end };
        let created = created.max(setup);
        let stored = at(m.stored.or(m.results)).max(created);
        let results = at(m.results).max(stored);
        let ms = Duration::from_millis;
        PhaseTimes {
            compile: ms(created - setup),
            run: ms(stored - created),
            readback: ms(results - stored),
            start: elapsed.saturating_sub(ms(results - setup)),
        }
    }

    /// Where a failed run of `labels` stopped.
    pub fn phase(&self, labels: &[&str]) -> Phase {
        if !self.device && !self.commands {
            Phase::Setup
        } else if !self.commands {
            Phase::Resources
        } else if self.dispatched || labels.iter().all(|l| self.created.contains(*l)) {
            Phase::Running
        } else {
            Phase::Pipelines(labels.iter().position(|l| !self.created.contains(*l)))
        }
    }
}

fn failed(reason: impl Into<String>) -> OracleError {
    OracleError::Failed { oracle: super::NAME.into(), reason: reason.into() }
}

impl Runner<'_> {
    /// Runs `jobs`, one outcome each, in order.
    pub fn run(&self, jobs: &[Job<'_>]) -> Vec<Result<ExecOutcome, OracleError>> {
        if jobs.is_empty() {
            return Vec::new();
        }
        let (dir, run) = match self.run_process(jobs) {
            Ok(x) => x,
            Err(e) => return jobs.iter().map(|_| Err(e.clone())).collect(),
        };
        if run.success() {
            let reading = Instant::now();
            let outcomes = jobs.iter().map(|j| read_outputs(&dir, j)).collect();
            self.count(|s| s.phases.readback += reading.elapsed());
            return outcomes;
        }
        let text = format!("{}\n{}", run.stdout_text(), run.stderr_text());
        let log = RunnerLog::parse(&text);
        let labels: Vec<&str> = jobs.iter().map(|j| j.label.as_str()).collect();
        let phase = log.phase(&labels);
        if let [job] = jobs {
            return vec![classify(&applied(job), &run, &log, &phase)];
        }
        drop(dir);
        let groups: Vec<&[Job<'_>]> = match phase {
            Phase::Pipelines(Some(k)) => vec![&jobs[..k], &jobs[k..=k], &jobs[k + 1..]],
            _ if run.abnormal() == Some(Abnormal::Timeout) => jobs.chunks(1).collect(),
            _ => {
                let (a, b) = jobs.split_at(jobs.len() / 2);
                vec![a, b]
            }
        };
        groups.into_iter().flat_map(|g| self.run(g)).collect()
    }

    /// Writes the scenario for `jobs` and runs it.
    fn run_process(&self, jobs: &[Job<'_>]) -> Result<(ScratchDir, ProcessRun), OracleError> {
        let writing = Instant::now();
        let dir = ScratchDir::new("emulation-layer").map_err(|e| failed(e.to_string()))?;
        let entries: Vec<Entry<'_>> =
            jobs.iter().map(|j| Entry { label: j.label.clone(), graph: j.graph, inputs: j.inputs }).collect();
        let written =
            scenario::write(dir.path(), &entries).map_err(|e| failed(format!("cannot write the scenario: {e}")))?;
        // Writing the module and inputs for the runner is part of turning
        // the graph into something that runs.
        self.count(|s| s.phases.compile += writing.elapsed());
        let mut cmd = self.command(&written.path);
        if let Some(p) = self.preload {
            p.apply(&mut cmd);
        }
        let n = u32::try_from(jobs.len()).unwrap_or(u32::MAX);
        let limits = Limits { timeout: self.timeout.saturating_mul(n), memory_bytes: self.memory_bytes };
        let run = process::run(cmd, dir.path(), &limits).map_err(|e| failed(e.to_string()))?;
        let phases = RunnerLog::parse(&format!("{}\n{}", run.stdout_text(), run.stderr_text())).phases(run.elapsed);
        self.count(|s| {
            s.processes += 1;
            s.graphs += jobs.len() as u64;
            s.busy += run.elapsed;
            s.peak_rss_bytes = s.peak_rss_bytes.max(run.peak_rss_bytes);
            s.phases.add(&phases);
        });
        Ok((dir, run))
    }

    fn count(&self, f: impl FnOnce(&mut RunStats)) {
        if let Ok(mut s) = self.stats.lock() {
            f(&mut s);
        }
    }

    /// The runner's command line for a scenario file, in the scenario's
    /// directory (without the glslang shim: a reproduction does not need it).
    pub fn command(&self, scenario: &std::path::Path) -> Command {
        let mut cmd = Command::new(&self.setup.runner);
        cmd.arg("--scenario").arg(scenario.file_name().unwrap_or(scenario.as_os_str())).args([
            "--output",
            OUTPUT_DIR,
            "--log-level",
            "debug",
        ]);
        self.setup.env.apply(&mut cmd);
        cmd
    }
}

/// What the runner logs when its SPIR-V validation rejects a module.
pub const VALIDATION_FAILED: &str = "Failed to validate SPIR-V module";

/// The work-arounds applied to a job's graph, as a note for messages.
fn applied(job: &Job<'_>) -> String {
    if job.graph.applied.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = job.graph.applied.iter().map(|w| w.to_string()).collect();
        format!(" ({})", list.join("; "))
    }
}

/// The outcome of a failed run of one graph (`notes`: the work-arounds
/// applied to it). Where the runner stopped decides whose failure it is:
/// reading the scenario and its files and creating the device are the
/// harness's (an oracle error, never charged to the module); from the
/// module's own tensors and constants on, what the runner or the layer says
/// is the backend's answer about the module (a refusal, which on a valid
/// case is a finding).
fn classify(notes: &str, run: &ProcessRun, log: &RunnerLog, phase: &Phase) -> Result<ExecOutcome, OracleError> {
    let said = if log.errors.is_empty() { run.tail(8) } else { log.errors.join("; ") };
    // The runner validates the module with its own SPIRV-Tools before the
    // layer sees it; say so, since that refusal is not the layer's.
    let said = if log.errors.iter().any(|e| e.contains(VALIDATION_FAILED)) {
        format!("the runner's SPIR-V validation rejected the module: {said}")
    } else {
        said
    };
    match run.ended {
        Ended::Abnormal(how) => {
            Ok(ExecOutcome::Abnormal { how, detail: format!("{}{notes}: {}", phase.describe(), run.tail(12)) })
        }
        // The scenario, its files and the device are the harness's
        // business: failing there says nothing about the graph.
        Ended::Exited(code) if *phase == Phase::Setup => {
            Err(failed(format!("scenario-runner exit status {code} {}: {said}", phase.describe())))
        }
        Ended::Exited(code) => Ok(ExecOutcome::Refused {
            kind: Refusal::Rejected,
            reason: format!("scenario-runner exit status {code} {}{notes}: {said}", phase.describe()),
        }),
    }
}

/// The outputs a successful run wrote for `job`.
fn read_outputs(dir: &ScratchDir, job: &Job<'_>) -> Result<ExecOutcome, OracleError> {
    let files = scenario::output_files(&job.label, job.graph.outputs.len());
    let mut outputs = Vec::with_capacity(files.len());
    for (j, (file, slot)) in files.iter().zip(&job.graph.outputs).enumerate() {
        let path = dir.join(file);
        match tosa_reference::read_npy(&path, slot.elem) {
            Ok(ReferenceTensor::Typed(t)) if t.shape() == slot.shape.as_slice() => outputs.push(t),
            Ok(ReferenceTensor::Typed(t)) => {
                return Err(failed(format!("output {j}: shape {:?} where {:?} was bound", t.shape(), slot.shape)))
            }
            Ok(ReferenceTensor::Precise { .. }) => return Err(failed(format!("output {j}: fp64 data"))),
            Err(e) => return Err(failed(format!("output {j}: {e}"))),
        }
    }
    Ok(ExecOutcome::Outputs(outputs))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
2026-11-24 04:32:47,441 [Scenario-Runner] INFO: Scenario file parsed
2026-11-24 04:32:47,852 [Scenario-Runner] INFO: Setup commands
2026-11-24 04:32:51,715 [Scenario-Runner] INFO: Datagraph pipeline session memory requirement: 128
2026-11-24 04:32:51,715 [Scenario-Runner] DEBUG: Graph Pipeline: g0 created
2026-11-24 04:32:55,405 [Scenario-Runner] DEBUG: Graph Pipeline: g1 created
2026-11-24 04:32:55,407 [Scenario-Runner] ERROR: Missing precompiled shader: x
";

    #[test]
    fn the_log_names_the_graph_whose_pipeline_failed() {
        let log = RunnerLog::parse(LOG);
        assert!(log.commands && !log.dispatched);
        assert_eq!(log.errors, ["Missing precompiled shader: x"]);
        assert_eq!(log.phase(&["g0", "g1", "g2", "g3"]), Phase::Pipelines(Some(2)));
        assert_eq!(log.phase(&["g0", "g1"]), Phase::Running);
        assert_eq!(RunnerLog::parse("junk\n").phase(&["g0"]), Phase::Setup);
        let running = format!("{LOG}2026-11-24 04:33:00,834 [Scenario-Runner] INFO: Dispatch graph\n");
        assert_eq!(RunnerLog::parse(&running).phase(&["g0", "g1", "g2"]), Phase::Running);
    }

    #[test]
    fn the_timestamps_split_a_process_into_phases() {
        let ok = "\
2026-11-28 23:59:59,900 [Scenario-Runner] INFO: Scenario file parsed
2026-11-29 00:00:00,100 [Scenario-Runner] INFO: Setup commands
2026-11-29 00:00:00,400 [Scenario-Runner] DEBUG: Graph Pipeline: g0 created
2026-11-29 00:00:01,100 [Scenario-Runner] DEBUG: Graph Pipeline: g1 created
2026-11-29 00:00:01,101 [Scenario-Runner] DEBUG: Iteration: 0
2026-11-29 00:00:01,101 [Scenario-Runner] INFO: Dispatch graph
2026-11-29 00:00:01,150 [Scenario-Runner] DEBUG: g0.out0 output stored
2026-11-29 00:00:01,170 [Scenario-Runner] DEBUG: g1.out0 output stored
2026-11-29 00:00:01,180 [Scenario-Runner] INFO: Results stored
";
        let log = RunnerLog::parse(ok);
        assert_eq!(
            log.marks,
            Marks {
                setup: Some(200),
                created: Some(1200),
                dispatched: Some(1201),
                stored: Some(1250),
                results: Some(1280)
            }
        );
        let ms = Duration::from_millis;
        // Across midnight, and a process that ran 1.5 s in all.
        let p = log.phases(ms(1500));
        assert_eq!((p.compile, p.run, p.readback), (ms(1000), ms(50), ms(30)));
        assert_eq!(p.start, ms(420));
        assert_eq!(p.total(), ms(1500));
        // Died while creating g1's pipeline: compile lasts until the end.
        let died = RunnerLog::parse(&ok[..ok.find("2026-11-29 00:00:01,100").expect("line")]).phases(ms(1000));
        assert_eq!((died.start, died.compile, died.run, died.readback), (ms(200), ms(800), ms(0), ms(0)));
        // No log at all: the whole process is start-up.
        let p = RunnerLog::parse("").phases(ms(300));
        assert_eq!((p.start, p.total()), (ms(300), ms(300)));
        assert_eq!(timestamp("2026-02-30 1x:00:00,000 [x] INFO: y"), None);
    }

    fn exited(code: i32, log: &str) -> ProcessRun {
        ProcessRun {
            ended: Ended::Exited(code),
            stdout: log.as_bytes().to_vec(),
            stderr: Vec::new(),
            elapsed: Duration::ZERO,
            peak_rss_bytes: 0,
            peak_rss_exact: true,
        }
    }

    const PARSED: &str = "\
2026-11-28 22:31:09,448 [Scenario-Runner] INFO: Scenario file parsed
2026-11-28 22:31:09,449 [Scenario-Runner] INFO: Setup resources, count: 4
2026-11-28 22:31:09,449 [Scenario-Runner] DEBUG: Tensor: graph.in0 loaded
";

    /// A failure with the module's own resources (a graph constant the
    /// layer cannot allocate) is the backend's answer about the module; a
    /// file the harness wrote that cannot be read, or a device that does not
    /// come up, is the harness's failure.
    #[test]
    fn the_modules_resources_are_the_backends_answer_and_files_and_the_device_the_harnesss() {
        let device =
            "2026-11-28 22:31:09,545 [Scenario-Runner] INFO: Device: llvmpipe (LLVM 15.0.6, 256 bits), Type: Cpu\n";
        let error = "2026-11-28 22:31:09,600 [Scenario-Runner] ERROR: Allocated memory size must be non-zero\n";
        let text = format!("{PARSED}{device}{error}");
        let log = RunnerLog::parse(&text);
        assert_eq!(log.phase(&["g0"]), Phase::Resources);
        match classify("", &exited(1, &text), &log, &log.phase(&["g0"])) {
            Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason }) => {
                assert!(reason.contains("Allocated memory size must be non-zero"), "{reason}");
                assert!(reason.contains("the module's tensors and constants"), "{reason}");
            }
            other => panic!("the module's constants are the backend's answer, not {other:?}"),
        }
        for harness in ["ERROR: Could not open file missing.npy", "ERROR: Failed to create instance"] {
            let text = format!("{PARSED}2026-11-28 22:31:09,449 [Scenario-Runner] {harness}\n");
            let log = RunnerLog::parse(&text);
            assert_eq!(log.phase(&["g0"]), Phase::Setup);
            match classify("", &exited(1, &text), &log, &log.phase(&["g0"])) {
                Err(OracleError::Failed { reason, .. }) => assert!(reason.contains(&harness[7..]), "{reason}"),
                other => panic!("{harness}: the harness's failure, not {other:?}"),
            }
        }
    }
}
