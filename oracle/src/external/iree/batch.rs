//! Many graphs in one `iree-compile` run: each graph's TOSA MLIR becomes a
//! function of one module under a name of its own, and the compiler's
//! diagnostics are mapped back to the functions they are about.
//!
//! Why: most of `iree-compile`'s cost on a small graph is a fixed cost per
//! invocation (about 0.3 s of 0.5 s, measured, and the same through IREE's
//! in-process compiler API), so only putting many graphs in one module
//! amortizes it. A function is exported under its own name, which
//! `iree-run-module --function=` then runs.
//!
//! A module that does not compile says little about its other functions:
//! the pass pipeline stops at the first function a pass fails on. The
//! caller compiles the functions the diagnostics name alone and the rest
//! together again; [`BatchModule::named`] is that mapping. Diagnostics carry
//! `FILE:LINE:COL` locations of the input (no debug information is asked
//! for, so the locations are the module text's own lines); an error inside a
//! dispatch IREE outlined adds a `called from` note at the `func.func` line of
//! the function it came from.

use std::collections::BTreeSet;

/// The name of the `k`th function of a batch module.
pub fn function_name(k: usize) -> String {
    format!("spvgraph_g{k}")
}

/// One graph's TOSA MLIR with its function renamed `name`: the `func.func`
/// line's symbol (bare, `@graph0`, or quoted, `@"my graph"`) replaced.
/// `None` when the text has no `func.func @` line.
pub fn renamed(mlir: &str, name: &str) -> Option<String> {
    let mut out = String::with_capacity(mlir.len() + name.len());
    let mut done = false;
    for line in mlir.split_inclusive('\n') {
        let trimmed = line.trim_start();
        match (done, trimmed.strip_prefix("func.func @")) {
            (false, Some(rest)) => {
                let after = symbol_end(rest)?;
                out.push_str(&line[..line.len() - trimmed.len()]);
                out.push_str("func.func @");
                out.push_str(name);
                out.push_str(&rest[after..]);
                done = true;
            }
            _ => out.push_str(line),
        }
    }
    done.then_some(out)
}

/// Where the symbol at the start of `rest` (the text after `@`) ends.
fn symbol_end(rest: &str) -> Option<usize> {
    if let Some(quoted) = rest.strip_prefix('"') {
        // An MLIR string: a backslash escapes the next character.
        let mut escaped = false;
        for (i, c) in quoted.char_indices() {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => return Some(i + 2),
                _ => {}
            }
        }
        return None;
    }
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-')))?;
    (end > 0).then_some(end)
}

/// Several graphs' MLIR as the functions of one module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchModule {
    /// The module text: the functions one after another (MLIR's implicit
    /// top-level module).
    pub text: String,
    /// The 1-based first and last line of each function's text.
    lines: Vec<(usize, usize)>,
}

impl BatchModule {
    /// The module of `graphs` (each one function's text, as
    /// [`spvgraph_ir::mlir::module_to_mlir`] prints it, with any rewrite the
    /// adapter applies), the `k`th renamed [`function_name`]`(k)`; `None`
    /// when a graph has no function to rename.
    pub fn new<S: AsRef<str>>(graphs: &[S]) -> Option<BatchModule> {
        let mut text = String::new();
        let mut lines = Vec::with_capacity(graphs.len());
        let mut next = 1;
        for (k, g) in graphs.iter().enumerate() {
            let mut f = renamed(g.as_ref(), &function_name(k))?;
            if !f.ends_with('\n') {
                f.push('\n');
            }
            let count = f.lines().count();
            lines.push((next, next + count.saturating_sub(1)));
            next += count;
            text.push_str(&f);
        }
        Some(BatchModule { text, lines })
    }

    /// How many functions it has.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The function whose text holds 1-based line `line`.
    pub fn function_at(&self, line: usize) -> Option<usize> {
        self.lines.iter().position(|&(first, last)| (first..=last).contains(&line))
    }

    /// The functions that `log` (the compiler's diagnostics for the module,
    /// compiled as file `file`) says something failed in: the location of
    /// every error and of every note attached to an error (`called from`,
    /// `see current operation`). Empty when no location names a function
    /// (an error without a location, or at an unknown one).
    pub fn named(&self, log: &str, file: &str) -> BTreeSet<usize> {
        let mut named = BTreeSet::new();
        let mut in_error = false;
        for line in log.lines() {
            let Some((at, severity)) = diagnostic(line, file) else { continue };
            match severity {
                "error" => in_error = true,
                "note" if in_error => {}
                _ => {
                    in_error = false;
                    continue;
                }
            }
            if let Some(k) = at.and_then(|l| self.function_at(l)) {
                named.insert(k);
            }
        }
        named
    }
}

