//! Which implementation runs each of the 66 operators.

use super::ctx::Ctx;
use super::error::OpError;
use super::{
    cast, compare, conv, elementwise, fft, gather, layout, matmul, pool, reduce, rescale, resize, table, unary,
};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;

/// Runs the operator of `cx`; one result tensor, two for FFT2D/RFFT2D.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<Vec<TensorData>, OpError> {
    use TosaOp::*;
    let one = match cx.op {
        Argmax => reduce::argmax(cx)?,
        AvgPool2d | MaxPool2d => pool::run(cx)?,
        Conv2d | Conv3d | DepthwiseConv2d | TransposeConv2d => conv::run(cx)?,
        Fft2d | Rfft2d => return fft::run(cx),
        Matmul => matmul::run(cx)?,
        Clamp | Erf | Sigmoid | Tanh => unary::run(cx)?,
        Add | ArithmeticRightShift | BitwiseAnd | BitwiseOr | BitwiseXor | Intdiv | LogicalAnd | LogicalLeftShift
        | LogicalRightShift | LogicalOr | LogicalXor | Maximum | Minimum | Mul | Pow | Sub => elementwise::run(cx)?,
        Table => table::run(cx)?,
        Abs | BitwiseNot | Ceil | Clz | Cos | Exp | Floor | Log | LogicalNot | Negate | Reciprocal | Rsqrt | Sin => {
            unary::run(cx)?
        }
        Select => compare::select(cx)?,
        Equal | Greater | GreaterEqual => compare::compare(cx)?,
        ReduceAll | ReduceAny | ReduceMax | ReduceMin | ReduceProduct | ReduceSum => reduce::run(cx)?,
        Concat | Pad | Reshape | Reverse | Slice | Tile | Transpose => layout::run(cx)?,
        Gather | Scatter => gather::run(cx)?,
        Resize => resize::run(cx)?,
        Cast => cast::run(cx)?,
        Rescale => rescale::run(cx)?,
    };
    Ok(vec![one])
}
