//! The in-tree validator: every must-reject rule of the catalogue
//! (`spvgraph_ir::rules`) for SPIR-V graph modules, many diagnostics per
//! module, each naming its rule, instruction and word offset.
//!
//! What it covers: the graph section's layout, every SPV_ARM_graph and
//! SPV_ARM_tensors rule, NonSemantic.Graph.DebugInfo, all 66 TOSA operators
//! (operand forms, enum values, type rows, shapes, attribute values), and the
//! core SPIR-V rules graph modules touch (ids, type and constant declarations,
//! capabilities and extensions, interface variables), and the
//! SPV_ARM_tensors instructions of function bodies (tensor reads, writes,
//! size queries, replicated tensor composites, NonReadable/NonWritable
//! targets). General shader validation is out of scope: the rest of a
//! function body is not checked, and the report says so
//! ([`Report::not_checked`]).
//!
//! Severity: findings of must-reject rules are errors and make the module
//! invalid; findings of may-accept rules (TOSA REQUIREs on constants, level
//! limits when `--level 8k`, shapes that are not in the module) are
//! warnings: they are reported but the verdict stays valid.
//!
//! Pipeline-creation rules (`Severity::Pipeline`, the Vulkan
//! `VUID-RuntimeSpirv-*` rules such as shaped graph interfaces) are not
//! module validity. They are checked only for a graph entry point asked for,
//! with [`ValidateOptions::pipeline`](crate::oracle::ValidateOptions) (the
//! findings then appear in the report, [`Report::pipeline_ok`] sums them up)
//! or with [`Validator::pipeline_rules`], which is what an oracle that
//! creates a pipeline calls to tell a legitimate refusal from a refused
//! valid request:
//!
//! ```
//! use spvgraph_ir::builder::ModuleBuilder;
//! use spvgraph_ir::elem::ElemType;
//! use spvgraph_ir::rules::RuleId;
//! use spvgraph_ir::tosa::TosaOp;
//! use spvgraph_oracle::oracle::ValidateOptions;
//! use spvgraph_oracle::validate::Validator;
//! // A graph whose input is ranked but has no Shape: a valid module, but no
//! // Vulkan data-graph pipeline can be created for its entry point.
//! let mut b = ModuleBuilder::new();
//! let ranked = b.type_tensor_ranked(ElemType::Fp32, 2);
//! let gty = b.type_graph(&[ranked], &[ranked]);
//! let vars = vec![b.interface_variable(ranked, 0, 0), b.interface_variable(ranked, 0, 1)];
//! let g = b.begin_graph(gty);
//! b.graph_entry_point(g, "main", vars);
//! let x = b.graph_input(ranked, 0, None);
//! let y = b.tosa(TosaOp::Abs, ranked, vec![x]);
//! b.graph_output(y, 0, None);
//! b.end_graph();
//! let module = b.finish();
//! let v = Validator::new(ValidateOptions::default());
//! assert!(v.check(&module).is_valid());
//! let refused = v.pipeline_rules(&module, "main").expect("the entry point exists");
//! assert!(refused.iter().all(|f| f.rule == RuleId::VulkanInterfaceShaped) && !refused.is_empty());
//! assert!(v.pipeline_rules(&module, "other").is_err());
//! ```
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
mod imports;
mod interface;
mod layout;
mod pipeline;
mod tensor_ops;
mod tosa;
mod types;

use crate::oracle::{Diagnostic, Instance, Oracle, OracleError, RuleClaim};
use crate::oracle::{ValidateOptions, Verdict};
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

    /// Whether this finding is about creating a pipeline for an entry point
    /// (never about the module's validity).
    pub fn is_pipeline(&self) -> bool {
        self.severity == Severity::Pipeline
    }
}

/// The pipeline check that [`ValidateOptions::pipeline`] asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PipelineCheck {
    /// The graph entry point.
    pub entry_point: String,
    /// Whether the module has a graph entry point of that name (when not,
    /// no pipeline rule was checked).
    pub found: bool,
}

/// Why the pipeline rules could not be checked for an entry point.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PipelineError {
    /// The module has no graph entry point of that name.
    #[error("no graph entry point named {name:?} (the module has: {})", if available.is_empty() { "none".to_string() } else { available.join(", ") })]
    NoSuchEntryPoint {
        /// The name asked for.
        name: String,
        /// The graph entry points the module has.
        available: Vec<String>,
    },
}

