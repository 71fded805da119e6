//! The IREE adapter against the real tools (skipped with a `skipping: ...`
//! notice when iree-compile, iree-run-module or tosa-opt is missing, a
//! failure under `CI=true`): generated graphs compute what the in-tree
//! executor computes (bit-exact, or within the TOSA compliance rules of a
//! precise reference-model run), every element type crosses the raw-binary
//! boundary (bf16, bool, i48 as i64), fp8 is `Unsupported`, and crashes,
//! time-outs and runtime errors of the tools are outcomes. Compiled
//! modules are cached per oracle.

use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::observe::observed_form;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::compliance::{compare_run_output, inexact_upstream, PreciseOutcome};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::iree::{Iree, IreeTools};
use spvgraph_oracle::external::process::Limits;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{
    Abnormal, Capability, ExecOutcome, ExecRequest, Oracle, OracleError, OwnedExecRequest, Refusal,
};
use spvgraph_oracle::produced::bit_identical;
use spvgraph_oracle::tools::Tool;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The adapter, or `None` (after a `skipping:` notice) without the tools.
fn iree() -> Option<Iree> {
    for t in [Tool::IreeCompile, Tool::IreeRunModule, Tool::TosaOpt] {
        spvgraph_testkit::tool(t)?;
    }
    let o = Iree::discover();
    o.available().expect("tools found, so available");
    Some(o)
}

fn outputs(outcome: ExecOutcome) -> Vec<TensorData> {
    match outcome {
        ExecOutcome::Outputs(o) => o,
        other => panic!("expected outputs, got {other:?}"),
    }
}

fn run_both(iree: &Iree, module: &Module, inputs: &[TensorData]) -> (Vec<TensorData>, ExecOutcome) {
    let words = module.encode_words().expect("encodes");
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: None, inputs, graph_constants: &gc };
    let ours = outputs(Executor::default().execute(&request).expect("the executor answers"));
    (ours, iree.execute(&request).expect("IREE answers"))
}

fn tensor(elem: ElemType, shape: &[usize], bits: &[u64]) -> TensorData {
    TensorData::from_bits(elem, shape, bits).expect("shape matches")
}

#[test]
fn an_fp32_chain_is_bit_exact() {
    let Some(iree) = iree() else { return };
    assert_eq!((&iree as &dyn Oracle).capabilities(), &[Capability::Execute]);
    let m = spvgraph_ir::samples::elementwise_chain(6);
    let n = 8 * 8 * 4;
    let x: Vec<u64> = (0..n as u64).map(|i| f32::to_bits(i as f32 * 0.37 - 20.0) as u64).collect();
    let y: Vec<u64> = (0..n as u64).map(|i| f32::to_bits(1.5 - i as f32 * 0.11) as u64).collect();
    let inputs = [tensor(ElemType::Fp32, &[1, 8, 8, 4], &x), tensor(ElemType::Fp32, &[1, 8, 8, 4], &y)];
    let (ours, theirs) = run_both(&iree, &m, &inputs);
    assert_eq!(outputs(theirs), ours);
}

/// `op(inputs) -> output` with tensor-typed operands of the given types,
/// plus extra constant operands.
fn one_op(op: TosaOp, ins: &[(ElemType, &[u32])], out: (ElemType, &[u32]), consts: &[(ElemType, u64)]) -> Module {
    let mut b = ModuleBuilder::new();
    let in_types: Vec<_> = ins.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let out_type = b.type_tensor(out.0, Some(out.1));
    let gty = b.type_graph(&in_types, &[out_type]);
    let mut vars: Vec<_> = in_types.iter().enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
    vars.push(b.interface_variable(out_type, 0, ins.len() as u32));
    let cs: Vec<_> = consts.iter().map(|&(e, v)| b.const_tensor(e, &[1], &[v]).expect("a [1] constant")).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "g", vars);
    let mut args: Vec<_> = in_types.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
    args.extend(cs);
    let r = b.tosa(op, out_type, args);
    b.graph_output(r, 0, None);
    b.end_graph();
    b.finish()
}

