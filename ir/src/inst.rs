//! The typed instruction model: one [`Inst`] per SPIR-V instruction.
//!
//! Instructions that graph modules are made of have their own variant with
//! named fields; everything else is kept verbatim as [`Inst::Raw`]. Decoding a
//! modelled instruction is strict (operand counts, canonical strings), so that
//! encoding the decoded value reproduces the input words exactly.

use crate::binary::{decode_string_in, encode_string, DecodeErrorKind};
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
    /// Any other `NonSemantic.*` set (SPV_KHR_non_semantic_info: its
    /// instructions have no semantic impact and may be removed).
    NonSemantic,
    /// Any other set.
    Other,
}

/// Import name of the TOSA 1.0 instruction set.
pub const TOSA_SET_NAME: &str = "TOSA.001000.1";
/// Import name prefix of NonSemantic.Graph.DebugInfo (a version number follows).
pub const GRAPH_DEBUG_SET_PREFIX: &str = "NonSemantic.Graph.DebugInfo.";
/// Import name prefix of every non-semantic set (SPV_KHR_non_semantic_info).
pub const NON_SEMANTIC_SET_PREFIX: &str = "NonSemantic.";

impl ExtSet {
    /// Classifies an import name.
    pub fn from_import_name(name: &str) -> ExtSet {
        if name == TOSA_SET_NAME {
            ExtSet::Tosa
        } else if name.starts_with(GRAPH_DEBUG_SET_PREFIX) {
            ExtSet::GraphDebugInfo
        } else if name.starts_with(NON_SEMANTIC_SET_PREFIX) {
            ExtSet::NonSemantic
        } else {
            ExtSet::Other
        }
    }

