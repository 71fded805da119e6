//! The documented tables of real spirv-val discrepancies, each row with a
//! minimal module in `corpus/findings/`:
//!
//! - [`SPIRV_VAL_KNOWN`]: near-valid modules on which spirv-val 2025.5 (the
//!   pinned release) differs from what the rule catalogue says it checks
//!   (`RuleInfo::spirv_val_checks`). The differential test, the
//!   `graph_validator` fuzz target and `spvgraph hunt` all consult this one
//!   table, so a known discrepancy is reported as known rather than as a
//!   new finding. `fixed_in_main` says where SPIRV-Tools main no longer has it.
//! - [`SPIRV_VAL_REJECTS_VALID`]: valid modules (accepted by the in-tree
//!   validator and SPIRV-Tools main) that spirv-val 2025.5 rejects, because
//!   the specifications or SPIRV-Tools moved after it.
//! - [`SPIRV_VAL_MAIN_KNOWN`]: near-valid modules on which SPIRV-Tools main
//!   differs from the catalogue's `spirv_val_main` flag (not run by the
//!   differential tests, which use the pinned release).

use spvgraph_ir::rules::RuleId;

/// One documented discrepancy: near-valid modules of `rule` made by the
/// mutator `mutator` on which spirv-val's verdict is not the catalogue's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownDiscrepancy {
    /// The rule broken.
    pub rule: RuleId,
    /// The mutator name (`spvgraph_generator::near_valid::Mutator::name`).
    pub mutator: &'static str,
    /// Whether spirv-val accepts the module (it misses the break) rather
    /// than rejecting one the catalogue says it does not check.
    pub spirv_val_accepts: bool,
    /// What spirv-val does and why that is wrong or merely different.
    pub why: &'static str,
    /// The minimal module, relative to the repository root.
    pub finding: &'static str,
    /// The SPIRV-Tools change after 2025.5 that removed the discrepancy, if any.
    pub fixed_in_main: Option<&'static str>,
}

/// Every documented discrepancy (SPIRV-Tools 2025.5).
pub const SPIRV_VAL_KNOWN: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        rule: RuleId::GraphInputDuplicateIndex,
        mutator: "whole-array-read-after-elements",
        spirv_val_accepts: true,
        why: "the duplicate-InputIndex check misses a read without ElementIndex that follows reads with one \
          (the reverse order is rejected)",
        finding: "corpus/findings/spirv-val-duplicate-input-index-after-elements.spv",
        fixed_in_main: None,
    },
    KnownDiscrepancy {
        rule: RuleId::ConstantsTensorUnshaped,
        mutator: "unshaped-replicate",
        spirv_val_accepts: true,
        why: "OpConstantCompositeReplicateEXT is not validated at all in 2025.5, so an unshaped tensor Result Type \
          passes (OpConstantNull and OpConstantComposite of the same type are rejected)",
        finding: "corpus/findings/spirv-val-unshaped-replicate-constant.spv",
        fixed_in_main: Some("SPIRV-Tools v2026.2, #6583 (c75e349): OpConstantCompositeReplicateEXT validated"),
    },
    KnownDiscrepancy {
        rule: RuleId::TosaOperandCount,
        mutator: "concat-without-inputs",
        spirv_val_accepts: true,
        why: "the TOSA.001000.1 grammar gives CONCAT's inputs the quantifier * (zero or more), so a CONCAT with only \
              its axis passes; TOSA needs at least one input",
        finding: "corpus/findings/spirv-val-concat-without-inputs.spv",
        fixed_in_main: None,
    },
    KnownDiscrepancy {
        rule: RuleId::BinaryOperands,
        mutator: "string-padding-not-zero",
        spirv_val_accepts: true,
        why: "the bytes after the nul of a literal string are not checked to be 0",
        finding: "corpus/findings/spirv-val-accepts-string-padding-not-zero.spv",
        fixed_in_main: None,
    },
    KnownDiscrepancy {
        rule: RuleId::BinaryOperands,
        mutator: "string-not-utf8",
        spirv_val_accepts: true,
        why: "literal strings are not checked to be UTF-8",
        finding: "corpus/findings/spirv-val-accepts-string-not-utf8.spv",
        fixed_in_main: None,
    },
];

