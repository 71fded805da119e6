//! Why a graph could not be printed as TOSA MLIR, and where.

use crate::elem::ElemType;
use crate::inst::Id;
use crate::tosa::TosaOp;

/// The instruction a problem is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// Word offset of the instruction in the encoded module.
    pub word_offset: usize,
    /// The instruction in the text form (`%r = OpExtInst ... CONV2D ...`).
    pub instruction: String,
}

/// A graph that [`super::module_to_mlir`] cannot print:
/// `word 114: %17 = OpExtInst ... ADD ...: no data supplied for ...`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", prefix(location))]
pub struct MlirError {
    /// The instruction concerned, when the problem is tied to one.
    pub location: Option<Location>,
    /// What could not be printed.
    pub kind: MlirErrorKind,
}

fn prefix(location: &Option<Location>) -> String {
    location.as_ref().map(|l| format!("word {}: {}: ", l.word_offset, l.instruction)).unwrap_or_default()
}

/// What could not be printed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MlirErrorKind {
    /// No `OpGraphEntryPointARM` has the requested name.
    #[error("no OpGraphEntryPointARM named {name:?} (the module has {})", list(available))]
    UnknownEntryPoint {
        /// The name asked for.
        name: String,
        /// The entry-point names the module has.
        available: Vec<String>,
    },
    /// The entry point names a graph that is not defined (or not closed).
    #[error("entry point {name:?} names {graph}, which has no complete OpGraphARM ... OpGraphEndARM definition")]
    GraphNotDefined {
        /// The entry-point name.
        name: String,
        /// The graph id.
        graph: Id,
    },
    /// The graph's type is not an `OpTypeGraphARM`.
    #[error("the graph's type {ty} is not an OpTypeGraphARM")]
    NotAGraphType {
        /// The type id.
        ty: Id,
    },
    /// A type that must be a tensor (or an array of tensors, for interfaces) is not.
    #[error("{what} has type {ty}, which is not {expected}")]
    NotATensor {
        /// What the type belongs to (`input 2`, `operand weight`).
        what: String,
        /// The type id.
        ty: Id,
        /// What it should have been.
        expected: &'static str,
    },
    /// A tensor type without a shape: TOSA MLIR needs every shape statically.
    #[error("{what} has an unshaped tensor type {ty}; TOSA MLIR needs static shapes")]
    UnshapedTensor {
        /// What the type belongs to.
        what: String,
        /// The type id.
        ty: Id,
    },
    /// An element type that TOSA does not have.
    #[error("{what} has element type {ty}, which is not a TOSA element type")]
    UnsupportedElement {
        /// What the type belongs to.
        what: String,
        /// The element type id.
        ty: Id,
    },
    /// An InputIndex/OutputIndex/ElementIndex that is not a constant or does
    /// not select an interface entry of the graph type.
    #[error("{what}")]
    BadIndex {
        /// Which index and why.
        what: String,
    },
    /// Two types that must agree do not.
    #[error("{what} is {found}, but {expected} is required")]
    TypeMismatch {
        /// What is being typed.
        what: String,
        /// The type required (MLIR text).
        expected: String,
        /// The type found (MLIR text).
        found: String,
    },
    /// An instruction that has no TOSA MLIR form inside a graph body.
    #[error(
        "only TOSA.001000.1 instructions, OpCompositeExtract of FFT2D/RFFT2D results and \
         NonSemantic.Graph.DebugInfo can be printed in a graph body"
    )]
    NotPrintable,
    /// A TOSA instruction with the wrong number of operands.
    #[error("{op} takes {}{expected} operands, found {found}", if *.variadic { "at least " } else { "" })]
    OperandCount {
        /// The operator.
        op: TosaOp,
        /// Operand count of the catalogue (minimum when variadic).
        expected: usize,
        /// Whether more are allowed.
        variadic: bool,
        /// Operands given.
        found: usize,
    },
    /// A value used before (or without) being defined in this graph.
    #[error("{what} uses {id}, which is not a constant, a graph input or an earlier result of this graph")]
    UndefinedValue {
        /// The use.
        what: String,
        /// The id.
        id: Id,
    },
    /// An attribute or compile-time-constant operand not produced by a constant instruction.
    #[error("operand {operand} ({id}) must come from a constant instruction")]
    NotConstant {
        /// The operand's catalogue name.
        operand: &'static str,
        /// The id used.
        id: Id,
    },
    /// A constant whose value cannot be read or has the wrong form.
    #[error("{what} ({id}): {reason}")]
    BadConstant {
        /// The operand or value.
        what: String,
        /// The constant id.
        id: Id,
        /// What is wrong.
        reason: String,
    },
    /// An enum operand holding no valid enumerant.
    #[error("operand {operand} = {value} is not a valid {kind} enumerant")]
    BadEnum {
        /// The operand's catalogue name.
        operand: &'static str,
        /// The enum type name (`nan_propagation_mode_t`).
        kind: &'static str,
        /// The value found.
        value: u32,
    },
    /// An `OpGraphConstantARM` whose data was not supplied.
    #[error("no data supplied for OpGraphConstantARM with GraphConstantID {graph_constant_id}")]
    MissingGraphConstant {
        /// The GraphConstantID.
        graph_constant_id: u32,
    },
    /// Supplied graph-constant data that does not fit its declared type.
    #[error(
        "data for GraphConstantID {graph_constant_id} is {found_elem} {found_shape:?}, \
         but the constant is declared {elem} {shape:?}"
    )]
    GraphConstantMismatch {
        /// The GraphConstantID.
        graph_constant_id: u32,
        /// Declared element type.
        elem: ElemType,
        /// Declared shape.
        shape: Vec<u64>,
        /// Element type of the data.
        found_elem: ElemType,
        /// Shape of the data.
        found_shape: Vec<usize>,
    },
    /// An `OpCompositeExtract` that does not read member 0 or 1 of an FFT2D/RFFT2D result.
    #[error("OpCompositeExtract {reason}")]
    BadExtract {
        /// What is wrong.
        reason: String,
    },
    /// A two-result operator whose result type is not a struct of two tensors.
    #[error("{op} must return an OpTypeStruct of two tensor types; its result type is {ty}")]
    BadStructResult {
        /// The operator.
        op: TosaOp,
        /// The result type id.
        ty: Id,
    },
    /// A graph output (or output array element) that no `OpGraphSetOutputARM` writes.
    #[error("output {index}{} is never set", element_suffix(*element))]
    OutputNotSet {
        /// OutputIndex.
        index: usize,
        /// ElementIndex, for a tensor-array output.
        element: Option<u64>,
    },
    /// A graph output written twice.
    #[error("output {index}{} is set more than once", element_suffix(*element))]
    OutputSetTwice {
        /// OutputIndex.
        index: usize,
        /// ElementIndex, for a tensor-array output.
        element: Option<u64>,
    },
}

