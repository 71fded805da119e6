//! The `vulkan` oracle against the real emulation layers on lavapipe,
//! through the Vulkan API in a worker process (`spvgraph vulkan-worker`,
//! the binary cargo builds next to this test): outputs against the in-tree
//! executor, every element type, bindings and graph constants, tensor-array
//! interfaces, planted crashes, hangs and lost devices (the worker is
//! replaced, by the spare started ahead of need), the memory limit, the
//! choice of device and driver, the worker command, glslang kept
//! initialized or not (the same bits), and where the time goes by phase.
//! Skipped with a notice when the tools are missing (a failure under
//! `CI=true`).

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::compliance::{compare_run, Agreement, PreciseOutcome, PreciseOutput, ReferenceTensor};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::process::{Limits, ScratchDir};
use spvgraph_oracle::external::vulkan::{Fault, Vulkan, WorkerCommand};
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle, OracleError, Refusal};
use spvgraph_oracle::registry::{self, OracleConfig};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::consumer_common;

use consumer_common::{f32s, io, module, outputs, request, tensor, Io};

/// The oracle, or `None` with a notice when a tool is missing outside CI.
fn oracle() -> Option<Vulkan> {
    spvgraph_testkit::oracle(Vulkan::discover())
}

/// `|x|` of an i32 `[4]` at bindings 0 and 1.
fn abs_module() -> Vec<u32> {
    module(&[io(ElemType::I32, &[4], 0, 0)], &[io(ElemType::I32, &[4], 0, 1)], |b, x, t| {
        vec![b.tosa(TosaOp::Abs, t[0], vec![x[0]])]
    })
}

fn abs_works(v: &Vulkan) {
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    assert_eq!(outputs(v.execute(&request(&words, &a)))[0].to_bits(), vec![1, 2, 3, 4]);
}

#[test]
fn float_and_integer_graph_is_compliant_with_the_in_tree_executor() {
    let Some(vk) = oracle() else { return };
    let (f, s) = (ElemType::Fp32, &[2u32, 3][..]);
    let words = module(
        &[io(f, s, 0, 0), io(f, s, 0, 1), io(ElemType::I32, s, 0, 2)],
        &[io(f, s, 0, 3), io(ElemType::I32, s, 0, 4), io(ElemType::Fp16, s, 0, 5)],
        |b, x, t| {
            let sum = b.tosa(TosaOp::Add, t[0], vec![x[0], x[1]]);
            let nan_mode = b.const_u32(1);
            let max = b.tosa(TosaOp::Maximum, t[0], vec![nan_mode, sum, x[0]]);
            let abs = b.tosa(TosaOp::Abs, t[1], vec![x[2]]);
            let half = b.tosa(TosaOp::Cast, t[2], vec![max]);
            vec![max, abs, half]
        },
    );
    let inputs = [
        f32s(&[2, 3], &[1.5, -2.25, 3.0e10, 0.1, -0.0, 7.0]),
        f32s(&[2, 3], &[0.25, 0.5, -1.0, 0.2, 1.0e-3, -9.5]),
        tensor(ElemType::I32, &[2, 3], &[-5, 0, 7, i64::from(i32::MIN) + 1, -1, 123_456]),
    ];
    let req = request(&words, &inputs);
    let got = vk.execute(&req);
    let reference = PreciseOutcome::Outputs(
        outputs(Executor::default().execute(&req))
            .into_iter()
            .map(|t| PreciseOutput { reference: ReferenceTensor::Typed(t), bounds: None })
            .collect(),
    );
    let verdict = compare_run(&req, &reference, vk.instance().name(), got.clone()).expect("judged");
    assert!(matches!(verdict, Agreement::Compliant(_)), "{verdict:?}");
    assert_eq!(
        outputs(got)[1].to_bits(),
        tensor(ElemType::I32, &[2, 3], &[5, 0, 7, i64::from(i32::MAX), 1, 123_456]).to_bits()
    );
}

