//! The typed instruction model: one [`Inst`] per SPIR-V instruction.
//!
//! Instructions that graph modules are made of have their own variant with
//! named fields; everything else is kept verbatim as [`Inst::Raw`]. Decoding a
//! modelled instruction is strict (operand counts, canonical strings), so that
//! encoding the decoded value reproduces the input words exactly.

use crate::binary::{decode_string, encode_string, DecodeErrorKind};
use crate::tosa::TosaOp;
use serde::Serialize;
use spirv::Op;
use std::fmt;

/// A SPIR-V result id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Id(pub u32);

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// Which extended instruction set an `OpExtInstImport` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ExtSet {
    /// `TOSA.001000.1`.
    Tosa,
    /// `NonSemantic.Graph.DebugInfo.<version>`.
    GraphDebugInfo,
    /// Any other set.
    Other,
}

/// Import name of the TOSA 1.0 instruction set.
pub const TOSA_SET_NAME: &str = "TOSA.001000.1";
/// Import name prefix of NonSemantic.Graph.DebugInfo (a version number follows).
pub const GRAPH_DEBUG_SET_PREFIX: &str = "NonSemantic.Graph.DebugInfo.";

impl ExtSet {
    /// Classifies an import name.
    pub fn from_import_name(name: &str) -> ExtSet {
        if name == TOSA_SET_NAME {
            ExtSet::Tosa
        } else if name.starts_with(GRAPH_DEBUG_SET_PREFIX) {
            ExtSet::GraphDebugInfo
        } else {
            ExtSet::Other
        }
    }
}

/// An instruction of `NonSemantic.Graph.DebugInfo`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum GraphDebugInst {
    /// `DebugGraph` (1): names a graph.
    Graph {
        /// The `OpGraphARM`.
        graph: Id,
        /// An `OpString`.
        name: Id,
    },
    /// `DebugOperation` (2): names an operation and lists its instructions.
    Operation {
        /// A `DebugGraph` result.
        debug_graph: Id,
        /// An `OpString`.
        name: Id,
        /// Result ids of instructions in that graph.
        instructions: Vec<Id>,
    },
    /// `DebugTensor` (3): names a tensor value.
    Tensor {
        /// The tensor (or composite of tensors) described.
        tensor: Id,
        /// An `OpString`.
        name: Id,
        /// Constituent index constant, for composites.
        index: Option<Id>,
    },
}

impl GraphDebugInst {
    /// The extended-instruction number.
    pub fn number(&self) -> u32 {
        match self {
            GraphDebugInst::Graph { .. } => 1,
            GraphDebugInst::Operation { .. } => 2,
            GraphDebugInst::Tensor { .. } => 3,
        }
    }

    /// The instruction name.
    pub fn name(&self) -> &'static str {
        match self {
            GraphDebugInst::Graph { .. } => "DebugGraph",
            GraphDebugInst::Operation { .. } => "DebugOperation",
            GraphDebugInst::Tensor { .. } => "DebugTensor",
        }
    }

    fn decode(number: u32, ops: &[u32]) -> Option<GraphDebugInst> {
        match (number, ops) {
            (1, [g, n]) => Some(GraphDebugInst::Graph { graph: Id(*g), name: Id(*n) }),
            (2, [g, n, rest @ ..]) if !rest.is_empty() => Some(GraphDebugInst::Operation {
                debug_graph: Id(*g),
                name: Id(*n),
                instructions: rest.iter().map(|&w| Id(w)).collect(),
            }),
            (3, [t, n]) => Some(GraphDebugInst::Tensor { tensor: Id(*t), name: Id(*n), index: None }),
            (3, [t, n, i]) => Some(GraphDebugInst::Tensor { tensor: Id(*t), name: Id(*n), index: Some(Id(*i)) }),
            _ => None,
        }
    }

    /// The operand ids, in encoding order.
    pub fn operands(&self) -> Vec<Id> {
        match self {
            GraphDebugInst::Graph { graph, name } => vec![*graph, *name],
            GraphDebugInst::Operation { debug_graph, name, instructions } => {
                let mut v = vec![*debug_graph, *name];
                v.extend_from_slice(instructions);
                v
            }
            GraphDebugInst::Tensor { tensor, name, index } => {
                let mut v = vec![*tensor, *name];
                v.extend(index.iter().copied());
                v
            }
        }
    }
}

