//! Judging a reader ([`Capability::Describe`](crate::oracle::Capability)):
//! what it shows of a module against the module's own facts, the ones
//! `spvgraph info --json` prints ([`spvgraph_ir::info::module_info`]: graphs,
//! inputs, nodes with where each operand comes from, outputs, graph
//! constants) and the constants' values as the module encodes them
//! ([`Analysis::const_tensor_bits`]).
//!
//! | expectation | answer | kind |
//! |---|---|---|
//! | any | the reader dies on a signal, hangs or runs out of memory | `reader-crash` (high on a valid module, medium on an invalid one) |
//! | valid | it refuses the module with an error of its own | `reader-rejects-valid` |
//! | invalid | it refuses the module with an error of its own | — (what a reader owes an invalid module) |
//! | valid | it shows something else: the discriminator names what | `reader-differs` |
//!
//! What differs is one of [`Aspect`]; disagreements of one aspect with one
//! message are one finding, the instances listed in its detail. Messages
//! name element types and forms, not values or ids, so that one bug is one
//! signature.

use super::{Disagreement, Expectation, Kind, Severity};
use crate::oracle::{Oracle, OracleError};
use crate::oracle::{ReadConstant, ReadOutcome, ReadOutput, ReadResource, ReadScalar, ReadSource, ReadType, Reading};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::{ElemType, ScalarKind};
use spvgraph_ir::info::{module_info, GraphInfo, ModuleInfo, NodeInfo, ValueInfo};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Inst, Module};
use std::collections::BTreeMap;

/// The most elements of one constant whose values are compared.
const VALUE_LIMIT: u64 = 1 << 20;

/// How many instances a finding's detail lists.
const SHOWN: usize = 8;

/// What a reader read.
#[derive(Clone, Debug)]
pub enum ReadSubject<'a> {
    /// The case's module.
    Module(&'a [u32]),
    /// What a producer made of the case: the module it produced, or the
    /// container it came in (model-converter's VGF), judged against the
    /// produced module and its graph constants' data.
    Produced {
        /// The producer.
        producer: String,
        /// The module it produced.
        words: Vec<u32>,
        /// Its graph constants' data, by GraphConstantID.
        graph_constants: BTreeMap<u32, TensorData>,
        /// Whether the reader read the container rather than the module.
        container: bool,
    },
}

/// A reader's answer.
pub struct ReadingAnswer<'a> {
    /// The reader.
    pub oracle: &'a dyn Oracle,
    /// What it read.
    pub subject: ReadSubject<'a>,
    /// What it made of it.
    pub outcome: Result<ReadOutcome, OracleError>,
}

/// What part of a module a reader shows otherwise than it is: the
/// discriminator of a `reader-differs` finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Aspect {
    /// A graph, an input or an output left out or added.
    Interface,
    /// An operation left out, or shown as another operator.
    Operator,
    /// An operand or an output drawn from another value, or from none.
    Edge,
    /// A value's element type, rank or shape.
    Shape,
    /// A constant's values.
    ConstantValue,
    /// A constant shown neither as a value nor as an edge.
    DroppedConstant,
    /// A container's element format the reader cannot name.
    Format,
}

impl Aspect {
    /// Its name in signatures.
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Interface => "interface",
            Aspect::Operator => "operator",
            Aspect::Edge => "edge",
            Aspect::Shape => "shape",
            Aspect::ConstantValue => "constant-value",
            Aspect::DroppedConstant => "dropped-constant",
            Aspect::Format => "format",
        }
    }
}

/// One thing shown otherwise.
struct Diff {
    aspect: Aspect,
    /// The operator concerned, when the difference is about one.
    operator: Option<TosaOp>,
    /// The signature-level message (no ids or values).
    message: String,
    /// This instance, for the detail.
    detail: String,
}

