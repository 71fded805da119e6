//! The module features that trigger documented bugs: a root cause is
//! recognised by what the module contains (a null row in a tensor constant,
//! a value set as two outputs, ...), not by the operator the wrong answer
//! happened to come through.
//!
//! [`detect`] finds every [`Feature`] of a module (and, for the features
//! that are about data, of the request it was run with). The judgement
//! matches a disagreement to a documented discrepancy
//! ([`crate::oracle::KnownDiscrepancy::features`]) only when the module
//! has every feature the row names, so a reduced module that lost the
//! feature is no longer documented by it.

use crate::oracle::ExecRequest;
use serde::Serialize;
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{Role, TosaOp};
use spvgraph_ir::{Id, Inst, Module};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The largest constant (in elements) whose values are read for a feature.
const VALUE_LIMIT: u64 = 1 << 20;

spvgraph_ir::enum_with_all! {
    /// A construct of a module (or its data) that is known to trigger a bug of
    /// some oracle.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Feature {
        /// A tensor constant one of whose constituents is an `OpConstantNull`
        /// of a tensor type holding more than one element (a null row).
        NullRow,
        /// A tensor constant one of whose constituents is an `OpConstantNull`
        /// (of any type).
        NullConstituent,
        /// `OpConstantNull` of the scalar bool type as a TOSA operand.
        NullBoolOperand,
        /// An `OpConstantCompositeReplicateEXT` (anywhere in the module).
        ReplicatedConstant,
        /// A tensor constant one of whose constituents is an
        /// `OpConstantCompositeReplicateEXT` of a tensor type of rank 2 or more
        /// (a replicated block inside an explicit composite).
        NestedReplicate,
        /// An `OpGraphConstantARM` as a compile-time-constant operand of a TOSA
        /// instruction (zero points, MUL shift, PAD pad_const, ...).
        GraphConstantAsCtc,
        /// One value set as two or more outputs of a graph.
        SharedOutput,
        /// More than one `OpGraphEntryPointARM`.
        SeveralEntryPoints,
        /// `NonSemantic.Graph.DebugInfo` instructions inside a graph definition.
        DebugInfoInGraph,
        /// `NonSemantic.Graph.DebugInfo` instructions outside graph definitions.
        DebugInfoOutsideGraph,
        /// A result of FFT2D or RFFT2D that is not itself a graph output
        /// (unused, or read by another operator).
        FftResultToOperator,
        /// fp16, bf16 or fp32 subnormal values among the inputs, graph
        /// constants or tensor constants (which TOSA lets an implementation
        /// flush to zero).
        SubnormalInputs,
        /// A negative value in an i48 tensor constant or graph constant.
        NegativeI48Constant,
        /// A floating-point MUL of which one input is a constant of zeros.
        FloatMulByZeroConstant,
        /// Two or more elements of one tensor-array graph input read (by
        /// `OpGraphInputARM` with distinct ElementIndex).
        TensorArrayElements,
        /// A graph input that no `OpGraphInputARM` of its graph reads (valid:
        /// SPV_ARM_graph asks for no input to be read).
        UnreadInput,
        /// An infinity or NaN among the floating-point graph inputs, graph
        /// constants or tensor constants, or among the operand values of an
        /// operator judged on its own.
        NonFiniteValues,
        /// An integer convolution (CONV2D, CONV3D, DEPTHWISE_CONV2D,
        /// TRANSPOSE_CONV2D) whose weight zero point is not 0.
        IntWeightZeroPoint,
        /// The operator judged on its own is a CAST or AVG_POOL2D whose result
        /// is fp8e4m3 or fp8e5m2 (it rounds a wider value to fp8).
        Fp8RoundedResult,
        /// The result of the operator judged on its own is the `values_in` of a
        /// SCATTER with one update row (`N * W = 1`), which a backend may
        /// update in place.
        SingleRowScatterInput,
    }
    /// Every feature, in order.
    pub const ALL;
}

