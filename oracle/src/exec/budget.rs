//! The memory estimate checked before a graph runs.
//!
//! An upper bound built from the declared types alone: every input, constant
//! operand and operator result kept alive at once, plus the largest scratch
//! any single operator needs. Operators convert their operands to `i64`/`f64`
//! compute arrays and build their result the same way, which takes at most
//! [`SCRATCH_PER_ELEMENT`] bytes per operand and result element (per-element
//! REQUIRE results are 16 bytes, plus the converted copies); convolutions add
//! their im2col blocks and FFTs their complex planes.

use super::gemm;
use super::interface::{tensor_of, Interface};
use spvgraph_ir::analysis::{Analysis, GraphView, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Inst};
use std::collections::HashSet;

/// Scratch bytes per element of each operand and result of an operator.
pub(crate) const SCRATCH_PER_ELEMENT: u64 = 24;

/// Bytes one element of `elem` takes in a [`spvgraph_ir::tensor::TensorData`].
fn elem_bytes(elem: ElemType) -> u64 {
    u64::from(elem.storage_bits().div_ceil(8))
}

use spvgraph_ir::count::saturating_len as count;

/// Element count and bytes of the tensor(s) of a type (structs of tensors summed).
fn type_size(a: &Analysis<'_>, ty: Id) -> (u64, u64) {
    match a.ty(ty) {
        Some(Type::Struct(members)) => members.iter().fold((0, 0), |(c, b), &m| {
            let (mc, mb) = type_size(a, m);
            (c.saturating_add(mc), b.saturating_add(mb))
        }),
        _ => match tensor_of(a, ty) {
            Some((elem, shape)) => (count(&shape), count(&shape).saturating_mul(elem_bytes(elem))),
            None => (0, 0),
        },
    }
}

/// The estimate, and a note on what dominates it.
pub(crate) struct Estimate {
    pub(crate) bytes: u64,
    pub(crate) detail: String,
}

/// Estimates the bytes needed to run `view` with the interface `iface`.
pub(crate) fn estimate(a: &Analysis<'_>, view: &GraphView, iface: &Interface) -> Estimate {
    let port_bytes = |p: &super::interface::Port| count(&p.shape).saturating_mul(elem_bytes(p.elem));
    let inputs: u64 = iface.inputs.iter().map(port_bytes).fold(0, u64::saturating_add);
    let mut constants = 0u64;
    let mut results = 0u64;
    let mut scratch = (0u64, String::from("no operators"));
    let mut seen_constants = HashSet::new();
    for &i in &view.body {
        let Some(Inst::Tosa { ty, op, args, result, .. }) = a.module.insts.get(i) else { continue };
        let (out_count, out_bytes) = type_size(a, *ty);
        results = results.saturating_add(out_bytes);
        let mut operand_count = 0u64;
        for &arg in args {
            let Some(arg_ty) = a.type_of(arg) else { continue };
            let (c, b) = type_size(a, arg_ty);
            operand_count = operand_count.saturating_add(c);
            if a.def(arg).is_some_and(Inst::is_constant) && seen_constants.insert(arg) {
                constants = constants.saturating_add(b);
            }
        }
        let extra = extra_scratch(a, *op, args, *ty);
        let s = SCRATCH_PER_ELEMENT.saturating_mul(operand_count.saturating_add(out_count)).saturating_add(extra);
        if s > scratch.0 {
            scratch = (s, format!("{op} {result} needs about {s} bytes of scratch"));
        }
    }
    let bytes = inputs.saturating_add(constants).saturating_add(results).saturating_add(scratch.0);
    let detail = format!(
        "inputs {inputs} + constants {constants} + operator results {results} + largest scratch: {}",
        scratch.1
    );
    Estimate { bytes, detail }
}

/// Scratch beyond the per-element conversions: im2col blocks, FFT planes.
fn extra_scratch(a: &Analysis<'_>, op: TosaOp, args: &[Id], result_ty: Id) -> u64 {
    let spec = op.spec();
    let out_shape = tensor_of(a, result_ty).map(|(_, s)| s);
    match op {
        TosaOp::Conv2d | TosaOp::Conv3d | TosaOp::DepthwiseConv2d | TosaOp::TransposeConv2d | TosaOp::Matmul => {
            let weight_name = if op == TosaOp::Matmul { "B" } else { "weight" };
            let weight = spec
                .operand_named(weight_name)
                .and_then(|(i, _)| args.get(i))
                .and_then(|&w| a.type_of(w))
                .and_then(|t| tensor_of(a, t));
            let oc = out_shape.as_ref().and_then(|s| s.last().copied()).unwrap_or(1).max(1);
            let k = weight.map_or(1, |(_, s)| (count(&s) / oc as u64).max(1));
            gemm::scratch_bytes(k as usize, oc)
        }
        TosaOp::Fft2d | TosaOp::Rfft2d => {
            // Two f64 planes of the full (not half) spectrum, plus their copies.
            let input = spec.operand_named("input_real").and_then(|(i, _)| args.get(i)).and_then(|&x| a.type_of(x));
            input.map_or(0, |t| 32u64.saturating_mul(type_size(a, t).0))
        }
        // Every other operator works in its output (and inputs) alone; a
        // new operator must say here what scratch it takes.
        TosaOp::Argmax
        | TosaOp::AvgPool2d
        | TosaOp::MaxPool2d
        | TosaOp::Clamp
        | TosaOp::Erf
        | TosaOp::Sigmoid
        | TosaOp::Tanh
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
        | TosaOp::Pow
        | TosaOp::Sub
        | TosaOp::Table
        | TosaOp::Abs
        | TosaOp::BitwiseNot
        | TosaOp::Ceil
        | TosaOp::Clz
        | TosaOp::Cos
        | TosaOp::Exp
        | TosaOp::Floor
        | TosaOp::Log
        | TosaOp::LogicalNot
        | TosaOp::Negate
        | TosaOp::Reciprocal
        | TosaOp::Rsqrt
        | TosaOp::Sin
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
        | TosaOp::Rescale => 0,
    }
}

#[cfg(test)]
mod tests {
    use spvgraph_ir::tosa::{ResultKind, TosaOp};

    /// The operators `extra_scratch` gives spectrum planes are exactly the
    /// catalogue's operators with a real and an imaginary result.
    #[test]
    fn the_spectrum_operators_are_the_real_imag_ones() {
        let real_imag: Vec<TosaOp> =
            TosaOp::ALL.into_iter().filter(|op| op.spec().result.kind == ResultKind::RealImagStruct).collect();
        assert_eq!(real_imag, [TosaOp::Fft2d, TosaOp::Rfft2d]);
    }
}
