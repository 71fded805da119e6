//! The worker's answers (`oracle/python/model_explorer_worker.py`, one JSON
//! line per request) and what they become: a [`Reading`]. Only the fields
//! the judgement uses are read; every one may be missing (an adapter that
//! shows less is compared on less, and says so by what it lacks).

use super::display::parse_constant;
use crate::oracle::{
    ReadConstant, ReadGraph, ReadGraphConstant, ReadInput, ReadNode, ReadOperand, ReadOutput, ReadResource, ReadSource,
    ReadType, Reading,
};
use serde::Deserialize;
use std::collections::HashMap;

/// One answer line.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Answer {
    /// The request's id.
    pub id: Option<u64>,
    /// Whether the adapter answered.
    pub ok: bool,
    /// `ExceptionType: message`, when it raised.
    pub error: Option<String>,
    /// The Python traceback, when it raised.
    pub traceback: Option<String>,
    /// The exception the adapter's own wrapped (its `ValueError("Failed to parse ...")`).
    pub cause: Option<String>,
    /// The graphs.
    pub graphs: Vec<Graph>,
    /// A VGF's tables, for a VGF request.
    pub vgf: Option<Vgf>,
    /// Versions, for a version request (package name → version).
    #[serde(flatten)]
    pub rest: HashMap<String, serde_json::Value>,
}

/// A normalized graph.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Graph {
    /// `graph` (an OpGraphARM), `compute` (a shader entry point) or `vgf`.
    pub kind: String,
    /// The OpGraphARM's id.
    pub spv_id: Option<u32>,
    /// Entry points naming it.
    pub entry_points: Vec<String>,
    /// The graph type as shown.
    pub graph_type: Option<String>,
    /// Operation nodes.
    pub nodes: Vec<Node>,
    /// Input nodes (a VGF: input resources).
    pub inputs: Vec<Port>,
    /// Output nodes (a VGF: output resources).
    pub outputs: Vec<Port>,
    /// Graph constant nodes and constant operands (a VGF: constant resources).
    pub constants: Vec<Port>,
    /// A VGF's intermediate resources.
    pub intermediates: Vec<Port>,
}

/// A type as the worker normalized it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Typed {
    /// `spvgraph info`'s spelling.
    pub ty: Option<String>,
    /// The adapter's own words.
    pub adapter_type: Option<String>,
    /// Whether the adapter's words leave the element type open.
    pub type_ambiguous: bool,
}

impl Typed {
    fn read(&self) -> ReadType {
        ReadType { ty: self.ty.clone(), shown: self.adapter_type.clone(), ambiguous: self.type_ambiguous }
    }
}

/// An operation node.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Node {
    /// The adapter's node id.
    pub id: String,
    /// The operator as labelled.
    pub op: String,
    /// The instruction's result id.
    pub spv_id: Option<u32>,
    /// Its inputs.
    pub inputs: Vec<Operand>,
    /// Its outputs.
    pub outputs: Vec<Typed>,
}

/// One input port of a node.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Operand {
    /// The grammar's operand name.
    pub tag: Option<String>,
    /// The operand id.
    pub spv_id: Option<u32>,
    /// The node the edge comes from.
    pub source_node: Option<String>,
    /// Which of its outputs.
    pub source_output: Option<serde_json::Value>,
    /// The constant shown instead of an edge.
    pub constant: Option<String>,
    /// Its type.
    #[serde(flatten)]
    pub typed: Typed,
}

/// An input, output or constant node (a VGF: a resource).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Port {
    /// The adapter's node id.
    pub node: Option<String>,
    /// `graph_constant` or `constant`, for constants.
    pub kind: Option<String>,
    /// InputIndex / OutputIndex.
    pub index: Option<u64>,
    /// ElementIndex.
    pub element: Option<u64>,
    /// The OpGraphInputARM's or OpGraphConstantARM's id.
    pub spv_id: Option<u32>,
    /// The value an output is set from.
    pub value_spv_id: Option<u32>,
    /// The node an output's edge comes from.
    pub source_node: Option<String>,
    /// Which of its outputs.
    pub source_output: Option<serde_json::Value>,
    /// The constant an output shows (SPIR-V adapter) or a constant
    /// resource's value (VGF adapter: `value`).
    pub constant: Option<String>,
    /// A VGF constant resource's value.
    pub value: Option<String>,
    /// GraphConstantID.
    pub graph_constant_id: Option<u32>,
    /// A VGF resource's index in the model resource table.
    pub mrt_index: Option<u64>,
    /// A VGF resource's role.
    pub category: Option<String>,
    /// A VGF resource's VkFormat.
    pub format: Option<String>,
    /// A VGF resource's element type, as the worker maps the format.
    #[serde(rename = "type")]
    pub elem: Option<String>,
    /// A VGF resource's shape.
    pub shape: Option<serde_json::Value>,
    /// The edges into a VGF resource.
    pub incoming: Vec<Edge>,
    /// Its type.
    #[serde(flatten)]
    pub typed: Typed,
}

/// An edge into a VGF resource.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Edge {
    /// The node it comes from.
    pub source_node: Option<String>,
    /// Which of its outputs (`alias` for a resource alias).
    pub source_output: Option<serde_json::Value>,
}

/// A VGF's own tables.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Vgf {
    /// The model sequence's segments.
    pub segments: Vec<Segment>,
}

/// One segment of a VGF's model sequence.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Segment {
    /// `GRAPH` or `COMPUTE`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its inputs (index → resource).
    pub inputs: Vec<Binding>,
    /// Its outputs (index → resource).
    pub outputs: Vec<Binding>,
}