#[test]
fn bf16_bool_and_i48_cross_the_raw_boundary() {
    let Some(iree) = iree() else { return };
    // bf16: IREE's .npy reader has no bf16; raw binary with an explicit type works.
    let m =
        one_op(TosaOp::Add, &[(ElemType::Bf16, &[2, 3]), (ElemType::Bf16, &[2, 3])], (ElemType::Bf16, &[2, 3]), &[]);
    let a = tensor(ElemType::Bf16, &[2, 3], &[0x3f80, 0x4000, 0xc040, 0x3e80, 0x4120, 0x0000]);
    let (ours, theirs) = run_both(&iree, &m, &[a.clone(), a]);
    assert_eq!(outputs(theirs), ours);
    // bool: one byte per element.
    let m = one_op(
        TosaOp::LogicalXor,
        &[(ElemType::Bool, &[2, 2]), (ElemType::Bool, &[2, 2])],
        (ElemType::Bool, &[2, 2]),
        &[],
    );
    let (p, q) = (tensor(ElemType::Bool, &[2, 2], &[0, 1, 0, 1]), tensor(ElemType::Bool, &[2, 2], &[0, 0, 1, 1]));
    let (ours, theirs) = run_both(&iree, &m, &[p, q]);
    assert_eq!(outputs(theirs), ours);
    // i48: an i16 MATMUL accumulates in and returns i48, i64 at IREE's boundary.
    let m = one_op(
        TosaOp::Matmul,
        &[(ElemType::I16, &[1, 2, 3]), (ElemType::I16, &[1, 3, 2])],
        (ElemType::I48, &[1, 2, 2]),
        &[(ElemType::I16, 0), (ElemType::I16, 0)],
    );
    let neg = |v: i64| v as u64;
    let a = tensor(ElemType::I16, &[1, 2, 3], &[neg(-32768), neg(-32768), neg(-32768), 1, 2, neg(-300)]);
    let b = tensor(ElemType::I16, &[1, 3, 2], &[32767, 1, 32767, 2, 32767, neg(-13)]);
    let (ours, theirs) = run_both(&iree, &m, &[a, b]);
    assert_eq!(outputs(theirs), ours);
    assert!(ours[0].to_f64().iter().any(|&v| v < -2_147_483_648.0), "the test reaches past i32: {ours:?}");
}

