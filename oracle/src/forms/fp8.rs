//! A form that moves fp8 values to and from fp16 through fp32: every CAST
//! between fp8 and fp16 becomes two CASTs through fp32, and the fp8
//! operands of a dot-product operator whose result is fp16 (CONV2D, CONV3D,
//! DEPTHWISE_CONV2D, TRANSPOSE_CONV2D, MATMUL) are cast to fp16 the same
//! way, the operator then running on fp16 values (its zero points fp16
//! zeros). Every fp8 value is exact in fp32 and in fp16, and an fp16 value
//! rounds to fp8 once whether it goes there directly or through fp32, so the
//! graph computes the same values; the operator sequence changes, so a
//! backend's answer is judged on its own. IREE 3.13 cannot convert fp8 to or
//! from fp16 on llvm-cpu (fp8 <-> fp32 it can), and runs such a case in this
//! form (its adapter keeps the two CASTs apart, see
//! [`crate::external::iree`]).

use super::edit::{self, Case, Made};
use super::FormError;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::decls;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::TosaOp;

/// One operand to move: the consumer (by result id), the operand's
/// position, its shape, and how.
struct Edge {
    consumer: Id,
    arg: usize,
    shape: Vec<u32>,
    step: Step,
}

/// How an operand is moved.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// A CAST's operand, fp8 or fp16, goes through a CAST to fp32 first.
    ToFp32,
    /// An fp8 operand of a dot-product operator goes to fp16 through fp32.
    ToFp16,
    /// An fp8 zero point of a dot-product operator becomes an fp16 zero.
    ZeroPoint,
}

fn is_fp8(e: ElemType) -> bool {
    matches!(e, ElemType::Fp8E4M3 | ElemType::Fp8E5M2)
}

/// Whether `op` is a dot-product operator an fp8 row of which gives fp16.
fn dot_product(op: TosaOp) -> bool {
    matches!(op, TosaOp::Conv2d | TosaOp::Conv3d | TosaOp::DepthwiseConv2d | TosaOp::TransposeConv2d | TosaOp::Matmul)
}

/// The operands of the graph's operators to move.
fn edges(m: &spvgraph_ir::Module, span: (usize, usize)) -> Vec<Edge> {
    let a = Analysis::new(m);
    let elem_of = |id: Id| a.type_of(id).and_then(|t| edit::tensor_of(&a, t));
    let mut out = Vec::new();
    for (k, op, args) in edit::operators(m, span) {
        let Some(Inst::Tosa { result, ty, .. }) = m.insts.get(k) else { continue };
        let Some((out_elem, _)) = edit::tensor_of(&a, *ty) else { continue };
        if op == TosaOp::Cast {
            let Some((in_elem, shape)) = args.first().and_then(|&v| elem_of(v)) else { continue };
            let fp8_fp16 =
                (is_fp8(in_elem) && out_elem == ElemType::Fp16) || (in_elem == ElemType::Fp16 && is_fp8(out_elem));
            if fp8_fp16 {
                out.push(Edge { consumer: *result, arg: 0, shape, step: Step::ToFp32 });
            }
        } else if dot_product(op) && out_elem == ElemType::Fp16 {
            for (arg, &v) in args.iter().enumerate() {
                let Some((elem, shape)) = elem_of(v) else { continue };
                if !is_fp8(elem) {
                    continue;
                }
                let zero_point = edit::operand_spec(op, arg).is_some_and(|s| s.name.ends_with("_zp"));
                let step = if zero_point { Step::ZeroPoint } else { Step::ToFp16 };
                out.push(Edge { consumer: *result, arg, shape, step });
            }
        }
    }
    out
}

/// [`super::Form::Fp8ThroughFp32`].
pub(super) fn through_fp32(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let edges = edges(&case.module, edit::span(&case.module, g)?);
    if edges.is_empty() {
        return Err(FormError::NothingToChange);
    }
    let m = &mut case.module;
    let fp32 = decls::scalar_type(m, ElemType::Fp32.to_spirv());
    let fp16 = decls::scalar_type(m, ElemType::Fp16.to_spirv());
    // Types and constants first: they go before the graphs.
    let mut planned = Vec::new();
    for e in edges {
        let (t32, t16) = (decls::tensor_type(m, fp32, &e.shape), decls::tensor_type(m, fp16, &e.shape));
        let zero = match e.step {
            Step::ZeroPoint => match decls::tensor_constant(m, t16, ElemType::Fp16, &e.shape, &[0]) {
                Some(z) => Some(z),
                None => continue,
            },
            Step::ToFp32 | Step::ToFp16 => None,
        };
        planned.push((e, t32, t16, zero));
    }
    let mut changed = 0;
    for (e, t32, t16, zero) in planned {
        let Some((at, set, value)) = edit::operand_of(m, e.consumer, e.arg) else { continue };
        let (replacement, inserted) = match (e.step, zero) {
            (Step::ZeroPoint, Some(z)) => (z, 0),
            (Step::ZeroPoint, None) => continue,
            (Step::ToFp32, _) => {
                let wide = decls::fresh_id(m);
                m.insts.insert(at, Inst::Tosa { ty: t32, result: wide, set, op: TosaOp::Cast, args: vec![value] });
                (wide, 1)
            }
            (Step::ToFp16, _) => {
                let wide = decls::fresh_id(m);
                let half = decls::fresh_id(m);
                m.insts.insert(at, Inst::Tosa { ty: t32, result: wide, set, op: TosaOp::Cast, args: vec![value] });
                m.insts.insert(at + 1, Inst::Tosa { ty: t16, result: half, set, op: TosaOp::Cast, args: vec![wide] });
                (half, 2)
            }
        };
        if let Some(Inst::Tosa { args, .. }) = m.insts.get_mut(at + inserted) {
            if let Some(slot) = args.get_mut(e.arg) {
                *slot = replacement;
                changed += 1;
            }
        }
    }
    if changed == 0 {
        return Err(FormError::NothingToChange);
    }
    Made::one(case)
}
