//! Mutators for the SPV_ARM_tensors instructions in functions (`tensor.*`,
//! `decoration.non-readable-writable-target`, and the VulkanMemoryModel
//! capability some Tensor Operands need). Generated cases have no
//! functions, so each mutator first adds a GLCompute entry point next to
//! the graphs whose function reads, writes and queries tensors correctly
//! ([`Shader`], with randomly chosen element type, rank, shape, Tensor
//! Operands and decorations), then breaks one thing in it.

use super::{interface::new_interface_variable, no_bias, Edit, Mutator};
use crate::Case;
use spirv::{Capability, Decoration, StorageClass};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::shader;
use spvgraph_ir::tensor_access::{
    ConstructReplicate, TensorAccess, TensorOperands, MAKE_ELEMENT_AVAILABLE, MAKE_ELEMENT_VISIBLE, NONTEMPORAL,
    NON_PRIVATE_ELEMENT, OP_TENSOR_QUERY_SIZE, OP_TENSOR_READ, OP_TENSOR_WRITE, OUT_OF_BOUNDS_VALUE,
};

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    let m = |rule, name, apply| Mutator { rule, name, bias: no_bias, apply };
    use RuleId as R;
    vec![
        m(R::TensorAccessNotRanked, "access-through-variable", access_through_variable),
        m(R::TensorAccessNotRanked, "access-unranked-tensor", access_unranked_tensor),
        m(R::TensorAccessCoordinates, "coordinates-wrong-length", coordinates_wrong_length),
        m(R::TensorAccessCoordinates, "coordinates-not-integer", coordinates_not_integer),
        m(R::TensorAccessCoordinates, "coordinates-scalar", coordinates_scalar),
        m(R::TensorReadResultType, "read-other-scalar", read_other_scalar),
        m(R::TensorReadResultType, "read-array-of-other-scalar", read_array_of_other_scalar),
        m(R::TensorReadResultType, "read-void", read_void),
        m(R::TensorWriteObjectType, "write-other-scalar", write_other_scalar),
        m(R::TensorWriteObjectType, "write-array-of-other-scalar", write_array_of_other_scalar),
        m(R::TensorOperandsOutOfBoundsType, "out-of-bounds-other-scalar", out_of_bounds_other_scalar),
        m(R::TensorOperandsOutOfBoundsType, "out-of-bounds-array", out_of_bounds_array),
        m(R::TensorOperandsOutOfBoundsNotConstant, "out-of-bounds-from-read", out_of_bounds_from_read),
        m(R::TensorOperandsInstruction, "out-of-bounds-on-write", out_of_bounds_on_write),
        m(R::TensorOperandsInstruction, "visible-on-write", visible_on_write),
        m(R::TensorOperandsInstruction, "available-on-read", available_on_read),
        m(R::TensorOperandsNonPrivate, "visible-without-non-private", visible_without_non_private),
        m(R::TensorOperandsNonPrivate, "available-without-non-private", available_without_non_private),
        m(R::TensorOperandsScope, "scope-not-integer", scope_not_integer),
        m(R::TensorOperandsScope, "scope-out-of-range", scope_out_of_range),
        m(R::TensorOperandsScope, "scope-not-constant", scope_not_constant),
        m(R::TensorQueryResultType, "query-other-result", query_other_result),
        m(R::TensorQueryDimensionNotConstant, "dimension-not-integer", dimension_not_integer),
        m(R::TensorQueryDimensionNotConstant, "dimension-not-constant", dimension_not_constant),
        m(R::TensorQueryDimensionRange, "dimension-past-rank", dimension_past_rank),
        m(R::TensorReplicateValueType, "replicate-other-type", replicate_other_type),
        m(R::TensorReplicateUnshaped, "replicate-unshaped", replicate_unshaped),
        m(R::DecorationNonReadableWritableTarget, "non-readable-private-variable", non_readable_private),
        m(R::DecorationNonReadableWritableTarget, "decorate-non-variable", decorate_non_variable),
        m(R::CapsMissingCapability, "tensor-operands-without-vulkan-memory-model", without_vulkan_memory_model),
    ]
}

