//! In-tree bounds tensors for the element-wise ABS_ERROR and PRECOMPUTED
//! operators, computed from the operator's inputs exactly as the TOSA
//! reference model's "bounds" pass does, so that an output can be checked
//! without that tool.
//!
//! For EXP, LOG, SIGMOID and TANH the value is the variable part of the
//! operator's `calcAbsErrorBound` bound value (the constant part is the
//! mode's `base_bound`); for SIN and COS it is the magnitude the bound scales
//! with; for POW it is the whole allowed absolute error.

use super::bound::{abs_error_bound, AbsErrorParams};
use super::format::FpFormat;
use ndarray::{ArrayD, IxDyn};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::err_base;
use spvgraph_ir::tosa::TosaOp;

/// The inputs do not fit the operator.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoundsError {
    /// The operator has no element-wise bounds rule.
    #[error("{0} has no element-wise compliance bounds (only EXP, LOG, SIGMOID, TANH, SIN, COS, POW do)")]
    NotElementwise(TosaOp),
    /// Wrong number of inputs.
    #[error("{op}: expected {expected} input tensor(s), got {got}")]
    Arity {
        /// The operator.
        op: TosaOp,
        /// Inputs needed.
        expected: usize,
        /// Inputs given.
        got: usize,
    },
    /// The inputs do not broadcast to one shape.
    #[error("{op}: input shapes {a:?} and {b:?} do not broadcast")]
    Broadcast {
        /// The operator.
        op: TosaOp,
        /// First shape.
        a: Vec<usize>,
        /// Second shape.
        b: Vec<usize>,
    },
}

/// The bounds tensor (row-major, in the output's shape) for one element-wise
/// operator applied to `inputs`, for output type `output`.
pub fn elementwise_bounds(op: TosaOp, output: ElemType, inputs: &[&TensorData]) -> Result<Vec<f64>, BoundsError> {
    let unary = |f: fn(f64) -> f64| -> Result<Vec<f64>, BoundsError> {
        match inputs {
            [x] => Ok(x.to_f64().into_iter().map(f).collect()),
            _ => Err(BoundsError::Arity { op, expected: 1, got: inputs.len() }),
        }
    };
    match op {
        TosaOp::Exp => unary(|x| 2.0 * x.abs()),
        TosaOp::Log => unary(|_| 5.0),
        TosaOp::Sigmoid => unary(|x| 2.0 * (1.0 + x.abs())),
        TosaOp::Tanh => unary(|x| 8.0 * x.abs()),
        TosaOp::Cos => unary(|x| 1.0 + x.abs()),
        TosaOp::Sin => unary(|x| x),
        TosaOp::Pow => match inputs {
            [x, y] => {
                let (xs, ys) = broadcast_pair(op, x, y)?;
                let format = FpFormat::of(output);
                Ok(xs.iter().zip(ys.iter()).map(|(&a, &b)| pow_bound(format.as_ref(), output, a, b)).collect())
            }
            _ => Err(BoundsError::Arity { op, expected: 2, got: inputs.len() }),
        },
        // Every other operator by name, so that one added to the catalogue
        // must be placed here or above (an ABS_ERROR one left out would
        // never be judged).
        TosaOp::Argmax
        | TosaOp::AvgPool2d
        | TosaOp::Conv2d
        | TosaOp::Conv3d
        | TosaOp::DepthwiseConv2d
        | TosaOp::Fft2d
        | TosaOp::Matmul
        | TosaOp::MaxPool2d
        | TosaOp::Rfft2d
        | TosaOp::TransposeConv2d
        | TosaOp::Clamp
        | TosaOp::Erf
        | TosaOp::Add
        | TosaOp::ArithmeticRightShift
        | TosaOp::BitwiseAnd
        | TosaOp::BitwiseOr
        | TosaOp::BitwiseXor
        | TosaOp::Intdiv
        | TosaOp::LogicalAnd
        | TosaOp::LogicalLeftShift
        | TosaOp::LogicalRightShift
        | TosaOp::LogicalOr
        | TosaOp::LogicalXor
        | TosaOp::Maximum
        | TosaOp::Minimum
        | TosaOp::Mul
        | TosaOp::Sub
        | TosaOp::Table
        | TosaOp::Abs
        | TosaOp::BitwiseNot
        | TosaOp::Ceil
        | TosaOp::Clz
        | TosaOp::Floor
        | TosaOp::LogicalNot
        | TosaOp::Negate
        | TosaOp::Reciprocal
        | TosaOp::Rsqrt
        | TosaOp::Select
        | TosaOp::Equal
        | TosaOp::Greater
        | TosaOp::GreaterEqual
        | TosaOp::ReduceAll
        | TosaOp::ReduceAny
        | TosaOp::ReduceMax
        | TosaOp::ReduceMin
        | TosaOp::ReduceProduct
        | TosaOp::ReduceSum
        | TosaOp::Concat
        | TosaOp::Pad
        | TosaOp::Reshape
        | TosaOp::Reverse
        | TosaOp::Slice
        | TosaOp::Tile
        | TosaOp::Transpose
        | TosaOp::Gather
        | TosaOp::Scatter
        | TosaOp::Resize
        | TosaOp::Cast
        | TosaOp::Rescale => Err(BoundsError::NotElementwise(op)),
    }
}