/// One SPIR-V instruction, typed where graph modules need it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Inst {
    /// `OpCapability`.
    Capability(u32),
    /// `OpExtension`.
    Extension(String),
    /// `OpExtInstImport`.
    ExtInstImport {
        /// Result id.
        result: Id,
        /// Set name, e.g. `TOSA.001000.1`.
        name: String,
    },
    /// `OpMemoryModel`.
    MemoryModel {
        /// Addressing model.
        addressing: u32,
        /// Memory model.
        memory: u32,
    },
    /// `OpString`.
    String {
        /// Result id.
        result: Id,
        /// The text.
        text: String,
    },
    /// `OpName`.
    Name {
        /// Named id.
        target: Id,
        /// The name.
        name: String,
    },
    /// `OpLine`.
    Line {
        /// An `OpString` naming the file.
        file: Id,
        /// Line number.
        line: u32,
        /// Column number.
        column: u32,
    },
    /// `OpNoLine`.
    NoLine,
    /// `OpDecorate`.
    Decorate {
        /// Decorated id.
        target: Id,
        /// `Decoration` enumerant.
        decoration: u32,
        /// Extra literal operands (e.g. the binding number).
        literals: Vec<u32>,
    },
    /// `OpTypeVoid`.
    TypeVoid {
        /// Result id.
        result: Id,
    },
    /// `OpTypeBool`.
    TypeBool {
        /// Result id.
        result: Id,
    },
    /// `OpTypeInt`.
    TypeInt {
        /// Result id.
        result: Id,
        /// Bit width.
        width: u32,
        /// Signedness literal (0 = signless/unsigned, 1 = signed).
        signedness: u32,
    },
    /// `OpTypeFloat`.
    TypeFloat {
        /// Result id.
        result: Id,
        /// Bit width.
        width: u32,
        /// Optional `FPEncoding` (bf16, fp8).
        encoding: Option<u32>,
    },
    /// `OpTypeArray`.
    TypeArray {
        /// Result id.
        result: Id,
        /// Element type.
        element: Id,
        /// Length constant.
        length: Id,
    },
    /// `OpTypeRuntimeArray`.
    TypeRuntimeArray {
        /// Result id.
        result: Id,
        /// Element type.
        element: Id,
    },
    /// `OpTypeStruct`.
    TypeStruct {
        /// Result id.
        result: Id,
        /// Member types.
        members: Vec<Id>,
    },
    /// `OpTypePointer`.
    TypePointer {
        /// Result id.
        result: Id,
        /// Storage class.
        storage: u32,
        /// Pointee type.
        pointee: Id,
    },
    /// `OpTypeTensorARM`.
    TypeTensor {
        /// Result id.
        result: Id,
        /// Element type.
        element: Id,
        /// Rank constant (absent: unranked).
        rank: Option<Id>,
        /// Shape constant array (absent: unshaped).
        shape: Option<Id>,
    },
    /// `OpTypeGraphARM`.
    TypeGraph {
        /// Result id.
        result: Id,
        /// How many of `io` are inputs.
        num_inputs: u32,
        /// Input types then output types.
        io: Vec<Id>,
    },
    /// `OpConstantTrue` (`spec: false`) or `OpSpecConstantTrue` (`spec: true`).
    ConstantTrue {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// Specialization constant form.
        spec: bool,
    },
    /// `OpConstantFalse` / `OpSpecConstantFalse`.
    ConstantFalse {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// Specialization constant form.
        spec: bool,
    },
    /// `OpConstant` / `OpSpecConstant`: the value's raw words (low word first).
    Constant {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// Value words.
        value: Vec<u32>,
        /// Specialization constant form.
        spec: bool,
    },
    /// `OpConstantComposite` / `OpSpecConstantComposite`.
    ConstantComposite {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// Constituents.
        constituents: Vec<Id>,
        /// Specialization constant form.
        spec: bool,
    },
    /// `OpConstantCompositeReplicateEXT` / `OpSpecConstantCompositeReplicateEXT`.
    ConstantCompositeReplicate {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// The one constituent, repeated.
        constituent: Id,
        /// Specialization constant form.
        spec: bool,
    },
    /// `OpConstantNull`.
    ConstantNull {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
    },
    /// `OpGraphConstantARM`.
    GraphConstant {
        /// Result type (a tensor type).
        ty: Id,
        /// Result id.
        result: Id,
        /// `GraphConstantID` literal.
        graph_constant_id: u32,
    },
    /// `OpVariable`.
    Variable {
        /// Result type (a pointer).
        ty: Id,
        /// Result id.
        result: Id,
        /// Storage class.
        storage: u32,
        /// Optional initializer.
        initializer: Option<Id>,
    },
    /// `OpGraphEntryPointARM`.
    GraphEntryPoint {
        /// The `OpGraphARM`.
        graph: Id,
        /// Entry-point name.
        name: String,
        /// Interface variables: inputs then outputs.
        interface: Vec<Id>,
    },
    /// `OpGraphARM`.
    Graph {
        /// Result type (an `OpTypeGraphARM`).
        ty: Id,
        /// Result id.
        result: Id,
    },
    /// `OpGraphInputARM`.
    GraphInput {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// InputIndex constant.
        input_index: Id,
        /// ElementIndex constant (tensor-array inputs).
        element_index: Option<Id>,
    },
    /// `OpGraphSetOutputARM`.
    GraphSetOutput {
        /// The value written.
        value: Id,
        /// OutputIndex constant.
        output_index: Id,
        /// ElementIndex constant (tensor-array outputs).
        element_index: Option<Id>,
    },
    /// `OpGraphEndARM`.
    GraphEnd,
    /// An `OpExtInst` of `TOSA.001000.1` with a known operator number.
    Tosa {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// The `OpExtInstImport` id.
        set: Id,
        /// The operator.
        op: TosaOp,
        /// Operands in instruction order.
        args: Vec<Id>,
    },
    /// An `OpExtInst` of `NonSemantic.Graph.DebugInfo` of a known form.
    GraphDebug {
        /// Result type (void).
        ty: Id,
        /// Result id.
        result: Id,
        /// The `OpExtInstImport` id.
        set: Id,
        /// The instruction.
        inst: GraphDebugInst,
    },
    /// Any other `OpExtInst` (other sets, unknown numbers, odd operand counts).
    ExtInst {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// The `OpExtInstImport` id.
        set: Id,
        /// Instruction number in the set.
        number: u32,
        /// Operand words.
        operands: Vec<u32>,
    },
    /// `OpCompositeExtract`.
    CompositeExtract {
        /// Result type.
        ty: Id,
        /// Result id.
        result: Id,
        /// The composite.
        composite: Id,
        /// Literal indices.
        indices: Vec<u32>,
    },
    /// Any other instruction, verbatim.
    Raw {
        /// Opcode.
        opcode: u16,
        /// Operand words.
        operands: Vec<u32>,
    },
}

