//! One case of `spvgraph hunt`: generate it (valid or near-valid, decided by
//! its seed), run every oracle on it (round-trip and text form, the in-tree
//! validator, spirv-val), and name each disagreement with the expectation.
//!
//! Every component runs under [`guard`], so a panic anywhere becomes a
//! `panic` disagreement instead of ending the hunt.

use spvgraph_generator::near_valid::{near_valid_from_seed, NearValid};
use spvgraph_generator::prng::SplitMix64;
use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::module::first_difference;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::external::known::known_spirv_val_discrepancy;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Diagnostic, Oracle, ValidateOptions, Verdict};
use spvgraph_oracle::validate::{Report, Validator};
use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;

/// A kind of disagreement between an oracle and the expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Kind {
    /// The in-tree validator rejects a valid case.
    ValidRejected,
    /// spirv-val rejects a valid case.
    SpirvValRejectsValid,
    /// The in-tree validator accepts a near-valid case.
    NearValidAccepted,
    /// The in-tree validator rejects a near-valid case without its rule.
    WrongRule,
    /// The in-tree validator reports the near-valid case's rule and others.
    ExtraRules,
    /// spirv-val accepts a near-valid case whose rule the catalogue says it checks.
    SpirvValMisses,
    /// spirv-val rejects a near-valid case whose rule the catalogue says it does not check.
    SpirvValStricter,
    /// spirv-val could not answer (process backend failed, unknown environment).
    SpirvValError,
    /// Decode then encode is not the identity, or a valid module does not decode or encode.
    Roundtrip,
    /// The generator reported a broken invariant (operations dropped).
    GeneratorInvariant,
    /// A component panicked.
    Panic,
}

impl Kind {
    /// Every kind, in report order.
    pub(super) const ALL: [Kind; 11] = [
        Kind::ValidRejected,
        Kind::SpirvValRejectsValid,
        Kind::NearValidAccepted,
        Kind::WrongRule,
        Kind::ExtraRules,
        Kind::SpirvValMisses,
        Kind::SpirvValStricter,
        Kind::SpirvValError,
        Kind::Roundtrip,
        Kind::GeneratorInvariant,
        Kind::Panic,
    ];

    /// The stable kebab-case name used in signatures, slugs and summaries.
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::ValidRejected => "valid-rejected",
            Kind::SpirvValRejectsValid => "spirv-val-rejects-valid",
            Kind::NearValidAccepted => "near-valid-accepted",
            Kind::WrongRule => "wrong-rule",
            Kind::ExtraRules => "extra-rules",
            Kind::SpirvValMisses => "spirv-val-misses",
            Kind::SpirvValStricter => "spirv-val-stricter",
            Kind::SpirvValError => "spirv-val-error",
            Kind::Roundtrip => "roundtrip",
            Kind::GeneratorInvariant => "generator-invariant",
            Kind::Panic => "panic",
        }
    }

    /// What the kind means, for finding notes.
    pub(super) fn meaning(self) -> &'static str {
        match self {
            Kind::ValidRejected => "the in-tree validator rejects a valid-by-construction module",
            Kind::SpirvValRejectsValid => "spirv-val rejects a valid-by-construction module",
            Kind::NearValidAccepted => "the in-tree validator accepts a module that breaks one must-reject rule",
            Kind::WrongRule => "the in-tree validator rejects a near-valid module, but not for the rule it breaks",
            Kind::ExtraRules => "the in-tree validator reports the broken rule and other rules too",
            Kind::SpirvValMisses => "spirv-val accepts a module breaking a rule the catalogue says it checks",
            Kind::SpirvValStricter => "spirv-val rejects a module breaking a rule the catalogue says it does not check",
            Kind::SpirvValError => "spirv-val could not answer",
            Kind::Roundtrip => "decoding then encoding the module does not give back the same words",
            Kind::GeneratorInvariant => "the generator reported a broken invariant and dropped operations",
            Kind::Panic => "a component panicked",
        }
    }
}

// ---- panics -----------------------------------------------------------------

