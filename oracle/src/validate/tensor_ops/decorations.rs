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
    let targets: Vec<(usize, Id, bool)> = cx
        .lists
        .decorations
        .iter()
        .filter_map(|&i| match cx.insts.get(i) {
            Some(Inst::Decorate { target, decoration, .. }) if *decoration == readable || *decoration == writable => {
                Some((i, *target, *decoration == writable))
            }
            _ => None,
        })
        .collect();
    if targets.is_empty() {
        return;
    }
    let blocks = Blocks::new(cx);
    let mut found = Vec::new();
    for (i, target, non_writable) in targets {
        if let Some(problem) = target_problem(cx, &blocks, target, non_writable) {
            let name = if non_writable { "NonWritable" } else { "NonReadable" };
            found.push((i, format!("{name} on %{}: {problem}", target.0)));
        }
    }
    for (i, message) in found {
        cx.at(i, RuleId::DecorationNonReadableWritableTarget, message);
    }
}

/// The ids decorated Block and BufferBlock, sorted (looked up once per
/// decorated target rather than by scanning the decorations each time).
struct Blocks {
    block: Vec<Id>,
    buffer_block: Vec<Id>,
}

impl Blocks {
    fn new(cx: &Cx<'_>) -> Blocks {
        let (mut block, mut buffer_block) = (Vec::new(), Vec::new());
        for inst in cx.lists.decorations.iter().filter_map(|&i| cx.insts.get(i)) {
            match inst {
                Inst::Decorate { target, decoration, .. } if *decoration == Decoration::Block as u32 => {
                    block.push(*target)
                }
                Inst::Decorate { target, decoration, .. } if *decoration == Decoration::BufferBlock as u32 => {
                    buffer_block.push(*target)
                }
                _ => {}
            }
        }
        block.sort_unstable();
        buffer_block.sort_unstable();
        Blocks { block, buffer_block }
    }

    fn block(&self, id: Id) -> bool {
        self.block.binary_search(&id).is_ok()
    }

    fn buffer_block(&self, id: Id) -> bool {
        self.buffer_block.binary_search(&id).is_ok()
    }
}

/// Why `target` cannot take the decoration (`None`: it can, or it is
/// something this validator does not model).
fn target_problem(cx: &Cx<'_>, blocks: &Blocks, target: Id, non_writable: bool) -> Option<String> {
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
    if points_to_memory_object(cx, blocks, pointer) {
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
fn points_to_memory_object(cx: &Cx<'_>, blocks: &Blocks, pointer: Id) -> bool {
    let Some(Inst::TypePointer { storage, pointee, .. }) = cx.def(pointer) else { return false };
    let inner = match cx.def(*pointee) {
        Some(Inst::TypeArray { element, .. } | Inst::TypeRuntimeArray { element, .. }) => *element,
        _ => *pointee,
    };
    let Some(inner_def) = cx.def(inner) else { return false };
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
        matches!(inner_def, Inst::TypeStruct { .. }) && (blocks.block(inner) || blocks.buffer_block(inner))
    } else if s == StorageClass::StorageBuffer as u32 || s == StorageClass::PhysicalStorageBuffer as u32 {
        matches!(inner_def, Inst::TypeStruct { .. }) && blocks.block(inner)
    } else {
        false
    }
}
