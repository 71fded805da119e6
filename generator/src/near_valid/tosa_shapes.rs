//! Mutators for the TOSA shape and attribute rules (`tosa.shape.*`,
//! `tosa.attribute.*`, `tosa.transpose.perms`, `tosa.fft.*`, zero points,
//! RESCALE and CLAMP rules).
//!
//! Every mutator breaks a *dead copy* of an instruction ([`Edit::dead_copy`])
//! so that no consumer inherits the break, and gives the copy new operands:
//! fresh constants (reused when an identical one is declared), never a
//! shared constant modified in place. A tensor operand of another shape is
//! an `OpConstantNull` of that shape (shapes are all the rules look at).
//!
//! The shape mutators plan on the catalogue's shape inference
//! ([`check_output`], the code the validator runs) before touching the
//! module: a candidate change is kept only when the first ERROR_IF it trips
//! is the rule being broken. Shape inference stops at its first error, so
//! the candidates are also chosen so that the ERROR_IFs after it hold (an
//! inexact division whose rounded-down output is still in range, an output
//! below 1 reached by an exact division, ...): the module breaks one rule,
//! not one rule that hides another.

use super::{no_bias, Edit, Mutator};
use crate::{floats, Config};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::{ElemType, ScalarKind};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{
    check_output, Form, Len, RoundingMode, ShapeArg, ShapeErrorKind, ShapeInputs, ShapeRule, TosaOp, ValueRule,
};

/// Most elements read from one constant.
const LIMIT: u64 = 1 << 16;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    use RuleId as R;
    let m = |rule, name, bias, apply| Mutator { rule, name, bias, apply };
    vec![
        m(R::TosaShapeRank, "rank-of-tensor-operand", bias_ranked, rank_of_tensor_operand),
        m(R::TosaShapeRank, "rank-2-constant-operand", bias_constants, rank2_constant_operand),
        m(R::TosaShapeLength, "constant-length", bias_constants, constant_length),
        m(R::TosaShapeMismatch, "mismatched-dimension", bias_mismatch, mismatched_dimension),
        m(R::TosaShapeBroadcast, "unbroadcastable-dimension", bias_broadcast, unbroadcastable_dimension),
        m(R::TosaShapeInexactDivision, "inexact-division", bias_division, inexact_division),
        m(R::TosaShapeOutputRange, "window-past-input", bias_window, window_past_input),
        m(R::TosaShapeOutputRange, "dimension-past-u32", bias_pad_tile, dimension_past_u32),
        m(R::TosaShapeElementCount, "reshape-element-count", bias_reshape, reshape_element_count),
        m(R::TosaShapeOutput, "grow-result-dim", no_bias, grow_result_dim),
        m(R::TosaShapeOutput, "reshape-result", no_bias, reshape_result),
        m(R::TosaAttributeRange, "attribute-out-of-range", bias_attribute_range, attribute_out_of_range),
        m(R::TosaAttributeAxis, "axis-out-of-range", bias_axis, axis_out_of_range),
        m(R::TosaTransposePerms, "not-a-permutation", bias_transpose, not_a_permutation),
        m(R::TosaFftPowerOfTwo, "fft-size", bias_fft, fft_size),
        m(R::TosaZeroPoint, "non-zero-zero-point", bias_zero_point, nonzero_zero_point),
        m(R::TosaRescaleZeroPoint, "rescale-zero-point", bias_rescale, rescale_zero_point),
        m(R::TosaRescaleUnsigned, "unsigned-flags", bias_rescale, rescale_unsigned),
        m(R::TosaRescaleDoubleRound, "double-round-without-scale32", bias_rescale, rescale_double_round),
        m(R::TosaClampBounds, "swap-bounds", bias_clamp, clamp_swap_bounds),
        m(R::TosaClampBounds, "nan-bound", bias_clamp, clamp_nan_bound),
    ]
}

// ---- configuration bias ------------------------------------------------------------

use TosaOp as O;

const POOLS: &[TosaOp] = &[O::AvgPool2d, O::MaxPool2d];
const CONVS: &[TosaOp] = &[O::Conv2d, O::DepthwiseConv2d, O::Conv3d];

fn allow(c: &mut Config, ops: &[TosaOp]) {
    c.allow_ops = ops.to_vec();
}

/// Operators with fixed-rank or same-rank tensor operands.
fn bias_ranked(c: &mut Config) {
    allow(
        c,
        &[O::Add, O::Mul, O::Select, O::Greater, O::Matmul, O::Conv2d, O::Gather, O::Scatter, O::Concat, O::Rfft2d],
    );
}

/// Operators with rank-1 constant operands (attribute arrays, zero points, ...).
fn bias_constants(c: &mut Config) {
    allow(
        c,
        &[
            O::AvgPool2d,
            O::MaxPool2d,
            O::Conv2d,
            O::TransposeConv2d,
            O::Matmul,
            O::Negate,
            O::Mul,
            O::Pad,
            O::Slice,
            O::Tile,
            O::Transpose,
            O::Resize,
            O::Rescale,
            O::Table,
        ],
    );
}

fn bias_mismatch(c: &mut Config) {
    allow(
        c,
        &[
            O::Conv2d,
            O::DepthwiseConv2d,
            O::Conv3d,
            O::TransposeConv2d,
            O::Matmul,
            O::Fft2d,
            O::Gather,
            O::Scatter,
            O::Concat,
        ],
    );
}

fn bias_broadcast(c: &mut Config) {
    allow(c, &[O::Add, O::Sub, O::Mul, O::Maximum, O::Pow, O::Equal, O::GreaterEqual, O::Select, O::LogicalAnd]);
}

fn bias_division(c: &mut Config) {
    allow(c, &[O::AvgPool2d, O::MaxPool2d, O::Conv2d, O::DepthwiseConv2d, O::Conv3d, O::Resize]);
}

fn bias_window(c: &mut Config) {
    allow(c, &[O::AvgPool2d, O::MaxPool2d, O::Conv2d, O::DepthwiseConv2d, O::Conv3d, O::TransposeConv2d]);
}

fn bias_pad_tile(c: &mut Config) {
    allow(c, &[O::Pad, O::Tile]);
}

fn bias_reshape(c: &mut Config) {
    allow(c, &[O::Reshape]);
}

fn bias_attribute_range(c: &mut Config) {
    allow(
        c,
        &[
            O::AvgPool2d,
            O::MaxPool2d,
            O::Conv2d,
            O::DepthwiseConv2d,
            O::Conv3d,
            O::TransposeConv2d,
            O::Pad,
            O::Reshape,
            O::Slice,
            O::Tile,
            O::Resize,
        ],
    );
}

