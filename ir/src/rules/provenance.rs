//! Provenance: the text (with its revision) or the SPIRV-Tools behaviour
//! each rule of the catalogue follows, and what SPIRV-Tools main does with
//! it next to the pinned release.
//!
//! Where the specifications moved, the rules follow the newest revision
//! (SPV_ARM_graph revision 3, the Vulkan 1.4.360 environment appendix).
//! Where a specification is silent and the rule restates what SPIRV-Tools
//! does, `follows` says so with the release or commit.
//!
//! [`RuleInfo::spirv_val_checks`](super::RuleInfo::spirv_val_checks) stays
//! the verdict of the pinned release ([`SPIRV_TOOLS_PINNED`]), since that is
//! what the differential tests run; [`Provenance::spirv_val_main`] is the
//! verdict of [`SPIRV_TOOLS_MAIN`] on the same one-rule module
//! (`oracle/tests/it/validate_rules.rs` checks both: the pinned one always, the
//! main one when `SPVGRAPH_SPIRV_VAL_MAIN` names such a build).

use super::RuleId;

/// The SPIRV-Tools release the differential tests run (`ci/setup-oracles`).
pub const SPIRV_TOOLS_PINNED: &str = "SPIRV-Tools v2025.5 (2025-11-19)";

/// The SPIRV-Tools main build the `spirv_val_main` flags were measured with.
pub const SPIRV_TOOLS_MAIN: &str = "SPIRV-Tools main v2026.3-43-g47c74f488 (2026-08-20)";

/// The SPIRV-Tools build the `spirv_val_sdk` flags were measured with: the
/// library spirv-adapter-model-explorer 0.2.0 vendors (`ci/oracle-pins`,
/// channel `sdk`; the `spirv-val@sdk` oracle).
pub const SPIRV_TOOLS_SDK: &str = "SPIRV-Tools v2026.3 vulkan-sdk-1.4.357.0-0-g9a49b08";

/// Where a rule comes from and how SPIRV-Tools main treats it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The text followed, with its revision, or the SPIRV-Tools behaviour
    /// (release or commit) where the rule restates what spirv-val does.
    pub follows: &'static str,
    /// Whether [`SPIRV_TOOLS_MAIN`] rejects a module that breaks only this
    /// rule (under a `vulkan*` target environment for Vulkan rules).
    pub spirv_val_main: bool,
    /// The SPIRV-Tools change that made main's verdict differ from the
    /// pinned release's, when it does.
    pub main_change: Option<&'static str>,
    /// Whether [`SPIRV_TOOLS_SDK`] rejects a module that breaks only this
    /// rule (measured by `oracle/tests/it/validate_rules.rs` on the `sdk`
    /// channel's library).
    pub spirv_val_sdk: bool,
}

const CORE: &str = "SPIR-V 1.6 revision 7 (unified)";
const GRAPH: &str = "SPV_ARM_graph revision 3 (2026-06-19)";
const TENSORS: &str = "SPV_ARM_tensors revision 2 (2025-06-18)";
const DEBUG: &str = "NonSemantic.Graph.DebugInfo version 1 (revision 1, 2026-05-15)";
const TOSA_SET: &str = "TOSA.001000.1 registry document revision 2";
const TOSA: &str = "TOSA 1.0.2 specification (tosa.xml 1.0.2)";
const VULKAN: &str = "Vulkan 1.4.360 'Vulkan Environment for SPIR-V' (2026-08-14)";

/// SPIRV-Tools #6666 (83876d9): NonSemantic.Graph.DebugInfo validation and
/// non-semantic instructions anywhere in the graph section.
const TOOLS_6666: &str = "SPIRV-Tools v2026.3, #6666 (83876d9): NonSemantic.Graph.DebugInfo validated";
/// SPIRV-Tools #6694 (6aa5c1d): the Vulkan standalone rules of SPV_ARM_graph.
const TOOLS_6694: &str = "SPIRV-Tools v2026.3, #6694 (6aa5c1d): VUID 09931/09932 checked";
/// SPIRV-Tools #6754 (392a280): duplicate graph entry-point names.
const TOOLS_6754: &str = "SPIRV-Tools v2026.3, #6754 (392a280): duplicate graph entry-point names rejected";

// The SDK build sits between the release and main (v2026.3 tagged for the
// Vulkan SDK, before main's 43 further commits); measured, it gives main's
// verdict on every rule's module, so both constructors set both flags.
const fn same(follows: &'static str, checks: bool) -> Provenance {
    Provenance { follows, spirv_val_main: checks, main_change: None, spirv_val_sdk: checks }
}

