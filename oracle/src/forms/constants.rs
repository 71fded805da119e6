//! Constant forms: the same values written as explicit composites,
//! replicated composites, nulls (whole, rows, elements, scalars), graph
//! constants, or graph inputs.

use super::edit::{self, Case, Made, MAX_INLINE_ELEMENTS};
use super::FormError;
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::decls;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{Form as OperandForm, Role};
use spvgraph_ir::Module;
use std::collections::{BTreeMap, HashMap};

/// How a tensor constant is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    /// Nested `OpConstantComposite`s of scalar constants.
    Explicit,
    /// All-equal tensors and rows as `OpConstantCompositeReplicateEXT`.
    Replicated,
    /// An all-zero tensor as `OpConstantNull`.
    NullTensor,
    /// All-zero rows as `OpConstantNull`.
    NullRows,
    /// Zero elements as `OpConstantNull` scalars.
    NullElements,
}

/// A tensor constant an operator reads, with its values.
#[derive(Clone, Debug)]
struct Value {
    /// The constant's id.
    id: Id,
    /// Its tensor type.
    ty: Id,
    /// The element type's id.
    element: Id,
    /// The element type.
    elem: ElemType,
    /// Its shape.
    shape: Vec<u32>,
    /// Row-major element bits.
    bits: Vec<u64>,
}

impl Value {
    fn data(&self) -> Option<TensorData> {
        let shape: Vec<usize> = self.shape.iter().map(|&d| d as usize).collect();
        TensorData::from_bits(self.elem, &shape, &self.bits).ok()
    }
}

/// What an operand of a TOSA instruction is.
#[derive(Clone, Copy, Debug)]
struct Operand {
    /// The id read.
    id: Id,
    /// Its role.
    role: Role,
    /// Its form.
    form: OperandForm,
}

/// Every operand of the TOSA instructions in graphs `scope` (all graphs
/// when `None`), in order, each (id, role) once.
fn operands(m: &Module, scope: Option<(usize, usize)>) -> Vec<Operand> {
    let (begin, end) = scope.unwrap_or((0, m.insts.len()));
    let mut out: Vec<Operand> = Vec::new();
    for (_, op, args) in edit::operators(m, (begin, end)) {
        for (k, &id) in args.iter().enumerate() {
            let Some(spec) = edit::operand_spec(op, k) else { continue };
            if !out.iter().any(|o| o.id == id && o.role == spec.role) {
                out.push(Operand { id, role: spec.role, form: spec.form });
            }
        }
    }
    out
}

/// The value of tensor constant `id` (not a graph constant, not a spec
/// constant), when it is small enough to write out.
fn tensor_value(a: &Analysis<'_>, id: Id) -> Option<Value> {
    let def = a.def(id)?;
    let plain = matches!(
        def,
        Inst::ConstantComposite { spec: false, .. }
            | Inst::ConstantCompositeReplicate { spec: false, .. }
            | Inst::ConstantNull { .. }
    );
    if !plain {
        return None;
    }
    let ty = def.result_type()?;
    let t = a.tensor_type(ty)?;
    let (elem, shape) = edit::tensor_of(a, ty)?;
    let bits = a.const_tensor_bits(id, MAX_INLINE_ELEMENTS as u64)?;
    (!shape.is_empty()).then_some(Value { id, ty, element: t.element, elem, shape, bits })
}

/// Whether constant `id` is written with a null or a replicated composite
/// anywhere in it.
fn has_special(a: &Analysis<'_>, id: Id, depth: u32) -> bool {
    if depth > 16 {
        return false;
    }
    match a.def(id) {
        Some(Inst::ConstantNull { .. } | Inst::ConstantCompositeReplicate { .. }) => true,
        Some(Inst::ConstantComposite { constituents, .. }) => {
            constituents.iter().any(|&c| has_special(a, c, depth + 1))
        }
        _ => false,
    }
}