/// Names the operand-count rule for decode errors.
fn count_err(expected: &'static str, found: usize) -> DecodeErrorKind {
    DecodeErrorKind::OperandCount { expected, found }
}

fn string_only(ops: &[u32]) -> Result<String, DecodeErrorKind> {
    let (s, used) = decode_string(ops)?;
    if used != ops.len() {
        return Err(DecodeErrorKind::TrailingWords(ops.len() - used));
    }
    Ok(s)
}

fn ids(ws: &[u32]) -> Vec<Id> {
    ws.iter().map(|&w| Id(w)).collect()
}

impl Inst {
    /// Decodes one instruction. `ext_set` tells which set an `OpExtInst`'s set
    /// id was imported as (looked up by the module decoder).
    pub fn decode(opcode: u16, ops: &[u32], ext_set: impl Fn(Id) -> ExtSet) -> Result<Inst, DecodeErrorKind> {
        let Some(op) = Op::from_u32(u32::from(opcode)) else {
            return Ok(Inst::Raw { opcode, operands: ops.to_vec() });
        };
        let n = ops.len();
        let inst = match op {
            Op::Capability => match ops {
                [c] => Inst::Capability(*c),
                _ => return Err(count_err("1", n)),
            },
            Op::Extension => Inst::Extension(string_only(ops)?),
            Op::ExtInstImport => match ops {
                [r, rest @ ..] => Inst::ExtInstImport { result: Id(*r), name: string_only(rest)? },
                _ => return Err(count_err("at least 2", n)),
            },
            Op::MemoryModel => match ops {
                [a, m] => Inst::MemoryModel { addressing: *a, memory: *m },
                _ => return Err(count_err("2", n)),
            },
            Op::String => match ops {
                [r, rest @ ..] => Inst::String { result: Id(*r), text: string_only(rest)? },
                _ => return Err(count_err("at least 2", n)),
            },
            Op::Name => match ops {
                [t, rest @ ..] => Inst::Name { target: Id(*t), name: string_only(rest)? },
                _ => return Err(count_err("at least 2", n)),
            },
            Op::Line => match ops {
                [f, l, c] => Inst::Line { file: Id(*f), line: *l, column: *c },
                _ => return Err(count_err("3", n)),
            },
            Op::NoLine => match ops {
                [] => Inst::NoLine,
                _ => return Err(count_err("0", n)),
            },
            Op::Decorate => match ops {
                [t, d, rest @ ..] => Inst::Decorate { target: Id(*t), decoration: *d, literals: rest.to_vec() },
                _ => return Err(count_err("at least 2", n)),
            },
            Op::TypeVoid => match ops {
                [r] => Inst::TypeVoid { result: Id(*r) },
                _ => return Err(count_err("1", n)),
            },
            Op::TypeBool => match ops {
                [r] => Inst::TypeBool { result: Id(*r) },
                _ => return Err(count_err("1", n)),
            },
            Op::TypeInt => match ops {
                [r, w, s] => Inst::TypeInt { result: Id(*r), width: *w, signedness: *s },
                _ => return Err(count_err("3", n)),
            },
            Op::TypeFloat => match ops {
                [r, w] => Inst::TypeFloat { result: Id(*r), width: *w, encoding: None },
                [r, w, e] => Inst::TypeFloat { result: Id(*r), width: *w, encoding: Some(*e) },
                _ => return Err(count_err("2 or 3", n)),
            },
            Op::TypeArray => match ops {
                [r, e, l] => Inst::TypeArray { result: Id(*r), element: Id(*e), length: Id(*l) },
                _ => return Err(count_err("3", n)),
            },
            Op::TypeRuntimeArray => match ops {
                [r, e] => Inst::TypeRuntimeArray { result: Id(*r), element: Id(*e) },
                _ => return Err(count_err("2", n)),
            },
            Op::TypeStruct => match ops {
                [r, m @ ..] => Inst::TypeStruct { result: Id(*r), members: ids(m) },
                _ => return Err(count_err("at least 1", n)),
            },
            Op::TypePointer => match ops {
                [r, s, p] => Inst::TypePointer { result: Id(*r), storage: *s, pointee: Id(*p) },
                _ => return Err(count_err("3", n)),
            },
            Op::TypeTensorARM => match ops {
                [r, e] => Inst::TypeTensor { result: Id(*r), element: Id(*e), rank: None, shape: None },
                [r, e, k] => Inst::TypeTensor { result: Id(*r), element: Id(*e), rank: Some(Id(*k)), shape: None },
                [r, e, k, s] => {
                    Inst::TypeTensor { result: Id(*r), element: Id(*e), rank: Some(Id(*k)), shape: Some(Id(*s)) }
                }
                _ => return Err(count_err("2 to 4", n)),
            },
            Op::TypeGraphARM => match ops {
                [r, k, io @ ..] => Inst::TypeGraph { result: Id(*r), num_inputs: *k, io: ids(io) },
                _ => return Err(count_err("at least 2", n)),
            },
            Op::ConstantTrue | Op::SpecConstantTrue => match ops {
                [t, r] => Inst::ConstantTrue { ty: Id(*t), result: Id(*r), spec: op == Op::SpecConstantTrue },
                _ => return Err(count_err("2", n)),
            },
            Op::ConstantFalse | Op::SpecConstantFalse => match ops {
                [t, r] => Inst::ConstantFalse { ty: Id(*t), result: Id(*r), spec: op == Op::SpecConstantFalse },
                _ => return Err(count_err("2", n)),
            },
            Op::Constant | Op::SpecConstant => match ops {
                [t, r, v @ ..] if !v.is_empty() => {
                    Inst::Constant { ty: Id(*t), result: Id(*r), value: v.to_vec(), spec: op == Op::SpecConstant }
                }
                _ => return Err(count_err("at least 3", n)),
            },
            Op::ConstantComposite | Op::SpecConstantComposite => match ops {
                [t, r, c @ ..] => Inst::ConstantComposite {
                    ty: Id(*t),
                    result: Id(*r),
                    constituents: ids(c),
                    spec: op == Op::SpecConstantComposite,
                },
                _ => return Err(count_err("at least 2", n)),
            },
            Op::ConstantCompositeReplicateEXT | Op::SpecConstantCompositeReplicateEXT => match ops {
                [t, r, c] => Inst::ConstantCompositeReplicate {
                    ty: Id(*t),
                    result: Id(*r),
                    constituent: Id(*c),
                    spec: op == Op::SpecConstantCompositeReplicateEXT,
                },
                _ => return Err(count_err("3", n)),
            },
            Op::ConstantNull => match ops {
                [t, r] => Inst::ConstantNull { ty: Id(*t), result: Id(*r) },
                _ => return Err(count_err("2", n)),
            },
            Op::GraphConstantARM => match ops {
                [t, r, k] => Inst::GraphConstant { ty: Id(*t), result: Id(*r), graph_constant_id: *k },
                _ => return Err(count_err("3", n)),
            },
            Op::Variable => match ops {
                [t, r, s] => Inst::Variable { ty: Id(*t), result: Id(*r), storage: *s, initializer: None },
                [t, r, s, i] => Inst::Variable { ty: Id(*t), result: Id(*r), storage: *s, initializer: Some(Id(*i)) },
                _ => return Err(count_err("3 or 4", n)),
            },
            Op::GraphEntryPointARM => match ops {
                [g, rest @ ..] => {
                    let (name, used) = decode_string(rest)?;
                    let interface = rest.get(used..).map(ids).unwrap_or_default();
                    Inst::GraphEntryPoint { graph: Id(*g), name, interface }
                }
                _ => return Err(count_err("at least 2", n)),
            },
            Op::GraphARM => match ops {
                [t, r] => Inst::Graph { ty: Id(*t), result: Id(*r) },
                _ => return Err(count_err("2", n)),
            },
            Op::GraphInputARM => match ops {
                [t, r, i] => Inst::GraphInput { ty: Id(*t), result: Id(*r), input_index: Id(*i), element_index: None },
                [t, r, i, e] => {
                    Inst::GraphInput { ty: Id(*t), result: Id(*r), input_index: Id(*i), element_index: Some(Id(*e)) }
                }
                _ => return Err(count_err("3 or 4", n)),
            },
            Op::GraphSetOutputARM => match ops {
                [v, i] => Inst::GraphSetOutput { value: Id(*v), output_index: Id(*i), element_index: None },
                [v, i, e] => Inst::GraphSetOutput { value: Id(*v), output_index: Id(*i), element_index: Some(Id(*e)) },
                _ => return Err(count_err("2 or 3", n)),
            },
            Op::GraphEndARM => match ops {
                [] => Inst::GraphEnd,
                _ => return Err(count_err("0", n)),
            },
            Op::ExtInst => match ops {
                [t, r, s, k, rest @ ..] => {
                    let (ty, result, set, number) = (Id(*t), Id(*r), Id(*s), *k);
                    let typed = match ext_set(set) {
                        ExtSet::Tosa => {
                            TosaOp::from_opcode(number).map(|op| Inst::Tosa { ty, result, set, op, args: ids(rest) })
                        }
                        ExtSet::GraphDebugInfo => {
                            GraphDebugInst::decode(number, rest).map(|inst| Inst::GraphDebug { ty, result, set, inst })
                        }
                        ExtSet::Other => None,
                    };
                    typed.unwrap_or_else(|| Inst::ExtInst { ty, result, set, number, operands: rest.to_vec() })
                }
                _ => return Err(count_err("at least 4", n)),
            },
            Op::CompositeExtract => match ops {
                [t, r, c, idx @ ..] => {
                    Inst::CompositeExtract { ty: Id(*t), result: Id(*r), composite: Id(*c), indices: idx.to_vec() }
                }
                _ => return Err(count_err("at least 3", n)),
            },
            _ => Inst::Raw { opcode, operands: ops.to_vec() },
        };
        Ok(inst)
    }

