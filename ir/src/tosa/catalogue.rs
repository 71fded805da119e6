//! The static table of all 66 operators (§4 of the reference).
//!
//! Operands are listed in grammar order; type rows follow the registry's
//! type-support tables, with RESIZE integer rows tied to a mode (`tosa.xml`)
//! and RESCALE rows split by `scale32` (which fixes `mul_t`).

use super::enums::{AccType, EnumKind, ResizeMode};
use super::ops::TosaOp;
use super::spec::{
    AbsErrorBound, AbsErrorSpec, Accuracy, ElemRef, Form, Len, MlirAttr, MlirRepr, OpSpec, OperandSpec, RankReq,
    ResultKind, ResultSpec, Role, RowQualifier, ShapeRule, TypeRow, ValueRule,
};
use crate::elem::ElemType::{self, Bf16, Bool, Fp16, Fp32, Fp8E4M3, Fp8E5M2, I16, I32, I48, I8};
use crate::elem::Profile::{self, ExtBf16, ExtFft, ExtFp8E4M3, ExtFp8E5M2, ExtInt16, ProFp, ProInt};

// ---- operand builders ------------------------------------------------------

const fn operand(name: &'static str, role: Role, form: Form, mlir: MlirRepr, value: ValueRule) -> OperandSpec {
    OperandSpec { name, role, form, mlir, value }
}

const fn tensor(name: &'static str, slot: u8, rank: RankReq) -> OperandSpec {
    operand(name, Role::Input, Form::Tensor { elem: ElemRef::Slot(slot), rank }, MlirRepr::Operand, ValueRule::None)
}

const fn fixed_tensor(name: &'static str, elem: ElemType, rank: RankReq) -> OperandSpec {
    operand(name, Role::Input, Form::Tensor { elem: ElemRef::Fixed(elem), rank }, MlirRepr::Operand, ValueRule::None)
}

const fn zero_point(name: &'static str, slot: u8) -> OperandSpec {
    operand(
        name,
        Role::CtcInput,
        Form::ConstTensor { elem: ElemRef::Slot(slot), len: Len::Fixed(1) },
        MlirRepr::Const,
        ValueRule::ZeroPoint,
    )
}

const fn axis(of: u8) -> OperandSpec {
    operand("axis", Role::Attribute, Form::AxisConst { of }, MlirRepr::Attr(MlirAttr::I32), ValueRule::None)
}

const fn enum_attr(name: &'static str, kind: EnumKind) -> OperandSpec {
    let mlir = match kind {
        EnumKind::AccType => MlirAttr::AccType,
        _ => MlirAttr::Enum(kind),
    };
    operand(name, Role::Attribute, Form::EnumConst(kind), MlirRepr::Attr(mlir), ValueRule::None)
}

const fn bool_attr(name: &'static str) -> OperandSpec {
    operand(name, Role::Attribute, Form::BoolConst, MlirRepr::Attr(MlirAttr::Bool), ValueRule::None)
}

const fn i64_array(name: &'static str, len: u32, value: ValueRule) -> OperandSpec {
    operand(name, Role::Attribute, Form::I32Array { len: Len::Fixed(len) }, MlirRepr::Attr(MlirAttr::I64Array), value)
}

const fn shape_input(name: &'static str, len: Len, value: ValueRule) -> OperandSpec {
    operand(name, Role::CtcInput, Form::I32Array { len }, MlirRepr::ConstShape, value)
}

const NAN_MODE: OperandSpec = enum_attr("nan_mode", EnumKind::NanMode);
const ACC_TYPE: OperandSpec = enum_attr("acc_type", EnumKind::AccType);
const LOCAL_BOUND: OperandSpec = bool_attr("local_bound");
const KERNEL: OperandSpec = i64_array("kernel", 2, ValueRule::AtLeast(1));
const STRIDE2: OperandSpec = i64_array("stride", 2, ValueRule::AtLeast(1));
const DILATION2: OperandSpec = i64_array("dilation", 2, ValueRule::AtLeast(1));
const POOL_PAD: OperandSpec = i64_array("pad", 4, ValueRule::PoolPad);
const CONV_PAD4: OperandSpec = i64_array("pad", 4, ValueRule::AtLeast(0));

// ---- row builders ------------------------------------------------------------

const fn row(profiles: &'static [Profile], types: &'static [ElemType]) -> TypeRow {
    TypeRow { profiles, also: &[], types, qualifier: RowQualifier::Any }
}

const fn row2(p: Profile, also: &'static [Profile], types: &'static [ElemType]) -> TypeRow {
    TypeRow { profiles: profile_slice(p), also, types, qualifier: RowQualifier::Any }
}

// A slice built from a const-fn parameter is not promoted to 'static, so each
// single-profile slice is spelled out once here.
const fn profile_slice(p: Profile) -> &'static [Profile] {
    match p {
        ProInt => &[ProInt],
        ProFp => &[ProFp],
        ExtInt16 => &[ExtInt16],
        ExtBf16 => &[ExtBf16],
        ExtFp8E4M3 => &[ExtFp8E4M3],
        ExtFp8E5M2 => &[ExtFp8E5M2],
        ExtFft => &[ExtFft],
        Profile::ExtDoubleRound => &[Profile::ExtDoubleRound],
        Profile::ExtInexactRound => &[Profile::ExtInexactRound],
    }
}

