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

use spvgraph_generator::prng::SplitMix64;
use spvgraph_ir::analysis::{Analysis, GraphView};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{infer_shapes, Form, ShapeArg, ShapeInputs, ShapeRule, TosaOp, MAX_RANK};
use spvgraph_ir::Module;
use spvgraph_reducer::graph::{finish, Baseline};
use spvgraph_reducer::passes::reshape_input;
use spvgraph_reducer::{decls, shapes, Candidate};
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
        match plan(&a, view, &leaves, &seed_attrs, rng)? {
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
            let before = shapes::declared_shape(&a, node).ok_or(Stop::NoSite)?;
            let after = new_shapes.get(&node).ok_or(Stop::NoSite)?.clone();
            (node, before, after)
        }
    };
    let change = ShapeChange { graph: view.result, value, before, after, reshaped: new_shapes.len(), followers };
    let out = apply(module, view.result, &leaves, &attrs).ok_or(Stop::Apply)?;
    Ok((out, change))
}

/// Writes a consistent plan into a copy of `module`.
fn apply(module: &Module, g: Id, leaves: &Leaves, attrs: &Attrs) -> Option<Module> {
    let mut c = Candidate::new(module.clone());
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
    let (begin, end) = spvgraph_reducer::graph::span(&c.module, g)?;
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
    Some(c.module)
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

/// Graph input `index` read by a non-array `OpGraphInputARM` with a known
/// shape, as `(index, reading value, shape)`.
fn graph_inputs(a: &Analysis<'_>, view: &GraphView) -> Vec<(u32, Id, Vec<u32>)> {
    view.inputs
        .iter()
        .filter_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphInput { result, input_index, element_index: None, .. }) => {
                let k = u32::try_from(a.const_uint(*input_index)?).ok()?;
                Some((k, *result, shapes::declared_shape(a, *result)?))
            }
            _ => None,
        })
        .collect()
}

fn input_origin(a: &Analysis<'_>, view: &GraphView, rng: &mut SplitMix64) -> Option<Origin> {
    let candidates = graph_inputs(a, view);
    let (index, value, from) = candidates.get(rng.below(candidates.len() as u64) as usize)?.clone();
    let to = new_dims(&from, rng)?;
    Some(Origin::Input { index, value, from, to })
}

/// `shape` with one dimension resized, or a unit dimension added or removed.
fn new_dims(shape: &[u32], rng: &mut SplitMix64) -> Option<Vec<u32>> {
    let mut out = shape.to_vec();
    let rank = shape.len();
    match rng.below(6) {
        0 if rank < MAX_RANK as usize => {
            out.insert(rng.below(rank as u64 + 1) as usize, 1);
            return Some(out);
        }
        1 if rank > 1 && shape.contains(&1) => {
            let units: Vec<usize> = (0..rank).filter(|&d| shape[d] == 1).collect();
            out.remove(*units.get(rng.below(units.len() as u64) as usize)?);
            return Some(out);
        }
        _ => {}
    }
    let d = rng.below(rank as u64) as usize;
    let old = *shape.get(d)?;
    let options: Vec<u32> = [1, 2, 3, 4, old.saturating_add(1), old.saturating_sub(1), old.saturating_mul(2), old / 2]
        .into_iter()
        .filter(|&v| (1..=MAX_DIM).contains(&v) && v != old)
        .collect();
    *out.get_mut(d)? = *options.get(rng.below(options.len() as u64) as usize)?;
    Some(out)
}

/// The shape-rule view of node `args` with `shape_of` for tensor operands.
fn node_inputs(a: &Analysis<'_>, op: TosaOp, args: &[Id], new: &HashMap<Id, Vec<u32>>) -> ShapeInputs {
    let shape_of = |v: Id| new.get(&v).cloned().or_else(|| shapes::declared_shape(a, v));
    shapes::shape_inputs(a, op, args, &shape_of)
}

