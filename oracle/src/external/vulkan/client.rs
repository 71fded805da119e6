//! The oracle's side of the worker processes: which executable serves the
//! protocol ([`WorkerCommand`]), starting a worker with the Vulkan
//! environment, one exchange under the time and memory limits, and a pool
//! of idle workers, so that concurrent callers each get one and a worker
//! that crashed, hung or lost its device is replaced by a new one for the
//! next request.
//!
//! The pool keeps a spare: whenever a worker is taken and no other is idle
//! or starting, a new one is started on a background thread, so that the
//! next request after a crash (a quarter of the hunt's graphs crash the
//! 0.11 layer at pipeline creation) finds a worker ready instead of waiting
//! for a cold start.

use super::protocol::{self, read_message, write_message, DeviceReport, FromWorker, ProtocolError, ToWorker};
use crate::external::consumer::env::VulkanEnv;
use crate::external::consumer::glslang;
use crate::external::process::{self, Ended, Limits, OutputTail as Tail};
use crate::oracle::{Abnormal, PhaseTimes};
use std::ffi::OsString;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The variable naming the executable that serves the worker protocol (it
/// is run as `PROGRAM vulkan-worker`).
pub const WORKER_VARIABLE: &str = "SPVGRAPH_VULKAN_WORKER";

/// How to start a worker: an executable that serves the protocol, and its
/// arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerCommand {
    /// The executable.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
}

impl WorkerCommand {
    /// `PROGRAM vulkan-worker`: an `spvgraph` executable.
    pub fn spvgraph(program: impl Into<PathBuf>) -> WorkerCommand {
        WorkerCommand { program: program.into(), args: vec![OsString::from("vulkan-worker")] }
    }

    /// The worker of this installation: `$SPVGRAPH_VULKAN_WORKER`, else the
    /// running executable when it is `spvgraph`, else the `spvgraph` cargo
    /// built next to the running executable (a test or an example in
    /// `target/<profile>/deps` or `target/<profile>/examples`).
    pub fn discover() -> Result<WorkerCommand, String> {
        if let Some(p) = std::env::var_os(WORKER_VARIABLE) {
            let p = PathBuf::from(p);
            return if p.is_file() {
                Ok(WorkerCommand::spvgraph(p))
            } else {
                Err(format!("{WORKER_VARIABLE}={}: no such file", p.display()))
            };
        }
        let exe = std::env::current_exe().map_err(|e| format!("cannot find the running executable: {e}"))?;
        Self::beside(&exe).ok_or_else(|| {
            format!(
                "no spvgraph executable to run the worker beside {} (build it: cargo build --release --bin spvgraph; \
                 or set {WORKER_VARIABLE})",
                exe.display()
            )
        })
    }

    /// `exe` itself when it is `spvgraph`, else `spvgraph` in its directory
    /// or the one above.
    fn beside(exe: &Path) -> Option<WorkerCommand> {
        if exe.file_name().is_some_and(|n| n == "spvgraph") {
            return Some(WorkerCommand::spvgraph(exe));
        }
        let dir = exe.parent()?;
        [Some(dir), dir.parent()]
            .into_iter()
            .flatten()
            .map(|d| d.join("spvgraph"))
            .find(|p| p.is_file())
            .map(WorkerCommand::spvgraph)
    }
}

/// Everything needed to start a worker: the command, its Vulkan
/// environment, the device to pick, the limits, and whether it keeps
/// glslang initialized.
#[derive(Clone, Debug)]
pub(super) struct Launch {
    /// The executable.
    pub(super) command: WorkerCommand,
    /// Loader, driver and layers.
    pub(super) env: VulkanEnv,
    /// `SPVGRAPH_VULKAN_DEVICE`.
    pub(super) device: Option<String>,
    /// Time and memory limits.
    pub(super) limits: Limits,
    /// Passed to the worker as `SPVGRAPH_KEEP_GLSLANG=1` or `=0`.
    pub(super) keep_glslang: bool,
    /// Passed to the worker as `SPVGRAPH_CATCH_EXCEPTIONS=1` or `=0`.
    pub(super) catch_exceptions: bool,
}

type Message = Result<(FromWorker, Vec<Vec<u8>>), ProtocolError>;

/// One worker process.
pub(super) struct Worker {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    replies: Receiver<Message>,
    stderr: Arc<Mutex<Tail>>,
    /// The device it holds.
    pub(super) report: DeviceReport,
    /// Graphs it ran.
    pub(super) served: u64,
    /// Whether it was started ahead of need, as the pool's spare.
    pub(super) spare: bool,
}