impl MlirErrorKind {
    /// Whether the problem is the request's, not the module's: graph-constant
    /// data missing or of another type, an entry point the module lacks. Any
    /// other kind means the module itself has no TOSA MLIR form (it is
    /// invalid, or uses what TOSA cannot express), so a backend that runs a
    /// TOSA translation cannot run it.
    pub fn is_request_mismatch(&self) -> bool {
        match self {
            MlirErrorKind::UnknownEntryPoint { .. }
            | MlirErrorKind::MissingGraphConstant { .. }
            | MlirErrorKind::GraphConstantMismatch { .. } => true,
            MlirErrorKind::GraphNotDefined { .. }
            | MlirErrorKind::NotAGraphType { .. }
            | MlirErrorKind::NotATensor { .. }
            | MlirErrorKind::UnshapedTensor { .. }
            | MlirErrorKind::UnsupportedElement { .. }
            | MlirErrorKind::BadIndex { .. }
            | MlirErrorKind::TypeMismatch { .. }
            | MlirErrorKind::NotPrintable
            | MlirErrorKind::OperandCount { .. }
            | MlirErrorKind::UndefinedValue { .. }
            | MlirErrorKind::NotConstant { .. }
            | MlirErrorKind::BadConstant { .. }
            | MlirErrorKind::BadEnum { .. }
            | MlirErrorKind::BadExtract { .. }
            | MlirErrorKind::BadStructResult { .. }
            | MlirErrorKind::OutputNotSet { .. }
            | MlirErrorKind::OutputSetTwice { .. } => false,
        }
    }
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        return "none".into();
    }
    names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
}

fn element_suffix(element: Option<u64>) -> String {
    element.map(|e| format!(" element {e}")).unwrap_or_default()
}
