//! Running an external tool as a child process under a time limit and a
//! memory limit, in a scratch directory: the one runner every adapter uses.
//!
//! A backend that crashes, hangs or runs out of memory is an *outcome* the
//! adapter reports ([`Abnormal`]), not a failure of the harness; only failing
//! to start the tool at all is an error.
//!
//! The time limit is on the child's CPU time as well as on the wall clock:
//! a run is killed once it has used `timeout` of CPU *and* `timeout` has
//! passed, or after [`WALL_FACTOR`] times `timeout` whatever it used. On a
//! loaded machine (a parallel test run, two hunts) a backend gets less than
//! a core, and a wall-clock limit alone turned slow but healthy runs into
//! false `timeout` findings; a hang that computes is still killed at
//! `timeout`, one that waits (a deadlock) at `WALL_FACTOR` times it.
//!
//! The memory limit is enforced by polling the child's resident set size
//! (`VmRSS` in `/proc/PID/status`) while waiting for it, not with
//! `RLIMIT_AS`: Vulkan drivers and JIT compilers reserve far more address
//! space than they use, so an address-space limit kills healthy runs.
//!
//! The peak resident set size needs two sources. `wait4`'s `ru_maxrss` is
//! exact for the child's own pages, but Linux folds in the high-water mark
//! of the memory the child started from, which (fork or vfork) is this
//! process's: a child of a 500 MiB parent reports 500 MiB for `/bin/true`.
//! So `ru_maxrss` is taken only when it is above this process's own
//! high-water mark at spawn time (then it can only be the child's); otherwise
//! the peak is the child's `VmHWM` (high-water mark since its `exec`), read
//! at every poll, which can miss only growth after the last poll.

use crate::oracle::Abnormal;
use std::ffi::OsStr;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How many times [`Limits::timeout`] of wall-clock time a run may take when
/// it has not used `timeout` of CPU time (it is waiting, or starved by a
/// loaded machine).
pub const WALL_FACTOR: u32 = 3;

/// Limits for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user and system, all threads) after which the process is
    /// killed, once as much wall-clock time has passed too; a process is
    /// killed after [`WALL_FACTOR`] times this much wall-clock time whatever
    /// it used.
    pub timeout: Duration,
    /// Resident memory, in bytes, above which the process is killed (`None`: no limit).
    pub memory_bytes: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { timeout: Duration::from_secs(120), memory_bytes: Some(4 << 30) }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The process exited with this status.
    Exited(i32),
    /// It crashed, hung or ran out of memory.
    Abnormal(Abnormal),
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct ProcessRun {
    /// How it ended.
    pub ended: Ended,
    /// Everything it wrote to stdout.
    pub stdout: Vec<u8>,
    /// Everything it wrote to stderr.
    pub stderr: Vec<u8>,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Peak resident set size of the child, in bytes (see the module
    /// documentation for how it is measured).
    pub peak_rss_bytes: u64,
    /// Whether [`ProcessRun::peak_rss_bytes`] is `wait4`'s exact figure
    /// (false: the highest `VmHWM` polled, a lower bound).
    pub peak_rss_exact: bool,
}

/// What a run cost: its wall time and its peak memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Peak resident set size, in bytes.
    pub peak_rss_bytes: u64,
    /// Whether the peak is `wait4`'s exact figure rather than a polled lower bound.
    pub peak_rss_exact: bool,
}

impl ProcessRun {
    /// Its time and peak memory.
    pub fn cost(&self) -> Cost {
        Cost { elapsed: self.elapsed, peak_rss_bytes: self.peak_rss_bytes, peak_rss_exact: self.peak_rss_exact }
    }

    /// Whether it exited with status 0.
    pub fn success(&self) -> bool {
        self.ended == Ended::Exited(0)
    }

    /// The abnormal end, if it had one.
    pub fn abnormal(&self) -> Option<Abnormal> {
        match self.ended {
            Ended::Abnormal(a) => Some(a),
            Ended::Exited(_) => None,
        }
    }

    /// stderr as text.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// stdout as text.
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// `exit status N`, or the abnormal end.
    pub fn status_text(&self) -> String {
        match self.ended {
            Ended::Exited(c) => format!("exit status {c}"),
            Ended::Abnormal(a) => a.to_string(),
        }
    }

    /// The last `lines` non-empty lines of stderr (then stdout, when stderr
    /// is empty), at most about 4,000 bytes: what a report shows of a failure.
    pub fn tail(&self, lines: usize) -> String {
        let text = if self.stderr.iter().any(|b| !b.is_ascii_whitespace()) { &self.stderr } else { &self.stdout };
        tail_of(&String::from_utf8_lossy(text), lines)
    }
}