#[test]
fn fp8_is_unsupported_not_a_finding() {
    let Some(iree) = iree() else { return };
    // fp8 -> fp32 compiles; fp8 -> fp16 has no llvm-cpu lowering in IREE 3.13.
    let m = one_op(TosaOp::Cast, &[(ElemType::Fp8E4M3, &[4])], (ElemType::Fp16, &[4]), &[]);
    let x = tensor(ElemType::Fp8E4M3, &[4], &[0x38, 0x40, 0xb8, 0x00]);
    let (_, theirs) = run_both(&iree, &m, &[x]);
    match theirs {
        ExecOutcome::Refused { kind: Refusal::Unsupported, reason } => assert!(reason.contains("fp8"), "{reason}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

/// The same CAST, and an fp8 CONV2D (fp16 result), run in the
/// fp8-through-fp32 form: IREE gives the executor's bits (the adapter keeps
/// the fp32 value apart, so IREE does not fold the two CASTs back into one).
#[test]
fn fp8_to_fp16_runs_through_fp32() {
    use spvgraph_oracle::forms::{apply, Form};
    use spvgraph_oracle::oracle::OwnedExecRequest;
    let Some(iree) = iree() else { return };
    let cast = one_op(TosaOp::Cast, &[(ElemType::Fp8E4M3, &[4])], (ElemType::Fp16, &[4]), &[]);
    let x = tensor(ElemType::Fp8E4M3, &[4], &[0x38, 0x40, 0xb8, 0x7e]);
    let conv = {
        let mut b = ModuleBuilder::new();
        let input = b.type_tensor(ElemType::Fp8E4M3, Some(&[1, 1, 2, 2]));
        let weight = b.type_tensor(ElemType::Fp8E4M3, Some(&[1, 1, 1, 2]));
        let out = b.type_tensor(ElemType::Fp16, Some(&[1, 1, 2, 1]));
        let gty = b.type_graph(&[input, weight], &[out]);
        let vars = vec![
            b.interface_variable(input, 0, 0),
            b.interface_variable(weight, 0, 1),
            b.interface_variable(out, 0, 2),
        ];
        let pad = b.const_i32_vector(&[0, 0, 0, 0]);
        let ones = b.const_i32_vector(&[1, 1]);
        let fp16 = b.const_u32(2);
        let no = b.const_bool(false);
        let bias = b.const_tensor(ElemType::Fp16, &[1], &[0]).expect("bias");
        let zp = b.const_tensor(ElemType::Fp8E4M3, &[1], &[0]).expect("zero point");
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "g", vars);
        let (i, w) = (b.graph_input(input, 0, None), b.graph_input(weight, 1, None));
        let r = b.tosa(TosaOp::Conv2d, out, vec![pad, ones, ones, fp16, no, i, w, bias, zp, zp]);
        b.graph_output(r, 0, None);
        b.end_graph();
        b.finish()
    };
    let conv_inputs = vec![
        tensor(ElemType::Fp8E4M3, &[1, 1, 2, 2], &[0x38, 0x40, 0xb8, 0x30]),
        tensor(ElemType::Fp8E4M3, &[1, 1, 1, 2], &[0x40, 0x38]),
    ];
    for (module, inputs) in [(cast, vec![x]), (conv, conv_inputs)] {
        let (ours, theirs) = run_both(&iree, &module, &inputs);
        assert!(matches!(theirs, ExecOutcome::Refused { kind: Refusal::Unsupported, .. }), "as given: {theirs:?}");
        let request = OwnedExecRequest {
            module: module.encode_words().expect("encodes"),
            entry_point: None,
            inputs,
            graph_constants: BTreeMap::new(),
        };
        let form = apply(Form::Fp8ThroughFp32, &request).expect("the form applies");
        let rewritten = form.single().expect("one stage");
        match iree.execute(&rewritten.request()).expect("IREE answers") {
            ExecOutcome::Outputs(o) => assert_eq!(o, ours, "the executor's bits"),
            other => panic!("the form does not run: {other:?}"),
        }
    }
}

/// `op` (MAX_POOL2D or AVG_POOL2D) on an fp8e4m3 `[1, 2, 3, 1]` input: a
/// 2x2 kernel, stride 1, padded one row below and one column left, so
/// that windows hold 1, 2 or 4 values.
fn fp8_pool(op: TosaOp) -> Module {
    let mut b = ModuleBuilder::new();
    let input = b.type_tensor(ElemType::Fp8E4M3, Some(&[1, 2, 3, 1]));
    let out = b.type_tensor(ElemType::Fp8E4M3, Some(&[1, 2, 3, 1]));
    let gty = b.type_graph(&[input], &[out]);
    let vars = vec![b.interface_variable(input, 0, 0), b.interface_variable(out, 0, 1)];
    let (kernel, stride, pad) =
        (b.const_i32_vector(&[2, 2]), b.const_i32_vector(&[1, 1]), b.const_i32_vector(&[0, 1, 1, 0]));
    // nan_mode PROPAGATE (1) / acc_type FP16 (2).
    let mode = b.const_u32(if op == TosaOp::MaxPool2d { 1 } else { 2 });
    let zp = b.const_tensor(ElemType::Fp8E4M3, &[1], &[0]).expect("zero point");
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "g", vars);
    let x = b.graph_input(input, 0, None);
    let mut args = vec![kernel, stride, pad, mode, x];
    if op == TosaOp::AvgPool2d {
        args.extend([zp, zp]);
    }
    let r = b.tosa(op, out, args);
    b.graph_output(r, 0, None);
    b.end_graph();
    b.finish()
}

/// IREE has no lowering of MAX_POOL2D on fp8 and cannot widen fp8 to
/// AVG_POOL2D's fp16 accumulator; the rescue runs them on fp32 values
/// (fp8-through-fp32, fp8-avg-pool-in-fp32), and IREE then gives the
/// executor's bits.
#[test]
fn fp8_pools_run_rescued_on_fp32() {
    use spvgraph_oracle::forms::{rescue, Form};
    use spvgraph_oracle::oracle::OwnedExecRequest;
    let Some(iree) = iree() else { return };
    // 1, 2, -1, 0.5, 1.125, -3: averages that round to fp8 (1.0625 is a tie).
    let x = tensor(ElemType::Fp8E4M3, &[1, 2, 3, 1], &[0x38, 0x40, 0xb8, 0x30, 0x39, 0xc4]);
    for (op, form) in [(TosaOp::MaxPool2d, Form::Fp8ThroughFp32), (TosaOp::AvgPool2d, Form::Fp8AvgPoolInFp32)] {
        let module = fp8_pool(op);
        let (ours, theirs) = run_both(&iree, &module, std::slice::from_ref(&x));
        assert!(
            matches!(theirs, ExecOutcome::Refused { kind: Refusal::Unsupported, .. }),
            "{op:?} as given: {theirs:?}"
        );
        let request = OwnedExecRequest {
            module: module.encode_words().expect("encodes"),
            entry_point: None,
            inputs: vec![x.clone()],
            graph_constants: BTreeMap::new(),
        };
        let rescued = rescue(&request).expect("a rescue");
        assert!(rescued.forms.contains(&form), "{op:?}: the rescue is {}", rescued.label());
        let rewritten = rescued.single().expect("one stage");
        match iree.execute(&rewritten.request()).expect("IREE answers") {
            ExecOutcome::Outputs(o) => assert_eq!(o, ours, "{op:?}: the executor's bits"),
            other => panic!("{op:?}: the rescue does not run: {other:?}"),
        }
    }
}

#[test]
fn generated_graphs_agree_with_the_executor_under_the_compliance_rules() {
    let Some(iree) = iree() else { return };
    let reference = TosaReferenceModel::discover();
    let (mut compared, mut unsupported, mut unjudged) = (0, 0, 0);
    for seed in 0..6 {
        let case = generate_from_seed(seed, &Config::default());
        for (k, ep) in case.entry_points.iter().enumerate() {
            let owned = spvgraph_testkit::request(&case, k).expect("entry point k");
            let request = owned.request();
            let Ok(ExecOutcome::Outputs(ours)) = Executor::default().execute(&request) else { continue };
            let theirs = match iree.execute(&request).expect("IREE answers") {
                ExecOutcome::Refused { kind: Refusal::Unsupported, .. } => {
                    unsupported += 1;
                    continue;
                }
                ExecOutcome::Outputs(o) => o,
                other => panic!("seed {seed} {}: {other:?}", ep.name),
            };
            assert_eq!(theirs.len(), ours.len());
            let inexact = inexact_upstream(&case.module, Some(&ep.name)).expect("analysed");
            for (j, (t, o)) in theirs.iter().zip(&ours).enumerate() {
                compared += 1;
                if bit_identical(std::slice::from_ref(t), std::slice::from_ref(o)) {
                    continue;
                }
                // Computed from approximations: compliant implementations may differ.
                if inexact[j] {
                    unjudged += 1;
                    continue;
                }
                // Floating-point results may differ within the TOSA accuracy rules.
                if let Err(e) = reference.available() {
                    assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
                    eprintln!("skipping the compliance check of seed {seed} {}: {e}", ep.name);
                    continue;
                }
                let PreciseOutcome::Outputs(precise) = reference.execute_precise(&request).expect("answers") else {
                    panic!("the reference model refused seed {seed} {}", ep.name)
                };
                let verdict = compare_run_output(&request, j, &precise[j], t).expect("judged");
                assert!(verdict.pass, "seed {seed} {} output {j}: {verdict}", ep.name);
            }
        }
    }
    eprintln!(
        "{compared} outputs compared, {unjudged} not judged (inexact upstream), {unsupported} graphs unsupported"
    );
    assert!(compared >= 10, "only {compared} outputs compared ({unsupported} graphs unsupported)");
}

/// A stand-in tool script.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).expect("write script");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    p
}

