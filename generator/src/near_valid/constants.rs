//! Mutators for the `constants.*` rules (and `vulkan.graph-constant.shaped`).
//!
//! Every mutator adds a NEW, unused constant (or graph constant) that
//! breaks its rule: changing a constant that TOSA operands read would also
//! break the operators' rules. Copies of existing composites keep the
//! variety of generated modules.

use super::{no_bias, Edit, Mutator};
use crate::Config;
use spvgraph_ir::elem::ScalarKind;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::opname::opcode_name;
use spvgraph_ir::rules::RuleId;

/// `Capability::ReplicatedCompositesEXT`.
const REPLICATED_COMPOSITES: u32 = 6024;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator {
            rule: RuleId::ConstantsScalarValue,
            name: "non-canonical-high-bits",
            bias: no_bias,
            apply: non_canonical_high_bits,
        },
        Mutator {
            rule: RuleId::ConstantsScalarValue,
            name: "wrong-word-count",
            bias: no_bias,
            apply: wrong_word_count,
        },
        Mutator {
            rule: RuleId::ConstantsScalarValue,
            name: "non-numeric-type",
            bias: no_bias,
            apply: non_numeric_type,
        },
        Mutator { rule: RuleId::ConstantsArray, name: "array-count", bias: no_bias, apply: array_count },
        Mutator {
            rule: RuleId::ConstantsArray,
            name: "array-constituent-type",
            bias: no_bias,
            apply: array_constituent_type,
        },
        Mutator {
            rule: RuleId::ConstantsTensorCount,
            name: "tensor-count",
            bias: more_tensor_composites,
            apply: tensor_count,
        },
        Mutator {
            rule: RuleId::ConstantsTensorConstituent,
            name: "tensor-constituent-type",
            bias: more_tensor_composites,
            apply: tensor_constituent_type,
        },
        Mutator { rule: RuleId::ConstantsTensorUnshaped, name: "unshaped-null", bias: no_bias, apply: unshaped_null },
        Mutator {
            rule: RuleId::ConstantsTensorUnshaped,
            name: "unshaped-replicate",
            bias: no_bias,
            apply: unshaped_replicate,
        },
        Mutator {
            rule: RuleId::ConstantsTensorUnshaped,
            name: "unshaped-composite",
            bias: no_bias,
            apply: unshaped_composite,
        },
        Mutator {
            rule: RuleId::ConstantsReplicateConstituent,
            name: "replicate-constituent-type",
            bias: more_replicates,
            apply: replicate_constituent_type,
        },
        Mutator {
            rule: RuleId::ConstantsGraphConstantType,
            name: "graph-constant-not-tensor",
            bias: no_bias,
            apply: graph_constant_not_tensor,
        },
        Mutator {
            rule: RuleId::ConstantsGraphConstantDuplicateId,
            name: "graph-constant-id-reused",
            bias: more_graph_constants,
            apply: graph_constant_id_reused,
        },
    ]
}

/// The pipeline mutators of this category.
pub(super) fn pipeline_mutators() -> Vec<Mutator> {
    vec![Mutator {
        rule: RuleId::VulkanGraphConstantShaped,
        name: "unshape-used-graph-constant",
        bias: more_graph_constants,
        apply: unshape_used_graph_constant,
    }]
}

fn more_tensor_composites(c: &mut Config) {
    c.probs.constant_leaf = c.probs.constant_leaf.max(0.6);
    c.probs.graph_constant = 0.0;
    c.probs.null_constant = 0.0;
    c.probs.replicate_constant = 0.0;
}

fn more_replicates(c: &mut Config) {
    c.probs.constant_leaf = c.probs.constant_leaf.max(0.5);
    c.probs.replicate_constant = 1.0;
}

fn more_graph_constants(c: &mut Config) {
    c.probs.constant_leaf = c.probs.constant_leaf.max(0.5);
    c.probs.graph_constant = 1.0;
}

// ---- helpers ------------------------------------------------------------------------

/// One of `items` (cloned), drawn like [`Edit::choose`].
fn pick<T: Clone>(e: &mut Edit, items: &[T]) -> Option<T> {
    let i = e.choose(&(0..items.len()).collect::<Vec<usize>>())?;
    items.get(i).cloned()
}

