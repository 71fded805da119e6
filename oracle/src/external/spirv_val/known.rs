//! The documented tables of real spirv-val discrepancies, each row with a
//! minimal module in `corpus/findings/`:
//!
//! - [`SPIRV_VAL_KNOWN`]: near-valid modules on which spirv-val 2025.5 (the
//!   pinned release) differs from what the rule catalogue says it checks
//!   (`RuleInfo::spirv_val_checks`). The differential test, the
//!   `graph_validator` fuzz target and `spvgraph hunt` all consult this one
//!   table, so a known discrepancy is reported as known rather than as a
//!   new finding. `status` says where a newer SPIRV-Tools no longer has it.
//! - [`SPIRV_VAL_REJECTS_VALID`]: valid modules (accepted by the in-tree
//!   validator and SPIRV-Tools main) that spirv-val 2025.5 rejects, because
//!   the specifications or SPIRV-Tools moved after it.
//! - [`SPIRV_VAL_MAIN_KNOWN`]: near-valid modules on which SPIRV-Tools main
//!   differs from the catalogue's `spirv_val_main` flag (not run by the
//!   differential tests, which use the pinned release).

use crate::attribution::{Owner, Status};
use crate::features::Feature;
use crate::oracle::KnownDiscrepancy;
use spvgraph_ir::rules::RuleId;

/// An array input read whole after reads of its elements.
const DUPLICATE_INPUT_INDEX_AFTER_ELEMENTS: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::GraphInputDuplicateIndex),
    operator: None,
    mutator: Some("whole-array-read-after-elements"),
    why: "the duplicate-InputIndex check misses a read without ElementIndex that follows reads with one \
      (the reverse order is rejected)",
    finding: "corpus/findings/spirv-val-duplicate-input-index-after-elements.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvTools,
    status: Status::Open,
    upstream: None,
};

/// An unshaped tensor made by OpConstantCompositeReplicateEXT.
const UNSHAPED_REPLICATE: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::ConstantsTensorUnshaped),
    operator: None,
    mutator: Some("unshaped-replicate"),
    why: "OpConstantCompositeReplicateEXT is not validated at all in 2025.5, so an unshaped tensor Result Type \
      passes (OpConstantNull and OpConstantComposite of the same type are rejected)",
    finding: "corpus/findings/spirv-val-unshaped-replicate-constant.spv",
    message: None,
    features: &[Feature::ReplicatedConstant],
    owner: Owner::SpirvTools,
    status: Status::Fixed { version: "SPIRV-Tools v2026.2 (#6583, c75e349)" },
    upstream: Some("KhronosGroup/SPIRV-Tools#6583"),
};

/// CONCAT with its axis and no input (SPIRV-Headers' grammar).
const CONCAT_WITHOUT_INPUTS: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::TosaOperandCount),
    operator: None,
    mutator: Some("concat-without-inputs"),
    why: "SPIRV-Headers' TOSA.001000.1 grammar (extinst.tosa.001000.1.grammar.json) gives CONCAT's input1 the \
          quantifier * (zero or more), so spirv-val's grammar check passes a CONCAT with only its axis; the \
          instruction set gives CONCAT the word count 7+Variable, which counts one input1 besides the axis: the \
          grammar should list one required input1 operand followed by a * tail",
    finding: "corpus/findings/spirv-val-concat-without-inputs.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvHeaders,
    status: Status::Open,
    upstream: None,
};

/// Non-zero bytes after a literal string's nul.
const STRING_PADDING_NOT_ZERO: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::BinaryOperands),
    operator: None,
    mutator: Some("string-padding-not-zero"),
    why: "the bytes after the nul of a literal string are not checked to be 0",
    finding: "corpus/findings/spirv-val-accepts-string-padding-not-zero.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvTools,
    status: Status::Open,
    upstream: None,
};

/// A literal string that is not UTF-8.
const STRING_NOT_UTF8: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::BinaryOperands),
    operator: None,
    mutator: Some("string-not-utf8"),
    why: "literal strings are not checked to be UTF-8",
    finding: "corpus/findings/spirv-val-accepts-string-not-utf8.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvTools,
    status: Status::Open,
    upstream: None,
};

/// An OutOfBoundsValueARM value that is an array of the element type.
const OUT_OF_BOUNDS_ARRAY: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::TensorOperandsOutOfBoundsType),
    operator: None,
    mutator: Some("out-of-bounds-array"),
    why: "the OutOfBoundsValueARM check compares component types, so an array of the element type passes \
          (also in SPIRV-Tools main, Aug 2026)",
    finding: "corpus/findings/spirv-val-out-of-bounds-array.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvTools,
    status: Status::Open,
    upstream: None,
};