/// Fake tools: tosa-opt copies, iree-compile runs `compile`, iree-run-module runs `run`.
fn fake(dir: &Path, compile: &str, run: &str) -> Iree {
    Iree::with_tools(IreeTools {
        tosa_opt: script(dir, "tosa-opt", "cp \"$1\" \"$4\""),
        compile: script(dir, "iree-compile", compile),
        run_module: script(dir, "iree-run-module", run),
    })
}

fn sample_request_run(o: &Iree) -> ExecOutcome {
    let words = spvgraph_ir::samples::elementwise_chain(1).encode_words().expect("encodes");
    let x = TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4]);
    let inputs = [x.clone(), x];
    let gc = BTreeMap::new();
    o.execute(&ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &gc })
        .expect("answers")
}

#[test]
fn crashes_time_outs_and_runtime_errors_are_outcomes_and_compiles_are_cached() {
    let dir = spvgraph_testkit::scratch("iree-fake");
    let crash = fake(&dir, "echo 'LLVM ERROR: boom' >&2; kill -SEGV $$", "exit 0");
    match sample_request_run(&crash) {
        ExecOutcome::Abnormal { how: Abnormal::Signal(11), detail } => {
            assert!(detail.contains("LLVM ERROR"), "{detail}")
        }
        other => panic!("expected SIGSEGV, got {other:?}"),
    }
    let counter = dir.join("compiles");
    let compile = format!("echo x >> '{}'; touch graph.vmfb", counter.display());
    let hang = fake(&dir, &compile, "exec sleep 30")
        .with_limits(Limits { timeout: Duration::from_millis(300), memory_bytes: None });
    assert!(matches!(sample_request_run(&hang), ExecOutcome::Abnormal { how: Abnormal::Timeout, .. }));
    let error = fake(&dir, &compile, "echo 'INVALID_ARGUMENT; bad input' >&2; exit 1");
    match sample_request_run(&error) {
        ExecOutcome::Refused { kind: Refusal::Rejected, reason } => {
            assert!(reason.contains("INVALID_ARGUMENT"), "{reason}")
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
    // 1x8x8x4 fp32 zeros: 1024 bytes.
    let works = fake(&dir, &compile, "head -c 1024 /dev/zero > out0.bin");
    let before = std::fs::read_to_string(&counter).unwrap_or_default().lines().count();
    for _ in 0..3 {
        let out = outputs(sample_request_run(&works));
        assert_eq!(out, vec![TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4])]);
    }
    let after = std::fs::read_to_string(&counter).unwrap_or_default().lines().count();
    assert_eq!(after - before, 1, "one compilation for three runs of the same graph");
    let short = fake(&dir, &compile, "head -c 10 /dev/zero > out0.bin");
    assert!(sample_request_run_err(&short).contains("1024"));
}

