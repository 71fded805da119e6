//! Graph-level conventions of the TOSA MLIR printer (tensor-array
//! interfaces, outputs straight from inputs or constants, FFT results,
//! entry-point names, specialization constants, debug information) checked
//! against tosa-opt and model-converter, and the errors it reports for what
//! has no TOSA MLIR form.

use crate::mlir_common as common;
use crate::support;

use common::{convert, summarize, tosa_opt};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::{ElemType, ScalarKind};
use spvgraph_ir::inst::{GraphDebugInst, Id, Inst};
use spvgraph_ir::mlir::{module_to_mlir, MlirErrorKind};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{NanMode, TosaOp};
use spvgraph_ir::Module;
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::tool;
use std::collections::BTreeMap;

const F32: ElemType = ElemType::Fp32;

fn vars(b: &mut ModuleBuilder, types: &[Id]) -> Vec<Id> {
    types.iter().enumerate().map(|(k, &t)| b.interface_variable(t, 0, k as u32)).collect()
}

/// Inputs: a 3-element tensor array (elements read out of order, element 1
/// never read) and a plain tensor. Outputs: a 2-element array (element 0
/// straight from an input) and a tensor set from a graph constant.
fn array_interface() -> (Module, BTreeMap<u32, TensorData>) {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(F32, Some(&[2, 4]));
    let arr3 = b.type_array(t, 3);
    let arr2 = b.type_array(t, 2);
    let gty = b.type_graph(&[arr3, t], &[arr2, t]);
    let vs = vars(&mut b, &[arr3, t, arr2, t]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "arrays", vs);
    let e2 = b.graph_input(t, 0, Some(2));
    let e0 = b.graph_input(t, 0, Some(0));
    let y = b.graph_input(t, 1, None);
    let gc = b.graph_constant(t, 4);
    let sum = b.tosa(TosaOp::Add, t, vec![e0, e2]);
    let nan = b.const_u32(NanMode::Propagate.value());
    let max = b.tosa(TosaOp::Maximum, t, vec![nan, sum, y]);
    b.graph_output(e0, 0, Some(0));
    b.graph_output(max, 0, Some(1));
    b.graph_output(gc, 1, None);
    b.end_graph();
    let data = TensorData::from_bits(F32, &[2, 4], &[0x3f80_0000; 8]).expect("data");
    (b.finish(), BTreeMap::from([(4, data)]))
}

/// FFT2D with both members feeding an ADD, RFFT2D with only its imaginary
/// member used, and debug information in the body.
fn fft_chain() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(F32, Some(&[1, 8, 8]));
    let half = b.type_tensor(F32, Some(&[1, 8, 5]));
    let st = b.type_struct(vec![t, t]);
    let rst = b.type_struct(vec![half, half]);
    let gty = b.type_graph(&[t, t], &[t, half]);
    let vs = vars(&mut b, &[t, t, t, half]);
    let dbg = b.graph_debug_set();
    let void = b.type_void();
    let name = b.string("fft");
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "my graph/v2", vs);
    let re = b.graph_input(t, 0, None);
    let im = b.graph_input(t, 1, None);
    let no = b.const_bool(false);
    let yes = b.const_bool(true);
    let f = b.tosa(TosaOp::Fft2d, st, vec![yes, no, re, im]);
    let fr = b.composite_extract(t, f, 0);
    let fi = b.composite_extract(t, f, 1);
    let s = b.tosa(TosaOp::Add, t, vec![fr, fi]);
    let dg = b.id();
    b.graph_inst(Inst::GraphDebug { ty: void, result: dg, set: dbg, inst: GraphDebugInst::Graph { graph: g, name } });
    let r = b.tosa(TosaOp::Rfft2d, rst, vec![no, s]);
    let ri = b.composite_extract(half, r, 1);
    b.graph_output(s, 0, None);
    b.graph_output(ri, 1, None);
    b.end_graph();
    b.finish()
}

/// ARITHMETIC_RIGHT_SHIFT whose `round` is an OpSpecConstantTrue, in a
/// module with a second graph under two entry-point names.
fn spec_constant_and_two_graphs() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let gty = b.type_graph(&[t, t], &[t]);
    let vs = vars(&mut b, &[t, t, t]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "first", vs.clone());
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let r = b.tosa(TosaOp::Sub, t, vec![x, y]);
    b.graph_output(r, 0, None);
    b.end_graph();
    let g2 = b.begin_graph(gty);
    b.graph_entry_point(g2, "second", vs.clone());
    b.graph_entry_point(g2, "second_alias", vs);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let round = b.const_bool(true);
    let r = b.tosa(TosaOp::ArithmeticRightShift, t, vec![round, x, y]);
    b.graph_output(r, 0, None);
    b.end_graph();
    let mut m = b.finish();
    for inst in &mut m.insts {
        if let Inst::ConstantTrue { result, spec, .. } = inst {
            if *result == round {
                *spec = true;
            }
        }
    }
    m
}