/// The last `lines` non-empty lines of `text`, cut to about 4,000 bytes.
pub fn tail_of(text: &str, lines: usize) -> String {
    let kept: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect();
    let out = kept[kept.len().saturating_sub(lines)..].join("\n");
    if out.len() <= 4000 {
        return out;
    }
    let start = out.len() - 4000;
    let cut = (start..out.len()).find(|&i| out.is_char_boundary(i)).unwrap_or(out.len());
    format!("…{}", &out[cut..])
}

/// Why a tool could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The scratch directory or an output file could not be made.
    #[error("{path}: {source}")]
    Io {
        /// The path concerned.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The executable could not be started.
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The error.
        source: std::io::Error,
    },
}

/// Runs `cmd` to completion in `dir` (its working directory), with stdin
/// empty and stdout/stderr collected through files in `dir` (pipes would
/// block a chatty tool while we poll), under `limits`.
pub fn run(mut cmd: Command, dir: &Path, limits: &Limits) -> Result<ProcessRun, RunError> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    let program = cmd.get_program().to_string_lossy().into_owned();
    let label = Path::new(&program).file_name().map_or_else(|| "tool".into(), |f| f.to_string_lossy().into_owned());
    let out_path = dir.join(format!(".{label}.{n}.stdout"));
    let err_path = dir.join(format!(".{label}.{n}.stderr"));
    let create =
        |p: &Path| std::fs::File::create(p).map_err(|source| RunError::Io { path: p.display().to_string(), source });
    cmd.stdin(Stdio::null()).stdout(create(&out_path)?).stderr(create(&err_path)?).current_dir(dir);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| RunError::Spawn { program: program.clone(), source })?;
    let pid = child.id();
    // Read after the spawn returns, when the child has exec'd (std uses
    // vfork/posix_spawn) or is about to: our mark can only have grown since
    // the child's copy of it was taken, so the comparison stays safe.
    let inherited = own_high_water_bytes();
    let exit = ExitWatch::new(pid);
    let mut polled_peak = 0u64;
    let mut nap = Duration::from_micros(500);
    let mut killed: Option<Abnormal> = None;
    let reaped = loop {
        match reap(pid) {
            Reap::Exited(status, maxrss) => break Some((status, maxrss)),
            Reap::Running => {}
            // The child cannot be waited for (it was reaped elsewhere): treat
            // as a crash of unknown cause rather than hanging here.
            Reap::Lost => break None,
        }
        let mem = memory_of(pid);
        polled_peak = polled_peak.max(mem.high_water);
        let over_memory = limits.memory_bytes.is_some_and(|m| mem.resident > m);
        let wall = start.elapsed();
        let out_of_time = (wall >= limits.timeout && cpu_time(pid) >= limits.timeout)
            || wall >= limits.timeout.saturating_mul(WALL_FACTOR);
        if killed.is_none() && (over_memory || out_of_time) {
            killed = Some(if over_memory { Abnormal::OutOfMemory } else { Abnormal::Timeout });
            let _ = child.kill();
        }
        exit.wait(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    let stdout = read_and_remove(&out_path);
    let stderr = read_and_remove(&err_path);
    let status = reaped.map(|(s, _)| s);
    let maxrss = reaped.map_or(0, |(_, m)| m);
    let peak_rss_exact = maxrss > inherited;
    let peak_rss_bytes = if peak_rss_exact { maxrss } else { polled_peak };
    let ended = match (killed, status) {
        (Some(a), _) => Ended::Abnormal(a),
        (None, Some(s)) => ended(s, &stderr),
        (None, None) => Ended::Abnormal(Abnormal::Signal(0)),
    };
    Ok(ProcessRun { ended, stdout, stderr, elapsed, peak_rss_bytes, peak_rss_exact })
}

/// How a process that exited with `status`, after writing `stderr`, ended:
/// its exit code, or the signal that killed it (a C++ `std::bad_alloc`
/// abort counts as running out of memory). Shared by the one-shot runner
/// and the persistent workers.
pub fn ended(status: ExitStatus, stderr: &[u8]) -> Ended {
    match (status.code(), status.signal()) {
        (Some(c), _) => Ended::Exited(c),
        (None, Some(_)) if allocation_failed(stderr) => Ended::Abnormal(Abnormal::OutOfMemory),
        (None, Some(sig)) => Ended::Abnormal(Abnormal::Signal(sig)),
        (None, None) => Ended::Abnormal(Abnormal::Signal(0)),
    }
}

/// Ends a persistent worker whose stdin its owner has closed (or is about
/// to drop): a healthy worker ends on its own; one still running is killed.
/// Either way it is reaped.
pub fn end_worker(child: &mut std::process::Child) {
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// The resident set size of process `pid` now (`VmRSS`), in bytes; 0 when
/// it cannot be read. What the memory limit is checked against.
pub fn resident_bytes(pid: u32) -> u64 {
    memory_of(pid).resident
}

/// Waits for a child to end, at most a given time: on a pidfd when the
/// kernel has them (the wait ends the moment the child does, so a short run's
/// time is not rounded up to the polling interval), else by sleeping.
struct ExitWatch(Option<OwnedFd>);

impl ExitWatch {
    fn new(pid: u32) -> ExitWatch {
        // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::c_long::from(pid), 0 as libc::c_long) };
        match i32::try_from(fd) {
            // SAFETY: a non-negative result is a file descriptor we now own.
            Ok(fd) if fd >= 0 => ExitWatch(Some(unsafe { OwnedFd::from_raw_fd(fd) })),
            _ => ExitWatch(None),
        }
    }

    fn wait(&self, most: Duration) {
        let Some(fd) = &self.0 else {
            std::thread::sleep(most);
            return;
        };
        let mut p = libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        let ms = libc::c_int::try_from(most.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        // SAFETY: one valid pollfd, for the duration of the call.
        unsafe { libc::poll(&mut p, 1, ms) };
    }
}

/// What a non-blocking `wait4` found.
enum Reap {
    /// Still running.
    Running,
    /// Exited (status, `ru_maxrss` in bytes); the child is reaped.
    Exited(ExitStatus, u64),
    /// Not our child any more.
    Lost,
}

/// Reaps `pid` if it has ended, with its resource usage. `std`'s `Child`
/// is not asked afterwards (it would find no child); dropping it is harmless.
fn reap(pid: u32) -> Reap {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return Reap::Lost };
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live, writable locals of the right types.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            // ru_maxrss is in kibibytes on Linux.
            let maxrss = u64::try_from(usage.ru_maxrss).unwrap_or(0).saturating_mul(1024);
            return Reap::Exited(ExitStatus::from_raw(status), maxrss);
        }
        if r == 0 {
            return Reap::Running;
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Reap::Lost;
        }
    }
}

