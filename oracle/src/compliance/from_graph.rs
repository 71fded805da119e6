//! The [`OpContext`] of each output of a graph, read from the module and the
//! run's data: which operator produced it, and the facts its accuracy rule
//! needs (dot-product length and accumulator, REDUCE_PRODUCT length and the
//! elements its running product leaves unjudged, RESIZE `max |input|`,
//! RESCALE rounding, inf/NaN inputs).
//!
//! Operand data is found where the graph gets it: graph inputs (from the
//! run's inputs), tensor constants, and graph constants. Operands computed by
//! other operators have no data here; the facts that need it then take their
//! cautious value (a bias counts as non-zero) or stay unknown (RESIZE's
//! `max |input|`, which [`OpContext::mode`] then reports as missing).

use super::context::{DotInfo, OpContext};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{AccType, Accuracy, RoundingMode, ShapeRule, TosaOp};
use spvgraph_ir::{Id, Inst, Module};
use std::collections::BTreeMap;

/// The largest constant read for its values.
const CONSTANT_LIMIT: u64 = 1 << 24;

/// One entry per graph output (OutputIndex order, tensor arrays flattened in
/// ElementIndex order): the context of the operator that produced it, or
/// `None` when the output is not an operator result (a graph input or a
/// constant passed through), which is compared exactly.
pub fn output_contexts(
    module: &Module,
    entry: Option<&str>,
    inputs: &[TensorData],
    graph_constants: &BTreeMap<u32, TensorData>,
) -> Result<Vec<Option<OpContext>>, String> {
    let a = Analysis::new(module);
    let graph = select_graph(&a, entry)?;
    let view = a.graph(graph).ok_or_else(|| format!("{graph} is not a complete graph"))?;
    let Some(Type::Graph { inputs: input_types, .. }) = a.ty(view.ty) else {
        return Err(format!("the type of graph {graph} is not an OpTypeGraphARM"));
    };
    let mut first_position = Vec::with_capacity(input_types.len());
    let mut next = 0usize;
    for ty in &input_types {
        first_position.push(next);
        next += match a.ty(*ty) {
            Some(Type::Array { length: Some(n), .. }) => usize::try_from(n).unwrap_or(0),
            _ => 1,
        };
    }
    let data = Data { a: &a, inputs, graph_constants, first_position };
    Ok(output_values(&a, view).into_iter().map(|value| data.context_of(value)).collect())
}

/// The values a graph outputs, in OutputIndex order (ElementIndex within).
fn output_values(a: &Analysis<'_>, view: &spvgraph_ir::analysis::GraphView) -> Vec<Id> {
    let mut outputs: Vec<(u64, u64, Id)> = view
        .outputs
        .iter()
        .filter_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphSetOutput { value, output_index, element_index }) => {
                let index = a.const_uint(*output_index)?;
                let element = element_index.and_then(|e| a.const_uint(e)).unwrap_or(0);
                Some((index, element, *value))
            }
            _ => None,
        })
        .collect();
    outputs.sort_by_key(|&(i, e, _)| (i, e));
    outputs.into_iter().map(|(_, _, value)| value).collect()
}

/// One entry per graph output (order as [`output_contexts`]): whether an
/// operator *upstream* of the one that produced it (any operator its
/// operands depend on) has a floating-point result that the TOSA accuracy
/// rules do not define bit-exactly (ULP bounds wider than correct rounding,
/// EXP/SIN/... error bounds, dot products, float-to-float CAST, RESIZE,
/// REDUCE_PRODUCT, FFT, INEXACT_ROUND).
///
/// The compliance rules bound the error of the last operator given exact
/// operands; when its operands are themselves approximations, two compliant
/// implementations may legitimately differ by more (an ARGMAX over COS
/// results picks another index), so a mismatch of such an output between
/// two implementations proves nothing by itself.
pub fn inexact_upstream(module: &Module, entry: Option<&str>) -> Result<Vec<bool>, String> {
    let a = Analysis::new(module);
    let graph = select_graph(&a, entry)?;
    let view = a.graph(graph).ok_or_else(|| format!("{graph} is not a complete graph"))?;
    let mut memo: BTreeMap<Id, bool> = BTreeMap::new();
    Ok(output_values(&a, view)
        .into_iter()
        .map(|value| {
            producer(&a, value).is_some_and(|(_, args)| args.iter().any(|&x| depends_on_inexact(&a, x, &mut memo)))
        })
        .collect())
}