/// The disagreements of one reader's answer.
pub(super) fn judge(expectation: &Expectation, answer: &ReadingAnswer<'_>) -> Vec<Disagreement> {
    let name = answer.oracle.name();
    let mut oracles = vec![name.to_string()];
    if let ReadSubject::Produced { producer, .. } = &answer.subject {
        oracles.push(producer.clone());
    }
    let what = match &answer.subject {
        ReadSubject::Module(_) => "the module".to_string(),
        ReadSubject::Produced { producer, container: true, .. } => format!("{producer}'s container of the case"),
        ReadSubject::Produced { producer, container: false, .. } => format!("the module {producer} made of the case"),
    };
    let new = |kind: Kind, detail: String| {
        let mut d = Disagreement::new(kind, name, detail);
        d.oracles = oracles.clone();
        d.rule = expectation.rule();
        d
    };
    let outcome = match &answer.outcome {
        Ok(o) => o,
        Err(OracleError::Unavailable { .. } | OracleError::Unsupported { .. }) => return Vec::new(),
        Err(e) => {
            let mut d = new(Kind::OracleError, e.to_string());
            d.message = Some(e.to_string());
            return vec![d];
        }
    };
    match outcome {
        ReadOutcome::Abnormal { how, detail } => {
            let mut d = new(Kind::ReaderCrash, format!("{name} {how} reading {what}:\n{detail}"));
            // What a reader owes any file is an answer: on an invalid module
            // a crash is still a finding, if a less serious one.
            if expectation.is_invalid() {
                d.severity = Severity::Medium;
            }
            d.discriminator = Some(match how {
                crate::oracle::Abnormal::Signal(s) => crate::oracle::signal_name(*s),
                crate::oracle::Abnormal::Timeout => "timeout".into(),
                crate::oracle::Abnormal::OutOfMemory => "out of memory".into(),
                crate::oracle::Abnormal::Threw => "C++ exception".into(),
            });
            d.message = Some(how.to_string());
            vec![d]
        }
        ReadOutcome::Rejected { message, detail } => {
            if expectation.is_invalid() {
                return Vec::new();
            }
            let mut d = new(Kind::ReaderRejectsValid, format!("{name} refuses {what}: {message}\n{detail}"));
            d.discriminator = message.split(':').next().map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
            d.message = Some(message.lines().next().unwrap_or_default().to_string());
            vec![d]
        }
        ReadOutcome::Read(reading) => {
            if expectation.is_invalid() {
                return Vec::new();
            }
            let diffs = match &answer.subject {
                ReadSubject::Module(words) => compare_module(words, reading),
                ReadSubject::Produced { words, container: false, .. } => compare_module(words, reading),
                ReadSubject::Produced { words, graph_constants, container: true, .. } => {
                    compare_container(words, graph_constants, reading)
                }
            };
            group(diffs)
                .into_iter()
                .map(|(aspect, operator, message, details)| {
                    let more =
                        if details.len() > SHOWN { format!("\n... ({} in all)", details.len()) } else { String::new() };
                    let shown: Vec<&str> = details.iter().take(SHOWN).map(String::as_str).collect();
                    let mut d = new(
                        Kind::ReaderDiffers,
                        format!("{name} shows {what} otherwise: {message}\n{}{more}", shown.join("\n")),
                    );
                    d.discriminator = Some(aspect.name().to_string());
                    d.operators = operator.into_iter().collect();
                    d.message = Some(message);
                    d
                })
                .collect()
        }
    }
}

/// Differences grouped by aspect, operator and message, in that order.
fn group(diffs: Vec<Diff>) -> Vec<(Aspect, Option<TosaOp>, String, Vec<String>)> {
    let mut out: BTreeMap<(Aspect, Option<TosaOp>, String), Vec<String>> = BTreeMap::new();
    for d in diffs {
        out.entry((d.aspect, d.operator, d.message)).or_default().push(d.detail);
    }
    out.into_iter().map(|((a, o, m), ds)| (a, o, m, ds)).collect()
}

/// Whether a reader's type fits ours: the same in `spvgraph info`'s
/// spelling, or, where the reader leaves the element type open, the same
/// with one of the element types its words stand for.
fn type_fits(ours: &str, theirs: &ReadType) -> bool {
    let Some(t) = &theirs.ty else { return true };
    // spvgraph names TOSA's i48 after TOSA; the module declares it as the
    // 64-bit integer it is stored in, which is what a reader names.
    let ours = &ours.replace("<i48,", "<i64,");
    let ours = if ours == "i48" { "i64" } else { ours.as_str() };
    if t == ours {
        return true;
    }
    if !theirs.ambiguous {
        return false;
    }
    // The worker names an open 16-bit float `fp16`, an open 8-bit one `fp8`.
    let open: [(&str, &[&str]); 2] = [("fp16", &["bf16"]), ("fp8", &["fp8e4m3", "fp8e5m2"])];
    open.iter().any(|(shown, meant)| {
        meant.iter().any(|m| t.replace(&format!("<{shown},"), &format!("<{m},")) == ours || t == m && ours == *m)
    })
}

/// The element type of a type's spelling: its innermost tensor's
/// (`array<2, tensor<bf16, 2x3>>`: `bf16`), else the spelling itself.
fn elem_of(ty: &str) -> &str {
    match ty.rsplit_once("tensor<") {
        Some((_, r)) => r.split([',', '>']).next().unwrap_or(r).trim(),
        None => ty,
    }
}

/// The TOSA operator a node's name is, if any.
fn tosa_op(name: &str) -> Option<TosaOp> {
    TosaOp::ALL.iter().copied().find(|o| o.name() == name)
}