impl Feature {
    /// Its stable name (as in JSON).
    pub fn name(self) -> &'static str {
        match self {
            Feature::NullRow => "null-row",
            Feature::NullConstituent => "null-constituent",
            Feature::NullBoolOperand => "null-bool-operand",
            Feature::ReplicatedConstant => "replicated-constant",
            Feature::NestedReplicate => "nested-replicate",
            Feature::GraphConstantAsCtc => "graph-constant-as-ctc",
            Feature::SharedOutput => "shared-output",
            Feature::SeveralEntryPoints => "several-entry-points",
            Feature::DebugInfoInGraph => "debug-info-in-graph",
            Feature::DebugInfoOutsideGraph => "debug-info-outside-graph",
            Feature::FftResultToOperator => "fft-result-to-operator",
            Feature::SubnormalInputs => "subnormal-inputs",
            Feature::NegativeI48Constant => "negative-i48-constant",
            Feature::FloatMulByZeroConstant => "float-mul-by-zero-constant",
            Feature::TensorArrayElements => "tensor-array-elements",
            Feature::UnreadInput => "unread-input",
            Feature::NonFiniteValues => "non-finite-values",
            Feature::IntWeightZeroPoint => "int-weight-zero-point",
            Feature::Fp8RoundedResult => "fp8-rounded-result",
            Feature::SingleRowScatterInput => "single-row-scatter-input",
        }
    }

    /// What it is, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Feature::NullRow => "a tensor constant with an OpConstantNull row",
            Feature::NullConstituent => "a tensor constant with an OpConstantNull constituent",
            Feature::NullBoolOperand => "OpConstantNull of bool as a TOSA operand",
            Feature::ReplicatedConstant => "a replicated composite constant (OpConstantCompositeReplicateEXT)",
            Feature::NestedReplicate => {
                "a tensor constant with an OpConstantCompositeReplicateEXT constituent of rank 2 or more"
            }
            Feature::GraphConstantAsCtc => "a graph constant as a compile-time-constant operand",
            Feature::SharedOutput => "one value set as several graph outputs",
            Feature::SeveralEntryPoints => "several graph entry points",
            Feature::DebugInfoInGraph => "NonSemantic.Graph.DebugInfo inside a graph definition",
            Feature::DebugInfoOutsideGraph => "NonSemantic.Graph.DebugInfo outside graph definitions",
            Feature::FftResultToOperator => "an FFT2D/RFFT2D result that is not itself a graph output",
            Feature::SubnormalInputs => "fp16/bf16/fp32 subnormal input or constant values",
            Feature::NegativeI48Constant => "a negative value in an i48 tensor constant or graph constant",
            Feature::FloatMulByZeroConstant => "a floating-point MUL by a constant of zeros",
            Feature::TensorArrayElements => "two or more elements of one tensor-array graph input read",
            Feature::UnreadInput => "a graph input that no OpGraphInputARM reads",
            Feature::NonFiniteValues => "an infinity or NaN among the input, constant or operand values",
            Feature::IntWeightZeroPoint => "an integer convolution with a weight zero point other than 0",
            Feature::Fp8RoundedResult => "the operator is a CAST or AVG_POOL2D rounding to an fp8 type",
            Feature::SingleRowScatterInput => "the operator's result is the input of a SCATTER with one update row",
        }
    }
}

/// The features of a module (and request).
pub type FeatureSet = BTreeSet<Feature>;

/// The features of the module `words` (none when it does not decode), with
/// the data of `request` when given.
pub fn detect_words(words: &[u32], request: Option<&ExecRequest<'_>>) -> FeatureSet {
    match Module::decode_words(words) {
        Ok(m) => detect(&m, request),
        Err(_) => FeatureSet::new(),
    }
}

