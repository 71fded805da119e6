//! model-converter's findings: the modules, the table, their notes (with
//! the versions that show each) and the checks that each still reproduces
//! with every installed model-converter.

use super::*;

/// The model-converter findings, in the order they are written and listed.
pub(super) fn findings() -> Vec<Finding> {
    let inf = f32::INFINITY;
    vec![
        Finding {
            stem: "model-converter-opline-in-graph-body",
            module: fft_module(false),
            inputs: fft_inputs(),
            produced_with_debug_info: true,
            note: OPLINE_NOTE,
        },
        Finding {
            stem: "model-converter-folds-float-mul-by-zero",
            module: mul_by_zero_module(),
            inputs: vec![f32s(&[4], &[inf, -inf, f32::NAN, -2.0])],
            produced_with_debug_info: false,
            note: MUL_ZERO_NOTE,
        },
        Finding {
            stem: "model-converter-debuginfo-after-graph-end",
            module: abs_module(),
            inputs: vec![f32s(&[2, 3], &[-1.0, 2.0, -3.0, 4.0, -5.0, 6.0])],
            produced_with_debug_info: true,
            note: DEBUGINFO_NOTE,
        },
    ]
}

/// MUL of a `4` fp32 tensor by a constant of zeros.
fn mul_by_zero_module() -> Module {
    let t = (ElemType::Fp32, &[4u32][..]);
    graph(&[t], &[t], |b, x| {
        let ty = b.type_tensor(ElemType::Fp32, Some(&[4]));
        let zeros = b.const_tensor(ElemType::Fp32, &[4], &[0; 4]).expect("[4]");
        let shift = b.const_tensor(ElemType::I8, &[1], &[0]).expect("[1]");
        vec![b.tosa(TosaOp::Mul, ty, vec![x[0], zeros, shift])]
    })
}

/// ABS of a `2x3` fp32 tensor.
fn abs_module() -> Module {
    let t = (ElemType::Fp32, &[2u32, 3][..]);
    graph(&[t], &[t], |b, x| {
        let ty = b.type_tensor(ElemType::Fp32, Some(&[2, 3]));
        vec![b.tosa(TosaOp::Abs, ty, vec![x[0]])]
    })
}

const OPLINE_NOTE: &str = "# model-converter: with --emit-debug-info, OpLine inside a graph body

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `model-converter-opline-in-graph-body.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

model-converter 0.11.0 (`ai-ml-sdk-model-converter`) with `--emit-debug-info`
emits an `OpLine` before each `OpCompositeExtract` that reads a result of a
two-result operator (FFT2D, RFFT2D) inside the graph body:

    %26 = OpExtInst %_struct_25 %tosa FFT2D %false %false %graph_partition_0_in0 %graph_partition_0_in1
          OpLine %1 3 10
    %30 = OpCompositeExtract %tensor_float_1x4x4 %26 0

SPV_ARM_graph (revision 3, the newest): \"A graph definition may only contain
OpGraphInputARM, OpGraphSetOutputARM, OpExtInst, OpCompositeExtract\". The
module is invalid: spirv-val 2025.5 and SPIRV-Tools main (August 2026) both
reject it (`OpLine cannot appear in the graph definitions section`), and so
does spvgraph's validator (`layout.graph.body-instruction`). Without
`--emit-debug-info` the module is valid. The `.produced.spv` file is what
model-converter made of `model-converter-opline-in-graph-body.mlir`.

Reproduce:

    model-converter -i model-converter-opline-in-graph-body.mlir -o g.vgf --emit-debug-info
    vgf_dump -i g.vgf -o g.spv --dump-spirv 0
    spirv-val --target-env vulkan1.3 g.spv

Expected: exit status 0. Seen: `error: line 57: OpLine cannot appear in the
graph definitions section`. Whose bug: upstream MLIR's SPIR-V serializer, which
model-converter calls unchanged (`src/conversion/serialize_vgf.cpp` passes
`emitDebugInfo` to `mlir::spirv::serialize`; its LLVM patch does not touch the
serializer). The op serializers mlir-tblgen generates emit an OpLine before every
non-OpExtInst instruction, and graph bodies go through the same path as function
bodies, so each `spirv.CompositeExtract` in a graph gets one; the TOSA OpExtInsts take
another path and get none. In MLIR's own terms: `model-converter-opline-in-graph-body.lit.mlir`
(`mlir-translate --serialize-spirv --spirv-save-debug-info`, then `spirv-val`; not run
here: no `mlir-translate` in the pinned tools).
";

const MUL_ZERO_NOTE: &str = "# model-converter: folds a floating-point MUL by zero to the constant zero

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `model-converter-folds-float-mul-by-zero.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