/// The TOSA instruction that computes `value` (through an
/// `OpCompositeExtract` of a two-result operator), with its operands.
fn producer<'m>(a: &Analysis<'m>, value: Id) -> Option<(&'m Inst, &'m [Id])> {
    match a.def(value)? {
        inst @ Inst::Tosa { args, .. } => Some((inst, args.as_slice())),
        Inst::CompositeExtract { composite, .. } => producer(a, *composite),
        _ => None,
    }
}

/// Whether `value` or anything it is computed from is an inexact floating-point result.
fn depends_on_inexact(a: &Analysis<'_>, value: Id, memo: &mut BTreeMap<Id, bool>) -> bool {
    if let Some(&known) = memo.get(&value) {
        return known;
    }
    // Cycles cannot occur in a valid graph; mark before recursing so an
    // invalid one cannot recurse forever.
    memo.insert(value, false);
    let result = match producer(a, value) {
        None => false,
        Some((inst, args)) => is_inexact(a, inst) || args.iter().any(|&x| depends_on_inexact(a, x, memo)),
    };
    memo.insert(value, result);
    result
}

/// Whether an operator's floating-point result is not defined bit-exactly.
fn is_inexact(a: &Analysis<'_>, inst: &Inst) -> bool {
    let Inst::Tosa { ty, op, args, .. } = inst else { return false };
    let elem_of = |id: Id| match a.ty(id) {
        Some(Type::Tensor(t)) => t.elem,
        Some(Type::Struct(members)) => members.first().and_then(|&m| a.tensor_type(m)).and_then(|t| t.elem),
        _ => None,
    };
    let Some(out) = elem_of(*ty) else { return true };
    // INEXACT_ROUND lets RESCALE round a tie either way: its integer result
    // is not defined bit-exactly either.
    if *op == TosaOp::Rescale {
        return args.get(1).and_then(|&m| a.const_uint(m)) == Some(RoundingMode::InexactRound as u64);
    }
    if !out.is_float() {
        return false;
    }
    let accuracy = match op.spec().accuracy {
        Accuracy::Cast => {
            let from = args.first().and_then(|&x| a.type_of(x)).and_then(elem_of);
            from.map_or(Accuracy::AsymmetricUlp { below: 1.0, above: 0.5 }, |f| Accuracy::for_cast(f, out))
        }
        other => other,
    };
    !matches!(accuracy, Accuracy::Exact) && !matches!(accuracy, Accuracy::Ulp(u) if u <= 0.5)
}

fn select_graph(a: &Analysis<'_>, entry: Option<&str>) -> Result<Id, String> {
    let mut names = Vec::new();
    for &i in &a.graph_entry_points {
        if let Some(Inst::GraphEntryPoint { graph, name, .. }) = a.module.insts.get(i) {
            if entry.is_none_or(|e| e == name) {
                return Ok(*graph);
            }
            names.push(name.as_str());
        }
    }
    match entry {
        Some(e) => Err(format!("no OpGraphEntryPointARM named {e:?} (the module has {names:?})")),
        None => a.graphs.first().map(|g| g.result).ok_or_else(|| "the module has no graph".into()),
    }
}

struct Data<'a, 'm> {
    a: &'a Analysis<'m>,
    inputs: &'a [TensorData],
    graph_constants: &'a BTreeMap<u32, TensorData>,
    first_position: Vec<usize>,
}

