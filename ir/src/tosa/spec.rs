//! The vocabulary of the catalogue: what an operator's operands, result,
//! type rows, shape rule and accuracy rule look like.

use super::enums::{AccType, EnumKind, ResizeMode};
use super::ops::TosaOp;
use crate::elem::{ElemType, Profile};

/// Largest tensor rank at TOSA level 8K (`MAX_RANK`).
///
/// Exceeding it is a level violation (unpredictable), not an ERROR_IF, so
/// shape inference does not enforce it; generators should stay within it.
pub const MAX_RANK: u32 = super::level::LevelLimits::EIGHT_K.max_rank as u32;

/// How TOSA classifies an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A TOSA attribute: must come from a constant instruction; precedes the inputs.
    Attribute,
    /// A compile-time-constant input (§2.5): must come from a constant instruction.
    CtcInput,
    /// An ordinary tensor input: any tensor `<id>` of the graph.
    Input,
}

impl Role {
    /// Whether the operand must be produced by a constant instruction.
    pub fn must_be_constant(self) -> bool {
        !matches!(self, Role::Input)
    }
}

/// Where an element type comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemRef {
    /// Type slot `n` of the operator: the type is whatever the chosen
    /// [`TypeRow`] puts at `types[n]`.
    Slot(u8),
    /// Always this type, whatever the row.
    Fixed(ElemType),
}

impl ElemRef {
    /// The element type under `row`, if the slot exists.
    pub fn resolve(self, row: &TypeRow) -> Option<ElemType> {
        match self {
            ElemRef::Slot(s) => row.types.get(usize::from(s)).copied(),
            ElemRef::Fixed(t) => Some(t),
        }
    }
}

/// Rank requirement of a tensor-value operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RankReq {
    /// Exactly this rank.
    Exact(u32),
    /// Any rank from 1 to the level's `MAX_RANK` ([`MAX_RANK`] at 8K).
    Any,
    /// The same rank as operand `n` (an ERROR_IF when different).
    SameAs(u8),
}

/// Length rule of a rank-1 constant operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Len {
    /// Exactly this many elements.
    Fixed(u32),
    /// As many elements as operand `n` has dimensions.
    RankOf(u8),
    /// Twice the rank of operand `n` (PAD `padding`).
    TwiceRankOf(u8),
    /// The output rank, any length ≥ 1 (RESHAPE `shape`).
    OutputRank,
    /// `TABLE_SIZE`: 256 when slot `slot` is i8, 513 when it is i16.
    TableSize {
        /// The type slot that selects the size.
        slot: u8,
    },
    /// RESCALE `NC`: the last dimension of operand `of` when the bool
    /// operand `flag` (`per_channel`) is true, else 1.
    PerChannel {
        /// Index of the `per_channel` operand.
        flag: u8,
        /// Index of the tensor whose last dimension gives the channel count.
        of: u8,
    },
}

/// Table size of the TABLE operator for an input element type.
pub fn table_size(elem: ElemType) -> Option<u32> {
    match elem {
        ElemType::I8 => Some(256),
        ElemType::I16 => Some(513),
        _ => None,
    }
}

/// The SPIR-V construct that is legal for an operand (§1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `OpConstant` of `OpTypeInt 32 0` holding a valid enumerant of `kind`.
    EnumConst(EnumKind),
    /// `OpConstant` of `OpTypeInt 32 0`, read as a signed i32 axis of operand
    /// `of`: `0 <= axis < rank(of)`.
    AxisConst {
        /// The operand whose dimensions the axis indexes.
        of: u8,
    },
    /// `OpConstantTrue`/`OpConstantFalse` (spec constants allowed).
    BoolConst,
    /// `OpConstant` whose type is exactly the element type of slot `slot`
    /// (CLAMP bounds).
    ScalarConst {
        /// The type slot.
        slot: u8,
    },
    /// A tensor constant of shape `[len]` with `OpTypeInt 32 0` elements
    /// (read as signed): attribute arrays (kernel, stride, pad, dilation,
    /// out_pad, perms) and `shape_t` inputs (padding, shape, start, size,
    /// multiples, scale, offset, border).
    I32Array {
        /// Element count rule.
        len: Len,
    },
    /// A tensor constant (`OpConstantComposite`, `OpConstantNull`,
    /// `OpConstantCompositeReplicateEXT` or `OpGraphConstantARM`) of shape
    /// `[len]`: zero points and MUL `shift` (`Len::Fixed(1)`), PAD
    /// `pad_const`, TABLE `table`, RESCALE `multiplier`/`shift`.
    ConstTensor {
        /// Element type.
        elem: ElemRef,
        /// Element count rule.
        len: Len,
    },
    /// Any tensor value of the graph.
    Tensor {
        /// Element type.
        elem: ElemRef,
        /// Rank requirement.
        rank: RankReq,
    },
}

