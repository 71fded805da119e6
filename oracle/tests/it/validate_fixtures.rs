//! The validator on the hand-written and model-converter fixtures of
//! `ir/tests/fixtures` (built at test time with `build.sh`), and its
//! agreement with spirv-val on them.
//!
//! Every expectation that is not "valid, and spirv-val agrees" is listed
//! below with the reason, so a change in either validator shows up here.

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
use spvgraph_oracle::validate::{Report, Validator};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Builds the fixtures once per test process; `None` (skip) when a tool is missing.
fn fixtures() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("oracle-fixtures");
        spvgraph_testkit::build_fixtures(&out).map(|()| out)
    })
    .as_deref()
}

fn load(path: &Path) -> Module {
    Module::decode_bytes(&std::fs::read(path).expect("read fixture")).expect("fixtures decode")
}

fn validate(env: &str, path: &Path) -> Report {
    check_env(env, &load(path))
}

/// The fixtures in `dir` with extension `.spv`, sorted.
fn spv_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    v.sort();
    v
}

fn stem(p: &Path) -> String {
    p.file_name().and_then(|n| n.to_str()).unwrap_or("").trim_end_matches(".spv").to_string()
}

/// What the in-tree validator reports on each spvasm fixture under
/// vulkan1.3, as (fixture, rule, count), where it is not simply "valid".
const SPVASM_EXPECTED: &[(&str, RuleId, usize)] = &[
    // The `invalid_*` fixtures each break one structural rule; spirv-val agrees.
    ("invalid_duplicate_graph_constant_id", RuleId::ConstantsGraphConstantDuplicateId, 1),
    ("invalid_duplicate_input_index", RuleId::GraphInputDuplicateIndex, 1),
    ("invalid_input_after_body", RuleId::LayoutGraphInputPosition, 1),
    ("invalid_instruction_in_graph_body", RuleId::LayoutGraphBodyInstruction, 1),
    ("invalid_interface_count_mismatch", RuleId::GraphEntryPointInterfaceCount, 1),
    ("invalid_interface_type_mismatch", RuleId::GraphEntryPointInterfaceType, 1),
    ("invalid_missing_set_output", RuleId::GraphOutputMissing, 1),
    ("invalid_no_graph_entry_point", RuleId::GraphEntryPointMissing, 1),
    ("invalid_opline_in_graph", RuleId::LayoutGraphBodyInstruction, 1),
    ("invalid_runtime_array_interface", RuleId::VulkanRuntimeArrayVariable, 1),
    ("invalid_tensor_constant_shape", RuleId::ConstantsTensorCount, 1),
    ("invalid_zero_shape_entry", RuleId::TypesTensorShapeZero, 1),
    // SPV_ARM_graph revision 3 rule that spirv-val 2025.5 does not check yet.
    ("duplicate_entry_point_name", RuleId::GraphEntryPointDuplicateName, 1),
    // TOSA RESCALE ERROR_IFs the fixture breaks (the MLIR TOSA verifier
    // rejects the same combinations): i16->i8 with both flags unsigned,
    // i32 input with output_unsigned (twice).
    ("rescale", RuleId::TosaRescaleUnsigned, 3),
    // i32 -> i16 RESCALE with output_unsigned.
    ("int16_i48", RuleId::TosaRescaleUnsigned, 1),
    // DebugTensor with an Index on a plain tensor: Index is for composites
    // whose constituents are tensors (NonSemantic.Graph.DebugInfo DebugTensor).
    ("debug_info", RuleId::DebugInfoTensor, 1),
];

/// spvasm fixtures where spirv-val 2025.5 and the in-tree validator differ
/// (both under vulkan1.3), with the reason.
const SPVASM_DISAGREE: &[(&str, &str)] = &[
    ("duplicate_entry_point_name", "unique entry-point names came with SPV_ARM_graph revision 3"),
    (
        "debuginfo_after_graph_end",
        "non-semantic instructions anywhere in the graph section came with SPIRV-Tools v2026.3 (#6666)",
    ),
    ("rescale", "spirv-val does not check TOSA semantics"),
    ("int16_i48", "spirv-val does not check TOSA semantics"),
    ("tosa_semantic_errors", "spirv-val does not check TOSA semantics"),
    ("debug_info", "spirv-val does not check NonSemantic.Graph.DebugInfo operands"),
];