thread_local! {
    static IN_GUARD: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs a panic hook that keeps panics inside [`guard`] quiet (their
/// location is recorded for the finding) and leaves every other panic to the
/// previous hook. Call once, before the workers start.
pub(super) fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if IN_GUARD.with(Cell::get) {
            let location = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(location));
        } else {
            previous(info);
        }
    }));
}

/// A caught panic.
#[derive(Clone, Debug)]
pub(super) struct Caught {
    /// The component that panicked.
    pub component: &'static str,
    /// The panic message.
    pub message: String,
    /// `file:line` of the panic, when known.
    pub location: String,
}

/// Runs `f`, turning a panic into [`Caught`].
pub(super) fn guard<T>(component: &'static str, f: impl FnOnce() -> T) -> Result<T, Caught> {
    let was = IN_GUARD.with(|g| g.replace(true));
    let r = std::panic::catch_unwind(AssertUnwindSafe(f));
    IN_GUARD.with(|g| g.set(was));
    r.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic payload)".into());
        let location = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
        Caught { component, message, location }
    })
}

// ---- verdicts -----------------------------------------------------------------

/// One in-tree error, as kept for findings.
#[derive(Clone, Debug)]
pub(super) struct InTreeError {
    /// The rule.
    pub rule: RuleId,
    /// The message (per-operator rules start with the operator's name).
    pub message: String,
    /// The instruction, as text.
    pub instruction: Option<String>,
    /// Its word offset.
    pub word_offset: Option<usize>,
}

/// What the in-tree validator said.
#[derive(Clone, Debug)]
pub(super) struct InTree {
    /// The errors (must-reject findings), in report order.
    pub errors: Vec<InTreeError>,
    /// How many warnings (may-accept findings) it reported.
    pub warnings: usize,
}

impl InTree {
    fn from_report(r: &Report) -> InTree {
        InTree {
            errors: r
                .errors()
                .map(|f| InTreeError {
                    rule: f.rule,
                    message: f.message.clone(),
                    instruction: f.instruction.clone(),
                    word_offset: f.word_offset,
                })
                .collect(),
            warnings: r.warnings().count(),
        }
    }

    /// True when it accepts the module.
    pub(super) fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// The distinct rules of the errors, in first-error order.
    pub(super) fn rules(&self) -> Vec<RuleId> {
        let mut out: Vec<RuleId> = Vec::new();
        for e in &self.errors {
            if !out.contains(&e.rule) {
                out.push(e.rule);
            }
        }
        out
    }
}

/// What spirv-val said.
#[derive(Clone, Debug)]
pub(super) enum SpirvValOutcome {
    /// Not run (disabled, unavailable, or no module to give it).
    NotRun,
    /// It accepts the module.
    Valid,
    /// It rejects the module.
    Invalid(Diagnostic),
    /// It could not answer.
    Error(String),
}

/// The round-trip result.
#[derive(Clone, Debug)]
pub(super) enum RoundTrip {
    /// Not run (no module).
    NotRun,
    /// Decode then encode gave the same words.
    Identical,
    /// The words do not decode (expected for near-valid modules of binary rules).
    Undecodable(String),
    /// The words decode, but encoding fails or gives other words.
    Differs(String),
}

/// A disagreement, before it becomes a signature.
#[derive(Clone, Debug)]
pub(super) struct Disagreement {
    /// Its kind.
    pub kind: Kind,
    /// The rule: the near-valid case's rule, or the first rule an oracle named.
    pub rule: Option<String>,
    /// The TOSA operator, when the rule is per-operator.
    pub op: Option<String>,
    /// A further discriminator (the unexpected rules, the panicking component, ...).
    pub extra: Option<String>,
    /// The message the signature normalizes (spirv-val's, the decoder's, the panic's).
    pub message: Option<String>,
    /// What happened, in full, for the finding.
    pub detail: String,
    /// The documented spirv-val discrepancy it is an instance of
    /// (`spvgraph_oracle::external::known`): why, and the minimal module.
    pub documented: Option<(String, String)>,
}

