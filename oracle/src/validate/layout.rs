//! The logical layout: section order, the memory model, entry points, and the
//! SPV_ARM_graph section (what may stand between and inside graph definitions).
//!
//! Non-semantic instructions (any `NonSemantic.*` set) may stand anywhere
//! from the types section on (SPV_KHR_non_semantic_info), so also anywhere in
//! the graph section: between, before and after graph definitions, between
//! graph inputs and between graph outputs. They do not count for the
//! "immediately follows / precedes" rules of OpGraphInputARM and
//! OpGraphSetOutputARM, as in SPIRV-Tools v2026.3 (#6666).

use super::context::Cx;
use spirv::Op;
use spvgraph_ir::inst::{ExtSet, Inst};
use spvgraph_ir::opname::opcode_name;
use spvgraph_ir::rules::RuleId;

/// Logical-layout sections in order (SPIR-V 2.4 plus the graph section).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Capability,
    Extension,
    Import,
    MemoryModel,
    EntryPoint,
    ExecutionMode,
    DebugSource,
    DebugName,
    DebugProcessed,
    Annotation,
    Global,
    Function,
    Graph,
}

impl Section {
    fn name(self) -> &'static str {
        match self {
            Section::Capability => "capabilities",
            Section::Extension => "extensions",
            Section::Import => "extended instruction imports",
            Section::MemoryModel => "the memory model",
            Section::EntryPoint => "entry points",
            Section::ExecutionMode => "execution modes",
            Section::DebugSource => "debug source instructions (OpString, OpSource...)",
            Section::DebugName => "debug names",
            Section::DebugProcessed => "OpModuleProcessed",
            Section::Annotation => "annotations",
            Section::Global => "types, constants and global variables",
            Section::Function => "functions",
            Section::Graph => "graph definitions",
        }
    }
}

/// The section an instruction outside functions and graphs belongs to;
/// `None` for instructions this validator does not place (other opcodes).
fn section(cx: &Cx<'_>, inst: &Inst) -> Option<Section> {
    let s = match inst {
        Inst::Capability(_) => Section::Capability,
        Inst::Extension(_) => Section::Extension,
        Inst::ExtInstImport { .. } => Section::Import,
        Inst::MemoryModel { .. } => Section::MemoryModel,
        Inst::String { .. } => Section::DebugSource,
        Inst::Name { .. } => Section::DebugName,
        Inst::Decorate { .. } => Section::Annotation,
        Inst::Line { .. } | Inst::NoLine | Inst::Variable { .. } | Inst::GraphDebug { .. } => Section::Global,
        Inst::ExtInst { set, .. } => match cx.set_kind(*set) {
            Some(ExtSet::Tosa) => return None,
            _ => Section::Global,
        },
        Inst::GraphEntryPoint { .. } | Inst::Graph { .. } => Section::Graph,
        // Every modelled type and constant (spelled out: a guard calling
        // `is_type` would run for each of them).
        Inst::TypeVoid { .. }
        | Inst::TypeBool { .. }
        | Inst::TypeInt { .. }
        | Inst::TypeFloat { .. }
        | Inst::TypeArray { .. }
        | Inst::TypeRuntimeArray { .. }
        | Inst::TypeStruct { .. }
        | Inst::TypePointer { .. }
        | Inst::TypeTensor { .. }
        | Inst::TypeGraph { .. }
        | Inst::ConstantTrue { .. }
        | Inst::ConstantFalse { .. }
        | Inst::Constant { .. }
        | Inst::ConstantComposite { .. }
        | Inst::ConstantCompositeReplicate { .. }
        | Inst::ConstantNull { .. }
        | Inst::GraphConstant { .. } => Section::Global,
        i @ Inst::Raw { .. } if i.is_type() || i.is_constant() => Section::Global,
        Inst::Raw { opcode, .. } => match Op::from_u32(u32::from(*opcode))? {
            Op::EntryPoint => Section::EntryPoint,
            Op::ExecutionMode | Op::ExecutionModeId => Section::ExecutionMode,
            Op::SourceContinued | Op::Source | Op::SourceExtension => Section::DebugSource,
            Op::MemberName => Section::DebugName,
            Op::ModuleProcessed => Section::DebugProcessed,
            Op::MemberDecorate
            | Op::DecorationGroup
            | Op::GroupDecorate
            | Op::GroupMemberDecorate
            | Op::DecorateId
            | Op::DecorateString
            | Op::MemberDecorateString => Section::Annotation,
            Op::Undef | Op::TypeForwardPointer => Section::Global,
            Op::Function => Section::Function,
            _ => return None,
        },
        _ => return None,
    };
    Some(s)
}

