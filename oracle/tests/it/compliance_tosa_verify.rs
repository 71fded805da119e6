//! Cross-check: our compliance verdicts agree with `tosa_verify`, the TOSA
//! reference model's own verifier, on real fp64 references and bounds from
//! precise runs, for candidates perturbed across each mode's bound.
//! Skipped with a notice when tosa-tools is missing (a failure under `CI=true`).

use ndarray::{ArrayD, IxDyn};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::npy::NpyArray;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::compliance::{compare, DotInfo, FpFormat, Mode, OpContext};
use spvgraph_oracle::external::tosa_reference::{write_npy, PreciseOutcome, PreciseOutput, TosaReferenceModel};
use spvgraph_oracle::oracle::ExecOutcome;
use spvgraph_oracle::tools::{Tool, Tools};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Tooling {
    model: TosaReferenceModel,
    verify: PathBuf,
    dir: spvgraph_testkit::Scratch,
}

fn tooling(name: &str) -> Option<Tooling> {
    let tools = Tools::discover();
    for t in [Tool::TosaOpt, Tool::TosaReferenceModel, Tool::TosaVerify] {
        if let Err(e) = tools.get(t) {
            assert!(!Tools::required(), "CI=true and {e}");
            eprintln!("skipping: {e}");
            return None;
        }
    }
    let verify = tools.get(Tool::TosaVerify).ok()?.to_path_buf();
    let dir = spvgraph_testkit::scratch(name);
    Some(Tooling { model: TosaReferenceModel::discover(), verify, dir })
}

impl Tooling {
    fn precise(&self, mlir: &str, inputs: &[TensorData], out: ElemType) -> PreciseOutput {
        self.precise_all(mlir, inputs, &[out]).remove(0)
    }

    fn precise_all(&self, mlir: &str, inputs: &[TensorData], outs: &[ElemType]) -> Vec<PreciseOutput> {
        match self.model.run_mlir_precise(mlir, inputs, outs).expect("runs") {
            PreciseOutcome::Outputs(o) => o,
            PreciseOutcome::Refused { kind, reason } => panic!("refused ({kind:?}): {reason}"),
            PreciseOutcome::Abnormal { how, detail } => panic!("the model {how}: {detail}"),
        }
    }

    /// The model's own normal-mode (fp32) outputs.
    fn normal(&self, mlir: &str, inputs: &[TensorData], outs: &[ElemType]) -> Vec<TensorData> {
        match self.model.run_mlir(mlir, inputs, outs).expect("runs") {
            ExecOutcome::Outputs(o) => o,
            other => panic!("the model did not answer: {other:?}"),
        }
    }

    /// `tosa_verify`'s verdict: true for compliant (exit 0), false for non-compliant (exit 2).
    fn verify(&self, mode: &Mode, out: &PreciseOutput, candidate: &TensorData) -> bool {
        let d = &self.dir;
        let shape = out.reference.shape().to_vec();
        write_f64(&d.join("ref.npy"), &shape, &out.reference.values());
        write_npy(&d.join("imp.npy"), candidate).expect("write candidate");
        let mut cmd = Command::new(&self.verify);
        if let Some(b) = &out.bounds {
            write_f64(&d.join("bnd.npy"), &shape, &b.values());
            cmd.arg("--bnd_result_file").arg(d.join("bnd.npy"));
        }
        let desc = serde_json::json!({
            "tosa_file": "unused.tosa", "ifm_name": [], "ifm_file": [],
            "ofm_name": ["TosaOutput_0"], "ofm_file": ["out.npy"],
            "meta": { "compliance": { "version": "1.0", "tensors": {
                "TosaOutput_0": mode.verify_config(candidate.elem(), &shape) } } },
        });
        std::fs::write(d.join("desc.json"), desc.to_string()).expect("write desc");
        let out = cmd
            .arg("--test_desc")
            .arg(d.join("desc.json"))
            .args(["--ofm_name", "TosaOutput_0"])
            .arg("--imp_result_file")
            .arg(d.join("imp.npy"))
            .arg("--ref_result_file")
            .arg(d.join("ref.npy"))
            .env("TOSA_MODEL_NO_BACKTRACE", "1")
            .output()
            .expect("run tosa_verify");
        match out.status.code() {
            Some(0) => true,
            Some(2) => false,
            other => panic!("tosa_verify error {other:?}: {}", String::from_utf8_lossy(&out.stderr)),
        }
    }

