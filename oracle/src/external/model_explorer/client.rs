//! The persistent Python worker that runs the adapters
//! (`oracle/python/model_explorer_worker.py`, built into this crate and run
//! with `python -c`): starting one, one request and its answer line under
//! the time and memory limits, and a pool of idle workers, so that
//! concurrent callers (the hunt's first-phase threads) each get one and a
//! worker that died, hung or grew past the limit is replaced for the next
//! request. The same pattern as the `vulkan` oracle's workers, over JSON
//! lines instead of its binary protocol.

use super::answer::Answer;
use crate::external::process::{self, Ended, Limits, OutputTail, ScratchDir};
use crate::oracle::Abnormal;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The worker's source, run with `python -c`: the binary carries the worker
/// it speaks to, so the two never come from different checkouts.
pub const WORKER_SOURCE: &str = include_str!("../../../python/model_explorer_worker.py");

/// How much longer than the request's own time limit (which the worker
/// enforces in Python on its CPU time, `ITIMER_PROF`) the worker is given
/// before it is killed, at most: native code is not interrupted by the
/// signal. Never more than the limit itself, so a short limit stays short.
const GRACE: Duration = Duration::from_secs(5);

/// One worker process and the scratch directory it reads modules from.
pub(super) struct Worker {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<OutputTail>>,
    dir: ScratchDir,
    next_id: u64,
    cpu_before: Duration,
}

/// How one request ended.
pub(super) enum Exchange {
    /// The worker answered (its answer may be an exception it caught).
    Answered(Answer),
    /// The worker died, hung or went over the memory limit; it is gone.
    Ended {
        /// How.
        how: Ended,
        /// What it printed on standard error meanwhile.
        stderr: String,
    },
}

impl Worker {
    /// Starts `python -c WORKER` with the worker's own memory cap set to the
    /// limit (so that a constant too large to expand gives a `MemoryError`
    /// answer rather than the kernel's OOM killer).
    pub(super) fn start(python: &Path, limits: &Limits) -> Result<Worker, String> {
        let dir = ScratchDir::new("model-explorer").map_err(|e| format!("scratch directory: {e}"))?;
        let mut cmd = Command::new(python);
        cmd.arg("-c").arg(WORKER_SOURCE).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd.current_dir(dir.path());
        let mb = limits.memory_bytes.map_or(0, |b| (b >> 20).max(1));
        cmd.env("SPVGRAPH_ME_WORKER_MEM_MB", mb.to_string());
        // No bytecode files next to a venv another process may be reading.
        cmd.env("PYTHONDONTWRITEBYTECODE", "1");
        let mut child = cmd.spawn().map_err(|e| format!("cannot start {}: {e}", python.display()))?;
        let (Some(stdin), Some(stdout), Some(mut err)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the worker's pipes could not be opened".into());
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                let r = reader.read_line(&mut line);
                let done = !matches!(r, Ok(n) if n > 0);
                if tx.send(r.map(|_| line)).is_err() || done {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(OutputTail::default()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                if let Ok(mut t) = sink.lock() {
                    t.push(&buf[..n]);
                }
            }
        });
        Ok(Worker { child, stdin: BufWriter::new(stdin), lines, stderr, dir, next_id: 0, cpu_before: Duration::ZERO })
    }

