//! Panics as outcomes: every component of a case runs under [`guard`], so a
//! panic anywhere becomes a `panic` disagreement instead of ending the hunt.

use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;

thread_local! {
    static IN_GUARD: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs a panic hook that keeps panics inside [`guard`] quiet (their
/// location is recorded for the finding) and leaves every other panic to the
/// previous hook. Installs it once per process, however often it is called.
pub fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_GUARD.with(Cell::get) {
                let location = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(location));
            } else {
                previous(info);
            }
        }));
    });
}

/// A caught panic.
#[derive(Clone, Debug)]
pub struct Caught {
    /// The component that panicked.
    pub component: &'static str,
    /// The panic message.
    pub message: String,
    /// `file:line` of the panic, when known.
    pub location: String,
}

/// Runs `f`, turning a panic into [`Caught`].
pub fn guard<T>(component: &'static str, f: impl FnOnce() -> T) -> Result<T, Caught> {
    let was = IN_GUARD.with(|g| g.replace(true));
    let r = std::panic::catch_unwind(AssertUnwindSafe(f));
    IN_GUARD.with(|g| g.set(was));
    r.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic payload)".into());
        let location = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
        Caught { component, message, location }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_are_caught_with_their_component() {
        install_panic_hook();
        let r: Result<(), Caught> = guard("widget", || panic!("boom {}", 7));
        let c = r.expect_err("panicked");
        assert_eq!(c.component, "widget");
        assert_eq!(c.message, "boom 7");
        assert!(c.location.contains("guard.rs"), "{}", c.location);
        assert_eq!(guard("widget", || 5).ok(), Some(5));
    }
}