    /// The opcode this instruction encodes to.
    pub fn opcode(&self) -> u16 {
        let op = match self {
            Inst::Capability(_) => Op::Capability,
            Inst::Extension(_) => Op::Extension,
            Inst::ExtInstImport { .. } => Op::ExtInstImport,
            Inst::MemoryModel { .. } => Op::MemoryModel,
            Inst::String { .. } => Op::String,
            Inst::Name { .. } => Op::Name,
            Inst::Line { .. } => Op::Line,
            Inst::NoLine => Op::NoLine,
            Inst::Decorate { .. } => Op::Decorate,
            Inst::TypeVoid { .. } => Op::TypeVoid,
            Inst::TypeBool { .. } => Op::TypeBool,
            Inst::TypeInt { .. } => Op::TypeInt,
            Inst::TypeFloat { .. } => Op::TypeFloat,
            Inst::TypeArray { .. } => Op::TypeArray,
            Inst::TypeRuntimeArray { .. } => Op::TypeRuntimeArray,
            Inst::TypeStruct { .. } => Op::TypeStruct,
            Inst::TypePointer { .. } => Op::TypePointer,
            Inst::TypeTensor { .. } => Op::TypeTensorARM,
            Inst::TypeGraph { .. } => Op::TypeGraphARM,
            Inst::ConstantTrue { spec: false, .. } => Op::ConstantTrue,
            Inst::ConstantTrue { spec: true, .. } => Op::SpecConstantTrue,
            Inst::ConstantFalse { spec: false, .. } => Op::ConstantFalse,
            Inst::ConstantFalse { spec: true, .. } => Op::SpecConstantFalse,
            Inst::Constant { spec: false, .. } => Op::Constant,
            Inst::Constant { spec: true, .. } => Op::SpecConstant,
            Inst::ConstantComposite { spec: false, .. } => Op::ConstantComposite,
            Inst::ConstantComposite { spec: true, .. } => Op::SpecConstantComposite,
            Inst::ConstantCompositeReplicate { spec: false, .. } => Op::ConstantCompositeReplicateEXT,
            Inst::ConstantCompositeReplicate { spec: true, .. } => Op::SpecConstantCompositeReplicateEXT,
            Inst::ConstantNull { .. } => Op::ConstantNull,
            Inst::GraphConstant { .. } => Op::GraphConstantARM,
            Inst::Variable { .. } => Op::Variable,
            Inst::GraphEntryPoint { .. } => Op::GraphEntryPointARM,
            Inst::Graph { .. } => Op::GraphARM,
            Inst::GraphInput { .. } => Op::GraphInputARM,
            Inst::GraphSetOutput { .. } => Op::GraphSetOutputARM,
            Inst::GraphEnd => Op::GraphEndARM,
            Inst::Tosa { .. } | Inst::GraphDebug { .. } | Inst::ExtInst { .. } => Op::ExtInst,
            Inst::CompositeExtract { .. } => Op::CompositeExtract,
            Inst::Raw { opcode, .. } => return *opcode,
        };
        op as u16
    }