fn compare_module(words: &[u32], reading: &Reading) -> Vec<Diff> {
    let Ok(module) = Module::decode_words(words) else { return Vec::new() };
    let info = module_info(&module);
    let a = Analysis::new(&module);
    let mut diffs = Vec::new();
    for g in &info.graphs {
        let Some(r) = reading.graphs.iter().find(|r| r.id == Some(g.id)) else {
            diffs.push(Diff {
                aspect: Aspect::Interface,
                operator: None,
                message: "a graph of the module is not shown".into(),
                detail: format!("graph {} (%{}) is not shown", g.name, g.id),
            });
            continue;
        };
        compare_graph(&a, &info, g, r, &mut diffs);
    }
    for r in &reading.graphs {
        if !info.graphs.iter().any(|g| Some(g.id) == r.id) {
            diffs.push(Diff {
                aspect: Aspect::Interface,
                operator: None,
                message: "a graph the module does not have is shown".into(),
                detail: format!("a graph with id {:?} is shown", r.id),
            });
        }
    }
    diffs
}

fn compare_graph(
    a: &Analysis<'_>,
    info: &ModuleInfo,
    g: &GraphInfo,
    r: &crate::oracle::ReadGraph,
    diffs: &mut Vec<Diff>,
) {
    for input in &g.graph_inputs {
        match r.inputs.iter().find(|x| x.index == input.index && x.element == input.element) {
            None => diffs.push(Diff {
                aspect: Aspect::Interface,
                operator: None,
                message: "a graph input is not shown".into(),
                detail: format!("input {:?} (element {:?}) of {} is not shown", input.index, input.element, g.name),
            }),
            Some(x) if !type_fits(&input.ty, &x.ty) => diffs.push(shape_diff("an input", None, &input.ty, &x.ty)),
            Some(_) => {}
        }
    }
    for n in &g.nodes {
        let op = tosa_op(&n.op);
        let Some(rn) = r.nodes.iter().find(|x| x.id == Some(n.id)) else {
            diffs.push(Diff {
                aspect: Aspect::Operator,
                operator: op,
                message: format!("{} not shown", n.op),
                detail: format!("%{} = {} is not shown", n.id, n.op),
            });
            continue;
        };
        if rn.op != n.op {
            diffs.push(Diff {
                aspect: Aspect::Operator,
                operator: op,
                message: format!("{} shown as {}", n.op, rn.op),
                detail: format!("%{} = {} is shown as {}", n.id, n.op, rn.op),
            });
        }
        if rn.results.len() != n.results.len() {
            diffs.push(Diff {
                aspect: Aspect::Shape,
                operator: op,
                message: format!("{} shown with another number of results", n.op),
                detail: format!("%{} = {}: {} results, {} shown", n.id, n.op, n.results.len(), rn.results.len()),
            });
        } else {
            for (ours, theirs) in n.results.iter().zip(&rn.results) {
                if !type_fits(ours, theirs) {
                    diffs.push(shape_diff("a result", op, ours, theirs));
                }
            }
        }
        compare_operands(a, n, rn, op, diffs);
    }
    for out in &g.graph_outputs {
        let Some(ro) = r.outputs.iter().find(|x| x.index == out.index && x.element == out.element) else {
            diffs.push(Diff {
                aspect: Aspect::Interface,
                operator: None,
                message: "a graph output is not shown".into(),
                detail: format!("output {:?} (element {:?}) of {} is not shown", out.index, out.element, g.name),
            });
            continue;
        };
        compare_output(a, out.value, ro, diffs);
    }
    for v in g.nodes.iter().flat_map(|n| &n.operands).chain(g.graph_outputs.iter().map(|o| &o.value)) {
        let ValueInfo::GraphConstant { id, graph_constant_id } = *v else { continue };
        let Some(c) = r.graph_constants.iter().find(|c| c.id == Some(id)) else { continue };
        if c.graph_constant_id.is_some_and(|x| x != graph_constant_id) {
            diffs.push(Diff {
                aspect: Aspect::Interface,
                operator: None,
                message: "a graph constant shown with another GraphConstantID".into(),
                detail: format!("%{id}: GraphConstantID {graph_constant_id}, shown {:?}", c.graph_constant_id),
            });
        }
        let ty = info.graph_constants.iter().find(|x| x.id == id).map(|x| x.ty.as_str());
        if let Some(ty) = ty.filter(|ty| !type_fits(ty, &c.ty)) {
            diffs.push(shape_diff("a graph constant", None, ty, &c.ty));
        }
    }
}

fn shape_diff(what: &str, operator: Option<TosaOp>, ours: &str, theirs: &ReadType) -> Diff {
    let shown = theirs.ty.as_deref().unwrap_or("?");
    let (e, te) = (elem_of(ours), elem_of(shown));
    let message = if e == te {
        format!("{what} of element type {e} shown with another shape")
    } else {
        format!("{what} of element type {e} shown as {te}")
    };
    let words = theirs.shown.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
    Diff {
        aspect: Aspect::Shape,
        operator,
        message,
        detail: format!("{what} of type {ours} is shown as {shown}{words}"),
    }
}

/// Whether a source the reader draws is `ours`.
fn source_is(ours: ValueInfo, source: &ReadSource) -> bool {
    match ours {
        ValueInfo::Input { id } | ValueInfo::GraphConstant { id, .. } => source.id == Some(id) && source.output == 0,
        ValueInfo::Node { id, member } => source.id == Some(id) && source.output == member,
        ValueInfo::Constant { .. } | ValueInfo::Other { .. } => false,
    }
}

