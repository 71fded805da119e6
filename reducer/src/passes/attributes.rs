//! Attributes towards their plainest values: strides, dilations, kernels
//! and multiples 1; pads, starts, offsets and borders 0; identity
//! permutations; axis 0; the first value of every enum (PROPAGATE,
//! NEAREST_NEIGHBOR, SINGLE_ROUND, INT32); bools false. Result shapes are
//! re-inferred, so a pad or stride change flows through the graph.

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::decls;
use crate::graph::{self, Baseline};
use crate::shapes;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::Form;

/// Sets attributes to their plainest values.
pub struct SimplifyAttributes;

/// The plainest value of an attribute operand.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Plain {
    /// A `u32` constant (axis, enum).
    Scalar(u32),
    /// A bool constant.
    Bool(bool),
    /// A rank-1 i32 tensor constant.
    Vector(Vec<i64>),
}

/// The plain value for operand `name` of form `form` whose current value is
/// `current` (`None` when it is already plain or has no plain value).
fn plain(name: &str, form: Form, a: &Analysis<'_>, v: Id) -> Option<Plain> {
    let p = match form {
        Form::AxisConst { .. } => Plain::Scalar(0),
        Form::EnumConst(_) => Plain::Scalar(1),
        Form::BoolConst => Plain::Bool(false),
        Form::I32Array { .. } => {
            let current: Vec<i64> =
                a.const_tensor_bits(v, 1 << 12)?.into_iter().map(|b| i64::from(b as u32 as i32)).collect();
            let n = current.len();
            let want: Vec<i64> = match name {
                "stride" | "dilation" | "kernel" | "multiples" => vec![1; n],
                "pad" | "out_pad" | "padding" | "start" | "offset" | "border" => vec![0; n],
                "perms" => (0..n as i64).collect(),
                _ => return None,
            };
            return (current != want).then_some(Plain::Vector(want));
        }
        Form::ScalarConst { .. } | Form::ConstTensor { .. } | Form::Tensor { .. } => return None,
    };
    let current = match a.def(v)? {
        Inst::Constant { value, spec: false, .. } => Plain::Scalar(value.first().copied().unwrap_or(0)),
        Inst::ConstantTrue { .. } => Plain::Bool(true),
        Inst::ConstantFalse { .. } => Plain::Bool(false),
        Inst::ConstantNull { .. } => match p {
            Plain::Bool(_) => Plain::Bool(false),
            _ => Plain::Scalar(0),
        },
        _ => return None,
    };
    (current != p).then_some(p)
}

/// `(graph, node result, operand index, plain value)`.
fn atoms(c: &Candidate) -> Vec<(Id, Id, usize, Plain)> {
    let a = Analysis::new(&c.module);
    let mut out = Vec::new();
    for g in &a.graphs {
        for &i in &g.body {
            let Some(Inst::Tosa { result, op, args, .. }) = c.module.insts.get(i) else { continue };
            let spec = op.spec();
            for (k, &v) in args.iter().enumerate() {
                let Some(o) = spec.operand(k) else { continue };
                if let Some(p) = plain(o.name, o.form, &a, v) {
                    out.push((g.result, *result, k, p));
                }
            }
        }
    }
    out
}

impl Pass for SimplifyAttributes {
    fn name(&self) -> &'static str {
        "simplify-attributes"
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        atoms(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let chosen = pick(&atoms(c), chosen);
        let base = Baseline::of(c);
        let mut out = c.clone();
        let mut graphs = Vec::new();
        for (g, node, k, p) in chosen {
            let id = match p {
                Plain::Scalar(v) => decls::const_u32(&mut out.module, v),
                Plain::Bool(b) => decls::const_bool(&mut out.module, b),
                Plain::Vector(v) => decls::i32_vector(&mut out.module, &v),
            };
            for inst in &mut out.module.insts {
                if let Inst::Tosa { result, args, .. } = inst {
                    if *result == node {
                        *args.get_mut(k)? = id;
                    }
                }
            }
            if !graphs.contains(&g) {
                graphs.push(g);
            }
        }
        for g in graphs {
            shapes::retype_graph(&mut out, g)?;
        }
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}
