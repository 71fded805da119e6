//! Building modules in the logical layout, with types and constants declared
//! once and before their uses, and the capabilities/extensions each construct
//! needs added as it is used.

use crate::binary::Header;
use crate::elem::{ElemType, ScalarKind};
use crate::inst::{Id, Inst, TOSA_SET_NAME};
use crate::module::Module;
use crate::shader;
use crate::tosa::TosaOp;
use rustc_hash::FxHashMap as HashMap;
use spirv::{Capability, Decoration, StorageClass};

/// SPIR-V 1.6, the version the builder writes by default.
pub const VERSION_1_6: u32 = 0x0001_0600;

/// Hash key of a type or constant, so each is declared once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Void,
    Scalar(ScalarKindKey),
    Array(Id, Id),
    Tensor(Id, Option<Id>, Option<Id>),
    Pointer(u32, Id),
    Struct(Vec<Id>),
    Graph(u32, Vec<Id>),
    Const(Id, Vec<u32>),
    Bool(bool),
    Composite(Id, Vec<Id>),
    Null(Id),
    Replicate(Id, Id),
    Function(Id, Vec<Id>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ScalarKindKey {
    Bool,
    Int(u32, bool),
    Float(u32, Option<u32>),
}

/// Assembles a module section by section.
#[derive(Debug, Default)]
pub struct ModuleBuilder {
    next_id: u32,
    version: u32,
    capabilities: Vec<u32>,
    extensions: Vec<String>,
    imports: Vec<Inst>,
    import_ids: HashMap<String, Id>,
    strings: Vec<Inst>,
    debug: Vec<Inst>,
    annotations: Vec<Inst>,
    globals: Vec<Inst>,
    shader_entry_points: Vec<Inst>,
    execution_modes: Vec<Inst>,
    entry_points: Vec<Inst>,
    functions: Vec<Inst>,
    graphs: Vec<Inst>,
    after_graphs: Vec<Inst>,
    dedup: HashMap<Key, Id>,
    /// Shortcuts past `dedup` for the lookups a generator makes per node
    /// (same ids: each holds only what `dedup` already gave out).
    memo: Memo,
}

/// Ids already given out by [`ModuleBuilder::global`] for the hottest keys,
/// looked up without building a [`Key`] (which allocates for constants and
/// shapes) and without the capability bookkeeping a first use does.
#[derive(Debug, Default)]
struct Memo {
    /// Scalar types (a handful per module: a linear scan).
    scalars: Vec<(ScalarKind, Id)>,
    /// `OpConstant` of `OpTypeInt 32 0`, by value.
    u32s: HashMap<u32, Id>,
    /// Shaped tensor types, keyed by the element type's index followed by
    /// the dimensions.
    tensors: HashMap<Vec<u32>, Id>,
    /// The buffer a tensor key is built in for a lookup.
    key: Vec<u32>,
}

impl ModuleBuilder {
    /// A builder for a graph module: `Shader`, `TensorsARM`, `GraphARM`,
    /// `VulkanMemoryModel`, the two ARM extensions and `OpMemoryModel Logical Vulkan`.
    pub fn new() -> ModuleBuilder {
        let mut b = ModuleBuilder { next_id: 1, version: VERSION_1_6, ..Default::default() };
        for c in [Capability::Shader, Capability::VulkanMemoryModel, Capability::TensorsARM, Capability::GraphARM] {
            b.capability(c);
        }
        b.extension("SPV_ARM_tensors");
        b.extension("SPV_ARM_graph");
        b
    }

    /// Sets the version word written in the header.
    pub fn set_version(&mut self, version: u32) {
        self.version = version;
    }

    /// A fresh id.
    pub fn id(&mut self) -> Id {
        let id = Id(self.next_id);
        self.next_id += 1;
        id
    }

    /// Declares a capability once.
    pub fn capability(&mut self, c: Capability) {
        let c = c as u32;
        if !self.capabilities.contains(&c) {
            self.capabilities.push(c);
        }
    }

    /// Declares an extension once.
    pub fn extension(&mut self, name: &str) {
        if !self.extensions.iter().any(|e| e == name) {
            self.extensions.push(name.to_string());
        }
    }

    /// Imports an extended instruction set once.
    pub fn import(&mut self, name: &str) -> Id {
        if let Some(&id) = self.import_ids.get(name) {
            return id;
        }
        let id = self.id();
        self.imports.push(Inst::ExtInstImport { result: id, name: name.to_string() });
        self.import_ids.insert(name.to_string(), id);
        id
    }

    /// The `TOSA.001000.1` import.
    pub fn tosa_set(&mut self) -> Id {
        self.import(TOSA_SET_NAME)
    }

    /// The NonSemantic.Graph.DebugInfo (version 1) import, with its extension.
    pub fn graph_debug_set(&mut self) -> Id {
        self.extension("SPV_KHR_non_semantic_info");
        self.import("NonSemantic.Graph.DebugInfo.1")
    }

    fn global(&mut self, key: Key, make: impl FnOnce(Id) -> Inst) -> Id {
        if let Some(&id) = self.dedup.get(&key) {
            return id;
        }
        let id = self.id();
        let inst = make(id);
        self.globals.push(inst);
        self.dedup.insert(key, id);
        id
    }

    /// `OpTypeVoid`.
    pub fn type_void(&mut self) -> Id {
        self.global(Key::Void, |result| Inst::TypeVoid { result })
    }

    /// A scalar type, with the capability/extension it needs.
    pub fn type_scalar(&mut self, kind: ScalarKind) -> Id {
        if let Some(&(_, id)) = self.memo.scalars.iter().find(|(k, _)| *k == kind) {
            return id;
        }
        match kind {
            ScalarKind::Int { width: 8, .. } => self.capability(Capability::Int8),
            ScalarKind::Int { width: 16, .. } => self.capability(Capability::Int16),
            ScalarKind::Int { width: 64, .. } => self.capability(Capability::Int64),
            ScalarKind::Float { width: 16, encoding: None } => self.capability(Capability::Float16),
            ScalarKind::Float { encoding: Some(crate::elem::FP_ENCODING_BFLOAT16), .. } => {
                self.capability(Capability::BFloat16TypeKHR);
                self.extension("SPV_KHR_bfloat16");
            }
            ScalarKind::Float { encoding: Some(_), .. } => {
                self.capability(Capability::Float8EXT);
                self.extension("SPV_EXT_float8");
            }
            _ => {}
        }
        let key = Key::Scalar(match kind {
            ScalarKind::Bool => ScalarKindKey::Bool,
            ScalarKind::Int { width, signed } => ScalarKindKey::Int(width, signed),
            ScalarKind::Float { width, encoding } => ScalarKindKey::Float(width, encoding),
        });
        let id = self.global(key, |result| match kind {
            ScalarKind::Bool => Inst::TypeBool { result },
            ScalarKind::Int { width, signed } => Inst::TypeInt { result, width, signedness: u32::from(signed) },
            ScalarKind::Float { width, encoding } => Inst::TypeFloat { result, width, encoding },
        });
        self.memo.scalars.push((kind, id));
        id
    }

    /// The scalar type of a TOSA element type.
    pub fn type_elem(&mut self, elem: ElemType) -> Id {
        self.type_scalar(elem.to_spirv())
    }

    /// `OpTypeInt 32 0`.
    pub fn type_u32(&mut self) -> Id {
        self.type_scalar(ScalarKind::Int { width: 32, signed: false })
    }

    /// An `OpConstant` of `OpTypeInt 32 0`.
    pub fn const_u32(&mut self, v: u32) -> Id {
        if let Some(&id) = self.memo.u32s.get(&v) {
            return id;
        }
        let ty = self.type_u32();
        let id =
            self.global(Key::Const(ty, vec![v]), |result| Inst::Constant { ty, result, value: vec![v], spec: false });
        self.memo.u32s.insert(v, id);
        id
    }

    /// `OpConstantTrue`/`OpConstantFalse` of `OpTypeBool`.
    pub fn const_bool(&mut self, v: bool) -> Id {
        let ty = self.type_scalar(ScalarKind::Bool);
        self.global(Key::Bool(v), |result| {
            if v {
                Inst::ConstantTrue { ty, result, spec: false }
            } else {
                Inst::ConstantFalse { ty, result, spec: false }
            }
        })
    }

    /// A scalar constant of `elem` from its raw bit pattern (low bits used;
    /// 64-bit values take two words; bool uses True/False).
    pub fn const_scalar(&mut self, elem: ElemType, bits: u64) -> Id {
        if elem == ElemType::Bool {
            return self.const_bool(bits != 0);
        }
        let ty = self.type_elem(elem);
        let width = elem.storage_bits();
        let masked = if width >= 64 { bits } else { bits & ((1u64 << width) - 1) };
        let value = if width > 32 { vec![masked as u32, (masked >> 32) as u32] } else { vec![masked as u32] };
        self.global(Key::Const(ty, value.clone()), |result| Inst::Constant { ty, result, value, spec: false })
    }

    /// `OpTypeArray elem len` (length as a u32 constant).
    pub fn type_array(&mut self, element: Id, len: u32) -> Id {
        let length = self.const_u32(len);
        self.global(Key::Array(element, length), |result| Inst::TypeArray { result, element, length })
    }

    /// `OpTypeTensorARM`: unranked (`rank: None`), ranked-only (`shape: None`
    /// with `ranked`), or shaped.
    pub fn type_tensor(&mut self, elem: ElemType, shape: Option<&[u32]>) -> Id {
        let element = self.type_elem(elem);
        match shape {
            Some(dims) => {
                let mut key = std::mem::take(&mut self.memo.key);
                key.clear();
                key.push(elem as u32);
                key.extend_from_slice(dims);
                if let Some(&id) = self.memo.tensors.get(key.as_slice()) {
                    self.memo.key = key;
                    return id;
                }
                let rank = self.const_u32(dims.len() as u32);
                let u32t = self.type_u32();
                let arr = self.type_array(u32t, dims.len() as u32);
                let parts: Vec<Id> = dims.iter().map(|&d| self.const_u32(d)).collect();
                let shape_c = self.const_composite(arr, parts);
                let id = self.global(Key::Tensor(element, Some(rank), Some(shape_c)), |result| Inst::TypeTensor {
                    result,
                    element,
                    rank: Some(rank),
                    shape: Some(shape_c),
                });
                self.memo.tensors.insert(key, id);
                id
            }
            None => self.global(Key::Tensor(element, None, None), |result| Inst::TypeTensor {
                result,
                element,
                rank: None,
                shape: None,
            }),
        }
    }

    /// A ranked but unshaped tensor type.
    pub fn type_tensor_ranked(&mut self, elem: ElemType, rank: u32) -> Id {
        let element = self.type_elem(elem);
        let r = self.const_u32(rank);
        self.global(Key::Tensor(element, Some(r), None), |result| Inst::TypeTensor {
            result,
            element,
            rank: Some(r),
            shape: None,
        })
    }

    /// `OpConstantComposite ty parts`.
    pub fn const_composite(&mut self, ty: Id, parts: Vec<Id>) -> Id {
        self.global(Key::Composite(ty, parts.clone()), |result| Inst::ConstantComposite {
            ty,
            result,
            constituents: parts,
            spec: false,
        })
    }

    /// `OpConstantNull ty`.
    pub fn const_null(&mut self, ty: Id) -> Id {
        self.global(Key::Null(ty), |result| Inst::ConstantNull { ty, result })
    }

    /// `OpConstantCompositeReplicateEXT ty scalar`, with its capability and extension.
    pub fn const_replicate(&mut self, ty: Id, scalar: Id) -> Id {
        self.capability(Capability::ReplicatedCompositesEXT);
        self.extension("SPV_EXT_replicated_composites");
        self.global(Key::Replicate(ty, scalar), |result| Inst::ConstantCompositeReplicate {
            ty,
            result,
            constituent: scalar,
            spec: false,
        })
    }

    /// A shaped tensor constant from row-major raw element bits, as nested
    /// `OpConstantComposite`s. `bits.len()` must equal the element count;
    /// returns `None` otherwise (or for an empty shape).
    pub fn const_tensor(&mut self, elem: ElemType, shape: &[u32], bits: &[u64]) -> Option<Id> {
        let count = crate::count::checked_len_u32(shape)?;
        if shape.is_empty() || count != bits.len() {
            return None;
        }
        Some(self.const_tensor_rec(elem, shape, bits))
    }

    fn const_tensor_rec(&mut self, elem: ElemType, shape: &[u32], bits: &[u64]) -> Id {
        let ty = self.type_tensor(elem, Some(shape));
        let parts: Vec<Id> = if shape.len() == 1 {
            bits.iter().map(|&b| self.const_scalar(elem, b)).collect()
        } else {
            let stride = bits.len() / shape[0].max(1) as usize;
            bits.chunks(stride.max(1)).map(|c| self.const_tensor_rec(elem, &shape[1..], c)).collect()
        };
        self.const_composite(ty, parts)
    }

    /// A rank-1 `i32` tensor constant (attribute vectors such as pad/stride),
    /// values as two's-complement words.
    pub fn const_i32_vector(&mut self, values: &[i32]) -> Id {
        let bits: Vec<u64> = values.iter().map(|&v| u64::from(v as u32)).collect();
        let shape = [values.len().max(1) as u32];
        match self.const_tensor(ElemType::I32, &shape, &bits) {
            Some(id) => id,
            None => {
                let ty = self.type_tensor(ElemType::I32, Some(&shape));
                self.const_null(ty)
            }
        }
    }

    /// `OpGraphConstantARM ty id` (not deduplicated: each call is a new constant).
    pub fn graph_constant(&mut self, ty: Id, graph_constant_id: u32) -> Id {
        let result = self.id();
        self.globals.push(Inst::GraphConstant { ty, result, graph_constant_id });
        result
    }

    /// `OpTypeStruct`.
    pub fn type_struct(&mut self, members: Vec<Id>) -> Id {
        self.global(Key::Struct(members.clone()), |result| Inst::TypeStruct { result, members })
    }

    /// `OpTypePointer storage pointee`.
    pub fn type_pointer(&mut self, storage: StorageClass, pointee: Id) -> Id {
        let s = storage as u32;
        self.global(Key::Pointer(s, pointee), |result| Inst::TypePointer { result, storage: s, pointee })
    }

    /// `OpTypeGraphARM` with inputs then outputs.
    pub fn type_graph(&mut self, inputs: &[Id], outputs: &[Id]) -> Id {
        let mut io = inputs.to_vec();
        io.extend_from_slice(outputs);
        let n = inputs.len() as u32;
        self.global(Key::Graph(n, io.clone()), |result| Inst::TypeGraph { result, num_inputs: n, io })
    }

    /// A `UniformConstant` interface variable of type `ty` with DescriptorSet/Binding.
    pub fn interface_variable(&mut self, ty: Id, set: u32, binding: u32) -> Id {
        let ptr = self.type_pointer(StorageClass::UniformConstant, ty);
        let result = self.id();
        self.globals.push(Inst::Variable {
            ty: ptr,
            result,
            storage: StorageClass::UniformConstant as u32,
            initializer: None,
        });
        self.decorate(result, Decoration::DescriptorSet, &[set]);
        self.decorate(result, Decoration::Binding, &[binding]);
        result
    }

    /// `OpDecorate`.
    pub fn decorate(&mut self, target: Id, decoration: Decoration, literals: &[u32]) {
        self.annotations.push(Inst::Decorate { target, decoration: decoration as u32, literals: literals.to_vec() });
    }

    /// `OpName` (a NUL in `name` becomes `_`: literal strings end at the first NUL).
    pub fn name(&mut self, target: Id, name: &str) {
        self.debug.push(Inst::Name { target, name: name.replace('\0', "_") });
    }

    /// `OpString` (kept before every `OpName`, as the layout requires; a NUL
    /// becomes `_`).
    pub fn string(&mut self, text: &str) -> Id {
        let result = self.id();
        self.strings.push(Inst::String { result, text: text.replace('\0', "_") });
        result
    }

    /// Appends a global declaration as given (not deduplicated: the caller
    /// keeps types unique), e.g. a specialization constant.
    pub fn global_inst(&mut self, inst: Inst) {
        self.globals.push(inst);
    }

    /// `OpTypeFunction ret params...`.
    pub fn type_function(&mut self, ret: Id, params: &[Id]) -> Id {
        self.global(Key::Function(ret, params.to_vec()), |result| shader::type_function(result, ret, params))
    }

    /// A global `OpVariable` of `pointee` in `storage`, without decorations.
    pub fn variable(&mut self, storage: StorageClass, pointee: Id) -> Id {
        let ptr = self.type_pointer(storage, pointee);
        let result = self.id();
        self.globals.push(Inst::Variable { ty: ptr, result, storage: storage as u32, initializer: None });
        result
    }

    /// `OpEntryPoint` of a shader stage (in the entry-point section, before
    /// the execution modes).
    pub fn entry_point(&mut self, model: spirv::ExecutionModel, function: Id, name: &str, interface: &[Id]) {
        self.shader_entry_points.push(shader::entry_point(model, function, name, interface));
    }

    /// `OpExecutionMode function mode literals...`.
    pub fn execution_mode(&mut self, function: Id, mode: spirv::ExecutionMode, literals: &[u32]) {
        self.execution_modes.push(shader::execution_mode(function, mode, literals));
    }

    /// Starts a function definition and its one block (`OpFunction`,
    /// `OpLabel`; function control None); returns the function id. Function
    /// definitions come after the global declarations and before the graphs.
    pub fn begin_function(&mut self, ret: Id, fn_type: Id) -> Id {
        let result = self.id();
        let label = self.id();
        self.functions.push(shader::function(ret, result, fn_type));
        self.functions.push(shader::label(label));
        result
    }

    /// Appends an instruction to the current function's block.
    pub fn function_inst(&mut self, inst: Inst) {
        self.functions.push(inst);
    }

    /// `OpLoad ty pointer` in the current function's block.
    pub fn load(&mut self, ty: Id, pointer: Id) -> Id {
        let result = self.id();
        self.functions.push(shader::load(ty, result, pointer));
        result
    }

    /// The global variables the functions so far load from, each once.
    pub fn loaded_variables(&self) -> Vec<Id> {
        let mut out: Vec<Id> = Vec::new();
        for p in self.functions.iter().filter_map(shader::loaded_pointer) {
            let global = self.globals.iter().any(|g| matches!(g, Inst::Variable { result, .. } if *result == p));
            if global && !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// Ends the current function: `OpReturn`, `OpFunctionEnd`.
    pub fn end_function(&mut self) {
        self.functions.push(shader::ret());
        self.functions.push(shader::function_end());
    }

    /// `OpGraphEntryPointARM` (placed before the graph definitions).
    pub fn graph_entry_point(&mut self, graph: Id, name: &str, interface: Vec<Id>) {
        self.entry_points.push(Inst::GraphEntryPoint { graph, name: name.to_string(), interface });
    }

    /// Starts a graph definition; returns the graph id.
    pub fn begin_graph(&mut self, ty: Id) -> Id {
        let result = self.id();
        self.graphs.push(Inst::Graph { ty, result });
        result
    }

    /// `OpGraphInputARM` (index as a u32 constant).
    pub fn graph_input(&mut self, ty: Id, index: u32, element: Option<u32>) -> Id {
        let input_index = self.const_u32(index);
        let element_index = element.map(|e| self.const_u32(e));
        let result = self.id();
        self.graphs.push(Inst::GraphInput { ty, result, input_index, element_index });
        result
    }

    /// A TOSA instruction in the current graph.
    pub fn tosa(&mut self, op: TosaOp, ty: Id, args: Vec<Id>) -> Id {
        let set = self.tosa_set();
        let result = self.id();
        self.graphs.push(Inst::Tosa { ty, result, set, op, args });
        result
    }

    /// `OpCompositeExtract` in the current graph.
    pub fn composite_extract(&mut self, ty: Id, composite: Id, index: u32) -> Id {
        let result = self.id();
        self.graphs.push(Inst::CompositeExtract { ty, result, composite, indices: vec![index] });
        result
    }

    /// Appends an arbitrary instruction to the current graph body.
    pub fn graph_inst(&mut self, inst: Inst) {
        self.graphs.push(inst);
    }

    /// `OpGraphSetOutputARM`.
    pub fn graph_output(&mut self, value: Id, index: u32, element: Option<u32>) {
        let output_index = self.const_u32(index);
        let element_index = element.map(|e| self.const_u32(e));
        self.graphs.push(Inst::GraphSetOutput { value, output_index, element_index });
    }

    /// `OpGraphEndARM`.
    pub fn end_graph(&mut self) {
        self.graphs.push(Inst::GraphEnd);
    }

    /// Appends an instruction after all graph definitions (where model-converter
    /// puts its debug information).
    pub fn after_graphs(&mut self, inst: Inst) {
        self.after_graphs.push(inst);
    }

    /// The module, in the logical layout.
    pub fn finish(self) -> Module {
        let mut insts = Vec::new();
        insts.extend(self.capabilities.iter().map(|&c| Inst::Capability(c)));
        insts.extend(self.extensions.into_iter().map(Inst::Extension));
        insts.extend(self.imports);
        insts.push(Inst::MemoryModel {
            addressing: spirv::AddressingModel::Logical as u32,
            memory: spirv::MemoryModel::Vulkan as u32,
        });
        insts.extend(self.shader_entry_points);
        insts.extend(self.execution_modes);
        insts.extend(self.strings);
        insts.extend(self.debug);
        insts.extend(self.annotations);
        insts.extend(self.globals);
        insts.extend(self.functions);
        insts.extend(self.entry_points);
        insts.extend(self.graphs);
        insts.extend(self.after_graphs);
        Module {
            header: Header { version: self.version, generator: 0, bound: self.next_id, schema: 0 },
            endian: crate::binary::Endian::Little,
            insts,
        }
    }
}
