//! A summary of a module for `spvgraph info`: graphs, entry points, interface
//! types and bindings, graph constants, operator histogram.

use crate::analysis::{Analysis, Type};
use crate::elem::ElemType;
use crate::inst::{Id, Inst};
use crate::module::Module;
use crate::text::FriendlyNames;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Everything `spvgraph info` reports about one module.
#[derive(Debug, Clone, Serialize)]
pub struct ModuleInfo {
    /// SPIR-V version, e.g. "1.5".
    pub version: String,
    /// Generator word.
    pub generator: u32,
    /// Id bound.
    pub bound: u32,
    /// Number of instructions.
    pub instructions: usize,
    /// Declared capabilities.
    pub capabilities: Vec<String>,
    /// Declared extensions.
    pub extensions: Vec<String>,
    /// Imported extended instruction sets.
    pub ext_inst_imports: Vec<String>,
    /// Graph entry points.
    pub entry_points: Vec<EntryPointInfo>,
    /// Graph definitions.
    pub graphs: Vec<GraphInfo>,
    /// `OpGraphConstantARM` declarations.
    pub graph_constants: Vec<GraphConstantInfo>,
    /// TOSA operator name → number of uses over all graphs.
    pub operator_histogram: BTreeMap<String, usize>,
    /// Number of NonSemantic.Graph.DebugInfo instructions.
    pub debug_info_instructions: usize,
    /// Whether the module also has shader functions (`OpFunction`).
    pub has_functions: bool,
}

/// One `OpGraphEntryPointARM`.
#[derive(Debug, Clone, Serialize)]
pub struct EntryPointInfo {
    /// Entry-point name.
    pub name: String,
    /// The graph's friendly name.
    pub graph: String,
    /// Interface variables, inputs then outputs.
    pub interface: Vec<InterfaceInfo>,
}

/// One interface variable of an entry point.
#[derive(Debug, Clone, Serialize)]
pub struct InterfaceInfo {
    /// The variable's friendly name.
    pub variable: String,
    /// "input" or "output" (by position against the graph type).
    pub role: &'static str,
    /// InputIndex/OutputIndex implied by the position.
    pub index: usize,
    /// The pointee type, described.
    pub ty: String,
    /// Storage class name.
    pub storage_class: Option<String>,
    /// `DescriptorSet` decoration.
    pub descriptor_set: Option<u32>,
    /// `Binding` decoration.
    pub binding: Option<u32>,
}

/// One graph definition.
#[derive(Debug, Clone, Serialize)]
pub struct GraphInfo {
    /// Friendly name.
    pub name: String,
    /// The result id of its `OpGraphARM`.
    pub id: u32,
    /// Input types from the graph type.
    pub inputs: Vec<String>,
    /// Output types from the graph type.
    pub outputs: Vec<String>,
    /// TOSA operations in the body.
    pub operations: usize,
    /// Whether the definition ends with `OpGraphEndARM`.
    pub closed: bool,
    /// Its `OpGraphInputARM`s, in order.
    pub graph_inputs: Vec<GraphInputInfo>,
    /// The instructions of its body that compute a value, in order: TOSA
    /// operations, and any other instruction with a result other than an
    /// `OpCompositeExtract` of an operation's struct result (which is that
    /// operation's result, [`ValueInfo::Node`]) and non-semantic ones.
    pub nodes: Vec<NodeInfo>,
    /// Its `OpGraphSetOutputARM`s, in order.
    pub graph_outputs: Vec<GraphOutputInfo>,
}

/// One `OpGraphInputARM`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphInputInfo {
    /// Its result id.
    pub id: u32,
    /// Its InputIndex, when a readable constant.
    pub index: Option<u64>,
    /// Its ElementIndex, when present and a readable constant.
    pub element: Option<u64>,
    /// Its type, described.
    pub ty: String,
}

/// One instruction of a graph body that computes a value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeInfo {
    /// Its result id.
    pub id: u32,
    /// The TOSA operator's name (`CONV2D`), else the opcode's (`OpCompositeExtract`).
    pub op: String,
    /// The values it reads, in operand order (for a TOSA operation, every
    /// operand: attributes and tensors).
    pub operands: Vec<ValueInfo>,
    /// The types of its results: one, or one per member of a struct result.
    pub results: Vec<String>,
}