model-converter 0.11.0 folds `tosa.mul %x, %zeros` (fp32, `%zeros` a constant
of `0.0`) into the constant `0.0`: the module it makes has no MUL and returns
`OpConstantNull` whatever the input. TOSA MUL on floating point is IEEE
multiplication: `inf * 0`, `-inf * 0` and `NaN * 0` are NaN, and `-2 * 0` is
`-0`. For the input `[inf, -inf, NaN, -2]` the graph's result is
`[NaN, NaN, NaN, -0]` (spvgraph's executor and the TOSA reference model);
the converted module returns `[0, 0, 0, 0]`. The fold is only valid for
integers (or under fast-math assumptions TOSA does not make).

Found by the hunt: a CAST of a constant fp8 zero, added to itself, then
multiplied by a graph input was folded away, and the module returned +0
where the case returned -0 for every negative input.

Module: `model-converter-folds-float-mul-by-zero.spv` (`.mlir`); the
`.produced.spv` is what model-converter made of the `.mlir`. Reproduce:

    model-converter -i model-converter-folds-float-mul-by-zero.mlir -o g.vgf
    vgf_dump -i g.vgf -o g.spv --dump-spirv 0
    spirv-dis g.spv | grep -A3 OpGraphInputARM

Expected: an `OpExtInst ... MUL` (or a fold that keeps NaN and the sign of
zero). Seen: `OpGraphSetOutputARM %null_tensor_float_4 %uint_0`. Whose bug:
upstream MLIR's `tosa::MulOp::fold` (`mlir/lib/Dialect/Tosa/IR/TosaCanonicalizations.cpp`
returns the zero splat when an operand is a splat of zero, for floats too), which
model-converter and IREE both run: IREE 3.13.0 returns `[0, 0, 0, 0]` for the same
input, and upstream's canonicalizer alone (`iree-opt --canonicalize` on the generic
form) folds the MUL away. The `-0` of `-2 * 0` is no violation on its own (TOSA lets
either zero sign pass); `inf * 0` and `NaN * 0`, which must be NaN, are. In MLIR's own
terms: `model-converter-folds-float-mul-by-zero.lit.mlir` (`mlir-opt --canonicalize`;
`upstream.reproduce_mlir` runs it in `iree-opt`). `oracle/tests/it/external_findings/model_converter.rs` runs both modules on the in-tree
executor and checks that the results differ as described.
";

const DEBUGINFO_NOTE: &str =
    "# model-converter: NonSemantic.Graph.DebugInfo after OpGraphEndARM (validators stricter than the specification)