    /// Where a request's input file goes.
    pub(super) fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Sends `request` (a JSON object without `id`) and waits for its answer
    /// line. A worker that dies, stays silent past the limit or grows past
    /// the memory limit is killed and reaped: [`Exchange::Ended`].
    pub(super) fn exchange(&mut self, mut request: serde_json::Value, limits: &Limits) -> Exchange {
        self.next_id += 1;
        let id = self.next_id;
        if let Some(o) = request.as_object_mut() {
            o.insert("id".into(), id.into());
            o.insert("timeout_s".into(), limits.timeout.as_secs_f64().into());
        }
        let mark = self.stderr.lock().map(|t| t.total()).unwrap_or(0);
        // The worker's CPU time so far: only this request's counts.
        self.cpu_before = process::cpu_time(self.child.id());
        let start = Instant::now();
        let sent = writeln!(self.stdin, "{request}").and_then(|()| self.stdin.flush()).is_ok();
        let mut nap = Duration::from_micros(200);
        let mut killed: Option<Abnormal> = None;
        while sent && killed.is_none() {
            match self.lines.recv_timeout(nap) {
                Ok(Ok(line)) if line.trim().is_empty() => {}
                Ok(Ok(line)) => match serde_json::from_str::<Answer>(&line) {
                    // An answer to an older request (one that timed out here
                    // first) is dropped: this request's is still to come.
                    Ok(a) if a.id.is_some_and(|x| x != id) => {}
                    Ok(a) => return Exchange::Answered(a),
                    Err(e) => {
                        let _ = self.child.kill();
                        let _ = self.child.wait();
                        let stderr = format!("{}\nthe worker's answer was unreadable: {e}", self.stderr_since(mark));
                        return Exchange::Ended { how: Ended::Exited(-1), stderr };
                    }
                },
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    nap = (nap * 2).min(Duration::from_millis(10));
                    let over = limits.memory_bytes.is_some_and(|m| process::resident_bytes(self.child.id()) > m);
                    // As the one-shot runner does: CPU time and as much wall
                    // time, or WALL_FACTOR times the wall time, so that a
                    // loaded machine does not turn a slow answer into a hang.
                    let limit = limits.timeout + GRACE.min(limits.timeout);
                    let wall = start.elapsed();
                    let hung = (wall >= limit && process::cpu_time(self.child.id()) >= limit + self.cpu_before)
                        || wall >= limit.saturating_mul(process::WALL_FACTOR);
                    if over || hung {
                        killed = Some(if over { Abnormal::OutOfMemory } else { Abnormal::Timeout });
                        let _ = self.child.kill();
                    }
                }
            }
        }
        let status = self.child.wait();
        // Let the stderr reader drain what the worker wrote last.
        std::thread::sleep(Duration::from_millis(20));
        let stderr = self.stderr_since(mark);
        let how = match (killed, status) {
            (Some(a), _) => Ended::Abnormal(a),
            (None, Ok(s)) => process::ended(s, stderr.as_bytes()),
            (None, Err(_)) => Ended::Abnormal(Abnormal::Signal(0)),
        };
        Exchange::Ended { how, stderr }
    }

    fn stderr_since(&self, mark: u64) -> String {
        self.stderr.lock().map(|t| t.since(mark)).unwrap_or_default()
    }

    /// Its resident memory now.
    pub(super) fn resident_bytes(&self) -> u64 {
        process::resident_bytes(self.child.id())
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.stdin.flush();
        process::end_worker(&mut self.child);
    }
}

/// What the workers cost so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorkerStats {
    /// Workers started (the first, and every restart).
    pub started: u64,
    /// Workers that crashed, hung or went over the memory limit and were replaced.
    pub lost: u64,
    /// Requests answered.
    pub answered: u64,
    /// Time spent starting workers.
    pub starting: Duration,
    /// Time spent in requests.
    pub busy: Duration,
}

/// Idle workers, and the counters.
#[derive(Default)]
pub(super) struct Pool {
    idle: Mutex<Vec<Worker>>,
    stats: Mutex<WorkerStats>,
}

impl Pool {
    /// An idle worker, or a new one.
    pub(super) fn take(&self, python: &Path, limits: &Limits) -> Result<Worker, String> {
        if let Some(w) = self.idle.lock().ok().and_then(|mut v| v.pop()) {
            return Ok(w);
        }
        let start = Instant::now();
        let w = Worker::start(python, limits);
        self.count(|s| {
            s.started += 1;
            s.starting += start.elapsed();
        });
        w
    }

    /// Returns a healthy worker, unless its memory grew past half the limit
    /// (a slow leak must not end as an out-of-memory finding against an
    /// innocent module).
    pub(super) fn give_back(&self, w: Worker, limits: &Limits) {
        let retire = limits.memory_bytes.is_some_and(|m| w.resident_bytes() > m / 2);
        if !retire {
            if let Ok(mut v) = self.idle.lock() {
                v.push(w);
            }
        }
    }

    /// Updates the counters.
    pub(super) fn count(&self, f: impl FnOnce(&mut WorkerStats)) {
        if let Ok(mut s) = self.stats.lock() {
            f(&mut s);
        }
    }

    /// The counters.
    pub(super) fn stats(&self) -> WorkerStats {
        self.stats.lock().map(|s| *s).unwrap_or_default()
    }
}