/// The valid module the mutators of this file start from: `case` with the
/// GLCompute entry point and function [`Shader`] adds (choices drawn from
/// `bytes`), before anything is broken; `None` if the case cannot take it
/// (no OpMemoryModel).
pub fn with_tensor_function(case: &Case, bytes: &[u8]) -> Option<Vec<u32>> {
    let mut e = Edit::new(case, bytes);
    let s = Shader::new(&mut e);
    s.install(&mut e)?;
    e.finish_words()
}

/// Name of the entry point the mutators add.
const ENTRY_POINT: &str = "tensor_fn";

/// A compute function being assembled: its declarations are in the module
/// already, its body is added by [`Shader::install`].
struct Shader {
    /// `OpTypeInt 32 0`.
    uint: Id,
    /// The element type of both tensors (a 32-bit scalar).
    elem: Id,
    /// The rank of both tensors.
    rank: u32,
    /// The type of the tensor read and queried (ranked; shaped or not).
    read_ty: Id,
    /// The shaped type of the tensor written.
    write_ty: Id,
    /// The variables of the two tensors.
    src: Id,
    dst: Id,
    /// The loaded tensors.
    a: Id,
    b: Id,
    /// Coordinates within the shape.
    coords: Id,
    /// A constant of the element type.
    value: Id,
    /// A memory scope constant.
    scope: Id,
    /// Whether the module declares VulkanMemoryModel (the synchronisation
    /// Tensor Operands need it).
    memory_model: bool,
    /// The function body after the loads.
    body: Vec<Inst>,
    /// Global variables the body uses besides `src` and `dst`.
    interface: Vec<Id>,
}

impl Shader {
    /// Declares what a correct function needs and writes its body: a read
    /// of `a`, a write to `b`, a size query of `a`, sometimes a replicated
    /// tensor; Tensor Operands and NonReadable/NonWritable decorations are
    /// drawn from the edit's bytes.
    fn new(e: &mut Edit) -> Shader {
        let uint = e.int_type(32, 0);
        let elem = match e.int_in(0, 2) {
            0 => e.float_type(32),
            1 => uint,
            _ => e.int_type(32, 1),
        };
        let rank = e.int_in(1, 4) as u32;
        let shape: Vec<u32> = (0..rank).map(|_| e.int_in(1, 4) as u32).collect();
        let write_ty = e.tensor_type(elem, &shape);
        let read_ty = if e.flip() { write_ty } else { ranked_tensor_type(e, elem, rank) };
        let src = new_interface_variable(e, read_ty);
        let dst = new_interface_variable(e, write_ty);
        let arr = e.array_type(uint, rank);
        let mut parts = Vec::with_capacity(shape.len());
        for &d in &shape {
            let c = e.int_in(0, i64::from(d) - 1) as u32;
            parts.push(e.const_u32(c));
        }
        let coords = e.composite(arr, parts);
        let value = constant_of(e, elem);
        let scope_value = e.choose(&[spirv::Scope::Device, spirv::Scope::Workgroup, spirv::Scope::QueueFamily]);
        let scope = e.const_u32(scope_value.map_or(2, |s| s as u32));
        let memory_model = e.module.insts.contains(&Inst::Capability(Capability::VulkanMemoryModel as u32));
        let (a, b) = (e.fresh_id(), e.fresh_id());
        let mut s = Shader {
            uint,
            elem,
            rank,
            read_ty,
            write_ty,
            src,
            dst,
            a,
            b,
            coords,
            value,
            scope,
            memory_model,
            body: Vec::new(),
            interface: Vec::new(),
        };
        s.write_body(e);
        s
    }