    /// Appends the operand words (not the opcode/word-count word).
    pub fn encode_operands(&self, out: &mut Vec<u32>) {
        match self {
            Inst::Capability(c) => out.push(*c),
            Inst::Extension(s) => encode_string(out, s),
            Inst::ExtInstImport { result, name } => {
                out.push(result.0);
                encode_string(out, name);
            }
            Inst::MemoryModel { addressing, memory } => out.extend([*addressing, *memory]),
            Inst::String { result, text } => {
                out.push(result.0);
                encode_string(out, text);
            }
            Inst::Name { target, name } => {
                out.push(target.0);
                encode_string(out, name);
            }
            Inst::Line { file, line, column } => out.extend([file.0, *line, *column]),
            Inst::NoLine | Inst::GraphEnd => {}
            Inst::Decorate { target, decoration, literals } => {
                out.extend([target.0, *decoration]);
                out.extend_from_slice(literals);
            }
            Inst::TypeVoid { result } | Inst::TypeBool { result } => out.push(result.0),
            Inst::TypeInt { result, width, signedness } => out.extend([result.0, *width, *signedness]),
            Inst::TypeFloat { result, width, encoding } => {
                out.extend([result.0, *width]);
                out.extend(encoding.iter().copied());
            }
            Inst::TypeArray { result, element, length } => out.extend([result.0, element.0, length.0]),
            Inst::TypeRuntimeArray { result, element } => out.extend([result.0, element.0]),
            Inst::TypeStruct { result, members } => {
                out.push(result.0);
                out.extend(members.iter().map(|m| m.0));
            }
            Inst::TypePointer { result, storage, pointee } => out.extend([result.0, *storage, pointee.0]),
            Inst::TypeTensor { result, element, rank, shape } => {
                out.extend([result.0, element.0]);
                out.extend(rank.iter().chain(shape.iter()).map(|i| i.0));
            }
            Inst::TypeGraph { result, num_inputs, io } => {
                out.extend([result.0, *num_inputs]);
                out.extend(io.iter().map(|i| i.0));
            }
            Inst::ConstantTrue { ty, result, .. }
            | Inst::ConstantFalse { ty, result, .. }
            | Inst::ConstantNull { ty, result }
            | Inst::Graph { ty, result } => out.extend([ty.0, result.0]),
            Inst::Constant { ty, result, value, .. } => {
                out.extend([ty.0, result.0]);
                out.extend_from_slice(value);
            }
            Inst::ConstantComposite { ty, result, constituents, .. } => {
                out.extend([ty.0, result.0]);
                out.extend(constituents.iter().map(|c| c.0));
            }
            Inst::ConstantCompositeReplicate { ty, result, constituent, .. } => {
                out.extend([ty.0, result.0, constituent.0])
            }
            Inst::GraphConstant { ty, result, graph_constant_id } => out.extend([ty.0, result.0, *graph_constant_id]),
            Inst::Variable { ty, result, storage, initializer } => {
                out.extend([ty.0, result.0, *storage]);
                out.extend(initializer.iter().map(|i| i.0));
            }
            Inst::GraphEntryPoint { graph, name, interface } => {
                out.push(graph.0);
                encode_string(out, name);
                out.extend(interface.iter().map(|i| i.0));
            }
            Inst::GraphInput { ty, result, input_index, element_index } => {
                out.extend([ty.0, result.0, input_index.0]);
                out.extend(element_index.iter().map(|i| i.0));
            }
            Inst::GraphSetOutput { value, output_index, element_index } => {
                out.extend([value.0, output_index.0]);
                out.extend(element_index.iter().map(|i| i.0));
            }
            Inst::Tosa { ty, result, set, op, args } => {
                out.extend([ty.0, result.0, set.0, op.opcode()]);
                out.extend(args.iter().map(|a| a.0));
            }
            Inst::GraphDebug { ty, result, set, inst } => {
                out.extend([ty.0, result.0, set.0, inst.number()]);
                out.extend(inst.operands().iter().map(|a| a.0));
            }
            Inst::ExtInst { ty, result, set, number, operands } => {
                out.extend([ty.0, result.0, set.0, *number]);
                out.extend_from_slice(operands);
            }
            Inst::CompositeExtract { ty, result, composite, indices } => {
                out.extend([ty.0, result.0, composite.0]);
                out.extend_from_slice(indices);
            }
            Inst::Raw { operands, .. } => out.extend_from_slice(operands),
        }
    }