/// How an exchange with a worker ended.
pub(super) enum Exchange {
    /// The worker answered; it is still usable unless it said the device was lost.
    Reply {
        /// The answer.
        message: FromWorker,
        /// Its blobs.
        blobs: Vec<Vec<u8>>,
        /// What the worker printed on standard error meanwhile.
        stderr: String,
    },
    /// The worker died, hung or went over the memory limit; it is gone.
    Ended {
        /// How.
        how: Ended,
        /// What it printed last.
        stderr: String,
    },
}

/// Why no worker could be started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum StartError {
    /// The executable could not be run, or said no device can be set up:
    /// the oracle is unavailable.
    Unavailable(String),
    /// It started and then died or hung before it was ready.
    Died(String),
}

impl Worker {
    /// Starts a worker and waits (at most `limits.timeout`) for its device.
    pub(super) fn start(launch: &Launch) -> Result<Worker, StartError> {
        let Launch { command, env, device, limits, keep_glslang, catch_exceptions } = launch;
        let mut cmd = Command::new(&command.program);
        cmd.args(&command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        env.apply(&mut cmd);
        cmd.env(glslang::KEEP_VARIABLE, if *keep_glslang { "1" } else { "0" });
        cmd.env(super::guard::CATCH_VARIABLE, if *catch_exceptions { "1" } else { "0" });
        let mut child = cmd
            .spawn()
            .map_err(|e| StartError::Unavailable(format!("cannot start {}: {e}", command.program.display())))?;
        let (Some(stdin), Some(mut stdout), Some(mut err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::Unavailable("the worker's pipes could not be opened".into()));
        };
        let (tx, replies) = mpsc::channel::<Message>();
        std::thread::spawn(move || loop {
            let m = read_message::<FromWorker>(&mut stdout);
            let done = m.is_err();
            if tx.send(m).is_err() || done {
                return;
            }
        });
        let stderr = Arc::new(Mutex::new(Tail::default()));
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
        let mut worker = Worker {
            child,
            stdin: BufWriter::new(stdin),
            replies,
            stderr,
            report: DeviceReport::default(),
            served: 0,
            spare: false,
        };
        let hello = ToWorker::Hello { protocol: protocol::VERSION, device: device.clone() };
        // The memory limit is for graphs: a device that needs more than it
        // to start is told apart by the first graph's outcome.
        let setup = Limits { timeout: limits.timeout, memory_bytes: None };
        match worker.exchange(&hello, &[], &setup) {
            Exchange::Reply { message: FromWorker::Ready(report), .. } if report.protocol == protocol::VERSION => {
                worker.report = *report;
                Ok(worker)
            }
            Exchange::Reply { message: FromWorker::Ready(report), .. } => Err(StartError::Unavailable(format!(
                "{} speaks protocol {}, this build {} (rebuild it)",
                command.program.display(),
                report.protocol,
                protocol::VERSION
            ))),
            Exchange::Reply { message: FromWorker::SetupFailed { message, .. }, stderr, .. } => {
                let said = process::tail_of(&stderr, 6);
                let said = if said.is_empty() { String::new() } else { format!(" ({said})") };
                Err(StartError::Unavailable(format!("{message}{said}")))
            }
            Exchange::Reply { message, .. } => Err(StartError::Died(format!("answered the hello with {message:?}"))),
            Exchange::Ended { how: Ended::Exited(code), stderr } => Err(StartError::Unavailable(format!(
                "{} {} exited with status {code} before it was ready: {}",
                command.program.display(),
                command.args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "),
                process::tail_of(&stderr, 8)
            ))),
            Exchange::Ended { how: Ended::Abnormal(a), stderr } => {
                Err(StartError::Died(format!("{a} while setting up the device: {}", process::tail_of(&stderr, 8))))
            }
        }
    }

    /// The worker's process id.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its resident memory now.
    pub(super) fn resident_bytes(&self) -> u64 {
        process::resident_bytes(self.pid())
    }

    /// Sends `message` and waits for the answer under `limits`. A worker
    /// that dies, stays silent past the time limit or grows past the memory
    /// limit is killed and reaped: [`Exchange::Ended`].
    pub(super) fn exchange(&mut self, message: &ToWorker, blobs: &[&[u8]], limits: &Limits) -> Exchange {
        let mark = self.stderr.lock().map(|t| t.total()).unwrap_or(0);
        let start = Instant::now();
        // A worker that died already breaks the pipe: what it said is read below.
        let sent = write_message(&mut self.stdin, message, blobs).is_ok();
        let mut nap = Duration::from_micros(200);
        let mut killed: Option<Abnormal> = None;
        loop {
            if sent && killed.is_none() {
                match self.replies.recv_timeout(nap) {
                    Ok(Ok((message, blobs))) => {
                        return Exchange::Reply { message, blobs, stderr: self.stderr_since(mark) }
                    }
                    Ok(Err(ProtocolError::Closed)) | Err(RecvTimeoutError::Disconnected) => {}
                    Ok(Err(e)) => {
                        // Garbage on the protocol's pipe: the worker cannot
                        // be trusted any more.
                        let _ = self.child.kill();
                        let _ = self.child.wait();
                        let stderr = format!("{}\nthe worker's answer was unreadable: {e}", self.stderr_since(mark));
                        return Exchange::Ended { how: Ended::Exited(-1), stderr };
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        nap = (nap * 2).min(Duration::from_millis(10));
                        let over = limits.memory_bytes.is_some_and(|m| self.resident_bytes() > m);
                        if over || start.elapsed() >= limits.timeout {
                            killed = Some(if over { Abnormal::OutOfMemory } else { Abnormal::Timeout });
                            let _ = self.child.kill();
                        }
                        continue;
                    }
                }
            }
            // The pipe closed or the worker was killed: reap it.
            let status = self.child.wait();
            // Let the stderr reader drain what the worker wrote last.
            std::thread::sleep(Duration::from_millis(20));
            let stderr = self.stderr_since(mark);
            let how = match (killed, status) {
                (Some(a), _) => Ended::Abnormal(a),
                (None, Ok(s)) => process::ended(s, stderr.as_bytes()),
                (None, Err(_)) => Ended::Abnormal(Abnormal::Signal(0)),
            };
            return Exchange::Ended { how, stderr };
        }
    }

    fn stderr_since(&self, mark: u64) -> String {
        self.stderr.lock().map(|t| t.since(mark)).unwrap_or_default()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.stdin.flush();
        process::end_worker(&mut self.child);
    }
}

/// What the workers of one oracle cost so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorkerStats {
    /// Workers started: the first, every restart and every spare (counted
    /// when its start begins).
    pub started: u64,
    /// Of those, started on a caller's time because no worker was idle or
    /// starting (the first, or a restart when the spare was not ready).
    pub cold_starts: u64,
    /// Of those, started ahead of need on a background thread, as the spare.
    pub spares: u64,
    /// Spares that could not be started.
    pub spares_failed: u64,
    /// Requests that found no idle worker and waited for the spare to be ready.
    pub waits: u64,
    /// How long they waited.
    pub waited: Duration,
    /// Workers that crashed, hung, went over the memory limit or lost their
    /// device while running a graph, and were replaced.
    pub lost: u64,
    /// Workers retired while healthy because their memory grew past half
    /// the limit.
    pub recycled: u64,
    /// Graphs run.
    pub graphs: u64,
    /// Wall-clock time callers spent on workers: cold starts, waits for
    /// the spare and exchanges (a spare's start on its own thread is not
    /// in it).
    pub busy: Duration,
    /// Highest resident set size of one worker seen after a graph, in bytes.
    pub peak_rss_bytes: u64,
    /// Workers idle now (the spare among them, once it is ready).
    pub idle: u64,
    /// Where the time went, by phase: every worker's start-up (spares'
    /// included, on their own thread) under `start`.
    pub phases: PhaseTimes,
}