/// One `OpGraphSetOutputARM`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphOutputInfo {
    /// Its OutputIndex, when a readable constant.
    pub index: Option<u64>,
    /// Its ElementIndex, when present and a readable constant.
    pub element: Option<u64>,
    /// The value it sets.
    pub value: ValueInfo,
}

/// Where a value a graph reads comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum ValueInfo {
    /// The graph's `OpGraphInputARM` with this result id.
    Input {
        /// The input's result id.
        id: u32,
    },
    /// Result `member` of a node of the graph ([`NodeInfo`]): 0 for a node
    /// with one result, the `OpCompositeExtract` index for a struct result.
    Node {
        /// The node's result id.
        id: u32,
        /// Which result.
        member: u32,
    },
    /// An `OpGraphConstantARM`.
    GraphConstant {
        /// Its result id.
        id: u32,
        /// Its GraphConstantID.
        graph_constant_id: u32,
    },
    /// A module-scope constant instruction (`OpConstant*`, replicated, null).
    Constant {
        /// Its result id.
        id: u32,
    },
    /// Anything else (an undefined id, a value outside the graph).
    Other {
        /// The id.
        id: u32,
    },
}

impl ValueInfo {
    /// The id the value is read from.
    pub fn id(self) -> u32 {
        match self {
            ValueInfo::Input { id }
            | ValueInfo::Node { id, .. }
            | ValueInfo::GraphConstant { id, .. }
            | ValueInfo::Constant { id }
            | ValueInfo::Other { id } => id,
        }
    }
}

/// One graph constant.
#[derive(Debug, Clone, Serialize)]
pub struct GraphConstantInfo {
    /// Friendly name of the result.
    pub name: String,
    /// Its result id.
    pub id: u32,
    /// `GraphConstantID`.
    pub graph_constant_id: u32,
    /// The tensor type, described.
    pub ty: String,
    /// Number of elements, if shaped.
    pub elements: Option<u64>,
}

/// Describes a type id compactly: `tensor<fp32, 1x8x8x4>`, `tensor<i8, rank 4>`,
/// `array<2, tensor<...>>`, `uint32`.
pub fn describe_type(a: &Analysis<'_>, id: Id) -> String {
    describe(a, id, 0)
}

fn describe(a: &Analysis<'_>, id: Id, depth: u32) -> String {
    if depth > 8 {
        return id.to_string();
    }
    match a.ty(id) {
        Some(Type::Tensor(t)) => {
            let elem =
                t.elem.map(ElemType::name).map(str::to_string).unwrap_or_else(|| describe(a, t.element, depth + 1));
            match (t.shape, t.rank, t.ranked) {
                (Some(s), _, _) => {
                    let dims: Vec<String> = s.iter().map(|d| d.to_string()).collect();
                    format!("tensor<{elem}, {}>", dims.join("x"))
                }
                (None, Some(r), _) => format!("tensor<{elem}, rank {r}>"),
                (None, None, true) => format!("tensor<{elem}, rank ?>"),
                _ => format!("tensor<{elem}>"),
            }
        }
        Some(Type::Array { element, length }) => {
            let n = length.map(|l| l.to_string()).unwrap_or_else(|| "?".into());
            format!("array<{n}, {}>", describe(a, element, depth + 1))
        }
        Some(Type::RuntimeArray { element }) => format!("runtime_array<{}>", describe(a, element, depth + 1)),
        Some(Type::Scalar(k)) => match ElemType::from_spirv(k) {
            Some(e) => e.name().to_string(),
            None => format!("{k:?}"),
        },
        Some(Type::Pointer { pointee, .. }) => format!("ptr<{}>", describe(a, pointee, depth + 1)),
        Some(Type::Struct(m)) => {
            let parts: Vec<String> = m.iter().map(|&x| describe(a, x, depth + 1)).collect();
            format!("struct<{}>", parts.join(", "))
        }
        Some(Type::Void) => "void".into(),
        Some(Type::Graph { .. }) => "graph".into(),
        Some(Type::Other) | None => id.to_string(),
    }
}