fn sample_request_run_err(o: &Iree) -> String {
    let words = spvgraph_ir::samples::elementwise_chain(1).encode_words().expect("encodes");
    let x = TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4]);
    let inputs = [x.clone(), x];
    let gc = BTreeMap::new();
    match o.execute(&ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &gc }) {
        Err(e) => e.to_string(),
        Ok(other) => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn the_registry_builds_it_with_its_versions() {
    let Some(_) = iree() else { return };
    let config = spvgraph_oracle::registry::OracleConfig::default();
    let o = spvgraph_oracle::registry::build(spvgraph_oracle::registry::IREE, &config).expect("known");
    assert!(o.available().is_ok());
    let v = o.version().unwrap_or_default();
    assert!(v.contains("3.13"), "{v}");
}

#[test]
fn a_users_build_directory_is_used_and_its_version_reported() {
    let Some(_) = iree() else { return };
    let provisioned = spvgraph_oracle::tools::Tools::discover();
    let dir = spvgraph_testkit::scratch("iree-user");
    std::fs::create_dir_all(dir.join("tools")).expect("dir");
    for (tool, name) in [(Tool::IreeCompile, "iree-compile"), (Tool::IreeRunModule, "iree-run-module")] {
        let link = dir.join("tools").join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(provisioned.get(tool).expect("located above"), &link).expect("symlink");
    }
    let mut config = spvgraph_oracle::registry::OracleConfig::default();
    config.set_path(&format!("iree={}", dir.display())).expect("an existing directory");
    let o = spvgraph_oracle::registry::build(spvgraph_oracle::registry::IREE, &config).expect("known");
    assert!(o.available().is_ok());
    let v = o.version().unwrap_or_default();
    assert!(v.starts_with("IREE compiler version 3.13"), "{v}");
    let m = spvgraph_ir::samples::elementwise_chain(2);
    let x = TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4]);
    let words = m.encode_words().expect("encodes");
    let inputs = [x.clone(), x];
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &gc };
    let out = o.executor().and_then(|e| e.execute(&request));
    assert_eq!(outputs(out.expect("answers")), vec![TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4])]);
}

/// An outcome with every output as element type, shape and bits (a NaN
/// equals itself), refusals by kind and message, crashes by how they ended.
fn comparable(outcome: &Result<ExecOutcome, OracleError>) -> String {
    match outcome {
        Ok(ExecOutcome::Outputs(o)) => {
            let each: Vec<String> =
                o.iter().map(|t| format!("{} {:?} {:x?}", t.elem(), t.shape(), t.to_bits())).collect();
            format!("outputs {each:?}")
        }
        Ok(ExecOutcome::Refused { kind, reason }) => format!("refused {kind:?}: {reason}"),
        Ok(ExecOutcome::Abnormal { how, .. }) => format!("abnormal {how:?}"),
        Err(e) => format!("error {e}"),
    }
}

/// The real iree-compile behind a script that logs each run (its arguments
/// and exit status) in `log`.
fn counting(real: &Iree, dir: &Path, label: &str, log: &Path) -> Iree {
    let tools = real.tools().expect("found").clone();
    let body =
        format!("'{}' \"$@\"\nrc=$?\necho \"$* rc=$rc\" >> '{}'\nexit $rc", tools.compile.display(), log.display());
    Iree::with_tools(IreeTools { compile: script(dir, &format!("iree-compile-{label}"), &body), ..tools })
}

fn runs(log: &Path) -> usize {
    std::fs::read_to_string(log).unwrap_or_default().lines().count()
}

/// Every entry point of generated cases and its observed form (what a hunt
/// batch holds besides the forms), as requests.
fn generated_requests(seeds: impl IntoIterator<Item = u64>) -> Vec<OwnedExecRequest> {
    let mut out = Vec::new();
    for seed in seeds {
        let case = generate_from_seed(seed, &Config::default());
        for k in 0..case.entry_points.len() {
            let request = spvgraph_testkit::request(&case, k).expect("entry point k");
            let observed = observed_form(&case.module, request.entry_point.as_deref())
                .ok()
                .and_then(|f| f.module.encode_words().ok());
            if let Some(words) = observed {
                out.push(OwnedExecRequest { module: words, ..request.clone() });
            }
            out.push(request);
        }
    }
    out
}