    /// Checks that both verifiers agree on each candidate; returns the verdicts.
    fn agree(&self, ctx: &OpContext, out: &PreciseOutput, candidates: &[TensorData]) -> Vec<bool> {
        let mode = ctx.mode().expect("mode");
        candidates
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let ours = compare(ctx, &out.reference, c, out.bounds.as_ref()).expect("comparable");
                let theirs = self.verify(&mode, out, c);
                assert_eq!(ours.pass, theirs, "{} candidate {i}: ours {ours}, tosa_verify {theirs}", ctx.op);
                ours.pass
            })
            .collect()
    }
}

fn write_f64(path: &Path, shape: &[usize], values: &[f64]) {
    NpyArray::from_f64(shape, values).and_then(|a| a.write(path)).expect("write npy");
}

fn typed(elem: ElemType, shape: &[usize], values: &[f64]) -> TensorData {
    let f = FpFormat::of(elem).expect("float");
    let bits: Vec<u64> = values
        .iter()
        .map(|&v| {
            let r = f.round(v);
            match elem {
                ElemType::Fp32 => u64::from((r as f32).to_bits()),
                ElemType::Fp16 => u64::from(half::f16::from_f64(r).to_bits()),
                ElemType::Bf16 => u64::from(half::bf16::from_f64(r).to_bits()),
                _ => panic!("test helper covers fp32/fp16/bf16"),
            }
        })
        .collect();
    TensorData::from_bits(elem, shape, &bits).expect("shape")
}

/// Candidates moved `k` output ulps away from the reference, for each `k`.
fn shifted(out: &PreciseOutput, elem: ElemType, ks: &[f64]) -> Vec<TensorData> {
    let f = FpFormat::of(elem).expect("float");
    let shape = out.reference.shape().to_vec();
    let refs = out.reference.values();
    ks.iter().map(|&k| typed(elem, &shape, &refs.iter().map(|&r| r + k * f.ulp(r)).collect::<Vec<_>>())).collect()
}

fn series(n: usize, seed: u32, lo: f32, hi: f32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            lo + (hi - lo) * ((s >> 8) as f32 / (1 << 24) as f32)
        })
        .collect()
}

fn f32s(shape: &[usize], v: &[f32]) -> TensorData {
    TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(shape), v.to_vec()).expect("shape"))
}

#[test]
fn ulp_modes_agree() {
    let Some(t) = tooling("verify-ulp") else { return };
    let mlir = r#"
func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = tosa.add %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
"#;
    let inputs = [f32s(&[64], &series(64, 1, -100.0, 100.0)), f32s(&[64], &series(64, 2, -1.0, 1.0))];
    let out = t.precise(mlir, &inputs, ElemType::Fp32);
    let ctx = OpContext::new(TosaOp::Add, ElemType::Fp32, ElemType::Fp32);
    // Shifting then rounding lands within 0.5 ulp of the shifted value, so only
    // the unshifted candidate is certain to pass and shifts of 1+ to fail.
    let v = t.agree(&ctx, &out, &shifted(&out, ElemType::Fp32, &[0.0, 0.4, 0.6, 1.0, -1.0, 3.0]));
    assert!(v[0] && !v[3] && !v[4] && !v[5], "{v:?}");
    // CAST fp32 → bf16: 1 ulp below the magnitude, 0.5 above.
    let cast = r#"
func.func @main(%a: tensor<64xf32>) -> tensor<64xbf16> {
  %0 = tosa.cast %a : (tensor<64xf32>) -> tensor<64xbf16>
  return %0 : tensor<64xbf16>
}
"#;
    let positive = [f32s(&[64], &series(64, 3, 1.0, 50.0))];
    let out = t.precise(cast, &positive, ElemType::Bf16);
    let ctx = OpContext::new(TosaOp::Cast, ElemType::Fp32, ElemType::Bf16);
    let v = t.agree(&ctx, &out, &shifted(&out, ElemType::Bf16, &[0.0, -0.9, 0.9, -1.6, 1.6]));
    assert!(v[0] && !v[3], "{v:?}");
}