/// The case a hunt index denotes.
#[derive(Clone, Debug)]
pub(super) enum Subject {
    /// A valid-by-construction case.
    Valid(Case),
    /// A near-valid case.
    NearValid(NearValid),
    /// Generation panicked; only the plan is known.
    Nothing,
}

/// Everything learned about one case.
#[derive(Debug)]
pub(super) struct CaseOutcome {
    /// Hunt case index.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// The rule a near-valid case was planned to break (`None`: a valid case).
    pub planned_rule: Option<RuleId>,
    /// The case.
    pub subject: Subject,
    /// Why a planned near-valid case could not be made (no applicable case).
    pub unavailable: Option<String>,
    /// The module's words, when there is a module.
    pub words: Option<Vec<u32>>,
    /// The target environment it was validated under.
    pub target_env: TargetEnv,
    /// The consumer's profiles (`None` = all).
    pub profiles: Option<Vec<Profile>>,
    /// Round-trip result.
    pub roundtrip: RoundTrip,
    /// In-tree verdict (`None`: not run).
    pub in_tree: Option<InTree>,
    /// spirv-val verdict.
    pub spirv_val: SpirvValOutcome,
    /// The disagreements.
    pub disagreements: Vec<Disagreement>,
}

/// The fixed inputs of every case.
pub(super) struct Hunter<'a> {
    /// Generator configuration.
    pub config: &'a Config,
    /// Probability that a case is near-valid.
    pub ratio: f64,
    /// The rules near-valid cases choose from.
    pub rules: &'a [RuleId],
    /// spirv-val, when it runs.
    pub spirv_val: Option<&'a SpirvVal>,
    /// The first seed: case i uses seed `base_seed + i`.
    pub base_seed: u64,
    /// Hunt case seeds at which the in-tree validator is made to panic (tests only).
    pub inject_panic: &'a [u64],
}

/// The operator a per-operator message names (its first word, when it is a
/// TOSA grammar name).
pub(super) fn operator_of(message: &str) -> Option<String> {
    let word: String = message.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    TosaOp::from_name(&word).map(|op| op.name().to_string())
}

/// The opcode name of the instruction holding word `offset`.
fn instruction_at(words: &[u32], offset: usize) -> String {
    if offset < 5 {
        return "the header".into();
    }
    let mut at = 5usize;
    while let Some(&first) = words.get(at) {
        let count = (first >> 16) as usize;
        if count == 0 {
            break;
        }
        if offset < at + count {
            return spvgraph_ir::opname::opcode_name((first & 0xffff) as u16);
        }
        at += count;
    }
    "past the last instruction".into()
}

fn panic_disagreement(c: Caught) -> Disagreement {
    Disagreement {
        kind: Kind::Panic,
        rule: None,
        op: None,
        extra: Some(format!("{} at {}", c.component, c.location)),
        message: Some(c.message.clone()),
        detail: format!("{} panicked at {}: {}", c.component, c.location, c.message),
        documented: None,
    }
}