impl Form {
    /// The SPIR-V scalar type of the operand (its element type for tensors),
    /// as a slot or a fixed type. Enum and axis constants are `OpTypeInt 32 0`,
    /// which [`ElemType::I32`] stands for.
    pub fn elem(self) -> ElemRef {
        match self {
            Form::EnumConst(_) | Form::AxisConst { .. } | Form::I32Array { .. } => ElemRef::Fixed(ElemType::I32),
            Form::BoolConst => ElemRef::Fixed(ElemType::Bool),
            Form::ScalarConst { slot } => ElemRef::Slot(slot),
            Form::ConstTensor { elem, .. } | Form::Tensor { elem, .. } => elem,
        }
    }

    /// Whether the operand is a tensor (value or constant) rather than a scalar.
    pub fn is_tensor(self) -> bool {
        matches!(self, Form::I32Array { .. } | Form::ConstTensor { .. } | Form::Tensor { .. })
    }
}

/// Kind of an MLIR attribute (TOSA 1.0 dialect).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MlirAttr {
    /// `array<i64: ...>` (kernel, stride, pad, dilation, out_pad).
    I64Array,
    /// `array<i32: ...>` (TRANSPOSE perms).
    I32Array,
    /// `N : i32` (axis).
    I32,
    /// `true`/`false`.
    Bool,
    /// A type attribute: `acc_type = i32` (see [`AccType::mlir_name`]).
    AccType,
    /// An enum attribute (see [`super::enums::mlir_enum_attr`]).
    Enum(EnumKind),
    /// A typed scalar of the element type of a slot (`0 : i8`, `6.0 : f32`).
    ElemScalar {
        /// The type slot.
        slot: u8,
    },
}

/// How an operand appears in TOSA MLIR.
///
/// MLIR SSA operands keep the instruction order with the attributes removed;
/// an attribute's MLIR name is the operand's grammar name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MlirRepr {
    /// An attribute of the given kind.
    Attr(MlirAttr),
    /// An SSA operand (any tensor value).
    Operand,
    /// An SSA operand produced by `tosa.const` (a tensor constant).
    Const,
    /// An SSA operand produced by `tosa.const_shape` (`!tosa.shape<n>`).
    ConstShape,
}

/// Constraints on an operand's constant values beyond its form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueRule {
    /// No constraint.
    None,
    /// Every element ≥ the bound (ERROR_IF; checked by shape inference).
    AtLeast(i32),
    /// Pool pad: ≥ 0 and < the kernel size of its axis (ERROR_IF; shape inference).
    PoolPad,
    /// TRANSPOSE_CONV2D `out_pad`: > −KH (top/bottom), > −KW (left/right)
    /// (ERROR_IF; shape inference).
    OutPad,
    /// A permutation of `0..rank` (ERROR_IF; shape inference).
    Permutation,
    /// RESIZE scale/offset/border ranges (ERROR_IF; shape inference).
    ResizeParams,
    /// A zero point: must be 0 (0.0 for FP) unless its slot's type is i8 (ERROR_IF).
    ZeroPoint,
    /// A RESCALE zero point: any value for i8; for i16 only 0 or 32768 when
    /// the bool operand `unsigned_flag` is true; otherwise 0 (ERROR_IF).
    RescaleZeroPoint {
        /// Index of `input_unsigned` / `output_unsigned`.
        unsigned_flag: u8,
    },
    /// CLAMP bound: not NaN and `min_val <= max_val` (ERROR_IF).
    ClampBound,
    /// MUL `shift`: 0..=63 for i32 inputs, 0 otherwise (REQUIRE only).
    MulShift,
    /// RESCALE `shift`: each in 2..=62 (REQUIRE only).
    RescaleShift,
    /// Each element ≥ 0 (REQUIRE only; RESCALE multiplier).
    NonNegative,
}