fn describe_value(v: ValueInfo) -> String {
    match v {
        ValueInfo::Input { id } => format!("input %{id}"),
        ValueInfo::Node { id, member: 0 } => format!("%{id}"),
        ValueInfo::Node { id, member } => format!("result {member} of %{id}"),
        ValueInfo::GraphConstant { id, graph_constant_id } => format!("graph constant %{id} ({graph_constant_id})"),
        ValueInfo::Constant { id } => format!("constant %{id}"),
        ValueInfo::Other { id } => format!("%{id}"),
    }
}

fn compare_operands(
    a: &Analysis<'_>,
    n: &NodeInfo,
    rn: &crate::oracle::ReadNode,
    op: Option<TosaOp>,
    diffs: &mut Vec<Diff>,
) {
    if rn.operands.len() != n.operands.len() {
        diffs.push(Diff {
            aspect: Aspect::Edge,
            operator: op,
            message: format!("{} shown with another number of operands", n.op),
            detail: format!("%{} = {}: {} operands, {} shown", n.id, n.op, n.operands.len(), rn.operands.len()),
        });
        return;
    }
    for (k, (ours, theirs)) in n.operands.iter().zip(&rn.operands).enumerate() {
        let tag = theirs.tag.clone().unwrap_or_else(|| format!("operand {k}"));
        match *ours {
            ValueInfo::Other { .. } => {}
            ValueInfo::Constant { id } => match (&theirs.constant, &theirs.source) {
                (Some(c), _) => {
                    if let Some(d) = compare_constant(a, Id(id), c, &format!("{} {tag} of %{}", n.op, n.id)) {
                        diffs.push(d);
                    }
                }
                (None, Some(s)) => diffs.push(Diff {
                    aspect: Aspect::Edge,
                    operator: op,
                    message: format!("a constant operand of {} drawn as an edge", n.op),
                    detail: format!("%{} = {} {tag}: constant %{id}, drawn from {:?}", n.id, n.op, s.id),
                }),
                (None, None) => diffs.push(Diff {
                    aspect: Aspect::DroppedConstant,
                    operator: op,
                    message: format!("a constant operand of {} shown neither as a value nor as an edge", n.op),
                    detail: format!("%{} = {} {tag}: constant %{id}", n.id, n.op),
                }),
            },
            ValueInfo::GraphConstant { .. } if theirs.source.is_none() && theirs.constant.is_some() => {}
            v => {
                let fits = theirs.source.as_ref().is_some_and(|s| source_is(v, s));
                if !fits {
                    diffs.push(Diff {
                        aspect: Aspect::Edge,
                        operator: op,
                        message: format!("an operand of {} drawn from another value", n.op),
                        detail: format!(
                            "%{} = {} {tag}: {}, drawn from {}",
                            n.id,
                            n.op,
                            describe_value(v),
                            theirs
                                .source
                                .map_or_else(|| "nothing".into(), |s| format!("{:?} (result {})", s.id, s.output))
                        ),
                    });
                }
            }
        }
    }
}

fn compare_output(a: &Analysis<'_>, value: ValueInfo, ro: &ReadOutput, diffs: &mut Vec<Diff>) {
    let at = format!("output {:?} (element {:?})", ro.index, ro.element);
    match value {
        ValueInfo::Other { .. } => {}
        ValueInfo::Constant { id } => match &ro.constant {
            Some(c) => {
                if let Some(d) = compare_constant(a, Id(id), c, &at) {
                    diffs.push(d);
                }
            }
            None if ro.source.is_none() => diffs.push(Diff {
                aspect: Aspect::DroppedConstant,
                operator: None,
                message: "an output set from a constant shown with neither its value nor an edge".into(),
                detail: format!("{at}: constant %{id}"),
            }),
            None => {}
        },
        ValueInfo::GraphConstant { .. } if ro.source.is_none() && ro.constant.is_some() => {}
        v => {
            if !ro.source.as_ref().is_some_and(|s| source_is(v, s)) {
                diffs.push(Diff {
                    aspect: Aspect::Edge,
                    operator: None,
                    message: "an output drawn from another value".into(),
                    detail: format!(
                        "{at}: {}, drawn from {}",
                        describe_value(v),
                        ro.source.map_or_else(|| "nothing".into(), |s| format!("{:?} (result {})", s.id, s.output))
                    ),
                });
            }
        }
    }
}