/// The CPU time (user plus system, every thread) process `pid` has used,
/// from `/proc/PID/stat`; zero when it cannot be read (then only the
/// wall-clock bound applies).
pub fn cpu_time(pid: u32) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return Duration::ZERO };
    // The command name (field 2) is in parentheses and may hold spaces: the
    // fields after its closing parenthesis start at field 3 (state), so
    // utime and stime (fields 14 and 15) are the 12th and 13th of them.
    let Some(rest) = stat.rfind(')').map(|at| &stat[at + 1..]) else { return Duration::ZERO };
    let mut fields = rest.split_ascii_whitespace().skip(11);
    let ticks = |f: Option<&str>| f.and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
    let used = ticks(fields.next()).saturating_add(ticks(fields.next()));
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    match u64::try_from(per_second) {
        Ok(hz) if hz > 0 => Duration::from_millis(used.saturating_mul(1000) / hz),
        _ => Duration::ZERO,
    }
}

/// A process's memory, from `/proc/PID/status` (zero where unreadable).
#[derive(Clone, Copy, Debug, Default)]
struct Memory {
    /// `VmRSS`: resident now.
    resident: u64,
    /// `VmHWM`: the most resident since its last `exec`.
    high_water: u64,
}

fn memory_of(pid: u32) -> Memory {
    read_memory(&format!("/proc/{pid}/status"))
}

fn own_high_water_bytes() -> u64 {
    read_memory("/proc/self/status").high_water
}

fn read_memory(status_path: &str) -> Memory {
    let Ok(status) = std::fs::read_to_string(status_path) else { return Memory::default() };
    let field = |name: &str| -> u64 {
        let kb = status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok());
        kb.unwrap_or(0).saturating_mul(1024)
    };
    Memory { resident: field("VmRSS:"), high_water: field("VmHWM:") }
}

