//! Signatures: the dedup identity of a disagreement.

use super::{Disagreement, Kind};

/// The dedup identity of a disagreement: kind, oracles, rule, operator, a
/// further discriminator and a normalized message (ids and digits stripped).
/// Two disagreements with the same signature are the same bug.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signature {
    /// The kind.
    pub kind: Kind,
    /// The oracles involved, in registry order.
    pub oracles: Vec<String>,
    /// The rule, when there is one.
    pub rule: Option<String>,
    /// The TOSA operator the disagreement is about, when known.
    pub operator: Option<String>,
    /// Unexpected rules, panicking component, output, mutator...
    pub discriminator: Option<String>,
    /// The normalized message.
    pub message: Option<String>,
}

impl Signature {
    /// The signature of a disagreement.
    pub fn of(d: &Disagreement) -> Signature {
        Signature {
            kind: d.kind,
            oracles: d.oracles.clone(),
            rule: d.rule.map(|r| r.name().to_string()),
            operator: d.signature_operator().map(|o| o.name().to_string()),
            discriminator: d.discriminator.clone(),
            message: d.message.as_deref().map(normalize),
        }
    }

    /// The signature as one line: `kind | oracles | rule | operator | discriminator | message` (`-` for none).
    pub fn key(&self) -> String {
        let part = |s: &Option<String>| s.clone().unwrap_or_else(|| "-".into());
        format!(
            "{} | {} | {} | {} | {} | {}",
            self.kind.name(),
            if self.oracles.is_empty() { "-".to_string() } else { self.oracles.join(",") },
            part(&self.rule),
            part(&self.operator),
            part(&self.discriminator),
            part(&self.message)
        )
    }

    /// A file-name form: the oracle, kind, rule and operator, then a hash of the whole key.
    pub fn slug(&self) -> String {
        let mut s = self.oracles.first().cloned().unwrap_or_else(|| "spvgraph".into());
        s.push_str("--");
        s.push_str(self.kind.name());
        // A panic has no rule: its component names it instead.
        let component = match (self.kind, &self.discriminator) {
            (Kind::Panic, Some(e)) => e.split(" at ").next().map(str::to_string),
            _ => None,
        };
        for p in [&self.rule, &self.operator, &component].into_iter().flatten() {
            s.push_str("--");
            s.push_str(p);
        }
        let mut slug: String = s
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c.to_ascii_lowercase() } else { '-' })
            .collect();
        slug.truncate(90);
        format!("{slug}--{:08x}", fnv1a(self.key().as_bytes()) as u32)
    }
}

/// FNV-1a, 64 bits: a hash that stays the same across builds and platforms.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A message with the parts that change from case to case stripped: ids
/// (`%name`, `%12`) become `%`, hexadecimal addresses `0x…` become `0x`,
/// digit runs become `N`, whitespace runs one space; at most 160 characters.
pub fn normalize(message: &str) -> String {
    let mut out = String::new();
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            while chars.peek().is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.') {
                chars.next();
            }
            out.push('%');
        } else if c == '0' && chars.peek() == Some(&'x') {
            chars.next();
            while chars.peek().is_some_and(char::is_ascii_hexdigit) {
                chars.next();
            }
            out.push_str("0x");
        } else if c.is_ascii_digit() {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push('N');
        } else if c.is_whitespace() {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    let out = out.trim();
    match out.char_indices().nth(160) {
        Some((i, _)) => out[..i].to_string(),
        None => out.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Severity;
    use spvgraph_ir::rules::RuleId;
    use spvgraph_ir::tosa::TosaOp;

    #[test]
    fn messages_lose_ids_numbers_and_addresses() {
        assert_eq!(
            normalize("Expected Result Type <id> '23[%tensor_float_1x8]' to have  12 elements"),
            "Expected Result Type <id> 'N[%]' to have N elements"
        );
        assert_eq!(normalize("segfault at 0x7ffd1234 in a\n  b"), "segfault at 0x in a b");
        assert_eq!(normalize(&"x".repeat(500)).len(), 160);
    }

    fn sample() -> Disagreement {
        Disagreement {
            kind: Kind::Stricter,
            severity: Severity::Low,
            oracles: vec!["spirv-val".into()],
            rule: Some(RuleId::TosaShapeOutput),
            operators: vec![TosaOp::Conv2d],
            discriminator: None,
            message: Some("Result Type 7 wrong".into()),
            detail: String::new(),
            documented: None,
            operand_features: Default::default(),
        }
    }

    #[test]
    fn slugs_are_file_names_and_differ_with_the_message() {
        let d = sample();
        let a = Signature::of(&d);
        assert!(a.slug().starts_with("spirv-val--stricter--tosa.shape.output--conv2d--"), "{}", a.slug());
        assert!(a.slug().chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'));
        let same = Signature::of(&Disagreement { message: Some("Result Type 9 wrong".into()), ..d.clone() });
        assert_eq!(a.key(), same.key());
        let other = Signature::of(&Disagreement { message: Some("Operand wrong".into()), ..d.clone() });
        assert_ne!(a.slug(), other.slug());
        let other_oracle = Signature::of(&Disagreement { oracles: vec!["in-tree".into()], ..d });
        assert_ne!(a.key(), other_oracle.key());
    }
}