#[test]
fn every_element_type_goes_in_and_comes_out() {
    let Some(vk) = oracle() else { return };
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
    let ins: Vec<Io> = moved.iter().enumerate().map(|(k, (e, _))| io(*e, &[4], 0, k as u32)).collect();
    let outs: Vec<Io> = moved.iter().enumerate().map(|(k, (e, _))| io(*e, &[4], 0, 100 + k as u32)).collect();
    let words = module(&ins, &outs, |b, x, t| {
        let axis = b.const_u32(0);
        x.iter().zip(t).map(|(&v, &ty)| b.tosa(TosaOp::Reverse, ty, vec![axis, v])).collect()
    });
    let inputs: Vec<TensorData> = moved.iter().map(|(e, v)| tensor(*e, &[4], v)).collect();
    let req = request(&words, &inputs);
    let got = outputs(vk.execute(&req));
    let want = outputs(Executor::default().execute(&req));
    for ((g, w), (elem, _)) in got.iter().zip(&want).zip(&moved) {
        assert_eq!(g.elem(), *elem);
        assert_eq!(g.to_bits(), w.to_bits(), "{elem}");
    }
}

#[test]
fn bindings_and_graph_constants_follow_the_module() {
    let Some(vk) = oracle() else { return };
    // Bindings out of order and in set 1; graph constants 1 and 3 only, used
    // by a subtraction so that swapping them would show.
    let words = module(&[io(ElemType::I32, &[4], 1, 7)], &[io(ElemType::I32, &[4], 1, 2)], |b, v, t| {
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
    let got = outputs(vk.execute(&req));
    assert_eq!(got[0].to_bits(), tensor(ElemType::I32, &[4], &[-989, -1978, -2967, -3956]).to_bits());
}

/// A graph with a tensor-array input of two elements (binding 0) and a
/// tensor-array output of two (binding 1): out[0] = |in[1]|, out[1] =
/// -in[1]. Element 0 of the input is bound but not read (a graph that
/// reads both crashes the layer: `emulation-layer-tensor-array-elements-sigsegv`).
fn array_module() -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let arr = b.type_array(t, 2);
    let gty = b.type_graph(&[arr], &[arr]);
    let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(arr, 0, 1)];
    let zero = b.const_tensor(ElemType::I32, &[1], &[0]).expect("[1] zero point");
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let second = b.graph_input(t, 0, Some(1));
    let abs = b.tosa(TosaOp::Abs, t, vec![second]);
    let neg = b.tosa(TosaOp::Negate, t, vec![second, zero, zero]);
    b.graph_output(abs, 0, Some(0));
    b.graph_output(neg, 0, Some(1));
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

#[test]
fn tensor_array_interfaces_are_bound_element_by_element() {
    let Some(vk) = oracle() else { return };
    let words = array_module();
    let inputs = [tensor(ElemType::I32, &[4], &[1, -2, 3, -4]), tensor(ElemType::I32, &[4], &[-5, 6, -7, 8])];
    let req = request(&words, &inputs);
    let want = outputs(Executor::default().execute(&req));
    assert_eq!(want[0].to_bits(), tensor(ElemType::I32, &[4], &[5, 6, 7, 8]).to_bits());
    assert_eq!(want[1].to_bits(), tensor(ElemType::I32, &[4], &[5, -6, 7, -8]).to_bits());
    // Outputs in OutputIndex then ElementIndex order, as the in-tree
    // executor and the judgement flatten them.
    assert_eq!(outputs(vk.execute(&req)), want);
}

#[test]
fn a_planted_crash_is_a_signal_and_the_next_request_gets_a_new_worker() {
    let Some(vk) = oracle() else { return };
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    abs_works(&vk);
    match vk.execute_with_fault(&request(&words, &a), Fault::Segfault) {
        Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(11), .. }) => {}
        other => panic!("expected SIGSEGV, got {other:?}"),
    }
    abs_works(&vk);
    // One cold start; the crashed worker's place was taken by the spare,
    // and a new spare started behind it.
    let s = vk.stats();
    assert_eq!((s.cold_starts, s.spares, s.lost, s.graphs), (1, 2, 1, 3), "{s:?}");
    assert_eq!(s.started, s.cold_starts + s.spares);
}

/// The restart figure of the README: 20 graphs, a crash planted in every
/// fifth, each crash costing one new worker and nothing else.
#[test]
fn planted_crashes_cost_one_restart_each() {
    let Some(vk) = oracle() else { return };
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    let start = std::time::Instant::now();
    let (mut crashes, mut right) = (0, 0);
    for i in 0..20 {
        if i % 5 == 2 {
            match vk.execute_with_fault(&request(&words, &a), Fault::Segfault) {
                Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(11), .. }) => crashes += 1,
                other => panic!("graph {i}: expected SIGSEGV, got {other:?}"),
            }
        } else {
            assert_eq!(outputs(vk.execute(&request(&words, &a)))[0].to_bits(), vec![1, 2, 3, 4], "graph {i}");
            right += 1;
        }
    }
    let s = vk.stats();
    assert_eq!((crashes, right), (4, 16));
    // Every crash is replaced by the spare (waited for if it was not ready
    // yet), never by a cold start.
    assert_eq!((s.cold_starts, s.spares, s.lost, s.graphs), (1, 5, 4, 20), "{s:?}");
    eprintln!(
        "20 graphs, 4 planted SIGSEGVs: {} workers started ({} cold, {} spares; {} waits for a spare, {:.2} s), \
         {} lost, 16 right answers, {:.2} s",
        s.started,
        s.cold_starts,
        s.spares,
        s.waits,
        s.waited.as_secs_f64(),
        s.lost,
        start.elapsed().as_secs_f64()
    );
}