/// Tensor Operands that need VulkanMemoryModel without it (SPIRV-Headers' grammar).
const TENSOR_OPERANDS_WITHOUT_VULKAN_MEMORY_MODEL: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::CapsMissingCapability),
    operator: None,
    mutator: Some("tensor-operands-without-vulkan-memory-model"),
    why: "the SPIR-V grammar gives TensorsARM as the capability of every Tensor Operand, where SPV_ARM_tensors \
          gives VulkanMemoryModel for MakeElementAvailableARM, MakeElementVisibleARM and NonPrivateElementARM \
          (also in SPIRV-Tools main, Aug 2026)",
    finding: "corpus/findings/spirv-val-tensor-operands-without-vulkan-memory-model.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvHeaders,
    status: Status::Open,
    upstream: None,
};

/// Near-valid modules on which spirv-val 2025.5 is not what the catalogue says.
pub const SPIRV_VAL_KNOWN: &[KnownDiscrepancy] = &[
    DUPLICATE_INPUT_INDEX_AFTER_ELEMENTS,
    UNSHAPED_REPLICATE,
    CONCAT_WITHOUT_INPUTS,
    STRING_PADDING_NOT_ZERO,
    STRING_NOT_UTF8,
    OUT_OF_BOUNDS_ARRAY,
    TENSOR_OPERANDS_WITHOUT_VULKAN_MEMORY_MODEL,
];

/// The documented discrepancy for modules of `rule` made by `mutator`, if any.
pub fn known_spirv_val_discrepancy(rule: RuleId, mutator: &str) -> Option<&'static KnownDiscrepancy> {
    SPIRV_VAL_KNOWN.iter().find(|k| k.rule == Some(rule) && k.mutator == Some(mutator))
}

/// Whether a documented discrepancy is spirv-val accepting a module it should reject.
pub fn spirv_val_accepts(k: &KnownDiscrepancy) -> bool {
    k.kind == "misses-rule"
}

/// A NonSemantic.Graph.DebugInfo import version that wraps to 1 in 32 bits.
const WRAPPED_DEBUG_INFO_VERSION: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::DebugInfoVersion),
    operator: None,
    mutator: Some("bad-import-version"),
    why: "the version is read with strtoul and truncated to 32 bits: \"4294967297\" and \"-4294967295\" are taken \
          for version 1, and a sign or leading spaces are accepted (\"+1\", \" 1\"); other bad versions are rejected",
    finding: "corpus/findings/spirv-val-main-accepts-wrapped-import-version.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvTools,
    status: Status::Open,
    upstream: None,
};

/// An Arm.ExperimentalMLOperations import version that wraps to 1 in 32 bits.
const WRAPPED_ARM_ML_OPERATIONS_VERSION: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::ImportsVersion),
    operator: None,
    mutator: Some("arm-ml-operations-version"),
    why: "Arm.ExperimentalMLOperations versions are read the same way as NonSemantic.Graph.DebugInfo ones: \
          \"4294967297\", \"+1\" and \" 1\" are taken for version 1",
    finding: "corpus/findings/spirv-val-main-accepts-wrapped-import-version.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvTools,
    status: Status::Open,
    upstream: None,
};

/// A DebugTensor of a struct of tensors whose Index is past its members.
const DEBUG_TENSOR_INDEX_PAST_MEMBERS: KnownDiscrepancy = KnownDiscrepancy {
    kind: "misses-rule",
    rule: Some(RuleId::DebugInfoTensor),
    operator: None,
    mutator: Some("bad-composite-index"),
    why: "DebugTensor's Index is checked to be a 32-bit unsigned OpConstant, not to be within the composite's \
          member count: Index 3 of a two-member struct (an RFFT2D result) passes (SPIRV-Tools v2026.3 as tagged for \
          the Vulkan SDK 1.4.357.0, and main 47c74f4; 2025.5 validates no NonSemantic.Graph.DebugInfo at all)",
    finding: "corpus/findings/spirv-val-debug-tensor-index-past-members.spv",
    message: None,
    features: &[],
    owner: Owner::SpirvTools,
    status: Status::Open,
    upstream: None,
};