    fn write_body(&mut self, e: &mut Edit) {
        let sync = self.memory_model && e.flip();
        // The read: a scalar or a two-element array.
        let array = e.flip();
        let read_result_ty = if array { e.array_type(self.elem, 2) } else { self.elem };
        let mut mask = 0;
        if e.flip() {
            mask |= NONTEMPORAL;
        }
        if e.flip() {
            mask |= OUT_OF_BOUNDS_VALUE;
        }
        if sync {
            mask |= MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT;
        }
        let read_ops = (mask != 0 || e.flip()).then(|| self.operands(mask));
        let x = e.fresh_id();
        self.body.push(
            TensorAccess::Read {
                ty: read_result_ty,
                result: x,
                tensor: self.a,
                coordinates: self.coords,
                operands: read_ops,
            }
            .to_inst(),
        );
        // The write: what was read, or the constant.
        let object = if e.flip() { x } else { self.value };
        let mut mask = if e.flip() { NONTEMPORAL } else { 0 };
        if sync {
            mask |= MAKE_ELEMENT_AVAILABLE | NON_PRIVATE_ELEMENT;
        }
        let write_ops = (mask != 0).then(|| self.operands(mask));
        self.body.push(
            TensorAccess::Write { tensor: self.b, coordinates: self.coords, object, operands: write_ops }.to_inst(),
        );
        // The size of one dimension.
        let d = e.int_in(0, i64::from(self.rank) - 1) as u32;
        let dimension = e.const_u32(d);
        let size = e.fresh_id();
        self.body.push(TensorAccess::QuerySize { ty: self.uint, result: size, tensor: self.a, dimension }.to_inst());
        if e.int_in(0, 3) == 0 {
            let scalar = if array { self.value } else { x };
            self.replicate(e, self.write_ty, scalar);
        }
        if e.flip() {
            decorate(e, self.src, Decoration::NonWritable);
        }
        if e.flip() {
            decorate(e, self.dst, Decoration::NonReadable);
        }
    }

    /// Tensor Operands `mask` with this shader's out-of-bounds value and scope.
    fn operands(&self, mask: u32) -> TensorOperands {
        TensorOperands {
            mask,
            out_of_bounds: (mask & OUT_OF_BOUNDS_VALUE != 0).then_some(self.value),
            available_scope: (mask & MAKE_ELEMENT_AVAILABLE != 0).then_some(self.scope),
            visible_scope: (mask & MAKE_ELEMENT_VISIBLE != 0).then_some(self.scope),
        }
    }

    /// Appends `OpCompositeConstructReplicateEXT ty value` (with its
    /// capability); returns its result.
    fn replicate(&mut self, e: &mut Edit, ty: Id, value: Id) -> Id {
        super::constants::ensure_replicate_caps(e);
        let result = e.fresh_id();
        self.body.push(ConstructReplicate { ty, result, value }.to_inst());
        result
    }

    /// Applies `f` to the first body instruction of `opcode` (a tensor access).
    fn access(&mut self, opcode: u16, f: impl FnOnce(&mut TensorAccess)) -> Option<()> {
        let inst = self.body.iter_mut().find(|i| i.opcode() == opcode)?;
        let mut access = TensorAccess::from_inst(inst)?.ok()?;
        f(&mut access);
        *inst = access.to_inst();
        Some(())
    }

    /// The result of the first read.
    fn read_result(&self) -> Option<Id> {
        self.body.iter().find(|i| i.opcode() == OP_TENSOR_READ).and_then(Inst::result_id)
    }