/// How a constant is built: the signature names the form, since readers
/// decode each form on a path of its own.
fn form(a: &Analysis<'_>, id: Id) -> &'static str {
    match a.def(id) {
        Some(Inst::ConstantNull { .. }) => "null",
        Some(Inst::ConstantCompositeReplicate { .. }) => "replicated",
        Some(Inst::ConstantComposite { constituents, .. }) => {
            let nested = constituents.first().and_then(|c| a.type_of(*c)).and_then(|t| a.tensor_type(t)).is_some();
            if nested {
                "nested composite"
            } else {
                "composite"
            }
        }
        _ => "scalar",
    }
}

/// A constant's element type (SPIR-V scalar kind and TOSA element type).
fn element(a: &Analysis<'_>, id: Id) -> Option<(ScalarKind, ElemType)> {
    let ty = a.type_of(id)?;
    let scalar = match a.tensor_type(ty) {
        Some(t) => a.scalar_kind(t.element)?,
        None => a.scalar_kind(ty)?,
    };
    Some((scalar, ElemType::from_spirv(scalar)?))
}

/// How the reader's text reads a constant's bits, as far as a comparison can tell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Decoding {
    /// The element type's own values (integers signed or unsigned as the
    /// reader's label says).
    Own,
    /// Integers, signed.
    Signed,
    /// Integers, unsigned.
    Unsigned,
    /// The bits as an IEEE half.
    Half,
    /// The bits as a bfloat16.
    BFloat,
    /// The bit patterns as integers.
    Raw,
}

impl Decoding {
    fn diagnosis(self) -> &'static str {
        match self {
            Decoding::Own => "other values",
            Decoding::Signed => "read signed",
            Decoding::Unsigned => "read unsigned",
            Decoding::Half => "its bits read as fp16",
            Decoding::BFloat => "its bits read as bf16",
            Decoding::Raw => "its raw bits",
        }
    }
}

/// The value of bits `b` of `scalar`/`elem` read as `how`.
fn value(b: u64, scalar: ScalarKind, elem: ElemType, how: Decoding, unsigned_label: bool) -> Option<ReadScalar> {
    let width = match scalar {
        ScalarKind::Int { width, .. } | ScalarKind::Float { width, .. } => width,
        ScalarKind::Bool => 1,
    };
    // The scalar's own bits: a producer's tensor data gives integers
    // sign-extended to 64 bits (`TensorData::to_bits`), a module's
    // constants their literal's bits.
    let b = if width < 64 { b & ((1u64 << width) - 1) } else { b };
    let signed = |b: u64| -> i128 {
        let w = width.min(64);
        if w == 64 {
            i128::from(b as i64)
        } else if b >> (w - 1) & 1 == 1 {
            i128::from(b) - (1i128 << w)
        } else {
            i128::from(b)
        }
    };
    Some(match (how, elem) {
        (Decoding::Own, ElemType::Bool) => ReadScalar::Bool(b != 0),
        (Decoding::Own, e) if e.is_int() => {
            if unsigned_label {
                ReadScalar::Int(i128::from(b))
            } else {
                ReadScalar::Int(signed(b))
            }
        }
        (Decoding::Own, e) => ReadScalar::Float(spvgraph_ir::scalar::float_bits_to_f64(e, b)?),
        (Decoding::Signed, e) if e.is_int() => ReadScalar::Int(signed(b)),
        (Decoding::Unsigned, e) if e.is_int() => ReadScalar::Int(i128::from(b)),
        (Decoding::Half, _) if width == 16 => {
            ReadScalar::Float(spvgraph_ir::scalar::float_bits_to_f64(ElemType::Fp16, b)?)
        }
        (Decoding::BFloat, _) if width == 16 => {
            ReadScalar::Float(spvgraph_ir::scalar::float_bits_to_f64(ElemType::Bf16, b)?)
        }
        (Decoding::Raw, _) => ReadScalar::Int(i128::from(b)),
        _ => return None,
    })
}

/// Whether a shown scalar is a value: the same number, whether written as
/// an integer or a float (an adapter that prints raw bits prints a null
/// element as `0.0`).
fn same(x: &ReadScalar, y: &ReadScalar) -> bool {
    match (x, y) {
        (ReadScalar::Float(a), ReadScalar::Float(b)) => a == b || (a.is_nan() && b.is_nan()),
        (ReadScalar::Int(a), ReadScalar::Int(b)) => a == b,
        (ReadScalar::Bool(a), ReadScalar::Bool(b)) => a == b,
        // i128 to f64 rounds only past 2^53, far beyond any element shown.
        (ReadScalar::Int(i), ReadScalar::Float(f)) | (ReadScalar::Float(f), ReadScalar::Int(i)) => *i as f64 == *f,
        _ => false,
    }
}

/// Whether every element of `bits` is zero as a value (a float's -0.0 is
/// zero: a reader that says "all zeroes" of it says what `==` says, as the
/// element-by-element comparison does).
fn all_zero(bits: &[u64], scalar: ScalarKind, elem: ElemType) -> bool {
    bits.iter()
        .all(|&b| b == 0 || value(b, scalar, elem, Decoding::Own, false).is_some_and(|v| same(&v, &ReadScalar::Int(0))))
}