impl ValueRule {
    /// Whether a violation makes the graph invalid (ERROR_IF) rather than
    /// only its execution unpredictable (REQUIRE).
    pub fn is_error_if(self) -> bool {
        !matches!(self, ValueRule::None | ValueRule::MulShift | ValueRule::RescaleShift | ValueRule::NonNegative)
    }
}

/// One operand of an operator, in instruction order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandSpec {
    /// Name in the grammar JSON (`"input_zp"`).
    pub name: &'static str,
    /// TOSA role.
    pub role: Role,
    /// Legal SPIR-V construct.
    pub form: Form,
    /// MLIR representation.
    pub mlir: MlirRepr,
    /// Value constraints.
    pub value: ValueRule,
}

/// Shape of an operator's result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultKind {
    /// One `OpTypeTensorARM`.
    Tensor,
    /// `OpTypeStruct` of two tensors (member 0 real, member 1 imaginary),
    /// read with `OpCompositeExtract`; two results in MLIR.
    RealImagStruct,
}

/// An operator's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResultSpec {
    /// One tensor or a real/imag struct.
    pub kind: ResultKind,
    /// Type slot of every result tensor.
    pub slot: u8,
    /// TOSA output names, one per result tensor.
    pub names: &'static [&'static str],
}

/// Extra attribute value a type row is tied to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowQualifier {
    /// The row is not tied to any attribute value.
    Any,
    /// The row needs this `acc_type`.
    AccType(AccType),
    /// The row needs this RESIZE `mode` (integer rows only, per `tosa.xml`).
    Mode(ResizeMode),
    /// The row needs this RESCALE `scale32` (which decides `mul_t`).
    Scale32(bool),
}

impl RowQualifier {
    /// Whether a row with this qualifier accepts an instruction carrying `given`.
    pub fn admits(self, given: RowQualifier) -> bool {
        self == RowQualifier::Any || self == given
    }
}

/// One row of an operator's type-support table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeRow {
    /// Enabling any one of these profiles/extensions makes the row available…
    pub profiles: &'static [Profile],
    /// …provided all of these are enabled as well (CAST bf16→fp8e4m3 needs
    /// EXT-BF16 and EXT-FP8E4M3).
    pub also: &'static [Profile],
    /// Element type of each type slot of the operator.
    pub types: &'static [ElemType],
    /// Attribute value the row is tied to.
    pub qualifier: RowQualifier,
}

impl TypeRow {
    /// Whether the row is usable with the `enabled` profiles and extensions.
    pub fn available(&self, enabled: &[Profile]) -> bool {
        self.profiles.iter().any(|p| enabled.contains(p)) && self.also.iter().all(|p| enabled.contains(p))
    }

    /// Every profile/extension the row mentions.
    pub fn mentions(&self) -> impl Iterator<Item = Profile> + '_ {
        self.profiles.iter().chain(self.also.iter()).copied()
    }

    /// The element type of slot `slot`.
    pub fn slot(&self, slot: u8) -> Option<ElemType> {
        self.types.get(usize::from(slot)).copied()
    }
}