/// Scalar type declarations with their kinds.
fn scalar_types(e: &Edit) -> Vec<(Id, ScalarKind)> {
    let a = e.analysis();
    e.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypeInt { result, .. } | Inst::TypeFloat { result, .. } | Inst::TypeBool { result } => {
                Some((*result, a.scalar_kind(*result)?))
            }
            _ => None,
        })
        .collect()
}

/// `(result, type)` of every non-spec scalar, composite, null or replicated
/// constant (not graph constants).
fn constants(e: &Edit) -> Vec<(Id, Id)> {
    e.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Constant { ty, result, spec: false, .. }
            | Inst::ConstantTrue { ty, result, spec: false }
            | Inst::ConstantFalse { ty, result, spec: false }
            | Inst::ConstantComposite { ty, result, spec: false, .. }
            | Inst::ConstantCompositeReplicate { ty, result, spec: false, .. }
            | Inst::ConstantNull { ty, result } => Some((*result, *ty)),
            _ => None,
        })
        .collect()
}

/// A valid scalar constant of the integer or float type `ty` (reused where
/// declared): an existing one when there is one, else a small value.
fn scalar_of(e: &mut Edit, ty: Id) -> Option<Id> {
    let existing: Vec<Id> =
        constants(e).into_iter().filter(|&(c, t)| t == ty && is_scalar(e, c)).map(|(c, _)| c).collect();
    if let Some(c) = e.choose(&existing) {
        return Some(c);
    }
    let kind = e.analysis().scalar_kind(ty)?;
    match kind {
        // 1 is canonical for any integer width and signedness.
        ScalarKind::Int { width, .. } => Some(e.constant(ty, vec![1; width.div_ceil(32) as usize])),
        // +0.0 is canonical for any float encoding.
        ScalarKind::Float { width, .. } => Some(e.constant(ty, vec![0; width.div_ceil(32) as usize])),
        ScalarKind::Bool => None,
    }
}

fn is_scalar(e: &Edit, c: Id) -> bool {
    matches!(e.def(c), Some(Inst::Constant { .. } | Inst::ConstantTrue { .. } | Inst::ConstantFalse { .. }))
}

/// Adds the ReplicatedCompositesEXT capability and its extension when missing.
pub(super) fn ensure_replicate_caps(e: &mut Edit) {
    let insts = &e.module.insts;
    if !insts.contains(&Inst::Capability(REPLICATED_COMPOSITES)) {
        let at = insts.iter().rposition(|i| matches!(i, Inst::Capability(_))).map_or(0, |i| i + 1);
        e.insert(at, Inst::Capability(REPLICATED_COMPOSITES));
    }
    let insts = &e.module.insts;
    let name = "SPV_EXT_replicated_composites";
    if !insts.iter().any(|i| matches!(i, Inst::Extension(x) if x == name)) {
        let at = insts.iter().rposition(|i| matches!(i, Inst::Extension(_) | Inst::Capability(_))).map_or(0, |i| i + 1);
        e.insert(at, Inst::Extension(name.into()));
    }
}

/// An unshaped tensor type of a scalar element: an existing one, or a new
/// ranked-only or unranked declaration.
fn unshaped_tensor(e: &mut Edit) -> Option<Id> {
    let existing = {
        let a = e.analysis();
        e.results_where(
            |i| matches!(i, Inst::TypeTensor { element, shape: None, .. } if a.scalar_kind(*element).is_some()),
        )
    };
    if !existing.is_empty() && e.flip() {
        return e.choose(&existing);
    }
    let elements: Vec<Id> = scalar_types(e).into_iter().map(|(t, _)| t).collect();
    let element = e.choose(&elements)?;
    let rank = if e.flip() {
        let r = e.int_in(1, 4) as u32;
        Some(e.const_u32(r))
    } else {
        None
    };
    // Reuse an identical declaration: a second one would be a duplicate type.
    let same = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeTensor { result, element: el, rank: r, shape: None } if *el == element && *r == rank => Some(*result),
        _ => None,
    });
    if let Some(t) = same {
        return Some(t);
    }
    let result = e.fresh_id();
    e.add_global(Inst::TypeTensor { result, element, rank, shape: None });
    Some(result)
}

/// A GraphConstantID no graph constant uses.
fn free_graph_constant_id(e: &mut Edit) -> u32 {
    let used: Vec<u32> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphConstant { graph_constant_id, .. } => Some(*graph_constant_id),
            _ => None,
        })
        .collect();
    let mut id = e.int_in(0, 64) as u32;
    while used.contains(&id) {
        id = id.wrapping_add(1);
    }
    id
}