/// What the pool and its spare's thread share.
#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when a spare is ready or failed to start.
    changed: Condvar,
    stats: Mutex<WorkerStats>,
}

#[derive(Default)]
struct State {
    idle: Vec<Worker>,
    /// Spares being started.
    starting: usize,
    /// Callers waiting for them.
    waiting: usize,
    /// The pool was dropped: a spare that gets ready now is stopped.
    closed: bool,
    threads: Vec<JoinHandle<()>>,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves a usable list.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn count(&self, f: impl FnOnce(&mut WorkerStats)) {
        if let Ok(mut s) = self.stats.lock() {
            f(&mut s);
        }
    }
}

/// Idle workers, the spare, and the counters.
pub(super) struct Pool {
    shared: Arc<Shared>,
    /// Whether a spare is kept.
    spare: bool,
}

impl Pool {
    /// An empty pool that keeps a spare worker when `spare` is set.
    pub(super) fn new(spare: bool) -> Pool {
        Pool { shared: Arc::new(Shared::default()), spare }
    }

    /// An idle worker, else the spare being started (waiting for it), else
    /// a new one; then a new spare is started if none is idle or starting.
    pub(super) fn take(&self, launch: &Launch) -> Result<Worker, StartError> {
        let began = Instant::now();
        let mut state = self.shared.state();
        let mut waited = false;
        loop {
            if let Some(w) = state.idle.pop() {
                drop(state);
                self.shared.count(|s| {
                    s.busy += began.elapsed();
                    if waited {
                        s.waits += 1;
                        s.waited += began.elapsed();
                    }
                });
                self.refill(launch);
                return Ok(w);
            }
            // A spare on its way is nearer than a cold start, unless other
            // callers already wait for every one on its way.
            if state.starting <= state.waiting {
                break;
            }
            state.waiting += 1;
            state = self.shared.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
            state.waiting -= 1;
            waited = true;
        }
        drop(state);
        let start = Instant::now();
        self.shared.count(|s| {
            s.started += 1;
            s.cold_starts += 1;
        });
        let w = Worker::start(launch);
        self.shared.count(|s| {
            s.phases.start += start.elapsed();
            s.busy += began.elapsed();
        });
        if w.is_ok() {
            self.refill(launch);
        }
        w
    }