/// A segment's binding of an interface slot to a resource.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Binding {
    /// The slot's position in the segment's list (the model's input or
    /// output it is; not always the module's InputIndex / OutputIndex: a
    /// value set as two outputs may be one output of the module).
    pub index: Option<u64>,
    /// The descriptor binding the segment's module reads or writes it through.
    pub binding: Option<u32>,
    /// The resource.
    pub mrt_index: Option<u64>,
}

fn output_of(v: &Option<serde_json::Value>) -> u32 {
    v.as_ref().and_then(serde_json::Value::as_u64).and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
}

fn constant(text: &Option<String>) -> Option<ReadConstant> {
    text.as_deref().map(parse_constant)
}

impl Answer {
    /// The SPIR-V adapter's graphs of a module (shader entry points, which
    /// the adapter also draws, are left out).
    pub fn module_reading(&self) -> Reading {
        let graphs = self.graphs.iter().filter(|g| g.kind == "graph").map(Graph::read).collect();
        Reading { graphs, resources: Vec::new() }
    }

    /// The VGF adapter's view of a VGF: its operation nodes as one graph,
    /// and its resources.
    pub fn vgf_reading(&self) -> Reading {
        let mut reading = Reading::default();
        // Which slot of the graph segment each input and output resource is.
        let segment = self.vgf.as_ref().and_then(|v| v.segments.iter().find(|s| s.kind == "GRAPH"));
        let slot = |bindings: fn(&Segment) -> &Vec<Binding>, mrt: Option<u64>| {
            segment.and_then(|s| bindings(s).iter().find(|b| b.mrt_index.is_some() && b.mrt_index == mrt))
        };
        for g in &self.graphs {
            reading.graphs.push(g.read());
            let groups: [(&str, &Vec<Port>); 4] = [
                ("INPUT", &g.inputs),
                ("OUTPUT", &g.outputs),
                ("CONSTANT", &g.constants),
                ("INTERMEDIATE", &g.intermediates),
            ];
            for (category, ports) in groups {
                for r in ports {
                    let slot = match category {
                        "INPUT" => slot(|s| &s.inputs, r.mrt_index),
                        "OUTPUT" => slot(|s| &s.outputs, r.mrt_index),
                        _ => None,
                    };
                    // An edge comes from an operation node or from another
                    // resource (an output set from an input, or from a
                    // constant); resources have no instruction id in the view.
                    let resources = g.inputs.iter().chain(&g.constants).chain(&g.intermediates);
                    let nodes: HashMap<&str, Option<u32>> = g
                        .nodes
                        .iter()
                        .map(|n| (n.id.as_str(), n.spv_id))
                        .chain(resources.filter_map(|p| Some((p.node.as_deref()?, None))))
                        .collect();
                    reading.resources.push(ReadResource {
                        index: slot.and_then(|b| b.index),
                        binding: slot.and_then(|b| b.binding),
                        category: r.category.clone().unwrap_or_else(|| category.to_string()),
                        format: r.format.clone(),
                        elem: r.elem.clone(),
                        shape: r
                            .shape
                            .as_ref()
                            .and_then(|s| s.as_array())
                            .map(|a| a.iter().filter_map(serde_json::Value::as_i64).collect()),
                        constant: constant(&r.value),
                        sources: r
                            .incoming
                            .iter()
                            .filter_map(|e| {
                                let id = *nodes.get(e.source_node.as_deref()?)?;
                                Some(ReadSource { id, output: output_of(&e.source_output) })
                            })
                            .collect(),
                    });
                }
            }
        }
        reading
    }
}

impl Graph {
    fn read(&self) -> ReadGraph {
        // The ids of the instructions behind the adapter's node ids.
        let mut ids: HashMap<&str, Option<u32>> = HashMap::new();
        for n in &self.nodes {
            ids.insert(n.id.as_str(), n.spv_id);
        }
        for p in self.inputs.iter().chain(&self.constants) {
            if let Some(node) = &p.node {
                ids.insert(node.as_str(), p.spv_id);
            }
        }
        let source = |node: &Option<String>, output: &Option<serde_json::Value>| {
            let node = node.as_deref()?;
            Some(ReadSource { id: ids.get(node).copied().flatten(), output: output_of(output) })
        };
        ReadGraph {
            id: self.spv_id,
            entry_points: self.entry_points.clone(),
            graph_type: self.graph_type.clone(),
            inputs: self
                .inputs
                .iter()
                .map(|p| ReadInput { id: p.spv_id, index: p.index, element: p.element, ty: p.typed.read() })
                .collect(),
            nodes: self
                .nodes
                .iter()
                .map(|n| ReadNode {
                    id: n.spv_id,
                    op: n.op.clone(),
                    operands: n
                        .inputs
                        .iter()
                        .map(|o| ReadOperand {
                            tag: o.tag.clone(),
                            id: o.spv_id,
                            source: source(&o.source_node, &o.source_output),
                            constant: constant(&o.constant),
                            ty: o.typed.read(),
                        })
                        .collect(),
                    results: n.outputs.iter().map(Typed::read).collect(),
                })
                .collect(),
            outputs: self
                .outputs
                .iter()
                .map(|p| ReadOutput {
                    index: p.index,
                    element: p.element,
                    value: p.value_spv_id,
                    source: source(&p.source_node, &p.source_output),
                    constant: constant(&p.constant),
                    ty: p.typed.read(),
                })
                .collect(),
            graph_constants: self
                .constants
                .iter()
                .filter(|c| c.kind.as_deref() == Some("graph_constant"))
                .map(|c| ReadGraphConstant { id: c.spv_id, graph_constant_id: c.graph_constant_id, ty: c.typed.read() })
                .collect(),
        }
    }
}
