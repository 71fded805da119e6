//! Emulation-layer bugs found by the hunt, kept as corpus findings
//! (`corpus/findings/emulation-layer-*`: `.spv`, `.spvasm`, `.json` case
//! manifest with the verdicts, `.npy` inputs, a `.md` note and a
//! `.scenario.json` for `scenario-runner`), and checked here:
//!
//! * each still reproduces when its scenario is run by hand with the pinned
//!   scenario runner and layers (when one stops reproducing, update or
//!   retire the finding and its row of the adapter's known discrepancies),
//! * the in-tree executor (and the TOSA reference model, where it runs the
//!   graph) give the right answer, and
//! * the adapter reports what the finding says.
//!
//! Regenerate the files with
//! `cargo run --release -p spvgraph-oracle --example write_findings -- emulation-layer`.

use spvgraph_generator::files::{write_case, Extras};
use spvgraph_generator::{Case, CaseMeta, EntryPoint, InputTensor, InterfaceSlot, RowUse};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{RowQualifier, TosaOp};
use spvgraph_ir::{GraphDebugInst, Id, Inst, Module};
use spvgraph_oracle::compliance::ReferenceTensor;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::emulation_layer::scenario::{self, Names};
use spvgraph_oracle::external::emulation_layer::{prepare, EmulationLayer, Preparation, Prepared, Workarounds};
use spvgraph_oracle::external::process::{self, Ended, Limits, ScratchDir};
use spvgraph_oracle::external::tosa_reference;
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle, Refusal, ValidateOptions};
use spvgraph_oracle::tools::{Tool, Tools};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn findings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/findings")
}

/// What running a finding's scenario by hand shows.
#[derive(Clone, Debug)]
enum Seen {
    /// The runner dies of this signal.
    Signal(i32),
    /// The runner fails with this in its `ERROR` lines.
    Error(&'static str),
    /// Output `index` has exactly these bits (where the right answer differs).
    Output { index: usize, bits: Vec<u64> },
    /// Element `element` of output `index` is further than `more_than` from
    /// the right value (for results whose exact bits depend on the CPU
    /// lavapipe compiles for).
    OffBy { index: usize, element: usize, right: f64, more_than: f64 },
}

/// One finding: a hand-made module, its data, the entry point run, what the
/// layer does and a note.
struct Finding {
    stem: &'static str,
    kind: &'static str,
    words: Vec<u32>,
    entry: &'static str,
    inputs: Vec<TensorData>,
    constants: BTreeMap<u32, TensorData>,
    /// Operators and the element types of their type rows, for the manifest.
    rows: Vec<(TosaOp, Vec<ElemType>)>,
    /// For an `accepts-invalid` finding, the must-reject rule the module
    /// breaks (the in-tree validator names exactly this one); `None`: the
    /// module is valid.
    breaks: Option<RuleId>,
    seen: Seen,
    note: &'static str,
}

impl Finding {
    fn request(&self) -> ExecRequest<'_> {
        ExecRequest {
            module: &self.words,
            entry_point: Some(self.entry),
            inputs: &self.inputs,
            graph_constants: &self.constants,
        }
    }

    /// The graph as the layer gets it: exactly the module (no work-around).
    fn prepared(&self) -> Prepared {
        match prepare(&self.request(), Workarounds::NONE) {
            Ok(Preparation::Ready(p)) => *p,
            other => panic!("{}: cannot be put in a scenario: {other:?}", self.stem),
        }
    }
}

fn tensor(elem: ElemType, shape: &[usize], values: &[i64]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|&v| v as u64).collect();
    TensorData::from_bits(elem, shape, &bits).expect("shape matches")
}

fn f32s(shape: &[usize], values: &[f32]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits())).collect();
    TensorData::from_bits(ElemType::Fp32, shape, &bits).expect("shape matches")
}

/// A one-graph module with entry point `main`: inputs then outputs at set 0,
/// bindings 0, 1, ...; `body` returns the output values.
fn module(
    inputs: &[(ElemType, &[u32])],
    outputs: &[(ElemType, &[u32])],
    body: impl FnOnce(&mut ModuleBuilder, &[Id], &[Id]) -> Vec<Id>,
) -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let in_types: Vec<Id> = inputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let out_types: Vec<Id> = outputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let gty = b.type_graph(&in_types, &out_types);
    let vars: Vec<Id> =
        in_types.iter().chain(&out_types).enumerate().map(|(k, &t)| b.interface_variable(t, 0, k as u32)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let values: Vec<Id> = in_types.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
    for (j, v) in body(&mut b, &values, &out_types).into_iter().enumerate() {
        b.graph_output(v, j as u32, None);
    }
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

fn findings() -> Vec<Finding> {
    vec![
        ignores_entry_point(),
        debug_info_in_graph(),
        graph_constant_ctc(),
        fft2d_result_to_operator(),
        reduce_max_minus_inf(),
        log_of_subnormals(),
        accepts_shape_mismatch(),
        shared_output(),
        null_bool_operand(),
        null_constituent(),
        bool_null_row(),
        int_null_row(),
        nested_replicate(),
        log_near_one(),
        unread_input(),
    ]
}

fn ignores_entry_point() -> Finding {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let gty = b.type_graph(&[t], &[t]);
    let abs_vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let neg_vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let zero = b.const_tensor(ElemType::I32, &[1], &[0]).expect("[1] zero point");
    let abs = b.begin_graph(gty);
    b.graph_entry_point(abs, "abs", abs_vars);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(TosaOp::Abs, t, vec![x]);
    b.graph_output(y, 0, None);
    b.end_graph();
    let neg = b.begin_graph(gty);
    b.graph_entry_point(neg, "negate", neg_vars);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(TosaOp::Negate, t, vec![x, zero, zero]);
    b.graph_output(y, 0, None);
    b.end_graph();
    Finding {
        stem: "emulation-layer-ignores-entry-point",
        kind: "wrong-output",
        words: b.finish().encode_words().expect("encodes"),
        entry: "abs",
        inputs: vec![tensor(ElemType::I32, &[4], &[3, -5, 7, -9])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Abs, vec![ElemType::I32]), (TosaOp::Negate, vec![ElemType::I32])],
        breaks: None,
        seen: Seen::Output { index: 0, bits: tensor(ElemType::I32, &[4], &[-3, 5, -7, 9]).to_bits() },
        note: IGNORES_ENTRY_POINT,
    }
}

const IGNORES_ENTRY_POINT: &str = "# The emulation layer ignores the entry-point name and runs another graph

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-ignores-entry-point.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

The module has two graphs with the same interface bindings (set 0, bindings 0 and 1):
`abs` (ABS) and `negate` (NEGATE), each exported by its own `OpGraphEntryPointARM`.
The scenario creates a data-graph pipeline for entry point `abs`
(`VkDataGraphPipelineShaderModuleCreateInfoARM::pName = \"abs\"`) and runs it on
`[3, -5, 7, -9]`.

Expected (in-tree executor and TOSA reference model): `[3, 5, 7, 9]`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): `[-3, 5, -7, 9]`, the result
of `negate`, with exit status 0 and no message.

Why: the Graph layer's pipeline creation never looks at `pName`. Its graph pass walks
*every* `OpGraphEntryPointARM` of the module and builds every graph into the one pipeline,
resolving each entry point's interface variables by DescriptorSet/Binding against the
pipeline's resources; here both graphs write the tensor bound at binding 1 and the last
one wins. With different bindings the symptoms are `map::at` or \"Missing precompiled
shader\" errors (another graph's variables bound to this pipeline's tensors of other
types). Every module with more than one graph entry point is affected, including two
entry points that alias one graph.

The spvgraph adapter works around it by removing the other `OpGraphEntryPointARM`s
before the layer sees a module (`Workarounds::single_entry_point`).
";

fn debug_info_in_graph() -> Finding {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let set = b.graph_debug_set();
    let name = b.string("main");
    let void = b.type_void();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let result = b.id();
    b.graph_inst(Inst::GraphDebug { ty: void, result, set, inst: GraphDebugInst::Graph { graph: g, name } });
    let y = b.tosa(TosaOp::Abs, t, vec![x]);
    b.graph_output(y, 0, None);
    b.end_graph();
    Finding {
        stem: "emulation-layer-rejects-debug-info",
        kind: "refused-valid",
        words: b.finish().encode_words().expect("encodes"),
        entry: "main",
        inputs: vec![tensor(ElemType::I32, &[4], &[3, -5, 7, -9])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Abs, vec![ElemType::I32])],
        breaks: None,
        seen: Seen::Error("Unsupported extension NonSemantic.Graph.DebugInfo.1"),
        note: DEBUG_INFO,
    }
}

const DEBUG_INFO: &str = "# The emulation layer refuses NonSemantic.Graph.DebugInfo in a graph

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-rejects-debug-info.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

A one-operator graph (ABS) whose body also holds one `NonSemantic.Graph.DebugInfo`
instruction, `DebugGraph` naming the graph. Non-semantic instructions carry no meaning
for execution; a consumer that does not use them must ignore them (SPIR-V 2.2.2,
SPV_KHR_non_semantic_info). The module passes the runner's own SPIR-V validation.