impl Data<'_, '_> {
    fn context_of(&self, value: Id) -> Option<OpContext> {
        match self.a.def(value)? {
            Inst::Tosa { ty, op: TosaOp::TransposeConv2d, args, .. } => {
                let ctx = self.op_context(TosaOp::TransposeConv2d, args, self.tensor_elem(*ty)?)?;
                Some(match self.extra_multiplies(args, value) {
                    Some(nan) => {
                        let mut unjudged = ctx.unjudged.clone();
                        unjudged.merge(&nan);
                        ctx.with_unjudged(unjudged)
                    }
                    None => ctx,
                })
            }
            Inst::Tosa { ty, op, args, .. } => self.op_context(*op, args, self.tensor_elem(*ty)?),
            Inst::CompositeExtract { ty, composite, .. } => match self.a.def(*composite)? {
                Inst::Tosa { op, args, .. } => self.op_context(*op, args, self.tensor_elem(*ty)?),
                _ => None,
            },
            _ => None,
        }
    }

    fn tensor_elem(&self, ty: Id) -> Option<ElemType> {
        self.a.tensor_type(ty)?.elem
    }

    fn shape(&self, value: Id) -> Option<Vec<u64>> {
        self.a.tensor_type(self.a.type_of(value)?)?.shape
    }

    fn elem(&self, value: Id) -> Option<ElemType> {
        let ty = self.a.type_of(value)?;
        match self.a.ty(ty)? {
            Type::Tensor(t) => t.elem,
            Type::Scalar(s) => ElemType::from_spirv(s),
            _ => None,
        }
    }

    /// The values of a tensor operand, when the graph gets them from outside.
    fn data(&self, value: Id) -> Option<TensorData> {
        match self.a.def(value)? {
            Inst::GraphInput { input_index, element_index, .. } => {
                let index = usize::try_from(self.a.const_uint(*input_index)?).ok()?;
                let element = match element_index {
                    Some(e) => usize::try_from(self.a.const_uint(*e)?).ok()?,
                    None => 0,
                };
                self.inputs.get(self.first_position.get(index)? + element).cloned()
            }
            Inst::GraphConstant { graph_constant_id, .. } => self.graph_constants.get(graph_constant_id).cloned(),
            _ => {
                let t = self.a.tensor_type(self.a.type_of(value)?)?;
                let bits = self.a.const_tensor_bits(value, CONSTANT_LIMIT)?;
                let shape: Vec<usize> = t.shape?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
                TensorData::from_bits(t.elem?, &shape, &bits).ok()
            }
        }
    }

    fn operand(&self, op: TosaOp, args: &[Id], name: &str) -> Option<Id> {
        let (i, _) = op.spec().operand_named(name)?;
        args.get(i).copied()
    }

    fn scalar(&self, op: TosaOp, args: &[Id], name: &str) -> Option<u64> {
        let id = self.operand(op, args, name)?;
        self.a.const_tensor_bits(id, 1)?.first().copied()
    }

    fn dim(&self, op: TosaOp, args: &[Id], name: &str, axis: usize) -> Option<u64> {
        self.shape(self.operand(op, args, name)?)?.get(axis).copied()
    }

