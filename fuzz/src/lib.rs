//! Properties checked by the spvgraph fuzz targets.
//!
//! Each target's property lives here as an ordinary function rather than
//! inside `fuzz_target!`, so that (a) several targets can share helpers,
//! (b) `cargo test` in this crate replays the seed corpora and any crash
//! artifacts on a stable toolchain without libFuzzer, and (c) a crash found
//! by the fuzzer can be debugged with a plain test.
//!
//! A property signals a violation by panicking with a message that names the
//! property; libFuzzer turns the panic into a crash artifact.

pub mod differential;
pub mod execute;
pub mod graph_validator;
pub mod meter;
pub mod mutate;
pub mod roundtrip;

use std::path::{Path, PathBuf};

/// Every fuzz target this crate defines, by `[[bin]]` name. The replay test
/// and `run.sh` use the same names for `seeds/<target>/`.
pub const TARGETS: &[&str] = &["graph_validator", "roundtrip", "execute", "differential"];

/// Per-process setup every fuzz target calls from its `init` block.
///
/// Without a sanitizer (`cargo fuzz run -s none`, the stable-toolchain path)
/// nothing gives the process an alternate signal stack: libFuzzer's `main`
/// replaces Rust's, so Rust's stack-overflow guard handler is not installed,
/// and libFuzzer's own SIGSEGV handler would run on the overflowed stack and
/// die silently, without printing the input or saving a crash artifact.
/// Deep recursion on cyclic definitions is exactly the kind of bug these
/// targets look for, so this installs a leaked 1 MiB alternate stack and marks
/// the (default) SIGSEGV disposition `SA_ONSTACK`; libFuzzer keeps that flag
/// when it installs its handler afterwards. When a sanitizer already owns
/// SIGSEGV (ASan on nightly), nothing is changed.
pub fn init() {
    #[cfg(unix)]
    install_alternate_signal_stack();
}

#[cfg(unix)]
fn install_alternate_signal_stack() {
    const SIZE: usize = 1 << 20;
    // SAFETY: plain libc calls on zeroed structs owned here. The stack buffer
    // is leaked so it outlives every signal delivery. The handler is only
    // changed from SIG_DFL (without SA_SIGINFO) to SIG_DFL with SA_ONSTACK,
    // which does not alter behaviour until libFuzzer installs its handler.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGSEGV, std::ptr::null(), &mut current) != 0 {
            return;
        }
        if current.sa_flags & libc::SA_SIGINFO != 0 || current.sa_sigaction != libc::SIG_DFL {
            return; // a sanitizer or another runtime handles SIGSEGV already
        }
        let stack: &'static mut [u8] = Box::leak(vec![0u8; SIZE].into_boxed_slice());
        let ss = libc::stack_t { ss_sp: stack.as_mut_ptr().cast(), ss_flags: 0, ss_size: SIZE };
        if libc::sigaltstack(&ss, std::ptr::null_mut()) != 0 {
            return;
        }
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = libc::SIG_DFL;
        action.sa_flags = libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        let _ = libc::sigaction(libc::SIGSEGV, &action, std::ptr::null_mut());
    }
}

/// Runs the property of the target named `target` on one input; `false` if
/// there is no such target.
pub fn check(target: &str, data: &[u8]) -> bool {
    match target {
        "graph_validator" => graph_validator::check(data),
        "roundtrip" => roundtrip::check(data),
        "execute" => execute::check(data),
        "differential" => differential::check(data),
        _ => return false,
    }
    true
}

/// The files directly inside `dir`, sorted (missing directory: none), so
/// corpora are replayed in a stable order.
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}
