//! The TOSA MLIR printer against MLIR's own tools, for every operator.
//!
//! For each of the 66 operators and each of its type rows, a one-operator
//! graph is built with `ModuleBuilder` (shapes and attribute values chosen so
//! that the catalogue's `infer_shapes` accepts them; constants cycling through
//! every constant form). Then:
//!
//! * `tosa-opt --tosa-attach-target=<every profile and extension>
//!   --tosa-validate=strict-op-spec-alignment` must accept the printed MLIR;
//! * `model-converter` (MLIR's SPIR-V serializer) must convert it, and the
//!   module it writes must have the same interface types and the same TOSA
//!   operator multiset (operator + result types) as the original graph.
//!
//! Under `CI=true` a missing tool fails; elsewhere the tool tests are skipped.

use crate::mlir_common as common;
use crate::support;

use common::{convert, operand_signature, parallel, summarize, tosa_opt, tosa_opt_failures, type_text, ConstData};

use half::{bf16, f16};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::mlir::module_to_mlir;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::spec::table_size;
use spvgraph_ir::tosa::{
    infer_shapes, AccType, EnumKind, Form, Len, NanMode, OperandSpec, ResizeMode, ResultKind, RoundingMode,
    RowQualifier, ShapeArg, ShapeInputs, ShapeRule, TosaOp, TypeRow, ValueRule,
};
use spvgraph_ir::Module;
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::tool;
use std::collections::BTreeMap;

// ---------------------------------------------------------------- cases

/// One graph to print, with what MLIR's tools must find in it.
struct Case {
    /// A readable description (`CONV2D [i8, i8, i32] #3`).
    name: String,
    /// Entry-point (and function) name.
    entry: String,
    module: Module,
    graph_constants: BTreeMap<u32, TensorData>,
    /// The operator of the case.
    op: TosaOp,
    /// TOSA operators in the graph with their result types.
    ops: Vec<String>,
    /// Operators model-converter is expected to add (the printer's reshape
    /// after a rank-1 ARGMAX).
    added: Vec<String>,
}

/// How one operand is supplied.
#[derive(Clone, Debug)]
enum Arg {
    /// A tensor value: a graph input, or a constant with these bits.
    Tensor { elem: ElemType, shape: Vec<u32>, constant: Option<Vec<u64>> },
    /// A tensor constant (`ConstTensor` and `I32Array` forms).
    Const { elem: ElemType, shape: Vec<u32>, bits: Vec<u64> },
    /// A u32 constant (axis, enum).
    U32(u32),
    /// A bool constant.
    Bool(bool),
    /// A scalar constant of an element type (CLAMP bounds).
    Scalar(ElemType, u64),
}

/// Which constant instruction a tensor constant is written as.
#[derive(Clone, Copy, Debug)]
enum ConstForm {
    Composite,
    Null,
    Replicate,
    Graph,
}

/// Small values of every element type (raw bits), cycled through.
fn sample(elem: ElemType, i: usize) -> u64 {
    const F: [f32; 7] = [0.5, -1.25, 2.0, 0.0, 3.5, -0.75, 1.0];
    let k = i % 7;
    match elem {
        ElemType::Bool => (i % 2) as u64,
        ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I48 => (k as i64 - 3) as u64,
        ElemType::Fp32 => u64::from(F[k].to_bits()),
        ElemType::Fp16 => u64::from(f16::from_f32(F[k]).to_bits()),
        ElemType::Bf16 => u64::from(bf16::from_f32(F[k]).to_bits()),
        ElemType::Fp8E4M3 => [0x30, 0xBA, 0x40, 0x00, 0x46, 0xB4, 0x38][k],
        ElemType::Fp8E5M2 => [0x38, 0xBD, 0x40, 0x00, 0x43, 0xBA, 0x3C][k],
    }
}

fn samples(elem: ElemType, count: usize, offset: usize) -> Vec<u64> {
    (0..count).map(|i| sample(elem, i + offset)).collect()
}