#[test]
fn spvasm_fixtures_report_what_is_expected() {
    let Some(dir) = fixtures() else { return };
    let mut failures = Vec::new();
    for path in spv_files(&dir.join("spvasm")) {
        let name = stem(&path);
        let r = validate("vulkan1.3", &path);
        if name == "tosa_semantic_errors" {
            continue;
        }
        let mut expected: Vec<(RuleId, usize)> =
            SPVASM_EXPECTED.iter().filter(|(n, ..)| *n == name).map(|(_, r, c)| (*r, *c)).collect();
        expected.sort();
        let mut got: Vec<(RuleId, usize)> =
            errors(&r).into_iter().map(|rule| (rule, r.errors().filter(|f| f.rule == rule).count())).collect();
        got.sort();
        if got != expected {
            failures.push(format!("{name}: expected {expected:?}\n{}", show(&r)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_tosa_instruction_of_the_tosa_error_fixture_is_rejected() {
    let Some(dir) = fixtures() else { return };
    let path = dir.join("spvasm/tosa_semantic_errors.spv");
    let m = load(&path);
    let r = check(&m);
    let offsets = m.word_offsets();
    for (i, inst) in m.insts.iter().enumerate() {
        if matches!(inst, spvgraph_ir::Inst::Tosa { .. }) {
            let flagged = r.errors().any(|f| f.word_offset == offsets.get(i).copied());
            assert!(flagged, "instruction {i} ({inst:?}) has no error:\n{}", show(&r));
        }
    }
    // spirv-val accepts it: TOSA semantics are only checked in-tree.
    for rule in errors(&r) {
        assert!(!rule.info().spirv_val_checks || rule == RuleId::TosaOperandCount, "{rule}");
    }
}

#[test]
fn vulkan_only_rules_do_not_apply_to_universal_environments() {
    let Some(dir) = fixtures() else { return };
    for name in ["tensor_types", "tensor_array_interface"] {
        let r = validate("spv1.6", &dir.join(format!("spvasm/{name}.spv")));
        assert!(r.is_valid(), "{name} under spv1.6:\n{}", show(&r));
    }
    let r = validate("spv1.6", &dir.join("spvasm/invalid_runtime_array_interface.spv"));
    assert!(r.is_valid(), "runtime-array interfaces are legal outside Vulkan:\n{}", show(&r));
}

/// Graph entry points whose Vulkan data-graph pipeline the pipeline rules
/// refuse: (fixture, entry point, rule). Their modules are valid.
const PIPELINE_REFUSED: &[(&str, &str, RuleId)] = &[
    ("tensor_types", "mixed_ranks", RuleId::VulkanInterfaceShaped),
    ("tensor_array_interface", "swap_unshaped", RuleId::VulkanInterfaceShaped),
];

#[test]
fn pipeline_rules_refuse_only_unshaped_entry_points() {
    let Some(dir) = fixtures() else { return };
    let v = Validator::new(ValidateOptions::default());
    let mut failures = Vec::new();
    for path in spv_files(&dir.join("spvasm")).into_iter().chain(spv_files(&dir.join("mlir"))) {
        let name = stem(&path);
        for (entry, findings) in v.pipeline_rules_by_entry_point(&load(&path)) {
            let mut got: Vec<RuleId> = findings.iter().map(|f| f.rule).collect();
            got.dedup();
            let expected: Vec<RuleId> =
                PIPELINE_REFUSED.iter().filter(|(n, e, _)| *n == name && *e == entry).map(|(.., r)| *r).collect();
            if got != expected {
                failures.push(format!("{name} @{entry}: pipeline rules {got:?}, expected {expected:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn model_converter_fixtures_are_valid_but_opline_in_graph_bodies() {
    let Some(dir) = fixtures() else { return };
    let mut seen = 0;
    for path in spv_files(&dir.join("mlir")) {
        let name = stem(&path);
        let r = validate("vulkan1.3", &path);
        if !name.ends_with(".debug") {
            assert!(r.is_valid() && r.findings.is_empty(), "{name}:\n{}", show(&r));
            continue;
        }
        seen += 1;
        // Its debug information after OpGraphEndARM is valid; but the
        // converter also puts OpLine before OpCompositeExtract in graph
        // bodies, which a graph body cannot hold (SPIRV-Tools main rejects
        // it too: "OpLine cannot appear in the graph definitions section").
        let with_extract = load(&path).insts.iter().any(|i| matches!(i, spvgraph_ir::Inst::CompositeExtract { .. }));
        let expected = if with_extract { vec![RuleId::LayoutGraphBodyInstruction] } else { Vec::new() };
        assert_eq!(errors(&r), expected, "{name}:\n{}", show(&r));
        for f in r.errors() {
            assert!(f.instruction.as_deref().is_some_and(|i| i.starts_with("OpLine")), "{name}: {f:?}");
        }
    }
    assert_eq!(seen, 9, "nine model-converter fixtures with debug info");
}

#[test]
fn spirv_val_agrees_except_where_documented() {
    let Some(dir) = fixtures() else { return };
    let sv = SpirvVal::discover();
    if let Err(e) = sv.available() {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
        eprintln!("skipping: {e}");
        return;
    }
    let opts = ValidateOptions::default();
    let v = Validator::new(opts.clone());
    let mut failures = Vec::new();
    let files = ["spvasm", "mlir"].into_iter().flat_map(|d| spv_files(&dir.join(d)).into_iter().map(move |p| (d, p)));
    for (sub, path) in files {
        let name = format!("{sub}/{}", stem(&path));
        let module = load(&path);
        let words = words(&module);
        let ours = v.check_words(&words);
        let theirs = sv.validate(&words, &opts).expect("spirv-val runs");
        // model-converter's debug variants put their debug information after
        // OpGraphEndARM: valid, rejected by 2025.5 (external::spirv_val::known::
        // SPIRV_VAL_REJECTS_VALID), unless OpLine in a graph body (those with
        // OpCompositeExtract) makes both reject them.
        let debug_after_graph = sub == "mlir"
            && name.ends_with(".debug")
            && !module.insts.iter().any(|i| matches!(i, spvgraph_ir::Inst::CompositeExtract { .. }));
        let documented = debug_after_graph
            || (sub == "spvasm" && SPVASM_DISAGREE.iter().any(|(n, _)| format!("spvasm/{n}") == name));
        let agree = ours.is_valid() == theirs.is_valid();
        if agree == documented {
            failures.push(format!(
                "{name}: in-tree {}, spirv-val {:?} ({})",
                if ours.is_valid() { "valid" } else { "invalid" },
                theirs,
                if documented { "documented as a disagreement" } else { "not documented" }
            ));
        }
        // Where both reject, spirv-val's first message maps to a rule we report.
        if let spvgraph_oracle::oracle::Verdict::Invalid(d) = &theirs {
            let mapped = d.first().and_then(|d| d.rule);
            if let (Some(rule), false) = (mapped, ours.is_valid()) {
                if !ours.rules().contains(&rule) {
                    failures.push(format!("{name}: spirv-val's {rule} is not among ours:\n{}", show(&ours)));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