/// Summarises a module.
pub fn module_info(module: &Module) -> ModuleInfo {
    let a = Analysis::new(module);
    let names = FriendlyNames::new(&a);
    let (major, minor) = module.header.version_pair();
    let mut info = ModuleInfo {
        version: format!("{major}.{minor}"),
        generator: module.header.generator,
        bound: module.header.bound,
        instructions: module.insts.len(),
        capabilities: Vec::new(),
        extensions: Vec::new(),
        ext_inst_imports: Vec::new(),
        entry_points: Vec::new(),
        graphs: Vec::new(),
        graph_constants: Vec::new(),
        operator_histogram: a.tosa_histogram().into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        debug_info_instructions: 0,
        has_functions: false,
    };
    for inst in &module.insts {
        match inst {
            Inst::Capability(c) => info
                .capabilities
                .push(spirv::Capability::from_u32(*c).map(|c| format!("{c:?}")).unwrap_or_else(|| c.to_string())),
            Inst::Extension(e) => info.extensions.push(e.clone()),
            Inst::ExtInstImport { name, .. } => info.ext_inst_imports.push(name.clone()),
            Inst::GraphConstant { ty, result, graph_constant_id } => info.graph_constants.push(GraphConstantInfo {
                name: names.get(*result),
                id: result.0,
                graph_constant_id: *graph_constant_id,
                ty: describe_type(&a, *ty),
                elements: a.tensor_type(*ty).and_then(|t| t.element_count()),
            }),
            Inst::GraphDebug { .. } => info.debug_info_instructions += 1,
            Inst::Raw { opcode, .. } if *opcode == spirv::Op::Function as u16 => info.has_functions = true,
            Inst::GraphEntryPoint { graph, name, interface } => {
                let n_inputs = a
                    .graph(*graph)
                    .and_then(|g| match a.ty(g.ty) {
                        Some(Type::Graph { inputs, .. }) => Some(inputs.len()),
                        _ => None,
                    })
                    .unwrap_or(interface.len());
                let iface = interface
                    .iter()
                    .enumerate()
                    .map(|(pos, &var)| {
                        let (ty, storage) = match a.def(var) {
                            Some(Inst::Variable { ty, .. }) => match a.ty(*ty) {
                                Some(Type::Pointer { storage, pointee }) => (
                                    describe_type(&a, pointee),
                                    spirv::StorageClass::from_u32(storage).map(|s| format!("{s:?}")),
                                ),
                                _ => (describe_type(&a, *ty), None),
                            },
                            _ => ("(not a variable)".to_string(), None),
                        };
                        let dec = |d| a.decoration(var, d).and_then(|l| l.first().copied());
                        InterfaceInfo {
                            variable: names.get(var),
                            role: if pos < n_inputs { "input" } else { "output" },
                            index: if pos < n_inputs { pos } else { pos - n_inputs },
                            ty,
                            storage_class: storage,
                            descriptor_set: dec(spirv::Decoration::DescriptorSet),
                            binding: dec(spirv::Decoration::Binding),
                        }
                    })
                    .collect();
                info.entry_points.push(EntryPointInfo {
                    name: name.clone(),
                    graph: names.get(*graph),
                    interface: iface,
                });
            }
            _ => {}
        }
    }
    for g in &a.graphs {
        let (inputs, outputs) = match a.ty(g.ty) {
            Some(Type::Graph { inputs, outputs }) => (
                inputs.iter().map(|&t| describe_type(&a, t)).collect(),
                outputs.iter().map(|&t| describe_type(&a, t)).collect(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let operations = g.body.iter().filter(|&&i| matches!(module.insts.get(i), Some(Inst::Tosa { .. }))).count();
        let (graph_inputs, nodes, graph_outputs) = graph_facts(&a, g);
        info.graphs.push(GraphInfo {
            name: names.get(g.result),
            id: g.result.0,
            inputs,
            outputs,
            operations,
            closed: g.end.is_some(),
            graph_inputs,
            nodes,
            graph_outputs,
        });
    }
    info
}

/// The inputs, value-computing nodes and outputs of graph `g`, with where
/// each value read comes from.
fn graph_facts(
    a: &Analysis<'_>,
    g: &crate::analysis::GraphView,
) -> (Vec<GraphInputInfo>, Vec<NodeInfo>, Vec<GraphOutputInfo>) {
    let module = a.module;
    let at = |i: usize| module.insts.get(i);
    let inputs: Vec<GraphInputInfo> = g
        .inputs
        .iter()
        .filter_map(|&i| match at(i) {
            Some(Inst::GraphInput { ty, result, input_index, element_index }) => Some(GraphInputInfo {
                id: result.0,
                index: a.const_uint(*input_index),
                element: element_index.and_then(|e| a.const_uint(e)),
                ty: describe_type(a, *ty),
            }),
            _ => None,
        })
        .collect();
    let input_ids: std::collections::HashSet<u32> = inputs.iter().map(|i| i.id).collect();
    // Operations with a struct result: their extracts stand for the member.
    let mut structs: std::collections::HashSet<u32> = std::collections::HashSet::new();
    let mut extracts: HashMap<u32, (u32, u32)> = HashMap::new();
    let mut node_ids: std::collections::HashSet<u32> = std::collections::HashSet::new();
    let mut nodes = Vec::new();
    for &i in &g.body {
        let Some(inst) = at(i) else { continue };
        let (id, op, operands, ty): (Id, String, Vec<Id>, Id) = match inst {
            Inst::Tosa { ty, result, op, args, .. } => (*result, op.name().to_string(), args.clone(), *ty),
            Inst::CompositeExtract { ty, result, composite, indices } => {
                if let (true, [k]) = (structs.contains(&composite.0), indices.as_slice()) {
                    extracts.insert(result.0, (composite.0, *k));
                    continue;
                }
                (*result, "OpCompositeExtract".to_string(), vec![*composite], *ty)
            }
            Inst::ExtInst { ty, result, set, number, operands } => {
                if matches!(
                    a.sets.get(set),
                    Some(crate::inst::ExtSet::NonSemantic | crate::inst::ExtSet::GraphDebugInfo)
                ) {
                    continue;
                }
                // Another set's operands: read as ids (its grammar is not known here).
                (*result, format!("OpExtInst {number}"), operands.iter().map(|&w| Id(w)).collect(), *ty)
            }
            _ => continue,
        };
        let results = match a.ty(ty) {
            Some(Type::Struct(members)) => {
                structs.insert(id.0);
                members.iter().map(|&m| describe_type(a, m)).collect()
            }
            _ => vec![describe_type(a, ty)],
        };
        node_ids.insert(id.0);
        nodes.push(NodeInfo {
            id: id.0,
            op,
            operands: operands.into_iter().map(|x| x.0).map(|x| ValueInfo::Other { id: x }).collect(),
            results,
        });
    }
    let value = |id: u32| -> ValueInfo {
        if input_ids.contains(&id) {
            return ValueInfo::Input { id };
        }
        if let Some(&(node, member)) = extracts.get(&id) {
            return ValueInfo::Node { id: node, member };
        }
        if node_ids.contains(&id) {
            return ValueInfo::Node { id, member: 0 };
        }
        match a.def(Id(id)) {
            Some(Inst::GraphConstant { graph_constant_id, .. }) => {
                ValueInfo::GraphConstant { id, graph_constant_id: *graph_constant_id }
            }
            Some(
                Inst::Constant { .. }
                | Inst::ConstantTrue { .. }
                | Inst::ConstantFalse { .. }
                | Inst::ConstantComposite { .. }
                | Inst::ConstantCompositeReplicate { .. }
                | Inst::ConstantNull { .. },
            ) => ValueInfo::Constant { id },
            _ => ValueInfo::Other { id },
        }
    };
    for n in &mut nodes {
        for v in &mut n.operands {
            *v = value(v.id());
        }
    }
    let outputs = g
        .outputs
        .iter()
        .filter_map(|&i| match at(i) {
            Some(Inst::GraphSetOutput { value: v, output_index, element_index }) => Some(GraphOutputInfo {
                index: a.const_uint(*output_index),
                element: element_index.and_then(|e| a.const_uint(e)),
                value: value(v.0),
            }),
            _ => None,
        })
        .collect();
    (inputs, nodes, outputs)
}