Seen (ai-ml-emulation-layer-for-vulkan 0.11.0): pipeline creation fails with
`Unsupported extension NonSemantic.Graph.DebugInfo.1` (scenario-runner exit status 255).
Expected: `[3, 5, 7, 9]`, as without the debug instruction.

Why: the Graph layer's graph pass resolves the instruction set of every `OpExtInst` in a
graph body and accepts only `TOSA.*` and `Arm.MotionEngine.*`; anything else, even a
`NonSemantic.*` set, throws. The same instruction placed after `OpGraphEndARM` is
ignored. Every module with graph debug information in its bodies is refused, e.g. what
the spvgraph generator emits with `debug_info` on.

The spvgraph adapter works around it by removing NonSemantic.Graph.DebugInfo before the
layer sees a module (`Workarounds::strip_debug_info`).
";

fn graph_constant_ctc() -> Finding {
    let words = module(&[(ElemType::I32, &[4]), (ElemType::I32, &[4])], &[(ElemType::I32, &[4])], |b, x, t| {
        let shift_ty = b.type_tensor(ElemType::I8, Some(&[1]));
        let shift = b.graph_constant(shift_ty, 0);
        vec![b.tosa(TosaOp::Mul, t[0], vec![x[0], x[1], shift])]
    });
    let mut constants = BTreeMap::new();
    constants.insert(0, tensor(ElemType::I8, &[1], &[1]));
    Finding {
        stem: "emulation-layer-graph-constant-ctc-rejected",
        kind: "refused-valid",
        words,
        entry: "main",
        inputs: vec![tensor(ElemType::I32, &[4], &[3, 5, -7, 9]), tensor(ElemType::I32, &[4], &[1, 1, 1, 1])],
        constants,
        rows: vec![(TosaOp::Mul, vec![ElemType::I32, ElemType::I32])],
        breaks: None,
        seen: Seen::Error("Missing declared constant for id"),
        note: GRAPH_CONSTANT_CTC,
    }
}

const GRAPH_CONSTANT_CTC: &str = "# The emulation layer refuses a graph constant as a compile-time-constant operand

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-graph-constant-ctc-rejected.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

MUL of two i32 tensors whose `shift` operand (a compile-time constant: \"must come from a
constant instruction\") is an `OpGraphConstantARM` (GraphConstantID 0, data `[1]`,
supplied at pipeline creation). SPV_ARM_graph makes `OpGraphConstantARM` a constant
instruction, and its data is known when the pipeline is created. The module passes the
runner's SPIR-V validation.

Seen (ai-ml-emulation-layer-for-vulkan 0.11.0): pipeline creation fails with
`Missing declared constant for id: N` (scenario-runner exit status 255).
Expected (in-tree executor and TOSA reference model): `(a * b) >> 1` rounded,
`[2, 3, -3, 5]`.

Why: the Graph layer reads scalar compile-time operands (MUL `shift`, the zero points of
NEGATE, AVG_POOL2D and the convolutions, RESCALE `multiplier`/`shift`/zero points,
PAD `pad_const`) through SPIRV-Tools' constant manager, which only knows `OpConstant*`
declarations, not the graph constants the pipeline was given. Tensor-valued CTC operands
read through the pipeline's constants (TABLE `table`, PAD `padding`) work. The hunt's
single-operator sweep hit it on DEPTHWISE_CONV2D, MUL, PAD and RESCALE.
";

fn null_bool_operand() -> Finding {
    let words = module(&[(ElemType::I32, &[4]), (ElemType::I32, &[4])], &[(ElemType::I32, &[4])], |b, x, t| {
        let bool_ty = b.type_elem(ElemType::Bool);
        let round = b.const_null(bool_ty);
        vec![b.tosa(TosaOp::ArithmeticRightShift, t[0], vec![round, x[0], x[1]])]
    });
    Finding {
        stem: "emulation-layer-null-bool-operand-rejected",
        kind: "refused-valid",
        words,
        entry: "main",
        inputs: vec![tensor(ElemType::I32, &[4], &[-7, 8, 9, -16]), tensor(ElemType::I32, &[4], &[1, 2, 1, 3])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::ArithmeticRightShift, vec![ElemType::I32])],
        breaks: None,
        seen: Seen::Error("Expected boolean constant for id"),
        note: NULL_BOOL,
    }
}

