//! The emulation-layer adapter against the real scenario runner and layers on
//! lavapipe: outputs against the in-tree executor under the TOSA compliance
//! rules, integer exactness, bindings and graph constants, batches in which
//! one graph fails, time-outs, a user's own build and a bogus one, the
//! glslang shim (the same bits with and without it) and the phase times.
//! Skipped with a notice when the tools are missing (a failure under
//! `CI=true`).

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::compliance::{compare_run, Agreement, PreciseOutcome, PreciseOutput, ReferenceTensor};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::consumer::glslang;
use spvgraph_oracle::external::emulation_layer::EmulationLayer;
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle, OracleError, Refusal};
use spvgraph_oracle::registry::{self, OracleConfig};
use std::collections::BTreeMap;
use std::time::Duration;

use crate::consumer_common;

use consumer_common::{f32s, io, module, outputs, request, tensor, Io};

/// The oracle, or `None` with a notice when a tool is missing outside CI.
fn oracle() -> Option<EmulationLayer> {
    spvgraph_testkit::oracle(EmulationLayer::discover())
}

/// The in-tree executor's answer as the reference of the compliance judge.
fn in_tree_reference(request: &ExecRequest<'_>) -> PreciseOutcome {
    let outs = outputs(Executor::default().execute(request));
    PreciseOutcome::Outputs(
        outs.into_iter().map(|t| PreciseOutput { reference: ReferenceTensor::Typed(t), bounds: None }).collect(),
    )
}

#[test]
fn float_and_integer_graph_is_compliant_with_the_in_tree_executor() {
    let Some(el) = oracle() else { return };
    let v = io(ElemType::Fp32, &[2, 3], 0, 0);
    let w = io(ElemType::Fp32, &[2, 3], 0, 1);
    let i = io(ElemType::I32, &[2, 3], 0, 2);
    let out = [io(ElemType::Fp32, &[2, 3], 0, 3), io(ElemType::I32, &[2, 3], 0, 4), io(ElemType::Fp16, &[2, 3], 0, 5)];
    let words = module(&[v, w, i], &out, |b, x, t| {
        let sum = b.tosa(TosaOp::Add, t[0], vec![x[0], x[1]]);
        let nan_mode = b.const_u32(1);
        let max = b.tosa(TosaOp::Maximum, t[0], vec![nan_mode, sum, x[0]]);
        let abs = b.tosa(TosaOp::Abs, t[1], vec![x[2]]);
        let half = b.tosa(TosaOp::Cast, t[2], vec![max]);
        vec![max, abs, half]
    });
    let inputs = [
        f32s(&[2, 3], &[1.5, -2.25, 3.0e10, 0.1, -0.0, 7.0]),
        f32s(&[2, 3], &[0.25, 0.5, -1.0, 0.2, 1.0e-3, -9.5]),
        tensor(ElemType::I32, &[2, 3], &[-5, 0, 7, i64::from(i32::MIN) + 1, -1, 123_456]),
    ];
    let req = request(&words, &inputs);
    let got = el.execute(&req);
    let verdict = compare_run(&req, &in_tree_reference(&req), el.instance().name(), got.clone()).expect("judged");
    assert!(matches!(verdict, Agreement::Compliant(_)), "{verdict:?}");
    let got = outputs(got);
    assert_eq!(got[1].to_bits(), tensor(ElemType::I32, &[2, 3], &[5, 0, 7, i64::from(i32::MAX), 1, 123_456]).to_bits());
    assert_eq!(got[2].elem(), ElemType::Fp16);
}

