//! Identity operators inserted on operand edges: RESHAPE to the same shape,
//! TRANSPOSE by the identity permutation, SLICE of everything, PAD by zero.
//! TOSA defines each as an exact copy, so the graph computes the same
//! values through a longer operator sequence.

use super::edit::{self, Case, Made};
use super::FormError;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::decls;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{Form as OperandForm, TosaOp, MAX_RANK};

/// Which identity operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Identity {
    Reshape,
    Transpose,
    Slice,
    Pad,
}

impl Identity {
    fn op(self) -> TosaOp {
        match self {
            Identity::Reshape => TosaOp::Reshape,
            Identity::Transpose => TosaOp::Transpose,
            Identity::Slice => TosaOp::Slice,
            Identity::Pad => TosaOp::Pad,
        }
    }
}

/// How many edges get an identity operator (spread over the graph).
const EDGES: usize = 3;

/// One operand edge: the consumer (by result id), the operand's position,
/// the value and its type.
#[derive(Clone, Debug)]
struct Edge {
    consumer: Id,
    arg: usize,
    ty: Id,
    elem: ElemType,
    shape: Vec<u32>,
}

/// Whether `op` has a type row for `elem` (the layout operators cover
/// every element type but i48).
fn supports(op: TosaOp, elem: ElemType) -> bool {
    op.spec().type_rows.iter().any(|r| r.types.first() == Some(&elem))
}

/// [`super::Form::IdentityReshape`] and the other identity forms.
pub(super) fn insert(mut case: Case, identity: Identity) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let span = edit::span(&case.module, g)?;
    let op = identity.op();
    let edges: Vec<Edge> = {
        let a = Analysis::new(&case.module);
        let mut out = Vec::new();
        for (k, _, args) in edit::operators(&case.module, span) {
            let Some(Inst::Tosa { result, op: consumer, .. }) = case.module.insts.get(k) else { continue };
            for (arg, &value) in args.iter().enumerate() {
                let tensor_operand =
                    edit::operand_spec(*consumer, arg).is_some_and(|s| matches!(s.form, OperandForm::Tensor { .. }));
                let Some(ty) = a.type_of(value) else { continue };
                let Some((elem, shape)) = edit::tensor_of(&a, ty) else { continue };
                let fits = !shape.is_empty() && shape.len() <= MAX_RANK as usize && shape.iter().all(|&d| d >= 1);
                if tensor_operand && fits && supports(op, elem) {
                    out.push(Edge { consumer: *result, arg, ty, elem, shape });
                }
            }
        }
        out
    };
    if edges.is_empty() {
        return Err(FormError::NothingToChange);
    }
    // Spread: the edges at 1/4, 2/4 and 3/4 of the way (all of them when few).
    let chosen: Vec<Edge> = if edges.len() <= EDGES {
        edges
    } else {
        let mut picks: Vec<usize> = (1..=EDGES).map(|q| q * edges.len() / (EDGES + 1)).collect();
        picks.dedup();
        picks.into_iter().filter_map(|k| edges.get(k).cloned()).collect()
    };
    // Operand constants first: they go before the graphs.
    let m = &mut case.module;
    let mut planned = Vec::new();
    for e in chosen {
        let rank = e.shape.len();
        let attrs: Vec<Id> = match identity {
            Identity::Reshape => vec![decls::i32_vector(m, &e.shape.iter().map(|&d| i64::from(d)).collect::<Vec<_>>())],
            Identity::Transpose => vec![decls::i32_vector(m, &(0..rank as i64).collect::<Vec<_>>())],
            Identity::Slice => vec![
                decls::i32_vector(m, &vec![0; rank]),
                decls::i32_vector(m, &e.shape.iter().map(|&d| i64::from(d)).collect::<Vec<_>>()),
            ],
            Identity::Pad => {
                let element = match Analysis::new(m).tensor_type(e.ty) {
                    Some(t) => t.element,
                    None => continue,
                };
                let one = decls::tensor_type(m, element, &[1]);
                let Some(pad_const) = decls::tensor_constant(m, one, e.elem, &[1], &[0]) else { continue };
                vec![decls::i32_vector(m, &vec![0; 2 * rank]), pad_const]
            }
        };
        planned.push((e, attrs));
    }
    let mut inserted = 0;
    for (e, attrs) in planned {
        let Some((at, set, value)) = edit::operand_of(m, e.consumer, e.arg) else { continue };
        let args = match identity {
            Identity::Transpose => vec![attrs[0], value],
            _ => std::iter::once(value).chain(attrs).collect(),
        };
        let result = decls::fresh_id(m);
        m.insts.insert(at, Inst::Tosa { ty: e.ty, result, set, op, args });
        if let Some(Inst::Tosa { args, .. }) = m.insts.get_mut(at + 1) {
            if let Some(slot) = args.get_mut(e.arg) {
                *slot = result;
            }
        }
        inserted += 1;
    }
    if inserted == 0 {
        return Err(FormError::NothingToChange);
    }
    Made::one(case)
}