const fn r(p: Profile, types: &'static [ElemType]) -> TypeRow {
    row(profile_slice(p), types)
}

const fn acc(p: Profile, types: &'static [ElemType], a: AccType) -> TypeRow {
    TypeRow { profiles: profile_slice(p), also: &[], types, qualifier: RowQualifier::AccType(a) }
}

const fn mode(p: Profile, types: &'static [ElemType], m: ResizeMode) -> TypeRow {
    TypeRow { profiles: profile_slice(p), also: &[], types, qualifier: RowQualifier::Mode(m) }
}

const fn scale32(p: Profile, types: &'static [ElemType], s: bool) -> TypeRow {
    TypeRow { profiles: profile_slice(p), also: &[], types, qualifier: RowQualifier::Scale32(s) }
}

const INT_OR_FP: &[Profile] = &[ProInt, ProFp];

// ---- shared row sets -----------------------------------------------------------

/// fp16 / bf16 / fp32, one slot.
const FP_ROWS: &[TypeRow] = &[r(ProFp, &[Fp16]), r(ExtBf16, &[Bf16]), r(ProFp, &[Fp32])];

/// i32 plus the FP rows, one slot (MAXIMUM, MINIMUM, ABS, REDUCE_SUM).
const I32_FP_ROWS: &[TypeRow] = &[r(ProInt, &[I32]), r(ProFp, &[Fp16]), r(ExtBf16, &[Bf16]), r(ProFp, &[Fp32])];

/// ADD / SUB: i32 in either profile.
const ADD_ROWS: &[TypeRow] = &[row(INT_OR_FP, &[I32]), r(ProFp, &[Fp16]), r(ExtBf16, &[Bf16]), r(ProFp, &[Fp32])];

const INT_ROWS: &[TypeRow] = &[r(ProInt, &[I8]), r(ProInt, &[I16]), r(ProInt, &[I32])];

const SHIFT_ROWS: &[TypeRow] = &[row(INT_OR_FP, &[I8]), row(INT_OR_FP, &[I16]), row(INT_OR_FP, &[I32])];

const BOOL_ROWS: &[TypeRow] = &[row(INT_OR_FP, &[Bool])];

const COMPARE_ROWS: &[TypeRow] =
    &[r(ProInt, &[I32, Bool]), r(ProFp, &[Fp16, Bool]), r(ExtBf16, &[Bf16, Bool]), r(ProFp, &[Fp32, Bool])];

const REDUCE_MINMAX_ROWS: &[TypeRow] = &[
    r(ProInt, &[I8]),
    r(ProInt, &[I16]),
    r(ProInt, &[I32]),
    r(ProFp, &[Fp16]),
    r(ExtBf16, &[Bf16]),
    r(ProFp, &[Fp32]),
];

/// PAD, RESHAPE, REVERSE, SLICE, TILE, TRANSPOSE.
const LAYOUT_ROWS: &[TypeRow] = &[
    row(INT_OR_FP, &[Bool]),
    r(ProInt, &[I8]),
    r(ProInt, &[I16]),
    r(ProInt, &[I32]),
    r(ExtFp8E4M3, &[Fp8E4M3]),
    r(ExtFp8E5M2, &[Fp8E5M2]),
    r(ProFp, &[Fp16]),
    r(ExtBf16, &[Bf16]),
    r(ProFp, &[Fp32]),
];

/// CONCAT lists i16 under EXT-INT16, unlike the other layout operators.
const CONCAT_ROWS: &[TypeRow] = &[
    row(INT_OR_FP, &[Bool]),
    r(ProInt, &[I8]),
    r(ExtInt16, &[I16]),
    r(ProInt, &[I32]),
    r(ExtFp8E4M3, &[Fp8E4M3]),
    r(ExtFp8E5M2, &[Fp8E5M2]),
    r(ProFp, &[Fp16]),
    r(ExtBf16, &[Bf16]),
    r(ProFp, &[Fp32]),
];

const GATHER_ROWS: &[TypeRow] = &[
    r(ProInt, &[I8]),
    r(ProInt, &[I16]),
    r(ProInt, &[I32]),
    r(ExtFp8E4M3, &[Fp8E4M3]),
    r(ExtFp8E5M2, &[Fp8E5M2]),
    r(ProFp, &[Fp16]),
    r(ExtBf16, &[Bf16]),
    r(ProFp, &[Fp32]),
];

const MAX_POOL_ROWS: &[TypeRow] = &[
    r(ProInt, &[I8]),
    r(ExtInt16, &[I16]),
    r(ExtFp8E4M3, &[Fp8E4M3]),
    r(ExtFp8E5M2, &[Fp8E5M2]),
    r(ProFp, &[Fp16]),
    r(ExtBf16, &[Bf16]),
    r(ProFp, &[Fp32]),
];

