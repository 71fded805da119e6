//! Agreement with the ecosystem on module validity (issue 13): for each
//! point where the in-tree validator used to disagree with SPIRV-Tools'
//! current behaviour and the newest specifications, a module that must be
//! accepted (a relaxed rule) and one that must be rejected (a new or kept
//! rule), checked with the in-tree validator; with the pinned spirv-val
//! (2025.5) wherever its verdict is known (it agrees, or the disagreement is
//! documented in `external::spirv_val::known`); and, when `SPVGRAPH_SPIRV_VAL_MAIN`
//! names a spirv-val of SPIRV-Tools main, with that too (it must agree with
//! the in-tree validator on every case here).
//!
//! 1. Pipeline-creation rules (VUID-RuntimeSpirv-pNext-09919/09920) are not
//!    module validity: unshaped graph interfaces and graph constants are
//!    valid under `vulkan1.3`; only a pipeline for an entry point using them
//!    is refused, and only when asked for.
//! 2. VUID-StandaloneSpirv-OpTypeRuntimeArray-04680 lets a graph interface
//!    be a runtime array of tensors (with RuntimeDescriptorArray), and
//!    OpCompositeExtract may index such an input.
//! 3. Non-semantic instructions may stand anywhere in the graph section:
//!    between inputs, between outputs, before and after graph definitions.
//! 5. Versioned imports: TOSA.001000.1, NonSemantic.Graph.DebugInfo.<n>,
//!    Arm.ExperimentalMLOperations.<n>.
//! 6. Provenance: each changed rule records what it follows.

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType::{Fp32, I8};
use spvgraph_ir::inst::{GraphDebugInst, Id, Inst};
use spvgraph_ir::rules::{RuleId, Severity};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::known::{SPIRV_VAL_MAIN_KNOWN, SPIRV_VAL_REJECTS_VALID};
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::tools::Tool;
use spvgraph_oracle::validate::{PipelineError, Validator};
use std::path::{Path, PathBuf};

/// What the pinned spirv-val (2025.5) says of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pinned {
    /// It accepts the module.
    Accepts,
    /// It rejects the module.
    Rejects,
}

/// One case: the module, the in-tree verdict (`None`: valid; else the one
/// must-reject rule), and the pinned spirv-val's known verdict.
struct Case {
    name: &'static str,
    module: Module,
    rule: Option<RuleId>,
    pinned: Pinned,
}

fn case(name: &'static str, module: Module, rule: Option<RuleId>, pinned: Pinned) -> Case {
    Case { name, module, rule, pinned }
}

/// The pinned spirv-val, or `None` (with a notice) when it is missing
/// outside CI.
fn pinned() -> Option<SpirvVal> {
    tool(Tool::LibSpirvTools).or_else(|| tool(Tool::SpirvVal))?;
    spvgraph_testkit::oracle(SpirvVal::discover())
}

/// A spirv-val of SPIRV-Tools main, when `SPVGRAPH_SPIRV_VAL_MAIN` names one
/// (`ci/setup-oracles` does not provide it).
fn main_spirv_val() -> Option<SpirvVal> {
    match std::env::var_os("SPVGRAPH_SPIRV_VAL_MAIN") {
        Some(p) => Some(SpirvVal::process_only(PathBuf::from(p))),
        None => {
            eprintln!("skipping: SPIRV-Tools main verdicts (set SPVGRAPH_SPIRV_VAL_MAIN to a spirv-val of it)");
            None
        }
    }
}