    /// Inserts the entry point, its execution mode and the function.
    fn install(self, e: &mut Edit) -> Option<()> {
        let void = void_type(e);
        let fn_ty = function_type(e, void);
        let (f, label) = (e.fresh_id(), e.fresh_id());
        let mut interface = vec![self.src, self.dst];
        interface.extend(self.interface);
        let at = e.module.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. }))? + 1;
        e.insert(at, shader::entry_point(spirv::ExecutionModel::GLCompute, f, ENTRY_POINT, &interface));
        e.insert(at + 1, shader::execution_mode(f, spirv::ExecutionMode::LocalSize, &[1, 1, 1]));
        let mut function = vec![
            shader::function(void, f, fn_ty),
            shader::label(label),
            shader::load(self.read_ty, self.a, self.src),
            shader::load(self.write_ty, self.b, self.dst),
        ];
        function.extend(self.body);
        function.extend([shader::ret(), shader::function_end()]);
        let at = e.globals_end();
        e.module.insts.splice(at..at, function);
        e.note(format!("added the GLCompute entry point {ENTRY_POINT} reading, writing and querying tensors"));
        Some(())
    }
}

// ---- declarations ----------------------------------------------------------------

/// A rank-`rank` tensor type of `elem` without a shape, reused if declared.
fn ranked_tensor_type(e: &mut Edit, elem: Id, rank: u32) -> Id {
    let r = e.const_u32(rank);
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeTensor { result, element, rank: Some(x), shape: None } if *element == elem && *x == r => {
            Some(*result)
        }
        _ => None,
    });
    found.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(Inst::TypeTensor { result, element: elem, rank: Some(r), shape: None });
        result
    })
}

/// The unranked tensor type of `elem`, reused if declared.
fn unranked_tensor_type(e: &mut Edit, elem: Id) -> Id {
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeTensor { result, element, rank: None, shape: None } if *element == elem => Some(*result),
        _ => None,
    });
    found.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(Inst::TypeTensor { result, element: elem, rank: None, shape: None });
        result
    })
}

fn void_type(e: &mut Edit) -> Id {
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeVoid { result } => Some(*result),
        _ => None,
    });
    found.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(Inst::TypeVoid { result });
        result
    })
}

/// `OpTypeFunction void`, reused if declared.
fn function_type(e: &mut Edit, void: Id) -> Id {
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::Raw { opcode, operands } if *opcode == spirv::Op::TypeFunction as u16 && operands.len() == 2 => {
            (operands.get(1) == Some(&void.0)).then(|| Id(operands[0]))
        }
        _ => None,
    });
    found.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(shader::type_function(result, void, &[]));
        result
    })
}

/// A 32-bit scalar type other than `elem` (float for integers, uint for float).
fn other_scalar(e: &mut Edit, s: &Shader) -> Id {
    if s.elem == s.uint {
        e.float_type(32)
    } else {
        s.uint
    }
}

/// A small constant of `ty` (a 32-bit scalar type: 0 to 3, or 0.0 to
/// 3.0 for the float type).
fn constant_of(e: &mut Edit, ty: Id) -> Id {
    let v = e.int_in(0, 3) as u32;
    let float = matches!(e.def(ty), Some(Inst::TypeFloat { .. }));
    let bits = if float { (v as f32).to_bits() } else { v };
    e.constant(ty, vec![bits])
}

/// An `OpDecorate target decoration` among the annotations (the shader's
/// variables are decorated already, so there are some).
fn decorate(e: &mut Edit, target: Id, decoration: Decoration) {
    let insts = &e.module.insts;
    let at = match insts.iter().rposition(|i| matches!(i, Inst::Decorate { .. })) {
        Some(i) => i + 1,
        None => insts.iter().position(|i| i.is_type() || i.is_constant()).unwrap_or(insts.len()),
    };
    e.insert(at, Inst::Decorate { target, decoration: decoration as u32, literals: Vec::new() });
}

// ---- tensor.access.* ---------------------------------------------------------------

/// One of the accesses names the variable (a pointer) instead of the loaded tensor.
fn access_through_variable(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let op = e.choose(&[OP_TENSOR_READ, OP_TENSOR_WRITE, OP_TENSOR_QUERY_SIZE])?;
    let (src, dst) = (s.src, s.dst);
    s.access(op, |a| match a {
        TensorAccess::Read { tensor, .. } | TensorAccess::QuerySize { tensor, .. } => *tensor = src,
        TensorAccess::Write { tensor, .. } => *tensor = dst,
    })?;
    e.note("an access names the tensor's variable, not the loaded tensor");
    s.install(e)
}