/// Documented discrepancies of SPIRV-Tools main (`spirv_val_main` is the
/// catalogue's flag here; none is fixed).
pub const SPIRV_VAL_MAIN_KNOWN: &[KnownDiscrepancy] = &[
    WRAPPED_DEBUG_INFO_VERSION,
    WRAPPED_ARM_ML_OPERATIONS_VERSION,
    DEBUG_TENSOR_INDEX_PAST_MEMBERS,
    KnownDiscrepancy {
        kind: "misses-rule",
        rule: Some(RuleId::TensorOperandsOutOfBoundsType),
        operator: None,
        mutator: Some("out-of-bounds-array"),
        why: "as in 2025.5: the OutOfBoundsValueARM check compares component types, so an array of the element \
              type passes",
        finding: "corpus/findings/spirv-val-out-of-bounds-array.spv",
        message: None,
        features: &[],
        owner: Owner::SpirvTools,
        status: Status::Open,
        upstream: None,
    },
    KnownDiscrepancy {
        kind: "misses-rule",
        rule: Some(RuleId::CapsMissingCapability),
        operator: None,
        mutator: Some("tensor-operands-without-vulkan-memory-model"),
        why: "as in 2025.5: the grammar gives TensorsARM, not VulkanMemoryModel, as the capability of \
              MakeElementAvailableARM, MakeElementVisibleARM and NonPrivateElementARM",
        finding: "corpus/findings/spirv-val-tensor-operands-without-vulkan-memory-model.spv",
        message: None,
        features: &[],
        owner: Owner::SpirvHeaders,
        status: Status::Open,
        upstream: None,
    },
];

/// Valid modules (accepted by the in-tree validator and SPIRV-Tools main)
/// that spirv-val 2025.5 rejects, because the specifications or
/// SPIRV-Tools moved after it. `rule` is the catalogue rule that allows
/// them and that 2025.5 reads more strictly.
pub const SPIRV_VAL_REJECTS_VALID: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        kind: "rejects-valid",
        rule: Some(RuleId::LayoutGraphSectionOutsideGraph),
        operator: None,
        mutator: None,
        why: concat!("NonSemantic.Graph.DebugInfo instructions after OpGraphEndARM (model-converter --emit-debug-info)", ": ", "non-semantic instructions may stand anywhere from the types section on (SPV_KHR_non_semantic_info), the \
              graph section included; 2025.5 says \"OpExtInst must appear in a graph body\""),
        finding: "corpus/findings/spirv-val-rejects-debug-info-after-graph.spv",
        message: None,
        features: &[Feature::DebugInfoOutsideGraph],
        owner: Owner::SpirvTools,
        status: Status::Fixed { version: "SPIRV-Tools v2026.3 (#6666, 83876d9)" },
        upstream: Some("KhronosGroup/SPIRV-Tools#6666"),
    },
    KnownDiscrepancy {
        kind: "rejects-valid",
        rule: Some(RuleId::LayoutGraphInputPosition),
        operator: None,
        mutator: None,
        why: "a NonSemantic.Graph.DebugInfo instruction between two OpGraphInputARM: 2025.5 says \"OpGraphInputARM must \
              immediately follow an OpGraphARM or OpGraphInputARM instruction\", which is the SPV_ARM_graph text (rev 3 \
              too), with no exception for non-semantic instructions; SPIRV-Tools v2026.3 (#6666) accepts it, following \
              SPV_KHR_non_semantic_info; which reading is right is an open spec question (the in-tree validator accepts)",
        finding: "corpus/findings/spirv-val-rejects-debug-info-between-inputs.spv",
        message: None,
        features: &[Feature::DebugInfoInGraph],
        owner: Owner::SpirvRegistry,
        status: Status::SpecAmbiguity,
        upstream: Some("KhronosGroup/SPIRV-Tools#6666"),
    },
    KnownDiscrepancy {
        kind: "rejects-valid",
        rule: Some(RuleId::LayoutGraphOutputPosition),
        operator: None,
        mutator: None,
        why: "a NonSemantic.Graph.DebugInfo instruction between two OpGraphSetOutputARM: 2025.5 says \"ExtInst cannot \
              appear after a graph output instruction\"; SPV_ARM_graph (rev 3 too) says OpGraphSetOutputARM \"must \
              immediately precede an OpGraphEndARM or OpGraphSetOutputARM instruction\" with no exception for \
              non-semantic instructions; SPIRV-Tools v2026.3 (#6666) accepts it; an open spec question (the in-tree \
              validator accepts)",
        finding: "corpus/findings/spirv-val-rejects-debug-info-between-outputs.spv",
        message: None,
        features: &[Feature::DebugInfoInGraph],
        owner: Owner::SpirvRegistry,
        status: Status::SpecAmbiguity,
        upstream: Some("KhronosGroup/SPIRV-Tools#6666"),
    },
    KnownDiscrepancy {
        kind: "rejects-valid",
        rule: Some(RuleId::ImportsVersion),
        operator: None,
        mutator: None,
        why: concat!("an import of Arm.ExperimentalMLOperations.1", ": ", "version 1 of the set exists (SPIRV-Headers' extinst.arm.experimental-ml-operations.grammar.json, revision 1); \
              2025.5 does not know the set: \"Invalid extended instruction import\""),
        finding: "corpus/findings/spirv-val-rejects-arm-ml-operations-import.spv",
        message: None,
        features: &[],
        owner: Owner::SpirvTools,
        status: Status::Fixed { version: "SPIRV-Tools v2026.3 (#6692, b38c4f8)" },
        upstream: Some("KhronosGroup/SPIRV-Tools#6692"),
    },
];