    /// The result id this instruction defines, if any.
    ///
    /// For `Raw` instructions the `spirv` grammar says whether (and where) a
    /// result id is.
    pub fn result_id(&self) -> Option<Id> {
        match self {
            Inst::ExtInstImport { result, .. }
            | Inst::String { result, .. }
            | Inst::TypeVoid { result }
            | Inst::TypeBool { result }
            | Inst::TypeInt { result, .. }
            | Inst::TypeFloat { result, .. }
            | Inst::TypeArray { result, .. }
            | Inst::TypeRuntimeArray { result, .. }
            | Inst::TypeStruct { result, .. }
            | Inst::TypePointer { result, .. }
            | Inst::TypeTensor { result, .. }
            | Inst::TypeGraph { result, .. }
            | Inst::ConstantTrue { result, .. }
            | Inst::ConstantFalse { result, .. }
            | Inst::Constant { result, .. }
            | Inst::ConstantComposite { result, .. }
            | Inst::ConstantCompositeReplicate { result, .. }
            | Inst::ConstantNull { result, .. }
            | Inst::GraphConstant { result, .. }
            | Inst::Variable { result, .. }
            | Inst::Graph { result, .. }
            | Inst::GraphInput { result, .. }
            | Inst::Tosa { result, .. }
            | Inst::GraphDebug { result, .. }
            | Inst::ExtInst { result, .. }
            | Inst::CompositeExtract { result, .. } => Some(*result),
            Inst::Raw { opcode, operands } => raw_result_id(*opcode, operands),
            _ => None,
        }
    }

