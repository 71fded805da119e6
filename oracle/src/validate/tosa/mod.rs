//! TOSA.001000.1 instructions, checked against the operator catalogue of
//! `spvgraph_ir::tosa` (the one description of the 66 operators): operand
//! count and forms, constant operands, enum values, result type, element
//! types against the type rows (with qualifiers and enabled profiles), value
//! rules, shapes via `infer_shapes`/`check_output`, and level limits.
//!
//! Per-operator knowledge that the catalogue does not hold is limited to the
//! ERROR_IFs written out for one operator (RESCALE flags, CLAMP bounds) in
//! `values.rs` and the level limits' attribute names in `level.rs`.

mod level;
mod operands;
mod shapes;
mod values;

use super::context::Cx;
use operands::{Operand, Vals};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{ExtSet, Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{AccType, Form, ResizeMode, ResultKind, RowQualifier, ShapeInputs, SlotError, TosaOp};

/// A result tensor's element type and shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResultTensor {
    /// The element type, when TOSA knows it.
    pub elem: Option<ElemType>,
    /// The tensor type when it is shaped and TOSA can read the shape (its
    /// position for `Cx::tensor_dims`).
    pub shape: Option<usize>,
}

/// The vectors the TOSA checks fill for every instruction, kept from one
/// instruction (and module) to the next so that they are allocated once.
#[derive(Debug, Default)]
pub struct TosaBuffers {
    operands: Vec<Operand>,
    values: Vec<u64>,
    results: Vec<ResultTensor>,
    inputs: ShapeInputs,
    declared: Vec<Vec<u32>>,
}

impl TosaBuffers {
    /// The buffers emptied, unless a hostile module made one too large to keep.
    pub fn recycle(self, limit: usize) -> TosaBuffers {
        if self.values.capacity() > limit || self.operands.capacity() > limit || self.inputs.args.capacity() > limit {
            return TosaBuffers::default();
        }
        self
    }
}

/// Everything known about one TOSA instruction, for the later checks.
pub(crate) struct Facts {
    /// Instruction index.
    pub at: usize,
    /// The operator.
    pub op: TosaOp,
    /// Operands in instruction order.
    pub operands: Vec<Operand>,
    /// The operands' constant values (see [`Vals`]).
    pub values: Vec<u64>,
    /// Result tensors (one, or two for FFT2D/RFFT2D); empty if the Result
    /// Type is malformed.
    pub results: Vec<ResultTensor>,
    /// False if the Result Type is malformed.
    pub results_ok: bool,
    /// Element type per type slot, when every slot is known and consistent.
    pub slots: Option<Vec<ElemType>>,
}

impl Facts {
    /// The element type of slot `s`.
    pub fn slot(&self, s: u8) -> Option<ElemType> {
        self.slots.as_ref()?.get(usize::from(s)).copied()
    }

    /// The constant values of an operand, when known.
    pub fn bits<'a>(&'a self, o: &'a Operand) -> Option<&'a [u64]> {
        match &o.bits {
            Vals::Unknown => None,
            Vals::One(v) => Some(std::slice::from_ref(v)),
            Vals::Many { start, len } => self.values.get(*start..start + len),
        }
    }

    /// The first constant value of an operand, when known.
    pub fn first(&self, o: &Operand) -> Option<u64> {
        self.bits(o).and_then(|v| v.first().copied())
    }

    /// The first constant value of the operand named `name`.
    pub fn value(&self, name: &str) -> Option<u64> {
        let (i, _) = self.op.spec().operand_named(name)?;
        self.first(self.operands.get(i)?)
    }

    /// Whether every operand and the result passed the form checks.
    pub fn well_formed(&self) -> bool {
        self.results_ok && self.operands.iter().all(|o| o.ok)
    }
}

/// The tensor types of a Result Type, per the operator's result kind, into
/// `out`; false (with `out` empty) if the Result Type is malformed.
fn result_types(cx: &mut Cx<'_>, at: usize, op: TosaOp, ty: Id, out: &mut Vec<ResultTensor>) -> bool {
    out.clear();
    if cx.def_index(ty).is_none() {
        return false;
    }
    let spec = op.spec();
    let result = |k: usize| {
        let t = cx.tensor_by_index(k)?;
        Some(ResultTensor { elem: t.elem, shape: cx.tensor_dims(k).map(|_| k) })
    };
    match spec.result.kind {
        ResultKind::Tensor => match cx.tensor_index(ty).and_then(result) {
            Some(r) => {
                out.push(r);
                true
            }
            None => {
                cx.at(
                    at,
                    RuleId::TosaResultType,
                    format_args!("{op}: the Result Type %{} is not an OpTypeTensorARM", ty.0),
                );
                false
            }
        },
        ResultKind::RealImagStruct => {
            let ok = match cx.def(ty) {
                Some(Inst::TypeStruct { members, .. }) if members.len() == 2 => {
                    members.iter().all(|m| match cx.tensor_index(*m).and_then(result) {
                        Some(r) => {
                            out.push(r);
                            true
                        }
                        None => false,
                    })
                }
                _ => false,
            };
            if !ok {
                out.clear();
                cx.at(
                    at,
                    RuleId::TosaResultType,
                    format_args!("{op}: the Result Type %{} is not an OpTypeStruct of two tensor types", ty.0),
                );
            }
            ok
        }
    }
}