fn op(e: &Edit, id: Id) -> String {
    e.def(id).map(|d| opcode_name(d.opcode())).unwrap_or_default()
}

// ---- scalars ------------------------------------------------------------------------

/// A new constant of a type narrower than 32 bits whose unused high bits are
/// not the zero or sign extension.
fn non_canonical_high_bits(e: &mut Edit) -> Option<()> {
    let narrow: Vec<(Id, ScalarKind)> = scalar_types(e)
        .into_iter()
        .filter(|(_, k)| matches!(k, ScalarKind::Int { width, .. } | ScalarKind::Float { width, .. } if *width < 32))
        .collect();
    let (ty, kind) = e.choose(&narrow)?;
    let (width, signed) = match kind {
        ScalarKind::Int { width, signed } => (width, signed),
        ScalarKind::Float { width, .. } => (width, false),
        ScalarKind::Bool => return None,
    };
    let mask = (1u32 << width) - 1;
    let low = e.int_in(0, i64::from(mask)) as u32;
    let negative = (low >> (width - 1)) & 1 == 1;
    let canonical = if signed && negative { low | !mask } else { low };
    // Flip some of the high bits of the canonical word.
    let high = (e.int_in(1, i64::from(u32::MAX >> width)) as u32) << width;
    let word = canonical ^ high;
    let result = e.fresh_id();
    e.add_global(Inst::Constant { ty, result, value: vec![word], spec: false });
    e.note(format!(
        "new OpConstant %{} of a {width}-bit {} type with value word {word:#x} (canonical {canonical:#x})",
        result.0,
        if signed { "signed" } else { "unsigned/float" }
    ));
    Some(())
}

/// A new constant with one word too many or too few for its type's width.
fn wrong_word_count(e: &mut Edit) -> Option<()> {
    let numeric: Vec<(Id, u32)> = scalar_types(e)
        .into_iter()
        .filter_map(|(t, k)| match k {
            ScalarKind::Int { width, .. } | ScalarKind::Float { width, .. } => Some((t, width)),
            ScalarKind::Bool => None,
        })
        .collect();
    let (ty, width) = e.choose(&numeric)?;
    let words = width.div_ceil(32) as usize;
    let n = if words > 1 && e.flip() { words - 1 } else { words + 1 };
    // Zero words are canonical for every type, so only the count is wrong.
    let value = vec![0u32; n];
    let result = e.fresh_id();
    e.add_global(Inst::Constant { ty, result, value, spec: false });
    e.note(format!("new OpConstant %{} of a {width}-bit type with {n} value words", result.0));
    Some(())
}

/// A new `OpConstant` of a bool or tensor type, or `OpConstantTrue/False`
/// of a numeric type.
fn non_numeric_type(e: &mut Edit) -> Option<()> {
    let result = e.fresh_id();
    match e.int_in(0, 2) {
        0 => {
            let b = e.bool_type();
            e.add_global(Inst::Constant { ty: b, result, value: vec![1], spec: false });
            e.note(format!("new OpConstant %{} of the bool type", result.0));
        }
        1 => {
            let tensors = e.results_where(|i| matches!(i, Inst::TypeTensor { .. }));
            let ty = e.choose(&tensors)?;
            e.add_global(Inst::Constant { ty, result, value: vec![0], spec: false });
            e.note(format!("new OpConstant %{} of the tensor type %{}", result.0, ty.0));
        }
        _ => {
            let numeric: Vec<Id> =
                scalar_types(e).into_iter().filter(|(_, k)| *k != ScalarKind::Bool).map(|(t, _)| t).collect();
            let ty = e.choose(&numeric)?;
            let value = e.flip();
            let inst = if value {
                Inst::ConstantTrue { ty, result, spec: false }
            } else {
                Inst::ConstantFalse { ty, result, spec: false }
            };
            e.add_global(inst);
            e.note(format!(
                "new OpConstant{} %{} of the numeric type %{}",
                if value { "True" } else { "False" },
                result.0,
                ty.0
            ));
        }
    }
    Some(())
}

// ---- arrays -------------------------------------------------------------------------