impl Hunter<'_> {
    /// The rule case `seed` is planned to break, or `None` for a valid case:
    /// deterministic in the seed (and the rule list and ratio).
    pub(super) fn plan(&self, seed: u64) -> Option<RuleId> {
        let mut rng = SplitMix64::new(seed ^ 0x6875_6e74_5f70_6c61);
        if self.rules.is_empty() || !rng.chance(self.ratio) {
            return None;
        }
        self.rules.get(rng.below(self.rules.len() as u64) as usize).copied()
    }

    /// Generates and checks case `index`.
    pub(super) fn run(&self, index: u64) -> CaseOutcome {
        let seed = self.base_seed.wrapping_add(index);
        let planned_rule = self.plan(seed);
        let mut out = CaseOutcome {
            index,
            seed,
            planned_rule,
            subject: Subject::Nothing,
            unavailable: None,
            words: None,
            target_env: TargetEnv::VULKAN_1_3,
            profiles: None,
            roundtrip: RoundTrip::NotRun,
            in_tree: None,
            spirv_val: SpirvValOutcome::NotRun,
            disagreements: Vec::new(),
        };
        match planned_rule {
            None => match guard("generator", || generate_from_seed(seed, self.config)) {
                Ok(case) => {
                    if let Some(e) = case.meta.internal_errors.first() {
                        out.disagreements.push(Disagreement {
                            kind: Kind::GeneratorInvariant,
                            rule: None,
                            op: case.meta.ops.first().map(|o| o.name().to_string()),
                            extra: None,
                            message: Some(e.clone()),
                            detail: case.meta.internal_errors.join("; "),
                            documented: None,
                        });
                    }
                    match case.module.encode_words() {
                        Ok(w) => out.words = Some(w),
                        Err(e) => out.disagreements.push(Disagreement {
                            kind: Kind::Roundtrip,
                            rule: None,
                            op: None,
                            extra: Some("encode".into()),
                            message: Some(e.to_string()),
                            detail: format!("the generated module does not encode: {e}"),
                            documented: None,
                        }),
                    }
                    out.subject = Subject::Valid(case);
                }
                Err(c) => out.disagreements.push(panic_disagreement(c)),
            },
            Some(rule) => match guard("near-valid generator", || near_valid_from_seed(seed, self.config, Some(rule))) {
                Ok(Ok(nv)) => {
                    out.words = Some(nv.words.clone());
                    out.target_env = nv.target_env;
                    out.profiles = nv.profiles.clone();
                    out.subject = Subject::NearValid(nv);
                }
                Ok(Err(e)) => out.unavailable = Some(e.to_string()),
                Err(c) => out.disagreements.push(panic_disagreement(c)),
            },
        }
        if let Some(words) = out.words.take() {
            let subject = std::mem::replace(&mut out.subject, Subject::Nothing);
            let near = match &subject {
                Subject::NearValid(nv) => Some(nv),
                _ => None,
            };
            self.check(&mut out, near, &words);
            out.subject = subject;
            out.words = Some(words);
        }
        out
    }

    /// Runs the oracles on `words` and records the disagreements.
    fn check(&self, out: &mut CaseOutcome, near: Option<&NearValid>, words: &[u32]) {
        // Round-trip and text form.
        match guard("round-trip", || roundtrip(words)) {
            Ok(rt) => {
                match &rt {
                    RoundTrip::Differs(d) => out.disagreements.push(Disagreement {
                        kind: Kind::Roundtrip,
                        rule: None,
                        op: None,
                        extra: Some("differs".into()),
                        message: Some(d.clone()),
                        detail: d.clone(),
                        documented: None,
                    }),
                    RoundTrip::Undecodable(d) if near.is_none() => out.disagreements.push(Disagreement {
                        kind: Kind::Roundtrip,
                        rule: None,
                        op: None,
                        extra: Some("undecodable".into()),
                        message: Some(d.clone()),
                        detail: format!("the generated module does not decode: {d}"),
                        documented: None,
                    }),
                    _ => {}
                }
                out.roundtrip = rt;
            }
            Err(c) => out.disagreements.push(panic_disagreement(c)),
        }
        // The in-tree validator.
        let profiles = out.profiles.clone().unwrap_or_else(|| Profile::ALL.to_vec());
        let options = ValidateOptions { target_env: out.target_env, profiles, ..ValidateOptions::default() };
        let inject = self.inject_panic.contains(&out.seed);
        let checked = guard("in-tree validator", || {
            if inject {
                panic!("injected panic (--inject-panic {})", out.seed);
            }
            InTree::from_report(&Validator::new(options.clone()).check_words(words))
        });
        match checked {
            Ok(it) => {
                self.judge_in_tree(out, near, &it);
                out.in_tree = Some(it);
            }
            Err(c) => out.disagreements.push(panic_disagreement(c)),
        }
        // spirv-val.
        if let Some(sv) = self.spirv_val {
            match guard("spirv-val", || sv.validate(words, &options)) {
                Ok(Ok(Verdict::Valid)) => out.spirv_val = SpirvValOutcome::Valid,
                Ok(Ok(Verdict::Invalid(ds))) => {
                    let d = ds.into_iter().next().unwrap_or_else(|| Diagnostic {
                        rule: None,
                        operator: None,
                        message: "(no diagnostic)".into(),
                        word_offset: None,
                        instruction: None,
                    });
                    out.spirv_val = SpirvValOutcome::Invalid(d);
                }
                Ok(Err(e)) => out.spirv_val = SpirvValOutcome::Error(e.to_string()),
                Err(c) => out.disagreements.push(panic_disagreement(c)),
            }
            self.judge_spirv_val(out, near);
        }
    }

    fn judge_in_tree(&self, out: &mut CaseOutcome, near: Option<&NearValid>, it: &InTree) {
        let rules = it.rules();
        let Some(nv) = near else {
            if let Some(first) = it.errors.first() {
                let op = first.rule.info().per_operator.then(|| operator_of(&first.message)).flatten();
                out.disagreements.push(Disagreement {
                    kind: Kind::ValidRejected,
                    rule: Some(first.rule.name().to_string()),
                    op,
                    extra: None,
                    message: None,
                    detail: format!("in-tree rejects: {}", describe_errors(it)),
                    documented: None,
                });
            }
            return;
        };
        let rule = nv.rule;
        let op = near_operator(nv, it);
        let others: Vec<&str> = rules.iter().filter(|r| **r != rule).map(|r| r.name()).collect();
        let kind = if it.valid() {
            Kind::NearValidAccepted
        } else if !rules.contains(&rule) {
            Kind::WrongRule
        } else if !others.is_empty() {
            Kind::ExtraRules
        } else {
            return;
        };
        let detail = match kind {
            Kind::NearValidAccepted => {
                format!("in-tree accepts a module breaking {rule} ({}: {})", nv.mutator, nv.note)
            }
            _ => format!("expected only {rule}; in-tree reports {}", describe_errors(it)),
        };
        out.disagreements.push(Disagreement {
            kind,
            rule: Some(rule.name().to_string()),
            op,
            extra: (!others.is_empty()).then(|| others.join(",")),
            message: None,
            detail,
            documented: None,
        });
    }

    fn judge_spirv_val(&self, out: &mut CaseOutcome, near: Option<&NearValid>) {
        let rule = near.map(|nv| nv.rule);
        let op = near.and_then(|nv| out.in_tree.as_ref().map_or_else(|| note_operator(nv), |it| near_operator(nv, it)));
        let d = match (&out.spirv_val, rule) {
            (SpirvValOutcome::NotRun | SpirvValOutcome::Valid, None) => None,
            (SpirvValOutcome::Invalid(d), None) => Some(Disagreement {
                kind: Kind::SpirvValRejectsValid,
                rule: d.rule.map(|r| r.name().to_string()),
                op: None,
                extra: None,
                message: Some(d.message.clone()),
                detail: format!("spirv-val rejects a valid module: {}", describe_diagnostic(d)),
                documented: None,
            }),
            (SpirvValOutcome::Error(e), _) => Some(Disagreement {
                kind: Kind::SpirvValError,
                rule: rule.map(|r| r.name().to_string()),
                op: None,
                extra: None,
                message: Some(e.clone()),
                detail: e.clone(),
                documented: None,
            }),
            (SpirvValOutcome::NotRun, Some(_)) => None,
            // spirv-val says nothing when it accepts, so the mutator (the way
            // the rule was broken) tells its misses apart, as the table of
            // documented discrepancies does.
            (SpirvValOutcome::Valid, Some(r)) => r.info().spirv_val_checks.then(|| Disagreement {
                kind: Kind::SpirvValMisses,
                rule: Some(r.name().to_string()),
                op: op.clone(),
                extra: near.map(|nv| format!("mutator {}", nv.mutator)),
                message: None,
                detail: format!("spirv-val accepts a module breaking {r}, which the catalogue says it checks"),
                documented: None,
            }),
            (SpirvValOutcome::Invalid(d), Some(r)) => (!r.info().spirv_val_checks).then(|| Disagreement {
                kind: Kind::SpirvValStricter,
                rule: Some(r.name().to_string()),
                op: op.clone(),
                extra: None,
                message: Some(d.message.clone()),
                detail: format!(
                    "spirv-val rejects a module breaking {r}, which the catalogue says it does not check: {}",
                    describe_diagnostic(d)
                ),
                documented: None,
            }),
        };
        let documented = |d: &mut Disagreement| {
            let Some(nv) = near else { return };
            if let Some(k) = known_spirv_val_discrepancy(nv.rule, nv.mutator) {
                if k.spirv_val_accepts == (d.kind == Kind::SpirvValMisses) {
                    d.documented = Some((k.why.to_string(), k.finding.to_string()));
                }
            }
        };
        out.disagreements.extend(d.map(|mut d| {
            if matches!(d.kind, Kind::SpirvValMisses | Kind::SpirvValStricter) {
                documented(&mut d);
            }
            d
        }));
    }
}

