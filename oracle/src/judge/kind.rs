//! Kinds of disagreement and how serious each is.

/// Declares the kinds once: the enum, [`Kind::ALL`] and [`Kind::name`], so
/// that a kind cannot be left out of the list every report iterates.
macro_rules! kinds {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal; )*) => {
        /// A kind of disagreement between an oracle and the expectation (or
        /// between oracles). The oracle concerned is not part of the kind: a
        /// finding names it in [`super::Disagreement::oracles`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum Kind {
            $( $(#[$doc])* $variant, )*
        }

        impl Kind {
            /// Every kind, in report order.
            pub const ALL: [Kind; [$($name,)*].len()] = [$(Kind::$variant,)*];

            /// The stable kebab-case name used in signatures, slugs and summaries.
            pub fn name(self) -> &'static str {
                match self { $(Kind::$variant => $name,)* }
            }
        }
    };
}

kinds! {
    // ---- validators ----
    /// A validator rejects a valid-by-construction module.
    RejectsValid = "rejects-valid";
    /// A validator accepts a module that breaks a must-reject rule it checks.
    MissesRule = "misses-rule";
    /// The in-tree validator rejects a near-valid module without its rule.
    WrongRule = "wrong-rule";
    /// The in-tree validator reports the near-valid module's rule and others.
    ExtraRules = "extra-rules";
    /// A validator rejects a module breaking a rule it is documented not to check.
    Stricter = "stricter";
    /// An oracle could not answer (its process failed, its output was unreadable).
    OracleError = "oracle-error";
    // ---- the harness itself ----
    /// Decode then encode is not the identity, or a valid module does not decode or encode.
    Roundtrip = "roundtrip";
    /// The generator reported a broken invariant (operations dropped).
    GeneratorInvariant = "generator-invariant";
    /// A component of the harness panicked.
    Panic = "panic";
    // ---- execution backends ----
    /// The backend died on a signal.
    Crash = "crash";
    /// The backend hung past its time limit.
    Timeout = "timeout";
    /// The backend went over its memory limit.
    OutOfMemory = "out-of-memory";
    /// Pipeline creation or the run failed on a valid module that breaks no
    /// pipeline-creation rule.
    RefusedValid = "refused-valid";
    /// The outputs are not compliant with the TOSA accuracy rules.
    WrongOutput = "wrong-output";
    /// The backend's results for two equivalent forms of a valid case
    /// ([`crate::forms`]) with the same operator sequence differ: bits of
    /// an integer or bool output, or a floating-point output that meets its
    /// accuracy rule in one form and breaks it in the other.
    FormDiffers = "form-differs";
    /// The backend's output of the plain graph is not what its own run of
    /// the observed form (every intermediate value an output) implies: the
    /// operator that computes it, judged on the operand values that run
    /// shows, breaks its rule there while its result in the observed form
    /// meets it.
    ObservedFormDiffers = "observed-form-differs";
    /// A module breaking a must-reject rule ran and produced outputs.
    AcceptsInvalid = "accepts-invalid";
    /// The TOSA reference model's own result fails the accuracy rule on some
    /// elements; they are judged for no backend (the rule, or our reading of
    /// it, is at fault there, not the backends).
    CheckerDisagreesWithReference = "checker-disagrees-with-reference";
    // ---- producers ----
    /// The producer crashed, hung or ran out of memory.
    ProducerCrash = "producer-crash";
    /// The producer refused valid TOSA.
    ProducerRejects = "producer-rejects";
    /// The producer emitted a module that breaks a rule.
    ProducerInvalidOutput = "producer-invalid-output";
    /// The producer emitted a module that computes something else.
    ProducerWrongSemantics = "producer-wrong-semantics";
    // ---- readers ----
    /// A reader (a viewer, an importer) died on a signal, hung or ran out of
    /// memory reading a module, valid or not.
    ReaderCrash = "reader-crash";
    /// A reader refused a valid module with an error of its own.
    ReaderRejectsValid = "reader-rejects-valid";
    /// A reader shows a valid module otherwise than it is: an operator, an
    /// edge, a type or shape, a constant's value, a constant left out (the
    /// discriminator names which).
    ReaderDiffers = "reader-differs";
    // ---- two versions of one tool ----
    /// The newer version of a tool (a channel: a pre-release, a user's build)
    /// is wrong where the older one (the release) is right.
    Regression = "regression";
    /// The older version of a tool is wrong where the newer one is right.
    Fix = "fix";
}