/// Every feature of `module`; `request` adds its inputs and graph-constant
/// data (subnormal inputs, a MUL by a graph constant of zeros).
pub fn detect(module: &Module, request: Option<&ExecRequest<'_>>) -> FeatureSet {
    let a = Analysis::new(module);
    let mut out = FeatureSet::new();
    let graph_constants = request.map(|r| r.graph_constants);
    let graph_constant_data = |id: Id| -> Option<&TensorData> {
        match a.def(id)? {
            Inst::GraphConstant { graph_constant_id, .. } => graph_constants?.get(graph_constant_id),
            _ => None,
        }
    };
    if a.graph_entry_points.len() > 1 {
        out.insert(Feature::SeveralEntryPoints);
    }
    // Which values something other than a graph output reads.
    let mut read_by_operator: BTreeSet<Id> = BTreeSet::new();
    let mut set_as_output: BTreeSet<Id> = BTreeSet::new();
    let mut extracts: HashMap<Id, Vec<(Id, Vec<u32>)>> = HashMap::new();
    for inst in &module.insts {
        match inst {
            Inst::GraphSetOutput { value, .. } => {
                set_as_output.insert(*value);
            }
            Inst::Tosa { args, .. } => read_by_operator.extend(args.iter().copied()),
            Inst::CompositeExtract { result, composite, indices, .. } => {
                read_by_operator.insert(*composite);
                extracts.entry(*composite).or_default().push((*result, indices.clone()));
            }
            _ => {}
        }
    }
    for (i, inst) in module.insts.iter().enumerate() {
        match inst {
            Inst::ConstantCompositeReplicate { .. } => {
                out.insert(Feature::ReplicatedConstant);
            }
            Inst::GraphDebug { .. } => {
                let inside = a.graphs.iter().any(|g| i > g.begin && g.end.is_none_or(|e| i < e));
                out.insert(if inside { Feature::DebugInfoInGraph } else { Feature::DebugInfoOutsideGraph });
            }
            Inst::Tosa { ty, result, op, args, .. } => {
                tosa_features(&a, *op, args, &mut out, &graph_constant_data);
                if matches!(op, TosaOp::Fft2d | TosaOp::Rfft2d) {
                    let parts = extracts.get(result).map(Vec::as_slice).unwrap_or_default();
                    let members: BTreeSet<u32> = parts.iter().filter_map(|(_, ix)| ix.first().copied()).collect();
                    let both_extracted = members.contains(&0) && members.contains(&1);
                    // An extracted part that is unused is as much "not itself an
                    // output" as one another operator reads.
                    let all_outputs =
                        parts.iter().all(|(id, _)| !read_by_operator.contains(id) && set_as_output.contains(id));
                    if !both_extracted || !all_outputs {
                        out.insert(Feature::FftResultToOperator);
                    }
                }
                if *op == TosaOp::Mul && float_result(&a, *ty) {
                    let zero = |id: &Id| {
                        let bits = match graph_constant_data(*id) {
                            Some(t) => Some(t.to_bits()),
                            None => a.const_tensor_bits(*id, VALUE_LIMIT),
                        };
                        bits.is_some_and(|b| !b.is_empty() && b.iter().all(|&x| is_float_zero(&a, *ty, x)))
                    };
                    if args.iter().take(2).any(zero) {
                        out.insert(Feature::FloatMulByZeroConstant);
                    }
                }
            }
            _ => {}
        }
    }
    for g in &a.graphs {
        let mut seen: BTreeMap<Id, u32> = BTreeMap::new();
        for &o in &g.outputs {
            if let Some(Inst::GraphSetOutput { value, .. }) = module.insts.get(o) {
                *seen.entry(*value).or_default() += 1;
            }
        }
        if seen.values().any(|&n| n > 1) {
            out.insert(Feature::SharedOutput);
        }
        let mut elements: BTreeMap<Id, BTreeSet<Id>> = BTreeMap::new();
        for &i in &g.inputs {
            if let Some(Inst::GraphInput { input_index, element_index: Some(e), .. }) = module.insts.get(i) {
                elements.entry(*input_index).or_default().insert(*e);
            }
        }
        if elements.values().any(|e| e.len() > 1) {
            out.insert(Feature::TensorArrayElements);
        }
        let read: BTreeSet<u64> = g
            .inputs
            .iter()
            .filter_map(|&i| match module.insts.get(i) {
                Some(Inst::GraphInput { input_index, .. }) => a.const_uint(*input_index),
                _ => None,
            })
            .collect();
        if let Some(Type::Graph { inputs, .. }) = a.ty(g.ty) {
            if (0..inputs.len() as u64).any(|k| !read.contains(&k)) {
                out.insert(Feature::UnreadInput);
            }
        }
    }
    if let Some(r) = request {
        if r.inputs.iter().chain(r.graph_constants.values()).any(has_subnormal) {
            out.insert(Feature::SubnormalInputs);
        }
        if r.inputs.iter().chain(r.graph_constants.values()).any(has_non_finite) {
            out.insert(Feature::NonFiniteValues);
        }
    }
    out
}

