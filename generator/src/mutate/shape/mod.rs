//! The shape mutation: change one dimension (or the rank) of a graph input,
//! or the shape-giving attribute of a RESHAPE, TILE, PAD or SLICE, and carry
//! the change forward through every consumer with the catalogue's shape
//! rules ([`infer_shapes`]).
//!
//! A change is planned before anything is written, node by node in graph
//! order:
//! - a node whose rule holds with the new operand shapes gets the inferred
//!   result shape (element-wise, unary, broadcasting binaries, CAST,
//!   reductions, ARGMAX, CONCAT, pooling and convolutions on the batch
//!   dimension, MATMUL, GATHER/SCATTER on N, ...);
//! - a node whose rule fails but whose attribute can be re-fitted gets a new
//!   attribute constant: RESHAPE's `shape` (keep the rank, one dimension
//!   absorbs the new element count), SLICE's `start`/`size` (clamped into the
//!   new input), TILE's `multiples`, PAD's `padding` and TRANSPOSE's `perms`
//!   (re-fitted to a new rank);
//! - a node whose rule fails because another operand did not change with the
//!   first (an ADD of two graph inputs, a CONCAT on a non-axis dimension)
//!   makes that other operand follow, when it comes from a graph input
//!   through shape-preserving nodes, or is a tensor constant (rebuilt in the
//!   new shape with its elements repeated in order): the dimensions it
//!   shared with the changed operand's old shape take the new sizes, and
//!   planning starts over with both changed;
//! - anything else (a weight whose channel count no longer matches, a
//!   stride that no longer divides, an FFT, an array input) gives up, and
//!   the caller's retry loop picks another mutation.
//!
//! The plan is then applied with the reducer's editing helpers: graph input
//! types, graph type and interface variables (`reshape_input`), new
//! attribute and tensor constants (`decls`), read in this graph only, every result type and graph
//! output re-inferred (`shapes::retype_graph`), and the declarations the
//! edit left unused removed (`graph::finish`).

mod origin;
mod plan;
#[cfg(test)]
mod tests;

use crate::prng::SplitMix64;
use origin::{attribute_origin, input_origin};
use plan::plan;
use spvgraph_ir::analysis::{Analysis, GraphView};
use spvgraph_ir::decls;
use spvgraph_ir::edit::graph::{finish, span, Baseline};
use spvgraph_ir::edit::reshape::reshape_input;
use spvgraph_ir::edit::{shapes, Candidate};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::collections::{BTreeMap, HashMap};

/// Largest dimension a change creates: small tensors keep every later check
/// (and the executor, for other targets) fast, and stay far from the level
/// limits.
const MAX_DIM: u32 = 16;

/// How many times another graph input may be made to follow before the
/// attempt gives up.
const MAX_ROUNDS: usize = 6;

/// How far back a value is traced through shape-preserving nodes to find
/// the graph input it comes from.
const MAX_TRACE: usize = 16;

/// What a shape change did, for tests and logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeChange {
    /// The graph changed.
    pub graph: Id,
    /// The value whose shape the change started from: a graph input's
    /// `OpGraphInputARM` result, or the result of the node whose attribute
    /// changed.
    pub value: Id,
    /// Its shape before.
    pub before: Vec<u32>,
    /// Its shape after.
    pub after: Vec<u32>,
    /// How many values of the graph got a new shape (the start included).
    pub reshaped: usize,
    /// How many other graph inputs had to follow.
    pub followers: usize,
}

/// Where a change starts.
enum Origin {
    /// Graph input `index` (read by `value`) gets the shape `to`.
    Input { index: u32, value: Id, from: Vec<u32>, to: Vec<u32> },
    /// Operand `operand` of the node with result `node` gets `values`.
    Attribute { node: Id, operand: usize, values: Vec<i64> },
}

/// Attribute values a plan writes, by (node result, operand index).
type Attrs = BTreeMap<(Id, usize), Vec<i64>>;

/// A value a change starts from, or that must follow one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Leaf {
    /// Graph input `InputIndex`.
    Input(u32),
    /// A tensor constant (`OpConstantComposite`, `OpConstantNull`,
    /// `OpConstantCompositeReplicateEXT`), replaced in this graph by one of
    /// the new shape.
    Constant(Id),
}