const NULL_BOOL: &str = "# The emulation layer refuses OpConstantNull as a boolean operand

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** spec ambiguity. The reproducer of `emulation-layer-null-bool-operand-rejected.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

ARITHMETIC_RIGHT_SHIFT of two i32 tensors whose `round` operand (a boolean compile-time
constant) is `OpConstantNull %bool`. OpConstantNull of a scalar bool is a constant
instruction whose value is false (SPIR-V 2.2: the null value of a Boolean is false);
spirv-val and spvgraph's validator accept the module.

Seen (ai-ml-emulation-layer-for-vulkan 0.11.0): pipeline creation fails with
`Expected boolean constant for id %N, found constant type kind 1` (scenario-runner exit
status 255). Expected (in-tree executor and TOSA reference model, round = false):
`[-4, 2, 4, -2]`.

Why (our reading): the Graph layer reads boolean attributes through SPIRV-Tools' constant
manager and accepts only `OpConstantTrue`/`OpConstantFalse`, not the null constant of the
bool type. The same refusal shows for every TOSA boolean attribute (RESCALE
`scale32`/`per_channel`/`input_unsigned`/`output_unsigned`, ARITHMETIC_RIGHT_SHIFT `round`,
...). Found by `spvgraph hunt` (the generator's null-scalar constants), cut down by hand.
";

fn null_constituent() -> Finding {
    let words = module(&[(ElemType::Bf16, &[1, 4])], &[(ElemType::Bf16, &[1, 4])], |b, x, t| {
        // [[0, 0, 0, 0]]: a composite whose one row is OpConstantNull.
        let row_ty = b.type_tensor(ElemType::Bf16, Some(&[4]));
        let row = b.const_null(row_ty);
        let c = b.const_composite(t[0], vec![row]);
        vec![b.tosa(TosaOp::Add, t[0], vec![x[0], c])]
    });
    Finding {
        stem: "emulation-layer-null-constituent-rejected",
        kind: "refused-valid",
        words,
        entry: "main",
        inputs: vec![TensorData::from_bits(ElemType::Bf16, &[1, 4], &[0x3f80, 0x4000, 0xc040, 0x3f00]).expect("shape")],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Add, vec![ElemType::Bf16])],
        breaks: None,
        seen: Seen::Error("Unsupported float constant encoding"),
        note: NULL_CONSTITUENT,
    }
}

const NULL_CONSTITUENT: &str = "# The emulation layer refuses a tensor constant with an OpConstantNull constituent

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-null-constituent-rejected.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

ADD of a bf16 input `[[1, 2, -3, 0.5]]` and the `1x4` tensor constant
`OpConstantComposite %tensor_bfloat16_1x4 %null_row`, whose one constituent is
`OpConstantNull %tensor_bfloat16_4` (a zero row). SPV_ARM_tensors allows any constant of the
constituent type, OpConstantNull included; spirv-val and spvgraph's validator accept it. The
same constant written with `OpConstant` scalars, or as a replicate, is taken.

Seen (ai-ml-emulation-layer-for-vulkan 0.11.0): pipeline creation fails with
`Unsupported float constant encoding in composite constant` (scenario-runner exit status
255). Expected (in-tree executor and TOSA reference model): the input unchanged.

Why (our reading): the Graph layer flattens composite tensor constants by reading each
constituent as a float scalar or a nested composite, and has no case for a null
constituent. Found by `spvgraph hunt` (the generator's mixed-form constants), cut down by
hand.
";

fn bool_null_row() -> Finding {
    let words = module(&[], &[(ElemType::Bool, &[2, 4])], |b, _, t| {
        // [[false x4], [true, false, true, false]]: the first row OpConstantNull.
        let row_ty = b.type_tensor(ElemType::Bool, Some(&[4]));
        let null_row = b.const_null(row_ty);
        let (yes, no) = (b.const_bool(true), b.const_bool(false));
        let row = b.const_composite(row_ty, vec![yes, no, yes, no]);
        let c = b.const_composite(t[0], vec![null_row, row]);
        vec![b.tosa(TosaOp::LogicalNot, t[0], vec![c])]
    });
    Finding {
        stem: "emulation-layer-bool-null-row-misread",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: Vec::new(),
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::LogicalNot, vec![ElemType::Bool])],
        breaks: None,
        seen: Seen::Output { index: 0, bits: vec![1, 0, 1, 0, 1, 1, 1, 1] },
        note: BOOL_NULL_ROW,
    }
}

const BOOL_NULL_ROW: &str = "# The emulation layer misreads a bool tensor constant with an OpConstantNull row

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-bool-null-row-misread.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

LOGICAL_NOT of the `2x4` bool tensor constant `[[false, false, false, false], [true, false,
true, false]]`, written as `OpConstantComposite %tensor_bool_2x4 %null_row %row` with
`%null_row = OpConstantNull %tensor_bool_4`. spirv-val and spvgraph's validator accept it.

Expected (in-tree executor and TOSA reference model): `[[true, true, true, true], [false,
true, false, true]]`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): `[[true, false, true, false],
[true, true, true, true]]`: the NOT of `[[false, true, false, true], [false, false, false,
false]]`, a constant that is neither the one given nor its rows swapped.

Why: the layer takes the null row as a single `false` element instead of four, so the
second row's elements move three places towards the start and the end is filled with
`false` (the same bug for integer constants: `emulation-layer-null-row-shifts-elements`;
float constants with a null constituent are refused instead:
`emulation-layer-null-constituent-rejected`). Unlike the float case nothing is reported:
the results are silently wrong. Found by `spvgraph hunt` and
reduced by it to this one-operator graph (from 7 operators and 134 instructions to 1 and 38;
the constant was already in the case).
";

fn int_null_row() -> Finding {
    let words = module(&[], &[(ElemType::I16, &[2, 4])], |b, _, t| {
        // [[0 x4], [1, 2, 3, 4]] as i8: the first row OpConstantNull.
        let row_ty = b.type_tensor(ElemType::I8, Some(&[4]));
        let null_row = b.const_null(row_ty);
        let parts = (1..=4).map(|v| b.const_scalar(ElemType::I8, v)).collect();
        let row = b.const_composite(row_ty, parts);
        let c_ty = b.type_tensor(ElemType::I8, Some(&[2, 4]));
        let c = b.const_composite(c_ty, vec![null_row, row]);
        vec![b.tosa(TosaOp::Cast, t[0], vec![c])]
    });
    Finding {
        stem: "emulation-layer-null-row-shifts-elements",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: Vec::new(),
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Cast, vec![ElemType::I8, ElemType::I16])],
        breaks: None,
        seen: Seen::Output { index: 0, bits: vec![0, 1, 2, 3, 4, 0, 0, 0] },
        note: NULL_ROW_SHIFTS,
    }
}

const NULL_ROW_SHIFTS: &str = "# The emulation layer reads an OpConstantNull row of a tensor constant as one element

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-null-row-shifts-elements.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

CAST to i16 of the `2x4` i8 tensor constant `[[0, 0, 0, 0], [1, 2, 3, 4]]`, written as
`OpConstantComposite %tensor_uchar_2x4 %null_row %row` with `%null_row = OpConstantNull
%tensor_uchar_4`. spirv-val and spvgraph's validator accept it.

Expected (in-tree executor and TOSA reference model): `[[0, 0, 0, 0], [1, 2, 3, 4]]`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): `[[0, 1, 2, 3], [4, 0, 0, 0]]`.

Why: the layer flattens the constant's constituents in order and takes the null row as a
single zero element instead of four, so every later element moves three places towards the
start, and the end is never written: zeros here, but other values, different from run to
run, in `corpus/valid/op-conv2d-r1` (an i16 CONV2D whose input constant is one null `4x3x2`
constituent; written as a whole `OpConstantNull` instead, the same graph is right), so the
layer computes on memory it never wrote. Silently: nothing is reported. The same happens to
bool constants (`emulation-layer-bool-null-row-misread`, the same bug); float constants
with a null constituent are refused instead (`emulation-layer-null-constituent-rejected`).
Found by `spvgraph hunt` (four wrong-output signatures of a 10-minute hunt: CAST twice,
LOGICAL_AND, LOGICAL_LEFT_SHIFT, each on a constant with a null row), seen with
`spvgraph diff --save-outputs`, and written by hand as small as it goes.
";

fn nested_replicate() -> Finding {
    let words = module(&[], &[(ElemType::Fp16, &[1, 2, 4])], |b, _, t| {
        // [[[1.5 x4], [1.5 x4]]] as fp32: one constituent, a 2x4 replicate of 1.5.
        let x = b.const_scalar(ElemType::Fp32, u64::from(1.5f32.to_bits()));
        let block_ty = b.type_tensor(ElemType::Fp32, Some(&[2, 4]));
        let block = b.const_replicate(block_ty, x);
        let c_ty = b.type_tensor(ElemType::Fp32, Some(&[1, 2, 4]));
        let c = b.const_composite(c_ty, vec![block]);
        vec![b.tosa(TosaOp::Cast, t[0], vec![c])]
    });
    Finding {
        stem: "emulation-layer-nested-replicate-misread",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: Vec::new(),
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Cast, vec![ElemType::Fp32, ElemType::Fp16])],
        breaks: None,
        // Elements 2.. are memory the layer never wrote: the last is 0 on
        // every run seen, element 2 sometimes other values.
        seen: Seen::OffBy { index: 0, element: 7, right: 1.5, more_than: 0.5 },
        note: NESTED_REPLICATE,
    }
}

const NESTED_REPLICATE: &str = "# The emulation layer reads a replicated block inside a tensor constant as one element per row

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-nested-replicate-misread.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

CAST to fp16 of the `1x2x4` fp32 tensor constant whose eight elements are all 1.5, written as
`OpConstantComposite %tensor_float_1x2x4 %block` with `%block =
OpConstantCompositeReplicateEXT %tensor_float_2x4 %float_1_5` (SPV_EXT_replicated_composites:
a replicated constant of a tensor type fills every element with the scalar). spirv-val and
spvgraph's validator accept it.

Expected (in-tree executor and TOSA reference model): eight times `1.5`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): `[1.5, 1.5, 0, 0, 0, 0, 0, 0]`;
element 2 is sometimes another value (`inf`, `-13.9`) from run to run.

Why: the layer expands the replicated block as if it held one element per index of its
first dimension (two here) instead of all eight, so the rest of the constant is never
written and the graph computes on memory it did not fill. Silently: nothing is reported.
A `2x4` constant whose rows are rank-1 replicates (`OpConstantCompositeReplicateEXT
%tensor_float_4`) is read right, and so is the same `2x4` block as a whole-tensor
replicate or written out element by element: it is a replicate of rank 2 or more nested in
an `OpConstantComposite`. The layer contradicts itself: a replicate of a rank-2 or rank-3
tensor type from a scalar, when it is the whole constant, is read by the same layer as the
scalar in every element (as spirv-val, the in-tree executor and the reference model read
it), so the meaning of the instruction is not in question. A sibling of the null-row bug
(`emulation-layer-null-row-shifts-elements`). Found by the 10-minute `ci/hunt` (seed 0,
case seed 941: an fp8e4m3 `1x7x5` constant whose one constituent is a `7x5` replicate of
-7.5, read twice by CONCAT, 56 of 70 elements wrong) through the `vulkan` oracle; the
equivalent forms without the nested replicate (explicit constants, whole-tensor replicate,
graph constants, constants as inputs) were right on the same backend; reduced by `spvgraph
reduce --finding` to two operators, then written by hand as small as it goes.
";

fn fft2d_result_to_operator() -> Finding {
    let shape: &[u32] = &[1, 4, 4];
    let words =
        module(&[(ElemType::Fp32, shape), (ElemType::Fp32, shape)], &[(ElemType::Fp32, shape); 2], |b, x, t| {
            let pair = b.type_struct(vec![t[0], t[0]]);
            let no = b.const_bool(false);
            let fft = b.tosa(TosaOp::Fft2d, pair, vec![no, no, x[0], x[1]]);
            let real = b.composite_extract(t[0], fft, 0);
            let imag = b.composite_extract(t[0], fft, 1);
            let exp = b.tosa(TosaOp::Exp, t[0], vec![real]);
            vec![imag, exp]
        });
    let real: Vec<f32> = (0..16).map(|k| k as f32 / 16.0).collect();
    Finding {
        stem: "emulation-layer-fft2d-result-to-operator-sigsegv",
        kind: "crash",
        words,
        entry: "main",
        inputs: vec![f32s(&[1, 4, 4], &real), f32s(&[1, 4, 4], &[0.0; 16])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Fft2d, vec![ElemType::Fp32]), (TosaOp::Exp, vec![ElemType::Fp32])],
        breaks: None,
        seen: Seen::Signal(11),
        note: FFT2D,
    }
}

const FFT2D: &str = "# The emulation layer crashes when an FFT2D result feeds another operator

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-fft2d-result-to-operator-sigsegv.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

FFT2D of a 1x4x4 fp32 signal; the imaginary result is graph output 0, the real result
goes through EXP to graph output 1. Valid (spvgraph validator, the runner's SPIR-V
validation), and the in-tree executor and TOSA reference model run it.

Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): scenario-runner dies of
SIGSEGV (exit status 139) while creating the data-graph pipeline.

The same happens with RFFT2D, and whenever one of the two results is not itself a graph
output: unused (one result extracted), or consumed by another operator. Only both
results set directly as graph outputs work. Graphs that use FFT2D/RFFT2D as an
intermediate step cannot be built at all.

Why (from the layer's source): the graph pass only creates tensors for the members of
an operator's struct result when an `OpGraphSetOutputARM` names the corresponding
`OpCompositeExtract`; a member reached otherwise has no tensor when the FFT operation is
recorded, and the null tensor descriptor is dereferenced.
";

fn reduce_max_minus_inf() -> Finding {
    let words = module(&[(ElemType::Fp32, &[2, 3])], &[(ElemType::Fp32, &[2, 1])], |b, x, t| {
        let axis = b.const_u32(1);
        let propagate = b.const_u32(1);
        vec![b.tosa(TosaOp::ReduceMax, t[0], vec![axis, propagate, x[0]])]
    });
    let inf = f32::NEG_INFINITY;
    Finding {
        stem: "emulation-layer-reduce-max-all-minus-inf",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: vec![f32s(&[2, 3], &[inf, inf, inf, 1.0, inf, 2.0])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::ReduceMax, vec![ElemType::Fp32])],
        breaks: None,
        seen: Seen::Output { index: 0, bits: f32s(&[2, 1], &[f32::MIN, 2.0]).to_bits() },
        note: REDUCE_MAX,
    }
}

const REDUCE_MAX: &str = "# The emulation layer's REDUCE_MAX of -inf values is -FLT_MAX

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-reduce-max-all-minus-inf.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

REDUCE_MAX (axis 1, nan_mode PROPAGATE) of the fp32 tensor `[[-inf, -inf, -inf],
[1, -inf, 2]]`.

Expected (TOSA: the maximum of the slice; in-tree executor and TOSA reference model):
`[[-inf], [2]]`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): `[[-3.4028235e38], [2]]`.

Why: the layer's reduce shader starts the maximum at the type's lowest *finite* value
(`%in_out_t_lowest%`) instead of -inf, so a slice of -inf never replaces it. The same
holds for fp16 (-65504), bf16 and fp8e5m2 (-57344), for REDUCE_MIN of +inf values
(+max finite), and for MAX_POOL2D windows of -inf values. MAX_POOL2D with nan_mode
IGNORE also starts there, so a window whose only values are NaN gives -max finite
instead of NaN (REDUCE_MAX with IGNORE starts at NaN and is right). A graph that reduces
after an overflow (e.g. an fp16 CAST of a large value) gets a finite result where the
answer is infinite. Found by the single-operator sweep with special input values
(`emulation_layer_hunt --per-row 4 --special 0.3`: MAX_POOL2D fp16 and fp8e5m2).
";

fn shared_output() -> Finding {
    let shape: &[u32] = &[4];
    let words = module(&[(ElemType::I32, shape)], &[(ElemType::I32, shape), (ElemType::I32, shape)], |b, x, t| {
        let abs = b.tosa(TosaOp::Abs, t[0], vec![x[0]]);
        vec![abs, abs]
    });
    Finding {
        stem: "emulation-layer-shared-output",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: vec![tensor(ElemType::I32, &[4], &[-1, 2, -3, 4])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Abs, vec![ElemType::I32])],
        breaks: None,
        seen: Seen::Output { index: 0, bits: tensor(ElemType::I32, &[4], &[0, 0, 0, 0]).to_bits() },
        note: SHARED_OUTPUT,
    }
}

const SHARED_OUTPUT: &str = "# The emulation layer writes a value set as two graph outputs to only one of them

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-shared-output.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

ABS of the int32 input `[-1, 2, -3, 4]`, and the one result set as graph output 0 and
graph output 1 (`OpGraphSetOutputARM %abs %uint_0`, `OpGraphSetOutputARM %abs %uint_1`;
each output has its own interface variable and binding).

Expected (SPV_ARM_graph: each OpGraphSetOutputARM sets its output to the value; in-tree
executor and TOSA reference model): both outputs `[1, 2, 3, 4]`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): output 1 is `[1, 2, 3, 4]`,
output 0 is `[0, 0, 0, 0]`: its tensor is never written.

Why (our reading): the layer maps each graph value to one tensor resource, so a value that
is several outputs ends up bound to the last output's resource only. Nothing in
SPV_ARM_graph forbids setting one value as several outputs, and spirv-val accepts it.

Found by `spvgraph hunt` (every `wrong-output` of the emulation layer in a 10-minute hunt,
17 signatures over as many operators, had a value set as several outputs: the generator's
consumer-breaking `Config::duplicate_output`); cut down by hand. The adapter does not run
such graphs by default (`Workarounds::skip_shared_outputs`), so hunts do not report it again.
";

fn log_of_subnormals() -> Finding {
    let words = module(&[(ElemType::Fp32, &[5])], &[(ElemType::Fp32, &[5])], |b, x, t| {
        vec![b.tosa(TosaOp::Log, t[0], vec![x[0]])]
    });
    Finding {
        stem: "emulation-layer-log-subnormal-lavapipe",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: vec![f32s(&[5], &[1.4e-45, 1e-40, 1e-38, 1.2e-38, 1.0])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Log, vec![ElemType::Fp32])],
        breaks: None,
        seen: Seen::OffBy { index: 0, element: 0, right: -103.278_929_903_431_85, more_than: 1.0 },
        note: LOG_SUBNORMAL,
    }
}

const LOG_SUBNORMAL: &str = "# The emulation layer hands subnormal LOG inputs to GLSL log, which may flush them

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-log-subnormal-lavapipe.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

LOG of the fp32 tensor `[1.4e-45, 1e-40, 1e-38, 1.2e-38, 1]`; the first three are
subnormal (below 2^-126 = 1.1755e-38).

Expected (in-tree executor and TOSA reference model): `[-103.2789, -92.1034, -87.4982,
-87.3159, 0]`. An implementation that flushes subnormals to zero would give `-inf` for
the first three; TOSA allows either, consistently.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe, mesa-vulkan-drivers
22.3.6, llvmpipe with LLVM 15): `[-88.0297, -88.0212, -87.4141, -87.3159, 0]`: neither
value, off by up to 15 (TOSA's ABS_ERROR bound here is about 6e-5). bf16 shows the same
(`LOG(1e-40)` = -88 instead of -92).

Whose bug: the layer's. It lowers LOG to `log_guarded`
(`graph/shaders/graph_op/tosa/elementwise_unary.comp:157-159` at commit 2eaef00 of
arm/ai-ml-emulation-layer-for-vulkan, the closest public commit to 0.11.0), which returns NaN
for x < 0 and otherwise calls GLSL `log`, so zero and subnormal inputs reach the driver's
`OpExtInst Log`. Vulkan lets a driver flush a denormal shader input to 0 (the layer's shaders
ask for no `DenormPreserve`), and GLSL.std.450 `Log` is undefined for x <= 0, so for these
inputs any result is conformant, and lavapipe's is: llvmpipe's `lp_build_log2_approx`
(Mesa, `src/gallium/auxiliary/gallivm/lp_bld_arit.c`) reads the exponent field as if the
number were normal and says so in a comment (denormals land near -127 in log2, i.e. -88 in
ln). TOSA wants `log(x)`, or `-inf` where subnormals are consistently treated as zero; only
the layer can guarantee either on every conformant driver. Fix (in `log_guarded`): decide
on the bit pattern (`floatBitsToUint`; integer operations are not flushed): exponent field 0
and mantissa 0 gives `-inf`; exponent field 0 and mantissa m gives `log(float(m)) - 149 * ln 2`
(or `-inf`, if the layer flushes subnormals everywhere). The stem keeps its old name; lavapipe
is only where it shows.
Found by the single-operator sweep with special input values (`emulation_layer_hunt
--per-row 4 --special 0.3`: LOG fp32 and bf16). The exact wrong values depend on the CPU
lavapipe compiles for; `oracle/tests/it/emulation_layer_findings.rs` checks that the first
is more than 1 away from the right answer.
";

fn log_near_one() -> Finding {
    let words = module(&[(ElemType::Fp32, &[4])], &[(ElemType::Fp32, &[4])], |b, x, t| {
        vec![b.tosa(TosaOp::Log, t[0], vec![x[0]])]
    });
    Finding {
        stem: "emulation-layer-log-near-one-inaccurate",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: vec![f32s(&[4], &[0.941_269_8, 0.953_968_2, 0.960_317_43, 0.992_063_46])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Log, vec![ElemType::Fp32])],
        breaks: None,
        // TOSA's bound here is 2^-24 (5.96e-8); the layer is 8.5e-8 off.
        seen: Seen::OffBy { index: 0, element: 2, right: -0.040_491_389_925_558_78, more_than: 5.960_464_5e-8 },
        note: LOG_NEAR_ONE,
    }
}

const LOG_NEAR_ONE: &str = "# LOG of fp32 values near 1 is less accurate than TOSA allows on the emulation layer

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-log-near-one-inaccurate.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

LOG of the fp32 tensor `[0.9412698, 0.9539682, 0.9603174, 0.9920635]`.

Expected: within TOSA 1.0's LOG bound of the exact logarithm `[-0.0605254, -0.0471249,
-0.0404914, -0.0079682]`. The bound (TOSA 1.0 LOG accuracy, the conformance checker's
ABS_ERROR mode: `calcAbsErrorBound(out_ref, 5, 0.5, 1)`) is `2^-23 * max(|log x|, 0.1) * 5`,
that is 2^-24 = 5.96e-8 for these inputs. The in-tree executor and the TOSA reference
model are within it.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe, mesa-vulkan-drivers 22.3.6,
llvmpipe with LLVM 15): errors of 6.2e-8, 6.9e-8, 8.5e-8 and 6.1e-8: up to 1.4 times the
bound. Over 64 inputs evenly spaced in [0.9, 1.1], 4 fail. Silently: nothing is reported.

Whose bug: the layer computes LOG with GLSL `log()`. Vulkan requires of `log` only an
absolute error below 2^-21 (4.8e-7) in [0.5, 2], which lavapipe meets here; TOSA's bound
is eight times tighter, so a layer that implements TOSA's LOG with GLSL `log` does not meet
TOSA's accuracy on a conformant Vulkan driver. The layer's bug, not Mesa's (so is
`emulation-layer-log-subnormal-lavapipe`: the same `log_guarded`, for subnormal inputs).
Found by the 10-minute `ci/hunt` (seed 0, case seed 3140: 10 of 1152 LOG elements outside
the bound, through the `vulkan` oracle) and checked on a single-operator graph by
`spvgraph diff --oracles in-tree,tosa-ref,emulation-layer,vulkan`; the ABS_ERROR check is
the one `oracle/tests/it/compliance_tosa_verify.rs` cross-checks against the reference
model's `tosa_verify`. The exact wrong values depend on the CPU lavapipe compiles for;
`oracle/tests/it/emulation_layer_findings.rs` checks that the third is further than the
bound from the right answer.
";

fn unread_input() -> Finding {
    // Input 0 is declared by the graph type and bound, but only input 1 is read.
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let gty = b.type_graph(&[t, t], &[t]);
    let vars: Vec<Id> = (0..3).map(|k| b.interface_variable(t, 0, k)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 1, None);
    let abs = b.tosa(TosaOp::Abs, t, vec![x]);
    b.graph_output(abs, 0, None);
    b.end_graph();
    let words = b.finish().encode_words().expect("encodes");
    Finding {
        stem: "emulation-layer-unread-input-zeros",
        kind: "wrong-output",
        words,
        entry: "main",
        inputs: vec![tensor(ElemType::I32, &[4], &[1, 2, 3, 4]), tensor(ElemType::I32, &[4], &[-5, 6, -7, 8])],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Abs, vec![ElemType::I32])],
        breaks: None,
        seen: Seen::Output { index: 0, bits: vec![0, 0, 0, 0] },
        note: UNREAD_INPUT,
    }
}

const UNREAD_INPUT: &str = "# The emulation layer writes the result into an input when a graph input is not read

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-unread-input-zeros.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

One bug with two triggers; this finding is the primary one, the other trigger is
`emulation-layer-tensor-array-elements-sigsegv` (same cause, `upstream.same_cause_as`).

A graph of two i32 `[4]` inputs and one output whose body reads only input 1
(`OpGraphInputARM %tensor_uint_4 %uint_1`) and sets `ABS` of it as output 0. Input 0 is
declared by the graph type and bound like any input, but no `OpGraphInputARM` reads it.
SPV_ARM_graph does not ask every input to be read (it asks for at least one
`OpGraphSetOutputARM`, and for no InputIndex to be read twice); spirv-val and spvgraph's
validator accept the module.

Expected (in-tree executor and TOSA reference model), inputs `[1, 2, 3, 4]` and
`[-5, 6, -7, 8]`: `[5, 6, 7, 8]`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): output 0 is `[0, 0, 0, 0]`, with
no message. The result is computed, but into input 1's tensor: with `graph.in1` made
`\"shader_access\": \"readwrite\"` and given `\"dst\": \"in1_after.npy\"` in the scenario, the run
leaves `in1_after.npy` = `[5, 6, 7, 8]` and the output `[0, 0, 0, 0]` (the zeros
scenario-runner filled it with; nothing writes it). The layer's log
(`VMEL_GRAPH_SEVERITY=info`) says the same: the graph input and the `ABS` result get the
same tensor, the one at binding 1, and binding 2 is never looked up.