#[test]
fn integer_results_are_bit_exact() {
    let Some(el) = oracle() else { return };
    let a = io(ElemType::I32, &[8], 0, 0);
    let s = io(ElemType::I32, &[8], 0, 1);
    let out = [io(ElemType::I32, &[8], 0, 2), io(ElemType::I32, &[8], 0, 3), io(ElemType::I32, &[8], 0, 4)];
    let words = module(&[a, s], &out, |b, x, t| {
        let round = b.const_bool(true);
        let shifted = b.tosa(TosaOp::ArithmeticRightShift, t[0], vec![round, x[0], x[1]]);
        let quotient = b.tosa(TosaOp::Intdiv, t[1], vec![x[0], x[1]]);
        let shift_ty = b.type_tensor(ElemType::I8, Some(&[1]));
        let zero = b.const_scalar(ElemType::I8, 0);
        let shift = b.const_composite(shift_ty, vec![zero]);
        let product = b.tosa(TosaOp::Mul, t[2], vec![x[0], x[1], shift]);
        vec![shifted, quotient, product]
    });
    let inputs = [
        tensor(ElemType::I32, &[8], &[-7, 7, -8, 1 << 30, -(1 << 30), 12345, -1, i64::from(i32::MIN) + 3]),
        tensor(ElemType::I32, &[8], &[1, 1, 2, 3, 4, 5, 31, 7]),
    ];
    let req = request(&words, &inputs);
    let got = outputs(el.execute(&req));
    let want = outputs(Executor::default().execute(&req));
    for (j, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "output {j}: layer {g:?}, in-tree {w:?}");
    }
}

#[test]
fn bindings_and_graph_constants_follow_the_module() {
    let Some(el) = oracle() else { return };
    // Bindings out of order and in set 1; graph constants 1 and 3 only, used
    // by a subtraction so that swapping them would show.
    let x = io(ElemType::I32, &[4], 1, 7);
    let out = [io(ElemType::I32, &[4], 1, 2)];
    let words = module(&[x], &out, |b, v, t| {
        let one = b.graph_constant(t[0], 1);
        let three = b.graph_constant(t[0], 3);
        let sum = b.tosa(TosaOp::Add, t[0], vec![v[0], three]);
        vec![b.tosa(TosaOp::Sub, t[0], vec![sum, one])]
    });
    let inputs = [tensor(ElemType::I32, &[4], &[1, 2, 3, 4])];
    let mut constants = BTreeMap::new();
    constants.insert(1, tensor(ElemType::I32, &[4], &[1000, 2000, 3000, 4000]));
    constants.insert(3, tensor(ElemType::I32, &[4], &[10, 20, 30, 40]));
    let req = ExecRequest { module: &words, entry_point: Some("main"), inputs: &inputs, graph_constants: &constants };
    let got = outputs(el.execute(&req));
    assert_eq!(got[0].to_bits(), tensor(ElemType::I32, &[4], &[-989, -1978, -2967, -3956]).to_bits());
}

#[test]
fn tensor_array_interfaces_are_unsupported_by_the_runner() {
    let Some(el) = oracle() else { return };
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let arr = b.type_array(t, 2);
    let gty = b.type_graph(&[arr], &[t]);
    let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(t, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let second = b.graph_input(t, 0, Some(1));
    let y = b.tosa(TosaOp::Abs, t, vec![second]);
    b.graph_output(y, 0, None);
    b.end_graph();
    let words = b.finish().encode_words().expect("encodes");
    let inputs = [tensor(ElemType::I32, &[4], &[1, 2, 3, 4]), tensor(ElemType::I32, &[4], &[-5, 6, -7, 8])];
    match el.execute(&request(&words, &inputs)) {
        Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, reason }) => assert!(reason.contains("tensor arrays")),
        other => panic!("expected an unsupported refusal, got {other:?}"),
    }
    assert_eq!(el.stats().processes, 0, "nothing was run");
}

/// `|x|` of an i32 `[4]` at bindings 0 and 1; with `debug`, the graph body
/// also names the graph with a NonSemantic.Graph.DebugInfo `DebugGraph`.
fn abs_graph(debug: bool) -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let debug = debug.then(|| (b.graph_debug_set(), b.string("main"), b.type_void()));
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    if let Some((set, name, void)) = debug {
        let result = b.id();
        let inst = spvgraph_ir::GraphDebugInst::Graph { graph: g, name };
        b.graph_inst(spvgraph_ir::Inst::GraphDebug { ty: void, result, set, inst });
    }
    let y = b.tosa(TosaOp::Abs, t, vec![x]);
    b.graph_output(y, 0, None);
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

fn abs_module() -> Vec<u32> {
    abs_graph(false)
}