/// Checks every case with the in-tree validator, the pinned spirv-val and
/// (when available) SPIRV-Tools main.
fn run(cases: Vec<Case>) {
    let validator = Validator::new(ValidateOptions::default());
    let (sv, main) = (pinned(), main_spirv_val());
    let mut wrong = Vec::new();
    for c in cases {
        let report = validator.check(&c.module);
        let got = errors(&report);
        let expected: Vec<RuleId> = c.rule.into_iter().collect();
        if got != expected {
            wrong.push(format!("{}: in-tree reports {got:?}, expected {expected:?}\n{}", c.name, show(&report)));
        }
        let words = words(&c.module);
        let opts = ValidateOptions::default();
        if let Some(sv) = &sv {
            let v = sv.validate(&words, &opts).expect("spirv-val runs");
            let said = if v.is_valid() { Pinned::Accepts } else { Pinned::Rejects };
            if said != c.pinned {
                wrong.push(format!("{}: spirv-val 2025.5 {said:?} (documented: {:?}): {v:?}", c.name, c.pinned));
            }
        }
        if let Some(main) = &main {
            let v = main.validate(&words, &opts).expect("spirv-val main runs");
            if v.is_valid() != c.rule.is_none() {
                wrong.push(format!("{}: SPIRV-Tools main disagrees with the in-tree validator: {v:?}", c.name));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---- modules ---------------------------------------------------------------------

/// ABS of one fp32 input whose type is `input` (made by `ty`), into a
/// [2, 4] output; the graph's entry point is "main".
fn abs_of(ty: impl FnOnce(&mut ModuleBuilder) -> Id) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp32, Some(&[2, 4]));
    let input = ty(&mut b);
    graph(&mut b, &[input], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
    b.finish()
}

/// ADD of the [2, 4] input and a graph constant of type `constant` (or, if
/// `used` is false, the input twice, the constant unused).
fn add_graph_constant(constant: impl FnOnce(&mut ModuleBuilder) -> Id, used: bool) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp32, Some(&[2, 4]));
    let cty = constant(&mut b);
    let gc = b.graph_constant(cty, 0);
    graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Add, t, vec![xs[0], if used { gc } else { xs[0] }])]);
    b.finish()
}

/// A graph reading element 1 of an input that is a runtime array of i8
/// [4] tensors (`extract`: by OpCompositeExtract of the whole input; else
/// by ElementIndex), with RuntimeDescriptorArray declared or not.
fn runtime_array_input(extract: bool, capability: bool, result_type_ok: bool) -> Module {
    let mut b = ModuleBuilder::new();
    if capability {
        b.capability(spirv::Capability::RuntimeDescriptorArray);
    }
    let t = b.type_tensor(I8, Some(&[4]));
    let other = b.type_tensor(I8, Some(&[2, 2]));
    // Made a runtime array below (the builder declares fixed arrays only).
    let arr = b.type_array(t, 3);
    // A wrong Result Type is also the graph's output type, so only the
    // extract is wrong.
    let out = if result_type_ok { t } else { other };
    let gty = b.type_graph(&[arr], &[out]);
    let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(out, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = if extract {
        let whole = b.graph_input(arr, 0, None);
        b.composite_extract(if result_type_ok { t } else { other }, whole, 1)
    } else {
        b.graph_input(t, 0, Some(1))
    };
    b.graph_output(x, 0, None);
    b.end_graph();
    let mut m = b.finish();
    let at = find(&m, |i| matches!(i, Inst::TypeArray { element, .. } if *element == t));
    let result = m.insts[at].result_id().expect("array id");
    m.insts[at] = Inst::TypeRuntimeArray { result, element: t };
    m
}

/// Where a non-semantic instruction goes.
#[derive(Clone, Copy)]
enum Place {
    /// Right after OpGraphARM, before the inputs.
    BeforeInputs,
    /// Between the two OpGraphInputARM.
    BetweenInputs,
    /// Between the two OpGraphSetOutputARM.
    BetweenOutputs,
    /// After OpGraphEndARM (where model-converter writes it).
    AfterGraph,
    /// Between the graph entry point and OpGraphARM.
    BeforeGraph,
}

/// ADD(a, b) and ABS(a) of two [2, 4] inputs into two outputs, with one
/// non-semantic instruction at `place`: a DebugTensor
/// (NonSemantic.Graph.DebugInfo) of the first input, or, before the inputs,
/// of a null tensor constant (no forward reference); or an instruction of a
/// generic non-semantic set (`generic`).
fn with_non_semantic(place: Place, generic: bool) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp32, Some(&[2, 4]));
    let void = b.type_void();
    let name = b.string("a");
    let set = if generic {
        b.extension("SPV_KHR_non_semantic_info");
        b.import("NonSemantic.Vendor.Annotations.1")
    } else {
        b.graph_debug_set()
    };
    let zero = b.const_null(t);
    graph(&mut b, &[t, t], &[t, t], |b, xs| {
        let sum = b.tosa(TosaOp::Add, t, vec![xs[0], xs[1]]);
        vec![sum, b.tosa(TosaOp::Abs, t, vec![xs[0]])]
    });
    let mut m = b.finish();
    let tensor = match place {
        Place::BeforeInputs | Place::BeforeGraph => zero,
        _ => id_of_input(&m, 0),
    };
    let result = fresh(&mut m);
    let inst = if generic {
        Inst::ExtInst { ty: void, result, set, number: 1, operands: vec![name.0] }
    } else {
        Inst::GraphDebug { ty: void, result, set, inst: GraphDebugInst::Tensor { tensor, name, index: None } }
    };
    let at = match place {
        Place::BeforeInputs => find(&m, |i| matches!(i, Inst::Graph { .. })) + 1,
        Place::BetweenInputs => find(&m, |i| matches!(i, Inst::GraphInput { .. })) + 1,
        Place::BetweenOutputs => find(&m, |i| matches!(i, Inst::GraphSetOutput { .. })) + 1,
        Place::AfterGraph => m.insts.len(),
        Place::BeforeGraph => find(&m, |i| matches!(i, Inst::Graph { .. })),
    };
    m.insts.insert(at, inst);
    m
}