const AVG_POOL_ROWS: &[TypeRow] = &[
    acc(ProInt, &[I8], AccType::Int32),
    acc(ExtInt16, &[I16], AccType::Int32),
    acc(ExtFp8E4M3, &[Fp8E4M3], AccType::Fp16),
    acc(ExtFp8E5M2, &[Fp8E5M2], AccType::Fp16),
    acc(ProFp, &[Fp16], AccType::Fp16),
    acc(ProFp, &[Fp16], AccType::Fp32),
    acc(ExtBf16, &[Bf16], AccType::Fp32),
    acc(ProFp, &[Fp32], AccType::Fp32),
];

/// Slots in_t, weight_t, out_t.
const CONV_ROWS: &[TypeRow] = &[
    acc(ProInt, &[I8, I8, I32], AccType::Int32),
    acc(ExtInt16, &[I16, I8, I48], AccType::Int48),
    acc(ExtFp8E4M3, &[Fp8E4M3, Fp8E4M3, Fp16], AccType::Fp16),
    acc(ExtFp8E5M2, &[Fp8E5M2, Fp8E5M2, Fp16], AccType::Fp16),
    acc(ProFp, &[Fp16, Fp16, Fp16], AccType::Fp16),
    acc(ProFp, &[Fp16, Fp16, Fp16], AccType::Fp32),
    acc(ExtBf16, &[Bf16, Bf16, Bf16], AccType::Fp32),
    acc(ProFp, &[Fp32, Fp32, Fp32], AccType::Fp32),
];

const ARGMAX_ROWS: &[TypeRow] = &[
    r(ProInt, &[I8, I32]),
    r(ExtInt16, &[I16, I32]),
    r(ExtFp8E4M3, &[Fp8E4M3, I32]),
    r(ExtFp8E5M2, &[Fp8E5M2, I32]),
    r(ProFp, &[Fp16, I32]),
    r(ExtBf16, &[Bf16, I32]),
    r(ProFp, &[Fp32, I32]),
];

const MATMUL_ROWS: &[TypeRow] = &[
    r(ProInt, &[I8, I32]),
    r(ExtInt16, &[I16, I48]),
    r(ExtFp8E4M3, &[Fp8E4M3, Fp16]),
    r(ExtFp8E5M2, &[Fp8E5M2, Fp16]),
    r(ProFp, &[Fp16, Fp16]),
    r(ProFp, &[Fp16, Fp32]),
    r(ExtBf16, &[Bf16, Fp32]),
    r(ProFp, &[Fp32, Fp32]),
];

const FFT_ROWS: &[TypeRow] = &[r(ExtFft, &[Fp32])];

const CLAMP_ROWS: &[TypeRow] =
    &[r(ProInt, &[I8]), r(ExtInt16, &[I16]), r(ProFp, &[Fp16]), r(ExtBf16, &[Bf16]), r(ProFp, &[Fp32])];

const MUL_ROWS: &[TypeRow] = &[
    r(ProInt, &[I8, I32]),
    r(ProInt, &[I16, I32]),
    row(INT_OR_FP, &[I32, I32]),
    r(ProFp, &[Fp16, Fp16]),
    r(ExtBf16, &[Bf16, Bf16]),
    r(ProFp, &[Fp32, Fp32]),
];

const TABLE_ROWS: &[TypeRow] = &[r(ProInt, &[I8, I8]), r(ExtInt16, &[I16, I32])];

const NEGATE_ROWS: &[TypeRow] = &[
    r(ProInt, &[I8]),
    r(ProInt, &[I16]),
    r(ProInt, &[I32]),
    r(ProFp, &[Fp16]),
    r(ExtBf16, &[Bf16]),
    r(ProFp, &[Fp32]),
];

const SELECT_ROWS: &[TypeRow] = &[
    row(INT_OR_FP, &[Bool]),
    r(ProInt, &[I8]),
    r(ProInt, &[I16]),
    r(ProInt, &[I32]),
    r(ProFp, &[Fp16]),
    r(ExtBf16, &[Bf16]),
    r(ProFp, &[Fp32]),
];

/// Slots in_t, out_t; FP rows hold for both modes.
const RESIZE_ROWS: &[TypeRow] = &[
    mode(ProInt, &[I8, I32], ResizeMode::Bilinear),
    mode(ProInt, &[I8, I8], ResizeMode::NearestNeighbor),
    mode(ExtInt16, &[I16, I48], ResizeMode::Bilinear),
    mode(ExtInt16, &[I16, I16], ResizeMode::NearestNeighbor),
    r(ProFp, &[Fp16, Fp16]),
    r(ExtBf16, &[Bf16, Bf16]),
    r(ProFp, &[Fp32, Fp32]),
];