/// One of the accesses uses an unranked tensor of the same element type.
fn access_unranked_tensor(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let t = unranked_tensor_type(e, s.elem);
    let var = new_interface_variable(e, t);
    let loaded = e.fresh_id();
    s.body.insert(0, shader::load(t, loaded, var));
    s.interface.push(var);
    let op = e.choose(&[OP_TENSOR_READ, OP_TENSOR_WRITE, OP_TENSOR_QUERY_SIZE])?;
    s.access(op, |a| match a {
        TensorAccess::Read { tensor, .. }
        | TensorAccess::QuerySize { tensor, .. }
        | TensorAccess::Write { tensor, .. } => *tensor = loaded,
    })?;
    e.note("an access uses an unranked tensor");
    s.install(e)
}

/// Sets the coordinates of the read or the write.
fn set_coordinates(e: &mut Edit, s: &mut Shader, c: Id) -> Option<()> {
    let op = e.choose(&[OP_TENSOR_READ, OP_TENSOR_WRITE])?;
    s.access(op, |a| match a {
        TensorAccess::Read { coordinates, .. } | TensorAccess::Write { coordinates, .. } => *coordinates = c,
        TensorAccess::QuerySize { .. } => {}
    })
}

fn coordinates_wrong_length(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let len = if s.rank == 1 || e.flip() { s.rank + 1 } else { s.rank - 1 };
    let arr = e.array_type(s.uint, len);
    let zero = e.const_u32(0);
    let c = e.composite(arr, vec![zero; len as usize]);
    set_coordinates(e, &mut s, c)?;
    e.note(format!("coordinates of length {len} for a rank-{} tensor", s.rank));
    s.install(e)
}

fn coordinates_not_integer(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let float = e.float_type(32);
    let arr = e.array_type(float, s.rank);
    let zero = e.constant(float, vec![0]);
    let c = e.composite(arr, vec![zero; s.rank as usize]);
    set_coordinates(e, &mut s, c)?;
    e.note("float coordinates");
    s.install(e)
}

fn coordinates_scalar(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let c = e.const_u32(0);
    set_coordinates(e, &mut s, c)?;
    e.note("a scalar as coordinates");
    s.install(e)
}

// ---- tensor.read.result-type, tensor.write.object-type ----------------------------

fn set_read_type(s: &mut Shader, t: Id) -> Option<()> {
    s.access(OP_TENSOR_READ, |a| {
        if let TensorAccess::Read { ty, .. } = a {
            *ty = t;
        }
    })
}

/// The read's result is a new value nothing else uses, so only its type changes.
fn read_other_scalar(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    fresh_read(e, &mut s);
    let t = other_scalar(e, &s);
    set_read_type(&mut s, t)?;
    e.note("a read into another scalar type");
    s.install(e)
}

fn read_array_of_other_scalar(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    fresh_read(e, &mut s);
    let other = other_scalar(e, &s);
    let t = e.array_type(other, 2);
    set_read_type(&mut s, t)?;
    e.note("a read into an array of another scalar type");
    s.install(e)
}

fn read_void(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    fresh_read(e, &mut s);
    let t = void_type(e);
    set_read_type(&mut s, t)?;
    e.note("a read into void");
    s.install(e)
}

/// Puts a new read first, whose result nothing uses (the mutators of the
/// read then change it without touching what uses the other read).
fn fresh_read(e: &mut Edit, s: &mut Shader) {
    let result = e.fresh_id();
    let read = TensorAccess::Read { ty: s.elem, result, tensor: s.a, coordinates: s.coords, operands: None };
    s.body.insert(0, read.to_inst());
}

