//! An interestingness test run as a process, spirv-reduce style: the test
//! gets the candidate's `.spv` path as its last argument and exit status 0
//! means "interesting". The candidate's inputs (`.npy`), manifest and TOSA
//! MLIR sit next to it, named as in the corpus format, in a directory of its
//! own that is also the test's working directory.

use super::write_candidate;
use spvgraph_generator::files::Extras;
use spvgraph_reducer::Candidate;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A test command and where its candidates are written.
#[derive(Debug)]
pub struct ExternalTest {
    program: PathBuf,
    args: Vec<String>,
    stem: String,
    root: PathBuf,
    timeout: Option<Duration>,
    counter: AtomicU64,
    keep: bool,
}

impl ExternalTest {
    /// Runs `program args... CANDIDATE.spv`; candidates are written as case
    /// `stem` under a fresh directory inside the system's temporary directory.
    pub fn new(program: PathBuf, args: Vec<String>, stem: &str) -> anyhow::Result<ExternalTest> {
        let root = std::env::temp_dir().join(format!("spvgraph-reduce-{}-{}", std::process::id(), unique()));
        std::fs::create_dir_all(&root).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", root.display()))?;
        Ok(ExternalTest {
            program,
            args,
            stem: stem.to_string(),
            root,
            timeout: None,
            counter: AtomicU64::new(0),
            keep: false,
        })
    }

    /// Kills a test that runs longer than this (it then counts as not interesting).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> ExternalTest {
        self.timeout = timeout;
        self
    }

    /// Keeps every candidate directory (for debugging a test).
    pub fn keep_candidates(mut self, keep: bool) -> ExternalTest {
        self.keep = keep;
        self
    }

    /// Where the candidates are written.
    pub fn root(&self) -> &std::path::Path {
        &self.root
    }

    /// Whether the test finds `c` interesting. Failing to write the
    /// candidate or to start the test counts as "not interesting".
    pub fn judge(&self, c: &Candidate) -> bool {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let dir = self.root.join(format!("c{n}"));
        if std::fs::create_dir_all(&dir).is_err() {
            return false;
        }
        let ok = write_candidate(&dir, &self.stem, c, &Extras { spvasm: false, mlir: true }).is_ok()
            && self.run(&dir, &dir.join(format!("{}.spv", self.stem)));
        if !self.keep {
            let _ = std::fs::remove_dir_all(&dir);
        }
        ok
    }

    fn run(&self, dir: &std::path::Path, spv: &std::path::Path) -> bool {
        let child = Command::new(&self.program)
            .args(&self.args)
            .arg(spv)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = child else { return false };
        let Some(timeout) = self.timeout else { return child.wait().is_ok_and(|s| s.success()) };
        let start = Instant::now();
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return status.success(),
                Ok(None) => {}
                Err(_) => return false,
            }
            if start.elapsed() > timeout {
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for ExternalTest {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

fn unique() -> u64 {
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}