/// Array types of integer or float elements, with their lengths.
fn scalar_arrays(e: &Edit) -> Vec<(Id, Id, u64)> {
    let a = e.analysis();
    e.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypeArray { result, element, length } => {
                let k = a.scalar_kind(*element)?;
                if k == ScalarKind::Bool {
                    return None;
                }
                let n = a.const_uint(*length)?;
                (1..=64).contains(&n).then_some((*result, *element, n))
            }
            _ => None,
        })
        .collect()
}

/// A new array constant with one constituent too many or too few.
fn array_count(e: &mut Edit) -> Option<()> {
    let arrays = scalar_arrays(e);
    let (arr, element, n) = e.choose(&arrays)?;
    let m = if n > 1 && e.flip() { n - 1 } else { n + 1 };
    let mut parts = Vec::new();
    for _ in 0..m {
        parts.push(scalar_of(e, element)?);
    }
    let result = e.fresh_id();
    e.add_global(Inst::ConstantComposite { ty: arr, result, constituents: parts, spec: false });
    e.note(format!("new OpConstantComposite %{} with {m} constituents of the length-{n} array %{}", result.0, arr.0));
    Some(())
}

/// A new array constant with one constituent of another type.
fn array_constituent_type(e: &mut Edit) -> Option<()> {
    let arrays = scalar_arrays(e);
    let (arr, element, n) = e.choose(&arrays)?;
    let mut parts = Vec::new();
    for _ in 0..n {
        parts.push(scalar_of(e, element)?);
    }
    let others: Vec<Id> = constants(e).into_iter().filter(|&(_, t)| t != element).map(|(c, _)| c).collect();
    let bad = e.choose(&others)?;
    let k = e.int_in(0, n as i64 - 1) as usize;
    *parts.get_mut(k)? = bad;
    let result = e.fresh_id();
    e.add_global(Inst::ConstantComposite { ty: arr, result, constituents: parts, spec: false });
    e.note(format!(
        "new OpConstantComposite %{} of the array %{} with constituent {k} = %{} ({})",
        result.0,
        arr.0,
        bad.0,
        op(e, bad)
    ));
    Some(())
}

// ---- tensors ------------------------------------------------------------------------

/// Composite constants of shaped tensor types: `(type, constituents)`.
fn tensor_composites(e: &Edit) -> Vec<(Id, Vec<Id>)> {
    let a = e.analysis();
    e.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::ConstantComposite { ty, constituents, spec: false, .. } => {
                let t = a.tensor_type(*ty)?;
                (t.shaped && a.scalar_kind(t.element).is_some()).then(|| (*ty, constituents.clone()))
            }
            _ => None,
        })
        .collect()
}

/// A copy of a tensor constant with one constituent removed or added.
fn tensor_count(e: &mut Edit) -> Option<()> {
    let composites = tensor_composites(e);
    let (ty, mut parts) = pick(e, &composites)?;
    let n = parts.len();
    let k = e.int_in(0, n as i64 - 1) as usize;
    let what = if n > 1 && e.flip() {
        parts.remove(k);
        "removed"
    } else {
        let c = *parts.get(k)?;
        parts.insert(k, c);
        "repeated"
    };
    let result = e.fresh_id();
    e.add_global(Inst::ConstantComposite { ty, result, constituents: parts.clone(), spec: false });
    e.note(format!(
        "new OpConstantComposite %{} of the tensor type %{}: constituent {k} {what} ({} instead of {n})",
        result.0,
        ty.0,
        parts.len()
    ));
    Some(())
}

/// A copy of a tensor constant with one constituent of another type.
fn tensor_constituent_type(e: &mut Edit) -> Option<()> {
    let composites = tensor_composites(e);
    let (ty, mut parts) = pick(e, &composites)?;
    let k = e.int_in(0, parts.len() as i64 - 1) as usize;
    let old = *parts.get(k)?;
    let old_ty = e.analysis().type_of(old)?;
    // Another type id is another type: tensor types are unique, so a tensor
    // constituent of another id has another element type or shape.
    let others: Vec<Id> = constants(e).into_iter().filter(|&(_, t)| t != old_ty).map(|(c, _)| c).collect();
    let bad = e.choose(&others)?;
    *parts.get_mut(k)? = bad;
    let result = e.fresh_id();
    e.add_global(Inst::ConstantComposite { ty, result, constituents: parts, spec: false });
    e.note(format!(
        "new OpConstantComposite %{} of the tensor type %{} with constituent {k} = %{} ({})",
        result.0,
        ty.0,
        bad.0,
        op(e, bad)
    ));
    Some(())
}

