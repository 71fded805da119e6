//! Capabilities and extensions each graph-module construct needs.
//!
//! Only the constructs graph modules are made of are covered (tensor and
//! graph instructions, the scalar widths and encodings of TOSA element types,
//! replicated composites, the Vulkan memory model, non-semantic imports, the
//! DescriptorSet and Binding decorations of the interface variables) and the
//! SPV_ARM_tensors instructions of function bodies (tensor accesses and their
//! Tensor Operands); capabilities of other shader instructions are
//! spirv-val's business.

use super::context::Cx;
use spirv::Capability as C;
use spvgraph_ir::elem::{FP_ENCODING_BFLOAT16, FP_ENCODING_FLOAT8_E4M3, FP_ENCODING_FLOAT8_E5M2};
use spvgraph_ir::inst::{Inst, GRAPH_DEBUG_SET_PREFIX};
use spvgraph_ir::opname::opcode_name;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor_access::{self, TensorAccess};

/// The capabilities that satisfy a requirement (any one of them will do),
/// and a name for messages.
struct Need {
    /// Index into the check's memo of answers (unique per `Need`).
    memo: usize,
    any_of: &'static [C],
    name: &'static str,
}

/// How many `Need`s there are (the size of the memo).
const NEEDS: usize = 13;

const TENSORS: Need = Need { memo: 0, any_of: &[C::TensorsARM], name: "TensorsARM" };
const GRAPH: Need = Need { memo: 1, any_of: &[C::GraphARM], name: "GraphARM" };
const INT8: Need = Need {
    memo: 2,
    any_of: &[C::Int8, C::StorageBuffer8BitAccess, C::UniformAndStorageBuffer8BitAccess, C::StoragePushConstant8],
    name: "Int8",
};
const INT16: Need = Need {
    memo: 3,
    any_of: &[
        C::Int16,
        C::StorageBuffer16BitAccess,
        C::UniformAndStorageBuffer16BitAccess,
        C::StoragePushConstant16,
        C::StorageInputOutput16,
    ],
    name: "Int16",
};
const INT64: Need = Need { memo: 4, any_of: &[C::Int64], name: "Int64" };
const FLOAT16: Need = Need {
    memo: 5,
    any_of: &[
        C::Float16,
        C::Float16Buffer,
        C::StorageBuffer16BitAccess,
        C::UniformAndStorageBuffer16BitAccess,
        C::StoragePushConstant16,
        C::StorageInputOutput16,
    ],
    name: "Float16",
};
const FLOAT64: Need = Need { memo: 6, any_of: &[C::Float64], name: "Float64" };
const BF16: Need = Need { memo: 7, any_of: &[C::BFloat16TypeKHR], name: "BFloat16TypeKHR" };
const FP8: Need = Need { memo: 8, any_of: &[C::Float8EXT], name: "Float8EXT" };
const REPLICATE: Need = Need { memo: 9, any_of: &[C::ReplicatedCompositesEXT], name: "ReplicatedCompositesEXT" };
const VULKAN_MEMORY: Need = Need { memo: 10, any_of: &[C::VulkanMemoryModel], name: "VulkanMemoryModel" };
/// SPV_ARM_tensors gives VulkanMemoryModel as the enabling capability of
/// these Tensor Operands (the SPIR-V grammar lists TensorsARM instead).
const TENSOR_MEMORY: Need = Need {
    memo: 11,
    any_of: &[C::VulkanMemoryModel],
    name: "VulkanMemoryModel (for its MakeElementAvailableARM, MakeElementVisibleARM or NonPrivateElementARM Tensor Operands)",
};

/// The grammar gives Shader as the capability of the DescriptorSet and
/// Binding decorations, which every graph interface variable carries: a
/// module that drops `OpCapability Shader` (a reducer's candidate, say) is
/// invalid for them.
const SHADER: Need = Need { memo: 12, any_of: &[C::Shader], name: "Shader" };