const CAST_ROWS: &[TypeRow] = &[
    r(ProInt, &[Bool, I8]),
    r(ProInt, &[Bool, I16]),
    r(ProInt, &[Bool, I32]),
    r(ProInt, &[I8, Bool]),
    r(ProInt, &[I8, I16]),
    r(ProInt, &[I8, I32]),
    r(ProFp, &[I8, Fp16]),
    r(ExtBf16, &[I8, Bf16]),
    r(ProFp, &[I8, Fp32]),
    r(ProInt, &[I16, Bool]),
    r(ProInt, &[I16, I8]),
    r(ProInt, &[I16, I32]),
    r(ProFp, &[I16, Fp16]),
    r(ExtBf16, &[I16, Bf16]),
    r(ProFp, &[I16, Fp32]),
    r(ProInt, &[I32, Bool]),
    r(ProInt, &[I32, I8]),
    r(ProInt, &[I32, I16]),
    r(ProFp, &[I32, Fp16]),
    r(ExtBf16, &[I32, Bf16]),
    r(ProFp, &[I32, Fp32]),
    r(ExtBf16, &[Bf16, I8]),
    r(ExtBf16, &[Bf16, I16]),
    r(ExtBf16, &[Bf16, I32]),
    row2(ExtBf16, &[ExtFp8E4M3], &[Bf16, Fp8E4M3]),
    row2(ExtBf16, &[ExtFp8E5M2], &[Bf16, Fp8E5M2]),
    r(ExtBf16, &[Bf16, Fp32]),
    r(ExtFp8E4M3, &[Fp8E4M3, Fp16]),
    row2(ExtBf16, &[ExtFp8E4M3], &[Fp8E4M3, Bf16]),
    r(ExtFp8E4M3, &[Fp8E4M3, Fp32]),
    r(ExtFp8E5M2, &[Fp8E5M2, Fp16]),
    row2(ExtBf16, &[ExtFp8E5M2], &[Fp8E5M2, Bf16]),
    r(ExtFp8E5M2, &[Fp8E5M2, Fp32]),
    r(ProFp, &[Fp16, I8]),
    r(ProFp, &[Fp16, I16]),
    r(ProFp, &[Fp16, I32]),
    r(ExtFp8E4M3, &[Fp16, Fp8E4M3]),
    r(ExtFp8E5M2, &[Fp16, Fp8E5M2]),
    r(ProFp, &[Fp16, Fp32]),
    r(ProFp, &[Fp32, I8]),
    r(ProFp, &[Fp32, I16]),
    r(ProFp, &[Fp32, I32]),
    r(ExtFp8E4M3, &[Fp32, Fp8E4M3]),
    r(ExtFp8E5M2, &[Fp32, Fp8E5M2]),
    r(ExtBf16, &[Fp32, Bf16]),
    r(ProFp, &[Fp32, Fp16]),
];

/// Slots in_t, out_t, mul_t: every registry row once per `scale32` value,
/// except i48 inputs, which are an error with `scale32`.
const RESCALE_ROWS: &[TypeRow] = &[
    scale32(ProInt, &[I8, I8, I32], true),
    scale32(ProInt, &[I8, I8, I16], false),
    scale32(ProInt, &[I8, I16, I32], true),
    scale32(ProInt, &[I8, I16, I16], false),
    scale32(ProInt, &[I8, I32, I32], true),
    scale32(ProInt, &[I8, I32, I16], false),
    scale32(ProInt, &[I16, I8, I32], true),
    scale32(ProInt, &[I16, I8, I16], false),
    scale32(ProInt, &[I16, I16, I32], true),
    scale32(ProInt, &[I16, I16, I16], false),
    scale32(ProInt, &[I16, I32, I32], true),
    scale32(ProInt, &[I16, I32, I16], false),
    scale32(ProInt, &[I32, I8, I32], true),
    scale32(ProInt, &[I32, I8, I16], false),
    scale32(ProInt, &[I32, I16, I32], true),
    scale32(ProInt, &[I32, I16, I16], false),
    scale32(ProInt, &[I32, I32, I32], true),
    scale32(ProInt, &[I32, I32, I16], false),
    scale32(ExtInt16, &[I48, I8, I16], false),
    scale32(ExtInt16, &[I48, I16, I16], false),
    scale32(ExtInt16, &[I48, I32, I16], false),
];

// ---- operand lists -----------------------------------------------------------------

const RANK4: RankReq = RankReq::Exact(4);
const ANY: RankReq = RankReq::Any;

const UNARY_INPUT: &[OperandSpec] = &[tensor("input", 0, ANY)];
const UNARY_INPUT1: &[OperandSpec] = &[tensor("input1", 0, ANY)];
const BINARY: &[OperandSpec] = &[tensor("input1", 0, ANY), tensor("input2", 0, RankReq::SameAs(0))];
const BINARY_NAN: &[OperandSpec] = &[NAN_MODE, tensor("input1", 0, ANY), tensor("input2", 0, RankReq::SameAs(1))];
const REDUCE: &[OperandSpec] = &[axis(1), tensor("input", 0, ANY)];
const REDUCE_NAN: &[OperandSpec] = &[axis(2), NAN_MODE, tensor("input", 0, ANY)];