/// A new `OpConstantNull` of an unshaped tensor type.
fn unshaped_null(e: &mut Edit) -> Option<()> {
    let ty = unshaped_tensor(e)?;
    let result = e.fresh_id();
    e.add_global(Inst::ConstantNull { ty, result });
    e.note(format!("new OpConstantNull %{} of the unshaped tensor type %{}", result.0, ty.0));
    Some(())
}

/// A new `OpConstantCompositeReplicateEXT` of an unshaped tensor type.
fn unshaped_replicate(e: &mut Edit) -> Option<()> {
    let ty = unshaped_tensor(e)?;
    let element = e.analysis().tensor_type(ty)?.element;
    let c = scalar_of(e, element)?;
    ensure_replicate_caps(e);
    let result = e.fresh_id();
    e.add_global(Inst::ConstantCompositeReplicate { ty, result, constituent: c, spec: false });
    e.note(format!("new OpConstantCompositeReplicateEXT %{} of the unshaped tensor type %{}", result.0, ty.0));
    Some(())
}

/// A new `OpConstantComposite` of an unshaped tensor type.
fn unshaped_composite(e: &mut Edit) -> Option<()> {
    let ty = unshaped_tensor(e)?;
    let element = e.analysis().tensor_type(ty)?.element;
    let n = e.int_in(1, 4);
    let mut parts = Vec::new();
    for _ in 0..n {
        parts.push(scalar_of(e, element)?);
    }
    let result = e.fresh_id();
    e.add_global(Inst::ConstantComposite { ty, result, constituents: parts, spec: false });
    e.note(format!("new OpConstantComposite %{} ({n} scalars) of the unshaped tensor type %{}", result.0, ty.0));
    Some(())
}

/// A new replicated tensor constant whose constituent is not of the
/// tensor's element type.
fn replicate_constituent_type(e: &mut Edit) -> Option<()> {
    let existing: Vec<Id> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::ConstantCompositeReplicate { ty, spec: false, .. } => Some(*ty),
            _ => None,
        })
        .collect();
    let shaped: Vec<Id> = {
        let a = e.analysis();
        e.module
            .insts
            .iter()
            .filter_map(|i| match i {
                Inst::TypeTensor { result, shape: Some(_), .. } => {
                    let t = a.tensor_type(*result)?;
                    a.scalar_kind(t.element).and(t.shape.is_some().then_some(*result))
                }
                _ => None,
            })
            .collect()
    };
    // The tensor type of an existing replicated constant, or any shaped one.
    let ty = if !existing.is_empty() && e.flip() { e.choose(&existing)? } else { e.choose(&shaped)? };
    let element = e.analysis().tensor_type(ty)?.element;
    // A scalar of another type: spirv-val (2025.5) checks only that the
    // constituent exists, so the wrong type is ours to find.
    let others: Vec<Id> =
        constants(e).into_iter().filter(|&(c, t)| t != element && is_scalar(e, c)).map(|(c, _)| c).collect();
    let bad = e.choose(&others)?;
    ensure_replicate_caps(e);
    let result = e.fresh_id();
    e.add_global(Inst::ConstantCompositeReplicate { ty, result, constituent: bad, spec: false });
    e.note(format!(
        "new OpConstantCompositeReplicateEXT %{} of the tensor type %{} with constituent %{} of type %{}",
        result.0,
        ty.0,
        bad.0,
        e.analysis().type_of(bad).map_or(0, |t| t.0)
    ));
    Some(())
}

// ---- graph constants ----------------------------------------------------------------

/// A new graph constant whose Result Type is not a tensor type.
fn graph_constant_not_tensor(e: &mut Edit) -> Option<()> {
    let candidates = e.results_where(|i| {
        matches!(i, Inst::TypeBool { .. } | Inst::TypeInt { .. } | Inst::TypeFloat { .. } | Inst::TypeArray { .. })
    });
    let ty = e.choose(&candidates)?;
    let id = free_graph_constant_id(e);
    let result = e.fresh_id();
    e.add_global(Inst::GraphConstant { ty, result, graph_constant_id: id });
    e.note(format!("new OpGraphConstantARM %{} (GraphConstantID {id}) of type %{} ({})", result.0, ty.0, op(e, ty)));
    Some(())
}

