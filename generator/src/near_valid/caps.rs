//! Mutators for the `caps.*` rules: capabilities that constructs need, and
//! extensions that capabilities (and non-semantic imports) need.

use super::{no_bias, Edit, Mutator};
use spvgraph_ir::elem::{FP_ENCODING_BFLOAT16, FP_ENCODING_FLOAT8_E4M3, FP_ENCODING_FLOAT8_E5M2};
use spvgraph_ir::inst::Inst;
use spvgraph_ir::rules::RuleId;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator {
            rule: RuleId::CapsMissingCapability,
            name: "drop-needed-capability",
            bias: no_bias,
            apply: drop_needed_capability,
        },
        Mutator {
            rule: RuleId::CapsMissingCapability,
            name: "type-without-capability",
            bias: no_bias,
            apply: type_without_capability,
        },
        Mutator {
            rule: RuleId::CapsMissingExtension,
            name: "drop-needed-extension",
            bias: no_bias,
            apply: drop_needed_extension,
        },
        Mutator {
            rule: RuleId::CapsMissingExtension,
            name: "capability-without-extension",
            bias: no_bias,
            apply: capability_without_extension,
        },
    ]
}

// Capability enumerants (SPIR-V `Capability`).
const SHADER: u32 = 1;
const FLOAT16: u32 = 9;
const FLOAT64: u32 = 10;
const INT64: u32 = 11;
const INT16: u32 = 22;
const INT8: u32 = 39;
const TENSORS_ARM: u32 = 4174;
const GRAPH_ARM: u32 = 4191;
const FLOAT8_EXT: u32 = 4212;
const BFLOAT16_TYPE_KHR: u32 = 5116;
const VULKAN_MEMORY_MODEL: u32 = 5345;
const REPLICATED_COMPOSITES_EXT: u32 = 6024;
/// `MemoryModel Vulkan`.
const MEMORY_MODEL_VULKAN: u32 = 3;

/// The one capability an instruction of a generated module needs (the
/// generator declares exactly that one, not an alternative that implies it).
fn needed(inst: &Inst) -> Option<u32> {
    Some(match inst {
        Inst::TypeTensor { .. } => TENSORS_ARM,
        Inst::TypeGraph { .. }
        | Inst::GraphConstant { .. }
        | Inst::GraphEntryPoint { .. }
        | Inst::Graph { .. }
        | Inst::GraphInput { .. }
        | Inst::GraphSetOutput { .. }
        | Inst::GraphEnd => GRAPH_ARM,
        Inst::TypeInt { width: 8, .. } => INT8,
        Inst::TypeInt { width: 16, .. } => INT16,
        Inst::TypeInt { width: 64, .. } => INT64,
        Inst::TypeFloat { width: 16, encoding: None, .. } => FLOAT16,
        Inst::TypeFloat { width: 64, encoding: None, .. } => FLOAT64,
        Inst::TypeFloat { encoding: Some(FP_ENCODING_BFLOAT16), .. } => BFLOAT16_TYPE_KHR,
        Inst::TypeFloat { encoding: Some(FP_ENCODING_FLOAT8_E4M3 | FP_ENCODING_FLOAT8_E5M2), .. } => FLOAT8_EXT,
        Inst::ConstantCompositeReplicate { .. } => REPLICATED_COMPOSITES_EXT,
        Inst::MemoryModel { memory, .. } if *memory == MEMORY_MODEL_VULKAN => VULKAN_MEMORY_MODEL,
        _ => return None,
    })
}

fn capability_name(c: u32) -> &'static str {
    match c {
        SHADER => "Shader",
        FLOAT16 => "Float16",
        FLOAT64 => "Float64",
        INT64 => "Int64",
        INT16 => "Int16",
        INT8 => "Int8",
        TENSORS_ARM => "TensorsARM",
        GRAPH_ARM => "GraphARM",
        FLOAT8_EXT => "Float8EXT",
        BFLOAT16_TYPE_KHR => "BFloat16TypeKHR",
        VULKAN_MEMORY_MODEL => "VulkanMemoryModel",
        REPLICATED_COMPOSITES_EXT => "ReplicatedCompositesEXT",
        _ => "?",
    }
}

fn declared(e: &Edit, c: u32) -> bool {
    e.module.insts.contains(&Inst::Capability(c))
}

/// Removes a declared capability some instruction needs. GraphARM is left
/// alone: without it (and without OpEntryPoint) the module also breaks
/// `layout.entry-point`.
fn drop_needed_capability(e: &mut Edit) -> Option<()> {
    let mut caps: Vec<u32> = e.module.insts.iter().filter_map(needed).filter(|&c| c != GRAPH_ARM).collect();
    caps.sort_unstable();
    caps.dedup();
    caps.retain(|&c| declared(e, c));
    let c = e.choose(&caps)?;
    e.module.insts.retain(|i| *i != Inst::Capability(c));
    e.note(format!("removed OpCapability {} (still needed)", capability_name(c)));
    Some(())
}