fn check_enums(cx: &mut Cx<'_>, f: &Facts) {
    let spec = f.op.spec();
    for (k, o) in f.operands.iter().enumerate() {
        let Some(ospec) = spec.operand(k) else { continue };
        let Form::EnumConst(kind) = ospec.form else { continue };
        let Some(v) = f.first(o).map(|b| b as u32) else { continue };
        if !kind.is_valid(v) {
            cx.at(
                f.at,
                RuleId::TosaEnumValue,
                format_args!(
                    "{}: {} = {v} is not a valid {} (valid: {:?})",
                    f.op,
                    ospec.name,
                    kind.tosa_name(),
                    kind.values()
                ),
            );
        } else if let Some(p) = kind.required_profile(v) {
            if !cx.profiles().contains(&p) {
                cx.at(
                    f.at,
                    RuleId::TosaEnumExtension,
                    format_args!(
                        "{}: {} = {} needs {p}, which is not enabled",
                        f.op,
                        ospec.name,
                        kind.value_name(v).unwrap_or("?")
                    ),
                );
            }
        }
    }
}

/// The row qualifier an instruction carries (`None`: unknown, e.g. a spec
/// constant or an invalid enum, so any qualifier is accepted).
fn qualifier(f: &Facts) -> Option<RowQualifier> {
    let spec = f.op.spec();
    let Some(q) = spec.qualifier_operand() else { return Some(RowQualifier::Any) };
    let v = f.first(f.operands.get(q)?)? as u32;
    match spec.operand(q)?.name {
        "acc_type" => AccType::from_u32(v).map(RowQualifier::AccType),
        "mode" => ResizeMode::from_u32(v).map(RowQualifier::Mode),
        "scale32" => Some(RowQualifier::Scale32(v != 0)),
        _ => None,
    }
}

/// The element types of `items` as a slice, in `buf` when they fit (the
/// common case: no allocation), else in `spill`.
fn elems<'a, const N: usize>(
    buf: &'a mut [Option<ElemType>; N],
    spill: &'a mut Vec<Option<ElemType>>,
    items: impl ExactSizeIterator<Item = Option<ElemType>>,
) -> &'a [Option<ElemType>] {
    let n = items.len();
    if n <= N {
        for (slot, e) in buf.iter_mut().zip(items) {
            *slot = e;
        }
        &buf[..n]
    } else {
        spill.extend(items);
        spill
    }
}