/// How much a disagreement matters to the people who ship the implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Wrong results, crashes of a shipped backend or producer, harness panics.
    High,
    /// Valid input refused, invalid output produced, hangs, validators wrong.
    Medium,
    /// Stricter-than-documented validators, backends that cannot answer,
    /// and, with `--strict-consumers`, what a consumer does with an invalid
    /// module.
    Low,
    /// Outside any tool's contract: what a Vulkan consumer does with an
    /// invalid module (runs it, crashes on it) is undefined behaviour, so it
    /// is no bug to report (unless `--strict-consumers` makes it
    /// [`Severity::Low`]); and elements where the TOSA reference model's own
    /// result fails an accuracy rule (`checker-disagrees-with-reference`)
    /// are a limit of the rule, charged to no one. Kept as a note in
    /// summaries and reports, never written as a finding.
    Note,
}

impl Severity {
    /// `high`, `medium` or `low`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
            Severity::Note => "note",
        }
    }
}

impl Kind {
    /// The kind with this name.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What the kind means, for finding notes.
    pub fn meaning(self) -> &'static str {
        match self {
            Kind::RejectsValid => "a validator rejects a valid-by-construction module",
            Kind::MissesRule => "a validator accepts a module breaking a must-reject rule that it checks",
            Kind::WrongRule => "the in-tree validator rejects a near-valid module, but not for the rule it breaks",
            Kind::ExtraRules => "the in-tree validator reports the broken rule and other rules too",
            Kind::Stricter => "a validator rejects a module breaking a rule it is documented not to check",
            Kind::OracleError => "an oracle could not answer",
            Kind::Roundtrip => "decoding then encoding the module does not give back the same words",
            Kind::GeneratorInvariant => "the generator reported a broken invariant and dropped operations",
            Kind::Panic => "a component of the harness panicked",
            Kind::Crash => "the backend died on a signal",
            Kind::Timeout => "the backend did not finish within its time limit",
            Kind::OutOfMemory => "the backend went over its memory limit",
            Kind::RefusedValid => "the backend refused a valid module that breaks no pipeline-creation rule",
            Kind::WrongOutput => "the backend's outputs are not compliant with the TOSA accuracy rules",
            Kind::FormDiffers => {
                "the backend gives other results for two equivalent forms of the case that run the same operators"
            }
            Kind::ObservedFormDiffers => {
                "the backend's output of the plain graph breaks its operator's rule on the operand values the backend \
                 computed when every intermediate value was an output, where that run's own result meets it"
            }
            Kind::AcceptsInvalid => "the backend ran a module that breaks a must-reject rule and produced outputs",
            Kind::CheckerDisagreesWithReference => {
                "the TOSA reference model's own result fails the accuracy rule on some elements, which are judged for no backend"
            }
            Kind::ProducerCrash => "the producer crashed, hung or ran out of memory",
            Kind::ProducerRejects => "the producer refused valid TOSA",
            Kind::ProducerInvalidOutput => "the producer emitted a module that breaks a validity rule",
            Kind::ProducerWrongSemantics => "the producer emitted a module that computes something else",
            Kind::ReaderCrash => "the reader crashed, hung or ran out of memory reading the module",
            Kind::ReaderRejectsValid => "the reader refused a valid module with an error of its own",
            Kind::ReaderDiffers => {
                "the reader shows the valid module otherwise than it is (an operator, an edge, a type, a constant's value)"
            }
            Kind::Regression => "the newer version of a tool is wrong where the older one is right",
            Kind::Fix => "the older version of a tool is wrong where the newer one is right",
        }
    }

    /// Its severity when the case is valid (most kinds only happen on one
    /// expectation; execution failures on invalid modules are
    /// [`Severity::Low`], see [`super::Disagreement`]).
    pub fn severity(self) -> Severity {
        match self {
            Kind::Panic
            | Kind::Crash
            | Kind::WrongOutput
            | Kind::FormDiffers
            | Kind::ObservedFormDiffers
            | Kind::ProducerCrash
            | Kind::ProducerWrongSemantics
            | Kind::ProducerInvalidOutput
            | Kind::ReaderCrash
            | Kind::Regression => Severity::High,
            Kind::RejectsValid
            | Kind::MissesRule
            | Kind::WrongRule
            | Kind::ExtraRules
            | Kind::Roundtrip
            | Kind::GeneratorInvariant
            | Kind::Timeout
            | Kind::OutOfMemory
            | Kind::RefusedValid
            | Kind::ProducerRejects
            | Kind::ReaderRejectsValid
            | Kind::ReaderDiffers => Severity::Medium,
            Kind::Stricter | Kind::OracleError | Kind::AcceptsInvalid | Kind::Fix => Severity::Low,
            // About our accuracy rule and the reference model, no third
            // party's software: shown, never filed (see `Severity::Note`).
            Kind::CheckerDisagreesWithReference => Severity::Note,
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
            assert!(seen.insert(k.name()));
            assert_eq!(serde_json::to_value(k).expect("serializes"), serde_json::json!(k.name()));
            assert!(!k.meaning().is_empty());
        }
    }
}