fn attribute_origin(a: &Analysis<'_>, view: &GraphView, rng: &mut SplitMix64) -> Option<Origin> {
    let none = HashMap::new();
    let mut sites: Vec<(Id, TosaOp, ShapeInputs)> = Vec::new();
    for &i in &view.body {
        let Some(Inst::Tosa { result, op, args, .. }) = a.module.insts.get(i) else { continue };
        if matches!(op.spec().shape, ShapeRule::Reshape | ShapeRule::Tile | ShapeRule::Pad | ShapeRule::Slice) {
            let inputs = node_inputs(a, *op, args, &none);
            if infer_shapes(*op, &inputs).is_ok() {
                sites.push((*result, *op, inputs));
            }
        }
    }
    let (node, op, inputs) = sites.get(rng.below(sites.len() as u64) as usize)?;
    let (operand, values) = new_attribute(*op, inputs, rng)?;
    Some(Origin::Attribute { node: *node, operand, values })
}

/// The values of integer operand `name`, with its index.
fn ints_named<'i>(op: TosaOp, inputs: &'i ShapeInputs, name: &str) -> Option<(usize, &'i [i64])> {
    let (k, _) = op.spec().operand_named(name)?;
    match inputs.args.get(k)? {
        ShapeArg::Ints(v) => Some((k, v)),
        _ => None,
    }
}

fn tensor_named<'i>(op: TosaOp, inputs: &'i ShapeInputs, name: &str) -> Option<&'i [u32]> {
    let (k, _) = op.spec().operand_named(name)?;
    match inputs.args.get(k)? {
        ShapeArg::Tensor(s) => Some(s),
        _ => None,
    }
}

/// A new value for the shape-giving attribute of a RESHAPE, TILE, PAD or
/// SLICE whose rule holds: `(operand index, values)`.
fn new_attribute(op: TosaOp, inputs: &ShapeInputs, rng: &mut SplitMix64) -> Option<(usize, Vec<i64>)> {
    let pick = |n: usize, rng: &mut SplitMix64| rng.below(n as u64) as usize;
    match op.spec().shape {
        ShapeRule::Reshape => {
            let (k, shape) = ints_named(op, inputs, "shape")?;
            Some((k, refactor(shape, rng)?))
        }
        ShapeRule::Tile => {
            let (k, multiples) = ints_named(op, inputs, "multiples")?;
            Some((k, toggle_one(multiples, 1, rng)?))
        }
        ShapeRule::Pad => {
            let (k, padding) = ints_named(op, inputs, "padding")?;
            Some((k, toggle_one(padding, 0, rng)?))
        }
        ShapeRule::Slice => {
            let input = tensor_named(op, inputs, "input1")?;
            let (_, start) = ints_named(op, inputs, "start")?;
            let (k, size) = ints_named(op, inputs, "size")?;
            // Dimensions where the window has room for another size.
            let room = |d: usize| Some(i64::from(*input.get(d)?) - *start.get(d)?);
            let dims: Vec<usize> = (0..input.len()).filter(|&d| room(d).is_some_and(|r| r > 1)).collect();
            let d = *dims.get(pick(dims.len(), rng))?;
            // Any size in 1..=room but the current one (room may be huge).
            let old = *size.get(d)?;
            let drawn = 1 + rng.below(u64::try_from(room(d)? - 1).ok()?) as i64;
            let mut v = size.to_vec();
            *v.get_mut(d)? = if drawn >= old { drawn + 1 } else { drawn };
            Some((k, v))
        }
        _ => None,
    }
}

/// Another shape with the same element count as `shape`: a dimension split
/// in two, two neighbours merged, or a prime factor moved between two
/// `values` with one entry moved off `neutral` (to `neutral` + 1 or + 2),
/// or back to it when it was elsewhere: a TILE multiple of 1 or a PAD of 0
/// is where a change of the output shape starts or ends.
fn toggle_one(values: &[i64], neutral: i64, rng: &mut SplitMix64) -> Option<Vec<i64>> {
    let mut v = values.to_vec();
    let at = rng.below(v.len() as u64) as usize;
    let slot = v.get_mut(at)?;
    *slot = if *slot == neutral { neutral + 1 + rng.below(2) as i64 } else { neutral };
    Some(v)
}