/// Declares a scalar type of a width whose capability is not declared
/// (and that the module does not declare yet: a duplicate would break
/// `types.duplicate`).
fn type_without_capability(e: &mut Edit) -> Option<()> {
    let mut options: Vec<(Inst, u32)> = Vec::new();
    for (width, cap) in [(8, INT8), (16, INT16), (64, INT64)] {
        let exists = e.module.insts.iter().any(|i| matches!(i, Inst::TypeInt { width: w, .. } if *w == width));
        if !exists && !declared(e, cap) {
            options.push((Inst::TypeInt { result: spvgraph_ir::inst::Id(0), width, signedness: 0 }, cap));
        }
    }
    for (width, cap) in [(16, FLOAT16), (64, FLOAT64)] {
        let exists =
            e.module.insts.iter().any(|i| matches!(i, Inst::TypeFloat { width: w, encoding: None, .. } if *w == width));
        if !exists && !declared(e, cap) {
            options.push((Inst::TypeFloat { result: spvgraph_ir::inst::Id(0), width, encoding: None }, cap));
        }
    }
    let k = e.int_in(0, options.len() as i64 - 1) as usize;
    let (mut inst, cap) = options.get(k).cloned()?;
    let result = e.fresh_id();
    match &mut inst {
        Inst::TypeInt { result: r, .. } | Inst::TypeFloat { result: r, .. } => *r = result,
        _ => return None,
    }
    let what = spvgraph_ir::text::render_one(&e.module, &inst);
    e.add_global(inst);
    e.note(format!("unused {what} declared without the {} capability", capability_name(cap)));
    Some(())
}

/// The extension a capability needs at SPIR-V 1.5 and later (`None`: core).
fn extension_of(c: u32, version: (u32, u32)) -> Option<&'static str> {
    Some(match c {
        TENSORS_ARM => "SPV_ARM_tensors",
        GRAPH_ARM => "SPV_ARM_graph",
        BFLOAT16_TYPE_KHR => "SPV_KHR_bfloat16",
        FLOAT8_EXT => "SPV_EXT_float8",
        REPLICATED_COMPOSITES_EXT => "SPV_EXT_replicated_composites",
        VULKAN_MEMORY_MODEL if version < (1, 5) => "SPV_KHR_vulkan_memory_model",
        _ => return None,
    })
}

fn version(e: &Edit) -> (u32, u32) {
    let v = e.module.header.version;
    ((v >> 16) & 0xff, (v >> 8) & 0xff)
}

/// Removes an OpExtension that a declared capability (or, before SPIR-V
/// 1.6, a NonSemantic import) needs.
fn drop_needed_extension(e: &mut Edit) -> Option<()> {
    let ver = version(e);
    let mut exts: Vec<&'static str> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Capability(c) => extension_of(*c, ver),
            Inst::ExtInstImport { name, .. } if name.starts_with("NonSemantic.") && ver < (1, 6) => {
                Some("SPV_KHR_non_semantic_info")
            }
            _ => None,
        })
        .collect();
    exts.sort_unstable();
    exts.dedup();
    exts.retain(|x| e.module.insts.contains(&Inst::Extension((*x).to_string())));
    let x = e.choose(&exts)?;
    e.module.insts.retain(|i| *i != Inst::Extension(x.to_string()));
    e.note(format!("removed OpExtension \"{x}\" (still needed)"));
    Some(())
}

/// Declares an extension-defined capability (unused) without its extension.
fn capability_without_extension(e: &mut Edit) -> Option<()> {
    let ver = version(e);
    let options: Vec<u32> = [FLOAT8_EXT, BFLOAT16_TYPE_KHR, REPLICATED_COMPOSITES_EXT, TENSORS_ARM]
        .into_iter()
        .filter(|&c| {
            !declared(e, c)
                && extension_of(c, ver).is_some_and(|x| !e.module.insts.contains(&Inst::Extension(x.to_string())))
        })
        .collect();
    let c = e.choose(&options)?;
    let last_cap = e.module.insts.iter().rposition(|i| matches!(i, Inst::Capability(_)))?;
    e.insert(last_cap + 1, Inst::Capability(c));
    e.note(format!(
        "OpCapability {} declared without OpExtension \"{}\"",
        capability_name(c),
        extension_of(c, ver).unwrap_or_default()
    ));
    Some(())
}