#[test]
fn a_refused_graph_in_a_batch_leaves_the_others_their_outputs() {
    let Some(el) = oracle() else { return };
    let el = el.with_workarounds(spvgraph_oracle::external::emulation_layer::Workarounds::NONE);
    let plain = abs_module();
    let debug = abs_graph(true);
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    let b = [tensor(ElemType::I32, &[4], &[5, -6, 7, -8])];
    let requests = [request(&plain, &a), request(&debug, &a), request(&plain, &b)];
    let results = el.execute_batch(&requests);
    assert_eq!(outputs(results[0].clone())[0].to_bits(), tensor(ElemType::I32, &[4], &[1, 2, 3, 4]).to_bits());
    match &results[1] {
        Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason }) => {
            assert!(reason.contains("NonSemantic.Graph.DebugInfo"), "{reason}")
        }
        other => panic!("expected the layer to refuse the debug-info module, got {other:?}"),
    }
    assert_eq!(outputs(results[2].clone())[0].to_bits(), tensor(ElemType::I32, &[4], &[5, 6, 7, 8]).to_bits());
    // One run of the three, then (the log naming the culprit) the graph
    // before it, the culprit alone and the graph after it: no bisection.
    assert_eq!(el.stats().processes, 4, "{:?}", el.stats());
}

#[test]
fn a_hung_run_is_a_timeout_for_each_graph() {
    let Some(el) = oracle() else { return };
    let el = el.with_timeout(Duration::from_millis(5));
    let plain = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    let results = el.execute_batch(&[request(&plain, &a), request(&plain, &a)]);
    for r in results {
        assert!(matches!(r, Ok(ExecOutcome::Abnormal { how: Abnormal::Timeout, .. })), "{r:?}");
    }
}

#[test]
fn a_bogus_oracle_path_makes_the_oracle_unavailable() {
    let dir = spvgraph_testkit::scratch("el-bogus");
    let mut config = OracleConfig::default();
    config.set_path(&format!("{}={}", registry::EMULATION_LAYER, dir.display())).expect("the directory exists");
    let o = registry::build(registry::EMULATION_LAYER, &config).expect("known name");
    match o.available() {
        Err(OracleError::Unavailable { oracle, reason }) => {
            assert_eq!(oracle, registry::EMULATION_LAYER);
            assert!(reason.contains("VK_LAYER_ML_Graph_Emulation"), "{reason}");
            assert!(reason.contains("VK_LAYER_ML_Tensor_Emulation"), "{reason}");
            assert!(reason.contains(&dir.display().to_string()), "{reason}");
        }
        other => panic!("expected unavailable, got {other:?}"),
    }
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    assert!(matches!(o.executor().and_then(|e| e.execute(&request(&words, &a))), Err(OracleError::Unavailable { .. })));
}

#[test]
fn a_user_build_directory_with_only_the_libraries_runs() {
    let Some(el) = oracle() else { return };
    let setup = el.setup().expect("available");
    let dir = spvgraph_testkit::scratch("el-user");
    let lib = dir.join("build/lib");
    std::fs::create_dir_all(&lib).expect("dir");
    for l in setup.layer_libraries().expect("the layers") {
        let name = l.file_name().expect("a file");
        let _ = std::fs::remove_file(lib.join(name));
        std::os::unix::fs::symlink(l, lib.join(name)).expect("symlink");
    }
    let mut config = OracleConfig::default();
    config.set_path(&format!("emulation-layer={}", dir.display())).expect("exists");
    let user = registry::build(registry::EMULATION_LAYER, &config).expect("known name");
    user.available().expect("the user's layers are found");
    let version = user.version().expect("a version");
    assert!(version.starts_with("ai-ml-emulation-layer-for-vulkan 0.11.0 ("), "{version}");
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    assert_eq!(outputs(user.executor().and_then(|e| e.execute(&request(&words, &a))))[0].to_bits(), vec![1, 2, 3, 4]);
}

#[test]
fn versions_name_the_packages() {
    let Some(el) = oracle() else { return };
    let v = el.version().expect("recorded by ci/setup-oracles");
    for part in ["ai-ml-emulation-layer-for-vulkan ", "ai-ml-sdk-scenario-runner ", "mesa-vulkan-drivers "] {
        assert!(v.contains(part), "{v}");
    }
}