/// Whether a process that died on a signal said it could not allocate
/// (C++ `std::bad_alloc` ends in `abort()`).
fn allocation_failed(stderr: &[u8]) -> bool {
    let text = String::from_utf8_lossy(stderr);
    text.contains("std::bad_alloc") || text.contains("out of memory") || text.contains("Cannot allocate memory")
}

fn read_and_remove(path: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let _ = f.read_to_end(&mut bytes);
    }
    let _ = std::fs::remove_file(path);
    bytes
}

/// A directory removed when dropped, unless [`ScratchDir::keep`] was called.
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
    keep: bool,
}

impl ScratchDir {
    /// A new, empty directory under the system temporary directory, named
    /// after `label`, the process and a counter.
    pub fn new(label: &str) -> Result<ScratchDir, RunError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!("spvgraph-{label}-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|source| RunError::Io { path: path.display().to_string(), source })?;
        Ok(ScratchDir { path, keep: false })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path inside it.
    pub fn join(&self, name: impl AsRef<OsStr>) -> PathBuf {
        self.path.join(name.as_ref())
    }

    /// Leaves the directory in place when dropped (for debugging a backend).
    pub fn keep(&mut self) -> &Path {
        self.keep = true;
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    #[test]
    fn exit_status_and_output_are_collected() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        let run = run(sh("echo out; echo err >&2; exit 3"), dir.path(), &Limits::default()).expect("runs");
        assert_eq!(run.ended, Ended::Exited(3));
        assert_eq!(run.stdout_text(), "out\n");
        assert_eq!(run.stderr_text(), "err\n");
        assert_eq!(run.tail(5), "err");
        // The capture files are gone.
        assert_eq!(std::fs::read_dir(dir.path()).expect("lists").count(), 0);
    }

    #[test]
    fn a_signal_is_an_abnormal_end() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        let run = run(sh("kill -SEGV $$"), dir.path(), &Limits::default()).expect("runs");
        assert_eq!(run.abnormal(), Some(Abnormal::Signal(11)));
        assert!(run.status_text().contains("SIGSEGV"), "{}", run.status_text());
    }

