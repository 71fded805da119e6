//! Which implementation runs each of the 66 operators.
//!
//! Every operator is matched here, and named to its group as a variant of
//! the group's own enum ([`Unary`], [`Binary`], ...), which the group
//! matches exhaustively: an operator added to the catalogue does not
//! compile until it is given a group, and a group cannot be handed an
//! operator it does not implement (no run-time "not a ... operator").

use super::compare::{self, Comparison};
use super::conv::{self, Convolution};
use super::ctx::Ctx;
use super::elementwise::{self, Binary};
use super::error::OpError;
use super::gather::{self, Indexed};
use super::layout::{self, Layout};
use super::reduce::{self, Reduction};
use super::unary::{self, Unary};
use super::{cast, fft, matmul, pool, rescale, resize, table};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;

/// Runs the operator of `cx`; one result tensor, two for FFT2D/RFFT2D.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<Vec<TensorData>, OpError> {
    use TosaOp::*;
    let one = match cx.op {
        Argmax => reduce::argmax(cx)?,
        AvgPool2d | MaxPool2d => pool::run(cx)?,
        Conv2d => conv::run(cx, Convolution::Conv2d)?,
        Conv3d => conv::run(cx, Convolution::Conv3d)?,
        DepthwiseConv2d => conv::run(cx, Convolution::DepthwiseConv2d)?,
        TransposeConv2d => conv::run(cx, Convolution::TransposeConv2d)?,
        Fft2d | Rfft2d => return fft::run(cx),
        Matmul => matmul::run(cx)?,
        Clamp => unary::run(cx, Unary::Clamp)?,
        Erf => unary::run(cx, Unary::Erf)?,
        Sigmoid => unary::run(cx, Unary::Sigmoid)?,
        Tanh => unary::run(cx, Unary::Tanh)?,
        Add => elementwise::run(cx, Binary::Add)?,
        ArithmeticRightShift => elementwise::run(cx, Binary::ArithmeticRightShift)?,
        BitwiseAnd => elementwise::run(cx, Binary::BitwiseAnd)?,
        BitwiseOr => elementwise::run(cx, Binary::BitwiseOr)?,
        BitwiseXor => elementwise::run(cx, Binary::BitwiseXor)?,
        Intdiv => elementwise::run(cx, Binary::Intdiv)?,
        LogicalAnd => elementwise::run(cx, Binary::LogicalAnd)?,
        LogicalLeftShift => elementwise::run(cx, Binary::LogicalLeftShift)?,
        LogicalRightShift => elementwise::run(cx, Binary::LogicalRightShift)?,
        LogicalOr => elementwise::run(cx, Binary::LogicalOr)?,
        LogicalXor => elementwise::run(cx, Binary::LogicalXor)?,
        Maximum => elementwise::run(cx, Binary::Maximum)?,
        Minimum => elementwise::run(cx, Binary::Minimum)?,
        Mul => elementwise::run(cx, Binary::Mul)?,
        Pow => elementwise::run(cx, Binary::Pow)?,
        Sub => elementwise::run(cx, Binary::Sub)?,
        Table => table::run(cx)?,
        Abs => unary::run(cx, Unary::Abs)?,
        BitwiseNot => unary::run(cx, Unary::BitwiseNot)?,
        Ceil => unary::run(cx, Unary::Ceil)?,
        Clz => unary::run(cx, Unary::Clz)?,
        Cos => unary::run(cx, Unary::Cos)?,
        Exp => unary::run(cx, Unary::Exp)?,
        Floor => unary::run(cx, Unary::Floor)?,
        Log => unary::run(cx, Unary::Log)?,
        LogicalNot => unary::run(cx, Unary::LogicalNot)?,
        Negate => unary::run(cx, Unary::Negate)?,
        Reciprocal => unary::run(cx, Unary::Reciprocal)?,
        Rsqrt => unary::run(cx, Unary::Rsqrt)?,
        Sin => unary::run(cx, Unary::Sin)?,
        Select => compare::select(cx)?,
        Equal => compare::compare(cx, Comparison::Equal)?,
        Greater => compare::compare(cx, Comparison::Greater)?,
        GreaterEqual => compare::compare(cx, Comparison::GreaterEqual)?,
        ReduceAll => reduce::run(cx, Reduction::All)?,
        ReduceAny => reduce::run(cx, Reduction::Any)?,
        ReduceMax => reduce::run(cx, Reduction::Max)?,
        ReduceMin => reduce::run(cx, Reduction::Min)?,
        ReduceProduct => reduce::run(cx, Reduction::Product)?,
        ReduceSum => reduce::run(cx, Reduction::Sum)?,
        Concat => layout::run(cx, Layout::Concat)?,
        Pad => layout::run(cx, Layout::Pad)?,
        Reshape => layout::run(cx, Layout::Reshape)?,
        Reverse => layout::run(cx, Layout::Reverse)?,
        Slice => layout::run(cx, Layout::Slice)?,
        Tile => layout::run(cx, Layout::Tile)?,
        Transpose => layout::run(cx, Layout::Transpose)?,
        Gather => gather::run(cx, Indexed::Gather)?,
        Scatter => gather::run(cx, Indexed::Scatter)?,
        Resize => resize::run(cx)?,
        Cast => cast::run(cx)?,
        Rescale => rescale::run(cx)?,
    };
    Ok(vec![one])
}