/// A batch compiled as one module answers exactly what each graph compiled
/// by itself answers: the same output bits, the same refusals with the same
/// messages (a module that does not compile is split by its diagnostics,
/// and the graphs they name are compiled alone), in fewer compiler runs;
/// and a batch whose graphs are all cached compiles nothing.
#[test]
fn batched_answers_are_the_unbatched_answers() {
    let Some(real) = iree() else { return };
    let dir = spvgraph_testkit::scratch("iree-batched");
    let (batched_log, alone_log) = (dir.join("batched"), dir.join("alone"));
    let batched = counting(&real, &dir, "batched", &batched_log);
    let alone = counting(&real, &dir, "alone", &alone_log).with_batching(false);
    // These seeds give graphs IREE runs and graphs it refuses (INEXACT_ROUND
    // RESCALE and fp8, which go alone, and an int16 CONV2D with a weight
    // zero point), some in the same case.
    let owned = generated_requests((424_242_000..424_242_006).chain([424_242_014]));
    let requests: Vec<ExecRequest<'_>> = owned.iter().map(OwnedExecRequest::request).collect();
    let together = batched.execute_batch(&requests);
    let apart = alone.execute_batch(&requests);
    assert_eq!((together.len(), apart.len()), (requests.len(), requests.len()));
    let (mut ran, mut refused) = (0, 0);
    for (k, (t, a)) in together.iter().zip(&apart).enumerate() {
        assert_eq!(comparable(t), comparable(a), "request {k} ({:?})", owned[k].entry_point);
        match t {
            Ok(ExecOutcome::Outputs(_)) => ran += 1,
            Ok(ExecOutcome::Refused { .. }) => refused += 1,
            _ => {}
        }
    }
    let (b, s) = (runs(&batched_log), runs(&alone_log));
    eprintln!("{} requests: {ran} ran, {refused} refused; {b} compiler runs batched, {s} alone", requests.len());
    assert!(ran >= 6 && refused >= 2, "the set must hold both: {ran} ran, {refused} refused");
    assert!(b < s, "batching ran the compiler {b} times, one graph at a time {s}");
    let log = std::fs::read_to_string(&batched_log).unwrap_or_default();
    let modules: Vec<&str> = log.lines().filter(|l| l.contains("batch.mlir")).collect();
    assert!(modules.iter().any(|l| l.ends_with("rc=0")), "a module compiled: {log}");
    // Whether one of these modules fails depends on what goes alone
    // (`iree::compiles_alone`); splitting a failed module is checked with a
    // stand-in compiler below, the answers matching here either way.
    let again = batched.execute_batch(&requests);
    assert_eq!(runs(&batched_log), b, "every graph was cached");
    for (k, (t, a)) in again.iter().zip(&together).enumerate() {
        assert_eq!(comparable(t), comparable(a), "request {k} from the cache");
    }
    let times = batched.phase_times();
    assert!(
        times.compile > Duration::ZERO && times.run > Duration::ZERO && times.readback > Duration::ZERO,
        "{times:?}"
    );
    assert_eq!(times.start, Duration::ZERO);
}

/// Fake tools where iree-compile runs `batch` on a batch module and makes a
/// module of any single graph; iree-run-module writes zeros.
fn fake_batching(dir: &Path, label: &str, batch: &str, log: &Path) -> Iree {
    let compile = format!(
        "echo \"$*\" >> '{}'\ncase \"$*\" in\n  *batch.mlir*) {batch} ;;\n  *) touch graph.vmfb ;;\nesac",
        log.display()
    );
    Iree::with_tools(IreeTools {
        tosa_opt: script(dir, "tosa-opt-ok", "exit 0"),
        compile: script(dir, &format!("iree-compile-{label}"), &compile),
        run_module: script(dir, "iree-run-module-zeros", "head -c 1024 /dev/zero > out0.bin"),
    })
}

/// Three different graphs of the same interface (fp32 1x8x8x4, twice, to one output).
fn three_chains() -> Vec<OwnedExecRequest> {
    let x = TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4]);
    (1..=3)
        .map(|n| OwnedExecRequest {
            module: spvgraph_ir::samples::elementwise_chain(n).encode_words().expect("encodes"),
            entry_point: None,
            inputs: vec![x.clone(), x.clone()],
            graph_constants: BTreeMap::new(),
        })
        .collect()
}