Why (`graph/graph_ext_inst_context.cpp:83` at commit 2eaef00 of
arm/ai-ml-emulation-layer-for-vulkan, the closest public commit to 0.11.0):
`GraphExtInstContext::handleInputsAndOutputs` finds the entry point's first output variable
at \"interface + `graph->inputs().size()`\", and `graph->inputs()` is SPIRV-Tools' list of the
graph's `OpGraphInputARM` instructions, not the `NumInputs` of its `OpTypeGraphARM`, which is
how the interface list is laid out (all inputs, then all outputs). Here one read for two
inputs puts output 0 at input 1's variable. The other observations follow: reading input 0
instead (input 1 unread) also leaves the output zero (the result lands in input 1), and an
extra `OpGraphInputARM` for the other input, its result unused, makes the count right.
The second trigger is the opposite miscount: a graph that reads two elements of a
tensor-array input has one read too many, output 0 lands on output 1's variable and output 1
past the end of the interface list: SIGSEGV at pipeline creation
(`emulation-layer-tensor-array-elements-sigsegv`). The two cancel: through the Vulkan API, a
tensor-array graph that reads two elements and also has one unread input runs and is right.
Fix: take the offset from the `NumInputs` operand of the graph's `OpTypeGraphARM`.

Found through the array-elements equivalent form (one interface variable per element of a
tensor-array input; an element the graph does not read becomes an unread input): the form
gave zeros on the emulation layer and through the Vulkan API where the case as given was
right, which kept the form out of hunts until this was explained; then written by hand as
small as it goes.
";