const CONV2D_OPERANDS: &[OperandSpec] = &[
    CONV_PAD4,
    STRIDE2,
    DILATION2,
    ACC_TYPE,
    LOCAL_BOUND,
    tensor("input", 0, RANK4),
    tensor("weight", 1, RANK4),
    tensor("bias", 2, RankReq::Exact(1)),
    zero_point("input_zp", 0),
    zero_point("weight_zp", 1),
];

const CONV3D_OPERANDS: &[OperandSpec] = &[
    i64_array("pad", 6, ValueRule::AtLeast(0)),
    i64_array("stride", 3, ValueRule::AtLeast(1)),
    i64_array("dilation", 3, ValueRule::AtLeast(1)),
    ACC_TYPE,
    LOCAL_BOUND,
    tensor("input", 0, RankReq::Exact(5)),
    tensor("weight", 1, RankReq::Exact(5)),
    tensor("bias", 2, RankReq::Exact(1)),
    zero_point("input_zp", 0),
    zero_point("weight_zp", 1),
];

const TRANSPOSE_CONV2D_OPERANDS: &[OperandSpec] = &[
    i64_array("out_pad", 4, ValueRule::OutPad),
    STRIDE2,
    ACC_TYPE,
    LOCAL_BOUND,
    tensor("input", 0, RANK4),
    tensor("weight", 1, RANK4),
    tensor("bias", 2, RankReq::Exact(1)),
    zero_point("input_zp", 0),
    zero_point("weight_zp", 1),
];

const CLAMP_BOUND: Form = Form::ScalarConst { slot: 0 };
const CLAMP_MLIR: MlirRepr = MlirRepr::Attr(MlirAttr::ElemScalar { slot: 0 });

const RESCALE_OPERANDS: &[OperandSpec] = &[
    bool_attr("scale32"),
    enum_attr("rounding_mode", EnumKind::RoundingMode),
    bool_attr("per_channel"),
    bool_attr("input_unsigned"),
    bool_attr("output_unsigned"),
    tensor("input", 0, ANY),
    operand(
        "multiplier",
        Role::CtcInput,
        Form::ConstTensor { elem: ElemRef::Slot(2), len: Len::PerChannel { flag: 2, of: 5 } },
        MlirRepr::Const,
        ValueRule::NonNegative,
    ),
    operand(
        "shift",
        Role::CtcInput,
        Form::ConstTensor { elem: ElemRef::Fixed(I8), len: Len::PerChannel { flag: 2, of: 5 } },
        MlirRepr::Const,
        ValueRule::RescaleShift,
    ),
    operand(
        "input_zp",
        Role::CtcInput,
        Form::ConstTensor { elem: ElemRef::Slot(0), len: Len::Fixed(1) },
        MlirRepr::Const,
        ValueRule::RescaleZeroPoint { unsigned_flag: 3 },
    ),
    operand(
        "output_zp",
        Role::CtcInput,
        Form::ConstTensor { elem: ElemRef::Slot(1), len: Len::Fixed(1) },
        MlirRepr::Const,
        ValueRule::RescaleZeroPoint { unsigned_flag: 4 },
    ),
];

// ---- spec builders -------------------------------------------------------------------

const OUTPUT: &[&str] = &["output"];
const ONE_SLOT: &[&str] = &["in_out_t"];
const IN_OUT: &[&str] = &["in_t", "out_t"];
const CONV_SLOTS: &[&str] = &["in_t", "weight_t", "out_t"];

const fn spec(
    op: TosaOp,
    operands: &'static [OperandSpec],
    slots: &'static [&'static str],
    result_slot: u8,
    type_rows: &'static [TypeRow],
    shape: ShapeRule,
    accuracy: Accuracy,
) -> OpSpec {
    OpSpec {
        op,
        operands,
        variadic: false,
        result: ResultSpec { kind: ResultKind::Tensor, slot: result_slot, names: OUTPUT },
        slots,
        type_rows,
        shape,
        accuracy,
    }
}

/// One in/out slot.
const fn same(
    op: TosaOp,
    operands: &'static [OperandSpec],
    rows: &'static [TypeRow],
    shape: ShapeRule,
    accuracy: Accuracy,
) -> OpSpec {
    spec(op, operands, ONE_SLOT, 0, rows, shape, accuracy)
}

const fn fft(op: TosaOp, operands: &'static [OperandSpec], shape: ShapeRule) -> OpSpec {
    OpSpec {
        op,
        operands,
        variadic: false,
        result: ResultSpec { kind: ResultKind::RealImagStruct, slot: 0, names: &["output_real", "output_imag"] },
        slots: ONE_SLOT,
        type_rows: FFT_ROWS,
        shape,
        accuracy: Accuracy::DotProduct,
    }
}

use Accuracy::{DotProduct, Exact};
use ShapeRule::{Broadcast, Identity};