#[test]
fn abs_error_and_precomputed_modes_agree() {
    let Some(t) = tooling("verify-abs") else { return };
    let unary = |op: &str| {
        format!(
            "func.func @main(%a: tensor<64xf32>) -> tensor<64xf32> {{\n  %0 = tosa.{op} %a : (tensor<64xf32>) -> tensor<64xf32>\n  return %0 : tensor<64xf32>\n}}\n"
        )
    };
    let x = [f32s(&[64], &series(64, 4, -4.0, 4.0))];
    let positive = [f32s(&[64], &series(64, 5, 0.01, 20.0))];
    for (op, name, inputs) in [
        (TosaOp::Exp, "exp", &x),
        (TosaOp::Sin, "sin", &x),
        (TosaOp::Cos, "cos", &x),
        (TosaOp::Tanh, "tanh", &x),
        (TosaOp::Sigmoid, "sigmoid", &x),
        (TosaOp::Log, "log", &positive),
    ] {
        let out = t.precise(&unary(name), inputs, ElemType::Fp32);
        let ctx = OpContext::new(op, ElemType::Fp32, ElemType::Fp32);
        let v = t.agree(&ctx, &out, &shifted(&out, ElemType::Fp32, &[0.0, 2.0, 8.0, 40.0, 5000.0, -1e6]));
        assert!(v[0], "{op}: the rounded reference passes");
        assert!(!v[5], "{op}: a million ulps off fails");
    }
    let pow = r#"
func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = tosa.pow %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
"#;
    let inputs = [f32s(&[64], &series(64, 6, 0.1, 8.0)), f32s(&[64], &series(64, 7, -3.0, 3.0))];
    let out = t.precise(pow, &inputs, ElemType::Fp32);
    let ctx = OpContext::new(TosaOp::Pow, ElemType::Fp32, ElemType::Fp32);
    let v = t.agree(&ctx, &out, &shifted(&out, ElemType::Fp32, &[0.0, 3.0, 10.0, 30.0, 100.0]));
    assert!(v[0] && !v[4], "{v:?}");
}

#[test]
fn dot_product_mode_agrees() {
    let Some(t) = tooling("verify-dot") else { return };
    let mlir = r#"
func.func @main(%a: tensor<1x8x16xf32>, %b: tensor<1x16x8xf32>) -> tensor<1x8x8xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x8x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  return %0 : tensor<1x8x8xf32>
}
"#;
    let inputs = [f32s(&[1, 8, 16], &series(128, 8, -2.0, 2.0)), f32s(&[1, 16, 8], &series(128, 9, -2.0, 2.0))];
    let out = t.precise(mlir, &inputs, ElemType::Fp32);
    let dot = DotInfo { ks: 16, acc: ElemType::Fp32, bias_nonzero: false, test_set: -1, summed_before_division: false };
    let ctx = OpContext::new(TosaOp::Matmul, ElemType::Fp32, ElemType::Fp32).with_dot(dot);
    let refs = out.reference.values();
    let bnds = out.bounds.as_ref().expect("bounds").values();
    // Move one element by `e` times its error unit: ABS_BOUND is 2·16 = 32.
    let one = |e: f64| {
        let mut v = refs.clone();
        v[10] += e * (bnds[10] * 2f64.powi(-24));
        typed(ElemType::Fp32, &[1, 8, 8], &v)
    };
    // Move every element by `e` units: the variance limit is 4·0.4·16 = 25.6 per element.
    let all = |e: f64| {
        let v: Vec<f64> = refs.iter().zip(&bnds).map(|(r, b)| r + e * b * 2f64.powi(-24)).collect();
        typed(ElemType::Fp32, &[1, 8, 8], &v)
    };
    let cands = [one(0.0), one(20.0), one(31.0), one(33.0), one(-40.0), all(4.0), all(6.0)];
    let v = t.agree(&ctx, &out, &cands);
    assert_eq!(v, vec![true, true, true, false, false, true, false]);
}

