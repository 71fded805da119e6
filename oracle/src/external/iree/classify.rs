//! Reading `iree-compile`'s diagnostics: is a failure something IREE does
//! not implement (an operator, type or TOSA extension it cannot lower:
//! [`Refusal::Unsupported`], not a finding) or a failure on valid input
//! ([`Refusal::Rejected`], a finding)?
//!
//! What IREE 3.13 prints, seen on generated graphs:
//!
//! * fp8 (`f8E4M3FN`, `f8E5M2`) is only partly lowered on `llvm-cpu`:
//!   "failed to legalize operation 'arith.extf' ... (f8E4M3FN) -> f16", or
//!   "failed to legalize operation 'tosa.max_pool2d'" on an fp8 tensor, or,
//!   for fp8 constants folded at compile time, "internal error: jit global
//!   source initialization order invalid". Those are Unsupported; another
//!   failure of a graph that also has fp8 values is classified as any other.
//! * Its TOSA validation enables a fixed set of extensions: "'tosa.rescale'
//!   op failed attribute check: rounding_mode = INEXACT_ROUND requires
//!   extension [inexactround]". Unsupported.
//! * "failed to legalize operation 'tosa.X'" for an operation of the input:
//!   IREE has no lowering for that operator with those types. Unsupported.
//! * An error about an operation that is *not* the input's operation at
//!   that location (the diagnostic's "see current operation" note names
//!   another operator): IREE rewrote the input (decomposed TRANSPOSE_CONV2D
//!   into RESHAPE and PAD, say) and then failed on its own rewrite. That is a
//!   bug on valid input: Rejected.
//! * Anything else: Rejected.

use crate::oracle::Refusal;

/// The first error of a compiler log, where it is and what it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// 1-based line of the input the error is attached to, when given.
    pub line: Option<usize>,
    /// The operation the message is about (`tosa.reshape`, `arith.extf`).
    pub op: Option<String>,
    /// The error line, without the location prefix.
    pub message: String,
}

/// The first `error:` line of `log`.
pub fn first_error(log: &str) -> Option<CompileError> {
    let line = log.lines().find(|l| l.contains("error: "))?;
    let at = line.find("error: ")?;
    let message = line[at + "error: ".len()..].trim().to_string();
    // `FILE:LINE:COL: error: ...`
    let location: Vec<&str> = line[..at].trim_end().trim_end_matches(':').rsplitn(3, ':').collect();
    let line_no = match location.as_slice() {
        [_col, l, _file] => l.parse().ok(),
        _ => None,
    };
    Some(CompileError { line: line_no, op: named_op(&message), message })
}

/// The operation a diagnostic message is about: `'tosa.reshape' op ...` or
/// `failed to legalize operation 'tosa.max_pool2d'`.
fn named_op(message: &str) -> Option<String> {
    let quoted = |s: &str| -> Option<String> {
        let s = s.strip_prefix('\'')?;
        s.split('\'').next().map(str::to_string)
    };
    if let Some(rest) = message.split("failed to legalize operation ").nth(1) {
        return quoted(rest);
    }
    if message.starts_with('\'') {
        return quoted(message);
    }
    None
}

/// The operation (`tosa.transpose_conv2d`) on a line of MLIR in generic form.
pub fn op_on_line(generic: &str, line: usize) -> Option<String> {
    let text = generic.lines().nth(line.checked_sub(1)?)?.trim_start();
    let text = match text.find("= \"") {
        Some(i) => &text[i + 2..],
        None => text,
    };
    text.strip_prefix('"')?.split('"').next().map(str::to_string)
}

const FP8: [&str; 2] = ["f8E4M3FN", "f8E5M2"];