/// The ABS_ERROR bounds of §4, as `calcAbsErrorBound` constants.
const fn abs_error(p: AbsErrorSpec) -> Accuracy {
    Accuracy::AbsError(AbsErrorBound::Calc(p))
}
const PLAIN: AbsErrorSpec = AbsErrorSpec::PLAIN;
/// EXP: `calcAbsErrorBound(out_ref, err_base + 2|x|, 0, 1)`.
const EXP_BOUND: Accuracy = abs_error(AbsErrorSpec { err_base_multiple: 1.0, ..PLAIN });
/// LOG: `calcAbsErrorBound(out_ref, 5, 0.5, 1)` (the 5 is per element).
const LOG_BOUND: Accuracy = abs_error(AbsErrorSpec { lower_bound: 0.5, ..PLAIN });
/// SIGMOID: `calcAbsErrorBound(out_ref, 2(1+|x|), 0, 1)`.
const SIGMOID_BOUND: Accuracy = abs_error(PLAIN);
/// TANH: `calcAbsErrorBound(out_ref, 4(err_base + 2|x|), 0.5, 1)`.
const TANH_BOUND: Accuracy = abs_error(AbsErrorSpec { lower_bound: 0.5, err_base_multiple: 4.0, ..PLAIN });
/// COS: `calcAbsErrorBound(1+|x|, 1, 0, 2)`.
const COS_BOUND: Accuracy =
    abs_error(AbsErrorSpec { base_bound: 1.0, bound_as_magnitude: true, normal_divisor: 2.0, ..PLAIN });
/// SIN: `max(calcAbsErrorBound(x, 2, 0, 2), π·normal_min)`.
const SIN_BOUND: Accuracy = abs_error(AbsErrorSpec {
    base_bound: 2.0,
    bound_as_magnitude: true,
    normal_divisor: 2.0,
    normal_min_floor: std::f64::consts::PI,
    ..PLAIN
});
/// POW: computed per element.
const POW_BOUND: Accuracy = Accuracy::AbsError(AbsErrorBound::PerElement);

