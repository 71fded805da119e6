//! One TOSA instruction: its operands as chosen by an `ops_*` synthesizer,
//! the checks against the catalogue, and emission (constants in their
//! chosen forms, the instruction, OpCompositeExtract for FFT results).

use super::{elements, transfer, Synth, Value, ValueKind};
use crate::case::RowUse;
use crate::range::Range;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{
    infer_shapes, AccType, Form, ResizeMode, ResultKind, RowQualifier, ShapeArg, ShapeInputs, TosaOp, TypeRow,
};

/// One operand of an instruction being built.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Arg {
    /// A tensor value of the graph (index into the value pool).
    Val(usize),
    /// An `OpConstant` of `OpTypeInt 32 0` (enums, axis).
    U32(u32),
    /// `OpConstantTrue`/`OpConstantFalse`.
    Bool(bool),
    /// A scalar `OpConstant` of an element type (CLAMP bounds), as raw bits.
    Scalar(ElemType, u64),
    /// A rank-1 i32 tensor constant (attribute arrays, shape_t inputs).
    Ints(Vec<i64>),
    /// A rank-1 tensor constant of an element type (zero points, MUL shift,
    /// TABLE table, RESCALE multiplier/shift, PAD pad_const), raw bits.
    Tensor(ElemType, Vec<u64>),
}

/// An instruction ready to be checked and emitted.
#[derive(Clone, Debug)]
pub(crate) struct NodeSpec {
    pub op: TosaOp,
    /// Index into the operator's `type_rows`.
    pub row: usize,
    /// Operands in instruction order.
    pub args: Vec<Arg>,
    /// Constructs this instruction reaches (for coverage).
    pub features: Vec<String>,
}

/// Why an operation was not added.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Skip {
    /// It would exceed an element budget (normal; another operation is tried).
    Budget,
    /// A generator invariant failed (a bug; recorded in the case metadata).
    Internal(String),
}

pub(crate) fn internal<T>(what: impl Into<String>) -> Result<T, Skip> {
    Err(Skip::Internal(what.into()))
}

impl NodeSpec {
    pub(crate) fn new(op: TosaOp, row: usize) -> NodeSpec {
        NodeSpec { op, row, args: Vec::new(), features: Vec::new() }
    }

    pub(crate) fn arg(&mut self, a: Arg) {
        self.args.push(a);
    }
}