const fn changed(follows: &'static str, main: bool, change: &'static str) -> Provenance {
    Provenance { follows, spirv_val_main: main, main_change: Some(change), spirv_val_sdk: main }
}

impl RuleId {
    /// What the rule follows and what SPIRV-Tools main does with it. The
    /// match is exhaustive, so a new rule cannot be added without one.
    pub fn provenance(self) -> Provenance {
        use RuleId as R;
        match self {
            R::BinaryHeader
            | R::BinaryFraming
            | R::BinaryOperands
            | R::BinaryVersion
            | R::BinaryIdBound
            | R::LayoutSectionOrder
            | R::LayoutMemoryModel
            | R::IdsUndefined
            | R::IdsDuplicate
            | R::IdsForwardReference
            | R::IdsNotAType
            | R::CapsMissingCapability
            | R::TypesDuplicate
            | R::TypesVariablePointer
            | R::ConstantsScalarValue
            | R::ConstantsArray
            | R::GraphCompositeExtract => same(CORE, true),
            R::BinaryVersionForEnv => same(
                "SPIRV-Tools v2025.5 target environments (spirv-val --target-env); Vulkan 1.4.360 'Versions and Formats'",
                true,
            ),
            R::CapsMissingExtension => {
                same("SPIR-V 1.6 revision 7; SPV_KHR_non_semantic_info revision 4; NonSemantic.Graph.DebugInfo version 1 'Dependencies'", true)
            }
            R::LayoutEntryPoint
            | R::LayoutGraphNested
            | R::LayoutGraphUnterminated
            | R::LayoutGraphBodyInstruction
            | R::TypesGraphOutputs
            | R::TypesGraphInterfaceType
            | R::ConstantsGraphConstantType
            | R::ConstantsGraphConstantDuplicateId
            | R::GraphType
            | R::GraphEntryPointMissing
            | R::GraphEntryPointNotAGraph
            | R::GraphEntryPointInterfaceCount
            | R::GraphEntryPointInterfaceVariable
            | R::GraphEntryPointInterfaceType
            | R::GraphInputIndexType
            | R::GraphInputIndexRange
            | R::GraphInputDuplicateIndex
            | R::GraphInputElementIndex
            | R::GraphInputType
            | R::GraphOutputIndexType
            | R::GraphOutputIndexRange
            | R::GraphOutputDuplicateIndex
            | R::GraphOutputElementIndex
            | R::GraphOutputType
            | R::GraphOutputMissing => same(GRAPH, true),
            R::LayoutGraphSectionOutsideGraph | R::LayoutGraphInputPosition | R::LayoutGraphOutputPosition => same(
                "SPV_ARM_graph revision 3 with SPV_KHR_non_semantic_info revision 4 (non-semantic instructions anywhere from the types section on), as SPIRV-Tools v2026.3 (#6666, 83876d9) reads them",
                true,
            ),
            R::IdsGraphScope => same(
                "SPV_ARM_graph revision 3 (graph definitions) with SPIR-V 1.6 revision 7 (function-local ids); non-semantic uses exempt as in SPIRV-Tools v2026.3",
                false,
            ),
            R::GraphEntryPointDuplicateName => changed(GRAPH, true, TOOLS_6754),
            R::LayoutTosaOutsideGraph => same(TOSA_SET, true),
            R::TypesTensorElement
            | R::TypesTensorRankNotConstant
            | R::TypesTensorShapeNotConstant
            | R::TypesTensorShapeLength
            | R::ConstantsTensorCount
            | R::ConstantsTensorConstituent
            | R::ConstantsTensorUnshaped => same(TENSORS, true),
            R::TypesTensorRankZero | R::TypesTensorShapeZero => {
                same("SPIRV-Tools v2025.5 validate_type.cpp (SPV_ARM_tensors revision 2 is silent on 0)", true)
            }
            R::ConstantsReplicateConstituent => changed(
                "SPV_EXT_replicated_composites revision 1 with SPV_ARM_tensors revision 2",
                true,
                "SPIRV-Tools v2026.2, #6583 (c75e349): OpConstantCompositeReplicateEXT validated",
            ),
            R::VulkanGraphConstantShaped | R::VulkanInterfaceShaped => same(VULKAN, false),
            R::GraphInputIndexNotConstant | R::GraphOutputIndexNotConstant => changed(VULKAN, true, TOOLS_6694),
            R::VulkanDescriptorSetBinding | R::VulkanAddressingModel => same(VULKAN, true),
            R::VulkanRuntimeArrayVariable => same(
                "Vulkan 1.4.360 VUID-StandaloneSpirv-OpTypeRuntimeArray-04680; the RuntimeDescriptorArray requirement as SPIRV-Tools v2025.5 checks it",
                true,
            ),
            // Main reads unknown instruction numbers of a non-semantic set as
            // ignorable, as SPV_KHR_non_semantic_info allows a consumer to.
            R::DebugInfoInstruction => same(DEBUG, false),
            R::DebugInfoVersion
            | R::DebugInfoResultType
            | R::DebugInfoGraph
            | R::DebugInfoName
            | R::DebugInfoOperation
            | R::DebugInfoTensor => changed(DEBUG, true, TOOLS_6666),
            R::DebugInfoForwardReference => same(DEBUG, true),
            R::TosaUnknownInstruction | R::TosaOperandCount => same(TOSA_SET, true),
            R::TosaOperandNotConstant | R::TosaOperandForm | R::TosaEnumValue | R::TosaResultType => {
                same(TOSA_SET, false)
            }
            R::TosaEnumExtension
            | R::TosaTypeFixed
            | R::TosaTypeSlotConflict
            | R::TosaTypeNoRow
            | R::TosaTypeRowQualifier
            | R::TosaTypeProfile
            | R::TosaShapeRank
            | R::TosaShapeLength
            | R::TosaShapeMismatch
            | R::TosaShapeBroadcast
            | R::TosaShapeInexactDivision
            | R::TosaShapeOutputRange
            | R::TosaShapeElementCount
            | R::TosaShapeOutput
            | R::TosaAttributeRange
            | R::TosaAttributeAxis
            | R::TosaTransposePerms
            | R::TosaFftPowerOfTwo
            | R::TosaZeroPoint
            | R::TosaRescaleZeroPoint
            | R::TosaRescaleUnsigned
            | R::TosaRescaleDoubleRound
            | R::TosaClampBounds
            | R::TosaShapeUnknown
            | R::TosaRequireMulShift
            | R::TosaRequireRescaleShift
            | R::TosaRequireRescaleMultiplier
            | R::LevelRank
            | R::LevelKernel
            | R::LevelStride
            | R::LevelScale
            | R::LevelTensorList
            | R::LevelTensorSize => same(TOSA, false),
            R::TensorAccessNotRanked
            | R::TensorAccessCoordinates
            | R::TensorReadResultType
            | R::TensorWriteObjectType
            | R::TensorOperandsOutOfBoundsType
            | R::TensorOperandsInstruction
            | R::TensorOperandsNonPrivate
            | R::TensorQueryResultType
            | R::TensorQueryDimensionNotConstant
            | R::TensorQueryDimensionRange => same(TENSORS, true),
            // Neither release checks these: the grammar gives the operands as
            // plain IdRef, and the OutOfBoundsValueARM check looks at types only.
            R::TensorOperandsOutOfBoundsNotConstant | R::TensorOperandsScope => same(TENSORS, false),
            R::TensorReplicateValueType | R::TensorReplicateUnshaped => changed(
                "SPV_EXT_replicated_composites revision 1 with SPV_ARM_tensors revision 2",
                true,
                "SPIRV-Tools v2026.2, #6583 (c75e349): OpCompositeConstructReplicateEXT validated",
            ),
            R::DecorationNonReadableWritableTarget => same(
                "SPIR-V 1.6 revision 7 'Decoration' as SPV_ARM_tensors revision 2 extends it (tensor variables in UniformConstant; SPIRV-Registry #348), as SPIRV-Tools v2025.5 checks it (#6184)",
                true,
            ),
            R::ImportsVersion => same(
                "TOSA.001000.1 registry document revision 2 (set naming); Arm.ExperimentalMLOperations revision 1 (2025-10-31) '2. Version'",
                true,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_names_a_revision_and_main_changes_are_explained() {
        for rule in RuleId::ALL {
            let p = rule.provenance();
            assert!(
                ["revision", "version", "SPIRV-Tools v", "Vulkan 1.", "TOSA 1.0."]
                    .iter()
                    .any(|k| p.follows.contains(k)),
                "{rule}: provenance names no revision or release: {}",
                p.follows
            );
            let differs = p.spirv_val_main != rule.info().spirv_val_checks;
            assert_eq!(differs, p.main_change.is_some(), "{rule}: main_change must explain exactly the differences");
            if rule.is_pipeline() {
                assert!(!p.spirv_val_main, "{rule}: spirv-val validates modules, not pipelines");
            }
        }
    }
}