/// The result of validating one module.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    /// Every finding, in module order (module-wide ones first).
    pub findings: Vec<Finding>,
    /// Parts of the module that were not checked (function bodies, ...).
    pub not_checked: Vec<String>,
    /// The pipeline check, when [`ValidateOptions::pipeline`] asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<PipelineCheck>,
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
        self.findings.iter().filter(|f| f.severity == Severity::MayAccept)
    }

    /// The pipeline-rule findings (only present when a pipeline entry point
    /// was asked for).
    pub fn pipeline_findings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_pipeline())
    }

    /// Whether a pipeline may be created for the entry point asked for, as
    /// far as the module tells: the module is valid, has that entry point
    /// and breaks no pipeline rule for it. `None` when none was asked for.
    pub fn pipeline_ok(&self) -> Option<bool> {
        let p = self.pipeline.as_ref()?;
        Some(self.is_valid() && p.found && self.pipeline_findings().next().is_none())
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

/// A broken rule and where, without text (see [`Validator::rule_words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The rule.
    pub rule: RuleId,
    /// Its severity (from the catalogue).
    pub severity: Severity,
    /// Word offset of the instruction, when there is one.
    pub word_offset: Option<usize>,
}

/// The rules a module breaks, in the order of [`Report::findings`], one hit
/// per rule and instruction; no messages (see [`Validator::rule_words`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ruling {
    /// Every hit, module-wide ones first.
    pub hits: Vec<Hit>,
}

impl Ruling {
    /// True when no must-reject rule is broken (as [`Report::is_valid`]).
    pub fn is_valid(&self) -> bool {
        !self.hits.iter().any(|h| h.severity == Severity::MustReject)
    }

    /// The must-reject rules broken, each once, in first-hit order.
    pub fn error_rules(&self) -> Vec<RuleId> {
        let mut out: Vec<RuleId> = Vec::new();
        for h in self.hits.iter().filter(|h| h.severity == Severity::MustReject) {
            if !out.contains(&h.rule) {
                out.push(h.rule);
            }
        }
        out
    }

    /// The ruling a full report stands for.
    pub fn of_report(report: &Report) -> Ruling {
        Ruling {
            hits: report
                .findings
                .iter()
                .map(|f| Hit { rule: f.rule, severity: f.severity, word_offset: f.word_offset })
                .collect(),
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
            Err(e) => self.decode_report(&e),
        }
    }

    /// The pipeline-rule findings for graph entry point `entry` of a decoded
    /// module: what a Vulkan implementation would refuse when creating a
    /// data-graph pipeline for it (`Severity::Pipeline` rules only; module
    /// validity is [`Validator::check`]'s). An empty list means no pipeline
    /// rule stands in the way. An oracle that creates pipelines (the
    /// emulation layer) calls this to tell a legitimate refusal from a
    /// refused valid request.
    pub fn pipeline_rules(&self, module: &Module, entry: &str) -> Result<Vec<Finding>, PipelineError> {
        with_buffers(|b| {
            let mut cx = Cx::new(module, &self.options, self.options.target_env, &mut b.tables);
            // Building the tables records module errors; only the pipeline
            // check's own findings are returned.
            let before = cx.issues.len();
            let found = pipeline::check(&mut cx, entry);
            let available: Vec<String> = pipeline::entry_point_names(&cx).into_iter().map(String::from).collect();
            let mut issues = cx.issues.split_off(before);
            issues.retain(|i| i.rule.is_pipeline());
            let _ = cx.finish(&mut b.tables);
            if !found {
                return Err(PipelineError::NoSuchEntryPoint { name: entry.to_string(), available });
            }
            Ok(finish(module, issues))
        })
    }