/// The operator a near-valid case's rule concerns (per-operator rules
/// only): from the in-tree error of that rule, else from the mutator's note.
fn near_operator(nv: &NearValid, it: &InTree) -> Option<String> {
    if !nv.rule.info().per_operator {
        return None;
    }
    it.errors.iter().find(|e| e.rule == nv.rule).and_then(|e| operator_of(&e.message)).or_else(|| note_operator(nv))
}

fn note_operator(nv: &NearValid) -> Option<String> {
    if nv.rule.info().per_operator {
        operator_of(&nv.note)
    } else {
        None
    }
}

fn describe_errors(it: &InTree) -> String {
    let mut parts: Vec<String> = it.errors.iter().take(4).map(|e| format!("[{}] {}", e.rule, e.message)).collect();
    if it.errors.len() > 4 {
        parts.push(format!("... ({} errors)", it.errors.len()));
    }
    parts.join("; ")
}

fn describe_diagnostic(d: &Diagnostic) -> String {
    match &d.instruction {
        Some(i) => format!("{} ({i})", d.message),
        None => d.message.clone(),
    }
}

/// Decode, re-encode and compare; render the text form (it must not panic).
fn roundtrip(words: &[u32]) -> RoundTrip {
    let module = match Module::decode_words(words) {
        Ok(m) => m,
        Err(e) => return RoundTrip::Undecodable(e.to_string()),
    };
    let again = match module.encode_words() {
        Ok(w) => w,
        Err(e) => return RoundTrip::Differs(format!("decodes but does not encode: {e}")),
    };
    if let Some(at) = first_difference(words, &again) {
        return RoundTrip::Differs(format!(
            "re-encoding differs at word {at} ({}; {} words in, {} out)",
            instruction_at(words, at),
            words.len(),
            again.len()
        ));
    }
    let _ = spvgraph_ir::text::disassemble(&module);
    RoundTrip::Identical
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_are_read_from_message_starts() {
        assert_eq!(operator_of("CONV2D: output shape 1x2 differs").as_deref(), Some("CONV2D"));
        assert_eq!(operator_of("MAX_POOL2D kernel too big").as_deref(), Some("MAX_POOL2D"));
        assert_eq!(operator_of("graph input 3 is not constant"), None);
    }

    #[test]
    fn panics_are_caught_with_their_component() {
        install_panic_hook();
        let r: Result<(), Caught> = guard("widget", || panic!("boom {}", 7));
        let c = r.expect_err("panicked");
        assert_eq!(c.component, "widget");
        assert_eq!(c.message, "boom 7");
        assert!(c.location.contains("hunt_check.rs"), "{}", c.location);
        assert_eq!(guard("widget", || 5).ok(), Some(5));
    }

    #[test]
    fn the_instruction_holding_a_word_is_named() {
        // Header, OpCapability Shader (2 words), OpMemoryModel (3 words).
        let words = [0x0723_0203, 0x10600, 0, 9, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1];
        assert_eq!(instruction_at(&words, 6), "OpCapability");
        assert_eq!(instruction_at(&words, 9), "OpMemoryModel");
        assert_eq!(instruction_at(&words, 2), "the header");
    }
}