    /// The result type id, if this instruction has one.
    pub fn result_type(&self) -> Option<Id> {
        match self {
            Inst::ConstantTrue { ty, .. }
            | Inst::ConstantFalse { ty, .. }
            | Inst::Constant { ty, .. }
            | Inst::ConstantComposite { ty, .. }
            | Inst::ConstantCompositeReplicate { ty, .. }
            | Inst::ConstantNull { ty, .. }
            | Inst::GraphConstant { ty, .. }
            | Inst::Variable { ty, .. }
            | Inst::Graph { ty, .. }
            | Inst::GraphInput { ty, .. }
            | Inst::Tosa { ty, .. }
            | Inst::GraphDebug { ty, .. }
            | Inst::ExtInst { ty, .. }
            | Inst::CompositeExtract { ty, .. } => Some(*ty),
            Inst::Raw { opcode, operands } => {
                let (has_type, _) = raw_result_layout(*opcode);
                if has_type {
                    operands.first().map(|&w| Id(w))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// True for the constant-declaring instructions (including spec constants
    /// and `OpGraphConstantARM`, which SPV_ARM_graph makes a constant instruction).
    pub fn is_constant(&self) -> bool {
        matches!(
            self,
            Inst::ConstantTrue { .. }
                | Inst::ConstantFalse { .. }
                | Inst::Constant { .. }
                | Inst::ConstantComposite { .. }
                | Inst::ConstantCompositeReplicate { .. }
                | Inst::ConstantNull { .. }
                | Inst::GraphConstant { .. }
        ) || matches!(self, Inst::Raw { opcode, .. } if *opcode == Op::SpecConstantOp as u16)
    }

    /// True for the type-declaring instructions.
    pub fn is_type(&self) -> bool {
        match self {
            Inst::TypeVoid { .. }
            | Inst::TypeBool { .. }
            | Inst::TypeInt { .. }
            | Inst::TypeFloat { .. }
            | Inst::TypeArray { .. }
            | Inst::TypeRuntimeArray { .. }
            | Inst::TypeStruct { .. }
            | Inst::TypePointer { .. }
            | Inst::TypeTensor { .. }
            | Inst::TypeGraph { .. } => true,
            Inst::Raw { opcode, .. } => Op::from_u32(u32::from(*opcode)).is_some_and(|op| op.is_type()),
            _ => false,
        }
    }
}

/// Whether a core opcode has a result type and a result id, from the grammar.
fn raw_result_layout(opcode: u16) -> (bool, bool) {
    use rspirv::grammar::{OperandKind, INSTRUCTION_TABLE};
    use std::collections::HashMap;
    use std::sync::OnceLock;
    // The grammar lookup is a linear scan; raw instructions are looked up often.
    static LAYOUT: OnceLock<HashMap<u32, (bool, bool)>> = OnceLock::new();
    let table = LAYOUT.get_or_init(|| {
        INSTRUCTION_TABLE
            .iter()
            .map(|g| {
                let has_type = g.operands.first().is_some_and(|o| o.kind == OperandKind::IdResultType);
                let has_result = g.operands.iter().take(2).any(|o| o.kind == OperandKind::IdResult);
                (g.opcode as u32, (has_type, has_result))
            })
            .collect()
    });
    table.get(&u32::from(opcode)).copied().unwrap_or((false, false))
}

fn raw_result_id(opcode: u16, operands: &[u32]) -> Option<Id> {
    match raw_result_layout(opcode) {
        (true, true) => operands.get(1).map(|&w| Id(w)),
        (false, true) => operands.first().map(|&w| Id(w)),
        _ => None,
    }
}