    /// [`Validator::pipeline_rules`] for every graph entry point of the
    /// module, in module order (each name once).
    pub fn pipeline_rules_by_entry_point(&self, module: &Module) -> Vec<(String, Vec<Finding>)> {
        let mut names: Vec<&str> = Vec::new();
        for inst in &module.insts {
            if let spvgraph_ir::Inst::GraphEntryPoint { name, .. } = inst {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names.into_iter().filter_map(|n| Some((n.to_string(), self.pipeline_rules(module, n).ok()?))).collect()
    }

    /// Validates host-order words.
    pub fn check_words(&self, words: &[u32]) -> Report {
        with_buffers(|b| match Module::decode_words_recycling(words, &mut b.recycler) {
            Ok(m) => {
                let report = self.check_with(&m, &mut b.tables);
                b.recycler.reclaim(m.insts);
                report
            }
            Err(e) => self.decode_report(&e),
        })
    }

    /// Validates a decoded module.
    pub fn check(&self, module: &Module) -> Report {
        with_buffers(|b| self.check_with(module, &mut b.tables))
    }

    /// [`Validator::rule_words`] for a module file's bytes (either byte order).
    pub fn rule_bytes(&self, bytes: &[u8]) -> Ruling {
        match Module::decode_bytes(bytes) {
            Ok(m) => self.rule(&m),
            Err(e) => Ruling::of_report(&self.decode_report(&e)),
        }
    }

    /// The rules a module's host-order words break, without any text: what
    /// judging a verdict needs. Same checks as [`Validator::check_words`],
    /// but no message is kept and no instruction is rendered, which is most
    /// of the cost of a report on a small invalid module; call
    /// `check_words` for the full [`Report`] once a finding is to be shown.
    pub fn rule_words(&self, words: &[u32]) -> Ruling {
        with_buffers(|b| match Module::decode_words_recycling(words, &mut b.recycler) {
            Ok(m) => {
                let ruling = self.rule_with(&m, &mut b.tables);
                b.recycler.reclaim(m.insts);
                ruling
            }
            Err(e) => Ruling::of_report(&self.decode_report(&e)),
        })
    }

    /// [`Validator::rule_words`] for a decoded module.
    pub fn rule(&self, module: &Module) -> Ruling {
        with_buffers(|b| self.rule_with(module, &mut b.tables))
    }

    fn rule_with(&self, module: &Module, scratch: &mut Scratch) -> Ruling {
        let (mut issues, _, _) = self.run(module, scratch, false);
        if issues.is_empty() {
            return Ruling::default();
        }
        issues.sort_by_key(|a| (a.inst, a.rule));
        issues.dedup_by_key(|a| (a.inst, a.rule));
        let offsets = module.word_offsets();
        let hits = issues
            .into_iter()
            .map(|issue| Hit {
                rule: issue.rule,
                severity: issue.rule.severity(),
                word_offset: issue.inst.and_then(|i| offsets.get(i).copied()),
            })
            .collect();
        Ruling { hits }
    }

    fn check_with(&self, module: &Module, scratch: &mut Scratch) -> Report {
        let (issues, not_checked, pipeline) = self.run(module, scratch, true);
        Report { findings: finish(module, issues), not_checked, pipeline }
    }

    /// Every check; the issues unordered, with their messages when
    /// `messages` asks for them (empty otherwise).
    fn run(
        &self,
        module: &Module,
        scratch: &mut Scratch,
        messages: bool,
    ) -> (Vec<Issue>, Vec<String>, Option<PipelineCheck>) {
        let mut cx = Cx::new(module, &self.options, self.options.target_env, scratch);
        cx.messages = messages;
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
        imports::check(&mut cx);
        tosa::check(&mut cx);
        tensor_ops::check(&mut cx);
        let pipeline = self.options.pipeline.as_deref().map(|entry| {
            let found = pipeline::check(&mut cx, entry);
            if !found {
                cx.not_checked.push(format!("no graph entry point named \"{entry}\": no pipeline rule was checked"));
            }
            PipelineCheck { entry_point: entry.to_string(), found }
        });
        let (issues, not_checked) = cx.finish(scratch);
        (issues, not_checked, pipeline)
    }

    /// The report for a module that does not decode.
    fn decode_report(&self, e: &DecodeError) -> Report {
        let mut report = decode_report(e);
        report.pipeline =
            self.options.pipeline.as_ref().map(|entry| PipelineCheck { entry_point: entry.clone(), found: false });
        report
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
        pipeline: None,
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

/// Who the in-tree validator is as an oracle.
static INSTANCE: Instance = Instance::release("spvgraph-validator");

impl Oracle for InTreeValidator {
    fn instance(&self) -> &Instance {
        &INSTANCE
    }

    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }

    fn version(&self) -> Option<String> {
        None
    }

    fn components(&self) -> &'static [crate::attribution::Owner] {
        &[]
    }

    crate::capabilities! { validator: yes, executor: no, producer: no, reader: no, referee: no }
}

impl crate::oracle::Validator for InTreeValidator {
    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        Ok(Validator::new(options.clone()).check_words(module).verdict())
    }

    /// Nothing is claimed under this name: the registry's `in-tree` oracle
    /// is the one that claims exact rules.
    fn rule_claim(&self, _: RuleId) -> RuleClaim {
        RuleClaim::Unknown
    }
}