/// Writes `bits` (of tensor type `ty`, shape `shape`) in `style`.
fn write(m: &mut Module, v: &Value, ty: Id, shape: &[u32], bits: &[u64], style: Style, top: bool) -> Id {
    let all_equal = !bits.is_empty() && bits.windows(2).all(|w| w[0] == w[1]);
    let all_zero = bits.iter().all(|&b| b == 0);
    match style {
        Style::Replicated if all_equal => {
            let scalar = decls::scalar_constant(m, v.element, v.elem, bits[0]);
            return decls::replicate(m, ty, scalar);
        }
        Style::NullTensor if top && all_zero => return decls::null(m, ty),
        Style::NullRows if !top && all_zero && !shape.is_empty() => return decls::null(m, ty),
        _ => {}
    }
    let parts: Vec<Id> = match shape {
        [_] => bits
            .iter()
            .map(|&b| match style {
                Style::NullElements if b == 0 => decls::null(m, v.element),
                _ => decls::scalar_constant(m, v.element, v.elem, b),
            })
            .collect(),
        [outer, rest @ ..] => {
            let sub = decls::tensor_type(m, v.element, rest);
            let len = (bits.len() / (*outer).max(1) as usize).max(1);
            bits.chunks(len).map(|row| write(m, v, sub, rest, row, style, false)).collect()
        }
        [] => Vec::new(),
    };
    decls::composite(m, ty, &parts)
}

/// Whether writing `v` in `style` puts that style's construct in it.
fn wants(v: &Value, style: Style) -> bool {
    let rows = |len: usize| -> Vec<&[u64]> {
        // Every sub-tensor below the top: rows of each rank.
        let mut out = Vec::new();
        let mut size = v.bits.len();
        for &d in v.shape.iter().take(v.shape.len().saturating_sub(1)) {
            size /= d.max(1) as usize;
            if size >= len {
                out.extend(v.bits.chunks(size.max(1)));
            }
        }
        out
    };
    match style {
        Style::Explicit => false,
        Style::Replicated => {
            let equal = |b: &[u64]| b.windows(2).all(|w| w[0] == w[1]);
            equal(&v.bits) || rows(2).into_iter().any(equal)
        }
        Style::NullTensor => v.bits.iter().all(|&b| b == 0),
        Style::NullRows => rows(1).into_iter().any(|r| r.iter().all(|&b| b == 0)),
        Style::NullElements => v.bits.contains(&0),
    }
}

/// Replaces `map`'s keys everywhere but in declarations, then tidies.
fn replace_all(case: &mut Case, map: &HashMap<Id, Id>, dead: &std::collections::HashSet<Id>) {
    let n = case.module.insts.len();
    edit::replace_in(&mut case.module, 0..n, map);
    edit::tidy(&mut case.module, dead);
}

/// [`super::Form::ExplicitConstants`].
pub(super) fn explicit(mut case: Case) -> Result<Made, FormError> {
    let dead = edit::dead_before(&case.module);
    let (values, null_scalars) = {
        let a = Analysis::new(&case.module);
        let mut values = Vec::new();
        let mut scalars = Vec::new();
        for o in operands(&case.module, None) {
            match a.def(o.id) {
                Some(Inst::ConstantNull { ty, .. }) if matches!(a.ty(*ty), Some(Type::Scalar(_))) => {
                    let elem = a.scalar_kind(*ty).and_then(ElemType::from_spirv);
                    if let Some(elem) = elem {
                        scalars.push((o.id, *ty, elem));
                    }
                }
                _ => {
                    if has_special(&a, o.id, 0) {
                        values.extend(tensor_value(&a, o.id));
                    }
                }
            }
        }
        (values, scalars)
    };
    let mut map = HashMap::new();
    for v in &values {
        let new = write(&mut case.module, v, v.ty, &v.shape, &v.bits, Style::Explicit, true);
        if new != v.id {
            map.insert(v.id, new);
        }
    }
    for (id, ty, elem) in null_scalars {
        let new = decls::scalar_constant(&mut case.module, ty, elem, 0);
        if new != id {
            map.insert(id, new);
        }
    }
    if map.is_empty() {
        return Err(FormError::NothingToChange);
    }
    replace_all(&mut case, &map, &dead);
    Made::one(case)
}

/// The replicated and null forms of tensor constants.
pub(super) fn restyle(mut case: Case, style: Style) -> Result<Made, FormError> {
    let dead = edit::dead_before(&case.module);
    let values: Vec<Value> = {
        let a = Analysis::new(&case.module);
        operands(&case.module, None)
            .into_iter()
            .filter_map(|o| tensor_value(&a, o.id))
            .filter(|v| wants(v, style) && (style != Style::NullRows || v.shape.len() >= 2))
            .collect()
    };
    let mut map = HashMap::new();
    for v in &values {
        let new = write(&mut case.module, v, v.ty, &v.shape, &v.bits, style, true);
        if new != v.id {
            map.insert(v.id, new);
        }
    }
    if map.is_empty() {
        return Err(FormError::NothingToChange);
    }
    replace_all(&mut case, &map, &dead);
    Made::one(case)
}