/// dimensions.
fn refactor(shape: &[i64], rng: &mut SplitMix64) -> Option<Vec<i64>> {
    if shape.iter().any(|&d| d < 1) {
        return None;
    }
    let rank = shape.len();
    let mut out = shape.to_vec();
    for _ in 0..4 {
        match rng.below(3) {
            0 if rank < MAX_RANK as usize => {
                let d = rng.below(rank as u64) as usize;
                let n = *shape.get(d)?;
                if let Some(f) = smallest_factor(n) {
                    out.splice(d..=d, [f, n / f]);
                    return Some(out);
                }
            }
            1 if rank > 1 => {
                let d = rng.below(rank as u64 - 1) as usize;
                let merged = shape.get(d)?.checked_mul(*shape.get(d + 1)?)?;
                out.splice(d..=d + 1, [merged]);
                return Some(out);
            }
            _ if rank > 1 => {
                let from = rng.below(rank as u64) as usize;
                let to = (from + 1 + rng.below(rank as u64 - 1) as usize) % rank;
                if let Some(f) = smallest_factor(*shape.get(from)?) {
                    *out.get_mut(from)? /= f;
                    *out.get_mut(to)? *= f;
                    return Some(out);
                }
            }
            _ => {}
        }
    }
    None
}

/// The smallest factor of `n` above 1 and below `n`.
fn smallest_factor(n: i64) -> Option<i64> {
    (2..n).take_while(|f| f * f <= n).find(|f| n % f == 0)
}

/// One pass over the graph in order with the inputs changed as `inputs`
/// and the seed attributes set; `None` when a node's rule cannot be met.
fn plan(
    a: &Analysis<'_>,
    view: &GraphView,
    leaves: &Leaves,
    seed_attrs: &Attrs,
    rng: &mut SplitMix64,
) -> Result<Outcome, Stop> {
    let mut new: HashMap<Id, Vec<u32>> = HashMap::new();
    for (k, value, _) in graph_inputs(a, view) {
        if let Some(s) = leaves.get(&Leaf::Input(k)) {
            new.insert(value, s.clone());
        }
    }
    for (leaf, s) in leaves {
        if let Leaf::Constant(v) = leaf {
            new.insert(*v, s.clone());
        }
    }
    let mut attrs = seed_attrs.clone();
    for &i in &view.body {
        let (ty, result, op, args) = match a.module.insts.get(i) {
            Some(Inst::Tosa { ty, result, op, args, .. }) => (*ty, *result, *op, args),
            // A struct result (FFT2D) whose parts would change.
            Some(Inst::CompositeExtract { composite, .. }) if new.contains_key(composite) => {
                return Err(Stop::Rule(TosaOp::Fft2d))
            }
            _ => continue,
        };
        let seeded: Vec<usize> = attrs.keys().filter(|(n, _)| *n == result).map(|&(_, k)| k).collect();
        if seeded.is_empty() && !args.iter().any(|x| new.contains_key(x)) {
            continue;
        }
        let mut si = node_inputs(a, op, args, &new);
        for k in seeded {
            if let (Some(slot), Some(v)) = (si.args.get_mut(k), attrs.get(&(result, k))) {
                *slot = ShapeArg::Ints(v.clone());
            }
        }
        let stop = Stop::Rule(op);
        let out = match infer_shapes(op, &si) {
            Ok(out) => out,
            Err(_) => match refit(op, &si, rng) {
                Some(fixes) => {
                    for (k, v) in fixes {
                        *si.args.get_mut(k).ok_or(stop)? = ShapeArg::Ints(v.clone());
                        attrs.insert((result, k), v);
                    }
                    infer_shapes(op, &si).map_err(|_| stop)?
                }
                None => {
                    let (leaf, shape) = follower(a, view, op, args, &new).ok_or(stop)?;
                    return Ok(Outcome::Follow { leaf, shape });
                }
            },
        };
        // Struct results (FFT2D, RFFT2D) are not retyped.
        let [shape] = out.as_slice() else { return Err(stop) };
        a.tensor_type(ty).ok_or(stop)?;
        if shapes::declared_shape(a, result).as_ref() != Some(shape) {
            if shape.iter().any(|&d| d > MAX_DIM * MAX_DIM) {
                return Err(stop);
            }
            new.insert(result, shape.clone());
        }
    }
    for &i in &view.outputs {
        if let Some(Inst::GraphSetOutput { value, element_index: Some(_), .. }) = a.module.insts.get(i) {
            if new.contains_key(value) {
                return Err(Stop::ArrayOutput);
            }
        }
    }
    Ok(Outcome::Consistent { attrs, shapes: new })
}

