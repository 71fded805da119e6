//! Judging a validator's verdict against the expectation.

use super::{Disagreement, Expectation, Kind, ValidityAnswer};
use crate::oracle::{Diagnostic, OracleError, RuleClaim, Verdict};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::TosaOp;

/// The disagreements of one validator's answer.
pub(super) fn judge(expectation: &Expectation, answer: &ValidityAnswer<'_>) -> Option<Disagreement> {
    let name = answer.oracle.name();
    let verdict = match &answer.verdict {
        Ok(v) => v,
        Err(OracleError::Unavailable { .. } | OracleError::Unsupported { .. }) => return None,
        Err(e) => {
            return Some(
                Disagreement::new(Kind::OracleError, name, e.to_string())
                    .with_rule(expectation.rule())
                    .with_message(Some(e.to_string())),
            )
        }
    };
    match expectation {
        Expectation::Valid => {
            let Verdict::Invalid(ds) = verdict else { return None };
            let first = ds.first();
            let exact = first.and_then(|d| d.rule).is_some_and(|r| answer.oracle.rule_claim(r) == RuleClaim::Exact);
            Some(
                Disagreement::new(Kind::RejectsValid, name, format!("{name} rejects a valid module: {}", describe(ds)))
                    .with_rule(first.and_then(|d| d.rule))
                    .with_operators(first.and_then(|d| d.operator).into_iter().collect())
                    // A validator that names its rules is identified by rule
                    // and operator; another by its own words.
                    .with_message(if exact { None } else { first.map(|d| d.message.clone()) }),
            )
        }
        Expectation::Breaks { rule, mutator } => {
            let rule = *rule;
            let operators = operators_of(verdict, rule);
            match (answer.oracle.rule_claim(rule), verdict) {
                (RuleClaim::Exact, Verdict::Valid) => Some(
                    Disagreement::new(
                        Kind::MissesRule,
                        name,
                        format!("{name} accepts a module breaking {rule}{}", how(mutator)),
                    )
                    .with_rule(Some(rule))
                    .with_discriminator(mutator.as_ref().map(|m| format!("mutator {m}"))),
                ),
                (RuleClaim::Exact, Verdict::Invalid(ds)) => {
                    let rules = distinct_rules(ds);
                    let others: Vec<&str> = rules.iter().filter(|r| **r != rule).map(|r| r.name()).collect();
                    let kind = if !rules.contains(&rule) {
                        Kind::WrongRule
                    } else if !others.is_empty() {
                        Kind::ExtraRules
                    } else {
                        return None;
                    };
                    Some(
                        Disagreement::new(kind, name, format!("expected only {rule}; {name} reports {}", describe(ds)))
                            .with_rule(Some(rule))
                            .with_operators(operators)
                            .with_discriminator((!others.is_empty()).then(|| others.join(","))),
                    )
                }
                // spirv-val says nothing when it accepts, so the mutator (the
                // way the rule was broken) tells its misses apart, as the
                // documented discrepancies do.
                (RuleClaim::Rejects, Verdict::Valid) => Some(
                    Disagreement::new(
                        Kind::MissesRule,
                        name,
                        format!("{name} accepts a module breaking {rule}, which it is known to check{}", how(mutator)),
                    )
                    .with_rule(Some(rule))
                    .with_operators(operators)
                    .with_discriminator(mutator.as_ref().map(|m| format!("mutator {m}"))),
                ),
                (RuleClaim::Accepts, Verdict::Invalid(ds)) => Some(
                    Disagreement::new(
                        Kind::Stricter,
                        name,
                        format!(
                            "{name} rejects a module breaking {rule}, which it is documented not to check: {}",
                            describe(ds)
                        ),
                    )
                    .with_rule(Some(rule))
                    .with_operators(operators)
                    .with_message(ds.first().map(|d| d.message.clone())),
                ),
                _ => None,
            }
        }
        Expectation::Invalid { rules, mutator } => {
            // Which rules a validator names is not judged here: only that a
            // validator which checks one of the known rules rejects.
            let Verdict::Valid = verdict else { return None };
            let rule = rules
                .iter()
                .copied()
                .find(|&r| matches!(answer.oracle.rule_claim(r), RuleClaim::Exact | RuleClaim::Rejects))?;
            Some(
                Disagreement::new(
                    Kind::MissesRule,
                    name,
                    format!("{name} accepts an invalid module breaking {rule}{}", how(mutator)),
                )
                .with_rule(Some(rule))
                .with_discriminator(mutator.as_ref().map(|m| format!("mutator {m}"))),
            )
        }
    }
}

fn how(mutator: &Option<String>) -> String {
    mutator.as_ref().map(|m| format!(" (mutator {m})")).unwrap_or_default()
}

fn distinct_rules(ds: &[Diagnostic]) -> Vec<RuleId> {
    let mut out: Vec<RuleId> = Vec::new();
    for r in ds.iter().filter_map(|d| d.rule) {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// The operator the diagnostics of `rule` name (per-operator rules).
fn operators_of(verdict: &Verdict, rule: RuleId) -> Vec<TosaOp> {
    match verdict {
        Verdict::Invalid(ds) => ds.iter().filter(|d| d.rule == Some(rule)).filter_map(|d| d.operator).take(1).collect(),
        Verdict::Valid => Vec::new(),
    }
}

/// At most four diagnostics, as `[rule] message (instruction)`.
pub(super) fn describe(ds: &[Diagnostic]) -> String {
    let mut parts: Vec<String> = ds
        .iter()
        .take(4)
        .map(|d| {
            let rule = d.rule.map(|r| format!("[{r}] ")).unwrap_or_default();
            match &d.instruction {
                Some(i) => format!("{rule}{} ({i})", d.message),
                None => format!("{rule}{}", d.message),
            }
        })
        .collect();
    if ds.len() > 4 {
        parts.push(format!("... ({} diagnostics)", ds.len()));
    }
    parts.join("; ")
}