fn bias_axis(c: &mut Config) {
    allow(c, &[O::Argmax, O::ReduceMax, O::ReduceSum, O::ReduceAll, O::Concat, O::Reverse]);
}

fn bias_transpose(c: &mut Config) {
    allow(c, &[O::Transpose]);
}

fn bias_fft(c: &mut Config) {
    allow(c, &[O::Fft2d, O::Rfft2d]);
}

fn bias_zero_point(c: &mut Config) {
    allow(c, &[O::AvgPool2d, O::Conv2d, O::Conv3d, O::DepthwiseConv2d, O::TransposeConv2d, O::Matmul, O::Negate]);
}

fn bias_rescale(c: &mut Config) {
    allow(c, &[O::Rescale]);
}

fn bias_clamp(c: &mut Config) {
    allow(c, &[O::Clamp]);
}

// ---- reading the module --------------------------------------------------------------

/// A TOSA instruction whose shapes and attribute values are all in the
/// module and pass shape inference: the starting point of a shape mutation.
struct Site {
    at: usize,
    op: TosaOp,
    ty: Id,
    args: Vec<Id>,
    inputs: ShapeInputs,
    declared: Vec<Vec<u32>>,
    /// Raw element bits of each rank-1 constant operand, when readable.
    bits: Vec<Option<Vec<u64>>>,
}

fn dims(t: &spvgraph_ir::analysis::TensorType) -> Option<Vec<u32>> {
    t.shape.as_ref()?.iter().map(|&d| u32::try_from(d).ok()).collect()
}

fn value_shape(a: &Analysis, value: Id) -> Option<Vec<u32>> {
    dims(&a.tensor_type(a.type_of(value)?)?)
}

fn bool_value(a: &Analysis, id: Id) -> Option<bool> {
    match a.def(id)? {
        Inst::ConstantTrue { spec: false, .. } => Some(true),
        Inst::ConstantFalse { spec: false, .. } | Inst::ConstantNull { .. } => Some(false),
        _ => None,
    }
}

fn as_i32(bits: u64) -> i64 {
    i64::from(bits as u32 as i32)
}

/// The shape-inference view of an instruction, as the validator builds it.
fn shape_inputs(a: &Analysis, op: TosaOp, args: &[Id]) -> ShapeInputs {
    let spec = op.spec();
    let args = args
        .iter()
        .enumerate()
        .map(|(k, &arg)| {
            let known = spec.operand(k).and_then(|o| match o.form {
                Form::Tensor { .. } | Form::ConstTensor { .. } => value_shape(a, arg).map(ShapeArg::Tensor),
                Form::I32Array { .. } => {
                    a.const_tensor_bits(arg, LIMIT).map(|b| ShapeArg::Ints(b.into_iter().map(as_i32).collect()))
                }
                Form::AxisConst { .. } => a.const_uint(arg).map(|v| ShapeArg::Ints(vec![as_i32(v)])),
                Form::BoolConst => bool_value(a, arg).map(ShapeArg::Bool),
                Form::EnumConst(_) | Form::ScalarConst { .. } => None,
            });
            known.unwrap_or(ShapeArg::Opaque)
        })
        .collect();
    ShapeInputs { args }
}

/// The result shapes a Result Type declares (one tensor or a struct of two).
fn declared_shapes(a: &Analysis, ty: Id) -> Option<Vec<Vec<u32>>> {
    match a.ty(ty)? {
        Type::Tensor(t) => Some(vec![dims(&t)?]),
        Type::Struct(members) => members.iter().map(|m| dims(&a.tensor_type(*m)?)).collect(),
        _ => None,
    }
}

/// The instructions of an operator `keep` admits whose shapes are known and valid.
fn sites(e: &Edit, keep: impl Fn(TosaOp) -> bool) -> Vec<Site> {
    let a = e.analysis();
    let mut out = Vec::new();
    for (at, inst) in e.module.insts.iter().enumerate() {
        let Inst::Tosa { ty, op, args, .. } = inst else { continue };
        if !keep(*op) {
            continue;
        }
        let inputs = shape_inputs(&a, *op, args);
        let Some(declared) = declared_shapes(&a, *ty) else { continue };
        if check_output(*op, &inputs, &declared).is_err() {
            continue;
        }
        let spec = op.spec();
        let bits = args
            .iter()
            .enumerate()
            .map(|(k, &arg)| match spec.operand(k).map(|o| o.form) {
                Some(Form::ConstTensor { .. } | Form::I32Array { .. }) => a.const_tensor_bits(arg, LIMIT),
                _ => None,
            })
            .collect();
        out.push(Site { at, op: *op, ty: *ty, args: args.clone(), inputs, declared, bits });
    }
    out
}

impl Site {
    fn shape(&self, k: usize) -> Option<&[u32]> {
        match self.inputs.args.get(k)? {
            ShapeArg::Tensor(s) => Some(s),
            _ => None,
        }
    }

    fn ints(&self, k: usize) -> Option<&[i64]> {
        match self.inputs.args.get(k)? {
            ShapeArg::Ints(v) => Some(v),
            _ => None,
        }
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.op.spec().operand_named(name).map(|(i, _)| i)
    }

    fn named_shape(&self, name: &str) -> Option<&[u32]> {
        self.shape(self.index(name)?)
    }

    fn named_ints(&self, name: &str) -> Option<&[i64]> {
        self.ints(self.index(name)?)
    }

    /// Indices of the operands of form `keep`.
    fn operands(&self, keep: impl Fn(Form) -> bool) -> Vec<usize> {
        let spec = self.op.spec();
        (0..self.args.len()).filter(|&k| spec.operand(k).is_some_and(|o| keep(o.form))).collect()
    }

    fn tensor_operands(&self) -> Vec<usize> {
        self.operands(|f| matches!(f, Form::Tensor { .. }))
    }

    /// The operand's name (CONCAT's inputs numbered: `input1`, `input2`, ...).
    fn name(&self, k: usize) -> String {
        let spec = self.op.spec();
        match spec.operand(k) {
            Some(o) if spec.variadic && k + 1 >= spec.operands.len() => {
                format!("{}{}", o.name.trim_end_matches(char::is_numeric), k + 2 - spec.operands.len())
            }
            Some(o) => o.name.to_string(),
            None => "?".to_string(),
        }
    }
}

// ---- planned changes ------------------------------------------------------------------

/// A change of one operand of the dead copy.
#[derive(Clone, Debug)]
enum Change {
    /// A tensor operand becomes an `OpConstantNull` of this shape (same element type).
    Shape(usize, Vec<u32>),
    /// An integer attribute (array or axis) gets these values.
    Ints(usize, Vec<i64>),
    /// A rank-1 constant tensor gets these raw element bits.
    Bits(usize, Vec<u64>),
}