/// The result of the OpGraphInputARM with InputIndex `k` (in module order).
fn id_of_input(m: &Module, k: usize) -> Id {
    m.insts.iter().filter(|i| matches!(i, Inst::GraphInput { .. })).nth(k).and_then(Inst::result_id).expect("input")
}

/// `abs2`-like module whose TOSA import is named `name`.
fn tosa_imported_as(name: &str) -> Module {
    let mut m = abs_of(|b| b.type_tensor(Fp32, Some(&[2, 4])));
    let at = find(&m, |i| matches!(i, Inst::ExtInstImport { name, .. } if name == "TOSA.001000.1"));
    if let Inst::ExtInstImport { name: n, .. } = &mut m.insts[at] {
        *n = name.to_string();
    }
    m
}

/// A valid graph module with one more (unused) import named `name`.
fn with_import(name: &str, non_semantic: bool) -> Module {
    let mut b = ModuleBuilder::new();
    if non_semantic {
        b.extension("SPV_KHR_non_semantic_info");
    }
    b.import(name);
    let t = b.type_tensor(Fp32, Some(&[2, 4]));
    graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
    b.finish()
}

// ---- 1. pipeline-creation rules ---------------------------------------------------

#[test]
fn pipeline_rules_are_not_module_validity() {
    use Pinned::*;
    let ranked = |b: &mut ModuleBuilder| b.type_tensor_ranked(Fp32, 2);
    let unranked = |b: &mut ModuleBuilder| b.type_tensor(Fp32, None);
    run(vec![
        case("ranked-only graph input under vulkan1.3", abs_of(ranked), None, Accepts),
        case("unranked graph input under vulkan1.3", abs_of(unranked), None, Accepts),
        case("ranked-only graph constant used by the graph", add_graph_constant(ranked, true), None, Accepts),
        case("unranked graph constant, unused", add_graph_constant(unranked, false), None, Accepts),
    ]);
}