    /// Whether the set is non-semantic (its instructions may stand anywhere
    /// from the types section on, graph bodies included, and can be removed).
    pub fn is_non_semantic(self) -> bool {
        matches!(self, ExtSet::GraphDebugInfo | ExtSet::NonSemantic)
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

    fn decode(number: u32, ops: &[u32], pool: &mut Recycler) -> Option<GraphDebugInst> {
        match (number, ops) {
            (1, [g, n]) => Some(GraphDebugInst::Graph { graph: Id(*g), name: Id(*n) }),
            (2, [g, n, rest @ ..]) if !rest.is_empty() => {
                Some(GraphDebugInst::Operation { debug_graph: Id(*g), name: Id(*n), instructions: pool.ids(rest) })
            }
            (3, [t, n]) => Some(GraphDebugInst::Tensor { tensor: Id(*t), name: Id(*n), index: None }),
            (3, [t, n, i]) => Some(GraphDebugInst::Tensor { tensor: Id(*t), name: Id(*n), index: Some(Id(*i)) }),
            _ => None,
        }
    }

    /// The operand ids, in encoding order, without collecting them.
    pub fn operand_ids(&self) -> impl Iterator<Item = Id> + '_ {
        let (head, rest, last): ([Id; 2], &[Id], Option<Id>) = match self {
            GraphDebugInst::Graph { graph, name } => ([*graph, *name], &[], None),
            GraphDebugInst::Operation { debug_graph, name, instructions } => {
                ([*debug_graph, *name], instructions, None)
            }
            GraphDebugInst::Tensor { tensor, name, index } => ([*tensor, *name], &[], *index),
        };
        head.into_iter().chain(rest.iter().copied()).chain(last)
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

/// The opcode numbers [`Inst::decode`] models, as `u16` constants it can
/// match on.
mod opcodes {
    use spirv::Op;
    pub const CAPABILITY: u16 = Op::Capability as u16;
    pub const EXTENSION: u16 = Op::Extension as u16;
    pub const EXT_INST_IMPORT: u16 = Op::ExtInstImport as u16;
    pub const MEMORY_MODEL: u16 = Op::MemoryModel as u16;
    pub const STRING: u16 = Op::String as u16;
    pub const NAME: u16 = Op::Name as u16;
    pub const LINE: u16 = Op::Line as u16;
    pub const NO_LINE: u16 = Op::NoLine as u16;
    pub const DECORATE: u16 = Op::Decorate as u16;
    pub const TYPE_VOID: u16 = Op::TypeVoid as u16;
    pub const TYPE_BOOL: u16 = Op::TypeBool as u16;
    pub const TYPE_INT: u16 = Op::TypeInt as u16;
    pub const TYPE_FLOAT: u16 = Op::TypeFloat as u16;
    pub const TYPE_ARRAY: u16 = Op::TypeArray as u16;
    pub const TYPE_RUNTIME_ARRAY: u16 = Op::TypeRuntimeArray as u16;
    pub const TYPE_STRUCT: u16 = Op::TypeStruct as u16;
    pub const TYPE_POINTER: u16 = Op::TypePointer as u16;
    pub const TYPE_TENSOR_ARM: u16 = Op::TypeTensorARM as u16;
    pub const TYPE_GRAPH_ARM: u16 = Op::TypeGraphARM as u16;
    pub const CONSTANT_TRUE: u16 = Op::ConstantTrue as u16;
    pub const SPEC_CONSTANT_TRUE: u16 = Op::SpecConstantTrue as u16;
    pub const CONSTANT_FALSE: u16 = Op::ConstantFalse as u16;
    pub const SPEC_CONSTANT_FALSE: u16 = Op::SpecConstantFalse as u16;
    pub const CONSTANT: u16 = Op::Constant as u16;
    pub const SPEC_CONSTANT: u16 = Op::SpecConstant as u16;
    pub const CONSTANT_COMPOSITE: u16 = Op::ConstantComposite as u16;
    pub const SPEC_CONSTANT_COMPOSITE: u16 = Op::SpecConstantComposite as u16;
    pub const CONSTANT_COMPOSITE_REPLICATE_EXT: u16 = Op::ConstantCompositeReplicateEXT as u16;
    pub const SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT: u16 = Op::SpecConstantCompositeReplicateEXT as u16;
    pub const CONSTANT_NULL: u16 = Op::ConstantNull as u16;
    pub const GRAPH_CONSTANT_ARM: u16 = Op::GraphConstantARM as u16;
    pub const VARIABLE: u16 = Op::Variable as u16;
    pub const GRAPH_ENTRY_POINT_ARM: u16 = Op::GraphEntryPointARM as u16;
    pub const GRAPH_ARM: u16 = Op::GraphARM as u16;
    pub const GRAPH_INPUT_ARM: u16 = Op::GraphInputARM as u16;
    pub const GRAPH_SET_OUTPUT_ARM: u16 = Op::GraphSetOutputARM as u16;
    pub const GRAPH_END_ARM: u16 = Op::GraphEndARM as u16;
    pub const EXT_INST: u16 = Op::ExtInst as u16;
    pub const COMPOSITE_EXTRACT: u16 = Op::CompositeExtract as u16;
}

/// Names the operand-count rule for decode errors.
fn count_err(expected: &'static str, found: usize) -> DecodeErrorKind {
    DecodeErrorKind::OperandCount { expected, found }
}

fn string_only(ops: &[u32], pool: &mut Recycler) -> Result<String, DecodeErrorKind> {
    let (s, used) = decode_string_in(ops, pool.bytes())?;
    if used != ops.len() {
        return Err(DecodeErrorKind::TrailingWords(ops.len() - used));
    }
    Ok(s)
}

/// Vectors and strings kept from instructions that are no longer needed,
/// so that decoding the next module takes them instead of allocating (see
/// [`crate::Module::decode_words_recycling`]). The kept vectors are empty.
#[derive(Debug, Default)]
pub struct Recycler {
    insts: Vec<Inst>,
    words: Vec<Vec<u32>>,
    ids: Vec<Vec<Id>>,
    bytes: Vec<Vec<u8>>,
}

/// At most this many vectors of each kind are kept.
const POOL_LIMIT: usize = 1 << 12;
/// Vectors with more capacity than this are not kept (nor instruction
/// vectors with more than `INSTS_LIMIT`): only hostile modules make them.
const ITEM_LIMIT: usize = 1 << 10;
const INSTS_LIMIT: usize = 1 << 14;

fn keep<T>(pool: &mut Vec<Vec<T>>, mut v: Vec<T>) {
    if pool.len() < POOL_LIMIT && v.capacity() <= ITEM_LIMIT && v.capacity() > 0 {
        v.clear();
        pool.push(v);
    }
}

impl Recycler {
    fn words(&mut self, src: &[u32]) -> Vec<u32> {
        match self.words.pop() {
            Some(mut v) => {
                v.extend_from_slice(src);
                v
            }
            None => src.to_vec(),
        }
    }

    fn ids(&mut self, src: &[u32]) -> Vec<Id> {
        match self.ids.pop() {
            Some(mut v) => {
                v.extend(src.iter().map(|&w| Id(w)));
                v
            }
            None => src.iter().map(|&w| Id(w)).collect(),
        }
    }

    fn bytes(&mut self) -> Vec<u8> {
        self.bytes.pop().unwrap_or_default()
    }

    /// The kept instruction vector (empty), for the next module.
    pub fn take_insts(&mut self) -> Vec<Inst> {
        std::mem::take(&mut self.insts)
    }

    /// Takes back an instruction vector and everything its instructions
    /// own, to hand out again.
    pub fn reclaim(&mut self, mut insts: Vec<Inst>) {
        // Last first, so that the next module's first instructions get the
        // previous module's first instructions' vectors (similar sizes).
        while let Some(inst) = insts.pop() {
            self.reclaim_one(inst);
        }
        if insts.capacity() <= INSTS_LIMIT && insts.capacity() > self.insts.capacity() {
            self.insts = insts;
        }
    }

    /// Takes back what one instruction owns.
    #[inline]
    pub fn reclaim_one(&mut self, inst: Inst) {
        match inst {
            Inst::Extension(s)
            | Inst::ExtInstImport { name: s, .. }
            | Inst::String { text: s, .. }
            | Inst::Name { name: s, .. } => keep(&mut self.bytes, s.into_bytes()),
            Inst::GraphEntryPoint { name, interface, .. } => {
                keep(&mut self.bytes, name.into_bytes());
                keep(&mut self.ids, interface);
            }
            Inst::Decorate { literals: v, .. }
            | Inst::Constant { value: v, .. }
            | Inst::ExtInst { operands: v, .. }
            | Inst::CompositeExtract { indices: v, .. }
            | Inst::Raw { operands: v, .. } => keep(&mut self.words, v),
            Inst::TypeStruct { members: v, .. }
            | Inst::TypeGraph { io: v, .. }
            | Inst::ConstantComposite { constituents: v, .. }
            | Inst::Tosa { args: v, .. }
            | Inst::GraphDebug { inst: GraphDebugInst::Operation { instructions: v, .. }, .. } => {
                keep(&mut self.ids, v)
            }
            _ => {}
        }
    }
}

/// `$body` with `$result` bound to the result id of a typed instruction
/// that defines one, else `None`: the one list of such instructions.
macro_rules! typed_result {
    ($inst:expr, $result:ident => $body:expr) => {
        match $inst {
            Inst::ExtInstImport { result: $result, .. }
            | Inst::String { result: $result, .. }
            | Inst::TypeVoid { result: $result, .. }
            | Inst::TypeBool { result: $result, .. }
            | Inst::TypeInt { result: $result, .. }
            | Inst::TypeFloat { result: $result, .. }
            | Inst::TypeArray { result: $result, .. }
            | Inst::TypeRuntimeArray { result: $result, .. }
            | Inst::TypeStruct { result: $result, .. }
            | Inst::TypePointer { result: $result, .. }
            | Inst::TypeTensor { result: $result, .. }
            | Inst::TypeGraph { result: $result, .. }
            | Inst::ConstantTrue { result: $result, .. }
            | Inst::ConstantFalse { result: $result, .. }
            | Inst::Constant { result: $result, .. }
            | Inst::ConstantComposite { result: $result, .. }
            | Inst::ConstantCompositeReplicate { result: $result, .. }
            | Inst::ConstantNull { result: $result, .. }
            | Inst::GraphConstant { result: $result, .. }
            | Inst::Variable { result: $result, .. }
            | Inst::Graph { result: $result, .. }
            | Inst::GraphInput { result: $result, .. }
            | Inst::Tosa { result: $result, .. }
            | Inst::GraphDebug { result: $result, .. }
            | Inst::ExtInst { result: $result, .. }
            | Inst::CompositeExtract { result: $result, .. } => $body,
            _ => None,
        }
    };
}

impl Inst {
    /// Decodes one instruction. `ext_set` tells which set an `OpExtInst`'s set
    /// id was imported as (looked up by the module decoder).
    pub fn decode(opcode: u16, ops: &[u32], ext_set: impl Fn(Id) -> ExtSet) -> Result<Inst, DecodeErrorKind> {
        Inst::decode_recycling(opcode, ops, ext_set, &mut Recycler::default())
    }

    /// [`Inst::decode`] with the vectors and strings taken from `pool`.
    pub fn decode_recycling(
        opcode: u16,
        ops: &[u32],
        ext_set: impl Fn(Id) -> ExtSet,
        pool: &mut Recycler,
    ) -> Result<Inst, DecodeErrorKind> {
        use opcodes::*;
        let n = ops.len();
        // Matching the opcode number directly: `Op::from_u32` is a long
        // search, and every opcode this model does not name is Raw anyway.
        let inst = match opcode {
            CAPABILITY => match ops {
                [c] => Inst::Capability(*c),
                _ => return Err(count_err("1", n)),
            },
            EXTENSION => Inst::Extension(string_only(ops, pool)?),
            EXT_INST_IMPORT => match ops {
                [r, rest @ ..] => Inst::ExtInstImport { result: Id(*r), name: string_only(rest, pool)? },
                _ => return Err(count_err("at least 2", n)),
            },
            MEMORY_MODEL => match ops {
                [a, m] => Inst::MemoryModel { addressing: *a, memory: *m },
                _ => return Err(count_err("2", n)),
            },
            STRING => match ops {
                [r, rest @ ..] => Inst::String { result: Id(*r), text: string_only(rest, pool)? },
                _ => return Err(count_err("at least 2", n)),
            },
            NAME => match ops {
                [t, rest @ ..] => Inst::Name { target: Id(*t), name: string_only(rest, pool)? },
                _ => return Err(count_err("at least 2", n)),
            },
            LINE => match ops {
                [f, l, c] => Inst::Line { file: Id(*f), line: *l, column: *c },
                _ => return Err(count_err("3", n)),
            },
            NO_LINE => match ops {
                [] => Inst::NoLine,
                _ => return Err(count_err("0", n)),
            },
            DECORATE => match ops {
                [t, d, rest @ ..] => Inst::Decorate { target: Id(*t), decoration: *d, literals: pool.words(rest) },
                _ => return Err(count_err("at least 2", n)),
            },
            TYPE_VOID => match ops {
                [r] => Inst::TypeVoid { result: Id(*r) },
                _ => return Err(count_err("1", n)),
            },
            TYPE_BOOL => match ops {
                [r] => Inst::TypeBool { result: Id(*r) },
                _ => return Err(count_err("1", n)),
            },
            TYPE_INT => match ops {
                [r, w, s] => Inst::TypeInt { result: Id(*r), width: *w, signedness: *s },
                _ => return Err(count_err("3", n)),
            },
            TYPE_FLOAT => match ops {
                [r, w] => Inst::TypeFloat { result: Id(*r), width: *w, encoding: None },
                [r, w, e] => Inst::TypeFloat { result: Id(*r), width: *w, encoding: Some(*e) },
                _ => return Err(count_err("2 or 3", n)),
            },
            TYPE_ARRAY => match ops {
                [r, e, l] => Inst::TypeArray { result: Id(*r), element: Id(*e), length: Id(*l) },
                _ => return Err(count_err("3", n)),
            },
            TYPE_RUNTIME_ARRAY => match ops {
                [r, e] => Inst::TypeRuntimeArray { result: Id(*r), element: Id(*e) },
                _ => return Err(count_err("2", n)),
            },
            TYPE_STRUCT => match ops {
                [r, m @ ..] => Inst::TypeStruct { result: Id(*r), members: pool.ids(m) },
                _ => return Err(count_err("at least 1", n)),
            },
            TYPE_POINTER => match ops {
                [r, s, p] => Inst::TypePointer { result: Id(*r), storage: *s, pointee: Id(*p) },
                _ => return Err(count_err("3", n)),
            },
            TYPE_TENSOR_ARM => match ops {
                [r, e] => Inst::TypeTensor { result: Id(*r), element: Id(*e), rank: None, shape: None },
                [r, e, k] => Inst::TypeTensor { result: Id(*r), element: Id(*e), rank: Some(Id(*k)), shape: None },
                [r, e, k, s] => {
                    Inst::TypeTensor { result: Id(*r), element: Id(*e), rank: Some(Id(*k)), shape: Some(Id(*s)) }
                }
                _ => return Err(count_err("2 to 4", n)),
            },
            TYPE_GRAPH_ARM => match ops {
                [r, k, io @ ..] => Inst::TypeGraph { result: Id(*r), num_inputs: *k, io: pool.ids(io) },
                _ => return Err(count_err("at least 2", n)),
            },
            CONSTANT_TRUE | SPEC_CONSTANT_TRUE => match ops {
                [t, r] => Inst::ConstantTrue { ty: Id(*t), result: Id(*r), spec: opcode == SPEC_CONSTANT_TRUE },
                _ => return Err(count_err("2", n)),
            },
            CONSTANT_FALSE | SPEC_CONSTANT_FALSE => match ops {
                [t, r] => Inst::ConstantFalse { ty: Id(*t), result: Id(*r), spec: opcode == SPEC_CONSTANT_FALSE },
                _ => return Err(count_err("2", n)),
            },
            CONSTANT | SPEC_CONSTANT => match ops {
                [t, r, v @ ..] if !v.is_empty() => {
                    Inst::Constant { ty: Id(*t), result: Id(*r), value: pool.words(v), spec: opcode == SPEC_CONSTANT }
                }
                _ => return Err(count_err("at least 3", n)),
            },
            CONSTANT_COMPOSITE | SPEC_CONSTANT_COMPOSITE => match ops {
                [t, r, c @ ..] => Inst::ConstantComposite {
                    ty: Id(*t),
                    result: Id(*r),
                    constituents: pool.ids(c),
                    spec: opcode == SPEC_CONSTANT_COMPOSITE,
                },
                _ => return Err(count_err("at least 2", n)),
            },
            CONSTANT_COMPOSITE_REPLICATE_EXT | SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT => match ops {
                [t, r, c] => Inst::ConstantCompositeReplicate {
                    ty: Id(*t),
                    result: Id(*r),
                    constituent: Id(*c),
                    spec: opcode == SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT,
                },
                _ => return Err(count_err("3", n)),
            },
            CONSTANT_NULL => match ops {
                [t, r] => Inst::ConstantNull { ty: Id(*t), result: Id(*r) },
                _ => return Err(count_err("2", n)),
            },
            GRAPH_CONSTANT_ARM => match ops {
                [t, r, k] => Inst::GraphConstant { ty: Id(*t), result: Id(*r), graph_constant_id: *k },
                _ => return Err(count_err("3", n)),
            },
            VARIABLE => match ops {
                [t, r, s] => Inst::Variable { ty: Id(*t), result: Id(*r), storage: *s, initializer: None },
                [t, r, s, i] => Inst::Variable { ty: Id(*t), result: Id(*r), storage: *s, initializer: Some(Id(*i)) },
                _ => return Err(count_err("3 or 4", n)),
            },
            GRAPH_ENTRY_POINT_ARM => match ops {
                [g, rest @ ..] => {
                    let (name, used) = decode_string_in(rest, pool.bytes())?;
                    let interface = pool.ids(rest.get(used..).unwrap_or_default());
                    Inst::GraphEntryPoint { graph: Id(*g), name, interface }
                }
                _ => return Err(count_err("at least 2", n)),
            },
            GRAPH_ARM => match ops {
                [t, r] => Inst::Graph { ty: Id(*t), result: Id(*r) },
                _ => return Err(count_err("2", n)),
            },
            GRAPH_INPUT_ARM => match ops {
                [t, r, i] => Inst::GraphInput { ty: Id(*t), result: Id(*r), input_index: Id(*i), element_index: None },
                [t, r, i, e] => {
                    Inst::GraphInput { ty: Id(*t), result: Id(*r), input_index: Id(*i), element_index: Some(Id(*e)) }
                }
                _ => return Err(count_err("3 or 4", n)),
            },
            GRAPH_SET_OUTPUT_ARM => match ops {
                [v, i] => Inst::GraphSetOutput { value: Id(*v), output_index: Id(*i), element_index: None },
                [v, i, e] => Inst::GraphSetOutput { value: Id(*v), output_index: Id(*i), element_index: Some(Id(*e)) },
                _ => return Err(count_err("2 or 3", n)),
            },
            GRAPH_END_ARM => match ops {
                [] => Inst::GraphEnd,
                _ => return Err(count_err("0", n)),
            },
            EXT_INST => match ops {
                [t, r, s, k, rest @ ..] => {
                    let (ty, result, set, number) = (Id(*t), Id(*r), Id(*s), *k);
                    let typed = match ext_set(set) {
                        ExtSet::Tosa => TosaOp::from_opcode(number).map(|op| Inst::Tosa {
                            ty,
                            result,
                            set,
                            op,
                            args: pool.ids(rest),
                        }),
                        ExtSet::GraphDebugInfo => GraphDebugInst::decode(number, rest, pool)
                            .map(|inst| Inst::GraphDebug { ty, result, set, inst }),
                        ExtSet::NonSemantic | ExtSet::Other => None,
                    };
                    typed.unwrap_or_else(|| Inst::ExtInst { ty, result, set, number, operands: pool.words(rest) })
                }
                _ => return Err(count_err("at least 4", n)),
            },
            COMPOSITE_EXTRACT => match ops {
                [t, r, c, idx @ ..] => {
                    Inst::CompositeExtract { ty: Id(*t), result: Id(*r), composite: Id(*c), indices: pool.words(idx) }
                }
                _ => return Err(count_err("at least 3", n)),
            },
            _ => Inst::Raw { opcode, operands: pool.words(ops) },
        };
        Ok(inst)
    }

    /// The opcode this instruction encodes to.
    #[inline]
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
                out.extend(inst.operand_ids().map(|a| a.0));
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
    #[inline]
    pub fn result_id(&self) -> Option<Id> {
        match self {
            Inst::Raw { opcode, operands } => raw_result_id(*opcode, operands),
            typed => typed_result!(typed, result => Some(*result)),
        }
    }

    /// The result id of a typed instruction, to renumber it in place
    /// (`None` for `Raw` instructions, whose operands are words).
    #[inline]
    pub fn result_id_mut(&mut self) -> Option<&mut Id> {
        typed_result!(self, result => Some(result))
    }

    /// The result type id, if this instruction has one.
    #[inline]
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
    #[inline]
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
    #[inline]
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
    let bits = raw_layout_bits(opcode);
    (bits & HAS_TYPE != 0, bits & HAS_RESULT != 0)
}

const HAS_TYPE: u8 = 1;
const HAS_RESULT: u8 = 2;

/// What the grammar says about a core opcode, as `HAS_TYPE | HAS_RESULT`
/// bits (0 for opcodes it does not know).
fn raw_layout_bits(opcode: u16) -> u8 {
    use rspirv::grammar::{OperandKind, INSTRUCTION_TABLE};
    use std::sync::OnceLock;
    // The grammar lookup is a linear scan and raw instructions are looked up
    // often (every id check), so the answers are kept in a table indexed by
    // opcode (a few kilobytes: the largest opcode is below 2^13).
    static LAYOUT: OnceLock<Vec<u8>> = OnceLock::new();
    let table = LAYOUT.get_or_init(|| {
        let len = INSTRUCTION_TABLE.iter().map(|g| g.opcode as usize + 1).max().unwrap_or(0);
        let mut table = vec![0u8; len];
        for g in INSTRUCTION_TABLE.iter() {
            let has_type = g.operands.first().is_some_and(|o| o.kind == OperandKind::IdResultType);
            let has_result = g.operands.iter().take(2).any(|o| o.kind == OperandKind::IdResult);
            if let Some(slot) = table.get_mut(g.opcode as usize) {
                *slot = (u8::from(has_type) * HAS_TYPE) | (u8::from(has_result) * HAS_RESULT);
            }
        }
        table
    });
    table.get(usize::from(opcode)).copied().unwrap_or(0)
}

fn raw_result_id(opcode: u16, operands: &[u32]) -> Option<Id> {
    match raw_result_layout(opcode) {
        (true, true) => operands.get(1).map(|&w| Id(w)),
        (false, true) => operands.first().map(|&w| Id(w)),
        _ => None,
    }
}