#[test]
fn every_element_type_goes_in_and_comes_out() {
    let Some(el) = oracle() else { return };
    // REVERSE moves bool, i8, i16, i32, fp16, bf16, fp32 and both fp8s.
    let moved = [
        (ElemType::Bool, vec![1, 0, 0, 1]),
        (ElemType::I8, vec![-128, -1, 0, 127]),
        (ElemType::I16, vec![-32768, -2, 300, 32767]),
        (ElemType::I32, vec![i64::from(i32::MIN), -3, 70000, i64::from(i32::MAX)]),
        (ElemType::Fp16, vec![0x3c00, 0x8001, 0x7bff, 0xfc00]),
        (ElemType::Bf16, vec![0x3f80, 0x0001, 0x7f7f, 0xff80]),
        (ElemType::Fp32, vec![0x3f80_0000, 0x8000_0001, 0x7f7f_ffff, 0xff80_0000]),
        (ElemType::Fp8E4M3, vec![0x38, 0x81, 0x7e, 0xfe]),
        (ElemType::Fp8E5M2, vec![0x3c, 0x81, 0x7b, 0xfc]),
    ];
    let ios: Vec<Io> = moved.iter().enumerate().map(|(k, (e, _))| io(*e, &[4], 0, k as u32)).collect();
    let outs: Vec<Io> = moved.iter().enumerate().map(|(k, (e, _))| io(*e, &[4], 0, 100 + k as u32)).collect();
    let words = module(&ios, &outs, |b, x, t| {
        let axis = b.const_u32(0);
        x.iter().zip(t).map(|(&v, &ty)| b.tosa(TosaOp::Reverse, ty, vec![axis, v])).collect()
    });
    let inputs: Vec<TensorData> = moved.iter().map(|(e, v)| tensor(*e, &[4], v)).collect();
    let req = request(&words, &inputs);
    let got = outputs(el.execute(&req));
    let want = outputs(Executor::default().execute(&req));
    for ((g, w), (elem, _)) in got.iter().zip(&want).zip(&moved) {
        assert_eq!(g.elem(), *elem);
        assert_eq!(g.to_bits(), w.to_bits(), "{elem}");
    }
}

#[test]
fn i48_comes_out_of_matmul_and_goes_into_rescale() {
    let Some(el) = oracle() else { return };
    let a = io(ElemType::I16, &[1, 2, 3], 0, 0);
    let b_ = io(ElemType::I16, &[1, 3, 2], 0, 1);
    let wide = io(ElemType::I48, &[4], 0, 2);
    let out = [io(ElemType::I48, &[1, 2, 2], 0, 3), io(ElemType::I32, &[4], 0, 4)];
    let words = module(&[a, b_, wide], &out, |b, x, t| {
        let zp16 = b.const_tensor(ElemType::I16, &[1], &[0]).expect("zp");
        let product = b.tosa(TosaOp::Matmul, t[0], vec![x[0], x[1], zp16, zp16]);
        let (no, single_round) = (b.const_bool(false), b.const_u32(1));
        let multiplier = b.const_tensor(ElemType::I16, &[1], &[16384]).expect("multiplier");
        let shift = b.const_tensor(ElemType::I8, &[1], &[14]).expect("shift");
        let in_zp = b.const_tensor(ElemType::I48, &[1], &[0]).expect("zp");
        let out_zp = b.const_tensor(ElemType::I32, &[1], &[0]).expect("zp");
        let narrowed =
            b.tosa(TosaOp::Rescale, t[1], vec![no, single_round, no, no, no, x[2], multiplier, shift, in_zp, out_zp]);
        vec![product, narrowed]
    });
    let big = 32767;
    let inputs = [
        tensor(ElemType::I16, &[1, 2, 3], &[big, big, big, 1, 2, 3]),
        tensor(ElemType::I16, &[1, 3, 2], &[big, 1, big, 1, big, 1]),
        tensor(ElemType::I48, &[4], &[-5, 1 << 30, -(1 << 31), 123_456_789]),
    ];
    let req = request(&words, &inputs);
    let got = outputs(el.execute(&req));
    let k = 32767i64 * 32767;
    assert_eq!(got[0].elem(), ElemType::I48);
    assert_eq!(got[0].to_bits(), tensor(ElemType::I48, &[1, 2, 2], &[3 * k, 3 * 32767, 6 * 32767, 6]).to_bits());
    assert_eq!(got[1].to_bits(), tensor(ElemType::I32, &[4], &[-5, 1 << 30, -(1 << 31), 123_456_789]).to_bits());
    let want = outputs(Executor::default().execute(&req));
    assert_eq!(got, want);
}

