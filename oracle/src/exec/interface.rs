//! Choosing the graph to run and describing its interface: the flat list of
//! inputs (InputIndex order, tensor arrays expanded in ElementIndex order),
//! outputs, and the graph constants its body uses.

use super::error::{ExecError, Location};
use spvgraph_ir::analysis::{Analysis, GraphView, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::{Id, Inst};
use std::collections::BTreeMap;

/// One tensor of a graph's interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// InputIndex/OutputIndex (or GraphConstantID for graph constants).
    pub index: u32,
    /// ElementIndex, for an element of a tensor-array input or output.
    pub element: Option<u32>,
    /// Element type.
    pub elem: ElemType,
    /// Shape.
    pub shape: Vec<usize>,
}

/// A tensor made to fit a [`Port`], and what was done to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The tensor, in the port's shape.
    pub tensor: TensorData,
    /// A note for the user when the tensor had to be adapted.
    pub note: Option<String>,
}

impl Port {
    /// A short description: `input 1[2]: fp32 [1, 8, 8, 4]`.
    pub fn describe(&self, role: &str) -> String {
        let element = self.element.map(|e| format!("[{e}]")).unwrap_or_default();
        format!("{role} {}{element}: {} {:?}", self.index, self.elem, self.shape)
    }

    /// `t` as the tensor of this port: the same element type and shape, or
    /// a rank-0 tensor for a `[1]` port, reshaped, with a note. model-converter
    /// turns rank-0 TOSA tensors into `[1]` tensors, so data saved for the
    /// TOSA graph is rank 0 where the SPIR-V graph has `[1]`. `Err` says why
    /// `t` does not fit.
    pub fn fit(&self, t: TensorData) -> Result<Fitted, String> {
        if t.elem() != self.elem {
            return Err(format!("holds {} data, the graph expects {} {:?}", t.elem(), self.elem, self.shape));
        }
        if t.shape() == self.shape.as_slice() {
            return Ok(Fitted { tensor: t, note: None });
        }
        if t.shape().is_empty() && self.shape == [1] {
            let tensor = TensorData::from_bits(t.elem(), &[1], &t.to_bits()).map_err(|e| e.to_string())?;
            let note =
                "a rank-0 array for a [1] tensor, used as [1] (model-converter turns rank-0 TOSA tensors into [1])";
            return Ok(Fitted { tensor, note: Some(note.to_string()) });
        }
        Err(format!("has shape {:?}, the graph expects {} {:?}", t.shape(), self.elem, self.shape))
    }
}

/// What a graph consumes and produces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interface {
    /// The entry point chosen (`None` when the module has a graph but no entry point).
    pub entry_point: Option<String>,
    /// The graph's result id.
    pub graph: Id,
    /// Inputs in the order `run` takes them.
    pub inputs: Vec<Port>,
    /// Outputs in the order `run` returns them.
    pub outputs: Vec<Port>,
    /// Graph constants used by the graph body, by GraphConstantID.
    pub graph_constants: Vec<Port>,
}

fn invalid(reason: impl Into<String>) -> ExecError {
    ExecError::Invalid { location: Location::default(), reason: reason.into() }
}

/// The graph named by `entry` (`None`: the first entry point, or the first
/// graph when the module declares none).
pub(crate) fn select<'a>(
    a: &'a Analysis<'_>,
    entry: Option<&str>,
) -> Result<(&'a GraphView, Option<String>), ExecError> {
    let entry_points: Vec<(Id, &str)> = a
        .graph_entry_points
        .iter()
        .filter_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphEntryPoint { graph, name, .. }) => Some((*graph, name.as_str())),
            _ => None,
        })
        .collect();
    let (graph, name) = match entry {
        Some(want) => match entry_points.iter().find(|(_, n)| *n == want) {
            Some(&(g, n)) => (g, Some(n.to_string())),
            None => {
                let names: Vec<&str> = entry_points.iter().map(|(_, n)| *n).collect();
                return Err(ExecError::Request(format!(
                    "no graph entry point named {want:?} (the module has {names:?})"
                )));
            }
        },
        None => match entry_points.first() {
            Some(&(g, n)) => (g, Some(n.to_string())),
            None => match a.graphs.first() {
                Some(g) => (g.result, None),
                None => return Err(invalid("the module has no graph")),
            },
        },
    };
    let view =
        a.graph(graph).ok_or_else(|| invalid(format!("entry point names {graph}, which is not an OpGraphARM")))?;
    if view.end.is_none() {
        return Err(invalid(format!("graph {graph} has no OpGraphEndARM")));
    }
    Ok((view, name))
}

