//! A summary of a module for `spvgraph info`: graphs, entry points, interface
//! types and bindings, graph constants, operator histogram.

use crate::analysis::{Analysis, Type};
use crate::elem::ElemType;
use crate::inst::{Id, Inst};
use crate::module::Module;
use crate::text::FriendlyNames;
use serde::Serialize;
use std::collections::BTreeMap;

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
    /// Input types from the graph type.
    pub inputs: Vec<String>,
    /// Output types from the graph type.
    pub outputs: Vec<String>,
    /// TOSA operations in the body.
    pub operations: usize,
    /// Whether the definition ends with `OpGraphEndARM`.
    pub closed: bool,
}

/// One graph constant.
#[derive(Debug, Clone, Serialize)]
pub struct GraphConstantInfo {
    /// Friendly name of the result.
    pub name: String,
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
        info.graphs.push(GraphInfo { name: names.get(g.result), inputs, outputs, operations, closed: g.end.is_some() });
    }
    info
}