impl Change {
    fn index(&self) -> usize {
        match self {
            Change::Shape(k, _) | Change::Ints(k, _) | Change::Bits(k, _) => *k,
        }
    }
}

/// The first shape error of `site` with `changes` applied (`None`: valid).
fn outcome(site: &Site, changes: &[Change]) -> Option<ShapeErrorKind> {
    let mut inputs = site.inputs.clone();
    for c in changes {
        let arg = match c {
            Change::Shape(_, s) => ShapeArg::Tensor(s.clone()),
            Change::Ints(_, v) => ShapeArg::Ints(v.clone()),
            Change::Bits(_, b) => ShapeArg::Tensor(vec![u32::try_from(b.len()).ok()?]),
        };
        *inputs.args.get_mut(c.index())? = arg;
    }
    check_output(site.op, &inputs, &site.declared).err().map(|e| e.kind)
}

/// Breaks `rule` on a dead copy of one instruction of an operator `keep`
/// admits: `candidates` proposes changes, those whose first shape error is
/// `rule` (and that `accept` admits) are kept, and one is applied.
fn plan(
    e: &mut Edit,
    rule: RuleId,
    keep: impl Fn(TosaOp) -> bool,
    candidates: impl Fn(&Site) -> Vec<Vec<Change>>,
    accept: impl Fn(&ShapeErrorKind) -> bool,
) -> Option<()> {
    let sites = sites(e, keep);
    let n = sites.len();
    if n == 0 {
        return None;
    }
    let start = e.int_in(0, n as i64 - 1) as usize;
    for i in 0..n {
        let Some(site) = sites.get((start + i) % n) else { continue };
        let good: Vec<(Vec<Change>, ShapeErrorKind)> = candidates(site)
            .into_iter()
            .filter_map(|c| {
                let kind = outcome(site, &c)?;
                (kind.rule() == Some(rule) && accept(&kind)).then_some((c, kind))
            })
            .collect();
        if good.is_empty() {
            continue;
        }
        let pick = e.int_in(0, good.len() as i64 - 1) as usize;
        let (changes, kind) = good.get(pick)?.clone();
        apply_changes(e, site, &changes)?;
        e.note(format!("shape inference: {kind}"));
        return Some(());
    }
    None
}

/// Makes a dead copy of `site` with `changes` applied to its operands.
fn apply_changes(e: &mut Edit, site: &Site, changes: &[Change]) -> Option<()> {
    let copy = e.dead_copy(site.at)?;
    let copy_id = e.module.insts.get(copy)?.result_id()?;
    let spec = site.op.spec();
    let mut new_args = Vec::new();
    let mut what = Vec::new();
    for c in changes {
        let k = c.index();
        let old = *site.args.get(k)?;
        let id = match c {
            Change::Shape(_, s) => {
                let elem = element_of(e, old)?;
                what.push(format!("{} of shape {s:?}", site.name(k)));
                null_tensor(e, elem, s)
            }
            Change::Ints(_, v) => {
                what.push(format!("{} = {v:?}", site.name(k)));
                match spec.operand(k)?.form {
                    Form::AxisConst { .. } => {
                        let ty = e.def(old)?.result_type()?;
                        scalar_const(e, ty, *v.first()? as u64)?
                    }
                    Form::I32Array { .. } => {
                        let elem = element_of(e, old)?;
                        let vals: Vec<i32> = v.iter().map(|&x| i32::try_from(x).ok()).collect::<Option<_>>()?;
                        e.const_i32_tensor(elem, &vals)
                    }
                    _ => return None,
                }
            }
            Change::Bits(_, b) => {
                what.push(format!("{} with {} elements", site.name(k), b.len()));
                let elem = element_of(e, old)?;
                vec_const(e, elem, b)?
            }
        };
        new_args.push((k, id));
    }
    let at = e.def_index(copy_id)?;
    let (_, _, _, args) = e.tosa_mut(at)?;
    for (k, id) in new_args {
        *args.get_mut(k)? = id;
    }
    e.note(format!("{}: dead copy with {}", site.op.name(), what.join(", ")));
    Some(())
}

// ---- declaring constants ---------------------------------------------------------------

/// The element type id of a tensor value.
fn element_of(e: &Edit, value: Id) -> Option<Id> {
    let a = e.analysis();
    Some(a.tensor_type(a.type_of(value)?)?.element)
}

fn scalar_kind(e: &Edit, ty: Id) -> Option<ScalarKind> {
    e.analysis().scalar_kind(ty)
}

/// `OpConstantNull` of a tensor of `elem` and `shape`, reused if declared.
fn null_tensor(e: &mut Edit, elem: Id, shape: &[u32]) -> Id {
    let ty = e.tensor_type(elem, shape);
    e.null_const(ty)
}

/// A scalar constant of type `ty` holding the low bits of `bits`, encoded
/// canonically (sign-extended into the word only for signed types).
fn scalar_const(e: &mut Edit, ty: Id, bits: u64) -> Option<Id> {
    let (width, signed) = match scalar_kind(e, ty)? {
        ScalarKind::Bool => return Some(e.bool_const(bits != 0)),
        ScalarKind::Int { width, signed } => (width, signed),
        ScalarKind::Float { width, .. } => (width, false),
    };
    let words = match width {
        64 => vec![bits as u32, (bits >> 32) as u32],
        1..=31 => {
            let mask = (1u32 << width) - 1;
            let low = bits as u32 & mask;
            let negative = (low >> (width - 1)) & 1 == 1;
            vec![if signed && negative { low | !mask } else { low }]
        }
        32 => vec![bits as u32],
        _ => return None,
    };
    Some(e.constant(ty, words))
}

/// A rank-1 tensor constant of `elem` with `bits` (its parts reused where declared).
fn vec_const(e: &mut Edit, elem: Id, bits: &[u64]) -> Option<Id> {
    if bits.is_empty() {
        return None;
    }
    let parts: Vec<Id> = bits.iter().map(|&b| scalar_const(e, elem, b)).collect::<Option<_>>()?;
    let ty = e.tensor_type(elem, &[u32::try_from(bits.len()).ok()?]);
    Some(e.composite(ty, parts))
}

/// The TOSA element type of a scalar type id.
fn elem_type(e: &Edit, ty: Id) -> Option<ElemType> {
    ElemType::from_spirv(scalar_kind(e, ty)?)
}