/// The shape rule an operator follows (implemented by [`super::infer_shapes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeRule {
    /// Output shape = first tensor input's shape (unary, CLAMP, CAST, NEGATE, REVERSE).
    Identity,
    /// Equal ranks, per-dimension broadcast of 1s (binary, SELECT, comparisons).
    Broadcast,
    /// Input shape without `axis`; `[1]` for a rank-1 input.
    Argmax,
    /// AVG_POOL2D / MAX_POOL2D.
    Pool2d,
    /// CONV2D.
    Conv2d,
    /// CONV3D.
    Conv3d,
    /// DEPTHWISE_CONV2D.
    DepthwiseConv2d,
    /// TRANSPOSE_CONV2D.
    TransposeConv2d,
    /// `[N,H,C] x [N,C,W] -> [N,H,W]`.
    Matmul,
    /// FFT2D: two `[N,H,W]` outputs, H and W powers of two.
    Fft2d,
    /// RFFT2D: two `[N,H,W/2+1]` outputs.
    Rfft2d,
    /// Rank kept, `shape[axis] = 1`.
    Reduce,
    /// Sum of the inputs along `axis`.
    Concat,
    /// `out[i] = before + in[i] + after`.
    Pad,
    /// `out = shape`, same element count.
    Reshape,
    /// `out = size`, within bounds.
    Slice,
    /// `out[i] = in[i] * multiples[i]`.
    Tile,
    /// `out[i] = in[perms[i]]`.
    Transpose,
    /// `[N,K,C] + [N,W] -> [N,W,C]`.
    Gather,
    /// `[N,K,C] + [N,W] + [N,W,C] -> [N,K,C]`.
    Scatter,
    /// RESIZE output-size formula.
    Resize,
    /// Identity; table length checked.
    Table,
    /// Identity; multiplier/shift length `NC` checked.
    Rescale,
}

impl ShapeRule {
    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            ShapeRule::Identity => "identity",
            ShapeRule::Broadcast => "broadcast",
            ShapeRule::Argmax => "argmax",
            ShapeRule::Pool2d => "pool2d",
            ShapeRule::Conv2d => "conv2d",
            ShapeRule::Conv3d => "conv3d",
            ShapeRule::DepthwiseConv2d => "depthwise_conv2d",
            ShapeRule::TransposeConv2d => "transpose_conv2d",
            ShapeRule::Matmul => "matmul",
            ShapeRule::Fft2d => "fft2d",
            ShapeRule::Rfft2d => "rfft2d",
            ShapeRule::Reduce => "reduce",
            ShapeRule::Concat => "concat",
            ShapeRule::Pad => "pad",
            ShapeRule::Reshape => "reshape",
            ShapeRule::Slice => "slice",
            ShapeRule::Tile => "tile",
            ShapeRule::Transpose => "transpose",
            ShapeRule::Gather => "gather",
            ShapeRule::Scatter => "scatter",
            ShapeRule::Resize => "resize",
            ShapeRule::Table => "table",
            ShapeRule::Rescale => "rescale",
        }
    }
}

/// Floating-point accuracy class of an operator (§5.3). Integer and bool
/// results are always exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Accuracy {
    /// Bit-exact (NaN may be any NaN; some ops allow either zero sign or flushed subnormals).
    Exact,
    /// Within this many ulp of the fp64 reference.
    Ulp(f64),
    /// `ref − below·ulp ≤ |out| ≤ ref + above·ulp` on magnitudes, sign correct
    /// (CAST float→float: below 1, above 0.5).
    AsymmetricUlp {
        /// Allowed ulps below the reference magnitude.
        below: f64,
        /// Allowed ulps above the reference magnitude.
        above: f64,
    },
    /// The operator's own absolute error bound (EXP, LOG, SIN, COS, SIGMOID, TANH, POW).
    AbsError(AbsErrorBound),
    /// The dot-product rule of §5.4.
    DotProduct,
    /// RESIZE: `max(0.006 · max|input|, 20 ulp)`.
    Relative,
    /// REDUCE_PRODUCT product bound.
    Product,
    /// CAST: depends on the type pair; see [`Accuracy::for_cast`].
    Cast,
    /// RESCALE: exact, except the INEXACT_ROUND interval for rounding_mode 2.
    InexactRound,
}