fn accepts_shape_mismatch() -> Finding {
    let words = module(&[(ElemType::I32, &[6]), (ElemType::I32, &[6])], &[(ElemType::I32, &[8])], |b, x, t| {
        let axis = b.const_u32(0);
        vec![b.tosa(TosaOp::Concat, t[0], vec![axis, x[0], x[1]])]
    });
    Finding {
        stem: "emulation-layer-accepts-shape-mismatch",
        kind: "accepts-invalid",
        words,
        entry: "main",
        inputs: vec![
            tensor(ElemType::I32, &[6], &[1, 2, 3, 4, 5, 6]),
            tensor(ElemType::I32, &[6], &[7, 8, 9, 10, 11, 12]),
        ],
        constants: BTreeMap::new(),
        rows: vec![(TosaOp::Concat, vec![ElemType::I32])],
        breaks: Some(RuleId::TosaShapeOutput),
        seen: Seen::Output { index: 0, bits: tensor(ElemType::I32, &[8], &[1, 2, 3, 4, 5, 6, 7, 8]).to_bits() },
        note: SHAPE_MISMATCH,
    }
}

const SHAPE_MISMATCH: &str = "# The emulation layer runs graphs whose shapes are inconsistent, silently truncating

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** not a bug (kept as a documented harness decision). The reproducer of `emulation-layer-accepts-shape-mismatch.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

CONCAT (axis 0) of two i32 tensors of shape `[6]` whose result is declared `[8]` instead
of `[12]`. TOSA makes this an error (ERROR_IF: the output shape must be the concatenated
shape; rule `tosa.shape.output`), and the in-tree validator and MLIR's TOSA verifier
(tosa-opt) reject it; SPIRV-Tools does not check TOSA shapes, so the runner's SPIR-V
validation passes it.

Seen (ai-ml-emulation-layer-for-vulkan 0.11.0): the pipeline is created and the graph
runs, returning `[1, 2, 3, 4, 5, 6, 7, 8]`, the first 8 elements of the concatenation,
with no message. Vulkan leaves the behaviour of invalid SPIR-V undefined, so this is not
a conformance failure, but a user gets a plausible-looking wrong answer instead of an
error. Checked by hand with live operators (not only dead copies): ADD of `[6]` and `[6]`
declared `[4]` returns the first 4 sums, declared `[8]` returns 6 sums and two zeros;
RESHAPE of 6 elements to `[4]` returns the first 4; SLICE with start 4 and size 4 of a
`[6]` tensor returns `[5, 6, 0, 0]` (reads past the end as zeros); MAXIMUM with
`nan_mode = 7` (not an enumerant) runs. The near-valid hunt
(`emulation_layer_hunt --per-rule 3`) shows the same for the TOSA rules its mutators
break on dead copies of instructions, which the layer never looks at.
";

/// The generator's case for a finding (for `write_case`): every entry point
/// of the module with the finding's inputs (all entry points here take the
/// same inputs).
fn case(f: &Finding) -> Case {
    let module = Module::decode_words(&f.words).expect("decodes");
    let names: Vec<(String, Id)> = module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphEntryPoint { name, graph, .. } => Some((name.clone(), *graph)),
            _ => None,
        })
        .collect();
    let graphs: Vec<Id> = module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Graph { result, .. } => Some(*result),
            _ => None,
        })
        .collect();
    let entry_points = names
        .iter()
        .map(|(name, graph)| {
            let req = ExecRequest { entry_point: Some(name.as_str()), ..f.request() };
            let Ok(Preparation::Ready(p)) = prepare(&req, Workarounds::NONE) else { panic!("{name}: not ready") };
            let slot = |index: usize, s: &spvgraph_oracle::external::emulation_layer::Slot| InterfaceSlot {
                index: index as u32,
                element: None,
                elem: s.elem,
                shape: s.shape.iter().map(|&d| d as u32).collect(),
                descriptor_set: s.set,
                binding: s.binding,
                used: true,
            };
            EntryPoint {
                name: name.clone(),
                graph: graphs.iter().position(|g| g == graph).expect("a graph"),
                inputs: p
                    .inputs
                    .iter()
                    .zip(&f.inputs)
                    .enumerate()
                    .map(|(i, (s, data))| InputTensor { slot: slot(i, s), data: data.clone() })
                    .collect(),
                outputs: p.outputs.iter().enumerate().map(|(j, s)| slot(j, s)).collect(),
            }
        })
        .collect();
    let type_rows = f
        .rows
        .iter()
        .map(|(op, slots)| {
            let row = op.spec().find_row(slots, RowQualifier::Any).expect("a catalogue row");
            let index = op.spec().type_rows.iter().position(|r| r == row).expect("listed");
            RowUse::new(*op, index)
        })
        .collect();
    let meta = CaseMeta {
        ops: f.rows.iter().map(|(op, _)| *op).collect(),
        type_rows,
        graphs: graphs.len(),
        nodes: f.rows.len(),
        ..CaseMeta::default()
    };
    Case { module, entry_points, graph_constants: f.constants.clone(), meta }
}

/// The scenario of a finding, naming the corpus files.
fn scenario_document(f: &Finding, manifest: &serde_json::Value) -> serde_json::Value {
    let p = f.prepared();
    let k = manifest["entry_points"]
        .as_array()
        .and_then(|eps| eps.iter().position(|e| e["name"] == f.entry))
        .expect("the entry point is in the manifest");
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect()).unwrap_or_default()
    };
    let names = Names {
        spv: format!("{}.spv", f.stem),
        inputs: strings(&manifest["entry_points"][k]["inputs"]),
        constants: (0..scenario::constant_positions(&p))
            .map(|id| manifest["graph_constants"][id.to_string()].as_str().expect("dense graph constants").to_string())
            .collect(),
        outputs: (0..p.outputs.len()).map(|j| format!("{}.out{j}.npy", f.stem)).collect(),
    };
    scenario::document(&[("graph", &p, &names)])
}

/// `text` without the scratch directories of this machine
/// (`/tmp/spvgraph-tosa-ref-1-2-3/graph.mlir` becomes `graph.mlir`).
fn scrub(text: &str) -> String {
    let prefix = format!("{}/spvgraph-", std::env::temp_dir().display());
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&prefix) {
        out.push_str(&rest[..at]);
        let tail = &rest[at + prefix.len()..];
        rest = tail.find('/').map_or("", |slash| &tail[slash + 1..]);
    }
    out.push_str(rest);
    out
}

fn brief(o: &Result<ExecOutcome, spvgraph_oracle::oracle::OracleError>) -> String {
    scrub(&brief_raw(o))
}

fn brief_raw(o: &Result<ExecOutcome, spvgraph_oracle::oracle::OracleError>) -> String {
    match o {
        Ok(ExecOutcome::Outputs(v)) => {
            let parts: Vec<String> = v
                .iter()
                .map(|t| {
                    let values = t.to_f64();
                    let shown: Vec<String> = values.iter().take(8).map(|x| format!("{x}")).collect();
                    let more = if values.len() > 8 { ", ..." } else { "" };
                    format!("[{}{more}]", shown.join(", "))
                })
                .collect();
            format!("outputs {}", parts.join(", "))
        }
        Ok(ExecOutcome::Refused { kind, reason }) => format!("refused ({kind:?}): {reason}"),
        Ok(ExecOutcome::Abnormal { how, detail }) => {
            format!("{how}: {}", detail.split(':').next().unwrap_or(""))
        }
        Err(e) => format!("error: {e}"),
    }
}

/// Writes this file's findings into `corpus/findings/` (the example
/// `write_findings`; the tests here check what it wrote).
pub fn write_findings() {
    let dir = findings_dir();
    std::fs::create_dir_all(&dir).expect("findings dir");
    let el = EmulationLayer::discover().with_workarounds(Workarounds::NONE).with_batch_size(1);
    let model = tosa_reference::TosaReferenceModel::discover();
    for f in findings() {
        let case = case(&f);
        write_case(&dir, f.stem, &case, &Extras { spvasm: true, mlir: true }).expect("write case");
        let path = dir.join(format!("{}.json", f.stem));
        let mut manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("manifest")).expect("json");
        let scenario = scenario_document(&f, &manifest);
        let scenario_file = format!("{}.scenario.json", f.stem);
        std::fs::write(dir.join(&scenario_file), serde_json::to_string_pretty(&scenario).expect("json"))
            .expect("write scenario");
        let req = f.request();
        let mut oracles = serde_json::Map::new();
        oracles
            .insert(format!("emulation-layer ({})", el.version().unwrap_or_default()), brief(&el.execute(&req)).into());
        oracles.insert("spvgraph-executor".into(), brief(&Executor::default().execute(&req)).into());
        if model.available().is_ok() {
            oracles.insert(
                format!("tosa-ref ({})", model.version().unwrap_or_default()),
                brief(&model.execute(&req)).into(),
            );
        }
        if let Some(m) = manifest.as_object_mut() {
            m.insert("kind".into(), f.kind.into());
            if let Some(rule) = f.breaks {
                m.insert("expect".into(), rule.name().into());
            }
            m.insert("entry_point".into(), f.entry.into());
            m.insert("scenario".into(), scenario_file.clone().into());
            m.insert("oracles".into(), oracles.into());
            m.insert(
                "reproduce".into(),
                format!(
                    "VK_LAYER_PATH=$ORACLES/layers/1_graph:$ORACLES/layers/2_tensor \
                     VK_INSTANCE_LAYERS=VK_LAYER_ML_Graph_Emulation:VK_LAYER_ML_Tensor_Emulation \
                     VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
                     scenario-runner --scenario {scenario_file} --output OUT"
                )
                .into(),
            );
        }
        std::fs::write(&path, serde_json::to_string_pretty(&manifest).expect("json")).expect("write manifest");
        let (release, dev) = layer_versions();
        let versions = versions_note(f.stem, &release, &dev.unwrap_or_else(|| "the dev channel".into()));
        std::fs::write(
            dir.join(format!("{}.md", f.stem)),
            format!("{}\n{versions}{}{}", f.note, reproduce(&f), attribution(&f)),
        )
        .expect("write note");
    }
}

/// The paragraph of a finding's note that says which versions show it.
fn versions_note(stem: &str, release: &str, dev: &str) -> String {
    let on_dev = ON_DEV.iter().any(|(s, shows)| *s == stem && *shows);
    format!(
        "**Versions.** ai-ml-emulation-layer-for-vulkan {release} (the release channel) shows it; {dev} (the dev \
         channel, Arm's pre-release: `ci/setup-oracles --channel dev`) {}. \
         `oracle/tests/it/emulation_layer_findings.rs` checks both.\n",
        if on_dev { "still shows it" } else { "no longer shows it" }
    )
}

/// The installed versions of the layer: the release's and the dev channel's
/// (`None` when the channel is not installed).
fn layer_versions() -> (String, Option<String>) {
    let version = |t: &Tools| {
        t.package_version(Tool::VkLayerPath).and_then(|v| v.split(' ').nth(1).map(str::to_string)).unwrap_or_default()
    };
    let tools = Tools::discover();
    (version(&tools), tools.channel("dev").ok().map(|d| version(&d)))
}

/// The reproduction section of a finding's note.
fn reproduce(f: &Finding) -> String {
    let compare = match f.seen {
        Seen::Output { index, .. } | Seen::OffBy { index, .. } => {
            format!("\nand compare `/tmp/out/{}.out{index}.npy` with the expected values.", f.stem)
        }
        Seen::Signal(_) | Seen::Error(_) => String::new(),
    };
    format!(
        "\nReproduce (from this directory; `$ORACLES` is the repository's `.oracles`):\n\n\
         \x20   VK_LAYER_PATH=$ORACLES/layers/1_graph:$ORACLES/layers/2_tensor \\\n\
         \x20   VK_INSTANCE_LAYERS=VK_LAYER_ML_Graph_Emulation:VK_LAYER_ML_Tensor_Emulation \\\n\
         \x20   VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \\\n\
         \x20   $(jq -r '.\"scenario-runner\"' $ORACLES/tools.json) \\\n\
         \x20       --scenario {}.scenario.json --output /tmp/out\n{compare}\n\
         `oracle/tests/it/emulation_layer_findings.rs` checks that it still reproduces.\n",
        f.stem
    )
}

/// The emulation layer, or `None` with a notice when it is missing outside CI.
fn oracle() -> Option<EmulationLayer> {
    spvgraph_testkit::oracle(EmulationLayer::discover())
}

/// Runs a finding's stored scenario by hand, in a copy of its corpus files.
fn raw_run(el: &EmulationLayer, f: &Finding) -> (process::ProcessRun, ScratchDir) {
    let setup = el.setup().expect("available");
    let dir = ScratchDir::new("emulation-layer-finding").expect("scratch");
    for entry in std::fs::read_dir(findings_dir()).expect("findings dir").flatten() {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with(&format!("{}.", f.stem)) {
            std::fs::copy(entry.path(), dir.join(&name)).expect("copy");
        }
    }
    let mut cmd = std::process::Command::new(&setup.runner);
    cmd.arg("--scenario").arg(format!("{}.scenario.json", f.stem)).args(["--output", "."]);
    setup.env.apply(&mut cmd);
    let limits = Limits { timeout: Duration::from_secs(120), memory_bytes: None };
    (process::run(cmd, dir.path(), &limits).expect("the runner starts"), dir)
}

/// Whether each finding still shows on the dev channel's pre-release
/// (`ci/setup-oracles --channel dev`, pinned in `ci/oracle-pins`), as its note
/// says (measured with ai-ml-emulation-layer-for-vulkan and scenario-runner
/// 0.12.0.dev20261024 on the same lavapipe).
const ON_DEV: &[(&str, bool)] = &[
    ("emulation-layer-ignores-entry-point", true),
    ("emulation-layer-rejects-debug-info", true),
    ("emulation-layer-graph-constant-ctc-rejected", true),
    ("emulation-layer-fft2d-result-to-operator-sigsegv", true),
    ("emulation-layer-reduce-max-all-minus-inf", true),
    ("emulation-layer-log-subnormal-lavapipe", true),
    ("emulation-layer-accepts-shape-mismatch", true),
    ("emulation-layer-shared-output", true),
    ("emulation-layer-null-bool-operand-rejected", true),
    ("emulation-layer-null-constituent-rejected", true),
    ("emulation-layer-bool-null-row-misread", true),
    ("emulation-layer-null-row-shifts-elements", true),
    ("emulation-layer-nested-replicate-misread", true),
    ("emulation-layer-log-near-one-inaccurate", true),
    ("emulation-layer-unread-input-zeros", true),
];

/// The dev channel's emulation layer, or `None` with a notice when the
/// channel is not installed (under `CI=true`, which installs it, a failure).
fn dev_tools() -> Option<(Tools, String)> {
    let tools = match Tools::discover().channel("dev") {
        Ok(t) => t,
        Err(e) if Tools::required() => panic!("CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping the dev channel: {e}");
            return None;
        }
    };
    let version = tools.package_version(Tool::VkLayerPath).unwrap_or_default();
    spvgraph_testkit::oracle(EmulationLayer::from_config(&tools, None))?;
    Some((tools, version))
}

/// Whether the emulation layer of `tools` shows finding `f`: its stored
/// scenario run by hand, and the adapter without work-arounds, both do what
/// the finding says.
fn shows(tools: &Tools, f: &Finding) -> Result<(), String> {
    let stem = f.stem;
    let el = EmulationLayer::from_config(tools, None).with_workarounds(Workarounds::NONE).with_batch_size(1);
    let (run, dir) = raw_run(&el, f);
    let log = format!("{}{}", run.stdout_text(), run.stderr_text());
    let read = |index: usize| {
        let elem = f.prepared().outputs[index].elem;
        match tosa_reference::read_npy(&dir.join(format!("{stem}.out{index}.npy")), elem) {
            Ok(ReferenceTensor::Typed(t)) => Ok(t),
            other => Err(format!("{stem}: cannot read output {index}: {other:?}\n{log}")),
        }
    };
    match &f.seen {
        Seen::Signal(s) if run.abnormal() != Some(Abnormal::Signal(*s)) => {
            return Err(format!("{stem} no longer crashes\n{log}"))
        }
        Seen::Error(_) if !matches!(run.ended, Ended::Exited(c) if c != 0) => {
            return Err(format!("{stem} no longer fails\n{log}"))
        }
        Seen::Error(text) if !log.contains(text) => return Err(format!("{stem}: the error changed\n{log}")),
        Seen::Output { index, bits } => {
            if !run.success() {
                return Err(format!("{stem}: the run failed\n{log}"));
            }
            if &read(*index)?.to_bits() != bits {
                return Err(format!("{stem} no longer reproduces"));
            }
        }
        Seen::OffBy { index, element, right, more_than } => {
            if !run.success() {
                return Err(format!("{stem}: the run failed\n{log}"));
            }
            let got = read(*index)?.to_f64()[*element];
            if (got - right).abs() <= *more_than {
                return Err(format!("{stem} no longer reproduces ({got})"));
            }
        }
        Seen::Signal(_) | Seen::Error(_) => {}
    }
    // The adapter, without work-arounds, reports the layer's behaviour.
    let raw = el.execute(&f.request());
    let agrees = match (&f.seen, &raw) {
        (Seen::Signal(s), Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(got), .. })) => s == got,
        (Seen::Error(text), Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason })) => reason.contains(text),
        (Seen::Output { index, bits }, Ok(ExecOutcome::Outputs(o))) => &o[*index].to_bits() == bits,
        (Seen::OffBy { index, element, right, more_than }, Ok(ExecOutcome::Outputs(o))) => {
            (o[*index].to_f64()[*element] - right).abs() > *more_than
        }
        _ => false,
    };
    if agrees {
        Ok(())
    } else {
        Err(format!("{stem}: the adapter says {raw:?}"))
    }
}

/// Checks one finding: it reproduces by hand and through the adapter on the
/// release, the in-tree executor differs from what the layer does, and on
/// the dev channel it shows or not as [`ON_DEV`] (and the note) say.
fn check(stem: &str) {
    if oracle().is_none() {
        return;
    }
    let f = findings().into_iter().find(|f| f.stem == stem).expect("listed");
    if let Err(e) = shows(&Tools::discover(), &f) {
        panic!("{e}; update the finding");
    }
    let in_tree = Executor::default().execute(&f.request());
    match (&f.seen, &in_tree, f.breaks) {
        (Seen::Output { index, bits }, Ok(ExecOutcome::Outputs(o)), None) => {
            assert_ne!(&o[*index].to_bits(), bits, "the in-tree executor agrees")
        }
        (Seen::Output { .. }, Ok(ExecOutcome::Refused { kind: Refusal::Invalid, .. }), Some(_)) => {}
        (Seen::Output { .. }, other, _) => panic!("{stem}: the in-tree executor says {other:?}"),
        (Seen::OffBy { index, element, right, .. }, Ok(ExecOutcome::Outputs(o)), _) => {
            let ours = o[*index].to_f64()[*element];
            assert!((ours - right).abs() < 1e-3, "the in-tree executor gives {ours}")
        }
        (Seen::OffBy { .. }, other, _) => panic!("{stem}: the in-tree executor did not run it: {other:?}"),
        (Seen::Signal(_) | Seen::Error(_), _, _) => {}
    }
    if f.breaks.is_none() {
        assert!(matches!(in_tree, Ok(ExecOutcome::Outputs(_))), "{stem}: {in_tree:?}");
    }
    let Some((dev, version)) = dev_tools() else { return };
    let expected = ON_DEV.iter().find(|(s, _)| *s == stem).map(|(_, shows)| *shows).expect("in ON_DEV");
    match (shows(&dev, &f), expected) {
        (Ok(()), true) | (Err(_), false) => {}
        (Ok(()), false) => panic!("{stem} shows on {version} again: update ON_DEV and the note"),
        (Err(e), true) => panic!("{stem} no longer shows on {version} ({e}): update ON_DEV and the note"),
    }
}

#[test]
fn ignores_entry_point_still_reproduces_and_the_workaround_gives_the_right_answer() {
    check("emulation-layer-ignores-entry-point");
    let Some(el) = oracle() else { return };
    let f = ignores_entry_point();
    match el.execute(&f.request()) {
        Ok(ExecOutcome::Outputs(o)) => assert_eq!(o[0].to_bits(), tensor(ElemType::I32, &[4], &[3, 5, 7, 9]).to_bits()),
        other => panic!("expected outputs, got {other:?}"),
    }
}

#[test]
fn debug_info_refusal_still_reproduces_and_the_workaround_gives_the_right_answer() {
    check("emulation-layer-rejects-debug-info");
    let Some(el) = oracle() else { return };
    match el.execute(&debug_info_in_graph().request()) {
        Ok(ExecOutcome::Outputs(o)) => assert_eq!(o[0].to_bits(), tensor(ElemType::I32, &[4], &[3, 5, 7, 9]).to_bits()),
        other => panic!("expected outputs, got {other:?}"),
    }
}

#[test]
fn graph_constant_ctc_refusal_still_reproduces() {
    check("emulation-layer-graph-constant-ctc-rejected");
}

#[test]
fn fft2d_crash_still_reproduces() {
    check("emulation-layer-fft2d-result-to-operator-sigsegv");
}

#[test]
fn reduce_max_minus_inf_still_reproduces() {
    check("emulation-layer-reduce-max-all-minus-inf");
}

#[test]
fn shape_mismatch_still_runs() {
    check("emulation-layer-accepts-shape-mismatch");
}

#[test]
fn null_bool_operand_refusal_still_reproduces() {
    check("emulation-layer-null-bool-operand-rejected");
}

#[test]
fn null_constituent_refusal_still_reproduces() {
    check("emulation-layer-null-constituent-rejected");
}

#[test]
fn bool_null_row_still_reproduces() {
    check("emulation-layer-bool-null-row-misread");
}

#[test]
fn int_null_row_still_reproduces() {
    check("emulation-layer-null-row-shifts-elements");
}

#[test]
fn nested_replicate_still_reproduces() {
    check("emulation-layer-nested-replicate-misread");
}

#[test]
fn log_near_one_still_reproduces() {
    check("emulation-layer-log-near-one-inaccurate");
}

#[test]
fn unread_input_still_reproduces() {
    check("emulation-layer-unread-input-zeros");
}

#[test]
fn shared_output_still_reproduces() {
    check("emulation-layer-shared-output");
}

#[test]
fn log_of_subnormals_still_reproduces() {
    check("emulation-layer-log-subnormal-lavapipe");
}

/// Every finding module is valid (what the layer does wrong is the layer's),
/// except the accepts-invalid ones, which break exactly their rule.
#[test]
fn every_finding_has_its_files() {
    let dir = findings_dir();
    for f in findings() {
        for suffix in [".spv", ".spvasm", ".json", ".md", ".scenario.json"] {
            assert!(dir.join(format!("{}{suffix}", f.stem)).is_file(), "{}{suffix} missing", f.stem);
        }
        let report = Validator::new(ValidateOptions::default()).check_words(&f.words);
        match f.breaks {
            None => assert!(report.is_valid(), "{}: {:?}", f.stem, report.verdict()),
            Some(rule) => assert_eq!(report.errors().map(|e| e.rule).collect::<Vec<_>>(), [rule], "{}", f.stem),
        }
        let stored = std::fs::read(dir.join(format!("{}.spv", f.stem))).expect("spv");
        let words: Vec<u32> = stored.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        assert_eq!(words, f.words, "{}.spv differs from the module built here; rerun `cargo run --release -p spvgraph-oracle --example write_findings -- emulation-layer`", f.stem);
    }
}

/// Every note says which installed versions show its finding (as [`ON_DEV`]
/// says for the dev channel, which `check` verifies).
#[test]
fn every_note_says_which_versions_show_it() {
    let (release, dev) = layer_versions();
    if release.is_empty() {
        eprintln!("skipping: no recorded emulation-layer version");
        return;
    }
    for f in findings() {
        let note = std::fs::read_to_string(findings_dir().join(format!("{}.md", f.stem))).expect("note");
        match &dev {
            Some(dev) => {
                let want = versions_note(f.stem, &release, dev);
                assert!(note.contains(&want), "{}.md lacks, or has stale:\n{want}", f.stem);
            }
            None => {
                let release_clause = format!("**Versions.** ai-ml-emulation-layer-for-vulkan {release} ");
                assert!(note.contains(&release_clause), "{}", f.stem)
            }
        }
    }
}

#[test]
fn the_adapter_documents_every_finding() {
    let known = EmulationLayer::discover().known_discrepancies();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for f in findings() {
        let file = format!("corpus/findings/{}.spv", f.stem);
        let rows: Vec<_> = known.iter().filter(|k| k.finding == file).collect();
        assert!(!rows.is_empty(), "{file} is not in the adapter's known discrepancies");
        assert!(rows.iter().all(|k| k.kind == f.kind), "{file}: kind {}", f.kind);
    }
    for k in known {
        assert!(root.join(k.finding).is_file(), "{} does not exist", k.finding);
    }
}

/// Which path shows a finding, as its note records it: scenario-runner and
/// the Vulkan API (the `vulkan` oracle, work-arounds off, the same layers
/// on lavapipe), checked by `every_finding_is_attributed_through_the_vulkan_api`.
fn attribution(f: &Finding) -> String {
    let what = match (&f.seen, f.stem) {
        (Seen::Error(_), _) => {
            "Through the Vulkan API the layer refuses the module in the same place, but by throwing a C++ exception \
             out of `vkCreateDataGraphPipelinesARM`: scenario-runner (C++) catches it and reports the message; a C or \
             Rust application cannot, and the `vulkan` worker aborts (SIGABRT). The refusal is the layer's, not the \
             runner's; the exception escaping a Vulkan command is a second layer bug \
             (`emulation-layer-exception-through-vulkan-api`)."
        }
        (Seen::Signal(_), _) => {
            "Reproduced through the Vulkan API: the worker dies of the same signal inside \
             `vkCreateDataGraphPipelinesARM`. The layer's bug, not scenario-runner's."
        }
        (_, "emulation-layer-ignores-entry-point") => {
            "Reproduced through the Vulkan API with `VkDataGraphPipelineShaderModuleCreateInfoARM::pName = \"abs\"`: \
             the result is `negate`'s. The layer ignores `pName`; scenario-runner passes it correctly."
        }
        (_, "emulation-layer-bool-null-row-misread" | "emulation-layer-null-row-shifts-elements") => {
            "Reproduced through the Vulkan API: the elements after the null row are shifted as here; those past the \
             end of the misread data differ from run to run and between the two paths (memory the layer never \
             wrote). The layer's bug, not scenario-runner's."
        }
        (_, "emulation-layer-nested-replicate-misread") => {
            "Reproduced through the Vulkan API (first seen there, by the `vulkan` oracle): the block is read as one \
             element per row as here; the elements the layer never wrote are zeros or, from run to run, other \
             values. The layer's bug, not scenario-runner's."
        }
        _ => {
            "Reproduced through the Vulkan API with the same module, bindings and inputs: the same wrong outputs. \
              The layer's bug (or lavapipe's, as said above), not scenario-runner's."
        }
    };
    format!("\n## Attribution\n\n{what}\n")
}