/// A dead copy of the instruction whose result is `orig` with operands
/// replaced (`None` when an index is out of range).
fn copy_replacing(e: &mut Edit, orig: Id, edits: Vec<(usize, Id)>) -> Option<()> {
    let (_, replaced) =
        e.copy_with(orig, |_, args| edits.into_iter().all(|(k, id)| args.get_mut(k).map(|a| *a = id).is_some()))?;
    replaced.then_some(())
}

/// `v` with element `i` set to `x` (`None` when `i` is out of range).
fn with<T: Copy>(v: &[T], i: usize, x: T) -> Option<Vec<T>> {
    let mut t = v.to_vec();
    *t.get_mut(i)? = x;
    Some(t)
}

/// `(result id, args)` of the TOSA instructions of operator `op`.
fn instances(e: &Edit, op: TosaOp) -> Vec<(Id, Vec<Id>)> {
    e.module
        .insts
        .iter()
        .filter_map(|inst| match inst {
            Inst::Tosa { op: o, result, args, .. } if *o == op => Some((*result, args.clone())),
            _ => None,
        })
        .collect()
}

// ---- tosa.shape.rank ---------------------------------------------------------------------

/// A tensor operand with a unit dimension inserted or a dimension removed,
/// where the operand's rank is fixed or tied to another operand's.
fn rank_of_tensor_operand(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeRank,
        |_| true,
        |site| {
            let mut out = Vec::new();
            for k in site.tensor_operands() {
                let Some(s) = site.shape(k) else { continue };
                for p in 0..=s.len() {
                    if s.len() < 6 {
                        let mut t = s.to_vec();
                        t.insert(p, 1);
                        out.push(vec![Change::Shape(k, t)]);
                    }
                    if p < s.len() && s.len() >= 2 {
                        let mut t = s.to_vec();
                        t.remove(p);
                        out.push(vec![Change::Shape(k, t)]);
                    }
                }
            }
            out
        },
        |_| true,
    )
}

/// A rank-1 constant operand (attribute array, zero point, shift, ...)
/// replaced by an `OpConstantNull` of rank 2 with as many elements. The
/// validator reads the operand's form first and stops there, so no value or
/// shape rule is reached; TABLE's table is left out (its exact length is a
/// value check on the first dimension).
fn rank2_constant_operand(e: &mut Edit) -> Option<()> {
    let mut cands = Vec::new();
    {
        let a = e.analysis();
        for (at, inst) in e.module.insts.iter().enumerate() {
            let Inst::Tosa { op, args, .. } = inst else { continue };
            let spec = op.spec();
            for (k, &arg) in args.iter().enumerate() {
                let rank1 = match spec.operand(k).map(|o| o.form) {
                    Some(Form::I32Array { .. }) => true,
                    Some(Form::ConstTensor { len, .. }) => !matches!(len, Len::TableSize { .. }),
                    _ => false,
                };
                if !rank1 {
                    continue;
                }
                let Some(&[len]) = value_shape(&a, arg).as_deref() else { continue };
                cands.push((at, k, len, *op));
            }
        }
    }
    let (at, k, len, op) = e.choose(&cands)?;
    let old = *match e.module.insts.get(at)? {
        Inst::Tosa { args, .. } => args.get(k)?,
        _ => return None,
    };
    let elem = element_of(e, old)?;
    let shape = if e.flip() { [1, len] } else { [len, 1] };
    let copy = e.dead_copy(at)?;
    let copy_id = e.module.insts.get(copy)?.result_id()?;
    let id = null_tensor(e, elem, &shape);
    let at = e.def_index(copy_id)?;
    let (_, _, _, args) = e.tosa_mut(at)?;
    *args.get_mut(k)? = id;
    let name = op.spec().operand(k).map_or("?", |o| o.name);
    e.note(format!("{}: dead copy with {name} an OpConstantNull of shape {shape:?}", op.name()));
    Some(())
}

// ---- tosa.shape.length -------------------------------------------------------------------