/// How an [`Accuracy::AbsError`] operator's bound is computed (§4 of each operator).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AbsErrorBound {
    /// `calcAbsErrorBound` with these constants, over a per-element bound
    /// value computed from the inputs.
    Calc(AbsErrorSpec),
    /// The whole bound is computed per element (POW: its `lower` depends on
    /// the exponent).
    PerElement,
}

/// The constants of `calcAbsErrorBound(magnitude, bound_value, lower, div)`
/// for one operator: the part of its §4 bound formula that does not depend
/// on the element values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AbsErrorSpec {
    /// `lower`: the bound's magnitude is at least `lower / bound_value`.
    pub lower_bound: f64,
    /// A constant added to the per-element bound value.
    pub base_bound: f64,
    /// Multiples of [`err_base`] added to the per-element bound value (EXP 1, TANH 4).
    pub err_base_multiple: f64,
    /// The per-element value is the magnitude to scale by (SIN, COS: the
    /// input), not a bound value; the reference is then not used for scale.
    pub bound_as_magnitude: bool,
    /// `div`: the bound uses `2^-(normal_frac / div)` (integer division).
    pub normal_divisor: f64,
    /// A floor for the bound, in smallest normals of the output type (SIN: π).
    pub normal_min_floor: f64,
}

impl AbsErrorSpec {
    /// `calcAbsErrorBound(reference, bound_value, 0, 1)`.
    pub const PLAIN: AbsErrorSpec = AbsErrorSpec {
        lower_bound: 0.0,
        base_bound: 0.0,
        err_base_multiple: 0.0,
        bound_as_magnitude: false,
        normal_divisor: 1.0,
        normal_min_floor: 0.0,
    };
}

/// `err_base` of EXP, TANH and POW: 3 for fp32 results, 1 for the 16-bit types.
pub fn err_base(output: ElemType) -> f64 {
    if output == ElemType::Fp32 {
        3.0
    } else {
        1.0
    }
}

impl Accuracy {
    /// The accuracy of a CAST from `from` to `to`.
    pub fn for_cast(from: ElemType, to: ElemType) -> Accuracy {
        // The conformance generator holds every CAST to a float type to
        // `{"ulp": 0.5, "ulp_lower": 1.0}` (tosa_test_gen.py), int -> float
        // too. The reference model's own int32/int48 -> fp16/bf16/fp8 goes
        // through fp32 and rounds twice, up to half an fp32 unit further:
        // the rule allows that much more above.
        if !to.is_float() {
            return Accuracy::Exact;
        }
        let wide_int = matches!(from, ElemType::I32 | ElemType::I48);
        let above = match (wide_int, significand_bits(to)) {
            (true, Some(p)) if p < 24 => 0.5 + (2f64).powi(p as i32 - 25),
            _ => 0.5,
        };
        Accuracy::AsymmetricUlp { below: 1.0, above }
    }
}

/// The significand bits (the implicit one included) of a float type.
fn significand_bits(elem: ElemType) -> Option<u32> {
    match elem {
        ElemType::Fp32 => Some(24),
        ElemType::Fp16 => Some(11),
        ElemType::Bf16 => Some(8),
        ElemType::Fp8E4M3 => Some(4),
        ElemType::Fp8E5M2 => Some(3),
        ElemType::Bool | ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I48 => None,
    }
}

/// The catalogue entry of one operator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpSpec {
    /// The operator.
    pub op: TosaOp,
    /// Operands in instruction (grammar) order.
    pub operands: &'static [OperandSpec],
    /// Whether the last operand repeats (CONCAT `input1...`, at least once).
    pub variadic: bool,
    /// The result.
    pub result: ResultSpec,
    /// Names of the type slots (`"in_t"`, `"weight_t"`, `"out_t"`, ...).
    pub slots: &'static [&'static str],
    /// The type-support table.
    pub type_rows: &'static [TypeRow],
    /// The shape rule.
    pub shape: ShapeRule,
    /// FP accuracy class.
    pub accuracy: Accuracy,
}