/// Waits until `n` workers are idle (the spare is ready), at most a minute.
fn wait_idle(vk: &Vulkan, n: u64) {
    let until = Instant::now() + Duration::from_secs(60);
    while vk.stats().idle < n {
        assert!(Instant::now() < until, "no spare ready after a minute: {:?}", vk.stats());
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn after_a_crash_the_next_graph_runs_on_the_spare_without_a_cold_start() {
    let Some(vk) = oracle() else { return };
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    abs_works(&vk);
    // The worker that ran the graph and the spare started behind it.
    wait_idle(&vk, 2);
    let before = vk.stats();
    assert_eq!((before.cold_starts, before.spares, before.idle), (1, 1, 2), "{before:?}");
    let phases = vk.phase_times();
    match vk.execute_with_fault(&request(&words, &a), Fault::Segfault) {
        Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(11), .. }) => {}
        other => panic!("expected SIGSEGV, got {other:?}"),
    }
    let crashed = vk.phase_times().since(&phases);
    // The fault is planted at the dispatch: the crash's time is `run`, after
    // the pipeline was created (`compile`).
    assert!(crashed.run > Duration::ZERO, "{crashed:?}");
    let t = Instant::now();
    abs_works(&vk);
    let after = vk.stats();
    // No cold start and no wait: the spare was ready.
    assert_eq!((after.cold_starts, after.waits, after.lost), (1, 0, 1), "{after:?}");
    assert_eq!(after.spares, 2, "a new spare behind the one taken: {after:?}");
    let ran = vk.phase_times().since(&phases);
    assert!(ran.compile > crashed.compile && ran.readback > Duration::ZERO, "{ran:?}");
    eprintln!(
        "the graph after the crash: {:.3} s on the spare; phases since the crash {ran:?}",
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn without_a_spare_a_crash_costs_the_next_graph_a_cold_start() {
    let Some(vk) = oracle() else { return };
    let vk = vk.with_spare(false);
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    abs_works(&vk);
    let start = vk.phase_times().start;
    assert!(matches!(
        vk.execute_with_fault(&request(&words, &a), Fault::Segfault),
        Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(11), .. })
    ));
    abs_works(&vk);
    let s = vk.stats();
    assert_eq!((s.cold_starts, s.spares, s.lost, s.idle), (2, 0, 1, 1), "{s:?}");
    assert!(vk.phase_times().start > start, "the restart is start-up time");
}

#[test]
fn a_spare_still_starting_is_stopped_with_the_oracle() {
    let Some(vk) = oracle() else { return };
    drop(vk);
    // Workers under a name of their own, told apart from other tests'.
    let scratch = spvgraph_testkit::scratch("vulkan-spare");
    let link = scratch.join("spvgraph-spare-test");
    let program = WorkerCommand::discover().expect("the worker").program;
    std::os::unix::fs::symlink(&program, &link).expect("symlink");
    let vk = Vulkan::discover().with_worker(WorkerCommand::spvgraph(&link));
    // The first worker, and the spare starting behind it.
    vk.available().expect("a worker");
    let s = vk.stats();
    assert_eq!((s.cold_starts, s.spares), (1, 1), "{s:?}");
    let ours = |name: &str| {
        let me = std::process::id().to_string();
        std::fs::read_dir("/proc")
            .expect("procfs")
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
            .filter(|stat| {
                // `pid (comm) state ppid ...`; comm is cut at 15 bytes.
                let (head, rest) = stat.rsplit_once(") ").unwrap_or(("", ""));
                head.ends_with(&format!("({name}")) && rest.split_whitespace().nth(1) == Some(me.as_str())
            })
            .count()
    };
    assert!(ours("spvgraph-spare-") >= 1, "the first worker runs under the link's name");
    drop(vk);
    assert_eq!(ours("spvgraph-spare-"), 0, "workers left behind");
}

