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
use operands::Operand;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{ExtSet, Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{AccType, Form, ResizeMode, ResultKind, RowQualifier, SlotError, TosaOp};

/// A result tensor's element type and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResultTensor {
    /// The element type, when TOSA knows it.
    pub elem: Option<ElemType>,
    /// The shape, when the type is shaped.
    pub dims: Option<Vec<u32>>,
}

/// Everything known about one TOSA instruction, for the later checks.
pub(crate) struct Facts {
    /// Instruction index.
    pub at: usize,
    /// The operator.
    pub op: TosaOp,
    /// Operands in instruction order.
    pub operands: Vec<Operand>,
    /// Result tensors (one, or two for FFT2D/RFFT2D), `None` if the
    /// Result Type is malformed.
    pub results: Option<Vec<ResultTensor>>,
    /// Element type per type slot, when every slot is known and consistent.
    pub slots: Option<Vec<ElemType>>,
}

impl Facts {
    /// The element type of slot `s`.
    pub fn slot(&self, s: u8) -> Option<ElemType> {
        self.slots.as_ref()?.get(usize::from(s)).copied()
    }

    /// The first constant value of the operand named `name`.
    pub fn value(&self, name: &str) -> Option<u64> {
        let (i, _) = self.op.spec().operand_named(name)?;
        self.operands.get(i)?.bits.first()
    }

    /// Whether every operand and the result passed the form checks.
    pub fn well_formed(&self) -> bool {
        self.results.is_some() && self.operands.iter().all(|o| o.ok)
    }
}

/// The tensor types of a Result Type, per the operator's result kind.
fn result_types(cx: &mut Cx<'_>, at: usize, op: TosaOp, ty: Id) -> Option<Vec<ResultTensor>> {
    cx.def_index(ty)?;
    let spec = op.spec();
    let result = |t: &super::context::TensorInfo| ResultTensor { elem: t.elem, dims: t.dims() };
    match spec.result.kind {
        ResultKind::Tensor => match cx.tensor(ty) {
            Some(t) => Some(vec![result(t)]),
            None => {
                cx.at(at, RuleId::TosaResultType, format!("{op}: the Result Type %{} is not an OpTypeTensorARM", ty.0));
                None
            }
        },
        ResultKind::RealImagStruct => {
            let members = match cx.def(ty) {
                Some(Inst::TypeStruct { members, .. }) if members.len() == 2 => {
                    members.iter().map(|m| cx.tensor(*m).map(result)).collect::<Option<Vec<_>>>()
                }
                _ => None,
            };
            if members.is_none() {
                cx.at(
                    at,
                    RuleId::TosaResultType,
                    format!("{op}: the Result Type %{} is not an OpTypeStruct of two tensor types", ty.0),
                );
            }
            members
        }
    }
}

fn check_enums(cx: &mut Cx<'_>, f: &Facts) {
    let spec = f.op.spec();
    for (k, o) in f.operands.iter().enumerate() {
        let Some(ospec) = spec.operand(k) else { continue };
        let Form::EnumConst(kind) = ospec.form else { continue };
        let Some(v) = o.bits.first().map(|b| b as u32) else { continue };
        if !kind.is_valid(v) {
            cx.at(
                f.at,
                RuleId::TosaEnumValue,
                format!(
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
                    format!(
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
    let v = f.operands.get(q)?.bits.first()? as u32;
    match spec.operand(q)?.name {
        "acc_type" => AccType::from_u32(v).map(RowQualifier::AccType),
        "mode" => ResizeMode::from_u32(v).map(RowQualifier::Mode),
        "scale32" => Some(RowQualifier::Scale32(v != 0)),
        _ => None,
    }
}

/// Assigns slots and checks the type row; returns the slot types.
fn check_types(cx: &mut Cx<'_>, f: &Facts) -> Option<Vec<ElemType>> {
    let spec = f.op.spec();
    let results = f.results.as_ref()?;
    if let Some(k) = f.operands.iter().position(|o| o.foreign) {
        let name = spec.operand(k).map_or("?", |o| o.name);
        cx.at(
            f.at,
            RuleId::TosaTypeNoRow,
            format!("{}: operand {k} ({name}) has an element type TOSA does not have", f.op),
        );
        return None;
    }
    if results.iter().any(|r| r.elem.is_none()) {
        cx.at(f.at, RuleId::TosaTypeNoRow, format!("{}: the result's element type is not a TOSA type", f.op));
        return None;
    }
    let opnds: Vec<Option<ElemType>> = f.operands.iter().map(|o| o.elem).collect();
    let res: Vec<Option<ElemType>> = results.iter().map(|r| r.elem).collect();
    let slots = match spec.slot_types(&opnds, &res) {
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
    let types: Option<Vec<ElemType>> = slots.iter().copied().collect();
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
                    format!("{}: the type row {} needs {}, which is not enabled", f.op, names(), needs.join(" + ")),
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
                    format!("{}: the types {} need another {q} than the one given", f.op, names()),
                );
            } else {
                cx.at(
                    f.at,
                    RuleId::TosaTypeNoRow,
                    format!("{}: the types {} are not a row of the supported-types table", f.op, names()),
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
        cx.at(at, RuleId::TosaOperandCount, format!("{op}: expected {expected} operands, found {}", args.len()));
        return;
    }
    let mut operands = Vec::with_capacity(args.len());
    for (k, arg) in args.iter().enumerate() {
        let o = match spec.operand(k) {
            Some(ospec) => operands::read(cx, at, op, k, ospec, *arg),
            None => Operand::default(),
        };
        operands.push(o);
    }
    let results = result_types(cx, at, op, ty);
    let mut facts = Facts { at, op, operands, results, slots: None };
    check_enums(cx, &facts);
    facts.slots = check_types(cx, &facts);
    values::check(cx, &facts);
    let inputs = shapes::take_inputs(&mut facts);
    level::check(cx, &facts, &inputs, level_seen);
    if facts.well_formed() {
        shapes::check(cx, &mut facts, &inputs);
    }
}

/// Runs the TOSA checks on every TOSA instruction of the module.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    let mut level_seen = Vec::new();
    for (i, inst) in insts.iter().enumerate() {
        match inst {
            Inst::Tosa { ty, op, args, .. } => check_inst(cx, i, *op, *ty, args, &mut level_seen),
            Inst::ExtInst { set, number, .. } if cx.set_kind(*set) == Some(ExtSet::Tosa) => cx.at(
                i,
                RuleId::TosaUnknownInstruction,
                format!("TOSA.001000.1 has no instruction number {number} (its opcodes are 0 to 65)"),
            ),
            _ => {}
        }
    }
}