fn print(m: &Module, entry: &str, data: &BTreeMap<u32, TensorData>) -> String {
    module_to_mlir(m, entry, data).unwrap_or_else(|e| panic!("{entry}: {e}"))
}

#[test]
fn tensor_arrays_flatten_in_element_order() {
    let (m, data) = array_interface();
    let text = print(&m, "arrays", &data);
    assert!(
        text.contains(
            "func.func @arrays(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, \
             %arg3: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)"
        ),
        "{text}"
    );
    assert!(text.contains("\"tosa.add\"(%arg0, %arg2) "), "element 0 is %arg0, element 2 is %arg2:\n{text}");
    assert!(text.contains("return %arg0, "), "output element 0 is input element 0:\n{text}");
    assert!(text.contains("dense<1.0> : tensor<2x4xf32>"), "graph constant data:\n{text}");
}

#[test]
fn fft_results_entry_names_and_debug_info() {
    let text = print(&fft_chain(), "my graph/v2", &BTreeMap::new());
    assert!(text.contains("func.func @\"my graph/v2\"("), "{text}");
    assert!(text.contains(":2 = \"tosa.fft2d\"(%arg0, %arg1) <{inverse = true, local_bound = false}>"), "{text}");
    assert!(text.contains("\"tosa.add\"(%0#0, %0#1) "), "{text}");
    assert!(text.contains("return %1, %2#1 "), "{text}");
    assert!(!text.contains("Debug"), "{text}");
}

#[test]
fn spec_constants_print_their_default_and_any_entry_point_prints() {
    let m = spec_constant_and_two_graphs();
    let second = print(&m, "second", &BTreeMap::new());
    assert!(second.contains("\"tosa.arithmetic_right_shift\"(%arg0, %arg1) <{round = true}>"), "{second}");
    let alias = print(&m, "second_alias", &BTreeMap::new());
    assert_eq!(alias.replace("second_alias", "second"), second);
    let first = print(&m, "first", &BTreeMap::new());
    assert!(first.contains("\"tosa.sub\"(%arg0, %arg1)"), "{first}");
}

/// The graphs above go through tosa-opt (validation) and model-converter
/// (same operators and interface types, arrays flattened).
#[test]
fn graph_cases_pass_tosa_opt_and_model_converter() {
    let Some(opt) = tool(Tool::TosaOpt) else { return };
    for converter in support::converters() {
        graph_cases_with(&opt, &converter);
    }
}

fn graph_cases_with(opt: &std::path::Path, converter: &support::Converter) {
    let (mc, dump) = (&converter.mc, &converter.dump);
    let dir = spvgraph_testkit::scratch("mlir-graphs");
    let (arrays, data) = array_interface();
    let fft = fft_chain();
    let two = spec_constant_and_two_graphs();
    let cases: Vec<(&str, &Module, BTreeMap<u32, TensorData>)> =
        vec![("arrays", &arrays, data), ("my graph/v2", &fft, BTreeMap::new()), ("second", &two, BTreeMap::new())];
    let mut problems = Vec::new();
    for (k, (entry, m, data)) in cases.iter().enumerate() {
        let text = print(m, entry, data);
        let f = dir.join(format!("g{k}.mlir"));
        std::fs::write(&f, &text).expect("write");
        if let Err(e) = tosa_opt(opt, &f) {
            problems.push(format!("--- {entry}: tosa-opt\n{e}\n{text}"));
            continue;
        }
        let mut want = summarize(m, Some(entry));
        // model-converter serves an output that is a graph input unchanged by
        // aliasing the two resources in the VGF (same binding): such outputs
        // are not outputs of its SPIR-V graph.
        for position in passthrough_outputs(m, entry).into_iter().rev() {
            want.outputs.remove(position);
        }
        match convert(mc, dump, &dir, &format!("g{k}"), &text) {
            Ok(c) => {
                let got = summarize(&c.module, None);
                if got != want {
                    problems.push(format!("--- {entry}\nwant {want:?}\ngot  {got:?}"));
                }
            }
            Err(e) => problems.push(format!("--- {entry}: {e}")),
        }
    }
    assert!(problems.is_empty(), "model-converter {}:\n{}", converter.channel, problems.join("\n"));
}