fn set_object(s: &mut Shader, o: Id) -> Option<()> {
    s.access(OP_TENSOR_WRITE, |a| {
        if let TensorAccess::Write { object, .. } = a {
            *object = o;
        }
    })
}

fn write_other_scalar(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let t = other_scalar(e, &s);
    let c = constant_of(e, t);
    set_object(&mut s, c)?;
    e.note("a write of another scalar type");
    s.install(e)
}

fn write_array_of_other_scalar(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let t = other_scalar(e, &s);
    let arr = e.array_type(t, 2);
    let c = constant_of(e, t);
    let object = e.composite(arr, vec![c, c]);
    set_object(&mut s, object)?;
    e.note("a write of an array of another scalar type");
    s.install(e)
}

// ---- tensor.operands.* ---------------------------------------------------------------

/// Sets the read's out-of-bounds value (adding the bit).
fn set_out_of_bounds(s: &mut Shader, v: Id) -> Option<()> {
    s.access(OP_TENSOR_READ, |a| {
        if let TensorAccess::Read { operands, .. } = a {
            let o = operands.get_or_insert_with(TensorOperands::default);
            o.mask |= OUT_OF_BOUNDS_VALUE;
            o.out_of_bounds = Some(v);
        }
    })
}

fn out_of_bounds_other_scalar(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let t = other_scalar(e, &s);
    let v = constant_of(e, t);
    set_out_of_bounds(&mut s, v)?;
    e.note("an out-of-bounds value of another scalar type");
    s.install(e)
}

/// An array of the element type: spirv-val compares component types only.
fn out_of_bounds_array(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let arr = e.array_type(s.elem, 2);
    let v = e.composite(arr, vec![s.value, s.value]);
    set_out_of_bounds(&mut s, v)?;
    e.note("an out-of-bounds value that is an array of the element type");
    s.install(e)
}

/// The value of an earlier read of a scalar: right type, not a constant.
fn out_of_bounds_from_read(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    fresh_read(e, &mut s);
    let first = s.read_result()?;
    let result = e.fresh_id();
    let read = TensorAccess::Read {
        ty: s.elem,
        result,
        tensor: s.a,
        coordinates: s.coords,
        operands: Some(TensorOperands { mask: OUT_OF_BOUNDS_VALUE, out_of_bounds: Some(first), ..Default::default() }),
    };
    s.body.insert(1, read.to_inst());
    e.note("an out-of-bounds value read at run time");
    s.install(e)
}

/// Adds `bits` (with their ids) to the Tensor Operands of the first access `opcode`.
fn add_bits(s: &mut Shader, opcode: u16, bits: u32) -> Option<()> {
    let (value, scope) = (s.value, s.scope);
    s.access(opcode, |a| {
        if let TensorAccess::Read { operands, .. } | TensorAccess::Write { operands, .. } = a {
            let o = operands.get_or_insert_with(TensorOperands::default);
            o.mask |= bits;
            if bits & OUT_OF_BOUNDS_VALUE != 0 {
                o.out_of_bounds = Some(value);
            }
            if bits & MAKE_ELEMENT_AVAILABLE != 0 {
                o.available_scope = Some(scope);
            }
            if bits & MAKE_ELEMENT_VISIBLE != 0 {
                o.visible_scope = Some(scope);
            }
        }
    })
}

fn out_of_bounds_on_write(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    add_bits(&mut s, OP_TENSOR_WRITE, OUT_OF_BOUNDS_VALUE)?;
    e.note("OutOfBoundsValueARM on a write");
    s.install(e)
}

fn visible_on_write(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    if !s.memory_model {
        return None;
    }
    add_bits(&mut s, OP_TENSOR_WRITE, MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT)?;
    e.note("MakeElementVisibleARM on a write");
    s.install(e)
}

fn available_on_read(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    if !s.memory_model {
        return None;
    }
    add_bits(&mut s, OP_TENSOR_READ, MAKE_ELEMENT_AVAILABLE | NON_PRIVATE_ELEMENT)?;
    e.note("MakeElementAvailableARM on a read");
    s.install(e)
}

