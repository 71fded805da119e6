//! Constant declarations: scalar encodings, array and tensor composites,
//! replicated and null tensor constants, graph constants.

use super::context::{Cx, TensorInfo};
use spvgraph_ir::elem::ScalarKind;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

fn check_scalar(cx: &mut Cx<'_>, i: usize, ty: Id, value: &[u32]) {
    let Some(kind) = cx.scalar(ty) else {
        if cx.def_index(ty).is_some() {
            cx.at(
                i,
                RuleId::ConstantsScalarValue,
                format_args!("OpConstant's type %{} is not an integer or float type", ty.0),
            );
        }
        return;
    };
    let (width, signed) = match kind {
        ScalarKind::Int { width, signed } => (width, signed),
        ScalarKind::Float { width, .. } => (width, false),
        ScalarKind::Bool => {
            cx.at(i, RuleId::ConstantsScalarValue, "OpConstant cannot have a bool type (use OpConstantTrue/False)");
            return;
        }
    };
    let words = width.div_ceil(32).max(1) as usize;
    if value.len() != words {
        cx.at(
            i,
            RuleId::ConstantsScalarValue,
            format_args!("a {width}-bit constant takes {words} value word(s), found {}", value.len()),
        );
        return;
    }
    // A zero width is the type check's finding; there are no bits to check.
    if (1..32).contains(&width) {
        let w = value.first().copied().unwrap_or(0);
        let low = w & ((1u32 << width) - 1);
        let sign = (low >> (width - 1)) & 1 == 1;
        let expected = if signed && sign { low | !((1u32 << width) - 1) } else { low };
        if w != expected {
            cx.at(
                i,
                RuleId::ConstantsScalarValue,
                format_args!(
                    "value word {w:#x} of a {width}-bit {} constant has non-canonical high bits (expected {expected:#x})",
                    if signed { "signed" } else { "unsigned" }
                ),
            );
        }
    }
}

fn check_tensor_composite(cx: &mut Cx<'_>, i: usize, ty: Id, constituents: &[Id]) {
    let Some(t) = cx.tensor(ty) else { return };
    if !t.shaped {
        cx.at(i, RuleId::ConstantsTensorUnshaped, "OpConstantComposite of an unshaped tensor type");
        return;
    }
    // The finding is worked out while the shape is borrowed, then reported.
    if let Some((rule, message)) = tensor_composite_problem(cx, t, constituents) {
        cx.at(i, rule, message);
    }
}

fn tensor_composite_problem(cx: &Cx<'_>, t: &TensorInfo, constituents: &[Id]) -> Option<(RuleId, String)> {
    let element = t.element;
    let shape = cx.shape(t)?;
    let &outer = shape.first()?;
    if constituents.len() as u64 != outer {
        return Some((
            RuleId::ConstantsTensorCount,
            format!("{} constituents for a tensor whose outermost dimension is {outer}", constituents.len()),
        ));
    }
    let rest = &shape[1..];
    for (k, c) in constituents.iter().enumerate() {
        let Some(cty) = cx.type_of(*c) else { continue };
        let ok = if rest.is_empty() {
            cty == element
        } else {
            cx.tensor(cty).is_some_and(|ct| ct.element == element && cx.shape(ct) == Some(rest))
        };
        if !ok {
            let want = if rest.is_empty() {
                format_args!("the element type %{}", element.0)
            } else {
                format_args!("a tensor of the same element type and shape {rest:?}")
            };
            return Some((
                RuleId::ConstantsTensorConstituent,
                format!("constituent {k} (%{}) has type %{}, expected {want}", c.0, cty.0),
            ));
        }
    }
    None
}

fn check_array_composite(cx: &mut Cx<'_>, i: usize, element: Id, length: Id, constituents: &[Id]) {
    if let Some(n) = cx.const_uint(length) {
        if constituents.len() as u64 != n {
            cx.at(
                i,
                RuleId::ConstantsArray,
                format_args!("{} constituents for an array of length {n}", constituents.len()),
            );
            return;
        }
    }
    for (k, c) in constituents.iter().enumerate() {
        if let Some(cty) = cx.type_of(*c) {
            if cty != element {
                cx.at(
                    i,
                    RuleId::ConstantsArray,
                    format_args!("constituent {k} has type %{}, the array's element type is %{}", cty.0, element.0),
                );
                return;
            }
        }
    }
}

/// Runs the constant checks.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    let mut graph_ids: Vec<(u32, usize)> = Vec::new();
    let list = std::mem::take(&mut cx.lists.constants);
    for (i, inst) in list.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
        match inst {
            Inst::Constant { ty, value, .. } => check_scalar(cx, i, *ty, value),
            Inst::ConstantTrue { ty, .. } | Inst::ConstantFalse { ty, .. }
                if cx.def_index(*ty).is_some() && cx.scalar(*ty) != Some(ScalarKind::Bool) =>
            {
                cx.at(i, RuleId::ConstantsScalarValue, "OpConstantTrue/False must have a bool type");
            }
            Inst::ConstantComposite { ty, constituents, .. } => match cx.def(*ty) {
                Some(Inst::TypeTensor { .. }) => check_tensor_composite(cx, i, *ty, constituents),
                Some(Inst::TypeArray { element, length, .. }) => {
                    check_array_composite(cx, i, *element, *length, constituents)
                }
                _ => {}
            },
            Inst::ConstantCompositeReplicate { ty, constituent, .. } => {
                if let Some(t) = cx.tensor(*ty) {
                    let (shaped, element) = (t.shaped, t.element);
                    if !shaped {
                        cx.at(
                            i,
                            RuleId::ConstantsTensorUnshaped,
                            "OpConstantCompositeReplicateEXT of an unshaped tensor type",
                        );
                    } else if cx.type_of(*constituent).is_some_and(|c| c != element) {
                        cx.at(
                            i,
                            RuleId::ConstantsReplicateConstituent,
                            format_args!("the constituent's type is not the tensor's element type %{}", element.0),
                        );
                    }
                }
            }
            Inst::ConstantNull { ty, .. } if cx.tensor(*ty).is_some_and(|t| !t.shaped) => {
                cx.at(i, RuleId::ConstantsTensorUnshaped, "OpConstantNull of an unshaped tensor type");
            }
            Inst::GraphConstant { ty, graph_constant_id, .. } => {
                if cx.tensor(*ty).is_none() && cx.def_index(*ty).is_some() {
                    cx.at(
                        i,
                        RuleId::ConstantsGraphConstantType,
                        "the Result Type of OpGraphConstantARM is not an OpTypeTensorARM",
                    );
                }
                match graph_ids.iter().find(|(id, _)| id == graph_constant_id) {
                    Some((_, first)) => {
                        let first = *first;
                        cx.at(
                            i,
                            RuleId::ConstantsGraphConstantDuplicateId,
                            format_args!("GraphConstantID {graph_constant_id} is already used by instruction {first}"),
                        )
                    }
                    None => graph_ids.push((*graph_constant_id, i)),
                }
            }
            _ => {}
        }
    }
    cx.lists.constants = list;
}
