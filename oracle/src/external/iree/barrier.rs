//! IREE 3.13 cannot convert fp8 to or from fp16 on `llvm-cpu` (`arith.extf`
//! f8 -> f16 and `arith.truncf` f16 -> f8 do not legalize), though it can
//! convert fp8 to and from fp32. A graph that goes through fp32 instead
//! (the rescue form [`crate::forms::Form::Fp8ThroughFp32`]) is folded back
//! into the direct conversion (`extf(extf(x))` is one `extf`), unless the
//! fp32 value is kept apart: here every `tosa.cast` of a graph with fp8
//! values whose result is fp32 and whose input is fp8 or fp16 gets a
//! `util.optimization_barrier` (an identity IREE does not fold through)
//! on its result, which its readers then take.

/// The generic-form MLIR `generic` with the barriers, or `None` when it
/// needs none.
pub fn with_fp8_barriers(generic: &str) -> Option<String> {
    if !generic.contains("xf8E") {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    let mut renamed: Vec<(String, String)> = Vec::new();
    for line in generic.lines() {
        let mut text = line.to_string();
        for (old, new) in &renamed {
            text = rename_uses(&text, old, new);
        }
        let widening = widening_cast(&text);
        out.push(text);
        if let Some((indent, value, ty)) = widening {
            // A name that starts with a digit must be all digits.
            let kept = format!("%fp8_apart_{}", value.trim_start_matches('%'));
            out.push(format!("{indent}{kept} = \"util.optimization_barrier\"({value}) : ({ty}) -> {ty}"));
            renamed.push((value, kept));
        }
    }
    if renamed.is_empty() {
        return None;
    }
    let mut text = out.join("\n");
    if generic.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

/// For a line `%v = "tosa.cast"(%u) : (tensor<...xf8E4M3FN>) -> tensor<...xf32>`
/// (input fp8 or fp16): its indentation, `%v` and the result type.
fn widening_cast(line: &str) -> Option<(String, String, String)> {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    let (value, rest) = trimmed.split_once(" = \"tosa.cast\"(")?;
    let (_, types) = rest.split_once(") : (")?;
    let (input, result) = types.split_once(") -> ")?;
    let result = result.split_whitespace().next()?;
    let narrow = input.ends_with("xf16>") || input.contains("xf8E");
    (value.starts_with('%') && narrow && result.ends_with("xf32>"))
        .then(|| (indent.to_string(), value.to_string(), result.to_string()))
}

/// `line` with every use of the SSA value `old` (a whole name, not a
/// prefix of a longer one) renamed `new`; its definition is not a use, as
/// only lines after it are renamed.
fn rename_uses(line: &str, old: &str, new: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(old) {
        let after = &rest[at + old.len()..];
        let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'));
        out.push_str(&rest[..at]);
        out.push_str(if whole { new } else { old });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cast_from_fp8_to_fp32_is_kept_apart_from_its_readers() {
        let generic = "  %1 = \"tosa.cast\"(%0) : (tensor<4xf8E4M3FN>) -> tensor<4xf32>\n  \
                       %10 = \"tosa.cast\"(%1) : (tensor<4xf32>) -> tensor<4xf16>\n  \
                       \"func.return\"(%10, %1) : (tensor<4xf16>, tensor<4xf32>) -> ()\n";
        let out = with_fp8_barriers(generic).expect("a barrier");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[1], "  %fp8_apart_1 = \"util.optimization_barrier\"(%1) : (tensor<4xf32>) -> tensor<4xf32>");
        assert!(lines[2].contains("\"tosa.cast\"(%fp8_apart_1)"), "{out}");
        assert!(lines[3].contains("(%10, %fp8_apart_1)"), "%10 is not a use of %1: {out}");
        assert_eq!(with_fp8_barriers("%1 = \"tosa.cast\"(%0) : (tensor<4xf16>) -> tensor<4xf32>\n"), None);
    }
}
