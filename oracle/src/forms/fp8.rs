//! Forms that move fp8 values through fp32, for backends that cannot
//! compute on fp8 values or convert them to or from fp16 (IREE 3.13 on
//! llvm-cpu: fp8 <-> fp32 it converts, fp8 <-> fp16 it does not, and it has
//! no lowering of MAX_POOL2D on fp8; its adapter keeps the CASTs apart, see
//! [`crate::external::iree`]).
//!
//! [`super::Form::Fp8ThroughFp32`] computes the same values: every CAST
//! between fp8 and fp16 becomes two CASTs through fp32; the fp8 operands of
//! a dot-product operator whose result is fp16 (CONV2D, CONV3D,
//! DEPTHWISE_CONV2D, TRANSPOSE_CONV2D, MATMUL) are cast to fp16 the same
//! way, the operator then running on fp16 values (its zero points fp16
//! zeros); and a MAX_POOL2D on fp8 runs on fp32 values, its result cast back
//! to fp8. Every fp8 value is exact in fp32 and in fp16, an fp16 value
//! rounds to fp8 once whether it goes there directly or through fp32, and
//! the maximum of fp8 values is one of them (or NaN), so the graph computes
//! the same values; the operator sequence changes, so a backend's answer is
//! judged on its own.
//!
//! [`super::Form::Fp8AvgPoolInFp32`] is narrower: an AVG_POOL2D on fp8
//! (accumulator fp16) runs on fp32 values with an fp32 accumulator, its
//! result cast back to fp8. TOSA lets an operator sequence run in the same
//! or higher-precision types (each operator within its own bound, rounded
//! to its output type), so a compliant answer to the form is a compliant
//! answer to the case, but not the reverse: an fp16 sum rounds where an
//! fp32 one does not. Its results are judged on their own, like
//! [`super::Form::SingleRound`]'s.

use super::edit::{self, Case, Made};
use super::FormError;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::decls;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{AccType, TosaOp};
use spvgraph_ir::Module;

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

/// A pooling operator on fp8 values to run on fp32 values: its result id,
/// and its input's and result's shapes.
struct Pool {
    result: Id,
    input: Vec<u32>,
    output: Vec<u32>,
}

/// The operators `op` (AVG_POOL2D or MAX_POOL2D) of the graph whose input is fp8.
fn fp8_pools(m: &Module, span: (usize, usize), op: TosaOp) -> Vec<Pool> {
    let a = Analysis::new(m);
    let Some(at) = operand_index(op, "input") else { return Vec::new() };
    let mut out = Vec::new();
    for (k, o, args) in edit::operators(m, span) {
        let Some(Inst::Tosa { result, ty, .. }) = m.insts.get(k) else { continue };
        let input = args.get(at).and_then(|&v| a.type_of(v)).and_then(|t| edit::tensor_of(&a, t));
        let (Some((elem, input)), Some((_, output))) = (input, edit::tensor_of(&a, *ty)) else { continue };
        if o == op && is_fp8(elem) {
            out.push(Pool { result: *result, input, output });
        }
    }
    out
}

/// The position of `op`'s operand called `name`.
fn operand_index(op: TosaOp, name: &str) -> Option<usize> {
    op.spec().operands.iter().position(|s| s.name == name)
}

/// Runs each pool of `op` on fp32 values: a CAST of its input to fp32
/// before it, the operator on fp32 (an AVG_POOL2D with fp32 zero points and
/// accumulator), and a CAST of its result back to fp8 that keeps the
/// result's id, so that its readers stay as they are. The number rewritten.
fn pools_in_fp32(m: &mut Module, op: TosaOp, pools: Vec<Pool>) -> usize {
    let Some(input_at) = operand_index(op, "input").filter(|_| !pools.is_empty()) else { return 0 };
    let fp32 = decls::scalar_type(m, ElemType::Fp32.to_spirv());
    // For AVG_POOL2D: the zero points' positions, an fp32 zero and the fp32
    // accumulator. Declarations first: they go before the graphs.
    let avg_operands = if op == TosaOp::AvgPool2d {
        let zp_type = decls::tensor_type(m, fp32, &[1]);
        let slots = (operand_index(op, "acc_type"), operand_index(op, "input_zp"), operand_index(op, "output_zp"));
        let (Some(acc_at), Some(in_zp), Some(out_zp)) = slots else { return 0 };
        let Some(zero) = decls::tensor_constant(m, zp_type, ElemType::Fp32, &[1], &[0]) else { return 0 };
        let acc = decls::const_u32(m, AccType::Fp32 as u32);
        vec![(acc_at, acc), (in_zp, zero), (out_zp, zero)]
    } else {
        Vec::new()
    };
    let planned: Vec<(Pool, Id, Id)> = pools
        .into_iter()
        .map(|p| {
            let (t_in, t_out) = (decls::tensor_type(m, fp32, &p.input), decls::tensor_type(m, fp32, &p.output));
            (p, t_in, t_out)
        })
        .collect();
    let mut changed = 0;
    for (p, t_in, t_out) in planned {
        let Some((at, set, value)) = edit::operand_of(m, p.result, input_at) else { continue };
        let Some(Inst::Tosa { ty: fp8_type, .. }) = m.insts.get(at) else { continue };
        let fp8_type = *fp8_type;
        let (wide, pooled) = (decls::fresh_id(m), decls::fresh_id(m));
        m.insts.insert(at, Inst::Tosa { ty: t_in, result: wide, set, op: TosaOp::Cast, args: vec![value] });
        if let Some(Inst::Tosa { ty, result, args, .. }) = m.insts.get_mut(at + 1) {
            *ty = t_out;
            *result = pooled;
            for &(k, v) in std::iter::once(&(input_at, wide)).chain(&avg_operands) {
                if let Some(slot) = args.get_mut(k) {
                    *slot = v;
                }
            }
        }
        let back = Inst::Tosa { ty: fp8_type, result: p.result, set, op: TosaOp::Cast, args: vec![pooled] };
        m.insts.insert(at + 2, back);
        changed += 1;
    }
    changed
}

/// [`super::Form::Fp8AvgPoolInFp32`].
pub(super) fn avg_pool_in_fp32(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let pools = fp8_pools(&case.module, edit::span(&case.module, g)?, TosaOp::AvgPool2d);
    if pools_in_fp32(&mut case.module, TosaOp::AvgPool2d, pools) == 0 {
        return Err(FormError::NothingToChange);
    }
    Made::one(case)
}

/// [`super::Form::Fp8ThroughFp32`].
pub(super) fn through_fp32(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let span = edit::span(&case.module, g)?;
    let edges = edges(&case.module, span);
    let pools = fp8_pools(&case.module, span, TosaOp::MaxPool2d);
    let changed =
        pools_in_fp32(&mut case.module, TosaOp::MaxPool2d, pools) + edges_through_fp32(&mut case.module, edges);
    if changed == 0 {
        return Err(FormError::NothingToChange);
    }
    Made::one(case)
}

/// Moves each edge's operand as its step says. The number moved.
fn edges_through_fp32(m: &mut Module, edges: Vec<Edge>) -> usize {
    // No fp16 type where none is needed: it would need the Float16 capability.
    if edges.is_empty() {
        return 0;
    }
    let mut changed = 0;
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
    changed
}