/// Adds `bit` to the first access `opcode` and removes NonPrivateElementARM.
fn without_non_private(e: &mut Edit, opcode: u16, bit: u32) -> Option<()> {
    let mut s = Shader::new(e);
    if !s.memory_model {
        return None;
    }
    add_bits(&mut s, opcode, bit)?;
    s.access(opcode, |a| {
        if let TensorAccess::Read { operands: Some(o), .. } | TensorAccess::Write { operands: Some(o), .. } = a {
            o.mask &= !NON_PRIVATE_ELEMENT;
        }
    })?;
    e.note("a synchronising Tensor Operand without NonPrivateElementARM");
    s.install(e)
}

fn visible_without_non_private(e: &mut Edit) -> Option<()> {
    without_non_private(e, OP_TENSOR_READ, MAKE_ELEMENT_VISIBLE)
}

fn available_without_non_private(e: &mut Edit) -> Option<()> {
    without_non_private(e, OP_TENSOR_WRITE, MAKE_ELEMENT_AVAILABLE)
}

/// Uses `scope` as the scope of a synchronising operand of the read or the write.
fn with_scope(e: &mut Edit, mut s: Shader, scope: Id, what: &str) -> Option<()> {
    if !s.memory_model {
        return None;
    }
    s.scope = scope;
    let (op, bit) =
        if e.flip() { (OP_TENSOR_READ, MAKE_ELEMENT_VISIBLE) } else { (OP_TENSOR_WRITE, MAKE_ELEMENT_AVAILABLE) };
    add_bits(&mut s, op, bit | NON_PRIVATE_ELEMENT)?;
    e.note(format!("the memory scope is {what}"));
    s.install(e)
}

fn scope_not_integer(e: &mut Edit) -> Option<()> {
    let s = Shader::new(e);
    let float = e.float_type(32);
    let scope = e.constant(float, vec![0x4000_0000]);
    with_scope(e, s, scope, "a float constant")
}

fn scope_out_of_range(e: &mut Edit) -> Option<()> {
    let s = Shader::new(e);
    let v = e.int_in(7, 1000) as u32;
    let scope = e.const_u32(v);
    with_scope(e, s, scope, "not a Scope enumerant")
}

fn scope_not_constant(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    // The size of dimension 0, queried first: an integer computed at run time.
    let zero = e.const_u32(0);
    let size = e.fresh_id();
    s.body.insert(0, TensorAccess::QuerySize { ty: s.uint, result: size, tensor: s.a, dimension: zero }.to_inst());
    with_scope(e, s, size, "computed at run time")
}

// ---- tensor.query.* -----------------------------------------------------------------

fn query_other_result(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let t = if e.flip() { e.float_type(32) } else { e.array_type(s.uint, 2) };
    s.access(OP_TENSOR_QUERY_SIZE, |a| {
        if let TensorAccess::QuerySize { ty, .. } = a {
            *ty = t;
        }
    })?;
    e.note("a size query whose Result Type is not an integer scalar");
    s.install(e)
}

fn set_dimension(s: &mut Shader, d: Id) -> Option<()> {
    s.access(OP_TENSOR_QUERY_SIZE, |a| {
        if let TensorAccess::QuerySize { dimension, .. } = a {
            *dimension = d;
        }
    })
}

fn dimension_not_integer(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let float = e.float_type(32);
    let d = e.constant(float, vec![0]);
    set_dimension(&mut s, d)?;
    e.note("a float Dimension");
    s.install(e)
}

fn dimension_not_constant(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let zero = e.const_u32(0);
    let size = e.fresh_id();
    s.body.insert(0, TensorAccess::QuerySize { ty: s.uint, result: size, tensor: s.a, dimension: zero }.to_inst());
    set_dimension(&mut s, size)?;
    e.note("a Dimension computed at run time");
    s.install(e)
}

