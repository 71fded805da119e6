//! Helpers shared by the validator tests (included with `#[path]`; as a test
//! target of its own it has no tests).
#![allow(dead_code)]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a test, bench or example: a failure names its place"
)]

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor_access::{ConstructReplicate, TensorAccess, TensorOperands};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
use spvgraph_oracle::tools::Tool;
use spvgraph_oracle::validate::{Report, Validator};
use std::path::PathBuf;

/// The path of `tool`, or `None` with a notice when it is missing outside CI.
/// Under `CI=true` a missing tool fails the test.
pub fn tool(tool: Tool) -> Option<PathBuf> {
    spvgraph_oracle::tools::locate(tool).unwrap_or_else(|e| panic!("CI=true and {e}"))
}

/// spirv-val in process, or `None` with a notice when it is missing outside
/// CI. Under `CI=true` a missing spirv-val fails the test.
pub fn spirv_val() -> Option<SpirvVal> {
    let sv = SpirvVal::discover();
    match sv.available() {
        Ok(()) => Some(sv),
        Err(e) => {
            assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
            eprintln!("skipping spirv-val: {e}");
            None
        }
    }
}

/// A scratch directory unique to this test process and name.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spvgraph-validate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The module's words.
pub fn words(m: &Module) -> Vec<u32> {
    m.encode_words().expect("module encodes")
}

/// Validates under `env` with every profile and level 8K.
pub fn check_env(env: &str, m: &Module) -> Report {
    let target_env = spvgraph_ir::env::TargetEnv::parse(env).expect("known env");
    let v = Validator::new(ValidateOptions { target_env, ..Default::default() });
    v.check(m)
}

/// Validates under vulkan1.3.
pub fn check(m: &Module) -> Report {
    check_env("vulkan1.3", m)
}

/// The distinct must-reject rules of a report.
pub fn errors(r: &Report) -> Vec<RuleId> {
    let mut v: Vec<RuleId> = r.errors().map(|f| f.rule).collect();
    v.sort();
    v.dedup();
    v
}

/// The distinct may-accept rules of a report.
pub fn warnings(r: &Report) -> Vec<RuleId> {
    let mut v: Vec<RuleId> = r.warnings().map(|f| f.rule).collect();
    v.sort();
    v.dedup();
    v
}