    fn op_context(&self, op: TosaOp, args: &[Id], output: ElemType) -> Option<OpContext> {
        let spec = op.spec();
        let tensor_inputs: Vec<Id> = spec.inputs().filter_map(|(i, _)| args.get(i).copied()).collect();
        let input = tensor_inputs.first().and_then(|&v| self.elem(v)).unwrap_or(output);
        let mut ctx = OpContext::new(op, input, output);
        match spec.accuracy {
            Accuracy::DotProduct => {
                let special = tensor_inputs
                    .iter()
                    .filter_map(|&v| self.data(v))
                    .any(|t| t.elem().is_float() && t.to_f64().iter().any(|x| !x.is_finite()));
                ctx = ctx.with_special_inputs(special);
                if let Some(dot) = self.dot_info(op, args, output) {
                    ctx = ctx.with_dot(dot);
                }
            }
            Accuracy::Product => {
                let axis = usize::try_from(self.scalar(op, args, "axis")?).ok()?;
                ctx = ctx.with_reduce_n(self.dim(op, args, "input", axis)?);
                if let Some(t) = self.operand(op, args, "input").and_then(|v| self.data(v)) {
                    ctx = ctx.with_unjudged(super::reduce_product_unjudged(&t, axis, output));
                }
            }
            Accuracy::Relative => {
                if let Some(t) = self.operand(op, args, "input").and_then(|v| self.data(v)) {
                    ctx = ctx.with_max_abs_input(t.to_f64().iter().fold(0.0f64, |m, x| m.max(x.abs())));
                }
            }
            Accuracy::InexactRound => {
                let rounding = RoundingMode::from_u32(u32::try_from(self.scalar(op, args, "rounding_mode")?).ok()?)?;
                let unsigned = self.scalar(op, args, "output_unsigned")? != 0;
                ctx = ctx.with_rescale(rounding, unsigned);
            }
            // Judged from the operator and its types alone.
            Accuracy::Exact
            | Accuracy::Ulp(_)
            | Accuracy::AsymmetricUlp { .. }
            | Accuracy::AbsError(_)
            | Accuracy::Cast => {}
        }
        Some(ctx)
    }

    /// The elements of TRANSPOSE_CONV2D result `value` an optional extra
    /// multiply may make NaN ([`super::transpose_conv2d_nan_allowed`]), when
    /// its weights and geometry are known.
    fn extra_multiplies(&self, args: &[Id], value: Id) -> Option<super::Unjudged> {
        let op = TosaOp::TransposeConv2d;
        let dims4 = |s: Vec<u64>| -> Option<[usize; 4]> {
            let v: Vec<usize> = s.into_iter().map(|d| usize::try_from(d).ok()).collect::<Option<_>>()?;
            <[usize; 4]>::try_from(v).ok()
        };
        let input = dims4(self.shape(self.operand(op, args, "input")?)?)?;
        let output = dims4(self.shape(value)?)?;
        let weight = self.data(self.operand(op, args, "weight")?)?;
        if !weight.elem().is_float() {
            return None;
        }
        let [_, kh, kw, _] = dims4(weight.shape().iter().map(|&d| d as u64).collect())?;
        // I32Array attributes: 32-bit values; out_pad may be negative.
        let ints = |name: &str, n: u64| -> Option<Vec<i64>> {
            let bits = self.a.const_tensor_bits(self.operand(op, args, name)?, n)?;
            Some(bits.into_iter().map(|b| i64::from(b as u32 as i32)).collect())
        };
        let pad = ints("out_pad", 4)?;
        let stride = ints("stride", 2)?;
        // A floating-point weight_zp must be 0 (ERROR_IF); read it when known.
        let weight_zp = self
            .operand(op, args, "weight_zp")
            .and_then(|v| self.data(v))
            .and_then(|t| t.to_f64().first().copied())
            .unwrap_or(0.0);
        let g = super::TransposeGeometry {
            input,
            output,
            kernel: [kh, kw],
            out_pad: [*pad.first()?, *pad.get(2)?],
            stride: [*stride.first()?, *stride.get(1)?],
        };
        super::transpose_conv2d_nan_allowed(&g, &weight, weight_zp)
    }