/// Whether the result type `ty` has a floating-point element type.
fn float_result(a: &Analysis<'_>, ty: Id) -> bool {
    a.tensor_type(ty).and_then(|t| t.elem).is_some_and(ElemType::is_float)
}

/// Whether `bits` is ±0 in the element type of tensor type `ty`.
fn is_float_zero(a: &Analysis<'_>, ty: Id, bits: u64) -> bool {
    match a.tensor_type(ty).and_then(|t| t.elem) {
        Some(e) => {
            let sign = 1u64 << (e.storage_bits() - 1);
            bits & !sign == 0
        }
        None => false,
    }
}

/// Whether a tensor holds fp16/bf16/fp32 subnormals (fp8 subnormals must be
/// supported, so they are not a flushing hazard).
fn has_subnormal(t: &TensorData) -> bool {
    let e = t.elem();
    matches!(e, ElemType::Fp16 | ElemType::Bf16 | ElemType::Fp32)
        && t.to_bits().into_iter().any(|b| e.is_subnormal_bits(b))
}

/// Whether a tensor is i48 and holds a negative value.
fn has_negative_i48(t: &TensorData) -> bool {
    t.elem() == ElemType::I48 && t.to_bits().into_iter().any(|b| b & (1 << 47) != 0)
}

/// Whether the operator `node` is a CAST or AVG_POOL2D with an fp8 result.
pub fn rounds_to_fp8(module: &Module, node: Id) -> bool {
    let a = Analysis::new(module);
    match a.def(node) {
        Some(Inst::Tosa { op: TosaOp::Cast | TosaOp::AvgPool2d, ty, .. }) => {
            a.tensor_type(*ty).and_then(|t| t.elem).is_some_and(|e| matches!(e, ElemType::Fp8E4M3 | ElemType::Fp8E5M2))
        }
        _ => false,
    }
}

/// Whether the result of the operator `node` (or a member of it) is the
/// `values_in` of a SCATTER whose indices hold one row (`N * W = 1`).
pub fn feeds_single_row_scatter(module: &Module, node: Id) -> bool {
    let a = Analysis::new(module);
    let from_node =
        |v: Id| v == node || matches!(a.def(v), Some(Inst::CompositeExtract { composite, .. }) if *composite == node);
    module.insts.iter().any(|inst| match inst {
        Inst::Tosa { op: TosaOp::Scatter, args, .. } => {
            let one_row = args
                .get(1)
                .and_then(|&ix| a.def(ix))
                .and_then(|i| i.result_type())
                .and_then(|t| a.tensor_type(t))
                .and_then(|t| t.element_count())
                .is_some_and(|n| n == 1);
            one_row && args.first().is_some_and(|&v| from_node(v))
        }
        _ => false,
    })
}

/// Whether a tensor holds a floating-point infinity or NaN.
pub fn has_non_finite(t: &TensorData) -> bool {
    t.elem().is_float() && t.to_f64().iter().any(|v| !v.is_finite())
}