/// A new graph constant with the GraphConstantID of another.
fn graph_constant_id_reused(e: &mut Edit) -> Option<()> {
    let shaped: Vec<Id> = {
        let a = e.analysis();
        e.module
            .insts
            .iter()
            .filter_map(|i| match i {
                Inst::TypeTensor { result, rank: Some(_), shape: Some(_), .. } => {
                    let t = a.tensor_type(*result)?;
                    a.scalar_kind(t.element).map(|_| *result)
                }
                _ => None,
            })
            .collect()
    };
    let used: Vec<(u32, Id)> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphConstant { graph_constant_id, ty, .. } => Some((*graph_constant_id, *ty)),
            _ => None,
        })
        .collect();
    if let Some((id, same_ty)) = e.choose(&used) {
        let ty = if e.flip() { same_ty } else { e.choose(&shaped)? };
        let result = e.fresh_id();
        e.add_global(Inst::GraphConstant { ty, result, graph_constant_id: id });
        e.note(format!("new OpGraphConstantARM %{} of type %{} reusing GraphConstantID {id}", result.0, ty.0));
    } else {
        // No graph constant yet: two new ones sharing an id.
        let id = free_graph_constant_id(e);
        let (a, b) = (e.choose(&shaped)?, e.choose(&shaped)?);
        let (ra, rb) = (e.fresh_id(), e.fresh_id());
        e.add_global(Inst::GraphConstant { ty: a, result: ra, graph_constant_id: id });
        e.add_global(Inst::GraphConstant { ty: b, result: rb, graph_constant_id: id });
        e.note(format!("two new OpGraphConstantARM %{} and %{} with GraphConstantID {id}", ra.0, rb.0));
    }
    Some(())
}

/// A graph constant that a graph body uses (as an operand of a TOSA
/// instruction, not as an output) gets the ranked-only variant of its tensor
/// type: SPV_ARM_graph allows that (the consumers' shape checks become
/// may-accept), so the module stays valid, but no data-graph pipeline can
/// be created for an entry point of that graph
/// (VUID-RuntimeSpirv-pNext-09920).
fn unshape_used_graph_constant(e: &mut Edit) -> Option<()> {
    let graphs = e.graphs();
    let cands: Vec<usize> = e.indices(|i| match i {
        Inst::GraphConstant { result, ty, .. } => {
            let shaped = matches!(e.def(*ty), Some(Inst::TypeTensor { rank: Some(_), shape: Some(_), .. }));
            let in_body = |k: usize| graphs.iter().any(|g| g.begin < k && k < g.end);
            let mut used = false;
            let mut written = false;
            for (k, inst) in e.module.insts.iter().enumerate() {
                match inst {
                    Inst::Tosa { args, .. } if in_body(k) && args.contains(result) => used = true,
                    Inst::GraphSetOutput { value, .. } if value == result => written = true,
                    _ => {}
                }
            }
            shaped && used && !written
        }
        _ => false,
    });
    let at = e.choose(&cands)?;
    let Some(Inst::GraphConstant { ty, result, graph_constant_id }) = e.module.insts.get(at).cloned() else {
        return None;
    };
    let Some(Inst::TypeTensor { element, rank: Some(rank), .. }) = e.def(ty).cloned() else { return None };
    let ranked = e.module.insts.iter().enumerate().find_map(|(k, i)| match i {
        Inst::TypeTensor { result, element: el, rank: Some(r), shape: None } if *el == element && *r == rank => {
            Some((k, *result))
        }
        _ => None,
    });
    let (new_ty, at) = match ranked {
        Some((k, t)) if k < at => (t, at),
        // Declared after the constant: moving it would reorder declarations.
        Some(_) => return None,
        None => {
            // Right before the constant: its operands (element type, rank
            // constant) are declared before the old type, so before it too.
            let t = e.fresh_id();
            e.insert(at, Inst::TypeTensor { result: t, element, rank: Some(rank), shape: None });
            (t, at + 1)
        }
    };
    if let Some(Inst::GraphConstant { ty, .. }) = e.module.insts.get_mut(at) {
        *ty = new_ty;
    }
    e.note(format!(
        "graph constant %{} (GraphConstantID {graph_constant_id}), used by a graph, given the ranked-only tensor type %{} (was %{})",
        result.0, new_ty.0, ty.0
    ));
    Some(())
}