/// Positions (in flattened output order) of outputs set straight from a
/// graph input.
fn passthrough_outputs(m: &Module, entry: &str) -> Vec<usize> {
    let a = Analysis::new(m);
    let Some(view) = common::graph_of(m, Some(entry)).and_then(|g| a.graph(g)) else { return vec![] };
    let Some(Type::Graph { outputs, .. }) = a.ty(view.ty) else { return vec![] };
    let sizes: Vec<usize> = outputs.iter().map(|&t| common::flat_types(&a, t).len()).collect();
    let mut positions: Vec<usize> = view
        .outputs
        .iter()
        .filter_map(|&i| match &m.insts[i] {
            Inst::GraphSetOutput { value, output_index, element_index } => {
                matches!(a.def(*value), Some(Inst::GraphInput { .. })).then_some(())?;
                let index = a.const_uint(*output_index)? as usize;
                let element = element_index.and_then(|e| a.const_uint(e)).unwrap_or(0) as usize;
                Some(sizes.iter().take(index).sum::<usize>() + element)
            }
            _ => None,
        })
        .collect();
    positions.sort_unstable();
    positions
}

// ---------------------------------------------------------------- errors

/// A one-ABS graph `main` over `t`, with `extra` run inside the graph body
/// before the output is set to what it returns.
fn graph_with(elem: ElemType, extra: impl FnOnce(&mut ModuleBuilder, Id, Id) -> Id) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(elem, Some(&[4]));
    let gty = b.type_graph(&[t], &[t]);
    let vs = vars(&mut b, &[t, t]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vs);
    let x = b.graph_input(t, 0, None);
    let out = extra(&mut b, t, x);
    b.graph_output(out, 0, None);
    b.end_graph();
    b.finish()
}

fn error_of(m: &Module, data: &BTreeMap<u32, TensorData>) -> spvgraph_ir::mlir::MlirError {
    match module_to_mlir(m, "main", data) {
        Ok(text) => panic!("printed a graph it should refuse:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn errors_name_the_instruction_and_the_problem() {
    let none = BTreeMap::new();

    let ok = graph_with(F32, |b, t, x| b.tosa(TosaOp::Abs, t, vec![x]));
    let e = module_to_mlir(&ok, "other", &none).expect_err("unknown entry point");
    assert!(matches!(&e.kind, MlirErrorKind::UnknownEntryPoint { available, .. } if available == &["main"]), "{e}");

    // A core instruction in the body.
    let m = graph_with(F32, |b, t, x| {
        let r = b.id();
        b.graph_inst(Inst::Raw { opcode: spirv::Op::CopyObject as u16, operands: vec![t.0, r.0, x.0] });
        r
    });
    let e = error_of(&m, &none);
    assert!(matches!(e.kind, MlirErrorKind::NotPrintable), "{e}");
    assert!(e.to_string().contains("OpCopyObject"), "{e}");
    assert!(e.location.as_ref().is_some_and(|l| l.word_offset > 5), "{e}");

    // A graph constant without data, and with data of the wrong type.
    let m = graph_with(F32, |b, t, x| {
        let c = b.graph_constant(t, 9);
        b.tosa(TosaOp::Add, t, vec![x, c])
    });
    let e = error_of(&m, &none);
    assert!(matches!(e.kind, MlirErrorKind::MissingGraphConstant { graph_constant_id: 9 }), "{e}");
    assert!(e.to_string().contains("ADD"), "names the instruction using it: {e}");
    let wrong = BTreeMap::from([(9, TensorData::zeros(ElemType::I32, &[4]))]);
    let e = error_of(&m, &wrong);
    assert!(matches!(e.kind, MlirErrorKind::GraphConstantMismatch { .. }), "{e}");

    // An enum operand holding no enumerant.
    let m = graph_with(F32, |b, t, x| {
        let zero = b.const_u32(0);
        b.tosa(TosaOp::Maximum, t, vec![zero, x, x])
    });
    let e = error_of(&m, &none);
    assert!(matches!(e.kind, MlirErrorKind::BadEnum { operand: "nan_mode", value: 0, .. }), "{e}");
    assert!(e.to_string().contains("MAXIMUM"), "{e}");

    // A zero point that is not a constant.
    let m = graph_with(ElemType::I8, |b, t, x| b.tosa(TosaOp::Negate, t, vec![x, x, x]));
    let e = error_of(&m, &none);
    assert!(matches!(e.kind, MlirErrorKind::NotConstant { operand: "input1_zp", .. }), "{e}");

    // The FFT struct used directly, and a bad member index.
    let fft = |member: Option<u32>| {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(F32, Some(&[1, 4, 4]));
        let half = b.type_tensor(F32, Some(&[1, 4, 3]));
        let st = b.type_struct(vec![half, half]);
        let gty = b.type_graph(&[t], &[half]);
        let vs = vars(&mut b, &[t, half]);
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vs);
        let x = b.graph_input(t, 0, None);
        let no = b.const_bool(false);
        let r = b.tosa(TosaOp::Rfft2d, st, vec![no, x]);
        let out = match member {
            Some(k) => b.composite_extract(half, r, k),
            None => r,
        };
        b.graph_output(out, 0, None);
        b.end_graph();
        b.finish()
    };
    let e = error_of(&fft(None), &none);
    assert!(matches!(e.kind, MlirErrorKind::BadExtract { .. }), "{e}");
    let e = error_of(&fft(Some(2)), &none);
    assert!(matches!(e.kind, MlirErrorKind::BadExtract { .. }), "{e}");

    // An i48 constant that does not fit in 48 bits.
    let m = {
        let mut b = ModuleBuilder::new();
        let x_ty = b.type_tensor(ElemType::I16, Some(&[1, 1, 1, 1]));
        let out = b.type_tensor(ElemType::I48, Some(&[1, 1, 1, 1]));
        let gty = b.type_graph(&[x_ty], &[out]);
        let vs = vars(&mut b, &[x_ty, out]);
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vs);
        let x = b.graph_input(x_ty, 0, None);
        let zeros = b.const_i32_vector(&[0, 0, 0, 0]);
        let ones = b.const_i32_vector(&[1, 1]);
        let acc = b.const_u32(4);
        let no = b.const_bool(false);
        let w = b.const_tensor(ElemType::I8, &[1, 1, 1, 1], &[1]).expect("w");
        let bias = b.const_tensor(ElemType::I48, &[1], &[1 << 50]).expect("bias");
        let zp16 = b.const_tensor(ElemType::I16, &[1], &[0]).expect("zp");
        let zp8 = b.const_tensor(ElemType::I8, &[1], &[0]).expect("zp");
        let r = b.tosa(TosaOp::Conv2d, out, vec![zeros, ones, ones, acc, no, x, w, bias, zp16, zp8]);
        b.graph_output(r, 0, None);
        b.end_graph();
        b.finish()
    };
    let e = error_of(&m, &none);
    assert!(e.to_string().contains("does not fit in i48"), "{e}");
}

