//! Thread priorities: the backends' time is the scarce resource, so the
//! threads that make cases yield the CPU to them.

/// How much lower than the backends' the case-making threads run (a
/// `nice` increment).
const FIRST_PHASE_NICENESS: libc::c_int = 10;

/// Lowers the calling thread's scheduling priority, so that the backends'
/// processes and threads get the CPU first and cases are made with what is
/// left. Best effort: a system that refuses leaves the priority as it was.
pub fn lower_priority() {
    // SAFETY: gettid has no preconditions; setpriority on the calling
    // thread's own id changes only that thread's niceness.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let current = libc::getpriority(libc::PRIO_PROCESS, tid);
        libc::setpriority(libc::PRIO_PROCESS, tid, current.saturating_add(FIRST_PHASE_NICENESS));
    }
}
