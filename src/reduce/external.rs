//! An interestingness test run as a process, spirv-reduce style: the test
//! gets the candidate's `.spv` path as its last argument and exit status 0
//! means "interesting". The candidate's inputs (`.npy`), manifest and TOSA
//! MLIR sit next to it, named as in the corpus format, in a directory of its
//! own that is also the test's working directory.

use super::write_candidate;
use spvgraph_generator::files::Extras;
use spvgraph_oracle::external::process::{self, Ended, Limits, ScratchDir};
use spvgraph_reducer::Candidate;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A test command and where its candidates are written.
#[derive(Debug)]
pub struct ExternalTest {
    program: PathBuf,
    args: Vec<String>,
    stem: String,
    root: ScratchDir,
    limits: Limits,
    counter: AtomicU64,
    keep: bool,
}

impl ExternalTest {
    /// Runs `program args... CANDIDATE.spv`; candidates are written as case
    /// `stem` under a fresh directory inside the system's temporary directory.
    /// The test runs in each candidate's directory, so a relative path
    /// among `program` and `args` that names an existing file is made
    /// absolute first.
    pub fn new(program: PathBuf, args: Vec<String>, stem: &str) -> anyhow::Result<ExternalTest> {
        let root = ScratchDir::new("reduce")?;
        let absolute = |p: &Path| match std::env::current_dir() {
            Ok(cwd) if p.is_relative() && p.exists() => cwd.join(p),
            _ => p.to_path_buf(),
        };
        let program = absolute(&program);
        let args = args.iter().map(|a| absolute(Path::new(a)).to_string_lossy().into_owned()).collect();
        Ok(ExternalTest {
            program,
            args,
            stem: stem.to_string(),
            root,
            // No limit unless asked: spirv-reduce puts none on its tests either.
            limits: Limits { timeout: Duration::MAX, memory_bytes: None },
            counter: AtomicU64::new(0),
            keep: false,
        })
    }

    /// Kills a test that runs longer than this (it then counts as not interesting).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> ExternalTest {
        self.limits.timeout = timeout.unwrap_or(Duration::MAX);
        self
    }

    /// Keeps every candidate directory (for debugging a test).
    pub fn keep_candidates(mut self, keep: bool) -> ExternalTest {
        self.keep = keep;
        if keep {
            self.root.keep();
        }
        self
    }

    /// Where the candidates are written.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// Whether the test finds `c` interesting. Failing to write the
    /// candidate or to start the test counts as "not interesting".
    pub fn judge(&self, c: &Candidate) -> bool {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let dir = self.root.join(format!("c{n}"));
        if std::fs::create_dir_all(&dir).is_err() {
            return false;
        }
        let ok = write_candidate(&dir, &self.stem, c, &Extras { spvasm: false, mlir: true }).is_ok() && {
            let mut cmd = Command::new(&self.program);
            cmd.args(&self.args).arg(dir.join(format!("{}.spv", self.stem)));
            matches!(process::run(cmd, &dir, &self.limits), Ok(run) if run.ended == Ended::Exited(0))
        };
        if !self.keep {
            let _ = std::fs::remove_dir_all(&dir);
        }
        ok
    }
}