/// The new shapes of the leaves.
type Leaves = BTreeMap<Leaf, Vec<u32>>;

/// Why an attempt gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stop {
    /// The graph has nothing to change (no graph input with a known shape,
    /// no RESHAPE/TILE/PAD/SLICE), or the change drew was no change.
    NoSite,
    /// This operator's shape rule could not be met with the new shapes.
    Rule(TosaOp),
    /// Another graph input would have had to follow more than allowed, or
    /// twice with different shapes.
    Followers,
    /// A changed value is written to an element of a tensor-array output
    /// (the array type would have to change for one element).
    ArrayOutput,
    /// The reducer's editing helpers could not write the plan.
    Apply,
}

/// What a planning pass concluded.
enum Outcome {
    /// Every node follows; the attributes to write and the new shapes.
    Consistent { attrs: Attrs, shapes: HashMap<Id, Vec<u32>> },
    /// `leaf` must take this shape too.
    Follow { leaf: Leaf, shape: Vec<u32> },
}

/// `module` with one shape change applied through its graph, or `None` when
/// the module has nothing to change or the change cannot be carried through
/// consistently.
pub fn change_shape(module: &Module, rng: &mut SplitMix64) -> Option<(Module, ShapeChange)> {
    attempt(module, rng).ok()
}

/// [`change_shape`], saying why it gave up.
pub fn attempt(module: &Module, rng: &mut SplitMix64) -> Result<(Module, ShapeChange), Stop> {
    let a = Analysis::new(module);
    let graphs: Vec<&GraphView> = a.graphs.iter().filter(|g| !g.body.is_empty()).collect();
    let view = *graphs.get(rng.below(graphs.len() as u64) as usize).ok_or(Stop::NoSite)?;
    let origin = if rng.chance(0.5) {
        input_origin(&a, view, rng).or_else(|| attribute_origin(&a, view, rng))
    } else {
        attribute_origin(&a, view, rng).or_else(|| input_origin(&a, view, rng))
    }
    .ok_or(Stop::NoSite)?;
    carry(&Candidate::new(module.clone()), &a, view, origin, rng).map(|(c, change)| (c.module, change))
}

/// Graph input `k` of graph `g` of `c` given the shape `to`, carried
/// through the graph as [`attempt`] carries a change (attributes re-fitted,
/// other inputs and constants made to follow), with the candidate's data
/// cut to the new shapes: the reducer's shape shrinking through the shape
/// rules. [`Stop::NoSite`] when `g` has no such input with a known shape,
/// or `to` is its shape already.
pub fn carry_input_shape(
    c: &Candidate,
    g: Id,
    k: u32,
    to: &[u32],
    rng: &mut SplitMix64,
) -> Result<(Candidate, ShapeChange), Stop> {
    let a = Analysis::new(&c.module);
    let view = a.graphs.iter().find(|v| v.result == g).ok_or(Stop::NoSite)?;
    let (index, value, from) =
        origin::graph_inputs(&a, view).into_iter().find(|(i, _, _)| *i == k).ok_or(Stop::NoSite)?;
    if from == to {
        return Err(Stop::NoSite);
    }
    carry(c, &a, view, Origin::Input { index, value, from, to: to.to_vec() }, rng)
}