/// The catalogue, indexed by opcode.
pub(crate) static SPECS: [OpSpec; TosaOp::COUNT] = [
    spec(
        TosaOp::Argmax,
        &[axis(2), NAN_MODE, tensor("input", 0, ANY)],
        IN_OUT,
        1,
        ARGMAX_ROWS,
        ShapeRule::Argmax,
        Exact,
    ),
    same(
        TosaOp::AvgPool2d,
        &[
            KERNEL,
            STRIDE2,
            POOL_PAD,
            ACC_TYPE,
            tensor("input", 0, RANK4),
            zero_point("input_zp", 0),
            zero_point("output_zp", 0),
        ],
        AVG_POOL_ROWS,
        ShapeRule::Pool2d,
        DotProduct,
    ),
    spec(TosaOp::Conv2d, CONV2D_OPERANDS, CONV_SLOTS, 2, CONV_ROWS, ShapeRule::Conv2d, DotProduct),
    spec(TosaOp::Conv3d, CONV3D_OPERANDS, CONV_SLOTS, 2, CONV_ROWS, ShapeRule::Conv3d, DotProduct),
    spec(TosaOp::DepthwiseConv2d, CONV2D_OPERANDS, CONV_SLOTS, 2, CONV_ROWS, ShapeRule::DepthwiseConv2d, DotProduct),
    fft(
        TosaOp::Fft2d,
        &[
            bool_attr("inverse"),
            LOCAL_BOUND,
            tensor("input_real", 0, RankReq::Exact(3)),
            tensor("input_imag", 0, RankReq::Exact(3)),
        ],
        ShapeRule::Fft2d,
    ),
    spec(
        TosaOp::Matmul,
        &[
            tensor("A", 0, RankReq::Exact(3)),
            tensor("B", 0, RankReq::Exact(3)),
            zero_point("A_zp", 0),
            zero_point("B_zp", 0),
        ],
        IN_OUT,
        1,
        MATMUL_ROWS,
        ShapeRule::Matmul,
        DotProduct,
    ),
    same(
        TosaOp::MaxPool2d,
        &[KERNEL, STRIDE2, POOL_PAD, NAN_MODE, tensor("input", 0, RANK4)],
        MAX_POOL_ROWS,
        ShapeRule::Pool2d,
        Exact,
    ),
    fft(TosaOp::Rfft2d, &[LOCAL_BOUND, tensor("input_real", 0, RankReq::Exact(3))], ShapeRule::Rfft2d),
    spec(
        TosaOp::TransposeConv2d,
        TRANSPOSE_CONV2D_OPERANDS,
        CONV_SLOTS,
        2,
        CONV_ROWS,
        ShapeRule::TransposeConv2d,
        DotProduct,
    ),
    same(
        TosaOp::Clamp,
        &[
            operand("min_val", Role::Attribute, CLAMP_BOUND, CLAMP_MLIR, ValueRule::ClampBound),
            operand("max_val", Role::Attribute, CLAMP_BOUND, CLAMP_MLIR, ValueRule::ClampBound),
            NAN_MODE,
            tensor("input", 0, ANY),
        ],
        CLAMP_ROWS,
        Identity,
        Exact,
    ),
    same(TosaOp::Erf, UNARY_INPUT, FP_ROWS, Identity, Accuracy::Ulp(5.0)),
    same(TosaOp::Sigmoid, UNARY_INPUT, FP_ROWS, Identity, SIGMOID_BOUND),
    same(TosaOp::Tanh, UNARY_INPUT, FP_ROWS, Identity, TANH_BOUND),
    same(TosaOp::Add, BINARY, ADD_ROWS, Broadcast, Accuracy::Ulp(0.5)),
    same(
        TosaOp::ArithmeticRightShift,
        &[bool_attr("round"), tensor("input1", 0, ANY), tensor("input2", 0, RankReq::SameAs(1))],
        INT_ROWS,
        Broadcast,
        Exact,
    ),
    same(TosaOp::BitwiseAnd, BINARY, INT_ROWS, Broadcast, Exact),
    same(TosaOp::BitwiseOr, BINARY, INT_ROWS, Broadcast, Exact),
    same(TosaOp::BitwiseXor, BINARY, INT_ROWS, Broadcast, Exact),
    same(TosaOp::Intdiv, BINARY, &[row(INT_OR_FP, &[I32])], Broadcast, Exact),
    same(TosaOp::LogicalAnd, BINARY, BOOL_ROWS, Broadcast, Exact),
    same(TosaOp::LogicalLeftShift, BINARY, SHIFT_ROWS, Broadcast, Exact),
    same(TosaOp::LogicalRightShift, BINARY, SHIFT_ROWS, Broadcast, Exact),
    same(TosaOp::LogicalOr, BINARY, BOOL_ROWS, Broadcast, Exact),
    same(TosaOp::LogicalXor, BINARY, BOOL_ROWS, Broadcast, Exact),
    same(TosaOp::Maximum, BINARY_NAN, I32_FP_ROWS, Broadcast, Exact),
    same(TosaOp::Minimum, BINARY_NAN, I32_FP_ROWS, Broadcast, Exact),
    spec(
        TosaOp::Mul,
        &[
            tensor("input1", 0, ANY),
            tensor("input2", 0, RankReq::SameAs(0)),
            operand(
                "shift",
                Role::CtcInput,
                Form::ConstTensor { elem: ElemRef::Fixed(I8), len: Len::Fixed(1) },
                MlirRepr::Const,
                ValueRule::MulShift,
            ),
        ],
        IN_OUT,
        1,
        MUL_ROWS,
        Broadcast,
        Accuracy::Ulp(0.5),
    ),
    same(TosaOp::Pow, BINARY, FP_ROWS, Broadcast, POW_BOUND),
    same(TosaOp::Sub, BINARY, ADD_ROWS, Broadcast, Accuracy::Ulp(0.5)),
    spec(
        TosaOp::Table,
        &[
            tensor("input1", 0, ANY),
            operand(
                "table",
                Role::CtcInput,
                Form::ConstTensor { elem: ElemRef::Slot(0), len: Len::TableSize { slot: 0 } },
                MlirRepr::Const,
                ValueRule::None,
            ),
        ],
        IN_OUT,
        1,
        TABLE_ROWS,
        ShapeRule::Table,
        Exact,
    ),
    same(TosaOp::Abs, UNARY_INPUT1, I32_FP_ROWS, Identity, Exact),
    same(TosaOp::BitwiseNot, UNARY_INPUT1, INT_ROWS, Identity, Exact),
    same(TosaOp::Ceil, UNARY_INPUT1, FP_ROWS, Identity, Accuracy::Ulp(0.5)),
    same(TosaOp::Clz, UNARY_INPUT1, &[r(ProInt, &[I32])], Identity, Exact),
    same(TosaOp::Cos, UNARY_INPUT1, FP_ROWS, Identity, COS_BOUND),
    same(TosaOp::Exp, UNARY_INPUT1, FP_ROWS, Identity, EXP_BOUND),
    same(TosaOp::Floor, UNARY_INPUT1, FP_ROWS, Identity, Accuracy::Ulp(0.5)),
    same(TosaOp::Log, UNARY_INPUT1, FP_ROWS, Identity, LOG_BOUND),
    same(TosaOp::LogicalNot, UNARY_INPUT1, BOOL_ROWS, Identity, Exact),
    same(
        TosaOp::Negate,
        &[tensor("input1", 0, ANY), zero_point("input1_zp", 0), zero_point("output_zp", 0)],
        NEGATE_ROWS,
        Identity,
        Exact,
    ),
    same(TosaOp::Reciprocal, UNARY_INPUT1, FP_ROWS, Identity, Accuracy::Ulp(1.0)),
    same(TosaOp::Rsqrt, UNARY_INPUT1, FP_ROWS, Identity, Accuracy::Ulp(2.0)),
    same(TosaOp::Sin, UNARY_INPUT1, FP_ROWS, Identity, SIN_BOUND),
    same(
        TosaOp::Select,
        &[
            fixed_tensor("input1", Bool, ANY),
            tensor("input2", 0, RankReq::SameAs(0)),
            tensor("input3", 0, RankReq::SameAs(0)),
        ],
        SELECT_ROWS,
        Broadcast,
        Exact,
    ),
    spec(TosaOp::Equal, BINARY, IN_OUT, 1, COMPARE_ROWS, Broadcast, Exact),
    spec(TosaOp::Greater, BINARY, IN_OUT, 1, COMPARE_ROWS, Broadcast, Exact),
    spec(TosaOp::GreaterEqual, BINARY, IN_OUT, 1, COMPARE_ROWS, Broadcast, Exact),
    same(TosaOp::ReduceAll, REDUCE, BOOL_ROWS, ShapeRule::Reduce, Exact),
    same(TosaOp::ReduceAny, REDUCE, BOOL_ROWS, ShapeRule::Reduce, Exact),
    same(TosaOp::ReduceMax, REDUCE_NAN, REDUCE_MINMAX_ROWS, ShapeRule::Reduce, Exact),
    same(TosaOp::ReduceMin, REDUCE_NAN, REDUCE_MINMAX_ROWS, ShapeRule::Reduce, Exact),
    same(TosaOp::ReduceProduct, REDUCE, FP_ROWS, ShapeRule::Reduce, Accuracy::Product),
    same(TosaOp::ReduceSum, REDUCE, I32_FP_ROWS, ShapeRule::Reduce, DotProduct),
    OpSpec {
        variadic: true,
        ..same(TosaOp::Concat, &[axis(1), tensor("input1", 0, ANY)], CONCAT_ROWS, ShapeRule::Concat, Exact)
    },
    same(
        TosaOp::Pad,
        &[
            tensor("input1", 0, ANY),
            shape_input("padding", Len::TwiceRankOf(0), ValueRule::AtLeast(0)),
            operand(
                "pad_const",
                Role::CtcInput,
                Form::ConstTensor { elem: ElemRef::Slot(0), len: Len::Fixed(1) },
                MlirRepr::Const,
                ValueRule::None,
            ),
        ],
        LAYOUT_ROWS,
        ShapeRule::Pad,
        Exact,
    ),
    same(
        TosaOp::Reshape,
        &[tensor("input1", 0, ANY), shape_input("shape", Len::OutputRank, ValueRule::AtLeast(1))],
        LAYOUT_ROWS,
        ShapeRule::Reshape,
        Exact,
    ),
    same(TosaOp::Reverse, &[axis(1), tensor("input1", 0, ANY)], LAYOUT_ROWS, Identity, Exact),
    same(
        TosaOp::Slice,
        &[
            tensor("input1", 0, ANY),
            shape_input("start", Len::RankOf(0), ValueRule::AtLeast(0)),
            shape_input("size", Len::RankOf(0), ValueRule::AtLeast(1)),
        ],
        LAYOUT_ROWS,
        ShapeRule::Slice,
        Exact,
    ),
    same(
        TosaOp::Tile,
        &[tensor("input1", 0, ANY), shape_input("multiples", Len::RankOf(0), ValueRule::AtLeast(1))],
        LAYOUT_ROWS,
        ShapeRule::Tile,
        Exact,
    ),
    same(
        TosaOp::Transpose,
        &[
            operand(
                "perms",
                Role::Attribute,
                Form::I32Array { len: Len::RankOf(1) },
                MlirRepr::Attr(MlirAttr::I32Array),
                ValueRule::Permutation,
            ),
            tensor("input1", 0, ANY),
        ],
        LAYOUT_ROWS,
        ShapeRule::Transpose,
        Exact,
    ),
    same(
        TosaOp::Gather,
        &[tensor("values", 0, RankReq::Exact(3)), fixed_tensor("indices", I32, RankReq::Exact(2))],
        GATHER_ROWS,
        ShapeRule::Gather,
        Exact,
    ),
    OpSpec {
        result: ResultSpec { kind: ResultKind::Tensor, slot: 0, names: &["values_out"] },
        ..same(
            TosaOp::Scatter,
            &[
                tensor("values_in", 0, RankReq::Exact(3)),
                fixed_tensor("indices", I32, RankReq::Exact(2)),
                tensor("input", 0, RankReq::Exact(3)),
            ],
            GATHER_ROWS,
            ShapeRule::Scatter,
            Exact,
        )
    },
    spec(
        TosaOp::Resize,
        &[
            enum_attr("mode", EnumKind::ResizeMode),
            tensor("input", 0, RANK4),
            shape_input("scale", Len::Fixed(4), ValueRule::ResizeParams),
            shape_input("offset", Len::Fixed(2), ValueRule::ResizeParams),
            shape_input("border", Len::Fixed(2), ValueRule::ResizeParams),
        ],
        IN_OUT,
        1,
        RESIZE_ROWS,
        ShapeRule::Resize,
        Accuracy::Relative,
    ),
    spec(TosaOp::Cast, UNARY_INPUT, IN_OUT, 1, CAST_ROWS, Identity, Accuracy::Cast),
    spec(
        TosaOp::Rescale,
        RESCALE_OPERANDS,
        &["in_t", "out_t", "mul_t"],
        1,
        RESCALE_ROWS,
        ShapeRule::Rescale,
        Accuracy::InexactRound,
    ),
];