#[test]
fn pipeline_rules_are_checked_per_entry_point_on_request() {
    let v = Validator::new(ValidateOptions::default());
    let rules = |m: &Module, entry: &str| -> Vec<RuleId> {
        let mut r: Vec<RuleId> =
            v.pipeline_rules(m, entry).expect("entry point exists").iter().map(|f| f.rule).collect();
        r.dedup();
        r
    };
    let ranked = |b: &mut ModuleBuilder| b.type_tensor_ranked(Fp32, 2);
    // Must be refused: an unshaped interface (09919), a used unshaped graph constant (09920).
    assert_eq!(rules(&abs_of(ranked), "main"), vec![RuleId::VulkanInterfaceShaped]);
    assert_eq!(rules(&add_graph_constant(ranked, true), "main"), vec![RuleId::VulkanGraphConstantShaped]);
    // Not refused: a graph constant the entry point's graph does not use.
    assert_eq!(rules(&add_graph_constant(ranked, false), "main"), Vec::<RuleId>::new());
    // Runtime arrays of shaped tensors are shaped interfaces.
    assert_eq!(rules(&runtime_array_input(true, true, true), "main"), Vec::<RuleId>::new());
    assert!(matches!(
        v.pipeline_rules(&abs_of(ranked), "other"),
        Err(PipelineError::NoSuchEntryPoint { available, .. }) if available == vec!["main".to_string()]
    ));
    // Asked for through the options: reported with their own severity, the verdict unchanged.
    let asked = Validator::new(ValidateOptions { pipeline: Some("main".into()), ..Default::default() });
    let report = asked.check(&abs_of(ranked));
    assert!(report.is_valid() && report.warnings().all(|f| !f.is_pipeline()));
    assert_eq!(report.pipeline_ok(), Some(false));
    assert!(report
        .pipeline_findings()
        .all(|f| f.severity == Severity::Pipeline && f.rule == RuleId::VulkanInterfaceShaped));
    // Not asked for: no pipeline finding at all.
    let plain = v.check(&abs_of(ranked));
    assert!(plain.findings.iter().all(|f| !f.is_pipeline()) && plain.pipeline_ok().is_none());
    // Every pipeline rule is a Vulkan runtime VUID, and none is a module rule.
    for rule in RuleId::ALL.iter().filter(|r| r.is_pipeline()) {
        assert!(rule.info().reference.contains("VUID-RuntimeSpirv-"), "{rule}");
        assert!(!rule.is_must_reject() && !rule.info().spirv_val_checks, "{rule}");
    }
}

// ---- 2. runtime arrays at the interface ---------------------------------------------

#[test]
fn runtime_array_interfaces() {
    use Pinned::*;
    run(vec![
        case("runtime-array input, OpCompositeExtract", runtime_array_input(true, true, true), None, Accepts),
        case("runtime-array input, ElementIndex", runtime_array_input(false, true, true), None, Accepts),
        case(
            "runtime-array input without RuntimeDescriptorArray",
            runtime_array_input(false, false, true),
            Some(RuleId::VulkanRuntimeArrayVariable),
            Rejects,
        ),
        case(
            "OpCompositeExtract of a runtime-array input with a wrong Result Type",
            runtime_array_input(true, true, false),
            Some(RuleId::GraphCompositeExtract),
            Rejects,
        ),
    ]);
}

// ---- 3. non-semantic instructions in graph bodies -------------------------------------

