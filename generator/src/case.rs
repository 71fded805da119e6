//! A generated case: the module, the data for every graph input and graph
//! constant, and what was generated (for manifests and coverage).

use serde::Serialize;
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::collections::{BTreeMap, BTreeSet};

/// One generated module with its inputs.
#[derive(Clone, Debug)]
pub struct Case {
    /// The module (valid by construction).
    pub module: Module,
    /// Every graph entry point, in module order.
    pub entry_points: Vec<EntryPoint>,
    /// Data of every `OpGraphConstantARM`, by GraphConstantID.
    pub graph_constants: BTreeMap<u32, TensorData>,
    /// What the case contains.
    pub meta: CaseMeta,
}

/// One `OpGraphEntryPointARM` and the data to run it with.
#[derive(Clone, Debug)]
pub struct EntryPoint {
    /// Entry-point name.
    pub name: String,
    /// Index of the graph (in module order) it exports.
    pub graph: usize,
    /// Every input tensor in InputIndex order, tensor arrays flattened in
    /// ElementIndex order (the order of `ExecRequest::inputs`).
    pub inputs: Vec<InputTensor>,
    /// Every output tensor in OutputIndex order (arrays flattened likewise).
    pub outputs: Vec<InterfaceSlot>,
}

/// Where one interface tensor lives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InterfaceSlot {
    /// InputIndex / OutputIndex.
    pub index: u32,
    /// ElementIndex for tensor-array interfaces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<u32>,
    /// Element type.
    pub elem: ElemType,
    /// Shape of the tensor (the interface type may be unshaped, the data is not).
    pub shape: Vec<u32>,
    /// DescriptorSet of the interface variable.
    pub descriptor_set: u32,
    /// Binding of the interface variable.
    pub binding: u32,
    /// Whether the graph reads (input) the element; unread array elements
    /// still get data, since the whole array is bound.
    pub used: bool,
}

/// An input slot with its data.
#[derive(Clone, Debug)]
pub struct InputTensor {
    /// Where it goes.
    pub slot: InterfaceSlot,
    /// The data.
    pub data: TensorData,
}

/// One use of a type row.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RowUse {
    /// The operator.
    pub op: TosaOp,
    /// Index of the row in the operator's `type_rows`.
    pub row: usize,
    /// The row's slot types (`["i8", "i8", "i32"]`).
    pub types: Vec<String>,
    /// Profiles/extensions of the row (any of the first list, plus all of `also`).
    pub profiles: Vec<String>,
    /// Extensions the row needs in addition.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// The attribute value the row is tied to (`acc_type=INT48`, `mode=BILINEAR`, `scale32=false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
}

impl RowUse {
    /// Describes row `row` of `op`.
    pub fn new(op: TosaOp, row: usize) -> RowUse {
        let spec = op.spec();
        let r = spec.type_rows.get(row);
        let names = |ps: &[Profile]| ps.iter().map(|p| p.name().to_string()).collect::<Vec<_>>();
        RowUse {
            op,
            row,
            types: r.map(|r| r.types.iter().map(|t| t.name().to_string()).collect()).unwrap_or_default(),
            profiles: r.map(|r| names(r.profiles)).unwrap_or_default(),
            also: r.map(|r| names(r.also)).unwrap_or_default(),
            qualifier: r.and_then(|r| qualifier_text(r.qualifier)),
        }
    }
}

/// `acc_type=INT32`, `mode=BILINEAR`, `scale32=true`, or `None`.
pub fn qualifier_text(q: spvgraph_ir::tosa::RowQualifier) -> Option<String> {
    use spvgraph_ir::tosa::RowQualifier;
    match q {
        RowQualifier::Any => None,
        RowQualifier::AccType(a) => Some(format!("acc_type={}", a.name())),
        RowQualifier::Mode(m) => Some(format!("mode={}", m.name())),
        RowQualifier::Scale32(s) => Some(format!("scale32={s}")),
    }
}

/// What a case contains.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CaseMeta {
    /// The seed, when the case came from one.
    pub seed: Option<u64>,
    /// The TOSA operators used (grammar names), in opcode order.
    pub ops: BTreeSet<TosaOp>,
    /// Every type row used, once each.
    pub type_rows: BTreeSet<RowUse>,
    /// Constructs reached beyond type rows (`const:null`, `iface:array-input`,
    /// `rescale:rounding=DOUBLE_ROUND`, ...).
    pub features: BTreeSet<String>,
    /// Number of graphs.
    pub graphs: usize,
    /// Number of TOSA instructions.
    pub nodes: usize,
    /// Longest chain of TOSA instructions (data dependences) in any graph.
    pub max_depth: usize,
    /// Generator invariants that did not hold (an operation was dropped
    /// instead of emitting something invalid). Always empty unless the
    /// generator has a bug; tests assert it.
    pub internal_errors: Vec<String>,
}
