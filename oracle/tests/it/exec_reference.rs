//! The executor against the real TOSA reference model (`tosa-opt` +
//! `tosa_reference_model` from tosa-tools) on the same inputs: integer
//! results must be bit-exact, floating-point ones close. Each case is a
//! SPIR-V graph built here and the same operator written as TOSA MLIR by hand.
//! A missing tool skips (with a notice) outside CI and fails under `CI=true`.
//! The systematic differential sweep lives with the reference-model oracle.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::elem::ElemType::{self, Fp16, Fp32, I16, I32, I48, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Module};
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::{scratch, tool};
use std::path::Path;
use std::process::Command;

/// MLIR type of a tensor: `tensor<1x4x4x2xi8>`.
fn mlir_ty(elem: ElemType, shape: &[usize]) -> String {
    let e = match elem {
        ElemType::Bool => "i1",
        ElemType::I8 => "i8",
        ElemType::I16 => "i16",
        ElemType::I32 => "i32",
        ElemType::I48 => "i48",
        ElemType::Fp16 => "f16",
        ElemType::Bf16 => "bf16",
        ElemType::Fp32 => "f32",
        ElemType::Fp8E4M3 => "f8E4M3FN",
        ElemType::Fp8E5M2 => "f8E5M2",
    };
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("tensor<{}x{e}>", dims.join("x"))
}

/// Builds the SPIR-V operand list from the graph input ids.
type Args = Box<dyn FnOnce(&mut Graph, &[Id]) -> Vec<Id>>;

/// One operator in both forms.
struct Case {
    name: &'static str,
    inputs: Vec<TensorData>,
    out: (ElemType, Vec<usize>),
    /// MLIR lines computing `%out` from `%a0, %a1, ...`.
    body: String,
    /// The SPIR-V operand list, given the graph input ids.
    args: Args,
    op: TosaOp,
    /// Absolute tolerance for floats (integers are compared exactly).
    tol: f64,
}

impl Case {
    fn mlir(&self) -> String {
        let params: Vec<String> =
            self.inputs.iter().enumerate().map(|(i, t)| format!("%a{i}: {}", mlir_ty(t.elem(), t.shape()))).collect();
        let out = mlir_ty(self.out.0, &self.out.1);
        format!("func.func @main({}) -> {out} {{\n{}\n  return %out : {out}\n}}\n", params.join(", "), self.body)
    }

    fn module(self) -> (Module, Vec<TensorData>, TosaOp, f64, (ElemType, Vec<usize>)) {
        let shapes: Vec<Vec<u32>> = self.inputs.iter().map(|t| t.shape().iter().map(|&d| d as u32).collect()).collect();
        let decl: Vec<(ElemType, &[u32])> =
            self.inputs.iter().zip(&shapes).map(|(t, s)| (t.elem(), s.as_slice())).collect();
        let out_shape: Vec<u32> = self.out.1.iter().map(|&d| d as u32).collect();
        let mut g = Graph::new(&decl, &[(self.out.0, &out_shape)]);
        let ids = g.inputs.clone();
        let args = (self.args)(&mut g, &ids);
        let y = g.op(self.op, (self.out.0, &out_shape), args);
        g.output(y);
        (g.finish(), self.inputs, self.op, self.tol, self.out)
    }
}