/// The features of one TOSA instruction's operands.
fn tosa_features<'d>(
    a: &Analysis<'_>,
    op: TosaOp,
    args: &[Id],
    out: &mut FeatureSet,
    graph_constant_data: &dyn Fn(Id) -> Option<&'d TensorData>,
) {
    let spec = op.spec();
    let convolution = matches!(op, TosaOp::Conv2d | TosaOp::Conv3d | TosaOp::DepthwiseConv2d | TosaOp::TransposeConv2d);
    if convolution {
        let weight_zp = spec.operands.iter().position(|o| o.name == "weight_zp").and_then(|k| args.get(k));
        let bits = weight_zp.and_then(|&id| match graph_constant_data(id) {
            Some(t) => (!t.elem().is_float()).then(|| t.to_bits()),
            None => a.const_tensor_bits(id, VALUE_LIMIT).filter(|_| {
                a.def(id)
                    .and_then(|i| i.result_type())
                    .and_then(|t| a.tensor_type(t))
                    .and_then(|t| t.elem)
                    .is_some_and(ElemType::is_int)
            }),
        });
        if bits.is_some_and(|b| b.iter().any(|&x| x != 0)) {
            out.insert(Feature::IntWeightZeroPoint);
        }
    }
    for (k, &arg) in args.iter().enumerate() {
        let role =
            spec.operands.get(k).or_else(|| if spec.variadic { spec.operands.last() } else { None }).map(|o| o.role);
        match a.def(arg) {
            Some(Inst::GraphConstant { .. }) => {
                if role.is_some_and(Role::must_be_constant) {
                    out.insert(Feature::GraphConstantAsCtc);
                }
                if graph_constant_data(arg).is_some_and(has_subnormal) {
                    out.insert(Feature::SubnormalInputs);
                }
                // Backends that fold graph constants into the program (IREE's
                // adapter gives them as `tosa.const`) treat them as tensor
                // constants.
                if graph_constant_data(arg).is_some_and(has_negative_i48) {
                    out.insert(Feature::NegativeI48Constant);
                }
            }
            Some(Inst::ConstantNull { ty, .. }) if matches!(a.ty(*ty), Some(Type::Scalar(k)) if ElemType::from_spirv(k) == Some(ElemType::Bool)) =>
            {
                out.insert(Feature::NullBoolOperand);
            }
            Some(_) => constant_features(a, arg, out, 0),
            None => {}
        }
    }
}