/// A diagnostic's first line, `FILE:LINE:COL: SEVERITY: message`: its line
/// (when the location is in `file`) and its severity. Lines that are not a
/// diagnostic's first line (the echoed source, the caret) give `None`.
fn diagnostic<'l>(line: &'l str, file: &str) -> Option<(Option<usize>, &'l str)> {
    // The earliest marker: a message may quote another severity's marker.
    let (start, severity) = ["error", "note", "warning", "remark"]
        .into_iter()
        .filter_map(|s| line.find(&format!(": {s}: ")).map(|at| (at, s)))
        .min()?;
    let head = &line[..start];
    let at = head.strip_prefix(file).and_then(|rest| rest.strip_prefix(':')).and_then(|rest| {
        let (l, col) = rest.split_once(':')?;
        col.parse::<usize>().ok()?;
        l.parse::<usize>().ok()
    });
    Some((at, severity))
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "// TOSA MLIR of graph entry point \"graph0\" (graph %2)\n\
        func.func @graph0(%arg0: tensor<2xf32>) -> (tensor<2xf32>) {\n  \
        %0 = \"tosa.abs\"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n  \
        return %0 : tensor<2xf32>\n}\n";
    const B: &str = "// TOSA MLIR of graph entry point \"my graph\" (graph %3)\n\
        func.func @\"my \\\"graph\\\"\"(%arg0: tensor<2xi8>) -> (tensor<2xi8>) {\n  \
        %0 = \"tosa.abs\"(%arg0) : (tensor<2xi8>) -> tensor<2xi8>\n  \
        return %0 : tensor<2xi8>\n}\n";

    #[test]
    fn functions_are_renamed_whatever_their_symbol() {
        let a = renamed(A, "f").expect("renamed");
        assert!(a.contains("func.func @f(%arg0: tensor<2xf32>)"), "{a}");
        assert!(a.contains("\"graph0\""), "the comment is left alone: {a}");
        let b = renamed(B, "g").expect("renamed");
        assert!(b.contains("func.func @g(%arg0: tensor<2xi8>)"), "{b}");
        assert_eq!(renamed("%0 = \"tosa.abs\"(%a)", "f"), None);
        assert_eq!(renamed("func.func @\"unterminated(", "f"), None);
    }

    #[test]
    fn each_function_keeps_its_lines() {
        let m = BatchModule::new(&[A, B, A]).expect("a module");
        assert_eq!(m.len(), 3);
        let lines: Vec<&str> = m.text.lines().collect();
        assert_eq!(lines.len(), 15);
        assert!(lines[1].starts_with("func.func @spvgraph_g0("), "{}", m.text);
        assert!(lines[6].starts_with("func.func @spvgraph_g1("), "{}", m.text);
        assert!(lines[11].starts_with("func.func @spvgraph_g2("), "{}", m.text);
        assert_eq!(
            (m.function_at(1), m.function_at(5), m.function_at(6), m.function_at(15)),
            (Some(0), Some(0), Some(1), Some(2))
        );
        assert_eq!(m.function_at(16), None);
        assert_eq!(m.function_at(0), None);
    }

    /// IREE 3.13's diagnostics, as seen: an error at an operation's line
    /// with a `see current operation` note, and an error inside an
    /// outlined dispatch with a `called from` note at the `func.func` line.
    #[test]
    fn diagnostics_name_the_functions_they_are_about() {
        let m = BatchModule::new(&[A, B, A, B]).expect("a module");
        let legalize = "batch.mlir:8:8: error: failed to legalize operation 'tosa.abs': %3 = ...\n  \
            %0 = \"tosa.abs\"(%arg0) : (tensor<2xi8>) -> tensor<2xi8>\n       ^\n\
            batch.mlir:8:8: note: see current operation: %3 = ...";
        assert_eq!(m.named(legalize, "batch.mlir"), BTreeSet::from([1]));
        let dispatch = "batch.mlir:13:9: error: failed to legalize operation 'arith.extf'\n\
            batch.mlir:12:1: note: called from\nfunc.func @spvgraph_g2(...)\n^\n\
            batch.mlir:18:9: error: failed to run translation of source executable\n\
            batch.mlir:17:1: note: called from";
        assert_eq!(m.named(dispatch, "batch.mlir"), BTreeSet::from([2, 3]));
        // A warning's note, another file, no location: nothing named.
        let other = "batch.mlir:3:1: warning: slow\nbatch.mlir:8:1: note: here\n\
            other.mlir:3:3: error: no\n<unknown>:0: error: internal error: jit global source initialization";
        assert!(m.named(other, "batch.mlir").is_empty());
        assert!(m.named("error: no location", "batch.mlir").is_empty());
    }
}