fn need(inst: &Inst) -> Option<&'static Need> {
    let n = match inst {
        Inst::Decorate { decoration, .. }
            if *decoration == spirv::Decoration::DescriptorSet as u32
                || *decoration == spirv::Decoration::Binding as u32 =>
        {
            &SHADER
        }
        Inst::TypeTensor { .. } => &TENSORS,
        Inst::TypeGraph { .. }
        | Inst::GraphConstant { .. }
        | Inst::GraphEntryPoint { .. }
        | Inst::Graph { .. }
        | Inst::GraphInput { .. }
        | Inst::GraphSetOutput { .. }
        | Inst::GraphEnd => &GRAPH,
        Inst::TypeInt { width: 8, .. } => &INT8,
        Inst::TypeInt { width: 16, .. } => &INT16,
        Inst::TypeInt { width: 64, .. } => &INT64,
        Inst::TypeFloat { width: 16, encoding: None, .. } => &FLOAT16,
        Inst::TypeFloat { width: 64, encoding: None, .. } => &FLOAT64,
        Inst::TypeFloat { encoding: Some(FP_ENCODING_BFLOAT16), .. } => &BF16,
        Inst::TypeFloat { encoding: Some(FP_ENCODING_FLOAT8_E4M3 | FP_ENCODING_FLOAT8_E5M2), .. } => &FP8,
        Inst::ConstantCompositeReplicate { .. } => &REPLICATE,
        Inst::MemoryModel { memory, .. } if *memory == spirv::MemoryModel::Vulkan as u32 => &VULKAN_MEMORY,
        Inst::Raw { opcode: tensor_access::OP_COMPOSITE_CONSTRUCT_REPLICATE, .. } => &REPLICATE,
        Inst::Raw { .. } => match TensorAccess::from_inst(inst)? {
            Ok(access) if access.operands().is_some_and(|o| o.mask & tensor_access::MEMORY_MODEL_BITS != 0) => {
                &TENSOR_MEMORY
            }
            // A tensor access also uses a tensor type, which reports a missing TensorsARM.
            _ => &TENSORS,
        },
        _ => return None,
    };
    Some(n)
}

/// The extension a declared capability needs (`None`: core), given the
/// module's SPIR-V version.
fn extension_of(c: u32, version: (u32, u32)) -> Option<&'static str> {
    let e = match c {
        x if x == C::TensorsARM as u32
            || x == C::StorageTensorArrayDynamicIndexingARM as u32
            || x == C::StorageTensorArrayNonUniformIndexingARM as u32 =>
        {
            "SPV_ARM_tensors"
        }
        x if x == C::GraphARM as u32 => "SPV_ARM_graph",
        x if x == C::BFloat16TypeKHR as u32 => "SPV_KHR_bfloat16",
        x if x == C::Float8EXT as u32 => "SPV_EXT_float8",
        x if x == C::ReplicatedCompositesEXT as u32 => "SPV_EXT_replicated_composites",
        x if x == C::VulkanMemoryModel as u32 && version < (1, 5) => "SPV_KHR_vulkan_memory_model",
        _ => return None,
    };
    Some(e)
}

/// Runs the capability and extension checks.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    let mut reported: Vec<&'static str> = Vec::new();
    // Whether each requirement is met, worked out once per module.
    let mut memo: [Option<bool>; NEEDS] = [None; NEEDS];
    let list = std::mem::take(&mut cx.lists.caps);
    for (i, inst) in list.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
        if let Some(n) = need(inst) {
            let have = match memo.get(n.memo).copied().flatten() {
                Some(have) => have,
                None => {
                    let have = n.any_of.iter().any(|c| cx.declares_capability(*c));
                    if let Some(slot) = memo.get_mut(n.memo) {
                        *slot = Some(have);
                    }
                    have
                }
            };
            if !have && !reported.contains(&n.name) {
                reported.push(n.name);
                cx.at(
                    i,
                    RuleId::CapsMissingCapability,
                    format_args!(
                        "{} requires the {} capability, which is not declared",
                        opcode_name(inst.opcode()),
                        n.name
                    ),
                );
            }
        }
        match inst {
            Inst::Capability(c) => {
                if let Some(ext) = extension_of(*c, cx.version) {
                    if !cx.has_extension(ext) {
                        cx.at(
                            i,
                            RuleId::CapsMissingExtension,
                            format_args!("this capability is defined by {ext}, which is not declared with OpExtension"),
                        );
                    }
                }
            }
            Inst::ExtInstImport { name, .. } => {
                let non_semantic = name.starts_with("NonSemantic.");
                if non_semantic && cx.version < (1, 6) && !cx.has_extension("SPV_KHR_non_semantic_info") {
                    cx.at(
                        i,
                        RuleId::CapsMissingExtension,
                        format_args!(
                            "importing {name} needs SPV_KHR_non_semantic_info before SPIR-V 1.6, and it is not declared"
                        ),
                    );
                }
                if name.starts_with(GRAPH_DEBUG_SET_PREFIX) && !cx.has_extension("SPV_ARM_graph") {
                    cx.at(
                        i,
                        RuleId::CapsMissingExtension,
                        "NonSemantic.Graph.DebugInfo requires SPV_ARM_graph, and it is not declared",
                    );
                }
            }
            _ => {}
        }
    }
    cx.lists.caps = list;
}