/// The features of the constant `id` and its constituents.
fn constant_features(a: &Analysis<'_>, id: Id, out: &mut FeatureSet, depth: u32) {
    if depth > 16 {
        return;
    }
    let Some(inst) = a.def(id) else { return };
    let tensor = inst.result_type().and_then(|t| a.tensor_type(t));
    match inst {
        Inst::ConstantComposite { constituents, .. } if tensor.is_some() => {
            for &c in constituents {
                match a.def(c) {
                    Some(Inst::ConstantNull { ty, .. }) => {
                        out.insert(Feature::NullConstituent);
                        if a.tensor_type(*ty).and_then(|t| t.element_count()).is_some_and(|n| n > 1) {
                            out.insert(Feature::NullRow);
                        }
                    }
                    Some(Inst::ConstantCompositeReplicate { ty, .. }) => {
                        // Rank-1 replicated rows are read right; a replicated
                        // block of rank 2 or more is the layer's bug.
                        if a.tensor_type(*ty).and_then(|t| t.rank).is_some_and(|r| r >= 2) {
                            out.insert(Feature::NestedReplicate);
                        }
                        constant_features(a, c, out, depth + 1);
                    }
                    _ => constant_features(a, c, out, depth + 1),
                }
            }
        }
        Inst::ConstantCompositeReplicate { constituent, .. } if tensor.is_some() => {
            constant_features(a, *constituent, out, depth + 1);
        }
        _ => {}
    }
    if depth > 0 {
        return;
    }
    let Some(t) = tensor else { return };
    let Some(elem) = t.elem else { return };
    let reads_values = elem == ElemType::I48 || matches!(elem, ElemType::Fp16 | ElemType::Bf16 | ElemType::Fp32);
    if !reads_values {
        return;
    }
    let Some(bits) = a.const_tensor_bits(id, VALUE_LIMIT) else { return };
    if elem == ElemType::I48 && bits.iter().any(|b| b & (1 << 47) != 0) {
        out.insert(Feature::NegativeI48Constant);
    }
    if bits.iter().any(|&b| elem.is_subnormal_bits(b)) {
        out.insert(Feature::SubnormalInputs);
    }
    if elem.is_float()
        && bits.iter().any(|&b| !spvgraph_ir::scalar::float_bits_to_f64(elem, b).is_some_and(f64::is_finite))
    {
        out.insert(Feature::NonFiniteValues);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::builder::ModuleBuilder;

    /// `ALL` is derived from the declaration: it must still be the list
    /// that was written by hand, in the same order.
    #[test]
    fn all_features_are_the_hand_written_list() {
        let hand_written = [
            Feature::NullRow,
            Feature::NullConstituent,
            Feature::NullBoolOperand,
            Feature::ReplicatedConstant,
            Feature::NestedReplicate,
            Feature::GraphConstantAsCtc,
            Feature::SharedOutput,
            Feature::SeveralEntryPoints,
            Feature::DebugInfoInGraph,
            Feature::DebugInfoOutsideGraph,
            Feature::FftResultToOperator,
            Feature::SubnormalInputs,
            Feature::NegativeI48Constant,
            Feature::FloatMulByZeroConstant,
            Feature::TensorArrayElements,
            Feature::UnreadInput,
            Feature::NonFiniteValues,
            Feature::IntWeightZeroPoint,
            Feature::Fp8RoundedResult,
            Feature::SingleRowScatterInput,
        ];
        assert_eq!(Feature::ALL, hand_written);
    }

    #[test]
    fn every_feature_has_a_distinct_name() {
        let names: BTreeSet<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names.len(), Feature::ALL.len());
        for f in Feature::ALL {
            assert_eq!(serde_json::to_value(f).ok(), Some(serde_json::json!(f.name())));
        }
    }

    #[test]
    fn a_plain_chain_has_no_feature_and_subnormal_inputs_are_seen() {
        let m = spvgraph_ir::samples::elementwise_chain(2);
        assert_eq!(detect(&m, None), FeatureSet::new());
        let words = m.encode_words().expect("encodes");
        let Ok(iface) = crate::exec::interface(&m, None) else { panic!("an interface") };
        let normal: Vec<TensorData> = iface
            .inputs
            .iter()
            .map(|p| {
                let n: usize = p.shape.iter().product();
                TensorData::from_bits(p.elem, &p.shape, &vec![0x3f80_0000; n]).expect("shape")
            })
            .collect();
        let gc = BTreeMap::new();
        let req = ExecRequest { module: &words, entry_point: None, inputs: &normal, graph_constants: &gc };
        assert_eq!(detect_words(&words, Some(&req)), FeatureSet::new());
        let mut tiny = normal.clone();
        let n = tiny[0].to_bits().len();
        let mut bits = vec![0x3f80_0000; n];
        bits[0] = 1;
        tiny[0] = TensorData::from_bits(ElemType::Fp32, tiny[0].shape(), &bits).expect("shape");
        let req = ExecRequest { inputs: &tiny, ..req };
        assert_eq!(detect_words(&words, Some(&req)), FeatureSet::from([Feature::SubnormalInputs]));
        assert_eq!(detect_words(&[1, 2, 3], None), FeatureSet::new());
    }

    #[test]
    fn a_null_row_and_a_shared_output_are_seen() {
        let mut b = ModuleBuilder::new();
        let i32_4 = b.type_tensor(ElemType::I32, Some(&[4]));
        let i32_2x4 = b.type_tensor(ElemType::I32, Some(&[2, 4]));
        let gty = b.type_graph(&[], &[i32_2x4, i32_2x4]);
        let v0 = b.interface_variable(i32_2x4, 0, 0);
        let v1 = b.interface_variable(i32_2x4, 0, 1);
        let null_row = b.const_null(i32_4);
        let row = b.const_tensor(ElemType::I32, &[4], &[1, 2, 3, 4]).expect("a constant");
        let c = b.const_composite(i32_2x4, vec![null_row, row]);
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vec![v0, v1]);
        let abs = b.tosa(TosaOp::Abs, i32_2x4, vec![c]);
        b.graph_output(abs, 0, None);
        b.graph_output(abs, 1, None);
        b.end_graph();
        let m = b.finish();
        assert_eq!(
            detect(&m, None),
            FeatureSet::from([Feature::NullRow, Feature::NullConstituent, Feature::SharedOutput])
        );
    }

    /// An FFT2D whose imaginary part is extracted but not used is an FFT
    /// result that is not itself an output; both parts as outputs are not.
    #[test]
    fn an_unused_fft_part_is_a_result_that_is_not_an_output() {
        let module = |imag_out: bool| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 4]));
            let outs: Vec<Id> = if imag_out { vec![t, t] } else { vec![t] };
            let gty = b.type_graph(&[t, t], &outs);
            let vars: Vec<Id> = (0..2 + outs.len()).map(|k| b.interface_variable(t, 0, k as u32)).collect();
            let pair = b.type_struct(vec![t, t]);
            let no = b.const_bool(false);
            let g = b.begin_graph(gty);
            b.graph_entry_point(g, "main", vars);
            let x = b.graph_input(t, 0, None);
            let y = b.graph_input(t, 1, None);
            let fft = b.tosa(TosaOp::Fft2d, pair, vec![no, no, x, y]);
            let real = b.composite_extract(t, fft, 0);
            let imag = b.composite_extract(t, fft, 1);
            b.graph_output(real, 0, None);
            if imag_out {
                b.graph_output(imag, 1, None);
            }
            b.end_graph();
            b.finish()
        };
        assert_eq!(detect(&module(false), None), FeatureSet::from([Feature::FftResultToOperator]));
        assert_eq!(detect(&module(true), None), FeatureSet::new());
    }

    /// A constant `[[rows of 1.5]]` of shape 1x2x4 whose one constituent is
    /// a 2x4 replicate is a nested replicate; a 2x4 constant whose rows are
    /// rank-1 replicates, and a whole-tensor replicate, are not.
    #[test]
    fn only_a_replicated_block_of_rank_two_or_more_is_nested() {
        let module = |block: bool| {
            let mut b = ModuleBuilder::new();
            let row = b.type_tensor(ElemType::Fp32, Some(&[4]));
            let t2x4 = b.type_tensor(ElemType::Fp32, Some(&[2, 4]));
            let t1x2x4 = b.type_tensor(ElemType::Fp32, Some(&[1, 2, 4]));
            let out_ty = if block { t1x2x4 } else { t2x4 };
            let gty = b.type_graph(&[], &[out_ty, t2x4]);
            let v0 = b.interface_variable(out_ty, 0, 0);
            let v1 = b.interface_variable(t2x4, 0, 1);
            let x = b.const_scalar(ElemType::Fp32, u64::from(1.5f32.to_bits()));
            let c = if block {
                let rep = b.const_replicate(t2x4, x);
                b.const_composite(t1x2x4, vec![rep])
            } else {
                let rep = b.const_replicate(row, x);
                b.const_composite(t2x4, vec![rep, rep])
            };
            let whole = b.const_replicate(t2x4, x);
            let g = b.begin_graph(gty);
            b.graph_entry_point(g, "main", vec![v0, v1]);
            let a0 = b.tosa(TosaOp::Abs, out_ty, vec![c]);
            let a1 = b.tosa(TosaOp::Abs, t2x4, vec![whole]);
            b.graph_output(a0, 0, None);
            b.graph_output(a1, 1, None);
            b.end_graph();
            b.finish()
        };
        assert_eq!(
            detect(&module(true), None),
            FeatureSet::from([Feature::ReplicatedConstant, Feature::NestedReplicate])
        );
        assert_eq!(detect(&module(false), None), FeatureSet::from([Feature::ReplicatedConstant]));
    }

    /// A negative i48 graph constant counts as a negative i48 constant (a
    /// backend may fold it into the program); a non-negative one does not.
    #[test]
    fn a_negative_i48_graph_constant_is_seen_from_its_data() {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(ElemType::I48, Some(&[2]));
        let gty = b.type_graph(&[], &[t]);
        let v = b.interface_variable(t, 0, 0);
        let gc = b.graph_constant(t, 0);
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vec![v]);
        let id = b.tosa(TosaOp::Abs, t, vec![gc]);
        b.graph_output(id, 0, None);
        b.end_graph();
        let m = b.finish();
        let words = m.encode_words().expect("encodes");
        let with = |bits: &[u64]| {
            let data = TensorData::from_bits(ElemType::I48, &[2], bits).expect("shape");
            let gcs = BTreeMap::from([(0u32, data)]);
            let req = ExecRequest { module: &words, entry_point: None, inputs: &[], graph_constants: &gcs };
            detect(&m, Some(&req))
        };
        assert_eq!(with(&[3, (1 << 48) - 3]), FeatureSet::from([Feature::NegativeI48Constant]));
        assert_eq!(with(&[3, 5]), FeatureSet::new());
        assert_eq!(detect(&m, None), FeatureSet::new());
    }

    /// A CONV2D of i8 with a constant weight zero point of -79 has the
    /// feature; with 0 it does not.
    #[test]
    fn an_integer_weight_zero_point_other_than_zero_is_seen() {
        let module = |wzp: i64| {
            let mut b = ModuleBuilder::new();
            let input = b.type_tensor(ElemType::I8, Some(&[1, 1, 1, 4]));
            let out = b.type_tensor(ElemType::I32, Some(&[1, 1, 1, 1]));
            let gty = b.type_graph(&[input], &[out]);
            let vars = vec![b.interface_variable(input, 0, 0), b.interface_variable(out, 0, 1)];
            let pad = b.const_i32_vector(&[0, 0, 0, 0]);
            let ones = b.const_i32_vector(&[1, 1]);
            let int32 = b.const_u32(1);
            let no = b.const_bool(false);
            let weight = b.const_tensor(ElemType::I8, &[1, 1, 1, 4], &[0; 4]).expect("weights");
            let bias = b.const_tensor(ElemType::I32, &[1], &[0]).expect("bias");
            let izp = b.const_tensor(ElemType::I8, &[1], &[0]).expect("izp");
            let wzp = b.const_tensor(ElemType::I8, &[1], &[wzp as u64]).expect("wzp");
            let g = b.begin_graph(gty);
            b.graph_entry_point(g, "main", vars);
            let x = b.graph_input(input, 0, None);
            let y = b.tosa(TosaOp::Conv2d, out, vec![pad, ones, ones, int32, no, x, weight, bias, izp, wzp]);
            b.graph_output(y, 0, None);
            b.end_graph();
            b.finish()
        };
        assert_eq!(detect(&module(-79), None), FeatureSet::from([Feature::IntWeightZeroPoint]));
        assert_eq!(detect(&module(0), None), FeatureSet::new());
    }

    /// A CAST from fp32 to fp8e4m3 or fp8e5m2 rounds to fp8; a CAST to fp16
    /// and the graph input do not.
    #[test]
    fn a_cast_to_fp8_rounds_to_fp8() {
        let module = |to: ElemType| {
            let mut b = ModuleBuilder::new();
            let input = b.type_tensor(ElemType::Fp32, Some(&[4]));
            let out = b.type_tensor(to, Some(&[4]));
            let gty = b.type_graph(&[input], &[out]);
            let vars = vec![b.interface_variable(input, 0, 0), b.interface_variable(out, 0, 1)];
            let g = b.begin_graph(gty);
            b.graph_entry_point(g, "main", vars);
            let x = b.graph_input(input, 0, None);
            let y = b.tosa(TosaOp::Cast, out, vec![x]);
            b.graph_output(y, 0, None);
            b.end_graph();
            (b.finish(), x, y)
        };
        for to in [ElemType::Fp8E4M3, ElemType::Fp8E5M2] {
            let (m, x, y) = module(to);
            assert!(rounds_to_fp8(&m, y));
            assert!(!rounds_to_fp8(&m, x));
        }
        let (m, _, y) = module(ElemType::Fp16);
        assert!(!rounds_to_fp8(&m, y));
    }

    /// The producer of a one-row SCATTER's `values_in` feeds it; with two
    /// update rows, or for the SCATTER itself, it does not.
    #[test]
    fn an_operator_feeding_a_one_row_scatter_is_seen() {
        let module = |rows: u32| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 2]));
            let idx = b.type_tensor(ElemType::I32, Some(&[1, rows]));
            let upd = b.type_tensor(ElemType::Fp32, Some(&[1, rows, 2]));
            let gty = b.type_graph(&[t, idx, upd], &[t]);
            let vars = (0..4).map(|i| b.interface_variable([t, idx, upd, t][i], 0, i as u32)).collect();
            let g = b.begin_graph(gty);
            b.graph_entry_point(g, "main", vars);
            let x = b.graph_input(t, 0, None);
            let i = b.graph_input(idx, 1, None);
            let u = b.graph_input(upd, 2, None);
            let p = b.tosa(TosaOp::Abs, t, vec![x]);
            let s = b.tosa(TosaOp::Scatter, t, vec![p, i, u]);
            b.graph_output(s, 0, None);
            b.end_graph();
            (b.finish(), p, s)
        };
        let (one, p, s) = module(1);
        assert!(feeds_single_row_scatter(&one, p));
        assert!(!feeds_single_row_scatter(&one, s));
        let (two, p, _) = module(2);
        assert!(!feeds_single_row_scatter(&two, p));
    }
}