/// Whether `inst` is an instruction of a non-semantic set.
fn is_non_semantic(cx: &Cx<'_>, inst: &Inst) -> bool {
    match inst {
        Inst::GraphDebug { .. } => true,
        Inst::ExtInst { set, .. } => cx.set_kind(*set).is_some_and(ExtSet::is_non_semantic),
        _ => false,
    }
}

fn is_tosa(cx: &Cx<'_>, inst: &Inst) -> bool {
    match inst {
        Inst::Tosa { .. } => true,
        Inst::ExtInst { set, .. } => cx.set_kind(*set) == Some(ExtSet::Tosa),
        _ => false,
    }
}

/// Where a graph definition is in its body.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Inputs,
    Body,
    Outputs,
}

struct OpenGraph {
    begin: usize,
    phase: Phase,
    outputs: usize,
    /// The last OpGraphSetOutputARM, until it is blamed for a following body instruction.
    last_output: Option<usize>,
}

/// Runs every layout check.
pub fn check(cx: &mut Cx<'_>) {
    let mut current = Section::Capability;
    let mut in_function = false;
    let mut graph: Option<OpenGraph> = None;
    let mut memory_models = 0usize;
    let mut entry_points = 0usize;
    let mut functions = 0usize;
    let insts = cx.insts;
    for (i, inst) in insts.iter().enumerate() {
        if in_function {
            match inst {
                Inst::Raw { opcode, .. } if *opcode == Op::FunctionEnd as u16 => in_function = false,
                _ if is_tosa(cx, inst) => cx.at(
                    i,
                    RuleId::LayoutTosaOutsideGraph,
                    "a TOSA.001000.1 instruction inside a function; TOSA operators belong in graph bodies",
                ),
                Inst::Graph { .. }
                | Inst::GraphInput { .. }
                | Inst::GraphSetOutput { .. }
                | Inst::GraphEnd
                | Inst::GraphEntryPoint { .. } => cx.at(
                    i,
                    RuleId::LayoutSectionOrder,
                    format_args!("{} inside a function definition", opcode_name(inst.opcode())),
                ),
                _ => {}
            }
            continue;
        }
        if let Some(g) = graph.as_mut() {
            match inst {
                Inst::GraphInput { .. } => {
                    if g.phase != Phase::Inputs {
                        cx.at(
                            i,
                            RuleId::LayoutGraphInputPosition,
                            "OpGraphInputARM must immediately follow OpGraphARM or another OpGraphInputARM",
                        );
                    }
                }
                Inst::GraphSetOutput { .. } => {
                    g.phase = Phase::Outputs;
                    g.outputs += 1;
                    g.last_output = Some(i);
                }
                Inst::GraphEnd => {
                    if g.outputs == 0 {
                        cx.at(
                            i,
                            RuleId::GraphOutputMissing,
                            "OpGraphEndARM must be preceded by at least one OpGraphSetOutputARM",
                        );
                    }
                    graph = None;
                }
                Inst::Graph { .. } => {
                    cx.at(
                        i,
                        RuleId::LayoutGraphNested,
                        format_args!("OpGraphARM inside the graph defined at instruction {}; graphs cannot nest", g.begin),
                    );
                    *g = OpenGraph { begin: i, phase: Phase::Inputs, outputs: 0, last_output: None };
                }
                // Anywhere in the body, without moving it to its next part.
                _ if is_non_semantic(cx, inst) => {}
                Inst::Tosa { .. } | Inst::ExtInst { .. } | Inst::CompositeExtract { .. } => {
                    if g.phase == Phase::Outputs {
                        if let Some(out) = g.last_output.take() {
                            cx.at(
                                out,
                                RuleId::LayoutGraphOutputPosition,
                                format_args!(
                                    "OpGraphSetOutputARM is followed by {}; outputs must come last, right before OpGraphEndARM",
                                    opcode_name(inst.opcode())
                                ),
                            );
                        }
                    } else {
                        g.phase = Phase::Body;
                    }
                }
                other => cx.at(
                    i,
                    RuleId::LayoutGraphBodyInstruction,
                    format_args!(
                        "{} cannot appear in a graph body (only OpGraphInputARM, OpGraphSetOutputARM, OpExtInst and OpCompositeExtract can)",
                        opcode_name(other.opcode())
                    ),
                ),
            }
            continue;
        }
        if current == Section::Graph {
            match inst {
                Inst::GraphEntryPoint { .. } => {}
                Inst::Graph { .. } => {
                    graph = Some(OpenGraph { begin: i, phase: Phase::Inputs, outputs: 0, last_output: None })
                }
                Inst::GraphInput { .. } | Inst::GraphSetOutput { .. } | Inst::GraphEnd => cx.at(
                    i,
                    RuleId::LayoutGraphUnterminated,
                    format_args!("{} outside a graph definition", opcode_name(inst.opcode())),
                ),
                _ if is_non_semantic(cx, inst) => {}
                other => {
                    let what = match other {
                        Inst::Tosa { op, .. } => format!("TOSA {op}"),
                        _ => opcode_name(other.opcode()),
                    };
                    cx.at(
                        i,
                        RuleId::LayoutGraphSectionOutsideGraph,
                        format_args!("{what} outside any graph body, after the graph definitions began"),
                    );
                }
            }
            continue;
        }
        // From the types section on, outside function bodies (between
        // function definitions too), a non-semantic instruction is in place.
        if current >= Section::Global && is_non_semantic(cx, inst) {
            continue;
        }
        if is_tosa(cx, inst) {
            cx.at(
                i,
                RuleId::LayoutTosaOutsideGraph,
                "a TOSA.001000.1 instruction among the global declarations; TOSA operators belong in graph bodies",
            );
            continue;
        }
        match inst {
            Inst::GraphInput { .. } | Inst::GraphSetOutput { .. } | Inst::GraphEnd => {
                cx.at(
                    i,
                    RuleId::LayoutGraphUnterminated,
                    format_args!("{} outside a graph definition", opcode_name(inst.opcode())),
                );
                continue;
            }
            Inst::MemoryModel { .. } => {
                memory_models += 1;
                if memory_models > 1 {
                    cx.at(i, RuleId::LayoutMemoryModel, "a second OpMemoryModel; a module has exactly one");
                }
            }
            Inst::Raw { opcode, .. } if *opcode == Op::EntryPoint as u16 => entry_points += 1,
            _ => {}
        }
        let Some(s) = section(cx, inst) else { continue };
        if s < current {
            cx.at(
                i,
                RuleId::LayoutSectionOrder,
                format_args!(
                    "{} belongs to {}, which comes before {}",
                    opcode_name(inst.opcode()),
                    s.name(),
                    current.name()
                ),
            );
            continue;
        }
        current = s;
        match inst {
            Inst::Raw { opcode, .. } if *opcode == Op::Function as u16 => {
                in_function = true;
                functions += 1;
            }
            Inst::Graph { .. } => {
                graph = Some(OpenGraph { begin: i, phase: Phase::Inputs, outputs: 0, last_output: None })
            }
            _ => {}
        }
    }
    if let Some(g) = graph {
        cx.at(g.begin, RuleId::LayoutGraphUnterminated, "OpGraphARM is never closed by an OpGraphEndARM");
    }
    if memory_models == 0 {
        cx.report(RuleId::LayoutMemoryModel, None, "the module has no OpMemoryModel");
    }
    let linkage = cx.has_capability(spirv::Capability::Linkage);
    let graph_cap = cx.has_capability(spirv::Capability::GraphARM);
    if entry_points == 0 && !linkage && !graph_cap {
        cx.report(
            RuleId::LayoutEntryPoint,
            None,
            "no OpEntryPoint, and neither the Linkage nor the GraphARM capability is declared",
        );
    }
    if functions > 0 {
        cx.not_checked.push(format!(
            "{functions} function definition(s): their placement, TOSA instructions inside them and the SPV_ARM_tensors instructions (tensor reads, writes, size queries, replicated tensor composites) were checked; other shader instructions, control flow and the ids of function bodies are out of scope (use spirv-val)"
        ));
    }
}