/// Element type and shape of a shaped tensor type.
pub(crate) fn tensor_of(a: &Analysis<'_>, ty: Id) -> Option<(ElemType, Vec<usize>)> {
    let t = a.tensor_type(ty)?;
    let shape = t.shape?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<Vec<_>>>()?;
    Some((t.elem?, shape))
}

/// The longest tensor array a graph interface may have for the executor to
/// run it: each element is a port with its own input or output tensor.
pub const MAX_ARRAY_PORTS: u64 = 1 << 16;

/// The ports of one side of a graph type.
fn ports(a: &Analysis<'_>, types: &[Id], role: &str) -> Result<Vec<Port>, ExecError> {
    let mut out = Vec::new();
    for (i, &ty) in types.iter().enumerate() {
        let index = i as u32;
        let bad = || {
            invalid(format!("graph {role} {i} must be a shaped tensor or an array of them (TOSA needs static shapes)"))
        };
        match a.ty(ty) {
            Some(Type::Tensor(_)) => {
                let (elem, shape) = tensor_of(a, ty).ok_or_else(bad)?;
                out.push(Port { index, element: None, elem, shape });
            }
            Some(Type::Array { element, length: Some(n) }) => {
                let (elem, shape) = tensor_of(a, element).ok_or_else(bad)?;
                if n > MAX_ARRAY_PORTS {
                    // One port per element would exhaust memory before any
                    // budget is checked (a 2^32-element array is legal SPIR-V).
                    let each = spvgraph_ir::count::saturating_len(&shape)
                        .saturating_mul(u64::from(elem.storage_bits().div_ceil(8)));
                    return Err(ExecError::OverBudget {
                        needed: n.saturating_mul(each),
                        budget: MAX_ARRAY_PORTS.saturating_mul(each),
                        detail: format!(
                            "graph {role} {i} is an array of {n} tensors; at most {MAX_ARRAY_PORTS} are run"
                        ),
                    });
                }
                for e in 0..n as u32 {
                    out.push(Port { index, element: Some(e), elem, shape: shape.clone() });
                }
            }
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

/// The interface of the graph chosen by `entry`.
pub(crate) fn describe(a: &Analysis<'_>, entry: Option<&str>) -> Result<Interface, ExecError> {
    let (view, entry_point) = select(a, entry)?;
    let (ins, outs) = match a.ty(view.ty) {
        Some(Type::Graph { inputs, outputs }) => (inputs, outputs),
        _ => return Err(invalid(format!("graph {} does not have an OpTypeGraphARM type", view.result))),
    };
    let mut constants = BTreeMap::new();
    // Graph constants reach a graph as operator operands or as outputs directly.
    let used =
        view.body.iter().chain(&view.outputs).filter_map(|&i| a.module.insts.get(i)).flat_map(|inst| match inst {
            Inst::Tosa { args, .. } => args.clone(),
            Inst::GraphSetOutput { value, .. } => vec![*value],
            _ => Vec::new(),
        });
    for arg in used {
        if let Some(Inst::GraphConstant { ty, graph_constant_id, .. }) = a.def(arg) {
            let (elem, shape) = tensor_of(a, *ty)
                .ok_or_else(|| invalid(format!("graph constant {graph_constant_id} must have a shaped tensor type")))?;
            constants.insert(*graph_constant_id, Port { index: *graph_constant_id, element: None, elem, shape });
        }
    }
    Ok(Interface {
        entry_point,
        graph: view.result,
        inputs: ports(a, &ins, "input")?,
        outputs: ports(a, &outs, "output")?,
        graph_constants: constants.into_values().collect(),
    })
}
