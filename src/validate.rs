//! `spvgraph validate --oracle both` as a library: spirv-val's verdict goes
//! through the one judgement, with the in-tree validator's verdict as the
//! expectation, so that a rejection spirv-val's table documents (a valid
//! module the pinned release rejects) is reported as documented, not as a
//! second verdict of its own.

use spvgraph_oracle::judge::{
    judge, Disagreement, Disposition, Documented, DocumentedPolicy, Expectation, Observations, ValidityAnswer,
};
use spvgraph_oracle::oracle::{Oracle, Verdict};
use spvgraph_oracle::validate::Report;

/// A second validator's verdict on a module, judged against the in-tree
/// validator's.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The verdict.
    pub verdict: Verdict,
    /// How it disagrees with the in-tree validator's, if it does in a way
    /// the judgement calls a disagreement.
    pub disagreement: Option<Disagreement>,
}

impl Judged {
    /// Judges `verdict`, `oracle`'s answer on `words`, with `in_tree`'s
    /// verdict as the expectation: valid, or invalid breaking its must-reject rules.
    pub fn new(oracle: &dyn Oracle, words: &[u32], in_tree: &Report, verdict: Verdict) -> Judged {
        let expectation = if in_tree.is_valid() {
            Expectation::Valid
        } else {
            let mut rules = Vec::new();
            for f in in_tree.errors() {
                if !rules.contains(&f.rule) {
                    rules.push(f.rule);
                }
            }
            Expectation::Invalid { rules, mutator: None }
        };
        let observations = Observations {
            validity: vec![ValidityAnswer { oracle, verdict: Ok(verdict.clone()) }],
            module: Some(words),
            ..Observations::default()
        };
        let disagreement = judge(&expectation, &observations).into_iter().next();
        Judged { verdict, disagreement }
    }

    /// `verdict` alone, with no in-tree verdict to judge it against
    /// (`--oracle spirv-val`): it passes when it accepts.
    pub fn alone(verdict: Verdict) -> Judged {
        Judged { verdict, disagreement: None }
    }

    /// What the disagreement amounts to, if there is one.
    fn disposition(&self) -> Option<Disposition<'_>> {
        self.disagreement.as_ref().map(|d| d.disposition(DocumentedPolicy::Known))
    }

    /// Whether the verdict lets the module pass: the validator accepts it,
    /// or its rejection is a documented discrepancy of the validator.
    pub fn accepts(&self) -> bool {
        match (&self.verdict, self.disposition()) {
            (Verdict::Valid, _) => true,
            (Verdict::Invalid(_), Some(Disposition::Documented(_))) => true,
            (Verdict::Invalid(_), None | Some(Disposition::Finding | Disposition::Note | Disposition::Unjudged)) => {
                false
            }
        }
    }

    /// The documented discrepancy the verdict is an instance of, if any.
    pub fn documented(&self) -> Option<&Documented> {
        self.disposition().and_then(Disposition::documented)
    }
}
