//! The TOSA reference model adapter against the real tools, with hand-written
//! TOSA MLIR: element types in and out, refusals, precise mode with bounds,
//! time limits. A missing tosa-tools install skips these tests with a notice,
//! except under `CI=true`, where it fails them.

use ndarray::{ArrayD, IxDyn};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::compliance::{bounds, compare, DotInfo, OpContext, ReferenceTensor};
use spvgraph_oracle::external::tosa_reference::{PreciseOutcome, TosaReferenceModel};
use spvgraph_oracle::oracle::{Abnormal, ExecOutcome, Oracle, OracleError, Refusal};
use spvgraph_oracle::tools::{Tool, Tools};
use std::time::Duration;

/// The oracle, or `None` with a notice when tosa-tools is missing outside CI.
fn model() -> Option<TosaReferenceModel> {
    let tools = Tools::discover();
    for t in [Tool::TosaOpt, Tool::TosaReferenceModel] {
        if let Err(e) = tools.get(t) {
            assert!(!Tools::required(), "CI=true and {e}");
            eprintln!("skipping: {e}");
            return None;
        }
    }
    let m = TosaReferenceModel::discover();
    m.available().expect("tools found, so the oracle is available");
    Some(m)
}

fn f32s(shape: &[usize], values: &[f32]) -> TensorData {
    TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(shape), values.to_vec()).expect("shape"))
}

fn bits(elem: ElemType, shape: &[usize], b: &[u64]) -> TensorData {
    TensorData::from_bits(elem, shape, b).expect("shape")
}

fn outputs(o: ExecOutcome) -> Vec<TensorData> {
    match o {
        ExecOutcome::Outputs(v) => v,
        ExecOutcome::Refused { kind, reason } => panic!("refused ({kind:?}): {reason}"),
        ExecOutcome::Abnormal { how, detail } => panic!("the model {how}: {detail}"),
    }
}