fn reference(opt: &Path, model: &Path, dir: &Path, case: &Case) -> TensorData {
    let mlir = dir.join(format!("{}.mlir", case.name));
    let fb = dir.join(format!("{}.tosa", case.name));
    std::fs::write(&mlir, case.mlir()).expect("write mlir");
    let ser = Command::new(opt)
        .arg(&mlir)
        .arg(format!("--tosa-serialize=tosa-flatbuffer-filename={}", fb.display()))
        .args(["-o", "/dev/null"])
        .output()
        .expect("run tosa-opt");
    assert!(ser.status.success(), "{}: tosa-opt: {}\n{}", case.name, String::from_utf8_lossy(&ser.stderr), case.mlir());
    let mut names = Vec::new();
    let mut files = Vec::new();
    for (i, t) in case.inputs.iter().enumerate() {
        let f = dir.join(format!("{}_in{i}.npy", case.name));
        t.write_npy(&f).expect("write input");
        names.push(format!("TosaInput_{i}"));
        files.push(f.display().to_string());
    }
    let out = dir.join(format!("{}_out.npy", case.name));
    let run = Command::new(model)
        .args(["--tosa_file", &fb.display().to_string()])
        .args(["--ifm_name", &names.join(","), "--ifm_file", &files.join(",")])
        .args(["--ofm_name", "TosaOutput_0", "--ofm_file", &out.display().to_string()])
        .args(["--output_dir", &dir.display().to_string()])
        .output()
        .expect("run tosa_reference_model");
    assert!(run.status.success(), "{}: reference model: {}", case.name, String::from_utf8_lossy(&run.stdout));
    // The model writes int64 for i48 and the element types' own dtypes otherwise.
    let elem = if case.out.0 == I48 { I48 } else { case.out.0 };
    TensorData::read_npy(&out, elem).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn zps(elem: &str, name: &str, v: i64) -> String {
    format!("  %{name} = \"tosa.const\"() {{values = dense<{v}> : tensor<1x{elem}>}} : () -> tensor<1x{elem}>\n")
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(2024);
    let mut v = Vec::new();
    let r8 = |rng: &mut Rng, s: &[usize]| ints(I8, s, &rng.ints(s.iter().product(), -128, 127));
    // CONV2D i8 with zero points, asymmetric padding, stride 2.
    v.push(Case {
        name: "conv2d_i8",
        inputs: vec![r8(&mut rng, &[1, 6, 6, 2]), r8(&mut rng, &[3, 3, 3, 2]), ints(I32, &[3], &rng.ints(3, -5000, 5000))],
        out: (I32, vec![1, 3, 3, 3]),
        body: zps("i8", "izp", -3) + &zps("i8", "wzp", 5)
            + "  %out = tosa.conv2d %a0, %a1, %a2, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xi8>, tensor<3x3x3x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x3xi32>",
        args: Box::new(|g, x| {
            vec![g.i32s(&[1, 0, 0, 1]), g.i32s(&[2, 2]), g.i32s(&[1, 1]), g.u32(1), g.boolean(false), x[0], x[1], x[2], g.one(I8, (-3i64) as u64), g.one(I8, 5)]
        }),
        op: TosaOp::Conv2d,
        tol: 0.0,
    });
    v.push(Case {
        name: "depthwise_i8",
        inputs: vec![r8(&mut rng, &[1, 4, 4, 2]), r8(&mut rng, &[3, 3, 2, 2]), ints(I32, &[4], &rng.ints(4, -500, 500))],
        out: (I32, vec![1, 4, 4, 4]),
        body: zps("i8", "izp", 7) + &zps("i8", "wzp", -2)
            + "  %out = tosa.depthwise_conv2d %a0, %a1, %a2, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<3x3x2x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>",
        args: Box::new(|g, x| {
            vec![g.i32s(&[1, 1, 1, 1]), g.i32s(&[1, 1]), g.i32s(&[1, 1]), g.u32(1), g.boolean(false), x[0], x[1], x[2], g.one(I8, 7), g.one(I8, (-2i64) as u64)]
        }),
        op: TosaOp::DepthwiseConv2d,
        tol: 0.0,
    });
    v.push(Case {
        name: "transpose_conv2d_i8",
        inputs: vec![r8(&mut rng, &[1, 3, 3, 2]), r8(&mut rng, &[3, 2, 2, 2]), ints(I32, &[3], &rng.ints(3, -500, 500))],
        out: (I32, vec![1, 7, 7, 3]),
        body: zps("i8", "izp", 1) + &zps("i8", "wzp", 3)
            + "  %out = tosa.transpose_conv2d %a0, %a1, %a2, %izp, %wzp {acc_type = i32, out_pad = array<i64: 0, 1, -1, 2>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xi8>, tensor<3x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x7x3xi32>",
        args: Box::new(|g, x| vec![g.i32s(&[0, 1, -1, 2]), g.i32s(&[2, 2]), g.u32(1), g.boolean(false), x[0], x[1], x[2], g.one(I8, 1), g.one(I8, 3)]),
        op: TosaOp::TransposeConv2d,
        tol: 0.0,
    });
    v.push(Case {
        name: "avg_pool2d_i8",
        inputs: vec![r8(&mut rng, &[1, 4, 4, 2])],
        out: (I8, vec![1, 2, 2, 2]),
        body: zps("i8", "izp", -3) + &zps("i8", "ozp", 4)
            + "  %out = tosa.avg_pool2d %a0, %izp, %ozp {acc_type = i32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi8>",
        args: Box::new(|g, x| vec![g.i32s(&[3, 3]), g.i32s(&[2, 2]), g.i32s(&[1, 0, 1, 0]), g.u32(1), x[0], g.one(I8, (-3i64) as u64), g.one(I8, 4)]),
        op: TosaOp::AvgPool2d,
        tol: 0.0,
    });
    for (name, mode, mode_value) in [("rescale_single", "SINGLE_ROUND", 1u32), ("rescale_double", "DOUBLE_ROUND", 3)] {
        v.push(Case {
            name,
            inputs: vec![ints(I32, &[4, 3], &rng.ints(12, -(1 << 28), 1 << 28))],
            out: (I8, vec![4, 3]),
            body: zps("i32", "izp", 0) + &zps("i8", "ozp", -7)
                + "  %m = \"tosa.const\"() {values = dense<[1073741824, 1610612736, 2147483647]> : tensor<3xi32>} : () -> tensor<3xi32>\n"
                + "  %s = \"tosa.const\"() {values = dense<[50, 49, 55]> : tensor<3xi8>} : () -> tensor<3xi8>\n"
                + &format!("  %out = tosa.rescale %a0, %m, %s, %izp, %ozp {{scale32 = true, rounding_mode = {mode}, per_channel = true, input_unsigned = false, output_unsigned = false}} : (tensor<4x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x3xi8>"),
            args: Box::new(move |g, x| {
                vec![
                    g.boolean(true),
                    g.u32(mode_value),
                    g.boolean(true),
                    g.boolean(false),
                    g.boolean(false),
                    x[0],
                    g.tensor(I32, &[3], &[1 << 30, 1_610_612_736, 2_147_483_647]),
                    g.tensor(I8, &[3], &[50, 49, 55]),
                    g.one(I32, 0),
                    g.one(I8, (-7i64) as u64),
                ]
            }),
            op: TosaOp::Rescale,
            tol: 0.0,
        });
    }
    let table: Vec<i64> = {
        let mut t = vec![0i64; 513];
        let mut acc = -9000i64;
        for e in t.iter_mut() {
            acc = (acc + rng.int(-300, 300)).clamp(-32768, 32767);
            *e = acc;
        }
        t
    };
    let table_text: Vec<String> = table.iter().map(|v| v.to_string()).collect();
    let table_bits: Vec<u64> = table.iter().map(|&v| v as u64).collect();
    v.push(Case {
        name: "table_i16",
        inputs: vec![ints(I16, &[3, 5], &rng.ints(15, -32768, 32767))],
        out: (I32, vec![3, 5]),
        body: format!(
            "  %t = \"tosa.const\"() {{values = dense<[{}]> : tensor<513xi16>}} : () -> tensor<513xi16>\n",
            table_text.join(", ")
        ) + "  %out = tosa.table %a0, %t : (tensor<3x5xi16>, tensor<513xi16>) -> tensor<3x5xi32>",
        args: Box::new(move |g, x| vec![x[0], g.tensor(I16, &[513], &table_bits)]),
        op: TosaOp::Table,
        tol: 0.0,
    });
    v.push(Case {
        name: "mul_shift_i32",
        inputs: vec![
            ints(I32, &[2, 4], &rng.ints(8, -(1 << 17), 1 << 17)),
            ints(I32, &[2, 4], &rng.ints(8, -(1 << 17), 1 << 17)),
        ],
        out: (I32, vec![2, 4]),
        body: zps("i8", "sh", 5)
            + "  %out = tosa.mul %a0, %a1, %sh : (tensor<2x4xi32>, tensor<2x4xi32>, tensor<1xi8>) -> tensor<2x4xi32>",
        args: Box::new(|g, x| vec![x[0], x[1], g.one(I8, 5)]),
        op: TosaOp::Mul,
        tol: 0.0,
    });
    v.push(Case {
        name: "arithmetic_right_shift_round",
        inputs: vec![ints(I32, &[2, 4], &rng.ints(8, -(1 << 31), (1 << 31) - 1)), ints(I32, &[2, 4], &rng.ints(8, 0, 31))],
        out: (I32, vec![2, 4]),
        body: "  %out = tosa.arithmetic_right_shift %a0, %a1 {round = true} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>".into(),
        args: Box::new(|g, x| vec![g.boolean(true), x[0], x[1]]),
        op: TosaOp::ArithmeticRightShift,
        tol: 0.0,
    });
    v.push(Case {
        name: "resize_bilinear_i8",
        inputs: vec![r8(&mut rng, &[1, 4, 4, 2])],
        out: (I32, vec![1, 6, 6, 2]),
        body: "  %scale = tosa.const_shape {values = dense<[3, 2, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>\n".to_string()
            + "  %offset = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>\n"
            + "  %border = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>\n"
            + "  %out = tosa.resize %a0, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x6x2xi32>",
        args: Box::new(|g, x| vec![g.u32(2), x[0], g.i32s(&[3, 2, 3, 2]), g.i32s(&[-1, -1]), g.i32s(&[0, 0])]),
        op: TosaOp::Resize,
        tol: 0.0,
    });
    v.push(Case {
        name: "matmul_i16",
        inputs: vec![ints(I16, &[1, 3, 5], &rng.ints(15, -32768, 32767)), ints(I16, &[1, 5, 2], &rng.ints(10, -32768, 32767))],
        out: (I48, vec![1, 3, 2]),
        body: zps("i16", "z", 0) + "  %out = tosa.matmul %a0, %a1, %z, %z : (tensor<1x3x5xi16>, tensor<1x5x2xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<1x3x2xi48>",
        args: Box::new(|g, x| vec![x[0], x[1], g.one(I16, 0), g.one(I16, 0)]),
        op: TosaOp::Matmul,
        tol: 0.0,
    });
    v.push(Case {
        name: "negate_i8",
        inputs: vec![r8(&mut rng, &[2, 8])],
        out: (I8, vec![2, 8]),
        body: zps("i8", "izp", 9)
            + &zps("i8", "ozp", -20)
            + "  %out = tosa.negate %a0, %izp, %ozp : (tensor<2x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x8xi8>",
        args: Box::new(|g, x| vec![x[0], g.one(I8, 9), g.one(I8, (-20i64) as u64)]),
        op: TosaOp::Negate,
        tol: 0.0,
    });
    let halves: Vec<f32> = (0..12).map(|i| (i as f32 - 6.0) + 0.5).collect();
    v.push(Case {
        name: "cast_f32_i8",
        inputs: vec![f32s(&[12], &halves)],
        out: (I8, vec![12]),
        body: "  %out = tosa.cast %a0 : (tensor<12xf32>) -> tensor<12xi8>".into(),
        args: Box::new(|_, x| x.to_vec()),
        op: TosaOp::Cast,
        tol: 0.0,
    });
    v.push(Case {
        name: "cast_f32_f16",
        inputs: vec![f32s(&[6], &[65519.0, 65520.0, 1.000_488_3, 5.960_464_5e-8, 2.980_232_2e-8, -1e9])],
        out: (Fp16, vec![6]),
        body: "  %out = tosa.cast %a0 : (tensor<6xf32>) -> tensor<6xf16>".into(),
        args: Box::new(|_, x| x.to_vec()),
        op: TosaOp::Cast,
        tol: 0.0,
    });
    let fx = rng.units(2 * 5 * 5 * 3);
    let fw = rng.units(4 * 3 * 3 * 3);
    v.push(Case {
        name: "conv2d_f32",
        inputs: vec![f32s(&[2, 5, 5, 3], &fx), f32s(&[4, 3, 3, 3], &fw), f32s(&[1], &[0.25])],
        out: (Fp32, vec![2, 5, 5, 4]),
        body: "  %z = \"tosa.const\"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>\n".to_string()
            + "  %out = tosa.conv2d %a0, %a1, %a2, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x5x5x3xf32>, tensor<4x3x3x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x5x4xf32>",
        args: Box::new(|g, x| {
            vec![g.i32s(&[1, 1, 1, 1]), g.i32s(&[1, 1]), g.i32s(&[1, 1]), g.u32(3), g.boolean(false), x[0], x[1], x[2], g.one(Fp32, 0), g.one(Fp32, 0)]
        }),
        op: TosaOp::Conv2d,
        tol: 1e-5,
    });
    for (name, op, mlir) in [
        ("erf_f32", TosaOp::Erf, "erf"),
        ("sigmoid_f32", TosaOp::Sigmoid, "sigmoid"),
        ("tanh_f32", TosaOp::Tanh, "tanh"),
    ] {
        let x: Vec<f32> = rng.units(16).iter().map(|v| v * 4.0).collect();
        v.push(Case {
            name,
            inputs: vec![f32s(&[16], &x)],
            out: (Fp32, vec![16]),
            body: format!("  %out = tosa.{mlir} %a0 : (tensor<16xf32>) -> tensor<16xf32>"),
            args: Box::new(|_, x| x.to_vec()),
            op,
            tol: 1e-6,
        });
    }
    v
}

#[test]
fn executor_agrees_with_the_reference_model() {
    let (Some(opt), Some(model)) = (tool(Tool::TosaOpt), tool(Tool::TosaReferenceModel)) else { return };
    let dir = scratch("cases");
    let mut checked = 0;
    for case in cases() {
        let name = case.name;
        let want = reference(&opt, &model, &dir, &case);
        let (m, inputs, op, tol, out) = case.module();
        let got = run1(&m, &inputs);
        assert_eq!((got.elem(), got.shape()), (out.0, out.1.as_slice()), "{name}");
        if tol == 0.0 {
            assert_eq!(got.to_bits(), want.to_bits(), "{name} ({op}): executor vs reference model");
        } else {
            for (i, (g, w)) in got.to_f64().iter().zip(want.to_f64()).enumerate() {
                assert!((g - w).abs() <= tol * (1.0 + w.abs()), "{name} element {i}: {g} vs reference {w}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 15);
}
