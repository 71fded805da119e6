//! Reading back the constants the adapters print. The SPIR-V adapter shows a
//! constant operand as its element type and a nested list
//! (`int32[[1, -2], [3, 4]]`, `float16[0.5]`, `false`), long ones as a
//! preview (`float32[[...], ..., ...] len=64`, `int8[<all zeroes>] len=4096`);
//! the VGF adapter shows a constant resource as a bare nested list. This
//! turns such text into the values it shows ([`ReadConstant`]), so that the
//! judgement can compare values, not spellings.

use crate::oracle::{ReadConstant, ReadScalar};

/// The deepest nesting read (a rank-6 tensor, and a margin).
const MAX_DEPTH: usize = 16;

/// Parses a constant as an adapter shows it. Text it cannot read gives a
/// [`ReadConstant`] whose `values` is `None` (the shown text is kept).
pub fn parse_constant(shown: &str) -> ReadConstant {
    let mut out =
        ReadConstant { shown: shown.to_string(), elem: None, values: None, truncated: false, all_zero: false };
    let text = shown.trim();
    match text {
        "true" | "false" => {
            out.elem = Some("bool".into());
            out.values = Some(vec![ReadScalar::Bool(text == "true")]);
            return out;
        }
        _ => {}
    }
    // `LABEL[...]`, `LABEL[...] len=N`, `LABEL VALUE`, or a bare `[...]`.
    let label_end = text.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(text.len());
    let (label, rest) = text.split_at(label_end);
    if !label.is_empty() {
        out.elem = Some(label.to_string());
    }
    let rest = rest.trim_start();
    let (body, tail) = match rest.rfind(" len=") {
        Some(i) if rest[i + 5..].trim().parse::<u64>().is_ok() => (&rest[..i], true),
        _ => (rest, false),
    };
    if body.trim() == "[<all zeroes>]" {
        out.all_zero = true;
        out.values = Some(Vec::new());
        out.truncated = true;
        return out;
    }
    let mut p = Parser { s: body.as_bytes(), at: 0, values: Vec::new(), ellipsis: false };
    let ok = if body.starts_with('[') { p.list(0) } else { p.scalar() };
    p.skip_space();
    if ok.is_some() && p.at == p.s.len() {
        out.truncated = p.ellipsis || tail;
        out.values = Some(p.values);
    }
    out
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    values: Vec<ReadScalar>,
    ellipsis: bool,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.skip_space();
        if self.s.get(self.at) == Some(&b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// `[item, item, ...]`; a `...` item marks a preview.
    fn list(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH || !self.eat(b'[') {
            return None;
        }
        if self.eat(b']') {
            return Some(());
        }
        loop {
            self.skip_space();
            if self.s[self.at..].starts_with(b"...") {
                self.at += 3;
                self.ellipsis = true;
            } else if self.s.get(self.at) == Some(&b'[') {
                self.list(depth + 1)?;
            } else {
                self.scalar()?;
            }
            if self.eat(b']') {
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// A Python literal: an integer, a float (`1.5`, `-0.0`, `1e-05`,
    /// `inf`, `nan`), `true`/`false` (`True`/`False` too).
    fn scalar(&mut self) -> Option<()> {
        self.skip_space();
        let start = self.at;
        while self.s.get(self.at).is_some_and(|c| c.is_ascii_alphanumeric() || b"+-.".contains(c)) {
            self.at += 1;
        }
        let word = std::str::from_utf8(&self.s[start..self.at]).ok()?;
        let v = match word {
            "true" | "True" => ReadScalar::Bool(true),
            "false" | "False" => ReadScalar::Bool(false),
            _ if !word.is_empty() && word.bytes().all(|c| c.is_ascii_digit() || c == b'-' || c == b'+') => {
                ReadScalar::Int(word.parse().ok()?)
            }
            _ => ReadScalar::Float(word.parse().ok()?),
        };
        self.values.push(v);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ReadScalar::{Bool, Float, Int};

    #[test]
    fn the_spirv_adapters_forms_are_read() {
        let c = parse_constant("int32[[4163760266], [-5], [[7]]]");
        assert_eq!(c.elem.as_deref(), Some("int32"));
        assert_eq!(c.values, Some(vec![Int(4_163_760_266), Int(-5), Int(7)]));
        assert!(!c.truncated);
        let c = parse_constant("float16[3.998046875, -inf, nan, 1e-05]");
        let v = c.values.expect("read");
        assert_eq!(v[0], Float(3.998046875));
        assert_eq!(v[1], Float(f64::NEG_INFINITY));
        assert!(matches!(v[2], Float(x) if x.is_nan()));
        assert_eq!(v[3], Float(1e-5));
        assert_eq!(parse_constant("false").values, Some(vec![Bool(false)]));
        let c = parse_constant("float32[[1.0, 2.0], [3.0, 4.0], ...] len=40");
        assert!(c.truncated);
        assert_eq!(c.values.map(|v| v.len()), Some(4));
        let c = parse_constant("int8[<all zeroes>] len=4096");
        assert!(c.all_zero && c.truncated);
        assert_eq!(parse_constant("bool[true, false]").values, Some(vec![Bool(true), Bool(false)]));
        assert_eq!(parse_constant("int32 7").values, Some(vec![Int(7)]));
    }

    #[test]
    fn the_vgf_adapters_lists_and_unreadable_text() {
        let c = parse_constant("[\n  [\n    [7, -79],\n    [107, -114]\n  ]\n]");
        assert_eq!(c.elem, None);
        assert_eq!(c.values.map(|v| v.len()), Some(4));
        assert_eq!(parse_constant("<graph constant 3>").values, None);
        assert_eq!(parse_constant("int32[None]").values, None);
        assert_eq!(parse_constant("int32[[1, 2]").values, None);
    }
}