/// A value of `elem` from an f32 (floats) or i64 (integers).
fn value(elem: ElemType, f: f32, i: i64) -> u64 {
    match elem {
        ElemType::Fp32 => u64::from(f.to_bits()),
        ElemType::Fp16 => u64::from(f16::from_f32(f).to_bits()),
        ElemType::Bf16 => u64::from(bf16::from_f32(f).to_bits()),
        ElemType::Fp8E4M3 | ElemType::Fp8E5M2 => {
            if f == 0.0 {
                0
            } else {
                sample(elem, 6)
            }
        }
        ElemType::Bool => u64::from(i != 0),
        _ => i as u64,
    }
}

/// Operand shapes and values that satisfy each shape rule.
struct Recipe {
    /// Shapes of the tensor-value operands, in operand order.
    tensors: Vec<Vec<u32>>,
    /// Values of the rank-1 i32 operands (attribute arrays, `shape_t`), by name.
    ints: Vec<(&'static str, Vec<i32>)>,
    /// The axis, where the operator has one.
    axis: u32,
}

fn recipe(op: TosaOp, rank1: bool) -> Recipe {
    let r = |tensors: Vec<Vec<u32>>, ints: Vec<(&'static str, Vec<i32>)>, axis: u32| Recipe { tensors, ints, axis };
    let conv = vec![("pad", vec![1, 1, 1, 1]), ("stride", vec![2, 2]), ("dilation", vec![1, 1])];
    match op.spec().shape {
        ShapeRule::Argmax if rank1 => r(vec![vec![5]], vec![], 0),
        ShapeRule::Argmax => r(vec![vec![2, 3, 4]], vec![], 1),
        ShapeRule::Pool2d => r(
            vec![vec![1, 7, 7, 3]],
            vec![("kernel", vec![3, 3]), ("stride", vec![2, 2]), ("pad", vec![1, 1, 1, 1])],
            0,
        ),
        ShapeRule::Conv2d => r(vec![vec![1, 7, 7, 3], vec![4, 3, 3, 3], vec![4]], conv, 0),
        ShapeRule::DepthwiseConv2d => r(vec![vec![1, 7, 7, 3], vec![3, 3, 3, 2], vec![6]], conv, 0),
        ShapeRule::Conv3d => r(
            vec![vec![1, 4, 6, 6, 2], vec![3, 2, 3, 3, 2], vec![3]],
            vec![("pad", vec![0, 0, 1, 1, 1, 1]), ("stride", vec![1, 1, 1]), ("dilation", vec![1, 1, 1])],
            0,
        ),
        ShapeRule::TransposeConv2d => r(
            vec![vec![1, 4, 4, 3], vec![5, 3, 3, 3], vec![5]],
            vec![("out_pad", vec![0, 1, 0, 1]), ("stride", vec![2, 2])],
            0,
        ),
        ShapeRule::Matmul => r(vec![vec![2, 3, 4], vec![2, 4, 5]], vec![], 0),
        ShapeRule::Fft2d => r(vec![vec![1, 8, 8], vec![1, 8, 8]], vec![], 0),
        ShapeRule::Rfft2d => r(vec![vec![1, 8, 8]], vec![], 0),
        ShapeRule::Broadcast if op == TosaOp::Select => r(vec![vec![2, 3, 4], vec![1, 3, 4], vec![2, 3, 1]], vec![], 0),
        ShapeRule::Broadcast => r(vec![vec![2, 3, 4], vec![2, 1, 4]], vec![], 0),
        ShapeRule::Reduce => r(vec![vec![2, 3, 4]], vec![], 1),
        ShapeRule::Concat => r(vec![vec![2, 3, 4], vec![2, 2, 4], vec![2, 1, 4]], vec![], 1),
        ShapeRule::Pad => r(vec![vec![2, 3]], vec![("padding", vec![1, 0, 0, 2])], 0),
        ShapeRule::Reshape => r(vec![vec![2, 3, 4]], vec![("shape", vec![6, 4])], 0),
        ShapeRule::Slice => r(vec![vec![4, 5]], vec![("start", vec![1, 2]), ("size", vec![2, 3])], 0),
        ShapeRule::Tile => r(vec![vec![2, 3]], vec![("multiples", vec![2, 1])], 0),
        ShapeRule::Transpose => r(vec![vec![2, 3, 4]], vec![("perms", vec![2, 0, 1])], 0),
        ShapeRule::Gather => r(vec![vec![2, 5, 3], vec![2, 4]], vec![], 0),
        ShapeRule::Scatter => r(vec![vec![2, 5, 3], vec![2, 2], vec![2, 2, 3]], vec![], 0),
        ShapeRule::Resize => r(
            vec![vec![1, 4, 4, 2]],
            vec![("scale", vec![4, 2, 4, 2]), ("offset", vec![0, 0]), ("border", vec![0, 0])],
            0,
        ),
        ShapeRule::Identity | ShapeRule::Table | ShapeRule::Rescale => r(vec![vec![2, 3, 4]], vec![], 2),
    }
}

/// Chooses every operand of `op` under type row `row`. `variant` varies the
/// free choices (NaN mode, rounding mode, which operands are constants).
fn plan(op: TosaOp, row: &TypeRow, variant: usize, rank1: bool) -> Vec<(&'static OperandSpec, Arg)> {
    let spec = op.spec();
    let rec = recipe(op, rank1);
    let count = if spec.variadic { spec.operands.len() - 1 + rec.tensors.len() } else { spec.operands.len() };
    let mut out: Vec<(&'static OperandSpec, Arg)> = Vec::new();
    let mut tensor_no = 0;
    for i in 0..count {
        let o = spec.operand(i).expect("operand exists");
        let elem = o.form.elem().resolve(row).expect("row has the slot");
        let arg = match o.form {
            Form::Tensor { .. } => {
                let shape = rec.tensors.get(tensor_no).cloned().expect("recipe has the tensor");
                tensor_no += 1;
                let n: usize = shape.iter().map(|&d| d as usize).product();
                let constant = match (op, o.name) {
                    // In-range indices; SCATTER's must also be unique per batch.
                    (TosaOp::Scatter, "indices") => Some(vec![0, 3, 4, 1]),
                    (TosaOp::Gather, "indices") => None,
                    // Later tensor inputs are constants in odd variants; the
                    // first stays a graph input so nothing folds away.
                    _ if tensor_no > 1 && variant % 2 == 1 => Some(samples(elem, n, i)),
                    _ => None,
                };
                Arg::Tensor { elem, shape, constant }
            }
            Form::I32Array { .. } => {
                let v = rec.ints.iter().find(|(n, _)| *n == o.name).map(|(_, v)| v.clone()).expect("recipe ints");
                Arg::Const {
                    elem: ElemType::I32,
                    shape: vec![v.len() as u32],
                    bits: v.iter().map(|&x| u64::from(x as u32)).collect(),
                }
            }
            Form::ConstTensor { len, .. } => {
                let n = match len {
                    Len::Fixed(n) => n,
                    Len::TableSize { slot } => table_size(row.slot(slot).expect("slot")).expect("table size"),
                    Len::PerChannel { flag, of } => {
                        let per_channel = matches!(out.get(flag as usize), Some((_, Arg::Bool(true))));
                        match out.get(of as usize) {
                            Some((_, Arg::Tensor { shape, .. })) if per_channel => *shape.last().expect("rank"),
                            _ => 1,
                        }
                    }
                    other => panic!("no recipe for {other:?}"),
                };
                let mul_t = row.slot(2);
                let scale32 = row.qualifier == RowQualifier::Scale32(true);
                let one = match o.value {
                    ValueRule::ZeroPoint if elem == ElemType::I8 => value(elem, 0.0, -5),
                    ValueRule::RescaleZeroPoint { .. } if elem == ElemType::I8 => value(elem, 0.0, 3),
                    ValueRule::ZeroPoint | ValueRule::RescaleZeroPoint { .. } => value(elem, 0.0, 0),
                    ValueRule::MulShift if elem == ElemType::I8 && row.types.first() == Some(&ElemType::I32) => 2,
                    ValueRule::MulShift => 0,
                    ValueRule::NonNegative if mul_t == Some(ElemType::I16) => 1 << 14,
                    ValueRule::NonNegative => 1 << 30,
                    ValueRule::RescaleShift if scale32 => 30,
                    ValueRule::RescaleShift => 14,
                    _ => u64::MAX,
                };
                let bits = if one == u64::MAX { samples(elem, n as usize, i) } else { vec![one; n as usize] };
                Arg::Const { elem, shape: vec![n], bits }
            }
            Form::AxisConst { .. } => Arg::U32(rec.axis),
            Form::EnumConst(kind) => Arg::U32(match kind {
                EnumKind::NanMode => NanMode::ALL[variant % 2].value(),
                EnumKind::AccType => match row.qualifier {
                    RowQualifier::AccType(a) => a.value(),
                    _ => AccType::Int32.value(),
                },
                EnumKind::ResizeMode => match row.qualifier {
                    RowQualifier::Mode(m) => m.value(),
                    _ => ResizeMode::ALL[variant % 2].value(),
                },
                EnumKind::RoundingMode => {
                    let scale32 = row.qualifier == RowQualifier::Scale32(true);
                    match variant % 3 {
                        1 => RoundingMode::InexactRound.value(),
                        2 if scale32 => RoundingMode::DoubleRound.value(),
                        _ => RoundingMode::SingleRound.value(),
                    }
                }
            }),
            Form::BoolConst => Arg::Bool(match o.name {
                "scale32" => row.qualifier == RowQualifier::Scale32(true),
                "per_channel" => variant % 2 == 0,
                "input_unsigned" | "output_unsigned" => false,
                _ => variant % 2 == 1,
            }),
            Form::ScalarConst { .. } => {
                let bits = if o.name == "min_val" { value(elem, -1.5, -3) } else { value(elem, 6.0, 100) };
                Arg::Scalar(elem, bits)
            }
        };
        out.push((o, arg));
    }
    out
}

fn shape_inputs(planned: &[(&'static OperandSpec, Arg)]) -> ShapeInputs {
    let args = planned
        .iter()
        .map(|(o, a)| match a {
            Arg::Tensor { shape, .. } => ShapeArg::Tensor(shape.clone()),
            Arg::Const { shape, bits, .. } => match o.form {
                Form::I32Array { .. } => ShapeArg::Ints(bits.iter().map(|&b| i64::from(b as u32 as i32)).collect()),
                _ => ShapeArg::Tensor(shape.clone()),
            },
            Arg::U32(v) if matches!(o.form, Form::AxisConst { .. }) => ShapeArg::Ints(vec![i64::from(*v as i32)]),
            Arg::Bool(b) => ShapeArg::Bool(*b),
            _ => ShapeArg::Opaque,
        })
        .collect::<Vec<_>>();
    ShapeInputs::from(args)
}

/// Writes module constants in the form the counter selects among those the
/// values allow, and remembers graph-constant data.
struct Consts {
    next_form: usize,
    next_graph_id: u32,
    data: BTreeMap<u32, TensorData>,
}

impl Consts {
    fn new() -> Consts {
        Consts { next_form: 0, next_graph_id: 7, data: BTreeMap::new() }
    }

    fn tensor(&mut self, b: &mut ModuleBuilder, elem: ElemType, shape: &[u32], bits: &[u64]) -> Id {
        let first = bits.first().copied().unwrap_or(0);
        let forms: &[ConstForm] = if bits.iter().all(|&x| x == 0) {
            &[ConstForm::Null, ConstForm::Replicate, ConstForm::Composite, ConstForm::Graph]
        } else if bits.iter().all(|&x| x == first) {
            &[ConstForm::Replicate, ConstForm::Composite, ConstForm::Graph]
        } else {
            &[ConstForm::Composite, ConstForm::Graph]
        };
        let form = forms[self.next_form % forms.len()];
        self.next_form += 1;
        let ty = b.type_tensor(elem, Some(shape));
        match form {
            ConstForm::Composite => b.const_tensor(elem, shape, bits).expect("bits fill the shape"),
            ConstForm::Null => b.const_null(ty),
            ConstForm::Replicate => {
                let one = b.const_scalar(elem, first);
                b.const_replicate(ty, one)
            }
            ConstForm::Graph => {
                let id = self.next_graph_id;
                // Sparse ids: GraphConstantIDs need not be dense.
                self.next_graph_id += 3;
                let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
                self.data.insert(id, TensorData::from_bits(elem, &dims, bits).expect("data fits"));
                b.graph_constant(ty, id)
            }
        }
    }
}

/// A graph with one `op` instance, its operands chosen by [`plan`].
fn single_op_case(op: TosaOp, row: &TypeRow, variant: usize, rank1: bool, entry: String) -> Case {
    let planned = plan(op, row, variant, rank1);
    let inputs = shape_inputs(&planned);
    let shapes = infer_shapes(op, &inputs).unwrap_or_else(|e| panic!("recipe for {op} is not valid: {e}"));
    let spec = op.spec();
    let out_elem = row.slot(spec.result.slot).expect("result slot");

    let mut b = ModuleBuilder::new();
    let mut consts = Consts::new();
    let in_types: Vec<Id> = planned
        .iter()
        .filter_map(|(_, a)| match a {
            Arg::Tensor { elem, shape, constant: None } => Some(b.type_tensor(*elem, Some(shape))),
            _ => None,
        })
        .collect();
    let out_types: Vec<Id> = shapes.iter().map(|s| b.type_tensor(out_elem, Some(s))).collect();
    let gty = b.type_graph(&in_types, &out_types);
    let vars: Vec<Id> =
        in_types.iter().chain(&out_types).enumerate().map(|(k, &t)| b.interface_variable(t, 0, k as u32)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, &entry, vars);
    let mut next_input = 0;
    let mut input_ids = Vec::new();
    for (_, a) in &planned {
        if let Arg::Tensor { elem, shape, constant: None } = a {
            let t = b.type_tensor(*elem, Some(shape));
            input_ids.push(b.graph_input(t, next_input, None));
            next_input += 1;
        }
    }
    let mut inputs_iter = input_ids.into_iter();
    let args: Vec<Id> = planned
        .iter()
        .map(|(_, a)| match a {
            Arg::Tensor { constant: None, .. } => inputs_iter.next().expect("one input per tensor"),
            Arg::Tensor { elem, shape, constant: Some(bits) } | Arg::Const { elem, shape, bits } => {
                consts.tensor(&mut b, *elem, shape, bits)
            }
            Arg::U32(v) => b.const_u32(*v),
            Arg::Bool(v) => b.const_bool(*v),
            Arg::Scalar(elem, bits) => b.const_scalar(*elem, *bits),
        })
        .collect();
    let shapes64: Vec<Vec<u64>> = shapes.iter().map(|s| s.iter().map(|&d| u64::from(d)).collect()).collect();
    let result_types: Vec<String> = shapes64.iter().map(|s| type_text(out_elem, s)).collect();
    match spec.result.kind {
        ResultKind::Tensor => {
            let r = b.tosa(op, out_types[0], args);
            b.graph_output(r, 0, None);
        }
        ResultKind::RealImagStruct => {
            let st = b.type_struct(out_types.clone());
            let r = b.tosa(op, st, args);
            for (k, &t) in out_types.iter().enumerate() {
                let part = b.composite_extract(t, r, k as u32);
                b.graph_output(part, k as u32, None);
            }
        }
    }
    b.end_graph();
    let ops = vec![format!("{} -> {}", op.name(), result_types.join(", "))];
    let added = if rank1 { vec![format!("RESHAPE -> {}", result_types[0])] } else { vec![] };
    let types: Vec<&str> = row.types.iter().map(|t| t.name()).collect();
    let qual = match row.qualifier {
        RowQualifier::Any => String::new(),
        q => format!(" {q:?}"),
    };
    Case {
        name: format!("{op} [{}]{qual} variant {variant}{}", types.join(", "), if rank1 { " rank-1" } else { "" }),
        entry,
        op,
        module: b.finish(),
        graph_constants: consts.data,
        ops,
        added,
    }
}

/// One case per operator and type row, plus ARGMAX of a rank-1 tensor.
fn catalogue_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for op in TosaOp::ALL {
        for (k, row) in op.spec().type_rows.iter().enumerate() {
            let entry = format!("c{}_{}", cases.len(), op.name().to_ascii_lowercase());
            cases.push(single_op_case(op, row, k, false, entry));
        }
    }
    for (k, row) in TosaOp::Argmax.spec().type_rows.iter().enumerate().take(2) {
        let entry = format!("c{}_argmax_rank1", cases.len());
        cases.push(single_op_case(TosaOp::Argmax, row, k, true, entry));
    }
    cases
}

/// Operators whose two tensor inputs may be exchanged.
const COMMUTATIVE: &[TosaOp] = &[
    TosaOp::Add,
    TosaOp::Mul,
    TosaOp::Maximum,
    TosaOp::Minimum,
    TosaOp::BitwiseAnd,
    TosaOp::BitwiseOr,
    TosaOp::BitwiseXor,
    TosaOp::LogicalAnd,
    TosaOp::LogicalOr,
    TosaOp::LogicalXor,
    TosaOp::Equal,
];

/// The operand list with the first two inputs (`input …` or tensors)
/// exchanged; attributes (scalars) stay in place.
fn swap_first_two(operands: &[String]) -> Vec<String> {
    let mut v = operands.to_vec();
    let tensors: Vec<usize> =
        v.iter().enumerate().filter(|(_, s)| !s.starts_with("scalar")).map(|(i, _)| i).take(2).collect();
    if let [i, j] = tensors[..] {
        v.swap(i, j);
    }
    v
}

fn print_case(c: &Case) -> String {
    module_to_mlir(&c.module, &c.entry, &c.graph_constants)
        .unwrap_or_else(|e| panic!("{}: printer refused a valid graph: {e}", c.name))
}

// ---------------------------------------------------------------- tests

#[test]
fn catalogue_cases_cover_all_operators_and_print() {
    let cases = catalogue_cases();
    let mut seen: Vec<TosaOp> = cases
        .iter()
        .map(|c| summarize(&c.module, None))
        .flat_map(|s| {
            s.ops.keys().filter_map(|k| TosaOp::from_name(k.split(' ').next().unwrap_or(""))).collect::<Vec<_>>()
        })
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), TosaOp::COUNT, "every operator has a case");
    for c in &cases {
        let text = print_case(c);
        let op = c.ops[0].split(' ').next().unwrap_or("");
        let mlir = TosaOp::from_name(op).expect("op").mlir_name();
        assert!(text.contains(&format!("= \"{mlir}\"(")), "{}: no {mlir} in\n{text}", c.name);
        assert!(text.contains(&format!("func.func @{}(", c.entry)), "{}", c.name);
    }
    // Every constant form appears among the operands.
    let mut forms = BTreeMap::new();
    for c in &cases {
        let a = spvgraph_ir::analysis::Analysis::new(&c.module);
        for inst in &c.module.insts {
            let form = match inst {
                // Tensor constants only, not the shape arrays of tensor types.
                Inst::ConstantComposite { ty, .. } if a.tensor_type(*ty).is_some() => "OpConstantComposite",
                Inst::ConstantNull { .. } => "OpConstantNull",
                Inst::ConstantCompositeReplicate { .. } => "OpConstantCompositeReplicateEXT",
                Inst::GraphConstant { .. } => "OpGraphConstantARM",
                Inst::ConstantTrue { .. } | Inst::ConstantFalse { .. } => "OpConstantTrue/False",
                _ => continue,
            };
            *forms.entry(form).or_insert(0) += 1;
        }
    }
    assert_eq!(forms.len(), 5, "{forms:?}");
    eprintln!("{} single-operator cases over {} operators; constants: {forms:?}", cases.len(), TosaOp::COUNT);
}

#[test]
fn tosa_opt_accepts_every_operator_and_type_row() {
    let Some(tool) = tool(Tool::TosaOpt) else { return };
    let dir = spvgraph_testkit::scratch("mlir-tosa-opt");
    let cases = catalogue_cases();
    let printed: Vec<(String, String)> = cases.iter().map(|c| (c.name.clone(), print_case(c))).collect();
    let failures = tosa_opt_failures(&tool, &dir, &printed);
    let report: Vec<String> = failures.iter().map(|(n, e)| format!("--- {n}\n{e}")).collect();
    assert!(
        failures.is_empty(),
        "tosa-opt rejected {} of {} cases:\n{}",
        failures.len(),
        cases.len(),
        report.join("\n")
    );
    eprintln!("tosa-opt --tosa-validate accepted all {} cases", cases.len());
}

#[test]
fn tosa_opt_check_is_live() {
    // The validation must be able to fail: an fp32 CONV2D with an INT32
    // accumulator is not a row of the type table.
    let Some(tool) = tool(Tool::TosaOpt) else { return };
    let dir = spvgraph_testkit::scratch("mlir-tosa-opt-live");
    let row = TosaOp::Conv2d
        .spec()
        .type_rows
        .iter()
        .find(|r| r.types == [ElemType::Fp32, ElemType::Fp32, ElemType::Fp32])
        .expect("fp32 row");
    let bad_row = TypeRow { qualifier: RowQualifier::AccType(AccType::Int32), ..*row };
    let case = single_op_case(TosaOp::Conv2d, &bad_row, 0, false, "bad_acc".into());
    let text = print_case(&case);
    assert!(text.contains("acc_type = i32"), "{text}");
    let f = dir.join("bad.mlir");
    std::fs::write(&f, &text).expect("write");
    assert!(tosa_opt(&tool, &f).is_err(), "tosa-opt accepted an fp32 CONV2D with acc_type i32:\n{text}");
}

#[test]
fn model_converter_round_trip_keeps_operators_and_interface() {
    let cases = catalogue_cases();
    for converter in support::converters() {
        round_trip_with(&converter, &cases);
    }
}

/// Every catalogue case through one model-converter.
fn round_trip_with(converter: &support::Converter, cases: &[Case]) {
    let (mc, dump) = (&converter.mc, &converter.dump);
    let dir = spvgraph_testkit::scratch(&format!("mlir-model-converter-{}", converter.channel));
    let results = parallel(cases, |k, c| {
        let conv = convert(mc, dump, &dir, &format!("case{k}"), &print_case(c))?;
        let operands = operand_signature(&conv.module, c.op, &ConstData::Vgf(dump, &conv.vgf))?;
        Ok::<_, String>((summarize(&conv.module, None), operands))
    });
    let channel = &converter.channel;
    let mut problems = Vec::new();
    let mut swapped = Vec::new();
    for (c, got) in cases.iter().zip(results) {
        let mut want = summarize(&c.module, Some(&c.entry));
        for added in &c.added {
            *want.ops.entry(added.clone()).or_insert(0) += 1;
        }
        let want_operands =
            operand_signature(&c.module, c.op, &ConstData::Map(&c.graph_constants)).expect("own operands");
        match got {
            Ok((got, _)) if got != want => problems.push(format!("--- {}\nwant {want:?}\ngot  {got:?}", c.name)),
            Ok((_, operands)) if operands == want_operands => {}
            // model-converter may swap the two inputs of a commutative operator.
            Ok((_, operands)) if COMMUTATIVE.contains(&c.op) && swap_first_two(&operands) == want_operands => {
                swapped.push(c.name.clone());
            }
            Ok((_, operands)) => {
                problems.push(format!("--- {}: operands differ\nwant {want_operands:?}\ngot  {operands:?}", c.name))
            }
            Err(e) => problems.push(format!("--- {}\n{e}", c.name)),
        }
    }
    if !swapped.is_empty() {
        eprintln!("model-converter ({channel}) swapped the inputs of {} commutative cases: {swapped:?}", swapped.len());
    }
    assert!(
        problems.is_empty(),
        "model-converter ({channel}): {} of {} cases differ:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
    eprintln!("model-converter ({channel}) kept operators and interface types of all {} cases", cases.len());
}

/// A case's words, graph-constant data and entry point.
type Encoded = (Vec<u32>, BTreeMap<u32, TensorData>, String);

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

    /// Whatever words a module holds, printing ends in text or an error.
    #[test]
    fn printing_corrupted_modules_never_panics(
        which in 0usize..10_000,
        // Small values are mostly ids and counts, so more mutants decode.
        edits in proptest::collection::vec(
            (0usize..10_000, proptest::prop_oneof![0u32..80, proptest::prelude::any::<u32>()]),
            1..6,
        ),
    ) {
        static CASES: std::sync::OnceLock<Vec<Encoded>> = std::sync::OnceLock::new();
        let cases = CASES.get_or_init(|| {
            catalogue_cases()
                .into_iter()
                .map(|c| (c.module.encode_words().expect("encode"), c.graph_constants, c.entry))
                .collect()
        });
        let (words, data, entry) = &cases[which % cases.len()];
        let mut words = words.clone();
        for (at, value) in edits {
            // Leave the header alone so that most mutants still decode.
            let at = 5 + at % (words.len() - 5);
            words[at] = value;
        }
        if let Ok(m) = Module::decode_words(&words) {
            let _ = module_to_mlir(&m, entry, data);
            let _ = module_to_mlir(&m, entry, &BTreeMap::new());
        }
    }
}

/// The operand comparison must be able to fail: a zero point changed in the
/// printed text shows up in the converted module's operands.
#[test]
fn operand_comparison_is_live() {
    let Some(support::Converter { mc, dump, .. }) = support::converters().into_iter().next() else { return };
    let dir = spvgraph_testkit::scratch("mlir-operands-live");
    let row = &TosaOp::Conv2d.spec().type_rows[0];
    let case = single_op_case(TosaOp::Conv2d, row, 0, false, "live".into());
    let text = print_case(&case);
    assert!(text.contains("dense<-5> : tensor<1xi8>"), "{text}");
    let want = operand_signature(&case.module, TosaOp::Conv2d, &ConstData::Map(&case.graph_constants)).expect("own");
    let conv = convert(&mc, &dump, &dir, "same", &text).expect("convert");
    let same = operand_signature(&conv.module, TosaOp::Conv2d, &ConstData::Vgf(&dump, &conv.vgf)).expect("ops");
    assert_eq!(same, want);
    let tampered = text.replacen("dense<-5> : tensor<1xi8>", "dense<-4> : tensor<1xi8>", 1);
    let conv = convert(&mc, &dump, &dir, "tampered", &tampered).expect("convert");
    let got = operand_signature(&conv.module, TosaOp::Conv2d, &ConstData::Vgf(&dump, &conv.vgf)).expect("ops");
    assert_ne!(got, want, "a changed zero point went unnoticed");
}