/// A rank-1 constant operand with one element more or one fewer (the last
/// element repeated or dropped, so the values themselves stay valid).
fn constant_length(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeLength,
        |_| true,
        |site| {
            let spec = site.op.spec();
            let mut out = Vec::new();
            for k in 0..site.args.len() {
                let Some(form) = spec.operand(k).map(|o| o.form) else { continue };
                let Some(Some(bits)) = site.bits.get(k) else { continue };
                let Some(&last) = bits.last() else { continue };
                let mut longer = bits.clone();
                longer.push(last);
                let shorter = bits.split_last().filter(|(_, rest)| !rest.is_empty()).map(|(_, rest)| rest.to_vec());
                match form {
                    Form::I32Array { .. } => {
                        let ints = |b: &[u64]| b.iter().map(|&x| as_i32(x)).collect::<Vec<_>>();
                        out.push(vec![Change::Ints(k, ints(&longer))]);
                        if let Some(s) = shorter {
                            out.push(vec![Change::Ints(k, ints(&s))]);
                        }
                    }
                    Form::ConstTensor { .. } => {
                        out.push(vec![Change::Bits(k, longer)]);
                        if let Some(s) = shorter {
                            out.push(vec![Change::Bits(k, s)]);
                        }
                    }
                    _ => {}
                }
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.shape.mismatch -----------------------------------------------------------------

/// A tensor operand with one dimension changed where the argument table
/// ties it to another operand's (IC of input and weight, MATMUL N and C,
/// FFT real and imaginary shapes, GATHER/SCATTER N, W, C, CONCAT non-axis
/// dimensions).
fn mismatched_dimension(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeMismatch,
        |_| true,
        |site| {
            let mut out = Vec::new();
            for k in site.tensor_operands() {
                let Some(s) = site.shape(k) else { continue };
                for (d, &v) in s.iter().enumerate() {
                    // Doubling keeps FFT sizes powers of two.
                    for nv in [v.saturating_add(1), v.saturating_sub(1), v.saturating_mul(2)] {
                        if (1..=64).contains(&nv) && nv != v {
                            out.extend(with(s, d, nv).map(|t| vec![Change::Shape(k, t)]));
                        }
                    }
                }
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.shape.broadcast ----------------------------------------------------------------

/// An element-wise operand with one dimension neither 1 nor the size the
/// other operands have there.
fn unbroadcastable_dimension(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeBroadcast,
        |op| op.spec().shape == ShapeRule::Broadcast,
        |site| {
            let ks = site.tensor_operands();
            let mut out = Vec::new();
            for &k in &ks {
                let Some(s) = site.shape(k) else { continue };
                for d in 0..s.len() {
                    let others = ks
                        .iter()
                        .filter(|&&j| j != k)
                        .filter_map(|&j| site.shape(j).and_then(|t| t.get(d)).copied())
                        .max()
                        .unwrap_or(1);
                    if others < 2 {
                        continue;
                    }
                    for nv in [others.saturating_add(1), others.saturating_mul(2)] {
                        out.extend(with(s, d, nv).map(|t| vec![Change::Shape(k, t)]));
                    }
                }
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.shape.inexact-division ---------------------------------------------------------

/// A stride (RESIZE: a scale denominator) or an input size changed so that
/// an output-size division leaves a remainder. Only divisions of a
/// non-negative value are kept, so the rounded-down output is still at least
/// 1 and no output-range rule is broken behind the division.
fn inexact_division(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeInexactDivision,
        |op| POOLS.contains(&op) || CONVS.contains(&op) || op == O::Resize,
        |site| {
            let mut out = Vec::new();
            if let (Some(k), Some(v)) = (site.index("stride"), site.named_ints("stride")) {
                for i in 0..v.len() {
                    out.extend((2..=12).filter_map(|s| with(v, i, s)).map(|t| vec![Change::Ints(k, t)]));
                }
            }
            if let (Some(k), Some(v)) = (site.index("scale"), site.named_ints("scale")) {
                for i in [1, 3] {
                    let (Some(&n), Some(_)) = (v.get(i - 1), v.get(i)) else { continue };
                    out.extend((2..(16 * n).min(64)).filter_map(|d| with(v, i, d)).map(|t| vec![Change::Ints(k, t)]));
                }
            }
            if let (Some(k), Some(s)) = (site.index("input"), site.named_shape("input")) {
                let spatial = s.len().saturating_sub(2);
                for d in 1..=spatial {
                    let Some(&v) = s.get(d) else { continue };
                    for nv in [v.saturating_add(1), v.saturating_add(2), v.saturating_sub(1), v.saturating_sub(2)] {
                        if nv < 1 || nv == v {
                            continue;
                        }
                        let Some(t) = with(s, d, nv) else { continue };
                        out.push(vec![Change::Shape(k, t.clone())]);
                        // With stride 1 nothing is inexact: also raise the stride of that axis.
                        if let (Some(ks), Some(st)) = (site.index("stride"), site.named_ints("stride")) {
                            for sv in 2..=4 {
                                if let Some(st) = with(st, d - 1, sv) {
                                    out.push(vec![Change::Shape(k, t.clone()), Change::Ints(ks, st)]);
                                }
                            }
                        }
                    }
                }
            }
            out
        },
        |kind| match kind {
            // RESIZE also limits the output size (16384); keep far below it.
            ShapeErrorKind::NotDivisible { value, divisor, .. } => {
                *value >= 0 && *divisor > 0 && value / divisor < 8192
            }
            _ => false,
        },
    )
}

// ---- tosa.shape.output-range -------------------------------------------------------------

/// `(input dimension, pad indices)` of each spatial axis of a pooling or
/// convolution input, and the weight dimension holding its kernel size.
fn spatial_axes(op: TosaOp) -> &'static [(usize, (usize, usize), usize)] {
    match op {
        O::AvgPool2d | O::MaxPool2d => &[(1, (0, 1), 0), (2, (2, 3), 1)],
        O::Conv2d | O::TransposeConv2d => &[(1, (0, 1), 1), (2, (2, 3), 2)],
        O::DepthwiseConv2d => &[(1, (0, 1), 0), (2, (2, 3), 1)],
        O::Conv3d => &[(1, (0, 1), 1), (2, (2, 3), 2), (3, (4, 5), 3)],
        _ => &[],
    }
}

/// A pooling kernel or convolution dilation (TRANSPOSE_CONV2D: out_pad) so
/// large that the window no longer fits the input: the output size comes
/// out below 1 through an exact division (so the division rule holds).
fn window_past_input(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeOutputRange,
        |op| POOLS.contains(&op) || CONVS.contains(&op) || op == O::TransposeConv2d,
        |site| {
            let mut out = Vec::new();
            let (Some(input), Some(stride)) = (site.named_shape("input"), site.named_ints("stride")) else {
                return out;
            };
            let Some(k_stride) = site.index("stride") else { return out };
            for (i, &(dim, (pa, pb), kdim)) in spatial_axes(site.op).iter().enumerate() {
                let (Some(&size), Some(&s)) = (input.get(dim), stride.get(i)) else { continue };
                let size = i64::from(size);
                if POOLS.contains(&site.op) {
                    // OH = (IH + pads - KH) / stride + 1 with KH = IH + pads + stride * j.
                    let (Some(k), Some(kernel), Some(pad)) =
                        (site.index("kernel"), site.named_ints("kernel"), site.named_ints("pad"))
                    else {
                        continue;
                    };
                    let (Some(&a), Some(&b)) = (pad.get(pa), pad.get(pb)) else { continue };
                    for j in 1..=3 {
                        out.extend(with(kernel, kdim, size + a + b + s * j).map(|t| vec![Change::Ints(k, t)]));
                    }
                } else if site.op == O::TransposeConv2d {
                    // OH = (IH - 1) * stride + out_pads + KH, out_pad > -KH.
                    let (Some(k), Some(out_pad), Some(weight)) =
                        (site.index("out_pad"), site.named_ints("out_pad"), site.named_shape("weight"))
                    else {
                        continue;
                    };
                    let Some(&kh) = weight.get(kdim) else { continue };
                    let low = -(i64::from(kh) - 1);
                    let (Some(t), Some(st)) =
                        (with(out_pad, pa, low).and_then(|t| with(&t, pb, low)), with(stride, i, 1))
                    else {
                        continue;
                    };
                    out.push(vec![Change::Ints(k, t.clone())]);
                    out.push(vec![Change::Ints(k, t), Change::Ints(k_stride, st)]);
                } else {
                    // OH = (IH - 1 + pads - (KH - 1) * dilation) / stride + 1.
                    let (Some(k), Some(dil), Some(pad), Some(weight)) = (
                        site.index("dilation"),
                        site.named_ints("dilation"),
                        site.named_ints("pad"),
                        site.named_shape("weight"),
                    ) else {
                        continue;
                    };
                    let (Some(&a), Some(&b), Some(&kh)) = (pad.get(pa), pad.get(pb), weight.get(kdim)) else {
                        continue;
                    };
                    let span = i64::from(kh) - 1;
                    if span < 1 {
                        continue;
                    }
                    let base = size - 1 + a + b;
                    for st in [s, 1] {
                        let lo = (base + st + span - 1) / span;
                        for d in lo..=lo + st {
                            let Some(t) = with(dil, i, d) else { continue };
                            let mut c = vec![Change::Ints(k, t)];
                            if st != s {
                                let Some(sv) = with(stride, i, st) else { continue };
                                c.push(Change::Ints(k_stride, sv));
                            }
                            out.push(c);
                        }
                    }
                }
            }
            out
        },
        |kind| matches!(kind, ShapeErrorKind::OutputDim { value, .. } if *value < 1),
    )
}

/// PAD padding or TILE multiples so large that an output dimension does not
/// fit in 32 bits (the values themselves are valid: non-negative, at least 1).
fn dimension_past_u32(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeOutputRange,
        |op| matches!(op, O::Pad | O::Tile),
        |site| {
            let mut out = Vec::new();
            let Some(input) = site.named_shape("input1") else { return out };
            if let (Some(k), Some(p)) = (site.index("padding"), site.named_ints("padding")) {
                for (i, &d) in input.iter().enumerate() {
                    let max = i64::from(i32::MAX);
                    if d >= 2 {
                        let t = with(p, 2 * i, max).and_then(|t| with(&t, 2 * i + 1, max));
                        out.extend(t.map(|t| vec![Change::Ints(k, t)]));
                    }
                }
            }
            if let (Some(k), Some(m)) = (site.index("multiples"), site.named_ints("multiples")) {
                for (i, &d) in input.iter().enumerate() {
                    if d >= 3 {
                        out.extend(with(m, i, i64::from(u32::MAX / d) + 1).map(|t| vec![Change::Ints(k, t)]));
                    }
                }
            }
            out
        },
        |kind| matches!(kind, ShapeErrorKind::OutputDim { value, .. } if *value > i128::from(u32::MAX)),
    )
}

// ---- tosa.shape.element-count ------------------------------------------------------------

/// RESHAPE's shape with an entry grown, a dimension appended or one removed:
/// every entry stays at least 1, only the product changes.
fn reshape_element_count(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaShapeElementCount,
        |op| op == O::Reshape,
        |site| {
            let mut out = Vec::new();
            let (Some(k), Some(v)) = (site.index("shape"), site.named_ints("shape")) else { return out };
            for (i, &x) in v.iter().enumerate() {
                for nv in [x + 1, x * 2, x - 1] {
                    if nv >= 1 && nv != x {
                        out.extend(with(v, i, nv).map(|t| vec![Change::Ints(k, t)]));
                    }
                }
                if x >= 2 && v.len() >= 2 {
                    let mut t = v.to_vec();
                    t.remove(i);
                    out.push(vec![Change::Ints(k, t)]);
                }
            }
            if v.len() < 6 {
                let mut t = v.to_vec();
                t.push(2);
                out.push(vec![Change::Ints(k, t)]);
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.shape.output -------------------------------------------------------------------

/// A site with one tensor result, and its declared shape.
fn one_result_site(e: &mut Edit) -> Option<(Site, Vec<u32>)> {
    let sites: Vec<Site> = sites(e, |op| op.spec().result.kind == spvgraph_ir::tosa::ResultKind::Tensor)
        .into_iter()
        .filter(|s| s.declared.len() == 1 && s.declared.first().is_some_and(|d| !d.is_empty()))
        .collect();
    if sites.is_empty() {
        return None;
    }
    let i = e.int_in(0, sites.len() as i64 - 1) as usize;
    let site = sites.into_iter().nth(i)?;
    let shape = site.declared.first()?.clone();
    Some((site, shape))
}

/// Gives the dead copy of `site` a Result Type of `shape`.
fn retype_copy(e: &mut Edit, site: &Site, shape: &[u32]) -> Option<()> {
    let Some(Inst::TypeTensor { element, .. }) = e.def(site.ty) else { return None };
    let element = *element;
    let copy = e.dead_copy(site.at)?;
    let copy_id = e.module.insts.get(copy)?.result_id()?;
    // Declaring the type shifts the graph section: find the copy again by id.
    let new_ty = e.tensor_type(element, shape);
    let at = e.def_index(copy_id)?;
    let (ty, ..) = e.tosa_mut(at)?;
    *ty = new_ty;
    Some(())
}

/// A dead copy of an instruction whose Result Type has one dimension grown by one.
fn grow_result_dim(e: &mut Edit) -> Option<()> {
    let (site, mut shape) = one_result_site(e)?;
    let d = e.int_in(0, shape.len() as i64 - 1) as usize;
    let dim = shape.get_mut(d)?;
    *dim = dim.checked_add(1)?;
    let grown = *dim;
    retype_copy(e, &site, &shape)?;
    e.note(format!("{}: dead copy with result dimension {d} grown to {grown}", site.op.name()));
    Some(())
}

/// A dead copy of an instruction whose Result Type has another shape: a
/// dimension shrunk, a unit dimension added, or a dimension dropped.
fn reshape_result(e: &mut Edit) -> Option<()> {
    let (site, shape) = one_result_site(e)?;
    let mut options: Vec<Vec<u32>> = Vec::new();
    for (d, &v) in shape.iter().enumerate() {
        if v > 1 {
            options.extend(with(&shape, d, v - 1));
        }
        if shape.len() >= 2 {
            let mut t = shape.clone();
            t.remove(d);
            options.push(t);
        }
    }
    if shape.len() < 6 {
        for p in 0..=shape.len() {
            let mut t = shape.clone();
            t.insert(p, 1);
            options.push(t);
        }
    }
    let i = e.int_in(0, options.len() as i64 - 1) as usize;
    let new = options.get(i)?.clone();
    retype_copy(e, &site, &new)?;
    e.note(format!("{}: dead copy with result shape {new:?} instead of {shape:?}", site.op.name()));
    Some(())
}

// ---- tosa.attribute.range ----------------------------------------------------------------

/// An element of an attribute array or shape_t input (kernel, stride,
/// dilation, pad, out_pad, padding, start, size, multiples, shape, RESIZE
/// scale/offset/border) set outside its range.
fn attribute_out_of_range(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaAttributeRange,
        |_| true,
        |site| {
            let spec = site.op.spec();
            let mut out = Vec::new();
            for k in site.operands(|f| matches!(f, Form::I32Array { .. })) {
                let ranged = spec.operand(k).is_some_and(|o| {
                    matches!(
                        o.value,
                        ValueRule::AtLeast(_) | ValueRule::PoolPad | ValueRule::OutPad | ValueRule::ResizeParams
                    )
                });
                let Some(v) = site.ints(k) else { continue };
                if !ranged {
                    continue;
                }
                for (i, &x) in v.iter().enumerate() {
                    let mut values = vec![-1, 0, x - 1, -x - 1, 16 * x, 16 * x + 1, x + 64, 2049, -17 * x.abs() - 1];
                    values.sort_unstable();
                    values.dedup();
                    for nv in values {
                        if nv != x && i32::try_from(nv).is_ok() {
                            out.extend(with(v, i, nv).map(|t| vec![Change::Ints(k, t)]));
                        }
                    }
                }
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.attribute.axis -----------------------------------------------------------------

/// `axis` set to the rank or beyond, or negative.
fn axis_out_of_range(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaAttributeAxis,
        |_| true,
        |site| {
            let mut out = Vec::new();
            for k in site.operands(|f| matches!(f, Form::AxisConst { .. })) {
                let Some(Form::AxisConst { of }) = site.op.spec().operand(k).map(|o| o.form) else { continue };
                let Some(rank) = site.shape(usize::from(of)).map(|s| s.len() as i64) else { continue };
                for v in [rank, rank + 1, rank + 7, -1, -2, i64::from(i32::MIN)] {
                    out.push(vec![Change::Ints(k, vec![v])]);
                }
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.transpose.perms ----------------------------------------------------------------

/// TRANSPOSE perms with a value repeated, or out of range.
fn not_a_permutation(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaTransposePerms,
        |op| op == O::Transpose,
        |site| {
            let mut out = Vec::new();
            let (Some(k), Some(p)) = (site.index("perms"), site.named_ints("perms")) else { return out };
            let rank = p.len() as i64;
            for i in 0..p.len() {
                let mut values: Vec<i64> = p.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
                values.extend([rank, rank + 1, -1]);
                out.extend(values.into_iter().filter_map(|nv| with(p, i, nv)).map(|t| vec![Change::Ints(k, t)]));
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.fft.power-of-two ---------------------------------------------------------------

/// FFT2D/RFFT2D input (FFT2D: both inputs, the same shape) with H or W not a
/// power of two.
fn fft_size(e: &mut Edit) -> Option<()> {
    plan(
        e,
        RuleId::TosaFftPowerOfTwo,
        |op| matches!(op, O::Fft2d | O::Rfft2d),
        |site| {
            let mut out = Vec::new();
            let ks = site.tensor_operands();
            let Some(s) = ks.first().and_then(|&k| site.shape(k)) else { return out };
            for d in [1, 2] {
                let Some(&v) = s.get(d) else { continue };
                let big = [v.saturating_mul(3), v.saturating_add(1), v.saturating_mul(2).saturating_add(1)];
                for nv in big.into_iter().chain([3, 5, 6, 12]) {
                    if nv == v || nv.is_power_of_two() || nv > 8192 {
                        continue;
                    }
                    let Some(t) = with(s, d, nv) else { continue };
                    out.push(ks.iter().map(|&k| Change::Shape(k, t.clone())).collect());
                }
            }
            out
        },
        |_| true,
    )
}

// ---- tosa.zero-point ----------------------------------------------------------------------

/// A non-zero value of a non-i8 element type: a small integer, or a
/// non-zero float.
fn nonzero_bits(e: &mut Edit, t: ElemType) -> u64 {
    if t.is_float() {
        let v = e.choose(&[1.0, -1.0, 0.5, 2.0, 3.0, -0.25]).unwrap_or(1.0);
        return floats::encode(t, v);
    }
    let v = e.int_in(1, 100);
    let v = if e.flip() { -v } else { v };
    let bits = t.storage_bits().clamp(1, 64);
    if bits >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << bits) - 1)
    }
}

/// A zero point of a non-i8 tensor (pooling, convolutions, MATMUL, NEGATE)
/// set to a non-zero value.
fn nonzero_zero_point(e: &mut Edit) -> Option<()> {
    let mut cands = Vec::new();
    {
        let a = e.analysis();
        for inst in &e.module.insts {
            let Inst::Tosa { op, result, args, .. } = inst else { continue };
            let spec = op.spec();
            for (k, &arg) in args.iter().enumerate() {
                if spec.operand(k).map(|o| o.value) != Some(ValueRule::ZeroPoint) {
                    continue;
                }
                let Some(t) = a.type_of(arg).and_then(|t| a.tensor_type(t)) else { continue };
                if t.elem.is_some_and(|x| x != ElemType::I8) && t.shape.as_deref() == Some(&[1]) {
                    cands.push((*result, k, t.element, *op));
                }
            }
        }
    }
    let (at, k, elem, op) = e.choose(&cands)?;
    let t = elem_type(e, elem)?;
    let bits = nonzero_bits(e, t);
    let id = vec_const(e, elem, &[bits])?;
    copy_replacing(e, at, vec![(k, id)])?;
    let name = op.spec().operand(k).map_or("?", |o| o.name);
    e.note(format!("{}: dead copy with {name} = {} ({t})", op.name(), show_bits(t, bits)));
    Some(())
}

fn show_bits(t: ElemType, bits: u64) -> String {
    if t.is_float() {
        format!("{}", floats::decode(t, bits))
    } else {
        format!("{bits:#x}")
    }
}

// ---- RESCALE -------------------------------------------------------------------------------

/// RESCALE instructions: `(result id, args)`.
fn rescales(e: &Edit) -> Vec<(Id, Vec<Id>)> {
    instances(e, O::Rescale)
}

fn operand_elem(e: &Edit, arg: Id) -> Option<(Id, ElemType)> {
    let a = e.analysis();
    let t = a.tensor_type(a.type_of(arg)?)?;
    Some((t.element, t.elem?))
}

fn flag_of(e: &Edit, arg: Id) -> Option<bool> {
    bool_value(&e.analysis(), arg)
}

/// A RESCALE zero point of a non-i8 type set to a value its type does not
/// allow (non-zero; for unsigned i16 neither 0 nor 32768). Flags are left
/// as they are.
fn rescale_zero_point(e: &mut Edit) -> Option<()> {
    let mut cands = Vec::new();
    for (at, args) in rescales(e) {
        for (k, flag) in [(8usize, 3usize), (9, 4)] {
            let (Some(&zp), Some(&f)) = (args.get(k), args.get(flag)) else { continue };
            let (Some((elem, t)), Some(unsigned)) = (operand_elem(e, zp), flag_of(e, f)) else { continue };
            if t != ElemType::I8 {
                cands.push((at, k, elem, t, unsigned));
            }
        }
    }
    let (at, k, elem, t, unsigned) = e.choose(&cands)?;
    let bits = match t {
        ElemType::I16 => {
            let v = e.int_in(1, 0x7fff) as u64;
            if unsigned && e.flip() {
                v | 0x8000
            } else {
                v
            }
        }
        _ => nonzero_bits(e, t),
    };
    let id = vec_const(e, elem, &[bits])?;
    copy_replacing(e, at, vec![(k, id)])?;
    let name = if k == 8 { "input_zp" } else { "output_zp" };
    e.note(format!("RESCALE: dead copy with {name} = {bits:#x} ({t}{})", if unsigned { ", unsigned" } else { "" }));
    Some(())
}

/// RESCALE unsigned flags turned on into a forbidden combination (both
/// true, or one true next to an i32/i48 input or an i32 output). Flags are
/// only turned on: that never makes a zero point invalid (unsigned i16 allows
/// 32768 besides 0), turning one off could.
fn rescale_unsigned(e: &mut Edit) -> Option<()> {
    let mut cands = Vec::new();
    for (at, args) in rescales(e) {
        let (Some(&x), Some(&ozp), Some(&fi), Some(&fo)) = (args.get(5), args.get(9), args.get(3), args.get(4)) else {
            continue;
        };
        let (Some((_, in_t)), Some((_, out_t)), Some(iu), Some(ou)) =
            (operand_elem(e, x), operand_elem(e, ozp), flag_of(e, fi), flag_of(e, fo))
        else {
            continue;
        };
        let wide_in = matches!(in_t, ElemType::I32 | ElemType::I48);
        // The ERROR_IFs of RESCALE on the flags (as `check_rescale` reads them).
        let i32_out = out_t == ElemType::I32;
        let bad = |iu: bool, ou: bool| match (iu, ou) {
            (true, true) => true,
            (true, false) => wide_in || i32_out,
            (false, true) => i32_out || wide_in,
            (false, false) => false,
        };
        for (niu, nou) in [(true, ou), (iu, true), (true, true)] {
            if (niu, nou) != (iu, ou) && bad(niu, nou) {
                cands.push((at, niu && !iu, nou && !ou));
            }
        }
    }
    let (at, set_in, set_out) = e.choose(&cands)?;
    let t = e.bool_const(true);
    let mut edits = Vec::new();
    if set_in {
        edits.push((3, t));
    }
    if set_out {
        edits.push((4, t));
    }
    copy_replacing(e, at, edits)?;
    let what = match (set_in, set_out) {
        (true, true) => "input_unsigned and output_unsigned",
        (true, false) => "input_unsigned",
        _ => "output_unsigned",
    };
    e.note(format!("RESCALE: dead copy with {what} set to true"));
    Some(())
}

/// rounding_mode DOUBLE_ROUND on a RESCALE with scale32 = false (the
/// rounding mode is no type-row qualifier, and every profile is enabled, so
/// only this rule breaks; changing scale32 instead would change the row).
fn rescale_double_round(e: &mut Edit) -> Option<()> {
    let mut cands = Vec::new();
    for (at, args) in rescales(e) {
        let (Some(&s32), Some(&rm)) = (args.first(), args.get(1)) else { continue };
        if flag_of(e, s32) == Some(false) {
            if let Some(ty) = e.def(rm).and_then(Inst::result_type) {
                cands.push((at, ty));
            }
        }
    }
    let (at, ty) = e.choose(&cands)?;
    let id = scalar_const(e, ty, u64::from(RoundingMode::DoubleRound.value()))?;
    copy_replacing(e, at, vec![(1, id)])?;
    e.note("RESCALE: dead copy with rounding_mode DOUBLE_ROUND and scale32 = false");
    Some(())
}

// ---- tosa.clamp.bounds ----------------------------------------------------------------------

/// CLAMP instructions with their bounds: `(result id, min id, max id,
/// scalar type, element type, min bits, max bits)`.
type ClampSite = (Id, Id, Id, Id, ElemType, u64, u64);

fn clamps(e: &Edit) -> Vec<ClampSite> {
    let a = e.analysis();
    let mut out = Vec::new();
    for (at, args) in instances(e, O::Clamp) {
        let (Some(&lo), Some(&hi)) = (args.first(), args.get(1)) else { continue };
        let Some(ty) = a.type_of(lo) else { continue };
        let Some(t) = a.scalar_kind(ty).and_then(ElemType::from_spirv) else { continue };
        let bits = |id: Id| a.const_tensor_bits(id, 1).and_then(|b| b.first().copied());
        if let (Some(l), Some(h)) = (bits(lo), bits(hi)) {
            out.push((at, lo, hi, ty, t, l, h));
        }
    }
    out
}

fn numeric(t: ElemType, bits: u64) -> f64 {
    if t.is_float() {
        floats::decode(t, bits)
    } else {
        let w = t.storage_bits().clamp(1, 64);
        let shift = 64 - w;
        (((bits << shift) as i64) >> shift) as f64
    }
}

/// CLAMP with min_val above max_val: the two bounds swapped when they
/// differ, else one bound moved past the other.
fn clamp_swap_bounds(e: &mut Edit) -> Option<()> {
    let cands = clamps(e);
    let (at, lo, hi, ty, t, lb, hb) = e.choose(&cands)?;
    let (l, h) = (numeric(t, lb), numeric(t, hb));
    let edits = if l < h {
        vec![(0, hi), (1, lo)]
    } else if t.is_float() {
        // Equal bounds: a min above them (the float one step up is enough).
        let up = floats::encode(t, if l == 0.0 { 1.0 } else { l.abs() * 2.0 + 1.0 });
        if numeric(t, up) <= h {
            return None;
        }
        vec![(0, scalar_const(e, ty, up)?)]
    } else {
        let (min, max) = floats::int_range(t);
        let h = h as i64;
        if h < max {
            vec![(0, scalar_const(e, ty, (h + 1) as u64)?)]
        } else if (l as i64) > min {
            vec![(1, scalar_const(e, ty, (l as i64 - 1) as u64)?)]
        } else {
            return None;
        }
    };
    copy_replacing(e, at, edits)?;
    e.note(format!("CLAMP ({t}): dead copy with min_val above max_val (bounds were {l} and {h})"));
    Some(())
}

/// A float CLAMP with min_val or max_val NaN.
fn clamp_nan_bound(e: &mut Edit) -> Option<()> {
    let cands: Vec<_> = clamps(e).into_iter().filter(|c| c.4.is_float()).collect();
    let (at, _, _, ty, t, _, _) = e.choose(&cands)?;
    let k = usize::from(e.flip());
    let id = scalar_const(e, ty, floats::nan_bits(t))?;
    copy_replacing(e, at, vec![(k, id)])?;
    e.note(format!("CLAMP ({t}): dead copy with {} = NaN", if k == 0 { "min_val" } else { "max_val" }));
    Some(())
}