#[test]
fn a_planted_hang_is_a_timeout_and_a_lost_device_a_refusal() {
    let Some(vk) = oracle() else { return };
    let vk = vk.with_limits(Limits { timeout: Duration::from_secs(3), memory_bytes: Some(4 << 30) });
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    match vk.execute_with_fault(&request(&words, &a), Fault::Hang) {
        Ok(ExecOutcome::Abnormal { how: Abnormal::Timeout, .. }) => {}
        other => panic!("expected a time-out, got {other:?}"),
    }
    abs_works(&vk);
    match vk.execute_with_fault(&request(&words, &a), Fault::DeviceLost) {
        Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason }) => {
            assert!(reason.starts_with("the device was lost"), "{reason}");
            assert!(reason.contains("VK_ERROR_DEVICE_LOST"), "{reason}");
        }
        other => panic!("expected a device-lost refusal, got {other:?}"),
    }
    abs_works(&vk);
    let s = vk.stats();
    assert_eq!((s.cold_starts, s.spares, s.lost), (1, 3, 2), "{s:?}");
}

#[test]
fn going_over_the_memory_limit_is_an_outcome() {
    let Some(vk) = oracle() else { return };
    // The worker alone (loader, lavapipe, layers) takes more than this.
    let vk = vk.with_limits(Limits { timeout: Duration::from_secs(60), memory_bytes: Some(24 << 20) });
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    let r = vk.execute(&request(&words, &a));
    assert!(matches!(r, Ok(ExecOutcome::Abnormal { how: Abnormal::OutOfMemory, .. })), "{r:?}");
}

#[test]
fn a_layer_exception_through_pipeline_creation_is_a_crash_in_that_call() {
    let Some(vk) = oracle() else { return };
    // A graph constant as a compile-time-constant operand (MUL's shift):
    // the layer refuses it at pipeline creation by throwing a C++
    // exception, which scenario-runner catches and a Rust (or C) program
    // cannot: the worker's C++ guard catches it, and the worker goes on.
    let words = module(
        &[io(ElemType::I32, &[4], 0, 0), io(ElemType::I32, &[4], 0, 1)],
        &[io(ElemType::I32, &[4], 0, 2)],
        |b, x, t| {
            let shift_ty = b.type_tensor(ElemType::I8, Some(&[1]));
            let shift = b.graph_constant(shift_ty, 0);
            vec![b.tosa(TosaOp::Mul, t[0], vec![x[0], x[1], shift])]
        },
    );
    let inputs = [tensor(ElemType::I32, &[4], &[1, 2, 3, 4]), tensor(ElemType::I32, &[4], &[5, 6, 7, 8])];
    let mut constants = BTreeMap::new();
    constants.insert(0, tensor(ElemType::I8, &[1], &[0]));
    let req = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &constants };
    match vk.execute(&req) {
        Ok(ExecOutcome::Abnormal { how: Abnormal::Threw, detail }) => {
            assert!(detail.starts_with("while running the graph: in vkCreateDataGraphPipelinesARM"), "{detail}");
            assert!(detail.contains(spvgraph_oracle::external::vulkan::CPP_EXCEPTION), "{detail}");
        }
        other => panic!("expected the exception caught in pipeline creation, got {other:?}"),
    }
    // The next request runs on the same worker.
    abs_works(&vk);
    let s = vk.stats();
    assert_eq!((s.cold_starts, s.lost), (1, 0), "{s:?}");
}

#[test]
fn the_device_is_chosen_by_index_or_name_and_the_version_names_it() {
    let Some(vk) = oracle() else { return };
    let v = vk.version().expect("a version");
    for part in [
        "device 0: llvmpipe",
        "driver llvmpipe Mesa",
        "VK_LAYER_ML_Graph_Emulation",
        "ai-ml-emulation-layer-for-vulkan",
    ] {
        assert!(v.contains(part), "{v}");
    }
    abs_works(&Vulkan::discover().with_device(Some("0".into())));
    abs_works(&Vulkan::discover().with_device(Some("LLVMPIPE".into())));
    match Vulkan::discover().with_device(Some("no-such-gpu".into())).available() {
        Err(OracleError::Unavailable { reason, .. }) => {
            assert!(reason.contains("no device matches SPVGRAPH_VULKAN_DEVICE=\"no-such-gpu\""), "{reason}");
            assert!(reason.contains("0: llvmpipe"), "{reason}");
        }
        other => panic!("expected unavailable, got {other:?}"),
    }
}