/// Plans `origin` through the graph of `view` (an analysis of `c.module`)
/// and writes the plan into a copy of `c`.
fn carry(
    c: &Candidate,
    a: &Analysis<'_>,
    view: &GraphView,
    origin: Origin,
    rng: &mut SplitMix64,
) -> Result<(Candidate, ShapeChange), Stop> {
    let mut leaves = Leaves::new();
    let mut seed_attrs = Attrs::new();
    match &origin {
        Origin::Input { index, to, .. } => {
            leaves.insert(Leaf::Input(*index), to.clone());
        }
        Origin::Attribute { node, operand, values } => {
            seed_attrs.insert((*node, *operand), values.clone());
        }
    }
    let mut followers = 0;
    let (attrs, new_shapes) = loop {
        match plan(a, view, &leaves, &seed_attrs, rng)? {
            Outcome::Consistent { attrs, shapes } => break (attrs, shapes),
            Outcome::Follow { leaf, shape } => {
                if followers == MAX_ROUNDS || leaves.contains_key(&leaf) {
                    return Err(Stop::Followers);
                }
                leaves.insert(leaf, shape);
                followers += 1;
            }
        }
    };
    let (value, before, after) = match origin {
        Origin::Input { value, from, to, .. } => (value, from, to),
        Origin::Attribute { node, .. } => {
            let before = shapes::declared_shape(a, node).ok_or(Stop::NoSite)?;
            let after = new_shapes.get(&node).ok_or(Stop::NoSite)?.clone();
            (node, before, after)
        }
    };
    let change = ShapeChange { graph: view.result, value, before, after, reshaped: new_shapes.len(), followers };
    let out = apply(c, view.result, &leaves, &attrs).ok_or(Stop::Apply)?;
    Ok((out, change))
}

/// Writes a consistent plan into a copy of `c`.
fn apply(c: &Candidate, g: Id, leaves: &Leaves, attrs: &Attrs) -> Option<Candidate> {
    let mut c = c.clone();
    let base = Baseline::of(&c);
    let mut replaced: HashMap<Id, Id> = HashMap::new();
    for (&leaf, shape) in leaves {
        match leaf {
            Leaf::Input(k) => reshape_input(&mut c, g, k, shape)?,
            Leaf::Constant(v) => {
                replaced.insert(v, reshaped_constant(&mut c.module, v, shape)?);
            }
        }
    }
    let mut constants: HashMap<(Id, usize), Id> = HashMap::new();
    for (&key, values) in attrs {
        constants.insert(key, decls::i32_vector(&mut c.module, values));
    }
    let (begin, end) = span(&c.module, g)?;
    for inst in c.module.insts.iter_mut().take(end + 1).skip(begin) {
        if let Inst::Tosa { result, args, .. } = inst {
            for (k, arg) in args.iter_mut().enumerate() {
                if let Some(&id) = constants.get(&(*result, k)).or_else(|| replaced.get(arg)) {
                    *arg = id;
                }
            }
        }
    }
    shapes::retype_graph(&mut c, g)?;
    finish(&mut c, &base)?;
    Some(c)
}

/// Most elements of a constant the change rebuilds.
const MAX_CONSTANT: u64 = 4096;

/// A constant like `v` with shape `shape`: its elements repeated in order
/// (a null or replicated constant stays one).
fn reshaped_constant(m: &mut Module, v: Id, shape: &[u32]) -> Option<Id> {
    let (ty, def, elem, bits) = {
        let a = Analysis::new(m);
        let ty = a.type_of(v)?;
        let bits = a.const_tensor_bits(v, MAX_CONSTANT);
        (ty, a.def(v)?.clone(), a.tensor_type(ty)?.elem, bits)
    };
    let t = decls::reshaped_tensor_type(m, ty, shape)?;
    match def {
        Inst::ConstantNull { .. } => Some(decls::null(m, t)),
        Inst::ConstantCompositeReplicate { constituent, .. } => Some(decls::replicate(m, t, constituent)),
        Inst::ConstantComposite { .. } => {
            let bits = bits?;
            let count =
                shape.iter().try_fold(1u64, |n, &d| n.checked_mul(u64::from(d))).filter(|&n| n <= MAX_CONSTANT)?;
            let tiled: Vec<u64> =
                (0..count as usize).map(|i| bits.get(i % bits.len().max(1)).copied()).collect::<Option<_>>()?;
            decls::tensor_constant(m, t, elem?, shape, &tiled)
        }
        _ => None,
    }
}

/// Whether `v` is a tensor constant [`reshaped_constant`] can rebuild.
fn rebuildable_constant(a: &Analysis<'_>, v: Id) -> bool {
    matches!(
        a.def(v),
        Some(
            Inst::ConstantNull { .. }
                | Inst::ConstantCompositeReplicate { spec: false, .. }
                | Inst::ConstantComposite { spec: false, .. }
        )
    ) && a.type_of(v).and_then(|t| a.tensor_type(t)).is_some()
}