/// A batch module on which iree-compile crashes, hangs or fails without
/// naming a function says nothing about its graphs: they are compiled
/// again (alone, or halves, then alone) and each gets its own answer.
#[test]
fn a_batch_that_crashes_hangs_or_names_no_function_is_not_blamed_on_its_graphs() {
    let dir = spvgraph_testkit::scratch("iree-fake-batch");
    let owned = three_chains();
    let requests: Vec<ExecRequest<'_>> = owned.iter().map(OwnedExecRequest::request).collect();
    let zeros = vec![TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4])];
    let cases = [
        ("crash", "echo 'LLVM ERROR: boom' >&2; kill -SEGV $$", 1 + 3),
        ("hang", "exec sleep 30", 1 + 3),
        // Halves: [1] alone, then [2, 3] together (fails again), then each alone.
        ("unattributed", "echo 'error: no location' >&2; exit 1", 1 + 1 + 1 + 2),
    ];
    for (label, batch, compiles) in cases {
        let log = dir.join(label);
        let o = fake_batching(&dir, label, batch, &log)
            // Long enough for the stand-in's alone compiles on a loaded
            // machine, short against the hang's 30 s.
            .with_limits(Limits { timeout: Duration::from_secs(5), memory_bytes: None });
        for (k, outcome) in o.execute_batch(&requests).into_iter().enumerate() {
            match outcome {
                Ok(ExecOutcome::Outputs(out)) => assert_eq!(out, zeros, "{label}: graph {k}"),
                other => panic!("{label}: graph {k}: {other:?}"),
            }
        }
        let lines = std::fs::read_to_string(&log).unwrap_or_default();
        assert_eq!(lines.lines().count(), compiles, "{label}: {lines}");
        assert!(lines.lines().next().is_some_and(|l| l.contains("batch.mlir")), "{label}: {lines}");
        assert!(lines.contains("--iree-llvmcpu-target-cpu=generic"), "{label}: {lines}");
    }
}

/// A graph the diagnostics of its batch name goes alone, keeps the answer
/// it gets alone (here a crash of its own compilation), and the rest of the
/// batch is compiled together again.
#[test]
fn a_graph_the_diagnostics_name_is_compiled_alone() {
    let dir = spvgraph_testkit::scratch("iree-fake-named");
    let owned = three_chains();
    let requests: Vec<ExecRequest<'_>> = owned.iter().map(OwnedExecRequest::request).collect();
    let log = dir.join("named");
    // The batch fails at the function of the one graph with three
    // operations (a tosa.sub, which the others lack); compiled alone, that
    // graph crashes the compiler; any other module compiles.
    let compile = format!(
        "echo \"$*\" >> '{log}'\n\
         case \"$*\" in\n\
           *batch.mlir*)\n\
             l=$(grep -n 'tosa.sub' batch.mlir | head -1 | cut -d: -f1)\n\
             if [ -n \"$l\" ]; then echo \"batch.mlir:$l:8: error: 'tosa.sub' op boom\" >&2; exit 1; fi\n\
             touch batch.vmfb ;;\n\
           *) if grep -q 'tosa.sub' graph.mlir; then kill -SEGV $$; fi; touch graph.vmfb ;;\n\
         esac",
        log = log.display()
    );
    let o = Iree::with_tools(IreeTools {
        tosa_opt: script(&dir, "tosa-opt-ok", "exit 0"),
        compile: script(&dir, "iree-compile-named", &compile),
        run_module: script(&dir, "iree-run-module-zeros", "head -c 1024 /dev/zero > out0.bin"),
    });
    let text = |n: usize| {
        let m = spvgraph_ir::samples::elementwise_chain(n);
        spvgraph_ir::mlir::module_to_mlir(&m, "chain", &BTreeMap::new()).expect("printed")
    };
    let with_sub: Vec<bool> = (1..=3).map(|n| text(n).contains("tosa.sub")).collect();
    assert_eq!(with_sub, [false, false, true], "the third chain has a SUB");
    for (k, outcome) in o.execute_batch(&requests).into_iter().enumerate() {
        match (with_sub[k], outcome) {
            (true, Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(11), .. })) => {}
            (false, Ok(ExecOutcome::Outputs(_))) => {}
            (_, other) => panic!("graph {k}: {other:?}"),
        }
    }
    // The batch of three, the named graph alone, the batch of the other two.
    let lines = std::fs::read_to_string(&log).unwrap_or_default();
    let batches = lines.lines().filter(|l| l.contains("batch.mlir")).count();
    assert_eq!((batches, lines.lines().count()), (2, 3), "{lines}");
}

