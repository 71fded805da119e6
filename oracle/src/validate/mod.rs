//! The in-tree validator: every must-reject rule of the catalogue
//! (`spvgraph_ir::rules`) for SPIR-V graph modules, many diagnostics per
//! module, each naming its rule, instruction and word offset.
//!
//! What it covers: the graph section's layout, every SPV_ARM_graph and
//! SPV_ARM_tensors rule, NonSemantic.Graph.DebugInfo, all 66 TOSA operators
//! (operand forms, enum values, type rows, shapes, attribute values), and the
//! core SPIR-V rules graph modules touch (ids, type and constant declarations,
//! capabilities and extensions, interface variables). General shader
//! validation is out of scope: function bodies are not checked, and the
//! report says so ([`Report::not_checked`]).
//!
//! Severity: findings of must-reject rules are errors and make the module
//! invalid; findings of may-accept rules (TOSA REQUIREs on constants, level
//! limits when `--level 8k`, shapes that are not in the module) are
//! warnings: they are reported but the verdict stays valid.
//!
//! ```
//! use spvgraph_oracle::validate::Validator;
//! use spvgraph_oracle::oracle::ValidateOptions;
//! let v = Validator::new(ValidateOptions::default());
//! let report = v.check_words(&[0x0723_0203, 0x0001_0600, 0, 1, 0]);
//! assert!(!report.is_valid()); // no memory model, no entry point
//! ```

mod caps;
mod constants;
mod context;
mod debuginfo;
mod graph;
mod ids;
mod interface;
mod layout;
mod tosa;
mod types;

use crate::oracle::{Capability, Diagnostic, Oracle, OracleError, ValidateOptions, Verdict};
use context::{Cx, Issue, Scratch};
use spvgraph_ir::binary::DecodeErrorKind;
pub use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::inst::Recycler;
use spvgraph_ir::rules::{RuleId, Severity};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{DecodeError, Module};
use std::cell::RefCell;

/// One finding: a rule broken at an instruction.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// The rule.
    pub rule: RuleId,
    /// The TOSA operator of the instruction, for per-operator rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<TosaOp>,
    /// Error (must-reject) or warning (may-accept).
    #[serde(serialize_with = "ser_severity")]
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// Word offset of the instruction, when there is one.
    pub word_offset: Option<usize>,
    /// The instruction, as text.
    pub instruction: Option<String>,
}

fn ser_severity<S: serde::Serializer>(v: &Severity, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.label())
}

impl Finding {
    /// As the uniform oracle diagnostic (rule by name).
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic {
            rule: Some(self.rule),
            operator: self.operator,
            message: self.message.clone(),
            word_offset: self.word_offset,
            instruction: self.instruction.clone(),
        }
    }

    /// Whether this finding makes the module invalid.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::MustReject
    }
}

/// The result of validating one module.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    /// Every finding, in module order (module-wide ones first).
    pub findings: Vec<Finding>,
    /// Parts of the module that were not checked (function bodies, ...).
    pub not_checked: Vec<String>,
}

impl Report {
    /// True when no must-reject rule is broken.
    pub fn is_valid(&self) -> bool {
        !self.findings.iter().any(Finding::is_error)
    }

    /// The must-reject findings.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_error())
    }

    /// The may-accept findings.
    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !f.is_error())
    }

    /// The rules broken (each once, in first-finding order).
    pub fn rules(&self) -> Vec<RuleId> {
        let mut out: Vec<RuleId> = Vec::new();
        for f in &self.findings {
            if !out.contains(&f.rule) {
                out.push(f.rule);
            }
        }
        out
    }

    /// The verdict: valid, or invalid with the errors (warnings are left out).
    pub fn verdict(&self) -> Verdict {
        if self.is_valid() {
            Verdict::Valid
        } else {
            Verdict::Invalid(self.errors().map(Finding::to_diagnostic).collect())
        }
    }
}

/// The in-tree validator.
#[derive(Clone, Debug)]
pub struct Validator {
    options: ValidateOptions,
}

/// Buffers a check leaves for the next one on the same thread: the tables
/// of [`Cx`] and, for [`Validator::check_words`], the allocations of the
/// module it decoded (allocating them afresh for every module costs more
/// than some of the checks).
#[derive(Default)]
struct Buffers {
    tables: Scratch,
    recycler: Recycler,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// Runs `f` with this thread's buffers (fresh ones if they are in use,
/// which only a check inside a check would see).
fn with_buffers<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut b) => f(&mut b),
        Err(_) => f(&mut Buffers::default()),
    })
}

/// At most this many findings get their instruction rendered as text (each
/// rendering rebuilds the module's name table); later ones name the opcode.
const RENDER_LIMIT: usize = 64;

impl Validator {
    /// A validator for these options.
    pub fn new(options: ValidateOptions) -> Validator {
        Validator { options }
    }

    /// The options in use.
    pub fn options(&self) -> &ValidateOptions {
        &self.options
    }

    /// The target environment in use.
    pub fn env(&self) -> TargetEnv {
        self.options.target_env
    }

    /// Every diagnostic for a decoded module (errors and warnings; the rule
    /// name gives the severity through the catalogue).
    pub fn validate(&self, module: &Module) -> Vec<Diagnostic> {
        self.check(module).findings.iter().map(Finding::to_diagnostic).collect()
    }

    /// Validates a module file's bytes (either byte order).
    pub fn check_bytes(&self, bytes: &[u8]) -> Report {
        match Module::decode_bytes(bytes) {
            Ok(m) => self.check(&m),
            Err(e) => decode_report(&e),
        }
    }