/// Renders a report for assertion messages.
pub fn show(r: &Report) -> String {
    r.findings
        .iter()
        .map(|f| {
            format!(
                "  {} [{}] {} @ {:?}: {}\n",
                f.severity.label(),
                f.rule,
                f.message,
                f.word_offset,
                f.instruction.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

/// One graph with the given input and output tensor types; `body` gets the
/// builder and the input values and returns the output values. Interface
/// variables are bound to set 0, bindings 0.. in order.
pub fn graph(
    b: &mut ModuleBuilder,
    inputs: &[Id],
    outputs: &[Id],
    body: impl FnOnce(&mut ModuleBuilder, &[Id]) -> Vec<Id>,
) -> Id {
    let gty = b.type_graph(inputs, outputs);
    let vars: Vec<Id> =
        inputs.iter().chain(outputs).enumerate().map(|(k, t)| b.interface_variable(*t, 0, k as u32)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let xs: Vec<Id> = inputs.iter().enumerate().map(|(k, t)| b.graph_input(*t, k as u32, None)).collect();
    let ys = body(b, &xs);
    for (k, y) in ys.iter().enumerate() {
        b.graph_output(*y, k as u32, None);
    }
    b.end_graph();
    g
}

/// A module with one graph computing `op(inputs, attributes)`: `make`
/// returns the operand list given the graph inputs; the result has type `out`.
pub fn one_op(
    inputs: &[(ElemType, &[u32])],
    out: (ElemType, &[u32]),
    op: TosaOp,
    make: impl FnOnce(&mut ModuleBuilder, &[Id]) -> Vec<Id>,
) -> Module {
    let mut b = ModuleBuilder::new();
    let ins: Vec<Id> = inputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let out_t = b.type_tensor(out.0, Some(out.1));
    graph(&mut b, &ins, &[out_t], |b, xs| {
        let args = make(b, xs);
        vec![b.tosa(op, out_t, args)]
    });
    b.finish()
}

/// A `[1]` tensor constant of `elem` with raw bits `bits` (zero points, shifts).
pub fn scalar_tensor(b: &mut ModuleBuilder, elem: ElemType, bits: u64) -> Id {
    b.const_tensor(elem, &[1], &[bits]).expect("shape [1]")
}

/// A zero `[1]` tensor of `elem`.
pub fn zero(b: &mut ModuleBuilder, elem: ElemType) -> Id {
    scalar_tensor(b, elem, 0)
}

/// The index of the first instruction matching `pred`.
pub fn find(m: &Module, pred: impl Fn(&Inst) -> bool) -> usize {
    m.insts.iter().position(pred).expect("instruction present")
}

/// The index of the first TOSA instruction of `op`.
pub fn find_op(m: &Module, op: TosaOp) -> usize {
    find(m, |i| matches!(i, Inst::Tosa { op: o, .. } if *o == op))
}

/// A fresh id above every id of the module (the bound is raised).
pub fn fresh(m: &mut Module) -> Id {
    let id = Id(m.header.bound);
    m.header.bound += 1;
    id
}

/// The ids of the shader half of a graph-and-tensor module (see
/// [`tensor_module`]).
pub struct Kit {
    /// `OpTypeInt 32 0`.
    pub uint: Id,
    /// `OpTypeFloat 32`.
    pub float: Id,
    /// A rank-2 fp32 tensor type without a shape.
    pub ranked: Id,
    /// The fp32 `[2, 3]` tensor type.
    pub shaped: Id,
    /// The UniformConstant variable of `ranked` the function reads.
    pub src: Id,
    /// The UniformConstant variable of `shaped` the function writes.
    pub dst: Id,
    /// `src` loaded.
    pub a: Id,
    /// `dst` loaded.
    pub b: Id,
    /// The coordinates `uint[2] {0, 1}`.
    pub coords: Id,
    /// `float 0`.
    pub zero: Id,
    /// `uint 2` (Workgroup), a memory scope.
    pub scope: Id,
}

/// A module with one graph (ABS of fp32 `[2, 4]`) and a GLCompute entry
/// point `main` whose function loads the two tensor variables of [`Kit`]
/// and then runs `body`, which appends instructions with
/// [`ModuleBuilder::function_inst`] (and may declare globals and
/// decorations). The tensor variables use descriptor set 1.
pub fn tensor_module(body: impl FnOnce(&mut ModuleBuilder, &Kit)) -> Module {
    let mut b = ModuleBuilder::new();
    let g = b.type_tensor(ElemType::Fp32, Some(&[2, 4]));
    graph(&mut b, &[g], &[g], |b, xs| vec![b.tosa(TosaOp::Abs, g, vec![xs[0]])]);
    let uint = b.type_u32();
    let float = b.type_elem(ElemType::Fp32);
    let ranked = b.type_tensor_ranked(ElemType::Fp32, 2);
    let shaped = b.type_tensor(ElemType::Fp32, Some(&[2, 3]));
    let src = b.variable(spirv::StorageClass::UniformConstant, ranked);
    let dst = b.variable(spirv::StorageClass::UniformConstant, shaped);
    for (k, v) in [src, dst].into_iter().enumerate() {
        b.decorate(v, spirv::Decoration::DescriptorSet, &[1]);
        b.decorate(v, spirv::Decoration::Binding, &[k as u32]);
    }
    let arr = b.type_array(uint, 2);
    let (c0, c1) = (b.const_u32(0), b.const_u32(1));
    let coords = b.const_composite(arr, vec![c0, c1]);
    let zero = b.const_scalar(ElemType::Fp32, 0);
    let scope = b.const_u32(spirv::Scope::Workgroup as u32);
    let void = b.type_void();
    let fnty = b.type_function(void, &[]);
    let f = b.begin_function(void, fnty);
    let a = b.load(ranked, src);
    let t = b.load(shaped, dst);
    let kit = Kit { uint, float, ranked, shaped, src, dst, a, b: t, coords, zero, scope };
    body(&mut b, &kit);
    b.end_function();
    // From SPIR-V 1.4 the interface lists every global variable the entry
    // point uses, including those `body` added.
    let interface = b.loaded_variables();
    b.entry_point(spirv::ExecutionModel::GLCompute, f, "main", &interface);
    b.execution_mode(f, spirv::ExecutionMode::LocalSize, &[1, 1, 1]);
    b.finish()
}

/// `OpTensorReadARM ty tensor coordinates [operands]` appended to the
/// current function; returns its result.
pub fn read(b: &mut ModuleBuilder, ty: Id, tensor: Id, coordinates: Id, operands: Option<TensorOperands>) -> Id {
    let result = b.id();
    b.function_inst(TensorAccess::Read { ty, result, tensor, coordinates, operands }.to_inst());
    result
}

/// `OpTensorWriteARM tensor coordinates object [operands]` appended to the current function.
pub fn write(b: &mut ModuleBuilder, tensor: Id, coordinates: Id, object: Id, operands: Option<TensorOperands>) {
    b.function_inst(TensorAccess::Write { tensor, coordinates, object, operands }.to_inst());
}

/// `OpTensorQuerySizeARM ty tensor dimension` appended to the current function; returns its result.
pub fn query(b: &mut ModuleBuilder, ty: Id, tensor: Id, dimension: Id) -> Id {
    let result = b.id();
    b.function_inst(TensorAccess::QuerySize { ty, result, tensor, dimension }.to_inst());
    result
}

/// `OpCompositeConstructReplicateEXT ty value` appended to the current
/// function, with the capability and extension it needs; returns its result.
pub fn replicate(b: &mut ModuleBuilder, ty: Id, value: Id) -> Id {
    b.capability(spirv::Capability::ReplicatedCompositesEXT);
    b.extension("SPV_EXT_replicated_composites");
    let result = b.id();
    b.function_inst(ConstructReplicate { ty, result, value }.to_inst());
    result
}

/// Tensor Operands `mask` with the ids its bits take.
pub fn operands(mask: u32, out_of_bounds: Option<Id>, scope: Option<Id>) -> Option<TensorOperands> {
    use spvgraph_ir::tensor_access::{MAKE_ELEMENT_AVAILABLE, MAKE_ELEMENT_VISIBLE};
    Some(TensorOperands {
        mask,
        out_of_bounds,
        available_scope: scope.filter(|_| mask & MAKE_ELEMENT_AVAILABLE != 0),
        visible_scope: scope.filter(|_| mask & MAKE_ELEMENT_VISIBLE != 0),
    })
}

/// Switches a module to `OpMemoryModel Logical GLSL450` without the
/// VulkanMemoryModel capability.
pub fn glsl450(m: &mut Module) {
    m.insts.retain(|i| *i != Inst::Capability(spirv::Capability::VulkanMemoryModel as u32));
    for inst in &mut m.insts {
        if let Inst::MemoryModel { memory, .. } = inst {
            *memory = spirv::MemoryModel::GLSL450 as u32;
        }
    }
}