    /// KS, the accumulator type and whether the bias is non-zero (§5.4).
    fn dot_info(&self, op: TosaOp, args: &[Id], output: ElemType) -> Option<DotInfo> {
        let spec = op.spec();
        let weight = |axes: &[usize]| -> Option<u64> {
            let s = self.shape(self.operand(op, args, "weight")?)?;
            spvgraph_ir::count::checked(axes.iter().map(|&i| s.get(i).copied()).collect::<Option<Vec<u64>>>()?)
        };
        let ks = match spec.shape {
            ShapeRule::Conv2d | ShapeRule::TransposeConv2d => weight(&[1, 2, 3])?,
            ShapeRule::Conv3d => weight(&[1, 2, 3, 4])?,
            ShapeRule::DepthwiseConv2d => weight(&[0, 1])?,
            ShapeRule::Matmul => self.dim(op, args, "A", 2)?,
            ShapeRule::Pool2d => {
                let k = self.a.const_tensor_bits(self.operand(op, args, "kernel")?, 2)?;
                spvgraph_ir::count::checked(k.iter().map(|&v| v & 0xffff_ffff))?
            }
            ShapeRule::Reduce => {
                let axis = usize::try_from(self.scalar(op, args, "axis")?).ok()?;
                self.dim(op, args, "input", axis)?
            }
            ShapeRule::Fft2d => spvgraph_ir::count::checked([
                2,
                self.dim(op, args, "input_real", 1)?,
                self.dim(op, args, "input_real", 2)?,
            ])?,
            ShapeRule::Rfft2d => spvgraph_ir::count::checked([
                self.dim(op, args, "input_real", 1)?,
                self.dim(op, args, "input_real", 2)?,
            ])?,
            // Not a dot product: no KS.
            ShapeRule::Identity
            | ShapeRule::Broadcast
            | ShapeRule::Argmax
            | ShapeRule::Concat
            | ShapeRule::Pad
            | ShapeRule::Reshape
            | ShapeRule::Slice
            | ShapeRule::Tile
            | ShapeRule::Transpose
            | ShapeRule::Gather
            | ShapeRule::Scatter
            | ShapeRule::Resize
            | ShapeRule::Table
            | ShapeRule::Rescale => return None,
        };
        let acc = match self.scalar(op, args, "acc_type") {
            Some(v) => AccType::from_u32(u32::try_from(v).ok()?)?.elem(),
            // No acc_type: MATMUL accumulates in its output type, REDUCE_SUM
            // too (bf16 in fp32), FFTs in fp32.
            None => match spec.shape {
                ShapeRule::Reduce if output == ElemType::Bf16 => ElemType::Fp32,
                ShapeRule::Fft2d | ShapeRule::Rfft2d => ElemType::Fp32,
                _ => output,
            },
        };
        let bias_nonzero = match self.operand(op, args, "bias") {
            None => false,
            Some(b) => self.data(b).is_none_or(|t| t.to_f64().iter().any(|&x| x != 0.0)),
        };
        let summed_before_division = spec.shape == ShapeRule::Pool2d;
        Some(DotInfo { ks, acc, bias_nonzero, test_set: -1, summed_before_division })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::builder::ModuleBuilder;

    /// `x -> EXP -> (EXP output, ARGMAX of it, ABS of x + x)`.
    fn graph() -> Module {
        let mut b = ModuleBuilder::new();
        let f = b.type_tensor(ElemType::Fp32, Some(&[4, 2]));
        let idx = b.type_tensor(ElemType::I32, Some(&[2]));
        let gty = b.type_graph(&[f], &[f, idx, f]);
        let vars: Vec<_> =
            [f, f, idx, f].iter().enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
        let axis = b.const_u32(0);
        let nan_mode = b.const_u32(1);
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "g", vars);
        let x = b.graph_input(f, 0, None);
        let e = b.tosa(TosaOp::Exp, f, vec![x]);
        let m = b.tosa(TosaOp::Argmax, idx, vec![axis, nan_mode, e]);
        let s = b.tosa(TosaOp::Add, f, vec![x, x]);
        let r = b.tosa(TosaOp::Abs, f, vec![s]);
        b.graph_output(e, 0, None);
        b.graph_output(m, 1, None);
        b.graph_output(r, 2, None);
        b.end_graph();
        b.finish()
    }

    #[test]
    fn only_outputs_computed_from_inexact_results_are_marked() {
        // EXP itself is the last operator (its bound applies); ARGMAX reads
        // EXP's approximation; ADD is correctly rounded, so ABS of it is exact.
        assert_eq!(inexact_upstream(&graph(), Some("g")), Ok(vec![false, true, false]));
        assert!(inexact_upstream(&graph(), Some("nope")).is_err());
    }
}