fn refusal(o: Result<ExecOutcome, OracleError>) -> (Refusal, String) {
    match o {
        Ok(ExecOutcome::Refused { kind, reason }) => (kind, reason),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Each run's time, by phase: `tosa-opt` under compile, the model under
/// run, its `.npy` outputs under readback; precise runs count too.
#[test]
fn time_is_counted_by_phase() {
    let Some(m) = model() else { return };
    let a = f32s(&[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    outputs(m.run_mlir(&add_of("2x3"), &[a.clone(), a.clone()], &[ElemType::Fp32]).expect("runs"));
    let once = m.phase_times();
    assert!(once.compile > Duration::ZERO && once.run > Duration::ZERO && once.readback > Duration::ZERO, "{once:?}");
    assert_eq!(once.start, Duration::ZERO);
    // The model's process is most of a run.
    assert!(once.run > once.readback, "{once:?}");
    let precise = m.run_mlir_precise(&add_of("2x3"), &[a.clone(), a], &[ElemType::Fp32]).expect("runs");
    assert!(matches!(precise, PreciseOutcome::Outputs(_)), "{precise:?}");
    let twice = m.phase_times();
    assert!(twice.compile > once.compile && twice.run > once.run && twice.readback > once.readback, "{twice:?}");
}

#[test]
fn runs_hand_written_mlir() {
    let Some(m) = model() else { return };
    let a = f32s(&[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let b = f32s(&[2, 3], &[0.5; 6]);
    let out = outputs(m.run_mlir(&add_of("2x3"), &[a, b], &[ElemType::Fp32]).expect("runs"));
    assert_eq!(out, vec![f32s(&[2, 3], &[0.5, 1.5, 2.5, 3.5, 4.5, 5.5])]);
}

const TYPES: &str = r#"
func.func @main(%a: tensor<4xf8E4M3FN>, %b: tensor<4xf8E5M2>, %c: tensor<4xi1>, %d: tensor<4xbf16>, %e: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xi1>, tensor<4xf8E4M3FN>, tensor<4xbf16>) {
  %0 = tosa.cast %a : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  %1 = tosa.cast %b : (tensor<4xf8E5M2>) -> tensor<4xf16>
  %2 = tosa.logical_not %c : (tensor<4xi1>) -> tensor<4xi1>
  %3 = tosa.cast %d : (tensor<4xbf16>) -> tensor<4xf8E4M3FN>
  %4 = tosa.cast %e : (tensor<4xf16>) -> tensor<4xf32>
  %5 = tosa.cast %4 : (tensor<4xf32>) -> tensor<4xbf16>
  return %0, %1, %2, %3, %5 : tensor<4xf32>, tensor<4xf16>, tensor<4xi1>, tensor<4xf8E4M3FN>, tensor<4xbf16>
}
"#;

#[test]
fn moves_every_storage_format_in_and_out() {
    let Some(m) = model() else { return };
    let inputs = [
        bits(ElemType::Fp8E4M3, &[4], &[0x38, 0x40, 0xb8, 0x7f]), // 1, 2, -1, NaN
        bits(ElemType::Fp8E5M2, &[4], &[0x3c, 0x40, 0xbc, 0x7c]), // 1, 2, -1, inf
        bits(ElemType::Bool, &[4], &[1, 0, 1, 0]),
        bits(ElemType::Bf16, &[4], &[0x3f80, 0x4000, 0xbf80, 0x43e0]), // 1, 2, -1, 448
        bits(ElemType::Fp16, &[4], &[0x3c00, 0x3555, 0xc000, 0x7bff]), // 1, 0.333, -2, 65504
    ];
    let types = [ElemType::Fp32, ElemType::Fp16, ElemType::Bool, ElemType::Fp8E4M3, ElemType::Bf16];
    let out = outputs(m.run_mlir(TYPES, &inputs, &types).expect("runs"));
    assert_eq!(out.len(), 5);
    let v0 = out[0].to_f64();
    assert_eq!(&v0[..3], &[1.0, 2.0, -1.0]);
    assert!(v0[3].is_nan());
    assert_eq!(out[1].to_f64(), vec![1.0, 2.0, -1.0, f64::INFINITY]);
    assert_eq!(out[2].to_bits(), vec![0, 1, 0, 1]);
    assert_eq!(out[3].elem(), ElemType::Fp8E4M3);
    assert_eq!(out[3].to_bits(), vec![0x38, 0x40, 0xb8, 0x7e]);
    assert_eq!(out[4].elem(), ElemType::Bf16);
    assert_eq!(out[4].to_f64()[0], 1.0);
    assert_eq!(out[4].to_f64()[3], 65536.0, "65504 rounds to bf16 65536");
}

const MATMUL_I16: &str = r#"
func.func @main(%a: tensor<1x2x3xi16>, %b: tensor<1x3x2xi16>) -> tensor<1x2x2xi48> {
  %za = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %zb = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x2x3xi16>, tensor<1x3x2xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<1x2x2xi48>
  return %0 : tensor<1x2x2xi48>
}
"#;

#[test]
fn i48_results_come_back_exactly() {
    let Some(m) = model() else { return };
    let big = 32767u64;
    let a = bits(ElemType::I16, &[1, 2, 3], &[big, big, big, 1, 2, 3]);
    let b = bits(ElemType::I16, &[1, 3, 2], &[big, 1, big, 1, big, 1]);
    let out = outputs(m.run_mlir(MATMUL_I16, &[a, b], &[ElemType::I48]).expect("runs"));
    let k = 32767i64 * 32767;
    assert_eq!(out[0].elem(), ElemType::I48);
    assert_eq!(out[0].to_f64(), vec![(3 * k) as f64, (3 * 32767) as f64, (6 * 32767) as f64, 6.0]);
}

const SHIFT: &str = r#"
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.arithmetic_right_shift %a, %b {round = false} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
"#;

const INTDIV: &str = r#"
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
"#;

#[test]
fn failed_requires_are_unpredictable() {
    let Some(m) = model() else { return };
    let a = bits(ElemType::I32, &[4], &[1, 2, 3, 4]);
    let shift = bits(ElemType::I32, &[4], &[1, 2, 40, 4]);
    let (kind, reason) = refusal(m.run_mlir(SHIFT, &[a.clone(), shift], &[ElemType::I32]));
    assert_eq!(kind, Refusal::Unpredictable);
    assert!(reason.contains("shift"), "{reason}");
    // INTDIV by zero: the model flags the REQUIRE, then dies of SIGFPE.
    let divisor = bits(ElemType::I32, &[4], &[1, 2, 0, 4]);
    let (kind, reason) = refusal(m.run_mlir(INTDIV, &[a, divisor], &[ElemType::I32]));
    assert_eq!(kind, Refusal::Unpredictable, "{reason}");
    assert!(reason.contains("non-zero"), "{reason}");
}

#[test]
fn verifier_errors_are_invalid_and_syntax_errors_are_failures() {
    let Some(m) = model() else { return };
    let clamp = r#"
func.func @main(%a: tensor<4xi8>) -> tensor<4xi8> {
  %0 = tosa.clamp %a {min_val = 5 : i8, max_val = 2 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
"#;
    let a = bits(ElemType::I8, &[4], &[1, 2, 3, 4]);
    let (kind, reason) = refusal(m.run_mlir(clamp, std::slice::from_ref(&a), &[ElemType::I8]));
    assert_eq!(kind, Refusal::Invalid);
    assert!(reason.contains("min_val"), "{reason}");
    match m.run_mlir("func.func @main( garbage", &[a], &[ElemType::I8]) {
        Err(OracleError::Failed { reason, .. }) => assert!(reason.contains("tosa-opt"), "{reason}"),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn a_time_limit_stops_the_tools() {
    let Some(m) = model() else { return };
    let m = m.with_timeout(Duration::from_millis(1));
    // A run far longer than the limit (tens of milliseconds for 4M
    // elements): a run of a few milliseconds can end between two polls on
    // a loaded machine and was seen to finish under a 1 ms limit.
    let shape = [1024, 4096];
    let a = f32s(&shape, &vec![0.0; 1024 * 4096]);
    match m.run_mlir(&add_of("1024x4096"), &[a.clone(), a], &[ElemType::Fp32]) {
        Ok(ExecOutcome::Abnormal { how: Abnormal::Timeout, .. }) => {}
        other => panic!("expected a time-out, got {other:?}"),
    }
}

const CONV: &str = r#"
func.func @main(%a: tensor<1x6x6x4xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<3xf32>) -> tensor<1x4x4x3xf32> {
  %izp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %wzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %a, %w, %b, %izp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x4xf32>, tensor<3x3x3x4xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}
"#;

fn pseudo_random(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((s >> 8) as f32 / (1 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

#[test]
fn precise_mode_gives_fp64_references_and_bounds_that_its_own_fp32_result_meets() {
    let Some(m) = model() else { return };
    let inputs = [
        f32s(&[1, 6, 6, 4], &pseudo_random(144, 1)),
        f32s(&[3, 3, 3, 4], &pseudo_random(108, 2)),
        f32s(&[3], &pseudo_random(3, 3)),
    ];
    let precise = match m.run_mlir_precise(CONV, &inputs, &[ElemType::Fp32]).expect("runs") {
        PreciseOutcome::Outputs(o) => o,
        PreciseOutcome::Refused { kind, reason } => panic!("refused ({kind:?}): {reason}"),
        PreciseOutcome::Abnormal { how, detail } => panic!("the model {how}: {detail}"),
    };
    let out = &precise[0];
    assert!(matches!(out.reference, ReferenceTensor::Precise { ref shape, .. } if shape == &[1, 4, 4, 3]));
    let bounds = out.bounds.as_ref().expect("a bounds tensor");
    assert!(bounds.values().iter().all(|&b| b > 0.0 && b.is_finite()));
    let fp32 = outputs(m.run_mlir(CONV, &inputs, &[ElemType::Fp32]).expect("runs")).remove(0);
    let ctx = OpContext::new(TosaOp::Conv2d, ElemType::Fp32, ElemType::Fp32).with_dot(DotInfo {
        ks: 36,
        acc: ElemType::Fp32,
        bias_nonzero: true,
        test_set: -1,
        summed_before_division: false,
    });
    let verdict = compare(&ctx, &out.reference, &fp32, Some(bounds)).expect("comparable");
    assert!(verdict.pass, "{verdict}");
    // A result off by 1% in one element is not compliant.
    let mut wrong = fp32.to_f64();
    wrong[5] *= 1.01;
    let wrong = f32s(&[1, 4, 4, 3], &wrong.iter().map(|&v| v as f32).collect::<Vec<_>>());
    let verdict = compare(&ctx, &out.reference, &wrong, Some(bounds)).expect("comparable");
    assert!(!verdict.pass, "{verdict}");
    assert_eq!(verdict.worst.expect("worst").index, 5);
}

const ELEMENTWISE: &str = r#"
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = tosa.exp %x : (tensor<8xf32>) -> tensor<8xf32>
  %1 = tosa.sin %x : (tensor<8xf32>) -> tensor<8xf32>
  %2 = tosa.cos %x : (tensor<8xf32>) -> tensor<8xf32>
  %3 = tosa.tanh %x : (tensor<8xf32>) -> tensor<8xf32>
  %4 = tosa.sigmoid %x : (tensor<8xf32>) -> tensor<8xf32>
  %5 = tosa.log %y : (tensor<8xf32>) -> tensor<8xf32>
  %6 = tosa.pow %y, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
"#;

#[test]
fn in_tree_bounds_equal_the_models_bounds() {
    let Some(m) = model() else { return };
    let x = f32s(&[8], &[-3.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.75, 6.0]);
    let y = f32s(&[8], &[0.125, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0, 0.75]);
    let precise = match m.run_mlir_precise(ELEMENTWISE, &[x.clone(), y.clone()], &[ElemType::Fp32; 7]).expect("runs") {
        PreciseOutcome::Outputs(o) => o,
        PreciseOutcome::Refused { kind, reason } => panic!("refused ({kind:?}): {reason}"),
        PreciseOutcome::Abnormal { how, detail } => panic!("the model {how}: {detail}"),
    };
    let cases: [(TosaOp, Vec<&TensorData>); 7] = [
        (TosaOp::Exp, vec![&x]),
        (TosaOp::Sin, vec![&x]),
        (TosaOp::Cos, vec![&x]),
        (TosaOp::Tanh, vec![&x]),
        (TosaOp::Sigmoid, vec![&x]),
        (TosaOp::Log, vec![&y]),
        (TosaOp::Pow, vec![&y, &x]),
    ];
    for ((op, ins), out) in cases.iter().zip(&precise) {
        let ours = bounds::elementwise_bounds(*op, ElemType::Fp32, ins).expect("bounds");
        let theirs = out.bounds.as_ref().expect("model bounds").values();
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            let tol = 1e-12 * a.abs().max(b.abs());
            assert!((a - b).abs() <= tol, "{op} element {i}: ours {a}, model {b}");
        }
        // And the model's own fp32 answer is compliant under our rule.
        let ctx = OpContext::new(*op, ElemType::Fp32, ElemType::Fp32);
        let fp32 = outputs(m.run_mlir(ELEMENTWISE, &[x.clone(), y.clone()], &[ElemType::Fp32; 7]).expect("runs"));
        let idx = cases.iter().position(|(o, _)| o == op).expect("listed");
        let r = compare(&ctx, &out.reference, &fp32[idx], out.bounds.as_ref()).expect("comparable");
        assert!(r.pass, "{op}: {r}");
    }
}

const PASS_THROUGH: &str = r#"
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = "tosa.const"() <{values = dense<1.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %0, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"#;

#[test]
fn outputs_that_are_inputs_or_constants_come_back_in_place() {
    let Some(m) = model() else { return };
    let a = f32s(&[4], &[0.0, 1.0, 2.0, 3.0]);
    let b = f32s(&[4], &[1.0; 4]);
    let out = outputs(m.run_mlir(PASS_THROUGH, &[a.clone(), b], &[ElemType::Fp32; 3]).expect("runs"));
    assert_eq!(out, vec![a, f32s(&[4], &[1.0, 2.0, 3.0, 4.0]), f32s(&[4], &[1.5; 4])]);
}

#[test]
fn integer_dot_products_run_in_precise_mode() {
    let Some(m) = model() else { return };
    let a = bits(ElemType::I16, &[1, 2, 3], &[1, 2, 3, 4, 5, 6]);
    let b = bits(ElemType::I16, &[1, 3, 2], &[1, 0, 0, 1, 1, 1]);
    match m.run_mlir_precise(MATMUL_I16, &[a, b], &[ElemType::I48]).expect("runs") {
        PreciseOutcome::Outputs(o) => {
            assert_eq!(o[0].reference, ReferenceTensor::Typed(bits(ElemType::I48, &[1, 2, 2], &[4, 5, 10, 11])));
            assert!(o[0].bounds.is_none(), "integer results need no bounds");
        }
        PreciseOutcome::Refused { kind, reason } => panic!("refused ({kind:?}): {reason}"),
        PreciseOutcome::Abnormal { how, detail } => panic!("the model {how}: {detail}"),
    }
}

/// An fp32 ADD of two tensors of `shape` (MLIR dims, e.g. `2x3`).
fn add_of(shape: &str) -> String {
    let t = format!("tensor<{shape}xf32>");
    format!("func.func @main(%a: {t}, %b: {t}) -> {t} {{\n  %0 = tosa.add %a, %b : ({t}, {t}) -> {t}\n  return %0 : {t}\n}}\n")
}

#[test]
fn each_tools_time_and_peak_memory_are_measured() {
    let Some(m) = model() else { return };
    let run = |shape: &[usize]| {
        let mlir = add_of(&shape.iter().map(usize::to_string).collect::<Vec<_>>().join("x"));
        let n = shape.iter().product();
        let x = f32s(shape, &vec![1.5; n]);
        let mut costs = Default::default();
        let out = outputs(m.run_mlir_measured(&mlir, &[x.clone(), x], &[ElemType::Fp32], &mut costs).expect("runs"));
        assert_eq!(out[0].to_f64()[n - 1], 3.0);
        costs
    };
    let small = run(&[2, 3]);
    let big = run(&[1024, 4096]);
    for c in [small, big] {
        let (opt, model) = (c.tosa_opt.expect("tosa-opt ran"), c.model.expect("the model ran"));
        assert!(opt.elapsed > Duration::ZERO && model.elapsed > Duration::ZERO);
        // A child smaller than this test process is measured by polling
        // (external::process), which a run of a few milliseconds can end
        // before on a loaded machine (tosa-opt's 12 ms run read 0 with three
        // test suites at once): only the model's long run must be seen.
        assert!(opt.peak_rss_exact || opt.peak_rss_bytes > 0 || opt.elapsed < Duration::from_millis(100), "{c:?}");
    }
    assert!(big.model.is_some_and(|c| c.peak_rss_bytes > 0), "{big:?}");
    // Two 16 MiB inputs and a 16 MiB output live in the model at once.
    let (s, b) = (small.model.map_or(0, |c| c.peak_rss_bytes), big.model.map_or(0, |c| c.peak_rss_bytes));
    assert!(b >= s + (40 << 20), "small graph {s} bytes, big graph {b} bytes");
}