#[test]
fn non_semantic_instructions_anywhere_in_the_graph_section() {
    use Pinned::Rejects;
    // 2025.5 rejects all of these (SPIRV_VAL_REJECTS_VALID): non-semantic
    // instructions outside graph bodies, before or between inputs and
    // between outputs came with SPIRV-Tools v2026.3.
    run(vec![
        case("DebugTensor before the inputs", with_non_semantic(Place::BeforeInputs, false), None, Rejects),
        case("DebugTensor between inputs", with_non_semantic(Place::BetweenInputs, false), None, Rejects),
        case("DebugTensor between outputs", with_non_semantic(Place::BetweenOutputs, false), None, Rejects),
        case("DebugTensor after OpGraphEndARM", with_non_semantic(Place::AfterGraph, false), None, Rejects),
        case("DebugTensor before OpGraphARM", with_non_semantic(Place::BeforeGraph, false), None, Rejects),
        case("generic non-semantic set between inputs", with_non_semantic(Place::BetweenInputs, true), None, Rejects),
        case("generic non-semantic set between outputs", with_non_semantic(Place::BetweenOutputs, true), None, Rejects),
        case("generic non-semantic set after the graph", with_non_semantic(Place::AfterGraph, true), None, Rejects),
    ]);
    // Semantic instructions keep their places.
    let mut tosa_between_inputs = with_non_semantic(Place::BeforeInputs, false);
    let abs = find(&tosa_between_inputs, |i| matches!(i, Inst::Tosa { op: TosaOp::Abs, .. }));
    let copy = tosa_between_inputs.insts.remove(abs);
    let second_input = find(&tosa_between_inputs, |i| matches!(i, Inst::GraphInput { .. })) + 1;
    tosa_between_inputs.insts.insert(second_input, copy);
    let mut tosa_between_outputs = with_non_semantic(Place::BetweenOutputs, false);
    let add = find(&tosa_between_outputs, |i| matches!(i, Inst::Tosa { op: TosaOp::Add, .. }));
    let sum = tosa_between_outputs.insts.remove(add);
    let first_output = find(&tosa_between_outputs, |i| matches!(i, Inst::GraphSetOutput { .. }));
    let Inst::Tosa { ty, args, set, op, .. } = sum.clone() else { unreachable!() };
    let dead = fresh(&mut tosa_between_outputs);
    tosa_between_outputs.insts.insert(add, sum);
    tosa_between_outputs.insts.insert(first_output + 2, Inst::Tosa { ty, result: dead, set, op, args });
    let mut constant_after_graph = with_non_semantic(Place::AfterGraph, false);
    let t = find(&constant_after_graph, |i| matches!(i, Inst::TypeTensor { .. }));
    let ty = constant_after_graph.insts[t].result_id().expect("type");
    let result = fresh(&mut constant_after_graph);
    constant_after_graph.insts.push(Inst::ConstantNull { ty, result });
    run(vec![
        case("TOSA operation between inputs", tosa_between_inputs, Some(RuleId::LayoutGraphInputPosition), Rejects),
        case("TOSA operation between outputs", tosa_between_outputs, Some(RuleId::LayoutGraphOutputPosition), Rejects),
        case(
            "OpConstantNull after the graph",
            constant_after_graph,
            Some(RuleId::LayoutGraphSectionOutsideGraph),
            Rejects,
        ),
    ]);
}

// ---- 5. versioned imports ----------------------------------------------------------------

#[test]
fn versioned_imports() {
    use Pinned::*;
    let debug = |v: &str| with_import(&format!("NonSemantic.Graph.DebugInfo.{v}"), true);
    run(vec![
        case("TOSA.001000.2", tosa_imported_as("TOSA.001000.2"), Some(RuleId::ImportsVersion), Rejects),
        case("TOSA.001001.1", tosa_imported_as("TOSA.001001.1"), Some(RuleId::ImportsVersion), Rejects),
        case("Arm.ExperimentalMLOperations.1", with_import("Arm.ExperimentalMLOperations.1", false), None, Rejects),
        case(
            "Arm.ExperimentalMLOperations.2",
            with_import("Arm.ExperimentalMLOperations.2", false),
            Some(RuleId::ImportsVersion),
            Rejects,
        ),
        case(
            "Arm.ExperimentalMLOperations.",
            with_import("Arm.ExperimentalMLOperations.", false),
            Some(RuleId::ImportsVersion),
            Rejects,
        ),
        case("NonSemantic.Graph.DebugInfo.1", debug("1"), None, Accepts),
        case("NonSemantic.Graph.DebugInfo.01", debug("01"), None, Accepts),
        // 2025.5 checks no DebugInfo version.
        case("NonSemantic.Graph.DebugInfo.2", debug("2"), Some(RuleId::DebugInfoVersion), Accepts),
        case("NonSemantic.Graph.DebugInfo.0", debug("0"), Some(RuleId::DebugInfoVersion), Accepts),
        case("NonSemantic.Graph.DebugInfo.1a", debug("1a"), Some(RuleId::DebugInfoVersion), Accepts),
    ]);
}

