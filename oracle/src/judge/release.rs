//! The release differential: two versions of one tool on the same case.
//!
//! Oracles that are channels of one tool ([`crate::oracle::Instance::tool`] the same,
//! [`crate::oracle::Instance::channel`] different: `emulation-layer` and `emulation-layer@dev`)
//! answer the same case. When the judgement finds the newer one wrong and the
//! older one right, that is a `regression`; the other way round, a `fix`.
//! Nothing here names an oracle: the channel is what makes one newer (a
//! channel, `dev` or a user's build, is newer than the release; two channels
//! are not ordered, so they are not compared).

use super::{Disagreement, Kind, Observations};
use crate::oracle::{ExecOutcome, Oracle, Refusal};

/// An oracle that answered the case, so that its being right means something.
fn answered<'a>(observations: &Observations<'a>) -> Vec<&'a dyn Oracle> {
    let executions = observations.executions.iter().filter_map(|a| match &a.outcome {
        // An operator it does not implement says nothing about right or wrong.
        Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, .. }) | Err(_) => None,
        Ok(_) => Some(a.oracle),
    });
    let productions = observations.productions.iter().filter(|p| p.outcome.is_ok()).map(|p| p.producer);
    let mut out: Vec<&dyn Oracle> = Vec::new();
    for o in executions.chain(productions) {
        if !out.iter().any(|x| x.name() == o.name()) {
            out.push(o);
        }
    }
    out
}

/// The disagreements that say `oracle` is wrong. An oracle that could not
/// answer is not wrong, and neither is one whose disagreement is documented
/// as another oracle's discrepancy (a producer's valid module that a
/// validator is known to reject wrongly).
fn wrong<'d>(found: &'d [Disagreement], oracle: &dyn Oracle) -> Vec<&'d Disagreement> {
    let own = |finding: &str| oracle.known_discrepancies().iter().any(|k| k.finding == finding);
    found
        .iter()
        .filter(|d| d.oracles.first().is_some_and(|o| o == oracle.name()))
        .filter(|d| !matches!(d.kind, Kind::OracleError | Kind::Regression | Kind::Fix))
        .filter(|d| d.documented.as_ref().is_none_or(|doc| own(&doc.finding)))
        .collect()
}

fn labelled(o: &dyn Oracle) -> String {
    match o.version() {
        Some(v) => format!("{} ({v})", o.name()),
        None => format!("{} (version unknown)", o.name()),
    }
}

/// The version differential of `d`, wrong in `culprit` and not in `other`.
fn differential(kind: Kind, d: &Disagreement, culprit: &dyn Oracle, other: &dyn Oracle) -> Disagreement {
    let (newer, older) = if kind == Kind::Regression { (culprit, other) } else { (other, culprit) };
    let what = d.discriminator.as_ref().map_or_else(|| d.kind.name().to_string(), |x| format!("{}, {x}", d.kind));
    let detail = format!(
        "{} is wrong where {} is right.\nnewer: {}\nolder: {}\n{} of {}: {}",
        culprit.name(),
        other.name(),
        labelled(newer),
        labelled(older),
        d.kind,
        culprit.name(),
        d.detail
    );
    Disagreement {
        kind,
        severity: kind.severity(),
        oracles: vec![culprit.name().to_string(), other.name().to_string()],
        rule: d.rule,
        operators: d.operators.clone(),
        discriminator: Some(what),
        message: d.message.clone(),
        detail,
        documented: None,
        operand_features: d.operand_features.clone(),
    }
}

/// Adds the `regression`s and `fix`es among `found` (the judgement's other
/// disagreements about the case). A regression takes the place of the newer
/// version's own disagreement, which it repeats with both versions named; a
/// fix stands beside the older version's, which is still a bug of that release.
pub(super) fn judge(found: &mut Vec<Disagreement>, observations: &Observations<'_>) {
    let oracles = answered(observations);
    let mut added = Vec::new();
    let mut replaced: Vec<usize> = Vec::new();
    for older in oracles.iter().filter(|o| o.channel().is_none()) {
        for newer in oracles.iter().filter(|n| n.channel().is_some() && n.tool() == older.tool()) {
            let (old_wrong, new_wrong) = (wrong(found, *older), wrong(found, *newer));
            match (old_wrong.is_empty(), new_wrong.is_empty()) {
                (true, false) => {
                    for d in new_wrong {
                        added.push(differential(Kind::Regression, d, *newer, *older));
                        if let Some(i) = found.iter().position(|x| std::ptr::eq(x, d)) {
                            replaced.push(i);
                        }
                    }
                }
                (false, true) => {
                    added.extend(old_wrong.into_iter().map(|d| differential(Kind::Fix, d, *older, *newer)))
                }
                _ => {}
            }
        }
    }
    replaced.sort_unstable();
    for i in replaced.into_iter().rev() {
        found.remove(i);
    }
    found.extend(added);
}
