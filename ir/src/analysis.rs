//! Graph-level views over a [`Module`]: definitions, names, types, constants,
//! graphs and their interfaces.
//!
//! Nothing here assumes the module is valid: lookups that do not resolve
//! return `None`, and graph views are built from whatever order the
//! instructions are in.

use crate::elem::{ElemType, ScalarKind};
use crate::inst::{ExtSet, Id, Inst};
use crate::module::Module;
use crate::tosa::TosaOp;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};

/// How many references a resolution follows before giving up (tensor ranks
/// are at most 6 and nesting is shallow in any real module).
const MAX_DEPTH: u32 = 64;

/// A resolved type declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `OpTypeVoid`.
    Void,
    /// A scalar (`OpTypeBool`, `OpTypeInt`, `OpTypeFloat`).
    Scalar(ScalarKind),
    /// `OpTypeArray` with its length if it is a readable constant.
    Array {
        /// Element type.
        element: Id,
        /// Length value.
        length: Option<u64>,
    },
    /// `OpTypeRuntimeArray`.
    RuntimeArray {
        /// Element type.
        element: Id,
    },
    /// `OpTypeStruct`.
    Struct(Vec<Id>),
    /// `OpTypePointer`.
    Pointer {
        /// Storage class.
        storage: u32,
        /// Pointee type.
        pointee: Id,
    },
    /// `OpTypeTensorARM`.
    Tensor(TensorType),
    /// `OpTypeGraphARM`.
    Graph {
        /// Input types.
        inputs: Vec<Id>,
        /// Output types.
        outputs: Vec<Id>,
    },
    /// Any other type instruction.
    Other,
}

/// A resolved `OpTypeTensorARM`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorType {
    /// The element type id.
    pub element: Id,
    /// The element type, when it is one TOSA knows.
    pub elem: Option<ElemType>,
    /// The rank, when present and a readable constant.
    pub rank: Option<u64>,
    /// The shape, when present and every entry is a readable constant.
    pub shape: Option<Vec<u64>>,
    /// Whether a Rank operand is present (it may be a spec constant).
    pub ranked: bool,
    /// Whether a Shape operand is present.
    pub shaped: bool,
}

impl TensorType {
    /// The number of elements of a shaped tensor.
    pub fn element_count(&self) -> Option<u64> {
        self.shape.as_ref().and_then(|s| crate::count::checked(s.iter().copied()))
    }
}

/// One graph definition: `OpGraphARM` up to `OpGraphEndARM`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphView {
    /// The graph's result id.
    pub result: Id,
    /// Its `OpTypeGraphARM`.
    pub ty: Id,
    /// Index of `OpGraphARM` in [`Module::insts`].
    pub begin: usize,
    /// Index of `OpGraphEndARM`, if the graph is closed.
    pub end: Option<usize>,
    /// Indices of `OpGraphInputARM`s.
    pub inputs: Vec<usize>,
    /// Indices of the other instructions in the graph body.
    pub body: Vec<usize>,
    /// Indices of `OpGraphSetOutputARM`s.
    pub outputs: Vec<usize>,
}

/// Lookup tables over a module.
#[derive(Debug)]
pub struct Analysis<'m> {
    /// The module analysed.
    pub module: &'m Module,
    /// Result id → index of the defining instruction (first definition wins).
    pub defs: HashMap<Id, usize>,
    /// `OpName` names.
    pub names: HashMap<Id, &'m str>,
    /// Imported instruction sets.
    pub sets: HashMap<Id, ExtSet>,
    /// Decorations per target: (decoration, literals).
    pub decorations: HashMap<Id, Vec<(u32, &'m [u32])>>,
    /// Graph definitions in module order.
    pub graphs: Vec<GraphView>,
    /// Indices of `OpGraphEntryPointARM` instructions.
    pub graph_entry_points: Vec<usize>,
    /// Resolved types; an entry is `None` while its resolution is in
    /// progress, so a cycle resolves to `None` and every id resolves once.
    ty_cache: RefCell<HashMap<Id, Option<Type>>>,
}