/// Whether a scalar constant's value is zero (or false).
fn zero_scalar(inst: &Inst) -> bool {
    match inst {
        Inst::ConstantFalse { spec: false, .. } => true,
        Inst::Constant { value, spec: false, .. } => value.iter().all(|&w| w == 0),
        _ => false,
    }
}

/// [`super::Form::NullScalars`].
pub(super) fn null_scalars(mut case: Case) -> Result<Made, FormError> {
    let dead = edit::dead_before(&case.module);
    let zeros: Vec<(Id, Id)> = {
        let a = Analysis::new(&case.module);
        operands(&case.module, None)
            .into_iter()
            .filter(|o| {
                matches!(
                    o.form,
                    OperandForm::EnumConst(_)
                        | OperandForm::AxisConst { .. }
                        | OperandForm::BoolConst
                        | OperandForm::ScalarConst { .. }
                )
            })
            .filter_map(|o| {
                let def = a.def(o.id)?;
                (zero_scalar(def) && matches!(a.ty(def.result_type()?), Some(Type::Scalar(_))))
                    .then_some((o.id, def.result_type()?))
            })
            .collect()
    };
    let mut map = HashMap::new();
    for (id, ty) in zeros {
        map.insert(id, decls::null(&mut case.module, ty));
    }
    if map.is_empty() {
        return Err(FormError::NothingToChange);
    }
    replace_all(&mut case, &map, &dead);
    Made::one(case)
}

/// The next free GraphConstantID.
fn next_graph_constant_id(case: &Case) -> u32 {
    let declared = case.module.insts.iter().filter_map(|i| match i {
        Inst::GraphConstant { graph_constant_id, .. } => Some(*graph_constant_id),
        _ => None,
    });
    declared.chain(case.graph_constants.keys().copied()).max().map_or(0, |m| m.saturating_add(1))
}

/// [`super::Form::GraphConstants`]: ordinary tensor operands only (a graph
/// constant as a compile-time-constant operand is a construct of its own,
/// which [`Feature::GraphConstantAsCtc`](crate::features::Feature) names).
pub(super) fn to_graph_constants(mut case: Case) -> Result<Made, FormError> {
    let dead = edit::dead_before(&case.module);
    let values: Vec<Value> = {
        let a = Analysis::new(&case.module);
        operands(&case.module, None)
            .into_iter()
            .filter(|o| o.role == Role::Input)
            .filter_map(|o| tensor_value(&a, o.id))
            .collect()
    };
    let mut map = HashMap::new();
    let mut next = next_graph_constant_id(&case);
    for v in &values {
        let Some(data) = v.data() else { continue };
        let result = decls::fresh_id(&mut case.module);
        decls::push_declaration(&mut case.module, Inst::GraphConstant { ty: v.ty, result, graph_constant_id: next });
        case.graph_constants.insert(next, data);
        map.insert(v.id, result);
        next = next.saturating_add(1);
    }
    if map.is_empty() {
        return Err(FormError::NothingToChange);
    }
    replace_all(&mut case, &map, &dead);
    Made::one(case)
}

/// Drops the data of graph constants the module no longer declares.
pub(super) fn keep_declared_graph_constants(case: &mut Case) {
    let declared = case.module.graph_constant_ids();
    case.graph_constants.retain(|k, _| declared.contains(k));
}

/// A graph constant an operator reads: its id, type, element type, shape
/// and data bits.
type GraphConstantUse = (Id, Id, ElemType, Vec<u32>, Vec<u64>);

/// [`super::Form::PlainConstants`].
pub(super) fn to_plain_constants(mut case: Case) -> Result<Made, FormError> {
    let dead = edit::dead_before(&case.module);
    let found: Vec<GraphConstantUse> = {
        let a = Analysis::new(&case.module);
        let mut out = Vec::new();
        for o in operands(&case.module, None) {
            let Some(Inst::GraphConstant { ty, graph_constant_id, .. }) = a.def(o.id) else { continue };
            let Some(data) = case.graph_constants.get(graph_constant_id) else { continue };
            let Some((elem, shape)) = edit::tensor_of(&a, *ty) else { continue };
            if data.len() > MAX_INLINE_ELEMENTS || data.elem() != elem || shape.is_empty() {
                continue;
            }
            out.push((o.id, *ty, elem, shape, data.to_bits()));
        }
        out
    };
    let mut map = HashMap::new();
    for (id, ty, elem, shape, bits) in found {
        if map.contains_key(&id) {
            continue;
        }
        if let Some(new) = decls::tensor_constant(&mut case.module, ty, elem, &shape, &bits) {
            map.insert(id, new);
        }
    }
    if map.is_empty() {
        return Err(FormError::NothingToChange);
    }
    replace_all(&mut case, &map, &dead);
    keep_declared_graph_constants(&mut case);
    Made::one(case)
}