impl Synth<'_, '_> {
    /// The type row `row` of `op`.
    pub(crate) fn row(op: TosaOp, row: usize) -> Result<&'static TypeRow, Skip> {
        match op.spec().type_rows.get(row) {
            Some(r) => Ok(r),
            None => internal(format!("no type row {row}")),
        }
    }

    /// The element type of operand `index` (or the result for `usize::MAX`) under `row`.
    pub(crate) fn operand_elem(op: TosaOp, row: usize, name: &str) -> Result<ElemType, Skip> {
        let spec = op.spec();
        let r = Synth::row(op, row)?;
        let elem = if name == "output" {
            r.slot(spec.result.slot)
        } else {
            spec.operand_named(name).and_then(|(_, o)| o.form.elem().resolve(r))
        };
        match elem {
            Some(e) => Ok(e),
            None => internal(format!("operand {name} has no element type")),
        }
    }

    /// Checks `n` against the catalogue, derives its result shapes and
    /// ranges, and emits it.
    pub(crate) fn add_node(&mut self, n: NodeSpec) -> Result<(), Skip> {
        let spec = n.op.spec();
        let row = Synth::row(n.op, n.row)?;
        if !spec.accepts_operand_count(n.args.len()) {
            return internal(format!("{} operands", n.args.len()));
        }
        let shapes = match infer_shapes(n.op, &self.shape_inputs(&n)) {
            Ok(s) => s,
            Err(e) => return internal(format!("shape rule: {e}")),
        };
        self.check_row(&n, row)?;
        let new_elements: u64 = shapes.iter().map(|s| elements(s)).sum();
        if shapes.iter().any(|s| !self.fits(s)) || self.g.elements + new_elements > self.cfg.max_graph_elements {
            return Err(Skip::Budget);
        }
        let ranges = match transfer::output_ranges(self, &n, row, &shapes) {
            Ok(r) => r,
            Err(e) => return internal(format!("value range: {e}")),
        };
        let Some(out_elem) = row.slot(spec.result.slot) else { return internal("result slot") };

        let depth = 1 + n
            .args
            .iter()
            .filter_map(|a| if let Arg::Val(v) = a { self.value(*v).map(|x| x.depth) } else { None })
            .max()
            .unwrap_or(0);
        self.meta.max_depth = self.meta.max_depth.max(depth as usize);
        // Special values placed on purpose taint everything computed from them.
        let special = n.args.iter().any(|a| matches!(a, Arg::Val(v) if self.value(*v).is_some_and(|x| x.special)));
        let mut ids = Vec::with_capacity(n.args.len());
        for a in &n.args {
            ids.push(self.emit_arg(a));
        }
        let set = self.b.tosa_set();
        let first = shapes.first().cloned().unwrap_or_default();
        let tensor_ty = self.b.type_tensor(out_elem, Some(&first));
        let result = self.b.id();
        let mut produced: Vec<Id> = vec![result];
        match spec.result.kind {
            ResultKind::Tensor => {
                self.g.body.push(Inst::Tosa { ty: tensor_ty, result, set, op: n.op, args: ids });
                let range = ranges.first().copied().unwrap_or(Range::full(out_elem));
                self.push_result(result, out_elem, first, range, depth, special);
            }
            ResultKind::RealImagStruct => {
                let st = self.b.type_struct(vec![tensor_ty, tensor_ty]);
                self.g.body.push(Inst::Tosa { ty: st, result, set, op: n.op, args: ids });
                let members: Vec<u32> = if self.dice.chance(self.cfg.probs.fft_both_results) {
                    self.feature("fft:both-results");
                    vec![0, 1]
                } else {
                    self.feature("fft:one-result");
                    vec![self.dice.below(2) as u32]
                };
                // Both extracted, one never read: the extract is dead code.
                let dead = (members.len() == 2 && self.dice.chance(self.cfg.probs.unused_extracted_member))
                    .then(|| self.dice.below(2) as u32);
                for m in members {
                    let eid = self.b.id();
                    self.g.body.push(Inst::CompositeExtract {
                        ty: tensor_ty,
                        result: eid,
                        composite: result,
                        indices: vec![m],
                    });
                    let range = ranges.get(m as usize).copied().unwrap_or(Range::full(out_elem));
                    self.push_result(eid, out_elem, first.clone(), range, depth, special);
                    if dead == Some(m) {
                        if let Some(v) = self.g.values.last_mut() {
                            v.dead = true;
                        }
                        self.feature("unused:fft-extracted-member");
                    }
                    produced.push(eid);
                }
            }
        }
        for a in &n.args {
            if let Arg::Val(v) = a {
                if let Some(val) = self.g.values.get_mut(*v) {
                    val.uses += 1;
                    if val.uses == 2 {
                        self.meta.features.insert("dag:fan-out".into());
                    }
                }
            }
        }
        if n.args.iter().filter(|a| matches!(a, Arg::Val(_))).count() >= 2 {
            let vals: Vec<&Arg> = n.args.iter().filter(|a| matches!(a, Arg::Val(_))).collect();
            if vals.windows(2).any(|w| w[0] == w[1]) {
                self.feature("dag:same-value-twice");
            }
        }
        self.g.elements += new_elements;
        self.g.nodes += 1;
        self.meta.ops.insert(n.op);
        self.meta.type_rows.insert(RowUse::new(n.op, n.row));
        self.meta.features.extend(n.features);
        self.meta.features.extend(self.pending.drain(..));
        self.debug_operation(n.op, &produced);
        let name = format!("{}_{}", n.op.name().to_ascii_lowercase(), self.g.nodes);
        self.maybe_name(result, &name);
        Ok(())
    }

    fn push_result(&mut self, id: Id, elem: ElemType, shape: Vec<u32>, range: Range, depth: u32, special: bool) {
        self.note_shape(&shape);
        let kind = ValueKind::Result;
        self.g.values.push(Value { id, elem, shape, range, kind, data: None, uses: 0, depth, dead: false, special });
        self.debug_tensor_after(self.g.values.len() - 1);
    }

    /// What `infer_shapes` needs to know about the operands.
    fn shape_inputs(&self, n: &NodeSpec) -> ShapeInputs {
        let spec = n.op.spec();
        let args = n
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                Arg::Val(v) => ShapeArg::Tensor(self.shape_of(*v)),
                Arg::U32(x) => match spec.operand(i).map(|o| o.form) {
                    Some(Form::AxisConst { .. }) => ShapeArg::Ints(vec![i64::from(*x as i32)]),
                    _ => ShapeArg::Opaque,
                },
                Arg::Bool(b) => ShapeArg::Bool(*b),
                Arg::Scalar(..) => ShapeArg::Opaque,
                Arg::Ints(v) => ShapeArg::Ints(v.clone()),
                Arg::Tensor(_, bits) => ShapeArg::Tensor(vec![bits.len() as u32]),
            })
            .collect();
        ShapeInputs { args }
    }

    /// The row the instruction's element types select must be the one chosen.
    fn check_row(&self, n: &NodeSpec, row: &'static TypeRow) -> Result<(), Skip> {
        let spec = n.op.spec();
        let operands: Vec<Option<ElemType>> = n
            .args
            .iter()
            .map(|a| match a {
                Arg::Val(v) => self.value(*v).map(|x| x.elem),
                Arg::U32(_) | Arg::Ints(_) => Some(ElemType::I32),
                Arg::Bool(_) => Some(ElemType::Bool),
                Arg::Scalar(e, _) | Arg::Tensor(e, _) => Some(*e),
            })
            .collect();
        let result_count = match spec.result.kind {
            ResultKind::Tensor => 1,
            ResultKind::RealImagStruct => 2,
        };
        let results = vec![row.slot(spec.result.slot); result_count];
        let slots = match spec.slot_types(&operands, &results) {
            Ok(s) => s,
            Err(e) => return internal(format!("types: {e}")),
        };
        let Some(types) = slots.into_iter().collect::<Option<Vec<_>>>() else {
            return internal("a type slot is not determined by the operands");
        };
        let qualifier = match spec.qualifier_operand() {
            None => RowQualifier::Any,
            Some(i) => match (spec.operand(i).map(|o| o.name), n.args.get(i)) {
                (Some("mode"), Some(Arg::U32(v))) => {
                    ResizeMode::from_u32(*v).map_or(RowQualifier::Any, RowQualifier::Mode)
                }
                (Some("acc_type"), Some(Arg::U32(v))) => {
                    AccType::from_u32(*v).map_or(RowQualifier::Any, RowQualifier::AccType)
                }
                (Some("scale32"), Some(Arg::Bool(b))) => RowQualifier::Scale32(*b),
                _ => RowQualifier::Any,
            },
        };
        match spec.find_row(&types, qualifier) {
            Some(found) if found == row => Ok(()),
            Some(found) => {
                internal(format!("element types select row {:?}, not the chosen {:?}", found.types, row.types))
            }
            None => internal(format!("no type row for {types:?} with {qualifier:?}")),
        }
    }

    fn emit_arg(&mut self, a: &Arg) -> Id {
        match a {
            Arg::Val(v) => self.value(*v).map_or(Id(0), |x| x.id),
            Arg::U32(0) if self.null_scalar() => {
                let ty = self.b.type_u32();
                self.b.const_null(ty)
            }
            Arg::U32(x) => self.b.const_u32(*x),
            Arg::Bool(false) if self.null_scalar() => {
                let ty = self.b.type_elem(ElemType::Bool);
                self.b.const_null(ty)
            }
            Arg::Bool(x) => self.b.const_bool(*x),
            Arg::Scalar(e, 0) if self.null_scalar() => {
                let ty = self.b.type_elem(*e);
                self.b.const_null(ty)
            }
            Arg::Scalar(e, bits) => self.b.const_scalar(*e, *bits),
            Arg::Ints(v) => {
                let bits: Vec<u64> = v.iter().map(|&x| x as u64).collect();
                let data = tensor_1d(ElemType::I32, &bits);
                let p = self.cfg.probs.attribute_graph_constant;
                self.tensor_constant(ElemType::I32, &[bits.len() as u32], &data, p, self.cfg.max_inline_elements)
            }
            Arg::Tensor(e, bits) => {
                let data = tensor_1d(*e, bits);
                // CTC tensors (up to a 513-entry TABLE) stay inline unless drawn as graph constants.
                let limit = self.cfg.max_inline_elements.max(513);
                self.tensor_constant(*e, &[bits.len() as u32], &data, self.cfg.probs.graph_constant, limit)
            }
        }
    }
}

/// A rank-1 tensor of raw bits.
pub(crate) fn tensor_1d(elem: ElemType, bits: &[u64]) -> TensorData {
    TensorData::from_bits(elem, &[bits.len()], bits).unwrap_or_else(|_| TensorData::zeros(elem, &[bits.len()]))
}