/// Classifies a failed compilation of `generic` (the MLIR IREE was given)
/// from the compiler's `log`, with the reason to report.
pub fn classify(generic: &str, log: &str) -> (Refusal, String) {
    let Some(e) = first_error(log) else {
        return (Refusal::Rejected, "iree-compile failed without an error line".into());
    };
    let source_op = e.line.and_then(|l| op_on_line(generic, l));
    let about_input = match (&e.op, &source_op) {
        (Some(named), Some(source)) => named == source || !named.starts_with("tosa."),
        _ => true,
    };
    let reason = match &source_op {
        Some(op) => format!("{op}: {}", e.message),
        None => e.message.clone(),
    };
    // IREE's fp8 support on llvm-cpu is partial (fp8 -> fp32 lowers, fp8 <->
    // fp16 does not), and where fp8 constants are folded at compile time the
    // failure surfaces as an internal error of the constant evaluator ("jit
    // global source initialization order invalid"). Only a failure that names
    // an fp8 type, or whose input line has one, or that jit error in a graph
    // with fp8 values, is the missing fp8 support: another failure of a graph
    // that also has fp8 values (a documented int16 CONV2D refusal, say) is
    // what it is.
    let names_fp8 = |text: &str| FP8.iter().any(|t| text.contains(t));
    let source_line = e.line.and_then(|l| generic.lines().nth(l.checked_sub(1)?)).unwrap_or_default();
    let jit = e.message.contains("jit global source initialization order invalid");
    if names_fp8(&e.message) || names_fp8(source_line) || (jit && names_fp8(generic)) {
        return (Refusal::Unsupported, format!("fp8 is not supported on llvm-cpu: {reason}"));
    }
    if e.message.contains("requires extension") && about_input {
        return (Refusal::Unsupported, format!("TOSA extension not enabled: {reason}"));
    }
    if e.message.starts_with("failed to legalize operation") && about_input {
        return (Refusal::Unsupported, format!("no lowering: {reason}"));
    }
    if !about_input {
        let named = e.op.as_deref().unwrap_or("?");
        return (Refusal::Rejected, format!("IREE failed on a {named} it made from the input's {reason}"));
    }
    (Refusal::Rejected, reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENERIC: &str = "\"builtin.module\"() ({\n  \"func.func\"() <{sym_name = \"g\"}> ({\n  ^bb0(%arg0: tensor<2xi16>):\n    %4 = \"tosa.transpose_conv2d\"(%arg0) : (tensor<2xi16>) -> tensor<2xi48>\n    %5 = \"tosa.max_pool2d\"(%4) : (tensor<2xi48>) -> tensor<2xi48>\n";

    #[test]
    fn locations_and_operations_are_read() {
        let log = "g.mlir:4:10: error: 'tosa.reshape' op illegal: operation operand/result data types did not align with any profile or extension, got (i48,i48)\n  note: see current operation";
        let e = first_error(log).expect("an error");
        assert_eq!(e.line, Some(4));
        assert_eq!(e.op.as_deref(), Some("tosa.reshape"));
        assert_eq!(op_on_line(GENERIC, 4).as_deref(), Some("tosa.transpose_conv2d"));
        assert_eq!(op_on_line(GENERIC, 5).as_deref(), Some("tosa.max_pool2d"));
        assert_eq!(op_on_line(GENERIC, 99), None);
    }

    #[test]
    fn failures_on_irees_own_rewrites_are_findings() {
        let log = "g.mlir:4:10: error: 'tosa.reshape' op illegal: operation operand/result data types did not align with any profile or extension, got (i48,i48)";
        let (kind, reason) = classify(GENERIC, log);
        assert_eq!(kind, Refusal::Rejected);
        assert!(reason.contains("tosa.transpose_conv2d") && reason.contains("tosa.reshape"), "{reason}");
    }

    #[test]
    fn missing_lowerings_types_and_extensions_are_unsupported() {
        let fp8 = "g.mlir:2:3: error: failed to legalize operation 'arith.extf' that was explicitly marked illegal: %3 = \"arith.extf\"(%2) : (f8E4M3FN) -> f16";
        assert_eq!(classify(GENERIC, fp8).0, Refusal::Unsupported);
        let jit = "g.mlir:4:10: error: internal error: jit global source initialization order invalid: global \"__hoisted_tensor_6xf16\" has no value";
        assert_eq!(classify(GENERIC, jit).0, Refusal::Rejected);
        assert_eq!(classify(&GENERIC.replace("i48", "f8E5M2"), jit).0, Refusal::Unsupported);
        let ext = "g.mlir:5:10: error: 'tosa.max_pool2d' op failed attribute check: rounding_mode = INEXACT_ROUND requires extension [inexactround]";
        assert_eq!(classify(GENERIC, ext).0, Refusal::Unsupported);
        let lower = "g.mlir:5:10: error: failed to legalize operation 'tosa.max_pool2d': %4 = ...";
        assert_eq!(classify(GENERIC, lower).0, Refusal::Unsupported);
        assert_eq!(classify(GENERIC, "no error line at all").0, Refusal::Rejected);
        let other = "g.mlir:5:10: error: 'tosa.max_pool2d' op operand #0 must be ranked tensor";
        assert_eq!(classify(GENERIC, other).0, Refusal::Rejected);
    }

    /// A failure that has nothing to do with fp8 stays a refusal in a graph
    /// that also has fp8 values; one on an fp8 line is the missing support.
    #[test]
    fn only_failures_about_fp8_are_the_missing_fp8_support() {
        let with_fp8 = format!("{GENERIC}    %6 = \"tosa.cast\"(%5) : (tensor<2xi48>) -> tensor<2xf8E5M2>\n");
        let muli = "g.mlir:4:10: error: 'arith.muli' op requires the same type for all operands and results";
        assert_eq!(classify(&with_fp8, muli).0, Refusal::Rejected);
        let pool = "g.mlir:6:10: error: failed to legalize operation 'tosa.cast'";
        let (kind, reason) = classify(&with_fp8, pool);
        assert_eq!(kind, Refusal::Unsupported);
        assert!(reason.starts_with("fp8 is not supported"), "{reason}");
    }
}