/// [`super::Form::ConstantsAsInputs`]: the ordinary tensor operands of the
/// entry point's graph that are constants (or graph constants) become inputs
/// of that graph, appended after its inputs.
pub(super) fn to_inputs(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let span = edit::span(&case.module, g)?;
    let found: Vec<(Id, Id, TensorData)> = {
        let a = Analysis::new(&case.module);
        let mut out: Vec<(Id, Id, TensorData)> = Vec::new();
        for o in operands(&case.module, Some(span)).into_iter().filter(|o| o.role == Role::Input) {
            if out.iter().any(|(id, ..)| *id == o.id) {
                continue;
            }
            let data = match a.def(o.id) {
                Some(Inst::GraphConstant { graph_constant_id, .. }) => {
                    case.graph_constants.get(graph_constant_id).cloned()
                }
                _ => tensor_value(&a, o.id).and_then(|v| v.data()),
            };
            if let (Some(data), Some(ty)) = (data, a.type_of(o.id)) {
                if edit::tensor_of(&a, ty).is_some() {
                    out.push((o.id, ty, data));
                }
            }
        }
        out
    };
    if found.is_empty() {
        return Err(FormError::NothingToChange);
    }
    let dead = edit::dead_before(&case.module);
    let (mut ins, outs) = edit::io_types(&case.module, g)?;
    let first_new = ins.len();
    ins.extend(found.iter().map(|(_, ty, _)| *ty));
    edit::set_io_types(&mut case.module, g, &ins, &outs);
    // One new interface variable per entry point of the graph and new input.
    let entry_points: Vec<usize> = case
        .module
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::GraphEntryPoint { graph, .. } if *graph == g))
        .map(|(k, _)| k)
        .collect();
    let mut variables: BTreeMap<usize, Vec<Id>> = BTreeMap::new();
    for (n, _) in entry_points.iter().enumerate() {
        let vars: Vec<Id> = found.iter().map(|(_, ty, _)| decls::interface_variable(&mut case.module, *ty)).collect();
        variables.insert(n, vars);
    }
    // Declarations moved the graph; find its entry points and inputs again.
    let mut n = 0;
    for inst in &mut case.module.insts {
        if let Inst::GraphEntryPoint { graph, interface, .. } = inst {
            if *graph == g {
                let vars = variables.remove(&n).unwrap_or_default();
                let at = first_new.min(interface.len());
                interface.splice(at..at, vars);
                n += 1;
            }
        }
    }
    let indices: Vec<Id> =
        (0..found.len()).map(|k| decls::const_u32(&mut case.module, (first_new + k) as u32)).collect();
    let (begin, end) = edit::span(&case.module, g)?;
    let last_input = (begin..end).rev().find(|&k| matches!(case.module.insts.get(k), Some(Inst::GraphInput { .. })));
    let mut at = last_input.map_or(begin + 1, |k| k + 1);
    let mut map = HashMap::new();
    for ((id, ty, data), index) in found.into_iter().zip(indices) {
        let result = decls::fresh_id(&mut case.module);
        case.module.insts.insert(at, Inst::GraphInput { ty, result, input_index: index, element_index: None });
        at += 1;
        map.insert(id, result);
        case.inputs.push(data);
    }
    // Only the ordinary operands read the input: the same constant may be
    // a compile-time-constant operand too, which must stay a constant.
    let (_, end) = edit::span(&case.module, g)?;
    for inst in case.module.insts.get_mut(at..end).into_iter().flatten() {
        if let Inst::Tosa { op, args, .. } = inst {
            for (k, arg) in args.iter_mut().enumerate() {
                let ordinary = edit::operand_spec(*op, k).is_some_and(|s| s.role == Role::Input);
                if let (true, Some(&to)) = (ordinary, map.get(arg)) {
                    *arg = to;
                }
            }
        }
    }
    edit::tidy(&mut case.module, &dead);
    keep_declared_graph_constants(&mut case);
    Made::one(case)
}