#[test]
fn reduce_product_and_relative_modes_agree() {
    let Some(t) = tooling("verify-rp") else { return };
    let rp = r#"
func.func @main(%a: tensor<8x6xf16>) -> tensor<1x6xf16> {
  %0 = tosa.reduce_product %a {axis = 0 : i32} : (tensor<8x6xf16>) -> tensor<1x6xf16>
  return %0 : tensor<1x6xf16>
}
"#;
    let vals: Vec<f64> = series(48, 10, 0.5, 2.0).iter().map(|&v| f64::from(v)).collect();
    let a = typed(ElemType::Fp16, &[8, 6], &vals);
    let out = t.precise(rp, &[a], ElemType::Fp16);
    let ctx = OpContext::new(TosaOp::ReduceProduct, ElemType::Fp16, ElemType::Fp16).with_reduce_n(8);
    let v = t.agree(&ctx, &out, &shifted(&out, ElemType::Fp16, &[0.0, 1.0, 2.0, 4.0, 8.0, -8.0]));
    assert!(v[0] && !v[4], "{v:?}");
    // RESIZE fp32 bilinear ×2: the 0.006·max|input| term governs fp32.
    let resize = r#"
func.func @main(%a: tensor<1x4x4x2xf32>) -> tensor<1x7x7x2xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.resize %a, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x7x2xf32>
  return %0 : tensor<1x7x7x2xf32>
}
"#;
    let input = series(32, 11, -5.0, 5.0);
    let max = input.iter().fold(0.0f64, |m, &v| m.max(f64::from(v).abs()));
    let out = t.precise(resize, &[f32s(&[1, 4, 4, 2], &input)], ElemType::Fp32);
    let ctx = OpContext::new(TosaOp::Resize, ElemType::Fp32, ElemType::Fp32).with_max_abs_input(max);
    let refs = out.reference.values();
    let by = |d: f64| typed(ElemType::Fp32, &[1, 7, 7, 2], &refs.iter().map(|r| r + d).collect::<Vec<_>>());
    let v = t.agree(&ctx, &out, &[by(0.0), by(0.9 * 0.006 * max), by(1.1 * 0.006 * max)]);
    assert_eq!(v, vec![true, true, false]);
}

#[test]
fn fp_special_mode_agrees() {
    let Some(t) = tooling("verify-special") else { return };
    let mlir = r#"
func.func @main(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %za, %zb : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}
"#;
    let mut a = series(16, 12, -1.0, 1.0);
    a[0] = f32::INFINITY;
    a[5] = f32::NEG_INFINITY;
    let inputs = [f32s(&[1, 4, 4], &a), f32s(&[1, 4, 4], &series(16, 13, 0.5, 1.0))];
    let out = t.precise(mlir, &inputs, ElemType::Fp32);
    let ctx = OpContext::new(TosaOp::Matmul, ElemType::Fp32, ElemType::Fp32).with_special_inputs(true);
    let refs = out.reference.values();
    let with = |f: &dyn Fn(usize, f64) -> f64| {
        let v: Vec<f64> = refs.iter().enumerate().map(|(i, &r)| f(i, r)).collect();
        typed(ElemType::Fp32, &[1, 4, 4], &v)
    };
    let cands = [
        with(&|_, r| r),
        with(&|_, r| if r.is_finite() { r * 1.5 } else { r }),
        with(&|i, r| if i == 0 { 1.0 } else { r }),
        with(&|i, r| if i == 6 { -r } else { r }),
    ];
    let v = t.agree(&ctx, &out, &cands);
    assert_eq!(v, vec![true, true, false, false]);
}

const FFT2D: &str = r#"
func.func @main(%re: tensor<1x4x8xf32>, %im: tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %0:2 = tosa.fft2d %re, %im {inverse = false, local_bound = false} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  return %0#0, %0#1 : tensor<1x4x8xf32>, tensor<1x4x8xf32>
}
"#;

const RFFT2D: &str = r#"
func.func @main(%re: tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>) {
  %0:2 = tosa.rfft2d %re {local_bound = false} : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
  return %0#0, %0#1 : tensor<1x4x5xf32>, tensor<1x4x5xf32>
}
"#;

fn fft_context(op: TosaOp, ks: u64) -> OpContext {
    let dot = DotInfo { ks, acc: ElemType::Fp32, bias_nonzero: false, test_set: -1, summed_before_division: false };
    OpContext::new(op, ElemType::Fp32, ElemType::Fp32).with_dot(dot)
}

