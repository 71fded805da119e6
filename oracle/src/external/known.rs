//! The documented table of real spirv-val discrepancies: near-valid modules
//! on which spirv-val's verdict differs from what the rule catalogue says
//! it checks (`RuleInfo::spirv_val_checks`), each with a minimal module in
//! `corpus/findings/`. The differential test, the `graph_validator` fuzz
//! target and `spvgraph hunt` all consult this one table, so a known
//! discrepancy is reported as known rather than as a new finding.

use crate::oracle::KnownDiscrepancy;
use spvgraph_ir::rules::RuleId;

/// Every documented discrepancy (SPIRV-Tools 2025.5): the spirv-val
/// adapter's [`crate::oracle::Oracle::known_discrepancies`].
pub const SPIRV_VAL_DOCUMENTED: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        kind: "misses-rule",
        rule: Some(RuleId::GraphInputDuplicateIndex),
        operator: None,
        mutator: Some("whole-array-read-after-elements"),
        why: "the duplicate-InputIndex check misses a read without ElementIndex that follows reads with one \
          (the reverse order is rejected)",
        finding: "corpus/findings/spirv-val-duplicate-input-index-after-elements.spv",
    },
    KnownDiscrepancy {
        kind: "misses-rule",
        rule: Some(RuleId::ConstantsTensorUnshaped),
        operator: None,
        mutator: Some("unshaped-replicate"),
        why: "OpConstantCompositeReplicateEXT is not validated at all in 2025.5, so an unshaped tensor Result Type \
          passes (OpConstantNull and OpConstantComposite of the same type are rejected)",
        finding: "corpus/findings/spirv-val-unshaped-replicate-constant.spv",
    },
    KnownDiscrepancy {
        kind: "misses-rule",
        rule: Some(RuleId::TosaOperandCount),
        operator: None,
        mutator: Some("concat-without-inputs"),
        why: "the TOSA.001000.1 grammar gives CONCAT's inputs the quantifier * (zero or more), so a CONCAT with only \
              its axis passes; TOSA needs at least one input",
        finding: "corpus/findings/spirv-val-concat-without-inputs.spv",
    },
    KnownDiscrepancy {
        kind: "misses-rule",
        rule: Some(RuleId::BinaryOperands),
        operator: None,
        mutator: Some("string-padding-not-zero"),
        why: "the bytes after the nul of a literal string are not checked to be 0",
        finding: "corpus/findings/spirv-val-accepts-string-padding-not-zero.spv",
    },
    KnownDiscrepancy {
        kind: "misses-rule",
        rule: Some(RuleId::BinaryOperands),
        operator: None,
        mutator: Some("string-not-utf8"),
        why: "literal strings are not checked to be UTF-8",
        finding: "corpus/findings/spirv-val-accepts-string-not-utf8.spv",
    },
];

/// The documented discrepancy for modules of `rule` made by `mutator`, if any.
pub fn known_spirv_val_discrepancy(rule: RuleId, mutator: &str) -> Option<&'static KnownDiscrepancy> {
    SPIRV_VAL_DOCUMENTED.iter().find(|k| k.rule == Some(rule) && k.mutator == Some(mutator))
}

/// Whether a documented discrepancy is spirv-val accepting a module it should reject.
pub fn spirv_val_accepts(k: &KnownDiscrepancy) -> bool {
    k.kind == "misses-rule"
}