    /// Validates host-order words.
    pub fn check_words(&self, words: &[u32]) -> Report {
        with_buffers(|b| match Module::decode_words_recycling(words, &mut b.recycler) {
            Ok(m) => {
                let report = self.check_with(&m, &mut b.tables);
                b.recycler.reclaim(m.insts);
                report
            }
            Err(e) => decode_report(&e),
        })
    }

    /// Validates a decoded module.
    pub fn check(&self, module: &Module) -> Report {
        with_buffers(|b| self.check_with(module, &mut b.tables))
    }

    fn check_with(&self, module: &Module, scratch: &mut Scratch) -> Report {
        let mut cx = Cx::new(module, &self.options, self.options.target_env, scratch);
        check_header(&mut cx);
        layout::check(&mut cx);
        let in_function = if cx.has_functions { ids::function_mask(cx.insts) } else { Vec::new() };
        // Empty (every lookup reads "no") unless the layout check found
        // instructions outside any graph body.
        let mut outside = Vec::new();
        for issue in &cx.issues {
            if issue.rule == RuleId::LayoutGraphSectionOutsideGraph {
                if outside.is_empty() {
                    outside = vec![false; cx.insts.len()];
                }
                if let Some(slot) = issue.inst.and_then(|i| outside.get_mut(i)) {
                    *slot = true;
                }
            }
        }
        ids::check(&mut cx, &in_function, &outside);
        caps::check(&mut cx);
        types::check(&mut cx);
        constants::check(&mut cx);
        graph::check(&mut cx);
        interface::check(&mut cx);
        debuginfo::check(&mut cx);
        tosa::check(&mut cx);
        let (issues, not_checked) = cx.finish(scratch);
        Report { findings: finish(module, issues), not_checked }
    }
}

fn check_header(cx: &mut Cx<'_>) {
    let v = cx.module.header.version;
    let (major, minor) = cx.version;
    if v & 0xff00_00ff != 0 || major != 1 || minor > 6 {
        cx.report(
            RuleId::BinaryVersion,
            None,
            format!("version word {v:#010x} is not a published SPIR-V version (1.0 to 1.6)"),
        );
    } else if !cx.env.accepts_version((major, minor)) {
        let (m, n) = cx.env.max_version;
        cx.report(
            RuleId::BinaryVersionForEnv,
            None,
            format!("SPIR-V {major}.{minor} is newer than {} accepts (up to {m}.{n})", cx.env.name),
        );
    }
}

/// The report for a module that does not decode.
fn decode_report(e: &DecodeError) -> Report {
    let rule = match e.kind {
        DecodeErrorKind::NotWordAligned(_) | DecodeErrorKind::NoHeader(_) | DecodeErrorKind::BadMagic(_) => {
            RuleId::BinaryHeader
        }
        DecodeErrorKind::ZeroWordCount | DecodeErrorKind::Truncated { .. } => RuleId::BinaryFraming,
        DecodeErrorKind::OperandCount { .. } | DecodeErrorKind::BadString(_) | DecodeErrorKind::TrailingWords(_) => {
            RuleId::BinaryOperands
        }
    };
    let instruction = e.opcode.map(|op| format!("{} (opcode {op})", spvgraph_ir::opname::opcode_name(op)));
    Report {
        findings: vec![Finding {
            rule,
            operator: None,
            severity: rule.severity(),
            message: e.kind.to_string(),
            word_offset: Some(e.word_offset),
            instruction,
        }],
        not_checked: vec!["the module does not decode; nothing after the binary rules was checked".into()],
    }
}

/// Orders, deduplicates and renders the issues.
fn finish(module: &Module, mut issues: Vec<Issue>) -> Vec<Finding> {
    if issues.is_empty() {
        return Vec::new();
    }
    issues.sort_by_key(|a| (a.inst, a.rule));
    issues.dedup();
    let offsets = module.word_offsets();
    let analysis = spvgraph_ir::analysis::Analysis::new(module);
    let names = spvgraph_ir::text::FriendlyNames::new(&analysis);
    let mut rendered: Vec<(usize, String)> = Vec::new();
    issues
        .into_iter()
        .map(|issue| {
            let instruction = issue.inst.and_then(|i| {
                let inst = module.insts.get(i)?;
                if let Some((_, text)) = rendered.iter().find(|(j, _)| *j == i) {
                    return Some(text.clone());
                }
                let text = if rendered.len() < RENDER_LIMIT {
                    let body = spvgraph_ir::text::render_one(module, inst);
                    match inst.result_id() {
                        Some(id) => format!("{} = {body}", names.get(id)),
                        None => body,
                    }
                } else {
                    format!("{} (instruction {i})", spvgraph_ir::opname::opcode_name(inst.opcode()))
                };
                rendered.push((i, text.clone()));
                Some(text)
            });
            // The operator is the instruction's, never parsed back out of the message.
            let operator = match issue.inst.and_then(|i| module.insts.get(i)) {
                Some(spvgraph_ir::Inst::Tosa { op, .. }) if issue.rule.info().per_operator => Some(*op),
                _ => None,
            };
            Finding {
                rule: issue.rule,
                operator,
                severity: issue.rule.severity(),
                message: issue.message,
                word_offset: issue.inst.and_then(|i| offsets.get(i).copied()),
                instruction,
            }
        })
        .collect()
}

/// The in-tree validator behind the uniform oracle interface.
#[derive(Clone, Copy, Debug, Default)]
pub struct InTreeValidator;

impl Oracle for InTreeValidator {
    fn name(&self) -> &str {
        "spvgraph-validator"
    }

    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Validate]
    }

    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }

    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        Ok(Validator::new(options.clone()).check_words(module).verdict())
    }
}