/// FFT2D and RFFT2D are dot products with twiddle-factor weights (KS = 2·H·W
/// and H·W): our verdicts agree with `tosa_verify`'s on the same precise run
/// across the bound, and on the model's own normal-mode results.
#[test]
fn fft_modes_agree() {
    let Some(t) = tooling("verify-fft") else { return };
    let shape = [1, 4, 8];
    let inputs = [f32s(&shape, &series(32, 14, -2.0, 2.0)), f32s(&shape, &series(32, 15, -2.0, 2.0))];
    let outs = t.precise_all(FFT2D, &inputs, &[ElemType::Fp32, ElemType::Fp32]);
    let normal = t.normal(FFT2D, &inputs, &[ElemType::Fp32, ElemType::Fp32]);
    let ctx = fft_context(TosaOp::Fft2d, 64);
    for (j, out) in outs.iter().enumerate() {
        let refs = out.reference.values();
        let bnds = out.bounds.as_ref().expect("bounds").values();
        // One element moved by `e` error units: ABS_BOUND is 2·64 = 128.
        let one = |e: f64| {
            let mut v = refs.clone();
            v[9] += e * (bnds[9] * 2f64.powi(-24));
            typed(ElemType::Fp32, &shape, &v)
        };
        let cands = [one(0.0), one(40.0), one(140.0), normal[j].clone()];
        let v = t.agree(&ctx, out, &cands);
        assert_eq!(v, vec![true, true, false, true], "FFT2D output {j}");
    }
    let outs = t.precise_all(RFFT2D, &inputs[..1], &[ElemType::Fp32, ElemType::Fp32]);
    let normal = t.normal(RFFT2D, &inputs[..1], &[ElemType::Fp32, ElemType::Fp32]);
    let ctx = fft_context(TosaOp::Rfft2d, 32);
    // The real output: the model's own result and the rounded reference pass.
    let v =
        t.agree(&ctx, &outs[0], &[normal[0].clone(), typed(ElemType::Fp32, &[1, 4, 5], &outs[0].reference.values())]);
    assert_eq!(v, vec![true, true]);
}

/// Where a twiddle factor is the sine of a multiple of π, its fp64 value is
/// about 1.2e-16, not 0. With a zero imaginary input, FFT2D's imaginary
/// outputs at (0,W/2), (H/2,0) and (H/2,W/2) are sums of such terms only:
/// the precise reference and its bound are that small, and `tosa_verify`
/// rejects every fp32 result there, the model's own and the exact 0 alike. We
/// agree with it: the judgement, not the rule, sets those elements aside.
/// RFFT2D has no such elements: the model skips the sin(kπ) terms of those
/// four outputs (the operator allows it; they must then be exactly 0), so
/// the bound there is tiny and both checkers ask for 0 (to within 64·2^-126).
#[test]
fn fft_bounds_collapse_where_twiddles_are_sin_k_pi_in_both_checkers() {
    let Some(t) = tooling("verify-fft-collapse") else { return };
    let shape = [1, 4, 8];
    let re = f32s(&shape, &series(32, 16, -2.0, 2.0));
    let zero = f32s(&shape, &[0.0; 32]);
    // (0, W/2) of the imaginary output.
    let w2 = 4;
    let outs_types = [ElemType::Fp32, ElemType::Fp32];
    let inputs = [re.clone(), zero];
    let outs = t.precise_all(FFT2D, &inputs, &outs_types);
    let normal = t.normal(FFT2D, &inputs, &outs_types);
    let imag = &outs[1];
    let refs = imag.reference.values();
    assert!(refs[w2] != 0.0 && refs[w2].abs() < 1e-12, "reference {}", refs[w2]);
    let mut exact = refs.clone();
    exact[w2] = 0.0;
    let ctx = fft_context(TosaOp::Fft2d, 64);
    let cands = [normal[1].clone(), typed(ElemType::Fp32, &shape, &exact)];
    assert_eq!(t.agree(&ctx, imag, &cands), vec![false, false], "the model's own result and an exact 0 both fail");
    let r = compare(&ctx, &imag.reference, &normal[1], imag.bounds.as_ref()).expect("comparable");
    assert!(r.stats.failing.contains(&w2), "{r}");
    // The real output keeps its cos(0) terms: nothing collapses there.
    assert_eq!(t.agree(&ctx, &outs[0], &[normal[0].clone()]), vec![true]);

    let outs = t.precise_all(RFFT2D, &[re], &outs_types);
    let normal = t.normal(RFFT2D, &[f32s(&shape, &series(32, 16, -2.0, 2.0))], &outs_types);
    let imag = &outs[1];
    assert_eq!(imag.reference.values()[w2], 0.0, "skipped: exactly 0");
    // Its bound is the normal_min floor only (the skipped terms add 0·|x|).
    assert!(imag.bounds.as_ref().expect("bounds").values()[w2] < 1e-30);
    let ctx = fft_context(TosaOp::Rfft2d, 32);
    let mut off = imag.reference.values();
    off[w2] = 1e-30;
    let cands = [normal[1].clone(), typed(ElemType::Fp32, &[1, 4, 5], &off)];
    assert_eq!(t.agree(&ctx, imag, &cands), vec![true, false], "the model's 0 passes, anything else fails");
}