/// Every documented discrepancy of the pinned spirv-val, both tables: the
/// spirv-val adapter's [`crate::oracle::Oracle::known_discrepancies`].
pub fn spirv_val_documented() -> &'static [KnownDiscrepancy] {
    static ALL: std::sync::OnceLock<Vec<KnownDiscrepancy>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| SPIRV_VAL_KNOWN.iter().chain(SPIRV_VAL_REJECTS_VALID).copied().collect())
}

/// Near-valid and valid modules on which the `sdk` channel's spirv-val
/// (SPIRV-Tools v2026.3 as tagged for the Vulkan SDK 1.4.357.0, which
/// spirv-adapter-model-explorer 0.2.0 vendors: `spirv-val@sdk`) differs from
/// what the catalogue's `spirv_val_sdk` flags say. Each row of
/// [`SPIRV_VAL_KNOWN`] and [`SPIRV_VAL_REJECTS_VALID`] it still shows has its
/// row here, naming the same finding; `oracle/tests/it/near_valid_spirv_val.rs`
/// checks, finding by finding, that the library shows exactly those.
pub const SPIRV_VAL_SDK_KNOWN: &[KnownDiscrepancy] = &[
    // Still there from 2025.5 (UNSHAPED_REPLICATE is fixed, and so are the
    // three valid forms 2025.5 rejects).
    DUPLICATE_INPUT_INDEX_AFTER_ELEMENTS,
    CONCAT_WITHOUT_INPUTS,
    STRING_PADDING_NOT_ZERO,
    STRING_NOT_UTF8,
    OUT_OF_BOUNDS_ARRAY,
    TENSOR_OPERANDS_WITHOUT_VULKAN_MEMORY_MODEL,
    // New with the NonSemantic.Graph.DebugInfo validation of v2026.3, as main.
    WRAPPED_DEBUG_INFO_VERSION,
    WRAPPED_ARM_ML_OPERATIONS_VERSION,
    DEBUG_TENSOR_INDEX_PAST_MEMBERS,
    KnownDiscrepancy {
        kind: "stricter",
        rule: Some(RuleId::DebugInfoInstruction),
        operator: None,
        mutator: Some("wrong-operand-count"),
        why: "debuginfo.instruction covers both an unknown instruction number, which v2026.3 reads as ignorable \
              (as SPV_KHR_non_semantic_info lets a consumer) and so accepts, and a known instruction with the wrong \
              operand count, which it rejects, rightly; the catalogue's one flag per rule (`spirv_val_sdk`, \
              measured on an unknown number) cannot say both",
        finding: "corpus/invalid/debuginfo.instruction.1.spv",
        message: None,
        features: &[],
        owner: Owner::Spvgraph,
        status: Status::NotABug,
        upstream: None,
    },
];

/// Whether the `sdk` channel's spirv-val still shows documented discrepancy
/// `k` of another release's table: whether [`SPIRV_VAL_SDK_KNOWN`] has a row
/// for the same finding and mutator (`oracle/tests/it/near_valid_spirv_val.rs`
/// runs the library on each finding to check that this is what it does).
pub fn sdk_still_shows(k: &KnownDiscrepancy) -> bool {
    SPIRV_VAL_SDK_KNOWN.iter().any(|s| s.finding == k.finding && s.mutator == k.mutator && s.kind == k.kind)
}