/// POW's allowed absolute error at `x^y` (§4 POW).
fn pow_bound(format: Option<&FpFormat>, output: ElemType, x: f64, y: f64) -> f64 {
    let Some(format) = format else { return 0.0 };
    if (x == 0.0 && y > 0.0) || (x > 0.0 && y == 0.0) {
        return 0.0;
    }
    let out_ref = x.powf(y);
    let ylogx = y * x.ln();
    let mul = AbsErrorParams { lower_bound: (0.55 * y).abs(), ..AbsErrorParams::default() };
    let mul_err = abs_error_bound(format, ylogx, 5.5, &mul);
    let exp_err =
        abs_error_bound(format, out_ref, err_base(output) + 2.0 * (ylogx + mul_err).abs(), &AbsErrorParams::default());
    out_ref * mul_err.exp_m1() + exp_err
}

fn broadcast_pair(op: TosaOp, a: &TensorData, b: &TensorData) -> Result<(ArrayD<f64>, ArrayD<f64>), BoundsError> {
    let err = || BoundsError::Broadcast { op, a: a.shape().to_vec(), b: b.shape().to_vec() };
    if a.shape().len() != b.shape().len() {
        return Err(err());
    }
    let mut shape = Vec::with_capacity(a.shape().len());
    for (&p, &q) in a.shape().iter().zip(b.shape()) {
        shape.push(match (p, q) {
            _ if p == q => p,
            (1, q) => q,
            (p, 1) => p,
            _ => return Err(err()),
        });
    }
    let x = ArrayD::from_shape_vec(IxDyn(a.shape()), a.to_f64()).map_err(|_| err())?;
    let y = ArrayD::from_shape_vec(IxDyn(b.shape()), b.to_f64()).map_err(|_| err())?;
    let xb = x.broadcast(IxDyn(&shape)).ok_or_else(err)?.to_owned();
    let yb = y.broadcast(IxDyn(&shape)).ok_or_else(err)?.to_owned();
    Ok((xb, yb))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp32(values: &[f32], shape: &[usize]) -> TensorData {
        TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(shape), values.to_vec()).expect("shape"))
    }

    /// The operators given bounds here are exactly the catalogue's
    /// ABS_ERROR ones (the set the `_ =>` arm used to leave implicit).
    #[test]
    fn bounds_exist_for_exactly_the_abs_error_operators() {
        use spvgraph_ir::tosa::Accuracy;
        let x = fp32(&[1.0], &[1]);
        let with_bounds: Vec<TosaOp> = TosaOp::ALL
            .into_iter()
            .filter(|&op| !matches!(elementwise_bounds(op, ElemType::Fp32, &[&x]), Err(BoundsError::NotElementwise(_))))
            .collect();
        let abs_error: Vec<TosaOp> =
            TosaOp::ALL.into_iter().filter(|op| matches!(op.spec().accuracy, Accuracy::AbsError(_))).collect();
        assert_eq!(with_bounds, abs_error);
        let mut hand_written =
            vec![TosaOp::Exp, TosaOp::Log, TosaOp::Sigmoid, TosaOp::Tanh, TosaOp::Cos, TosaOp::Sin, TosaOp::Pow];
        hand_written.sort();
        assert_eq!(with_bounds, hand_written);
    }

    #[test]
    fn unary_bound_values() {
        let x = fp32(&[-1.5, 0.0, 2.0], &[3]);
        assert_eq!(elementwise_bounds(TosaOp::Exp, ElemType::Fp32, &[&x]), Ok(vec![3.0, 0.0, 4.0]));
        assert_eq!(elementwise_bounds(TosaOp::Tanh, ElemType::Fp32, &[&x]), Ok(vec![12.0, 0.0, 16.0]));
        assert_eq!(elementwise_bounds(TosaOp::Sin, ElemType::Fp32, &[&x]), Ok(vec![-1.5, 0.0, 2.0]));
        assert_eq!(elementwise_bounds(TosaOp::Cos, ElemType::Fp32, &[&x]), Ok(vec![2.5, 1.0, 3.0]));
        assert!(elementwise_bounds(TosaOp::Add, ElemType::Fp32, &[&x]).is_err());
        assert!(elementwise_bounds(TosaOp::Exp, ElemType::Fp32, &[&x, &x]).is_err());
    }

    #[test]
    fn pow_bound_matches_the_hand_computed_formula() {
        // x = 10, y = 3: mul_err = 2^-23·ln(1000)·5.5; exp_err = 2^-23·1000·(3 + 2(ln 1000 + mul_err)).
        let x = fp32(&[10.0, 0.0, 2.0], &[3]);
        let y = fp32(&[3.0], &[1]);
        let b = elementwise_bounds(TosaOp::Pow, ElemType::Fp32, &[&x, &y]).expect("bounds");
        let u = 2f64.powi(-23);
        let l = 1000f64.ln();
        let mul = u * l * 5.5;
        let expect = 1000.0 * mul.exp_m1() + u * 1000.0 * (3.0 + 2.0 * (l + mul));
        assert!((b[0] - expect).abs() <= expect * 1e-12, "{} vs {expect}", b[0]);
        assert_eq!(b[1], 0.0, "0^y for y > 0 is exactly 0");
        let bad = fp32(&[1.0, 2.0], &[2]);
        assert!(elementwise_bounds(TosaOp::Pow, ElemType::Fp32, &[&x, &bad]).is_err());
    }
}
