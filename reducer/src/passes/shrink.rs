//! Shrinking tensor shapes: a dimension of a graph input or of a tensor
//! constant fed to a node becomes 1 (or half its size), the data keeps its
//! leading elements, and every result shape of the graph is re-inferred
//! through the catalogue's shape rules.

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::decls;
use crate::graph::{self, Baseline};
use crate::shapes;
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::edit::reshape::{corner, reshape_input, sliced};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::Form;
use std::collections::{BTreeMap, HashMap};

/// Shrinks one dimension of a graph input or tensor constant at a time.
pub struct ShrinkShapes {
    /// Halve the dimension (rounding up) instead of making it 1.
    pub halve: bool,
}

/// What gets a new shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Leaf {
    /// Input `k` of graph `g`.
    Input(Id, u32),
    /// A tensor constant read by nodes of graph `g`.
    Constant(Id, Id),
}

impl Leaf {
    fn graph(self) -> Id {
        match self {
            Leaf::Input(g, _) | Leaf::Constant(g, _) => g,
        }
    }
}

fn target(d: u32, halve: bool) -> u32 {
    if halve {
        d.div_ceil(2)
    } else {
        1
    }
}

/// Every `(leaf, dimension)` whose size the pass would change, with the
/// leaf's current shape.
fn atoms(c: &Candidate, halve: bool) -> Vec<(Leaf, usize, Vec<u32>)> {
    let a = Analysis::new(&c.module);
    let mut leaves: BTreeMap<Leaf, Vec<u32>> = BTreeMap::new();
    let mut order: Vec<Leaf> = Vec::new();
    for g in &a.graphs {
        let Some(Type::Graph { inputs, .. }) = a.ty(g.ty) else { continue };
        for (k, &t) in inputs.iter().enumerate() {
            // A tensor-array input shrinks its element type.
            let t = match a.ty(t) {
                Some(Type::Array { element, .. }) => element,
                _ => t,
            };
            if let Some(shape) = a.tensor_type(t).and_then(|t| t.shape) {
                let leaf = Leaf::Input(g.result, k as u32);
                leaves.insert(leaf, shape.iter().map(|&d| d as u32).collect());
                order.push(leaf);
            }
        }
        for &i in &g.body {
            let Some(Inst::Tosa { op, args, .. }) = c.module.insts.get(i) else { continue };
            let spec = op.spec();
            for (k, &v) in args.iter().enumerate() {
                if !matches!(spec.operand(k).map(|o| o.form), Some(Form::Tensor { .. })) {
                    continue;
                }
                let is_const = a.def(v).is_some_and(|d| d.is_constant());
                let leaf = Leaf::Constant(g.result, v);
                if is_const && !leaves.contains_key(&leaf) {
                    if let Some(s) = shapes::declared_shape(&a, v) {
                        leaves.insert(leaf, s);
                        order.push(leaf);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for leaf in order {
        let shape = &leaves[&leaf];
        for (d, &n) in shape.iter().enumerate() {
            if target(n, halve) != n {
                out.push((leaf, d, shape.clone()));
            }
        }
    }
    out
}

impl Pass for ShrinkShapes {
    fn name(&self) -> &'static str {
        if self.halve {
            "halve-shapes"
        } else {
            "shapes-to-one"
        }
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        atoms(c, self.halve).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let chosen = pick(&atoms(c, self.halve), chosen);
        let mut new_shapes: BTreeMap<Leaf, Vec<u32>> = BTreeMap::new();
        for (leaf, d, shape) in chosen {
            let s = new_shapes.entry(leaf).or_insert(shape);
            if let Some(x) = s.get_mut(d) {
                *x = target(*x, self.halve);
            }
        }
        let base = Baseline::of(c);
        let mut out = c.clone();
        let mut graphs: Vec<Id> = Vec::new();
        for (leaf, shape) in &new_shapes {
            match *leaf {
                Leaf::Input(g, k) => reshape_input(&mut out, g, k, shape)?,
                Leaf::Constant(g, v) => reshape_constant(&mut out, g, v, shape)?,
            }
            if !graphs.contains(&leaf.graph()) {
                graphs.push(leaf.graph());
            }
        }
        for g in graphs {
            shapes::retype_graph(&mut out, g)?;
        }
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}

fn reshape_constant(c: &mut Candidate, g: Id, v: Id, shape: &[u32]) -> Option<()> {
    let (ty, def) = {
        let a = Analysis::new(&c.module);
        (a.type_of(v)?, a.def(v)?.clone())
    };
    let t = decls::reshaped_tensor_type(&mut c.module, ty, shape)?;
    let replacement = match def {
        Inst::ConstantNull { .. } => decls::null(&mut c.module, t),
        Inst::ConstantCompositeReplicate { constituent, .. } => decls::replicate(&mut c.module, t, constituent),
        Inst::ConstantComposite { .. } => {
            let (elem, old_shape, bits) = {
                let a = Analysis::new(&c.module);
                let tt = a.tensor_type(ty)?;
                let old: Vec<usize> = tt.shape?.iter().map(|&d| d as usize).collect();
                (tt.elem?, old, a.const_tensor_bits(v, 1 << 20)?)
            };
            let new: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
            let bits = corner(&bits, &old_shape, &new)?;
            decls::tensor_constant(&mut c.module, t, elem, shape, &bits)?
        }
        Inst::GraphConstant { graph_constant_id, .. } => {
            // Retyped in place; its data keeps the leading corner.
            for inst in &mut c.module.insts {
                if let Inst::GraphConstant { ty: gt, result, .. } = inst {
                    if *result == v {
                        *gt = t;
                    }
                }
            }
            if let Some(data) = c.graph_constants.get(&graph_constant_id) {
                let s = sliced(data, shape)?;
                c.graph_constants.insert(graph_constant_id, s);
            }
            v
        }
        _ => return None,
    };
    let map: HashMap<Id, Id> = [(v, replacement)].into_iter().collect();
    let (begin, end) = graph::span(&c.module, g)?;
    for inst in c.module.insts.iter_mut().take(end + 1).skip(begin) {
        if let Inst::Tosa { op, args, .. } = inst {
            let spec = op.spec();
            for (k, a) in args.iter_mut().enumerate() {
                if matches!(spec.operand(k).map(|o| o.form), Some(Form::Tensor { .. })) {
                    if let Some(&to) = map.get(a) {
                        *a = to;
                    }
                }
            }
        }
    }
    Some(())
}