/// Whether `shown` is what `bits` read as `how` give (a prefix when the
/// reader shows a preview).
fn shows(
    c: &ReadConstant,
    shown: &[ReadScalar],
    bits: &[u64],
    scalar: ScalarKind,
    elem: ElemType,
    how: Decoding,
) -> bool {
    let unsigned = c.elem.as_deref().is_some_and(|l| l.starts_with("uint"));
    if shown.len() > bits.len() || (!c.truncated && shown.len() != bits.len()) {
        return false;
    }
    shown.iter().zip(bits).all(|(s, &b)| value(b, scalar, elem, how, unsigned).is_some_and(|v| same(s, &v)))
}

/// The difference between constant `id` and what the reader shows of it at `at`, if any.
fn compare_constant(a: &Analysis<'_>, id: Id, c: &ReadConstant, at: &str) -> Option<Diff> {
    let shown = c.values.as_ref()?;
    let (scalar, elem) = element(a, id)?;
    let bits = a.const_tensor_bits(id, VALUE_LIMIT)?;
    if c.all_zero {
        if all_zero(&bits, scalar, elem) {
            return None;
        }
    } else if shows(c, shown, &bits, scalar, elem, Decoding::Own) {
        return None;
    }
    let alternatives = [Decoding::Signed, Decoding::Unsigned, Decoding::Half, Decoding::BFloat, Decoding::Raw];
    let how = if c.all_zero {
        Decoding::Own
    } else {
        alternatives.into_iter().find(|&h| shows(c, shown, &bits, scalar, elem, h)).unwrap_or(Decoding::Own)
    };
    let label = c.elem.as_deref().unwrap_or("no type");
    let form = form(a, id);
    let ours: Vec<String> = bits
        .iter()
        .take(8)
        .filter_map(|&b| value(b, scalar, elem, Decoding::Own, label.starts_with("uint")))
        .map(|v| match v {
            ReadScalar::Int(i) => i.to_string(),
            ReadScalar::Float(f) => format!("{f:?}"),
            ReadScalar::Bool(b) => b.to_string(),
        })
        .collect();
    let more = if bits.len() > 8 { ", ..." } else { "" };
    let text: String = c.shown.chars().take(160).collect();
    Some(Diff {
        aspect: Aspect::ConstantValue,
        operator: None,
        message: format!("{form} {} constant shown as {label}: {}", elem.name(), how.diagnosis()),
        detail: format!("{at}: %{} ({} elements) is [{}{more}], shown as {text}", id.0, bits.len(), ours.join(", ")),
    })
}