**Belongs to:** SPIRV-Tools. **Status:** fixed upstream, in SPIRV-Tools v2026.3 (#6666); upstream: KhronosGroup/SPIRV-Tools#6666. The reproducer of `model-converter-debuginfo-after-graph-end.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

model-converter 0.11.0 with `--emit-debug-info` places every
`NonSemantic.Graph.DebugInfo` instruction (DebugGraph, DebugOperation,
DebugTensor) after the graph's `OpGraphEndARM`, at module level in the graph
section. spirv-val 2025.5 rejects that (`OpExtInst must appear in a graph
body`); spvgraph's rule catalogue did too (`layout.graph-section.outside-graph`)
until it followed SPIRV-Tools main, and accepts it now.

Who is right: the newest texts do not forbid it. SPV_ARM_graph (revision 3)
says only that the graph section holds graph definitions and entry points;
SPV_KHR_non_semantic_info makes non-semantic instructions valid \"from section
9 onwards\", outside functions too; NonSemantic.Graph.DebugInfo (revision 1)
says nothing about placement. SPIRV-Tools main accepts non-semantic
instructions anywhere in the graph section since it added
NonSemantic.Graph.DebugInfo (KhronosGroup/SPIRV-Tools #6666, May 2026): the
same module is valid for spirv-val built from main (August 2026). So this is
a spirv-val 2025.5 bug (fixed upstream), not a model-converter bug. It is
documented with spirv-val's rejections of valid modules
(`spvgraph_oracle::external::spirv_val::known::SPIRV_VAL_REJECTS_VALID`).

The debug instructions also refer to ids defined inside the graph (its
inputs and operation results) from outside it; the specification does not
say whether graph-local ids are visible there, and SPIRV-Tools main accepts
it.

A second, minor problem: the order of the `DebugOperation`s (and of their
`OpString`s) changes from run to run, following heap addresses; under
`setarch -R` (no address-space randomisation) the output is reproducible,
and the spvgraph adapter runs model-converter that way.

Reproduce:

    model-converter -i model-converter-debuginfo-after-graph-end.mlir -o g.vgf --emit-debug-info
    vgf_dump -i g.vgf -o g.spv --dump-spirv 0
    spirv-val --target-env vulkan1.3 g.spv

Seen with 2025.5: `OpExtInst must appear in a graph body`; with SPIRV-Tools
main: valid. The `.produced.spv` file is the module model-converter made.
";

pub(super) fn produce(mc: &ModelConverter, f: &Finding) -> Vec<u32> {
    try_produce(mc, f).unwrap_or_else(|e| panic!("{e}"))
}

fn try_produce(mc: &ModelConverter, f: &Finding) -> Result<Vec<u32>, String> {
    let text = mlir(f);
    match mc.produce(&ProduceRequest { mlir: &text, debug_info: f.produced_with_debug_info }) {
        Ok(ProduceOutcome::Module { words, .. }) => Ok(words),
        other => Err(format!("{}: expected a module, got {other:?}", f.stem)),
    }
}

/// Whether each model-converter finding still shows with the dev channel's
/// pre-release (`ci/setup-oracles --channel dev`, pinned in
/// `ci/oracle-pins`), as its note says; the tests below check it on every
/// installed model-converter.
const ON_DEV: &[(&str, bool)] = &[
    ("model-converter-opline-in-graph-body", true),
    ("model-converter-folds-float-mul-by-zero", true),
    ("model-converter-debuginfo-after-graph-end", true),
];

/// The release and dev versions the notes name (the pins of `ci/oracle-pins`).
const RELEASE_VERSION: &str = "0.11.0";
const DEV_VERSION: &str = "0.12.0.dev20261024";

/// A finding's note: its text, and for a model-converter finding which
/// versions show it.
pub(super) fn note(f: &Finding) -> String {
    let Some((_, on_dev)) = ON_DEV.iter().find(|(s, _)| *s == f.stem) else { return f.note.to_string() };
    format!(
        "{}\n**Versions.** ai-ml-sdk-model-converter {RELEASE_VERSION} (the release channel) shows it; \
         {DEV_VERSION} (the dev channel, Arm's pre-release: `ci/setup-oracles --channel dev`) {}. \
         `oracle/tests/it/external_findings/model_converter.rs` checks every installed version.\n",
        f.note,
        if *on_dev { "still shows it" } else { "no longer shows it" }
    )
}

/// Every installed model-converter: the release's, then the dev channel's
/// (skipped with a notice when that channel is not installed; under
/// `CI=true`, which installs it, a failure), with its version.
fn converters() -> Vec<(ModelConverter, String, bool)> {
    let Some(release) = converter() else { return Vec::new() };
    let tools = Tools::discover();
    let version = |t: &Tools| {
        t.package_version(Tool::ModelConverter)
            .and_then(|v| v.split(' ').nth(1).map(str::to_string))
            .unwrap_or_default()
    };
    let mut out = vec![(release, version(&tools), false)];
    match tools.channel("dev") {
        Ok(dev) => out.push((ModelConverter::from_config(&dev, None), version(&dev), true)),
        Err(e) if Tools::required() => panic!("CI=true and {e}"),
        Err(e) => eprintln!("skipping the dev channel: {e}"),
    }
    for (_, v, dev) in &out {
        let pinned = if *dev { DEV_VERSION } else { RELEASE_VERSION };
        assert_eq!(v, pinned, "the notes name {pinned}: check every finding with {v} and update ON_DEV and the notes");
    }
    out
}

/// Checks that `shows` holds for a model-converter finding on the release and
/// on the dev channel as [`ON_DEV`] says.
fn check_converters(stem: &str, shows: impl Fn(&ModelConverter, &Finding) -> Result<(), String>) {
    let f = finding(stem);
    let on_dev = ON_DEV.iter().find(|(s, _)| *s == stem).map(|(_, d)| *d).expect("in ON_DEV");
    for (mc, version, dev) in converters() {
        let expected = !dev || on_dev;
        match (shows(&mc, &f), expected) {
            (Ok(()), true) | (Err(_), false) => {}
            (Ok(()), false) => panic!("{stem} shows with model-converter {version} again: update ON_DEV and the note"),
            (Err(e), true) => panic!("{stem} no longer shows with model-converter {version} ({e}): update the finding"),
        }
    }
}

#[test]
fn model_converter_folds_float_mul_by_zero_still_reproduces() {
    check_converters("model-converter-folds-float-mul-by-zero", folds_mul_by_zero);
}

/// The converter folds the MUL away, and the module it makes returns +0
/// where the case returns NaN and -0 (checked on the in-tree executor and,
/// where installed, by the compliance rules against the reference model).
fn folds_mul_by_zero(mc: &ModelConverter, f: &Finding) -> Result<(), String> {
    let text = mlir(f);
    let produced = mc.produce(&ProduceRequest { mlir: &text, debug_info: false }).map_err(|e| e.to_string())?;
    let words = f.module.encode_words().expect("encodes");
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: Some("main"), inputs: &f.inputs, graph_constants: &gc };
    let run = spvgraph_oracle::produced::ProducedRun::new(&request, &produced).map_err(|e| format!("{e:?}"))?;
    let folded = spvgraph_oracle::produced::ProducerNote::OperatorCount { op: TosaOp::Mul, case: 1, produced: 0 };
    if !run.operator_notes().contains(&folded) {
        return Err(format!("the MUL is kept: {:?}", run.operator_notes()));
    }
    let ExecOutcome::Outputs(ours) = Executor::default().execute(&request).expect("answers") else { panic!() };
    let ExecOutcome::Outputs(out) = Executor::default().execute(&run.request()).expect("answers") else { panic!() };
    let theirs = run.case_outputs(&out).expect("maps back");
    let ours = ours[0].to_f64();
    assert!(ours[..3].iter().all(|v| v.is_nan()) && ours[3] == 0.0 && ours[3].is_sign_negative(), "{ours:?}");
    let theirs = theirs[0].to_f64();
    if !theirs.iter().all(|v| *v == 0.0 && v.is_sign_positive()) {
        return Err(format!("the produced module returns {theirs:?}"));
    }
    // The compliance rules reject it too.
    let reference = spvgraph_oracle::external::tosa_reference::TosaReferenceModel::discover();
    if reference.available().is_ok() {
        let precise = reference.execute_precise(&request).expect("answers");
        let verdict = spvgraph_oracle::compliance::compare_run(
            &request,
            &precise,
            "model-converter",
            Ok(ExecOutcome::Outputs(run.case_outputs(&out).expect("maps"))),
        );
        assert!(matches!(verdict, Ok(spvgraph_oracle::compliance::Agreement::Mismatch { .. })), "{verdict:?}");
    }
    Ok(())
}

fn converter() -> Option<ModelConverter> {
    for t in [Tool::ModelConverter, Tool::VgfDump] {
        spvgraph_testkit::tool(t)?;
    }
    Some(ModelConverter::discover())
}

fn rules(v: &Verdict) -> Vec<RuleId> {
    let mut r: Vec<RuleId> = match v {
        Verdict::Valid => Vec::new(),
        Verdict::Invalid(d) => d.iter().filter_map(|d| d.rule).collect(),
    };
    r.sort();
    r.dedup();
    r
}

/// Both validators' rules for a produced module (spirv-val's only when it is installed).
fn verdicts(words: &[u32]) -> (Vec<RuleId>, Option<Vec<RuleId>>) {
    let ours = rules(&Validator::new(ValidateOptions::default()).check_words(words).verdict());
    let sv = SpirvVal::discover();
    let theirs = match sv.available() {
        Ok(()) => Some(rules(&sv.validate(words, &ValidateOptions::default()).expect("answers"))),
        Err(e) if Tools::required() => panic!("CI=true and {e}"),
        Err(_) => None,
    };
    (ours, theirs)
}

#[test]
fn model_converter_opline_in_graph_body_still_reproduces() {
    check_converters("model-converter-opline-in-graph-body", |mc, f| {
        let (ours, theirs) = verdicts(&try_produce(mc, f)?);
        if !ours.contains(&RuleId::LayoutGraphBodyInstruction) {
            return Err(format!("the in-tree validator finds {ours:?}"));
        }
        if let Some(theirs) = theirs {
            assert!(theirs.contains(&RuleId::LayoutGraphBodyInstruction), "{theirs:?}");
        }
        // Without debug info the same graph converts to a valid module.
        let plain = Finding { produced_with_debug_info: false, ..finding(f.stem) };
        assert_eq!(verdicts(&produce(mc, &plain)).0, []);
        Ok(())
    });
}

#[test]
fn model_converter_debuginfo_after_graph_end_still_reproduces() {
    check_converters("model-converter-debuginfo-after-graph-end", |mc, f| {
        let words = try_produce(mc, f)?;
        let (ours, theirs) = verdicts(&words);
        // The in-tree catalogue follows SPIRV-Tools main: non-semantic instructions may stand
        // anywhere in the graph section. Only spirv-val 2025.5 still rejects the module.
        assert_eq!(ours, [], "changed? update the finding");
        if let Some(theirs) = theirs {
            if theirs != [RuleId::LayoutGraphSectionOutsideGraph] {
                return Err(format!("spirv-val finds {theirs:?}"));
            }
        }
        Ok(())
    });
    // The stored module is the release's.
    let Some(mc) = converter() else { return };
    let f = finding("model-converter-debuginfo-after-graph-end");
    let words = produce(&mc, &f);
    let stored = std::fs::read(findings_dir().join(format!("{}.produced.spv", f.stem))).expect("stored");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(stored, bytes, "model-converter's output changed: regenerate with `cargo run --release -p spvgraph-oracle --example write_findings -- external`");
}