impl<'m> Analysis<'m> {
    /// Builds the tables in one pass.
    pub fn new(module: &'m Module) -> Analysis<'m> {
        let mut a = Analysis {
            module,
            defs: HashMap::new(),
            names: HashMap::new(),
            sets: HashMap::new(),
            decorations: HashMap::new(),
            graphs: Vec::new(),
            graph_entry_points: Vec::new(),
            ty_cache: RefCell::new(HashMap::new()),
        };
        let mut open: Option<GraphView> = None;
        for (i, inst) in module.insts.iter().enumerate() {
            if let Some(id) = inst.result_id() {
                a.defs.entry(id).or_insert(i);
            }
            match inst {
                Inst::Name { target, name } => {
                    a.names.entry(*target).or_insert(name.as_str());
                }
                Inst::ExtInstImport { result, name } => {
                    a.sets.insert(*result, ExtSet::from_import_name(name));
                }
                Inst::Decorate { target, decoration, literals } => {
                    a.decorations.entry(*target).or_default().push((*decoration, literals.as_slice()));
                }
                Inst::GraphEntryPoint { .. } => a.graph_entry_points.push(i),
                Inst::Graph { ty, result } => {
                    a.graphs.extend(open.take());
                    open = Some(GraphView {
                        result: *result,
                        ty: *ty,
                        begin: i,
                        end: None,
                        inputs: Vec::new(),
                        body: Vec::new(),
                        outputs: Vec::new(),
                    });
                }
                Inst::GraphEnd => {
                    if let Some(mut g) = open.take() {
                        g.end = Some(i);
                        a.graphs.push(g);
                    }
                }
                Inst::GraphInput { .. } => {
                    if let Some(g) = open.as_mut() {
                        g.inputs.push(i);
                    }
                }
                Inst::GraphSetOutput { .. } => {
                    if let Some(g) = open.as_mut() {
                        g.outputs.push(i);
                    }
                }
                _ => {
                    if let Some(g) = open.as_mut() {
                        g.body.push(i);
                    }
                }
            }
        }
        a.graphs.extend(open);
        a
    }

    /// The instruction defining `id`.
    pub fn def(&self, id: Id) -> Option<&'m Inst> {
        self.defs.get(&id).and_then(|&i| self.module.insts.get(i))
    }