/// The documented discrepancy for modules of `rule` made by `mutator`, if any.
pub fn known_spirv_val_discrepancy(rule: RuleId, mutator: &str) -> Option<&'static KnownDiscrepancy> {
    SPIRV_VAL_KNOWN.iter().find(|k| k.rule == rule && k.mutator == mutator)
}

/// Documented discrepancies of SPIRV-Tools main (`spirv_val_main` is the
/// catalogue's flag here; `fixed_in_main` is always `None`).
pub const SPIRV_VAL_MAIN_KNOWN: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        rule: RuleId::DebugInfoVersion,
        mutator: "bad-import-version",
        spirv_val_accepts: true,
        why: "the version is read with strtoul and truncated to 32 bits: \"4294967297\" and \"-4294967295\" are taken \
              for version 1, and a sign or leading spaces are accepted (\"+1\", \" 1\"); other bad versions are rejected",
        finding: "corpus/findings/spirv-val-main-accepts-wrapped-import-version.spv",
        fixed_in_main: None,
    },
    KnownDiscrepancy {
        rule: RuleId::ImportsVersion,
        mutator: "arm-ml-operations-version",
        spirv_val_accepts: true,
        why: "Arm.ExperimentalMLOperations versions are read the same way as NonSemantic.Graph.DebugInfo ones: \
              \"4294967297\", \"+1\" and \" 1\" are taken for version 1",
        finding: "corpus/findings/spirv-val-main-accepts-wrapped-import-version.spv",
        fixed_in_main: None,
    },
];

/// A valid module that spirv-val 2025.5 rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownValidRejection {
    /// What the module has.
    pub what: &'static str,
    /// The rule of the catalogue that allows it (and that 2025.5 reads more strictly).
    pub rule: RuleId,
    /// Why it is valid, and what 2025.5 says.
    pub why: &'static str,
    /// The module, relative to the repository root.
    pub finding: &'static str,
    /// The SPIRV-Tools change after 2025.5 that accepts it.
    pub fixed_in_main: &'static str,
}

/// Valid modules that spirv-val 2025.5 rejects and SPIRV-Tools main accepts.
pub const SPIRV_VAL_REJECTS_VALID: &[KnownValidRejection] = &[
    KnownValidRejection {
        what: "NonSemantic.Graph.DebugInfo instructions after OpGraphEndARM (model-converter --emit-debug-info)",
        rule: RuleId::LayoutGraphSectionOutsideGraph,
        why: "non-semantic instructions may stand anywhere from the types section on (SPV_KHR_non_semantic_info), the \
              graph section included; 2025.5 says \"OpExtInst must appear in a graph body\"",
        finding: "corpus/findings/spirv-val-rejects-debug-info-after-graph.spv",
        fixed_in_main: "SPIRV-Tools v2026.3, #6666 (83876d9)",
    },
    KnownValidRejection {
        what: "a NonSemantic.Graph.DebugInfo instruction between two OpGraphInputARM",
        rule: RuleId::LayoutGraphInputPosition,
        why: "non-semantic instructions do not count for \"immediately follows\"; 2025.5 says \"OpGraphInputARM must \
              immediately follow an OpGraphARM or OpGraphInputARM instruction\"",
        finding: "corpus/findings/spirv-val-rejects-debug-info-between-inputs.spv",
        fixed_in_main: "SPIRV-Tools v2026.3, #6666 (83876d9)",
    },
    KnownValidRejection {
        what: "a NonSemantic.Graph.DebugInfo instruction between two OpGraphSetOutputARM",
        rule: RuleId::LayoutGraphOutputPosition,
        why: "non-semantic instructions do not count for \"immediately precedes\"; 2025.5 says \"ExtInst cannot appear \
              after a graph output instruction\"",
        finding: "corpus/findings/spirv-val-rejects-debug-info-between-outputs.spv",
        fixed_in_main: "SPIRV-Tools v2026.3, #6666 (83876d9)",
    },
    KnownValidRejection {
        what: "an import of Arm.ExperimentalMLOperations.1",
        rule: RuleId::ImportsVersion,
        why: "version 1 of the set exists (SPIRV-Headers' extinst.arm.experimental-ml-operations.grammar.json, revision 1); \
              2025.5 does not know the set: \"Invalid extended instruction import\"",
        finding: "corpus/findings/spirv-val-rejects-arm-ml-operations-import.spv",
        fixed_in_main: "SPIRV-Tools v2026.3, #6692 (b38c4f8)",
    },
];