fn dimension_past_rank(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let v = if e.flip() { s.rank } else { e.int_in(i64::from(s.rank), i64::from(u32::MAX)) as u32 };
    let d = e.const_u32(v);
    set_dimension(&mut s, d)?;
    e.note(format!("Dimension {v} of a rank-{} tensor", s.rank));
    s.install(e)
}

// ---- tensor.replicate.* ----------------------------------------------------------------

fn replicate_other_type(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let value = if e.flip() {
        let t = other_scalar(e, &s);
        constant_of(e, t)
    } else {
        let arr = e.array_type(s.elem, 2);
        e.composite(arr, vec![s.value, s.value])
    };
    s.replicate(e, s.write_ty, value);
    e.note("a replicated tensor from a value that is not of its element type");
    s.install(e)
}

fn replicate_unshaped(e: &mut Edit) -> Option<()> {
    let mut s = Shader::new(e);
    let t = if e.flip() { ranked_tensor_type(e, s.elem, s.rank) } else { unranked_tensor_type(e, s.elem) };
    s.replicate(e, t, s.value);
    e.note("a replicated tensor of an unshaped tensor type");
    s.install(e)
}

// ---- decoration.non-readable-writable-target ------------------------------------------

fn non_readable_private(e: &mut Edit) -> Option<()> {
    let s = Shader::new(e);
    let ptr = e.module.insts.iter().find_map(|i| match i {
        Inst::TypePointer { result, storage, pointee }
            if *storage == StorageClass::Private as u32 && *pointee == s.elem =>
        {
            Some(*result)
        }
        _ => None,
    });
    let ptr = ptr.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(Inst::TypePointer { result, storage: StorageClass::Private as u32, pointee: s.elem });
        result
    });
    let var = e.fresh_id();
    e.add_global(Inst::Variable { ty: ptr, result: var, storage: StorageClass::Private as u32, initializer: None });
    decorate(e, var, Decoration::NonReadable);
    e.note("NonReadable on a Private variable");
    s.install(e)
}

/// NonReadable or NonWritable on a constant or a type of the shader.
fn decorate_non_variable(e: &mut Edit) -> Option<()> {
    let s = Shader::new(e);
    let target = e.choose(&[s.coords, s.value, s.write_ty, s.read_ty])?;
    let d = if e.flip() { Decoration::NonReadable } else { Decoration::NonWritable };
    decorate(e, target, d);
    e.note(format!("{d:?} on %{}, which is not a variable", target.0));
    s.install(e)
}

// ---- caps.missing-capability ------------------------------------------------------------

/// The module switches to the GLSL450 memory model without the
/// VulkanMemoryModel capability, and a tensor access uses a Tensor Operand
/// whose enabling capability SPV_ARM_tensors gives as VulkanMemoryModel.
fn without_vulkan_memory_model(e: &mut Edit) -> Option<()> {
    let vmm = Capability::VulkanMemoryModel as u32;
    if !e.module.insts.contains(&Inst::Capability(vmm)) {
        return None;
    }
    e.module.insts.retain(|i| *i != Inst::Capability(vmm));
    for inst in &mut e.module.insts {
        if let Inst::MemoryModel { memory, .. } = inst {
            *memory = spirv::MemoryModel::GLSL450 as u32;
        }
    }
    let mut s = Shader::new(e);
    let bits = e.choose(&[
        NON_PRIVATE_ELEMENT,
        MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT,
        NON_PRIVATE_ELEMENT | NONTEMPORAL,
    ])?;
    add_bits(&mut s, OP_TENSOR_READ, bits)?;
    e.note("a Tensor Operand that needs VulkanMemoryModel, in a GLSL450 module");
    s.install(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutator_names_are_unique() {
        let all = mutators();
        for (k, m) in all.iter().enumerate() {
            assert!(!all[..k].iter().any(|o| o.rule == m.rule && o.name == m.name), "{m:?}");
        }
    }
}