/// What a reader shows of a container against the module in it and its
/// graph constants' data.
fn compare_container(words: &[u32], graph_constants: &BTreeMap<u32, TensorData>, reading: &Reading) -> Vec<Diff> {
    let Ok(module) = Module::decode_words(words) else { return Vec::new() };
    let info = module_info(&module);
    let mut diffs = Vec::new();
    // Operators: the container's nodes against the module's, by count.
    let mut ours: BTreeMap<String, usize> = BTreeMap::new();
    for n in info.graphs.iter().flat_map(|g| &g.nodes).filter(|n| tosa_op(&n.op).is_some()) {
        *ours.entry(n.op.clone()).or_default() += 1;
    }
    let mut theirs: BTreeMap<String, usize> = BTreeMap::new();
    for n in reading.graphs.iter().flat_map(|g| &g.nodes).filter(|n| tosa_op(&n.op).is_some()) {
        *theirs.entry(n.op.clone()).or_default() += 1;
    }
    for (op, n) in &ours {
        let m = theirs.get(op).copied().unwrap_or(0);
        if m != *n {
            diffs.push(Diff {
                aspect: Aspect::Operator,
                operator: tosa_op(op),
                message: format!("{op} shown another number of times"),
                detail: format!("{op}: {n} in the module, {m} shown"),
            });
        }
    }
    for r in &reading.resources {
        if let Some(f) = r.format.as_deref().filter(|f| f.starts_with("UNKNOWN_")) {
            diffs.push(Diff {
                aspect: Aspect::Format,
                operator: None,
                message: "a resource of format UNKNOWN_ shown".into(),
                detail: format!("{} resource {:?} (shape {:?}): format {f}", r.category, r.index, r.shape),
            });
        }
        match r.category.as_str() {
            "CONSTANT" => compare_constant_resource(r, graph_constants, &mut diffs),
            "OUTPUT" => {
                let index = module_output_index(&info, r).or(r.index);
                let out = info.graphs.first().and_then(|g| g.graph_outputs.iter().find(|o| o.index == index));
                // A graph constant is a constant too: the VGF view keeps it
                // as a constant resource, and an output set from it is
                // drawn from that resource or shows its value.
                let constant = out
                    .is_some_and(|o| matches!(o.value, ValueInfo::Constant { .. } | ValueInfo::GraphConstant { .. }));
                let at = format!("output resource {:?} (binding {:?}, OutputIndex {index:?})", r.index, r.binding);
                if r.sources.is_empty() && r.constant.is_none() {
                    diffs.push(Diff {
                        aspect: if constant { Aspect::DroppedConstant } else { Aspect::Edge },
                        operator: None,
                        message: if constant {
                            "an output set from a constant shown with neither its value nor an edge".into()
                        } else {
                            "an output resource drawn from nothing".into()
                        },
                        detail: format!("{at}: {:?}", out.map(|o| o.value)),
                    });
                } else if let Some(o) = out.filter(|o| matches!(o.value, ValueInfo::Node { .. })) {
                    // Edges from operation nodes (resources have no id in the
                    // view): each must be the operation that sets the output.
                    let wrong: Vec<String> = (r.sources.iter().filter(|s| s.id.is_some()))
                        .filter(|s| !source_is(o.value, s))
                        .map(|s| format!("{:?} (result {})", s.id, s.output))
                        .collect();
                    if !wrong.is_empty() {
                        diffs.push(Diff {
                            aspect: Aspect::Edge,
                            operator: None,
                            message: "an output resource drawn from another operation".into(),
                            detail: format!("{at}: {}, drawn from {}", describe_value(o.value), wrong.join(", ")),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    diffs
}

/// The module's OutputIndex of an output resource, through its descriptor
/// binding: the graph entry point's output variable with that binding. A
/// container's output slots need not line up with the module's outputs
/// (model-converter writes one module output for a value returned twice,
/// and a slot per model output), so the slot's position is only the
/// fallback when the container or the module names no binding.
fn module_output_index(info: &ModuleInfo, r: &ReadResource) -> Option<u64> {
    let binding = r.binding?;
    let graph = info.graphs.first()?;
    let entry = info.entry_points.iter().find(|e| e.graph == graph.name).or(info.entry_points.first())?;
    let variable = entry.interface.iter().find(|v| v.role == "output" && v.binding == Some(binding))?;
    u64::try_from(variable.index).ok()
}

/// A constant resource's value against the graph constants of the same
/// element type and shape (a VGF's constant table does not say which
/// GraphConstantID an entry is for; the segment's bindings do, and the
/// reader shows the table's entries).
fn compare_constant_resource(r: &ReadResource, graph_constants: &BTreeMap<u32, TensorData>, diffs: &mut Vec<Diff>) {
    let Some(elem) = r.elem.as_deref().and_then(ElemType::from_name) else { return };
    let shape: Option<Vec<usize>> =
        r.shape.as_ref().map(|s| s.iter().filter_map(|&d| usize::try_from(d).ok()).collect());
    let candidates: Vec<&TensorData> = graph_constants
        .values()
        .filter(|t| t.elem() == elem && shape.as_deref().is_none_or(|s| t.shape() == s))
        .collect();
    if candidates.is_empty() {
        return;
    }
    let Some(c) = &r.constant else {
        diffs.push(Diff {
            aspect: Aspect::DroppedConstant,
            operator: None,
            message: format!("a {} constant resource shown without its value", elem.name()),
            detail: format!("constant resource {:?} of shape {:?}", r.index, r.shape),
        });
        return;
    };
    let Some(shown) = &c.values else { return };
    let scalar = elem.to_spirv();
    // A producer may store an integer constant in an unsigned format (model-converter
    // writes a RESCALE's input_unsigned constant as R16_UINT), where the same bits
    // read unsigned are the right values.
    let unsigned_too =
        matches!(scalar, ScalarKind::Int { .. }) && r.format.as_deref().is_some_and(|f| f.contains("UINT"));
    let fits = candidates.iter().any(|t| {
        let bits = t.to_bits();
        let reads = |how| shows(c, shown, &bits, scalar, elem, how);
        !c.all_zero && (reads(Decoding::Own) || unsigned_too && reads(Decoding::Unsigned))
            || c.all_zero && all_zero(&bits, scalar, elem)
    });
    if !fits {
        let text: String = c.shown.chars().take(160).collect();
        diffs.push(Diff {
            aspect: Aspect::ConstantValue,
            operator: None,
            message: format!("a {} constant resource shown with values of no graph constant", elem.name()),
            detail: format!("constant resource of shape {:?} shows {text}", r.shape),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ty: &str, ambiguous: bool) -> ReadType {
        ReadType { ty: Some(ty.into()), shown: None, ambiguous }
    }

    /// model-converter stores a RESCALE's input_unsigned i16 constant as
    /// R16_UINT: the same bits shown unsigned are its values; shown unsigned
    /// from a SINT resource, they are not.
    #[test]
    fn an_unsigned_format_resource_shows_the_constants_bits_unsigned() {
        // -16502 and 28514 as i16 bits.
        let i16s = TensorData::from_bits(ElemType::I16, &[2], &[49034, 28514]).expect("i16 bits");
        let constants = BTreeMap::from([(0, i16s)]);
        let resource = |format: &str| ReadResource {
            index: Some(0),
            binding: None,
            category: "CONSTANT".into(),
            format: Some(format.into()),
            elem: Some("i16".into()),
            shape: Some(vec![2]),
            constant: Some(ReadConstant {
                shown: "[49034, 28514]".into(),
                elem: Some("int16".into()),
                values: Some(vec![ReadScalar::Int(49034), ReadScalar::Int(28514)]),
                truncated: false,
                all_zero: false,
            }),
            sources: Vec::new(),
        };
        let mut diffs = Vec::new();
        compare_constant_resource(&resource("VK_FORMAT_R16_UINT"), &constants, &mut diffs);
        assert_eq!(diffs.len(), 0, "the UINT resource shows the constant");
        compare_constant_resource(&resource("VK_FORMAT_R16_SINT"), &constants, &mut diffs);
        assert_eq!(diffs.len(), 1, "the SINT resource shows other values");
    }

    /// model-converter's VGF of a graph returning ABS twice, then CEIL: the
    /// module has two outputs (ABS through Binding 1, CEIL through Binding
    /// 2), the segment three slots (0 and 1 on binding 1, 2 on binding 2).
    /// An output resource is the module output of its binding, whatever its
    /// slot's position.
    #[test]
    fn an_output_resource_is_the_module_output_of_its_binding() {
        let bytes = include_bytes!("../../../corpus/findings/vgf-adapter-shared-output-edges-shifted.spv");
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let output = |slot: u64, binding: u32, sources: &[u32]| ReadResource {
            index: Some(slot),
            binding: Some(binding),
            category: "OUTPUT".into(),
            format: Some("VK_FORMAT_R32_SFLOAT".into()),
            elem: Some("fp32".into()),
            shape: Some(vec![2, 3]),
            constant: None,
            sources: sources.iter().map(|&id| ReadSource { id: Some(id), output: 0 }).collect(),
        };
        let shown = |resources| Reading { graphs: Vec::new(), resources };
        // ABS is %16, CEIL %18.
        let right = compare_container(&words, &BTreeMap::new(), &shown(vec![output(0, 1, &[16]), output(2, 2, &[18])]));
        // The test shows no operation nodes: only the resources' edges count.
        let right: Vec<&str> = right.iter().filter(|d| d.aspect == Aspect::Edge).map(|d| d.detail.as_str()).collect();
        assert!(right.is_empty(), "the binding's output, not the slot's position: {right:?}");
        let adapter = shown(vec![output(0, 1, &[16, 18]), output(2, 2, &[])]);
        let messages: Vec<String> = compare_container(&words, &BTreeMap::new(), &adapter)
            .into_iter()
            .filter(|d| d.aspect == Aspect::Edge)
            .map(|d| format!("{}: {}", d.message, d.detail))
            .collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].starts_with("an output resource drawn from another operation"), "{messages:?}");
        assert!(messages[1].starts_with("an output resource drawn from nothing"), "{messages:?}");
        assert!(messages[1].contains("OutputIndex Some(1)"), "{messages:?}");
    }

    #[test]
    fn open_element_types_fit_every_type_they_stand_for() {
        assert!(type_fits("tensor<bf16, 2x3>", &t("tensor<fp16, 2x3>", true)));
        assert!(!type_fits("tensor<bf16, 2x3>", &t("tensor<fp16, 2x3>", false)));
        assert!(type_fits("tensor<fp8e5m2, 4>", &t("tensor<fp8, 4>", true)));
        assert!(!type_fits("tensor<fp8e5m2, 4>", &t("tensor<fp8, 5>", true)));
        assert!(type_fits("tensor<i8, 1x2>", &ReadType::default()));
        assert!(type_fits("tensor<i48, 1x2>", &t("tensor<i64, 1x2>", false)));
        assert_eq!(elem_of("array<2, tensor<i8, 3>>"), "i8");
        assert_eq!(elem_of("tensor<bf16, 2x3>"), "bf16");
    }

    /// A replicated fp32 -0.0 (seed 919192276) shown as `<all zeroes>`: -0.0
    /// is zero; a tiny value is not.
    #[test]
    fn negative_zeros_are_all_zeroes() {
        let fp32 = ElemType::Fp32.to_spirv();
        assert!(all_zero(&[0x8000_0000, 0], fp32, ElemType::Fp32));
        assert!(!all_zero(&[0x8000_0001], fp32, ElemType::Fp32));
        let i8_kind = ElemType::I8.to_spirv();
        assert!(!all_zero(&[0x80], i8_kind, ElemType::I8), "i8 -128 is not zero");
    }

    #[test]
    fn integers_are_read_at_their_width_whatever_the_upper_bits() {
        let i8_kind = ElemType::I8.to_spirv();
        // -117 as a module's literal (0x8B) and as sign-extended tensor data.
        for bits in [0x8B_u64, (-117_i64) as u64] {
            assert_eq!(value(bits, i8_kind, ElemType::I8, Decoding::Own, false), Some(ReadScalar::Int(-117)));
            assert_eq!(value(bits, i8_kind, ElemType::I8, Decoding::Unsigned, false), Some(ReadScalar::Int(139)));
        }
        assert!(same(&ReadScalar::Float(0.0), &ReadScalar::Int(0)));
        assert!(!same(&ReadScalar::Float(0.5), &ReadScalar::Int(0)));
    }
}