    /// Starts a spare on a background thread when none is idle or starting.
    fn refill(&self, launch: &Launch) {
        if !self.spare {
            return;
        }
        let mut state = self.shared.state();
        if state.closed || !state.idle.is_empty() || state.starting > 0 {
            return;
        }
        state.starting += 1;
        self.shared.count(|s| {
            s.started += 1;
            s.spares += 1;
        });
        let shared = Arc::clone(&self.shared);
        let launch = launch.clone();
        let spawned = std::thread::Builder::new().name("vulkan-spare".into()).spawn(move || {
            let start = Instant::now();
            let w = Worker::start(&launch);
            shared.count(|s| {
                s.phases.start += start.elapsed();
                s.spares_failed += u64::from(w.is_err());
            });
            let mut state = shared.state();
            state.starting -= 1;
            let stop = match w {
                Ok(mut w) if !state.closed => {
                    w.spare = true;
                    state.idle.push(w);
                    None
                }
                Ok(w) => Some(w),
                Err(_) => None,
            };
            shared.changed.notify_all();
            drop(state);
            // Killed and reaped outside the lock.
            drop(stop);
        });
        match spawned {
            Ok(handle) => {
                state.threads.retain(|h| !h.is_finished());
                state.threads.push(handle);
            }
            Err(_) => {
                state.starting -= 1;
                self.shared.count(|s| s.spares_failed += 1);
            }
        }
    }

    /// Returns a healthy worker to the pool, unless its memory grew past
    /// half of `limits` (then it is retired: a slow leak must not end as an
    /// out-of-memory finding against an innocent graph).
    pub(super) fn give_back(&self, mut w: Worker, limits: &Limits) {
        w.served += 1;
        let rss = w.resident_bytes();
        let retire = limits.memory_bytes.is_some_and(|m| rss > m / 2);
        self.count(|s| {
            s.peak_rss_bytes = s.peak_rss_bytes.max(rss);
            s.recycled += u64::from(retire);
        });
        if !retire {
            let mut state = self.shared.state();
            state.idle.push(w);
            self.shared.changed.notify_all();
        }
    }

    /// Updates the counters.
    pub(super) fn count(&self, f: impl FnOnce(&mut WorkerStats)) {
        self.shared.count(f);
    }

    /// The counters.
    pub(super) fn stats(&self) -> WorkerStats {
        let idle = self.shared.state().idle.len() as u64;
        let mut s = self.shared.stats.lock().map(|s| *s).unwrap_or_default();
        s.idle = idle;
        s
    }
}

impl Drop for Pool {
    /// Stops every idle worker and waits for a spare still starting (it is
    /// stopped as soon as it is ready), so that no worker outlives the pool.
    fn drop(&mut self) {
        let (idle, threads) = {
            let mut state = self.shared.state();
            state.closed = true;
            (std::mem::take(&mut state.idle), std::mem::take(&mut state.threads))
        };
        drop(idle);
        for t in threads {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_is_found_beside_the_running_executable() {
        let dir = crate::external::process::ScratchDir::new("vulkan-worker-test").expect("scratch");
        let deps = dir.join("deps");
        std::fs::create_dir_all(&deps).expect("mkdir");
        assert_eq!(WorkerCommand::beside(&deps.join("vulkan-abc")), None);
        std::fs::write(dir.join("spvgraph"), b"").expect("w");
        let found = WorkerCommand::beside(&deps.join("vulkan-abc")).expect("one level up");
        assert_eq!(found.program, dir.join("spvgraph"));
        assert_eq!(found.args, [OsString::from("vulkan-worker")]);
        let itself = WorkerCommand::beside(&dir.join("spvgraph")).expect("itself");
        assert_eq!(itself.program, dir.join("spvgraph"));
    }
}