/// Assigns slots and checks the type row; returns the slot types.
fn check_types(cx: &mut Cx<'_>, f: &Facts) -> Option<Vec<ElemType>> {
    let spec = f.op.spec();
    if !f.results_ok {
        return None;
    }
    let results = &f.results;
    if let Some(k) = f.operands.iter().position(|o| o.foreign) {
        let name = spec.operand(k).map_or("?", |o| o.name);
        cx.at(
            f.at,
            RuleId::TosaTypeNoRow,
            format_args!("{}: operand {k} ({name}) has an element type TOSA does not have", f.op),
        );
        return None;
    }
    if results.iter().any(|r| r.elem.is_none()) {
        cx.at(f.at, RuleId::TosaTypeNoRow, format_args!("{}: the result's element type is not a TOSA type", f.op));
        return None;
    }
    let (mut opnds_buf, mut opnds_spill) = ([None; 16], Vec::new());
    let opnds = elems(&mut opnds_buf, &mut opnds_spill, f.operands.iter().map(|o| o.elem));
    let (mut res_buf, mut res_spill) = ([None; 2], Vec::new());
    let res = elems(&mut res_buf, &mut res_spill, results.iter().map(|r| r.elem));
    let slots = match spec.slot_types(opnds, res) {
        Ok(s) => s,
        Err(e @ SlotError::Fixed { .. }) => {
            cx.at(f.at, RuleId::TosaTypeFixed, e.to_string());
            return None;
        }
        Err(e @ SlotError::Conflict { .. }) => {
            cx.at(f.at, RuleId::TosaTypeSlotConflict, e.to_string());
            return None;
        }
        Err(e) => {
            cx.at(f.at, RuleId::TosaOperandCount, e.to_string());
            return None;
        }
    };
    // Collected in place: the slot vector's allocation is reused.
    let types: Option<Vec<ElemType>> = slots.into_iter().collect();
    let types = types?;
    let names =
        || -> String { spec.slots.iter().zip(&types).map(|(s, t)| format!("{s}={t}")).collect::<Vec<_>>().join(", ") };
    let row = match qualifier(f) {
        Some(q) => spec.find_row(&types, q),
        None => {
            let wanted: Vec<Option<ElemType>> = types.iter().map(|t| Some(*t)).collect();
            let mut rows = spec.rows_matching(&wanted);
            rows.next()
        }
    };
    match row {
        Some(row) => {
            if !row.available(cx.profiles()) {
                let needs: Vec<String> = row.mentions().map(|p| p.to_string()).collect();
                cx.at(
                    f.at,
                    RuleId::TosaTypeProfile,
                    format_args!(
                        "{}: the type row {} needs {}, which is not enabled",
                        f.op,
                        names(),
                        needs.join(" + ")
                    ),
                );
            }
        }
        None => {
            let wanted: Vec<Option<ElemType>> = types.iter().map(|t| Some(*t)).collect();
            let exists = spec.rows_matching(&wanted).next().is_some();
            if exists {
                let q = spec.qualifier_operand().and_then(|q| spec.operand(q)).map_or("attribute", |o| o.name);
                cx.at(
                    f.at,
                    RuleId::TosaTypeRowQualifier,
                    format_args!("{}: the types {} need another {q} than the one given", f.op, names()),
                );
            } else {
                cx.at(
                    f.at,
                    RuleId::TosaTypeNoRow,
                    format_args!("{}: the types {} are not a row of the supported-types table", f.op, names()),
                );
            }
        }
    }
    Some(types)
}

fn check_inst(cx: &mut Cx<'_>, at: usize, op: TosaOp, ty: Id, args: &[Id], level_seen: &mut Vec<(Vec<u32>, ElemType)>) {
    let spec = op.spec();
    if !spec.accepts_operand_count(args.len()) {
        let expected =
            if spec.variadic { format!("at least {}", spec.operands.len()) } else { spec.operands.len().to_string() };
        cx.at(at, RuleId::TosaOperandCount, format_args!("{op}: expected {expected} operands, found {}", args.len()));
        return;
    }
    // The buffers are moved out of `cx` while the checks report into it.
    let mut buffers = std::mem::take(&mut cx.tosa);
    let mut operands = std::mem::take(&mut buffers.operands);
    let mut values = std::mem::take(&mut buffers.values);
    let mut results = std::mem::take(&mut buffers.results);
    operands.clear();
    values.clear();
    for (k, arg) in args.iter().enumerate() {
        let o = match spec.operand(k) {
            Some(ospec) => operands::read(cx, at, op, (k, ospec), *arg, &mut values),
            None => Operand::default(),
        };
        operands.push(o);
    }
    let results_ok = result_types(cx, at, op, ty, &mut results);
    let mut facts = Facts { at, op, operands, values, results, results_ok, slots: None };
    check_enums(cx, &facts);
    facts.slots = check_types(cx, &facts);
    values::check(cx, &facts);
    shapes::fill_inputs(cx, &facts, &mut buffers.inputs);
    shapes::fill_declared(cx, &facts, &mut buffers.declared);
    level::check(cx, &facts, &buffers.inputs, &buffers.declared, level_seen);
    if facts.well_formed() {
        shapes::check(cx, &facts, &buffers.inputs, &buffers.declared);
    }
    buffers.operands = facts.operands;
    buffers.values = facts.values;
    buffers.results = facts.results;
    cx.tosa = buffers;
}

/// Runs the TOSA checks on every TOSA instruction of the module.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    let mut level_seen = Vec::new();
    let list = std::mem::take(&mut cx.lists.ext);
    for (i, inst) in list.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
        match inst {
            Inst::Tosa { ty, op, args, .. } => check_inst(cx, i, *op, *ty, args, &mut level_seen),
            Inst::ExtInst { set, number, .. } if cx.set_kind(*set) == Some(ExtSet::Tosa) => cx.at(
                i,
                RuleId::TosaUnknownInstruction,
                format_args!("TOSA.001000.1 has no instruction number {number} (its opcodes are 0 to 65)"),
            ),
            _ => {}
        }
    }
    cx.lists.ext = list;
}