    /// The `OpName` of `id`, if any.
    pub fn name(&self, id: Id) -> Option<&'m str> {
        self.names.get(&id).copied()
    }

    /// The literals of decoration `decoration` on `id` (first occurrence).
    pub fn decoration(&self, id: Id, decoration: spirv::Decoration) -> Option<&'m [u32]> {
        self.decorations.get(&id)?.iter().find(|(d, _)| *d == decoration as u32).map(|(_, l)| *l)
    }

    /// Resolves a type id.
    pub fn ty(&self, id: Id) -> Option<Type> {
        self.ty_at(id, 0)
    }

    // Type and constant declarations can refer to themselves in modules that
    // decode but are invalid (a tensor whose element type is itself, an array
    // whose length constant has the array type), so every resolution that
    // follows references carries a depth and gives up past MAX_DEPTH.
    fn ty_at(&self, id: Id, depth: u32) -> Option<Type> {
        if let Some(cached) = self.ty_cache.borrow().get(&id) {
            return cached.clone();
        }
        if depth > MAX_DEPTH {
            return None;
        }
        self.ty_cache.borrow_mut().insert(id, None);
        let t = self.resolve_ty(id, depth + 1);
        self.ty_cache.borrow_mut().insert(id, t.clone());
        t
    }

    fn resolve_ty(&self, id: Id, d: u32) -> Option<Type> {
        let t = match self.def(id)? {
            Inst::TypeVoid { .. } => Type::Void,
            Inst::TypeBool { .. } => Type::Scalar(ScalarKind::Bool),
            Inst::TypeInt { width, signedness, .. } => {
                Type::Scalar(ScalarKind::Int { width: *width, signed: *signedness != 0 })
            }
            Inst::TypeFloat { width, encoding, .. } => {
                Type::Scalar(ScalarKind::Float { width: *width, encoding: *encoding })
            }
            Inst::TypeArray { element, length, .. } => {
                Type::Array { element: *element, length: self.const_uint_at(*length, d) }
            }
            Inst::TypeRuntimeArray { element, .. } => Type::RuntimeArray { element: *element },
            Inst::TypeStruct { members, .. } => Type::Struct(members.clone()),
            Inst::TypePointer { storage, pointee, .. } => Type::Pointer { storage: *storage, pointee: *pointee },
            Inst::TypeTensor { element, rank, shape, .. } => Type::Tensor(TensorType {
                element: *element,
                elem: self.scalar_kind_at(*element, d).and_then(ElemType::from_spirv),
                rank: rank.and_then(|r| self.const_uint_at(r, d)),
                shape: shape.and_then(|s| self.const_uint_array_at(s, d)),
                ranked: rank.is_some(),
                shaped: shape.is_some(),
            }),
            Inst::TypeGraph { num_inputs, io, .. } => {
                let k = (*num_inputs as usize).min(io.len());
                Type::Graph { inputs: io[..k].to_vec(), outputs: io[k..].to_vec() }
            }
            inst if inst.is_type() => Type::Other,
            _ => return None,
        };
        Some(t)
    }

    /// The scalar kind of a scalar type id.
    pub fn scalar_kind(&self, id: Id) -> Option<ScalarKind> {
        self.scalar_kind_at(id, 0)
    }

    fn scalar_kind_at(&self, id: Id, depth: u32) -> Option<ScalarKind> {
        match self.ty_at(id, depth)? {
            Type::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The tensor type of a type id.
    pub fn tensor_type(&self, id: Id) -> Option<TensorType> {
        match self.ty(id)? {
            Type::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// The type id of a value (the result type of its definition).
    pub fn type_of(&self, value: Id) -> Option<Id> {
        self.def(value)?.result_type()
    }

    /// The value of a non-spec integer `OpConstant`, zero-extended from its
    /// declared width (`OpConstantNull` of an integer type reads as 0).
    pub fn const_uint(&self, id: Id) -> Option<u64> {
        self.const_uint_at(id, 0)
    }

    fn const_uint_at(&self, id: Id, depth: u32) -> Option<u64> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.def(id)? {
            Inst::Constant { ty, value, spec: false, .. } => match self.scalar_kind_at(*ty, depth + 1)? {
                ScalarKind::Int { width, .. } => Some(raw_bits(value, width)),
                _ => None,
            },
            Inst::ConstantNull { ty, .. } => match self.scalar_kind_at(*ty, depth + 1)? {
                ScalarKind::Int { .. } => Some(0),
                _ => None,
            },
            _ => None,
        }
    }

    /// The elements of a constant integer array (`OpConstantComposite` of an
    /// `OpTypeArray`, or `OpConstantNull`).
    pub fn const_uint_array(&self, id: Id) -> Option<Vec<u64>> {
        self.const_uint_array_at(id, 0)
    }

    fn const_uint_array_at(&self, id: Id, depth: u32) -> Option<Vec<u64>> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.def(id)? {
            Inst::ConstantComposite { constituents, spec: false, .. } => {
                constituents.iter().map(|&c| self.const_uint_at(c, depth + 1)).collect()
            }
            Inst::ConstantNull { ty, .. } => match self.ty_at(*ty, depth + 1)? {
                Type::Array { length: Some(n), .. } if n <= 1 << 20 => Some(vec![0; n as usize]),
                _ => None,
            },
            _ => None,
        }
    }

    /// The raw bit patterns of a scalar constant, flattened from a tensor
    /// constant (nested composites, replicate, null) in row-major order;
    /// `None` for graph constants (their data is bound by the API), spec
    /// constants, and anything malformed. `limit` bounds the element count.
    pub fn const_tensor_bits(&self, id: Id, limit: u64) -> Option<Vec<u64>> {
        // Constituents may repeat (or contain) the same constant, so the walk
        // is bounded by a visit budget, not only by depth.
        let budget = Cell::new(limit.saturating_mul(2).saturating_add(1024));
        self.const_tensor_bits_at(id, limit, 0, &budget)
    }

    fn const_tensor_bits_at(&self, id: Id, limit: u64, depth: u32, budget: &Cell<u64>) -> Option<Vec<u64>> {
        if depth > MAX_DEPTH || budget.get() == 0 {
            return None;
        }
        budget.set(budget.get() - 1);
        let inst = self.def(id)?;
        let ty = inst.result_type()?;
        match self.ty_at(ty, depth + 1)? {
            Type::Scalar(kind) => self.const_scalar_bits(inst, kind).map(|b| vec![b]),
            Type::Tensor(t) => {
                let count = t.element_count()?;
                if count > limit {
                    return None;
                }
                match inst {
                    Inst::ConstantNull { .. } => Some(vec![0; count as usize]),
                    Inst::ConstantCompositeReplicate { constituent, spec: false, .. } => {
                        let one = self.const_tensor_bits_at(*constituent, limit, depth + 1, budget)?;
                        match one.as_slice() {
                            [b] => Some(vec![*b; count as usize]),
                            _ => None,
                        }
                    }
                    Inst::ConstantComposite { constituents, spec: false, .. } => {
                        let mut out = Vec::with_capacity(count as usize);
                        for c in constituents {
                            out.extend(self.const_tensor_bits_at(*c, limit, depth + 1, budget)?);
                            if out.len() as u64 > count {
                                return None;
                            }
                        }
                        (out.len() as u64 == count).then_some(out)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn const_scalar_bits(&self, inst: &Inst, kind: ScalarKind) -> Option<u64> {
        match (inst, kind) {
            (Inst::ConstantTrue { spec: false, .. }, ScalarKind::Bool) => Some(1),
            (Inst::ConstantFalse { spec: false, .. }, ScalarKind::Bool) => Some(0),
            (Inst::ConstantNull { .. }, _) => Some(0),
            (Inst::Constant { value, spec: false, .. }, ScalarKind::Int { width, .. })
            | (Inst::Constant { value, spec: false, .. }, ScalarKind::Float { width, .. }) => {
                Some(raw_bits(value, width))
            }
            _ => None,
        }
    }

    /// The TOSA operator histogram over all graphs (operator name → count).
    pub fn tosa_histogram(&self) -> BTreeMap<&'static str, usize> {
        let mut h = BTreeMap::new();
        for inst in &self.module.insts {
            if let Inst::Tosa { op, .. } = inst {
                *h.entry(op.name()).or_insert(0) += 1;
            }
        }
        h
    }

    /// The TOSA operators used (each once), in opcode order.
    pub fn tosa_ops(&self) -> Vec<TosaOp> {
        let mut ops: Vec<TosaOp> = self
            .module
            .insts
            .iter()
            .filter_map(|i| if let Inst::Tosa { op, .. } = i { Some(*op) } else { None })
            .collect();
        ops.sort_by_key(|o| o.opcode());
        ops.dedup();
        ops
    }

    /// The graph view whose result is `graph`.
    pub fn graph(&self, graph: Id) -> Option<&GraphView> {
        self.graphs.iter().find(|g| g.result == graph)
    }
}

/// The value of the low `width` bits of little-endian value words.
#[inline]
pub fn raw_bits(words: &[u32], width: u32) -> u64 {
    let lo = u64::from(words.first().copied().unwrap_or(0));
    let hi = u64::from(words.get(1).copied().unwrap_or(0));
    let v = lo | (hi << 32);
    if width >= 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_referencing_declarations_resolve_to_none_instead_of_overflowing() {
        // A tensor type whose element type is itself (found by the roundtrip fuzzer).
        let words = [0x0723_0203, 0x0001_0600, 0x6d, 3, 6, 0x0005_1043, 111, 111, 17_825_904, 69_632];
        let m = Module::decode_words(&words).expect("decodes");
        let a = Analysis::new(&m);
        assert!(matches!(a.ty(Id(111)), Some(Type::Tensor(TensorType { elem: None, .. }))));
        // An array whose length constant has the array's own type.
        let m = Module {
            header: crate::binary::Header { version: 0x10600, generator: 0, bound: 10, schema: 0 },
            endian: crate::binary::Endian::Little,
            insts: vec![
                Inst::TypeArray { result: Id(2), element: Id(3), length: Id(4) },
                Inst::Constant { ty: Id(2), result: Id(4), value: vec![5], spec: false },
                Inst::ConstantCompositeReplicate { ty: Id(2), result: Id(5), constituent: Id(5), spec: false },
            ],
        };
        let a = Analysis::new(&m);
        assert_eq!(a.ty(Id(2)), Some(Type::Array { element: Id(3), length: None }));
        assert_eq!(a.const_tensor_bits(Id(5), 1 << 20), None);
        let _ = crate::text::disassemble(&m);
        let _ = crate::info::module_info(&m);
    }

    #[test]
    fn repeated_self_constituents_do_not_explode() {
        let m = Module {
            header: crate::binary::Header { version: 0x10600, generator: 0, bound: 10, schema: 0 },
            endian: crate::binary::Endian::Little,
            insts: vec![
                Inst::TypeInt { result: Id(1), width: 32, signedness: 0 },
                Inst::Constant { ty: Id(1), result: Id(2), value: vec![4], spec: false },
                Inst::TypeArray { result: Id(3), element: Id(1), length: Id(2) },
                Inst::ConstantComposite { ty: Id(3), result: Id(4), constituents: vec![Id(2); 4], spec: false },
                Inst::TypeTensor { result: Id(5), element: Id(1), rank: Some(Id(2)), shape: Some(Id(4)) },
                Inst::ConstantComposite { ty: Id(5), result: Id(6), constituents: vec![Id(6); 4], spec: false },
            ],
        };
        let a = Analysis::new(&m);
        assert_eq!(a.const_tensor_bits(Id(6), 1 << 20), None);
    }
}