#[test]
fn a_driver_directory_without_the_layers_has_no_data_graph_device() {
    let Some(vk) = oracle() else { return };
    let env = vk.env().expect("available");
    // Lavapipe's manifest alone: a driver without VK_ARM_data_graph.
    let dir = ScratchDir::new("vulkan-driver-test").expect("scratch");
    std::fs::copy(&env.icds[0], dir.join("lvp.json")).expect("copy the manifest");
    let mut config = OracleConfig::default();
    config.set_path(&format!("vulkan={}", dir.path().display())).expect("exists");
    let o = registry::build(registry::VULKAN, &config).expect("known name");
    match o.available() {
        Err(OracleError::Unavailable { reason, .. }) => {
            assert!(reason.contains("no device exposes VK_ARM_tensors and VK_ARM_data_graph"), "{reason}")
        }
        other => panic!("expected unavailable, got {other:?}"),
    }
    // The layers next to it: the emulation layer on that driver.
    let layers = env.layers.as_ref().expect("the provisioned layers");
    for l in &layers.libraries {
        std::os::unix::fs::symlink(l, dir.join(l.file_name().expect("a file"))).expect("symlink");
    }
    let o = registry::build(registry::VULKAN, &config).expect("known name");
    o.available().expect("the layers are found");
    let words = abs_module();
    let a = [tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])];
    assert_eq!(outputs(o.executor().and_then(|e| e.execute(&request(&words, &a))))[0].to_bits(), vec![1, 2, 3, 4]);
    // Neither a driver nor layers.
    let empty = ScratchDir::new("vulkan-driver-test").expect("scratch");
    config.set_path(&format!("vulkan={}", empty.path().display())).expect("exists");
    match registry::build(registry::VULKAN, &config).expect("known name").available() {
        Err(OracleError::Unavailable { reason, .. }) => assert!(reason.contains("holds neither"), "{reason}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
}

#[test]
fn the_worker_command_is_explicit() {
    let missing = Vulkan::discover().with_worker(WorkerCommand::spvgraph("/nonexistent/spvgraph"));
    match missing.available() {
        Err(OracleError::Unavailable { reason, .. }) => assert!(reason.contains("/nonexistent/spvgraph"), "{reason}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
    // A program that is no worker: it exits without a word.
    let not_a_worker = Vulkan::discover().with_worker(WorkerCommand { program: "/bin/true".into(), args: vec![] });
    if not_a_worker.env().is_ok() {
        match not_a_worker.available() {
            Err(OracleError::Unavailable { reason, .. }) => {
                assert!(reason.contains("exited with status 0 before it was ready"), "{reason}")
            }
            other => panic!("expected unavailable, got {other:?}"),
        }
    }
}

#[test]
fn glslang_kept_or_not_gives_the_same_bits_and_the_version_says_which() {
    let Some(kept) = oracle() else { return };
    let kept = kept.with_glslang_kept(true);
    let not_kept = Vulkan::discover().with_glslang_kept(false);
    let v = kept.version().expect("a version");
    assert!(v.ends_with("; glslang kept initialized in libVkLayer_Graph.so, libVkLayer_Tensor.so"), "{v}");
    let report = kept.device_report().expect("a device");
    assert_eq!(report.glslang_kept.len(), 2, "{report:?}");
    assert!(report.warm_up.as_deref().is_some_and(|w| w.starts_with("ABS of fp32 [1] in ")), "{report:?}");
    let v = not_kept.version().expect("a version");
    assert!(v.ends_with("; glslang not kept (SPVGRAPH_KEEP_GLSLANG=0)") && !v.contains("kept initialized"), "{v}");
    let mut same = Vec::new();
    for stem in consumer_common::CORPUS_CASES {
        let r = consumer_common::corpus_case(stem);
        match (kept.execute(&r.request()), not_kept.execute(&r.request())) {
            (Ok(ExecOutcome::Outputs(a)), Ok(ExecOutcome::Outputs(b))) => {
                assert_eq!(consumer_common::bits(&a), consumer_common::bits(&b), "{stem}: the outputs differ");
                same.push(*stem);
            }
            (a, b) => panic!("{stem}: {a:?} with glslang kept, {b:?} without"),
        }
    }
    let (k, n) = (kept.phase_times(), not_kept.phase_times());
    eprintln!(
        "{} corpus cases, identical bits; pipeline creation with glslang kept {:.2} s, not kept {:.2} s",
        same.len(),
        k.compile.as_secs_f64(),
        n.compile.as_secs_f64()
    );
}