#[test]
fn interface_errors() {
    let none = BTreeMap::new();

    // An unshaped graph input.
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor_ranked(F32, 1);
    let gty = b.type_graph(&[t], &[t]);
    let vs = vars(&mut b, &[t, t]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vs);
    let x = b.graph_input(t, 0, None);
    b.graph_output(x, 0, None);
    b.end_graph();
    let e = error_of(&b.finish(), &none);
    assert!(matches!(e.kind, MlirErrorKind::UnshapedTensor { .. }), "{e}");

    // An output never set, and one set twice.
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(F32, Some(&[4]));
    let gty = b.type_graph(&[t], &[t, t]);
    let vs = vars(&mut b, &[t, t, t]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vs);
    let x = b.graph_input(t, 0, None);
    b.graph_output(x, 1, None);
    b.graph_output(x, 1, None);
    b.end_graph();
    let e = error_of(&b.finish(), &none);
    assert!(matches!(e.kind, MlirErrorKind::OutputSetTwice { index: 1, element: None }), "{e}");

    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(F32, Some(&[4]));
    let gty = b.type_graph(&[t], &[t, t]);
    let vs = vars(&mut b, &[t, t, t]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vs);
    let x = b.graph_input(t, 0, None);
    b.graph_output(x, 1, None);
    b.end_graph();
    let e = error_of(&b.finish(), &none);
    assert!(matches!(e.kind, MlirErrorKind::OutputNotSet { index: 0, element: None }), "{e}");

    // An element type TOSA does not have (64-bit float).
    let mut b = ModuleBuilder::new();
    let f64t = b.type_scalar(ScalarKind::Float { width: 64, encoding: None });
    let mut m = {
        let t = b.type_tensor(F32, Some(&[4]));
        let gty = b.type_graph(&[t], &[t]);
        let vs = vars(&mut b, &[t, t]);
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vs);
        let x = b.graph_input(t, 0, None);
        b.graph_output(x, 0, None);
        b.end_graph();
        b.finish()
    };
    for inst in &mut m.insts {
        if let Inst::TypeTensor { element, .. } = inst {
            *element = f64t;
        }
    }
    let e = error_of(&m, &none);
    assert!(matches!(e.kind, MlirErrorKind::UnsupportedElement { .. }), "{e}");
}
