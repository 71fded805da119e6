//! The targets of NonReadable and NonWritable: memory object declarations
//! that point to a storage image, a uniform block, a storage buffer or
//! (SPV_ARM_tensors revision 2) a tensor variable in UniformConstant; from
//! SPIR-V 1.4, NonWritable may also decorate Private and Function variables.

use super::super::context::Cx;
use spirv::{Decoration, Op, StorageClass};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::opname::opcode_name;
use spvgraph_ir::rules::RuleId;

/// `Sampled` operand of `OpTypeImage` for images used without a sampler.
const STORAGE_IMAGE: u32 = 2;

/// Runs the decoration-target checks.
pub fn check(cx: &mut Cx<'_>) {
    let (readable, writable) = (Decoration::NonReadable as u32, Decoration::NonWritable as u32);
    let mut found = Vec::new();
    for &i in &cx.lists.decorations {
        let Some(Inst::Decorate { target, decoration, .. }) = cx.insts.get(i) else { continue };
        if *decoration != readable && *decoration != writable {
            continue;
        }
        let name = if *decoration == readable { "NonReadable" } else { "NonWritable" };
        if let Some(problem) = target_problem(cx, *target, *decoration == writable) {
            found.push((i, format!("{name} on %{}: {problem}", target.0)));
        }
    }
    for (i, message) in found {
        cx.at(i, RuleId::DecorationNonReadableWritableTarget, message);
    }
}

/// Why `target` cannot take the decoration (`None`: it can, or it is
/// something this validator does not model).
fn target_problem(cx: &Cx<'_>, target: Id, non_writable: bool) -> Option<String> {
    // An undefined target is the id checks' finding.
    let def = cx.def(target)?;
    let pointer = match def {
        Inst::Variable { ty, storage, .. } => {
            let private = *storage == StorageClass::Private as u32 || *storage == StorageClass::Function as u32;
            if (non_writable && private && cx.version >= (1, 4)) || *storage == StorageClass::TileAttachmentQCOM as u32
            {
                return None;
            }
            *ty
        }
        Inst::Raw { opcode, .. } if *opcode == Op::FunctionParameter as u16 => def.result_type()?,
        // Memory objects of other extensions (untyped variables, raw access
        // chains, buffer pointers) are out of scope.
        Inst::Raw { opcode, .. }
            if [Op::UntypedVariableKHR, Op::RawAccessChainNV, Op::BufferPointerEXT]
                .iter()
                .any(|op| *opcode == *op as u16) =>
        {
            return None
        }
        other => {
            return Some(format!(
                "the target is {}, not a memory object declaration (a variable or a function parameter)",
                opcode_name(other.opcode())
            ))
        }
    };
    if points_to_memory_object(cx, pointer) {
        return None;
    }
    Some(
        "it must point to a storage image, a tensor variable in UniformConstant, a uniform block or a storage buffer"
            .to_string()
            + if non_writable && cx.version >= (1, 4) { ", or be a Private or Function variable" } else { "" },
    )
}

/// Whether `pointer` is a pointer type to one of the memory objects the
/// decorations apply to (through one level of arraying).
fn points_to_memory_object(cx: &Cx<'_>, pointer: Id) -> bool {
    let Some(Inst::TypePointer { storage, pointee, .. }) = cx.def(pointer) else { return false };
    let inner = match cx.def(*pointee) {
        Some(Inst::TypeArray { element, .. } | Inst::TypeRuntimeArray { element, .. }) => *element,
        _ => *pointee,
    };
    let Some(inner_def) = cx.def(inner) else { return false };
    let decorated = |d: Decoration| {
        cx.lists.decorations.iter().any(|&i| {
            matches!(cx.insts.get(i), Some(Inst::Decorate { target, decoration, .. })
                if *target == inner && *decoration == d as u32)
        })
    };
    let s = *storage;
    if s == StorageClass::UniformConstant as u32 {
        match inner_def {
            Inst::TypeTensor { .. } => true,
            Inst::Raw { opcode, operands } if *opcode == Op::TypeImage as u16 => {
                operands.get(6) == Some(&STORAGE_IMAGE)
            }
            _ => false,
        }
    } else if s == StorageClass::Uniform as u32 {
        matches!(inner_def, Inst::TypeStruct { .. })
            && (decorated(Decoration::Block) || decorated(Decoration::BufferBlock))
    } else if s == StorageClass::StorageBuffer as u32 || s == StorageClass::PhysicalStorageBuffer as u32 {
        matches!(inner_def, Inst::TypeStruct { .. }) && decorated(Decoration::Block)
    } else {
        false
    }
}
