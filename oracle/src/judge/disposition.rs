//! What a disagreement amounts to: the one place that decides whether it
//! counts. The hunt's store, `spvgraph diff`, `spvgraph diff-exec`,
//! `spvgraph validate --oracle both`, the corpus check and the fuzz targets
//! all ask [`Disagreement::disposition`] and match on its answer, so a new
//! kind of answer cannot be counted one way here and another way there.

use super::{Disagreement, Documented, Severity};

/// What a disagreement amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition<'a> {
    /// An undocumented wrong answer of a named oracle, within its contract:
    /// what fails a command, what a fuzz target crashes on, what the hunt files.
    Finding,
    /// An instance of this documented discrepancy of the oracle concerned:
    /// shown and counted as known, never a failure.
    Documented(&'a Documented),
    /// Outside the tool's contract ([`Severity::Note`]: what a Vulkan
    /// consumer does with an invalid module): shown, never filed.
    Note,
    /// Charged to no oracle: elements where the referee's own result fails
    /// an accuracy rule (`checker-disagrees-with-reference`), a limit of the
    /// rule that no backend is judged on.
    Unjudged,
}

/// Whether documented discrepancies are taken as known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DocumentedPolicy {
    /// A documented discrepancy is [`Disposition::Documented`].
    #[default]
    Known,
    /// Every documented discrepancy is a [`Disposition::Finding`], as if
    /// the tables were empty: the hunt's recall self-check
    /// (`--ignore-documented`), which measures how many rows it finds again.
    Ignored,
}

impl DocumentedPolicy {
    /// The policy of a run that ignores documented discrepancies when `ignore` holds.
    pub fn ignoring(ignore: bool) -> DocumentedPolicy {
        if ignore {
            DocumentedPolicy::Ignored
        } else {
            DocumentedPolicy::Known
        }
    }
}

impl<'a> Disposition<'a> {
    /// Whether it fails a check: only a finding does.
    pub fn counts(self) -> bool {
        match self {
            Disposition::Finding => true,
            Disposition::Documented(_) | Disposition::Note | Disposition::Unjudged => false,
        }
    }

    /// The documented discrepancy it is an instance of, if it is one.
    pub fn documented(self) -> Option<&'a Documented> {
        match self {
            Disposition::Documented(d) => Some(d),
            Disposition::Finding | Disposition::Note | Disposition::Unjudged => None,
        }
    }
}

impl Disagreement {
    /// What this disagreement amounts to under `policy`. A disagreement
    /// charged to no oracle is unjudged before anything else (nobody's
    /// answer is wrong), a note stays a note even when a table documents it
    /// (outside a contract either way), and only then does the table decide.
    pub fn disposition(&self, policy: DocumentedPolicy) -> Disposition<'_> {
        if self.oracles.is_empty() {
            return Disposition::Unjudged;
        }
        match (self.severity, &self.documented, policy) {
            (Severity::Note, _, _) => Disposition::Note,
            (Severity::High | Severity::Medium | Severity::Low, Some(doc), DocumentedPolicy::Known) => {
                Disposition::Documented(doc)
            }
            (Severity::High | Severity::Medium | Severity::Low, Some(_), DocumentedPolicy::Ignored)
            | (Severity::High | Severity::Medium | Severity::Low, None, _) => Disposition::Finding,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attribution::{Owner, Status};
    use crate::judge::Kind;

    fn documented() -> Documented {
        Documented {
            why: "a known bug".into(),
            finding: "corpus/findings/x.spv".into(),
            owner: Owner::SpirvTools,
            status: Status::SpecAmbiguity,
            upstream: None,
            features: Vec::new(),
        }
    }

    #[test]
    fn an_undocumented_wrong_answer_is_a_finding_under_either_policy() {
        let d = Disagreement::new(Kind::RejectsValid, "spirv-val", "rejects");
        assert_eq!(d.disposition(DocumentedPolicy::Known), Disposition::Finding);
        assert_eq!(d.disposition(DocumentedPolicy::Ignored), Disposition::Finding);
        assert!(d.disposition(DocumentedPolicy::Known).counts());
    }

    #[test]
    fn a_documented_one_is_documented_unless_the_policy_ignores_the_tables() {
        let mut d = Disagreement::new(Kind::RejectsValid, "spirv-val", "rejects");
        d.documented = Some(documented());
        let doc = documented();
        assert_eq!(d.disposition(DocumentedPolicy::Known), Disposition::Documented(&doc));
        assert_eq!(d.disposition(DocumentedPolicy::Known).documented(), Some(&doc));
        assert!(!d.disposition(DocumentedPolicy::Known).counts());
        assert_eq!(d.disposition(DocumentedPolicy::Ignored), Disposition::Finding);
    }

    #[test]
    fn a_note_stays_a_note_documented_or_not() {
        let mut d = Disagreement::new(Kind::AcceptsInvalid, "vulkan", "runs an invalid module");
        d.severity = Severity::Note;
        assert_eq!(d.disposition(DocumentedPolicy::Known), Disposition::Note);
        d.documented = Some(documented());
        assert_eq!(d.disposition(DocumentedPolicy::Known), Disposition::Note);
        assert_eq!(d.disposition(DocumentedPolicy::Ignored), Disposition::Note);
        assert!(!Disposition::Note.counts());
    }

    #[test]
    fn one_charged_to_no_oracle_is_unjudged() {
        let mut d = Disagreement::new(Kind::CheckerDisagreesWithReference, "tosa-ref", "the model fails its rule");
        d.oracles.clear();
        assert_eq!(d.disposition(DocumentedPolicy::Known), Disposition::Unjudged);
        assert_eq!(d.disposition(DocumentedPolicy::Ignored), Disposition::Unjudged);
        // Even at a severity that would count: nobody's answer is wrong.
        d.severity = Severity::High;
        assert_eq!(d.disposition(DocumentedPolicy::Known), Disposition::Unjudged);
        assert!(!Disposition::Unjudged.counts());
    }
}