#[test]
fn going_over_the_memory_limit_is_an_outcome() {
    let Some(el) = oracle() else { return };
    // The runner alone (loader, lavapipe, layers) takes more than this.
    let el = el.with_memory_limit(Some(24 << 20));
    let plain = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    let r = el.execute(&request(&plain, &a));
    assert!(matches!(r, Ok(ExecOutcome::Abnormal { how: Abnormal::OutOfMemory, .. })), "{r:?}");
}

/// The shim next to the test's build, or `None` with a notice (a failure
/// under `CI=true`).
fn shim() -> Option<std::path::PathBuf> {
    match glslang::find_shim() {
        Ok(p) => Some(p),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => panic!("CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}

#[test]
fn the_preloaded_shim_keeps_glslang_initialized_in_both_layers_and_the_bits_stay_the_same() {
    let Some(el) = oracle() else { return };
    let Some(_) = shim() else { return };
    let scratch = spvgraph_testkit::scratch("glslang-shim");
    let log = scratch.join("shim.log");
    let kept = el.with_glslang_kept(true).with_glslang_log(Some(log.clone()));
    let not_kept = EmulationLayer::discover().with_glslang_kept(false).with_glslang_log(Some(log.clone()));
    let v = kept.version().expect("a version");
    assert!(
        v.ends_with("; glslang kept initialized in libVkLayer_Graph.so, libVkLayer_Tensor.so (LD_PRELOAD libspvgraph_glslang_keep.so)"),
        "{v}"
    );
    let v = not_kept.version().expect("a version");
    assert!(v.ends_with("; glslang not kept: switched off (SPVGRAPH_KEEP_GLSLANG=0)"), "{v}");
    let owned: Vec<_> = consumer_common::CORPUS_CASES.iter().map(|s| consumer_common::corpus_case(s)).collect();
    let requests: Vec<ExecRequest<'_>> = owned.iter().map(|r| r.request()).collect();
    // Off first: it must leave the log empty.
    let without = not_kept.execute_batch(&requests);
    assert!(!log.exists(), "the shim acted with glslang not kept: {:?}", std::fs::read_to_string(&log));
    let with = kept.execute_batch(&requests);
    for ((stem, a), b) in consumer_common::CORPUS_CASES.iter().zip(&with).zip(&without) {
        match (a, b) {
            (Ok(ExecOutcome::Outputs(a)), Ok(ExecOutcome::Outputs(b))) => {
                assert_eq!(consumer_common::bits(a), consumer_common::bits(b), "{stem}: the outputs differ")
            }
            other => panic!("{stem}: {other:?}"),
        }
    }
    // One runner process for the batch: each layer initialized once, by
    // the shim, at the offset the oracle found.
    let text = std::fs::read_to_string(&log).expect("the shim's log");
    let preload = kept.glslang_preload().expect("a preload");
    for (lib, _) in &preload.targets {
        let line = format!("kept {}", lib.display());
        assert_eq!(text.lines().filter(|l| *l == line).count(), 1, "{text}");
    }
    assert_eq!(text.lines().count(), 2, "{text}");
    // Where the time went: the runner's log splits the process.
    let (k, stats) = (kept.phase_times(), kept.stats());
    assert!(k.start > Duration::ZERO && k.compile > Duration::ZERO, "{k:?}");
    assert!(k.total() >= stats.busy, "phases {k:?} cover the process time {:?}", stats.busy);
    let n = not_kept.phase_times();
    eprintln!(
        "{} corpus cases in one process, identical bits; pipeline creation with glslang kept {:.2} s, not kept {:.2} s",
        requests.len(),
        k.compile.as_secs_f64(),
        n.compile.as_secs_f64()
    );
}