#[test]
fn debug_info_requires_spv_arm_graph() {
    let mut m = with_import("NonSemantic.Graph.DebugInfo.1", true);
    // No graph left: only the import needs SPV_ARM_graph.
    m.insts.retain(|i| {
        !matches!(
            i,
            Inst::Extension(e) if e == "SPV_ARM_graph"
        )
    });
    let r = check(&m);
    assert!(errors(&r).contains(&RuleId::CapsMissingExtension), "{}", show(&r));
    assert!(r.findings.iter().any(|f| f.message.contains("NonSemantic.Graph.DebugInfo requires SPV_ARM_graph")));
}

// ---- 6. provenance -------------------------------------------------------------------------

#[test]
fn changed_rules_record_what_they_follow() {
    for (rule, follows) in [
        (RuleId::LayoutGraphInputPosition, "#6666"),
        (RuleId::LayoutGraphOutputPosition, "#6666"),
        (RuleId::LayoutGraphSectionOutsideGraph, "SPV_KHR_non_semantic_info revision 4"),
        (RuleId::VulkanInterfaceShaped, "Vulkan 1.4.360"),
        (RuleId::VulkanGraphConstantShaped, "Vulkan 1.4.360"),
        (RuleId::VulkanRuntimeArrayVariable, "04680"),
        (RuleId::GraphEntryPointDuplicateName, "SPV_ARM_graph revision 3"),
        (RuleId::DebugInfoVersion, "NonSemantic.Graph.DebugInfo version 1"),
        (RuleId::ImportsVersion, "Arm.ExperimentalMLOperations revision 1"),
    ] {
        let p = rule.provenance();
        assert!(p.follows.contains(follows), "{rule}: {}", p.follows);
    }
    // Where main differs from the pinned release, the change is named.
    assert!(RuleId::GraphInputIndexNotConstant.provenance().main_change.is_some_and(|c| c.contains("#6694")));
    assert!(!RuleId::GraphInputIndexNotConstant.info().spirv_val_checks);
    assert!(RuleId::GraphInputIndexNotConstant.provenance().spirv_val_main);
}

// ---- documented disagreements ------------------------------------------------------------

fn read_words(root: &Path, file: &str) -> Vec<u32> {
    let bytes = std::fs::read(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

#[test]
fn documented_valid_modules_rejected_by_2025_5_still_are() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (sv, main) = (pinned(), main_spirv_val());
    let v = Validator::new(ValidateOptions::default());
    for k in SPIRV_VAL_REJECTS_VALID {
        let words = read_words(&root, k.finding);
        let r = v.check_words(&words);
        assert!(r.is_valid(), "{}: in-tree rejects it:\n{}", k.finding, show(&r));
        if let Some(sv) = &sv {
            let verdict = sv.validate(&words, &ValidateOptions::default()).expect("spirv-val runs");
            assert!(!verdict.is_valid(), "{}: spirv-val 2025.5 now accepts it", k.finding);
        }
        if let Some(main) = &main {
            let verdict = main.validate(&words, &ValidateOptions::default()).expect("spirv-val main runs");
            assert!(verdict.is_valid(), "{}: SPIRV-Tools main rejects it: {verdict:?}", k.finding);
        }
    }
    for k in SPIRV_VAL_MAIN_KNOWN {
        let words = read_words(&root, k.finding);
        let r = v.check_words(&words);
        assert!(!r.is_valid(), "{}: in-tree accepts it", k.finding);
        if let Some(main) = &main {
            let verdict = main.validate(&words, &ValidateOptions::default()).expect("spirv-val main runs");
            assert_eq!(
                verdict.is_valid(),
                spvgraph_oracle::external::spirv_val::known::spirv_val_accepts(k),
                "{}: SPIRV-Tools main no longer behaves as documented",
                k.finding
            );
        }
    }
}