/// New attribute values that make `op`'s rule hold again after its input
/// changed: `(operand index, values)` for each operand to rewrite.
fn refit(op: TosaOp, si: &ShapeInputs, rng: &mut SplitMix64) -> Option<Vec<(usize, Vec<i64>)>> {
    let input = tensor_named(op, si, "input1")?;
    let rank = input.len();
    match op.spec().shape {
        ShapeRule::Reshape => {
            let (k, shape) = ints_named(op, si, "shape")?;
            let count = input.iter().try_fold(1i64, |acc, &d| acc.checked_mul(i64::from(d)))?;
            let total = shape.iter().try_fold(1i64, |acc, &d| if d >= 1 { acc.checked_mul(d) } else { None })?;
            // One dimension absorbs the new count; otherwise the last takes all of it.
            let fits: Vec<usize> = (0..shape.len()).filter(|&d| count % (total / shape[d]) == 0).collect();
            let mut v = shape.to_vec();
            match fits.get(rng.below(fits.len().max(1) as u64) as usize) {
                Some(&d) => *v.get_mut(d)? = count / (total / shape[d]),
                None => {
                    v.iter_mut().for_each(|x| *x = 1);
                    *v.last_mut()? = count;
                }
            }
            Some(vec![(k, v)])
        }
        ShapeRule::Slice => {
            let (ks, start) = ints_named(op, si, "start")?;
            let (kz, size) = ints_named(op, si, "size")?;
            let mut st = Vec::with_capacity(rank);
            let mut sz = Vec::with_capacity(rank);
            for (d, &n) in input.iter().enumerate() {
                let n = i64::from(n);
                let s = start.get(d).copied().unwrap_or(0).clamp(0, n - 1);
                st.push(s);
                sz.push(size.get(d).copied().unwrap_or(n - s).clamp(1, n - s));
            }
            Some(vec![(ks, st), (kz, sz)])
        }
        ShapeRule::Tile => {
            let (k, multiples) = ints_named(op, si, "multiples")?;
            Some(vec![(k, fit(multiples, rank, 1))])
        }
        ShapeRule::Pad => {
            let (k, padding) = ints_named(op, si, "padding")?;
            Some(vec![(k, fit(padding, 2 * rank, 0))])
        }
        ShapeRule::Transpose => {
            let (k, perms) = ints_named(op, si, "perms")?;
            let r = rank as i64;
            let mut v: Vec<i64> = perms.iter().copied().filter(|&p| (0..r).contains(&p)).collect();
            v.extend((0..r).filter(|p| !perms.contains(p)));
            Some(vec![(k, v)])
        }
        _ => None,
    }
}

/// `values` cut or extended with `fill` to `len` entries.
fn fit(values: &[i64], len: usize, fill: i64) -> Vec<i64> {
    let mut v = values.to_vec();
    v.resize(len, fill);
    v
}

/// For a node whose rule failed: a graph input or constant that must change
/// with the changed operand, and the shape it must take.
fn follower(
    a: &Analysis<'_>,
    view: &GraphView,
    op: TosaOp,
    args: &[Id],
    new: &HashMap<Id, Vec<u32>>,
) -> Option<(Leaf, Vec<u32>)> {
    let spec = op.spec();
    let tensor = |k: usize| matches!(spec.operand(k).map(|o| o.form), Some(Form::Tensor { .. }));
    let (x_old, x_new) = args
        .iter()
        .enumerate()
        .filter(|&(k, _)| tensor(k))
        .find_map(|(_, x)| Some((shapes::declared_shape(a, *x)?, new.get(x)?.clone())))?;
    let sources = graph_inputs(a, view);
    for (k, y) in args.iter().enumerate() {
        if !tensor(k) || new.contains_key(y) {
            continue;
        }
        let leaf = match source_input(a, &sources, *y) {
            Some(index) => Leaf::Input(index),
            None if rebuildable_constant(a, *y) => Leaf::Constant(*y),
            None => continue,
        };
        let y_old = shapes::declared_shape(a, *y)?;
        let Some(y_new) = follow_dims(&x_old, &x_new, &y_old) else { continue };
        if y_new != y_old {
            return Some((leaf, y_new));
        }
    }
    None
}