/// The printer's TOSA MLIR is in generic form: IREE compiles it as it is,
/// with no `tosa-opt` (here one that fails on any input), and the module
/// computes what the module compiled from `tosa-opt --mlir-print-op-generic`'s
/// re-print of the same text computes, to the bit.
#[test]
fn iree_compiles_the_printed_text_as_it_compiles_tosa_opts_generic_form() {
    let Some(real) = iree() else { return };
    let dir = spvgraph_testkit::scratch("iree-printed");
    let tools = real.tools().expect("found").clone();
    let no_tosa_opt = Iree::with_tools(IreeTools {
        tosa_opt: script(&dir, "tosa-opt-broken", "echo 'not to be run' >&2; exit 3"),
        ..tools.clone()
    });
    let m = spvgraph_ir::samples::elementwise_chain(4);
    let x = TensorData::from_bits(ElemType::Fp32, &[1, 8, 8, 4], &[f32::to_bits(1.25) as u64; 256]).expect("x");
    let (ours, theirs) = run_both(&no_tosa_opt, &m, &[x.clone(), x]);
    assert_eq!(outputs(theirs), ours);
    let (mut same, mut refused) = (0, 0);
    for (k, request) in generated_requests(424_242_000..424_242_004).iter().enumerate() {
        let Ok(module) = Module::decode_words(&request.module) else { continue };
        let entry = request.entry_point.clone().unwrap_or_default();
        let Ok(printed) = spvgraph_ir::mlir::module_to_mlir(&module, &entry, &request.graph_constants) else {
            continue;
        };
        assert!(!spvgraph_oracle::external::iree::needs_generic_pass(&printed), "request {k}: {printed}");
        let work = dir.join(format!("g{k}"));
        std::fs::create_dir_all(&work).expect("dir");
        std::fs::write(work.join("printed.mlir"), &printed).expect("write");
        let generic = Command::new(&tools.tosa_opt)
            .current_dir(&work)
            .args(["printed.mlir", "--mlir-print-op-generic", "-o", "generic.mlir"])
            .status()
            .expect("tosa-opt runs");
        assert!(generic.success(), "request {k}: tosa-opt");
        let mut answers = Vec::new();
        for text in ["printed", "generic"] {
            let compiled = Command::new(&tools.compile)
                .current_dir(&work)
                .args(real.compile_flags())
                .args([format!("{text}.mlir"), "-o".into(), format!("{text}.vmfb")])
                .output()
                .expect("iree-compile runs");
            if !compiled.status.success() {
                answers.push(None);
                continue;
            }
            let mut run = Command::new(&tools.run_module);
            run.current_dir(&work).arg(format!("--module={text}.vmfb")).arg(format!("--function={entry}"));
            for (i, t) in request.inputs.iter().enumerate() {
                std::fs::write(work.join(format!("in{i}.bin")), spvgraph_oracle::external::raw::to_raw(t)).expect("in");
                run.arg(format!(
                    "--input={}=@in{i}.bin",
                    spvgraph_oracle::external::iree::iree_type(t.elem(), t.shape())
                ));
            }
            let outs = Executor::default().execute(&request.request()).map(|o| match o {
                ExecOutcome::Outputs(o) => o.len(),
                _ => 0,
            });
            let count = outs.unwrap_or(0);
            for j in 0..count {
                run.arg(format!("--output=@{text}.out{j}.bin"));
            }
            let ran = run.output().expect("iree-run-module runs");
            assert!(ran.status.success(), "request {k}: {text}: {}", String::from_utf8_lossy(&ran.stderr));
            let bytes: Vec<Vec<u8>> =
                (0..count).map(|j| std::fs::read(work.join(format!("{text}.out{j}.bin"))).expect("output")).collect();
            answers.push(Some(bytes));
        }
        assert_eq!(answers[0], answers[1], "request {k}: the printed text and the generic form differ");
        match &answers[0] {
            Some(_) => same += 1,
            None => refused += 1,
        }
    }
    eprintln!("{same} graphs compiled and ran the same both ways, {refused} refused both ways");
    assert!(same >= 4, "only {same} graphs compared");
}

/// `iree@host`: IREE compiling for this machine's CPU, a second version of
/// the `iree` tool (the release differential compares them), opt-in.
#[test]
fn iree_at_host_compiles_for_this_cpu_and_is_a_version_of_iree() {
    let Some(_) = iree() else { return };
    let config = spvgraph_oracle::registry::OracleConfig::default();
    let generic = spvgraph_oracle::registry::build("iree", &config).expect("known");
    let host = spvgraph_oracle::registry::build("iree@host", &config).expect("a variant");
    assert_eq!((host.name(), host.tool(), host.channel()), ("iree@host", "iree", Some("host")));
    let (g, h) = (generic.version().unwrap_or_default(), host.version().unwrap_or_default());
    assert!(g.ends_with("; target-cpu generic"), "{g}");
    assert!(h.contains("; target-cpu host (") && h.contains("3.13"), "{h}");
    let m = spvgraph_ir::samples::elementwise_chain(3);
    let x = TensorData::from_bits(ElemType::Fp32, &[1, 8, 8, 4], &[f32::to_bits(-0.75) as u64; 256]).expect("x");
    let words = m.encode_words().expect("encodes");
    let inputs = [x.clone(), x];
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &gc };
    let ours = outputs(Executor::default().execute(&request).expect("answers"));
    assert_eq!(outputs(host.executor().and_then(|e| e.execute(&request)).expect("IREE answers")), ours);
    let all = spvgraph_oracle::registry::expand(&["all".into()], &config).expect("expands");
    assert!(!all.iter().any(|n| n == "iree@host"), "{all:?}");
}