    #[test]
    fn a_hung_process_is_killed_at_the_time_limit() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        let limits = Limits { timeout: Duration::from_millis(200), memory_bytes: None };
        let run = run(sh("exec sleep 30"), dir.path(), &limits).expect("runs");
        assert_eq!(run.abnormal(), Some(Abnormal::Timeout));
        // A waiting process is given WALL_FACTOR times the limit.
        assert!(run.elapsed >= Duration::from_millis(600), "{:?}", run.elapsed);
        assert!(run.elapsed < Duration::from_secs(10));
    }

    #[test]
    fn a_computing_hang_is_killed_once_it_has_used_the_limit() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        let limits = Limits { timeout: Duration::from_millis(300), memory_bytes: None };
        let run = run(sh("exec awk 'BEGIN { while (1) n++ }'"), dir.path(), &limits).expect("runs");
        assert_eq!(run.abnormal(), Some(Abnormal::Timeout));
        assert!(run.elapsed >= Duration::from_millis(300), "{:?}", run.elapsed);
    }

    /// The false timeouts of a loaded machine: a run that has not used its
    /// CPU time is not killed at the wall-clock limit.
    #[test]
    fn a_run_past_the_wall_clock_limit_that_used_little_cpu_finishes() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        let limits = Limits { timeout: Duration::from_millis(300), memory_bytes: None };
        let run = run(sh("sleep 0.5; exit 4"), dir.path(), &limits).expect("runs");
        assert_eq!(run.ended, Ended::Exited(4), "{}", run.status_text());
        assert!(run.elapsed >= Duration::from_millis(500));
    }

    #[test]
    fn cpu_time_is_read_from_proc() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        let mut child = sh("exec awk 'BEGIN { while (1) n++ }'").current_dir(dir.path()).spawn().expect("spawns");
        // On a loaded machine the busy loop gets the CPU late: wait for it
        // to have run 100 ms, up to a generous deadline.
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let mut used = cpu_time(child.id());
        while used < Duration::from_millis(100) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            used = cpu_time(child.id());
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(used >= Duration::from_millis(100), "{used:?}");
        assert_eq!(cpu_time(u32::MAX), Duration::ZERO);
    }

    #[test]
    fn a_process_over_the_memory_limit_is_killed() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        // Python is not guaranteed; awk building a long string is.
        let script = "awk 'BEGIN { s = \"x\"; while (1) s = s s }'";
        let limits = Limits { timeout: Duration::from_secs(20), memory_bytes: Some(64 << 20) };
        let run = run(sh(&format!("exec {script}")), dir.path(), &limits).expect("runs");
        assert_eq!(run.abnormal(), Some(Abnormal::OutOfMemory), "{}", run.status_text());
        assert!(run.peak_rss_bytes > 0);
    }

    #[test]
    fn a_short_lived_childs_peak_is_exact() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        // A 512 MiB string, then exit at once: no poll need see it. (Far
        // above what this test process holds, the ballast below included.)
        let script = "exec awk 'BEGIN { s = \"x\"; while (length(s) < 536870912) s = s s; exit 0 }'";
        let limits = Limits { timeout: Duration::from_secs(60), memory_bytes: None };
        let run = run(sh(script), dir.path(), &limits).expect("runs");
        assert!(run.success(), "{}", run.status_text());
        assert!(run.peak_rss_exact, "a 512 MiB child of a smaller test process is measured by wait4");
        assert!(run.peak_rss_bytes >= 512 << 20, "{} bytes", run.peak_rss_bytes);
    }

    #[test]
    fn a_childs_peak_excludes_the_parents_memory() {
        // Linux folds the parent's high-water mark into the child's
        // ru_maxrss; a small child of a big parent must still look small.
        let ballast = vec![1u8; 128 << 20];
        let dir = ScratchDir::new("process-test").expect("scratch");
        let run = run(sh("exec true"), dir.path(), &Limits::default()).expect("runs");
        assert!(run.success());
        assert!(run.peak_rss_bytes < 32 << 20, "{} bytes", run.peak_rss_bytes);
        assert_eq!(ballast.iter().step_by(4096).map(|&b| usize::from(b)).sum::<usize>(), (128 << 20) / 4096);
    }

    #[test]
    fn a_missing_program_is_an_error_not_an_outcome() {
        let dir = ScratchDir::new("process-test").expect("scratch");
        let err = run(Command::new("/nonexistent/tool"), dir.path(), &Limits::default()).expect_err("cannot start");
        assert!(err.to_string().contains("/nonexistent/tool"), "{err}");
    }

    #[test]
    fn scratch_directories_are_removed_unless_kept() {
        let a = ScratchDir::new("process-test").expect("scratch");
        let pa = a.path().to_path_buf();
        drop(a);
        assert!(!pa.exists());
        let mut b = ScratchDir::new("process-test").expect("scratch");
        let pb = b.keep().to_path_buf();
        drop(b);
        assert!(pb.exists());
        let _ = std::fs::remove_dir_all(pb);
    }

    #[test]
    fn tails_are_cut_on_char_boundaries() {
        let long = "é".repeat(5000);
        let t = tail_of(&long, 3);
        assert!(t.len() <= 4003 + 'é'.len_utf8());
        assert!(t.starts_with('…'));
    }
}

/// The last bytes a long-lived child (a worker) wrote to a stream, and how
/// many in all, so that what it said during one exchange can be told from
/// what it said before (the persistent workers of `vulkan` and
/// `model-explorer`).
#[derive(Default)]
pub struct OutputTail {
    bytes: Vec<u8>,
    total: u64,
}

impl OutputTail {
    /// How much is kept.
    pub const KEEP: usize = 64 << 10;

    /// Appends what was read.
    pub fn push(&mut self, chunk: &[u8]) {
        self.bytes.extend_from_slice(chunk);
        self.total += chunk.len() as u64;
        if self.bytes.len() > Self::KEEP {
            let cut = self.bytes.len() - Self::KEEP;
            self.bytes.drain(..cut);
        }
    }

    /// How many bytes were written in all (a mark for [`OutputTail::since`]).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// What was written after the first `since` bytes (as much as is kept).
    pub fn since(&self, since: u64) -> String {
        let new = usize::try_from(self.total.saturating_sub(since)).unwrap_or(usize::MAX).min(self.bytes.len());
        String::from_utf8_lossy(&self.bytes[self.bytes.len() - new..]).into_owned()
    }
}

#[cfg(test)]
mod tail_tests {
    use super::*;

    #[test]
    fn the_tail_keeps_what_came_after_a_mark() {
        let mut t = OutputTail::default();
        t.push(b"before\n");
        let mark = t.total();
        t.push(b"after\n");
        assert_eq!(t.since(mark), "after\n");
        t.push(&vec![b'x'; OutputTail::KEEP + 10]);
        assert_eq!(t.bytes.len(), OutputTail::KEEP);
        assert_eq!(t.since(mark).len(), OutputTail::KEEP);
    }
}