/// The graph input `value` has its shape from: itself, or through nodes
/// whose result has their first operand's shape.
fn source_input(a: &Analysis<'_>, sources: &[(u32, Id, Vec<u32>)], value: Id) -> Option<u32> {
    let mut v = value;
    for _ in 0..MAX_TRACE {
        if let Some((k, _, _)) = sources.iter().find(|(_, r, _)| *r == v) {
            return Some(*k);
        }
        match a.def(v)? {
            Inst::Tosa { op, args, .. } if matches!(op.spec().shape, ShapeRule::Identity | ShapeRule::Table) => {
                v = *args.first()?;
            }
            _ => return None,
        }
    }
    None
}

/// The new shape of `y` when `x` went from `x_old` to `x_new`: all of it
/// if `y` had `x`'s shape, otherwise (same rank) each dimension `y` shared
/// with `x` follows it.
fn follow_dims(x_old: &[u32], x_new: &[u32], y_old: &[u32]) -> Option<Vec<u32>> {
    if y_old == x_old {
        return Some(x_new.to_vec());
    }
    if x_old.len() != x_new.len() || y_old.len() != x_old.len() {
        return None;
    }
    Some(y_old.iter().zip(x_old.iter().zip(x_new)).map(|(&y, (&o, &n))| if y == o && o != n { n } else { y }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::tools::{locate, Tool};
    use spvgraph_oracle::external::spirv_val::SpirvVal;
    use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
    use spvgraph_oracle::validate::Validator;
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};
    use std::sync::OnceLock;

    fn validator() -> &'static Validator {
        static V: OnceLock<Validator> = OnceLock::new();
        V.get_or_init(|| Validator::new(ValidateOptions::default()))
    }

    fn valid(m: &Module) -> bool {
        validator().rule(m).is_valid()
    }

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// Small generated modules (one graph of up to 6 nodes).
    fn generated() -> Vec<(String, Module)> {
        let c = spvgraph_generator::Config { max_graphs: 1, max_nodes: 6, ..Default::default() };
        (0..24).map(|s| (format!("generated seed {s}"), spvgraph_generator::generate_from_seed(s, &c).module)).collect()
    }

    /// The valid modules of `corpus/valid` (every `n`-th) and the
    /// model-converter CNN of the ir benches.
    fn real(every: usize) -> Vec<(String, Module)> {
        let mut files: Vec<PathBuf> = crate::corpus_files(&repo().join("corpus/valid"))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "spv"))
            .step_by(every)
            .collect();
        files.push(repo().join("ir/benches/data/large_cnn.spv"));
        let mut out = Vec::new();
        for f in files {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let m = Module::decode_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            if valid(&m) {
                out.push((f.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()), m));
            }
        }
        out
    }

    /// Up to `tries` changes of each module, with whether each is valid.
    fn changes(modules: &[(String, Module)], tries: usize) -> Vec<(String, Module, ShapeChange, bool)> {
        let mut rng = SplitMix64::new(12);
        let mut out = Vec::new();
        for (name, m) in modules {
            for _ in 0..tries {
                if let Ok((changed, change)) = attempt(m, &mut rng) {
                    let ok = valid(&changed);
                    out.push((name.clone(), changed, change, ok));
                }
            }
        }
        out
    }

    /// The declared shape of `value` in `m`.
    fn shape(m: &Module, value: Id) -> Option<Vec<u32>> {
        shapes::declared_shape(&Analysis::new(m), value)
    }

    fn assert_changed(name: &str, m: &Module, c: &ShapeChange) {
        assert_ne!(c.before, c.after, "{name}: {c:?} is no change");
        assert_eq!(shape(m, c.value).as_ref(), Some(&c.after), "{name}: the changed value's type is not the new shape");
    }

    /// Asserts that a good share of the changes are valid and that each
    /// changed its value's type; the valid ones.
    fn check_changes(what: &str, modules: &[(String, Module)], tries: usize) -> Vec<(String, Module, ShapeChange)> {
        assert!(!modules.is_empty(), "no valid {what} modules");
        let all = changes(modules, tries);
        let mut good = Vec::new();
        let mut sources = BTreeSet::new();
        for (name, m, c, ok) in all.iter().cloned() {
            assert_changed(&name, &m, &c);
            if ok {
                sources.insert(name.clone());
                good.push((name, m, c));
            }
        }
        eprintln!(
            "{what}: {} modules, {} changes, {} valid, from {} modules",
            modules.len(),
            all.len(),
            good.len(),
            sources.len()
        );
        assert!(good.len() * 2 >= all.len(), "{what}: only {} of {} changes are valid", good.len(), all.len());
        assert!(
            sources.len() * 2 >= modules.len(),
            "{what}: valid changes on {} of {} modules",
            sources.len(),
            modules.len()
        );
        good
    }

    #[test]
    fn changed_generated_modules_are_valid_and_have_the_new_shape() {
        let good = check_changes("generated", &generated(), 8);
        // Both kinds of start and the followers all occur.
        let a = |(_, m, c): &(String, Module, ShapeChange)| {
            matches!(Analysis::new(m).def(c.value), Some(Inst::GraphInput { .. }))
        };
        assert!(good.iter().any(a), "no graph input changed");
        assert!(good.iter().any(|g| !a(g)), "no attribute changed");
        assert!(good.iter().any(|(_, _, c)| c.reshaped > 1), "no change reached a consumer");
    }

    #[test]
    fn changed_corpus_modules_are_valid_and_have_the_new_shape() {
        let modules = real(4);
        let good = check_changes("corpus/valid and large_cnn", &modules, 4);
        assert!(good.iter().any(|(n, _, _)| n == "large_cnn.spv"), "no valid change of the model-converter CNN");
    }

    #[test]
    fn the_model_converter_cnn_changes_its_batch_through_every_layer() {
        let modules = real(usize::MAX);
        let (name, cnn) = modules.last().expect("large_cnn.spv is valid");
        assert_eq!(name, "large_cnn.spv");
        let mut rng = SplitMix64::new(3);
        let deep = (0..64)
            .filter_map(|_| attempt(cnn, &mut rng).ok())
            .filter(|(m, _)| valid(m))
            .map(|(_, c)| c.reshaped)
            .max()
            .expect("some valid change");
        let nodes = cnn.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
        assert!(deep * 2 > nodes, "the deepest valid change reshaped {deep} values of {nodes} nodes");
    }

    /// spirv-val accepts every valid change of a module it accepts (the
    /// pinned release rejects the debug instructions model-converter puts in
    /// graph bodies; `SPVGRAPH_TOOL_SPIRV_VAL` picks another build).
    #[test]
    fn spirv_val_accepts_the_changed_modules() {
        let Some(exe) = locate(Tool::SpirvVal).expect("spirv-val (CI=true requires it)") else { return };
        let sv = SpirvVal::process_only(exe);
        let accepts = |m: &Module| {
            let words = m.encode_words().expect("encodes");
            sv.validate(&words, &ValidateOptions::default()).expect("spirv-val runs")
        };
        let mut modules = generated();
        modules.extend(real(8));
        let mut rng = SplitMix64::new(5);
        let (mut checked, mut rejected_before) = (0, 0);
        for (name, m) in &modules {
            if !accepts(m).is_valid() {
                rejected_before += 1;
                continue;
            }
            for (changed, c) in (0..3).filter_map(|_| attempt(m, &mut rng).ok()).filter(|(m, _)| valid(m)) {
                let verdict = accepts(&changed);
                assert!(verdict.is_valid(), "{name}: spirv-val rejects {c:?}: {verdict:?}");
                checked += 1;
            }
        }
        eprintln!(
            "{checked} changes accepted; {rejected_before} of {} originals rejected by this spirv-val",
            modules.len()
        );
        assert!(rejected_before * 4 <= modules.len(), "spirv-val rejects {rejected_before} of the valid originals");
        assert!(checked >= modules.len(), "only {checked} changes checked");
    }

    #[test]
    fn follow_dims_moves_the_shared_dimensions() {
        assert_eq!(follow_dims(&[2, 3], &[2, 5], &[2, 3]), Some(vec![2, 5]));
        assert_eq!(follow_dims(&[2, 3], &[4, 3], &[2, 7]), Some(vec![4, 7]));
        assert_eq!(follow_dims(&[2, 3], &[2, 3, 1], &[2, 3]), Some(vec![2, 3, 1]));
        assert_eq!(follow_dims(&[2, 3], &[2, 3, 1], &[1, 3]), None);
        assert_eq!(follow_dims(&[1, 3], &[2, 3], &[4, 3]), Some(vec![4, 3]), "a broadcast 1 does not follow");
    }

    #[test]
    fn huge_dimensions_are_drawn_from_without_listing_them() {
        // A SLICE of a 2^31-1 wide input once made the mutator list every size.
        let mut rng = SplitMix64::new(4);
        let wide = i64::from(i32::MAX);
        let inputs = ShapeInputs::new().tensor(vec![1, i32::MAX as u32]).ints(vec![0, 0]).ints(vec![1, wide - 5]);
        for _ in 0..100 {
            let (k, v) = new_attribute(TosaOp::Slice, &inputs, &mut rng).expect("a new size");
            assert_eq!(k, 2);
            assert!(v[1] >= 1 && v[1] <= wide && v[1] != wide - 5, "{v:?}");
        }
        let reshape = ShapeInputs::new().tensor(vec![u32::MAX; 6]).ints(vec![1, 1]);
        assert_eq!(refit(TosaOp::Reshape, &reshape, &mut rng), None, "the element count overflows");
    }

    #[test]
    fn refactor_keeps_the_element_count() {
        let mut rng = SplitMix64::new(9);
        for shape in [vec![4i64, 6], vec![12], vec![2, 3, 5], vec![1, 8, 8, 3]] {
            for _ in 0..20 {
                if let Some(s) = refactor(&shape, &mut rng) {
                    assert_ne!(s, shape);
                    assert_eq!(s.iter().product::<i64>(), shape.iter().product::<i64>(), "{shape:?} -> {s:?}");
                    assert!(s.iter().all(|&d| d >= 1) && s.len() <= MAX_RANK as usize);
                }
            }
        }
        assert_eq!(refactor(&[7], &mut rng), None, "a prime rank-1 shape has no other factorisation");
    }

    /// Which operators carried changes and which made attempts give up
    /// (the figures of the report): `cargo test --release shape_change::tests::sweep -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn sweep() {
        let mut modules = generated();
        modules.extend(real(1));
        let mut rng = SplitMix64::new(1);
        let mut stops: BTreeMap<String, usize> = BTreeMap::new();
        let mut carried: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut rules: BTreeMap<String, usize> = BTreeMap::new();
        let (mut ok, mut valid_n, mut tries) = (0, 0, 0);
        let sv = locate(Tool::SpirvVal).ok().flatten().map(SpirvVal::process_only);
        let accepts = |m: &Module| {
            let words = m.encode_words().ok()?;
            sv.as_ref()?.validate(&words, &ValidateOptions::default()).ok().map(|v| v.is_valid())
        };
        let (mut sv_asked, mut sv_accepted) = (0, 0);
        for (_, m) in &modules {
            let original_accepted = accepts(m) == Some(true);
            for _ in 0..8 {
                tries += 1;
                match attempt(m, &mut rng) {
                    Err(s) => *stops.entry(format!("{s:?}")).or_default() += 1,
                    Ok((changed, _)) => {
                        ok += 1;
                        let report = validator().check(&changed);
                        if report.is_valid() {
                            valid_n += 1;
                            if original_accepted {
                                sv_asked += 1;
                                sv_accepted += usize::from(accepts(&changed) == Some(true));
                            }
                            let before = Analysis::new(m);
                            let after = Analysis::new(&changed);
                            for i in &changed.insts {
                                if let Inst::Tosa { result, op, .. } = i {
                                    if shapes::declared_shape(&before, *result)
                                        != shapes::declared_shape(&after, *result)
                                    {
                                        *carried.entry(op.name()).or_default() += 1;
                                    }
                                }
                            }
                        } else if let Some(f) = report.errors().next() {
                            *rules.entry(f.rule.name().to_string()).or_default() += 1;
                        }
                    }
                }
            }
        }
        eprintln!("{} modules, {tries} attempts, {ok} changes, {valid_n} valid", modules.len());
        eprintln!("gave up: {stops:?}");
        eprintln!("reshaped results by operator: {carried:?}");
        eprintln!("invalid changes, first rule: {rules:?}");
        eprintln!("spirv-val accepts {sv_accepted} of {sv_asked} valid changes of modules it accepts");
    }
}