/// Every finding through the `vulkan` oracle without work-arounds: what the
/// note's attribution says it shows, and the note says it.
#[test]
fn every_finding_is_attributed_through_the_vulkan_api() {
    use spvgraph_oracle::external::vulkan::{Vulkan, CPP_EXCEPTION};
    let Some(vk) = spvgraph_testkit::oracle(Vulkan::discover()) else { return };
    let vk = vk.with_workarounds(false);
    for f in findings() {
        let note = std::fs::read_to_string(findings_dir().join(format!("{}.md", f.stem))).expect("note");
        assert!(note.ends_with(&attribution(&f)), "{}.md lacks its attribution; rerun `cargo run --release -p spvgraph-oracle --example write_findings -- emulation-layer`", f.stem);
        let got = vk.execute(&f.request());
        let in_tree = Executor::default().execute(&f.request());
        match (&f.seen, &got) {
            (Seen::Signal(s), Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(g), detail })) => {
                assert_eq!(s, g, "{}", f.stem);
                assert!(detail.contains("in vkCreateDataGraphPipelinesARM"), "{}: {detail}", f.stem);
            }
            // The worker's guard catches the exception scenario-runner
            // catches, with the same message.
            (Seen::Error(said), Ok(ExecOutcome::Abnormal { how: Abnormal::Threw, detail })) => {
                assert!(detail.contains(CPP_EXCEPTION), "{}: {detail}", f.stem);
                assert!(detail.contains(*said), "{}: {detail} (scenario-runner: {said})", f.stem);
            }
            (Seen::Output { index, bits }, Ok(ExecOutcome::Outputs(o))) => {
                let run_dependent = attribution(&f).contains("differ from run to run");
                if !run_dependent {
                    assert_eq!(&o[*index].to_bits(), bits, "{}", f.stem);
                }
                if let Ok(ExecOutcome::Outputs(right)) = &in_tree {
                    assert_ne!(o[*index].to_bits(), right[*index].to_bits(), "{}: right through the API", f.stem);
                }
            }
            (Seen::OffBy { index, element, right, more_than }, Ok(ExecOutcome::Outputs(o))) => {
                assert!((o[*index].to_f64()[*element] - right).abs() > *more_than, "{}", f.stem)
            }
            (seen, other) => panic!("{}: scenario-runner shows {seen:?}, the API {other:?}", f.stem),
        }
    }
}

/// Adds the attribution section to notes written before it existed
/// (`write_findings` writes it with the rest):
/// `cargo run --release -p spvgraph-oracle --example write_findings -- emulation-layer-attributions`.
pub fn write_attributions() {
    for f in findings() {
        let path = findings_dir().join(format!("{}.md", f.stem));
        let note = std::fs::read_to_string(&path).expect("note");
        let note = note.split("\n## Attribution\n").next().unwrap_or(&note).to_string();
        std::fs::write(&path, format!("{note}{}", attribution(&f))).expect("write note");
    }
}
