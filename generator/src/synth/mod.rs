//! Graph synthesis: the state of the module being built, the value pool of
//! the current graph, fresh leaves (graph inputs and constants) with their
//! data, and the module/graph loops.
//!
//! A graph grows one operation at a time. Each operation picks a type row of
//! its operator, takes operands from the pool (reuse gives DAGs with fan-out)
//! or from fresh leaves, and chooses attributes so the operator's shape rule
//! holds exactly (`ops_*` modules); `node::add_node` then derives the result
//! shape with the catalogue's `infer_shapes`, checks the row with `find_row`,
//! derives the result's value range (`transfer`), and emits the instruction.

mod constants;
mod debug;
mod interface;
mod network;
mod node;
mod ops_elementwise;
mod ops_layout;
mod ops_special;
mod ops_tensor;
mod transfer;

use crate::case::{CaseMeta, EntryPoint};
use crate::config::{Config, LEVEL_8K, THIN_FACTOR};
use crate::data::{self, DataSpec, Fill};
use crate::dice::Dice;
use crate::floats;
use crate::prng::SplitMix64;
use crate::range::{Domain, Range};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{Accuracy, Form, RankReq, TosaOp};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

pub(crate) use node::NodeSpec;

/// How often an operation is chosen to consume an unconsumed result
/// (chains, deeper graphs) rather than drawn uniformly (row coverage).
const CHAIN_PROBABILITY: f64 = 0.7;

/// The per-element share of special values in a leaf chosen by
/// `special_leaf` (at least; `special_values` may be higher).
const SPECIAL_LEAF_SHARE: f64 = 0.25;

/// Element types of the constant a pass-through graph may output.
const PASS_THROUGH_TYPES: [ElemType; 4] = [ElemType::Fp32, ElemType::Fp16, ElemType::I8, ElemType::I32];

/// Where a value comes from.
#[derive(Clone, Debug)]
pub(crate) enum ValueKind {
    /// A graph input (its data goes into the case).
    Input,
    /// A constant (inline or graph constant); its data is known.
    Const,
    /// An operation result (or an extracted FFT member).
    Result,
}

/// A tensor value of the current graph.
#[derive(Clone, Debug)]
pub(crate) struct Value {
    pub id: Id,
    pub elem: ElemType,
    pub shape: Vec<u32>,
    pub range: Range,
    pub kind: ValueKind,
    /// The data of a leaf (input or constant), so operand constraints that
    /// intervals cannot express (no zero, distinct indices) can be checked.
    pub data: Option<TensorData>,
    pub uses: u32,
    /// Longest chain of operations producing the value (0 for leaves).
    pub depth: u32,
    /// Never read and never written to an output (an unused FFT member).
    pub dead: bool,
    /// Holds (or derives from data holding) NaN or infinities placed on
    /// purpose, so operators that cannot compare such results do not read it.
    pub special: bool,
}

impl Value {
    pub(crate) fn is_leaf(&self) -> bool {
        self.data.is_some()
    }
}

/// What an operand needs of a value taken from the pool or made fresh.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Need {
    /// Values a pool value must be known to lie in.
    pub admit: Domain,
    /// Only leaves (inputs/constants) qualify: their data is checked exactly.
    pub leaf_only: bool,
    /// Data for a fresh leaf.
    pub fresh: DataSpec,
    /// Fresh leaves lean towards constants (weights, biases).
    pub weight: bool,
}

/// The graph under construction.
#[derive(Debug)]
pub(crate) struct GraphState {
    pub id: Id,
    pub index: usize,
    pub values: Vec<Value>,
    pub body: Vec<Inst>,
    pub elements: u64,
    pub nodes: usize,
    pub inputs: usize,
    pub debug: Option<debug::DebugState>,
    /// Values already taken by the operation being built: not preferred again
    /// as "unused", so a second operand favours another value.
    pub picked: Vec<usize>,
    /// A value the operation being built should read if an operand admits it.
    pub prefer: Option<usize>,
}

/// The module under construction.
pub(crate) struct Synth<'a, 'u> {
    pub cfg: &'a Config,
    pub dice: Dice<'a, 'u>,
    pub rng: SplitMix64,
    pub b: ModuleBuilder,
    pub ops: Vec<TosaOp>,
    /// Every available type row of the usable operators.
    pub rows: Rc<[AvailableRow]>,
    pub graph_constants: BTreeMap<u32, TensorData>,
    pub next_graph_constant: u32,
    pub meta: CaseMeta,
    pub entry_points: Vec<EntryPoint>,
    pub g: GraphState,
    /// OpNames, emitted once all OpStrings exist.
    pub names: Vec<(Id, String)>,
    /// Whether the operation being built defines its result for special
    /// floating-point operands (NaN, ±inf) in a way the compliance rules
    /// can compare; fresh leaves get special values only then.
    pub special_ok: bool,
    /// Constructs the operation being built reaches, recorded only if it is
    /// emitted.
    pub pending: Vec<String>,
}

/// A type row of a usable operator available under the enabled profiles,
/// with the element type and rank requirement of each tensor operand (what
/// `consumer_choice` matches an unconsumed result against).
#[derive(Clone, Debug)]
pub(crate) struct AvailableRow {
    pub op: TosaOp,
    pub row: usize,
    pub tensor_operands: Vec<(ElemType, RankReq)>,
}

/// The available rows of the usable operators, worked out once per
/// configuration and thread (a run generates many cases from one
/// configuration; working them out per case cost more than the lookups
/// they save).
fn available_rows(cfg: &Config) -> Rc<[AvailableRow]> {
    type Cached = (Vec<Profile>, Vec<TosaOp>, Vec<TosaOp>, u32, Rc<[AvailableRow]>);
    thread_local! {
        static LAST: RefCell<Option<Cached>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((p, a, d, r, rows)) = last.as_ref() {
            if *p == cfg.profiles && *a == cfg.allow_ops && *d == cfg.deny_ops && *r == cfg.max_rank {
                return Rc::clone(rows);
            }
        }
        let rows: Rc<[AvailableRow]> = compute_available_rows(cfg).into();
        *last =
            Some((cfg.profiles.clone(), cfg.allow_ops.clone(), cfg.deny_ops.clone(), cfg.max_rank, Rc::clone(&rows)));
        rows
    })
}

fn compute_available_rows(cfg: &Config) -> Vec<AvailableRow> {
    let mut out = Vec::new();
    for op in cfg.usable_ops() {
        for (row, r) in op.spec().type_rows.iter().enumerate().filter(|(_, r)| r.available(&cfg.profiles)) {
            let tensor_operands = op
                .spec()
                .operands
                .iter()
                .filter_map(|o| match o.form {
                    Form::Tensor { elem, rank } => elem.resolve(r).map(|e| (e, rank)),
                    _ => None,
                })
                .collect();
            out.push(AvailableRow { op, row, tensor_operands });
        }
    }
    out
}

/// The finished pieces.
pub(crate) struct Built {
    pub module: spvgraph_ir::Module,
    pub entry_points: Vec<EntryPoint>,
    pub graph_constants: BTreeMap<u32, TensorData>,
    pub meta: CaseMeta,
}

impl<'a, 'u> Synth<'a, 'u> {
    pub(crate) fn new(cfg: &'a Config, mut dice: Dice<'a, 'u>) -> Self {
        let rng = SplitMix64::new(dice.u64());
        let mut b = ModuleBuilder::new();
        let gid = b.id();
        Synth {
            cfg,
            dice,
            rng,
            b,
            ops: cfg.usable_ops(),
            rows: available_rows(cfg),
            graph_constants: BTreeMap::new(),
            next_graph_constant: 0,
            meta: CaseMeta::default(),
            entry_points: Vec::new(),
            g: GraphState::new(gid, 0),
            names: Vec::new(),
            special_ok: true,
            pending: Vec::new(),
        }
    }

    /// Whether a profile/extension is enabled.
    pub(crate) fn enabled(&self, p: Profile) -> bool {
        self.cfg.profiles.contains(&p)
    }

    pub(crate) fn feature(&mut self, f: impl Into<String>) {
        self.meta.features.insert(f.into());
    }

    /// A construct of the operation being built (kept if it is emitted).
    pub(crate) fn op_feature(&mut self, f: impl Into<String>) {
        self.pending.push(f.into());
    }

    /// Some axis of `axes` when the operation draws wide attributes (on one
    /// axis only, to keep windows and outputs small).
    pub(crate) fn wide_axis(&mut self, axes: usize) -> Option<usize> {
        self.dice.chance(self.cfg.probs.wide_attributes).then(|| self.dice.below(axes))
    }

    /// Builds the whole module.
    pub(crate) fn run(mut self) -> Built {
        let lo = self.cfg.min_graphs.max(1);
        let hi = self.cfg.max_graphs.max(lo);
        let graphs = self.dice.range_u32(lo, hi) as usize;
        for index in 0..graphs {
            let gid = self.b.id();
            self.g = GraphState::new(gid, index);
            match self.cfg.network.clone() {
                Some(net) => self.build_network_graph(&net),
                None => self.build_graph(),
            }
        }
        self.meta.graphs = graphs;
        for (id, name) in std::mem::take(&mut self.names) {
            self.b.name(id, &name);
        }
        Built {
            module: self.b.finish(),
            entry_points: self.entry_points,
            graph_constants: self.graph_constants,
            meta: self.meta,
        }
    }

    fn build_graph(&mut self) {
        self.start_debug();
        let lo = self.cfg.min_nodes;
        let hi = self.cfg.max_nodes.max(lo);
        let mut target = self.dice.range_u32(lo, hi) as usize;
        if self.dice.chance(self.cfg.probs.pass_through_graph) {
            target = 0;
            self.pass_through_leaves();
        }
        self.grow(target);
        self.meta.nodes += self.g.nodes;
        self.finish_graph();
    }

    /// Adds operations until the graph has `target` of them (or the
    /// attempts or the element budget run out).
    fn grow(&mut self, target: usize) {
        // A bounded number of attempts: an attempt only fails when the element
        // budget is exhausted or an operation would exceed it.
        let mut attempts = 0;
        while self.g.nodes < target && attempts < target * 4 + 4 {
            attempts += 1;
            if self.g.elements >= self.cfg.max_graph_elements {
                break;
            }
            // Consumer-first: extend a chain from a result nothing reads yet.
            if self.dice.chance(CHAIN_PROBABILITY) {
                if let Some((op, row, v)) = self.consumer_choice() {
                    self.g.prefer = Some(v);
                    self.add_op_row(op, row);
                    self.g.prefer = None;
                    continue;
                }
            }
            let Some(&op) = self.dice.pick(&self.ops) else { break };
            self.add_op(op);
        }
    }

    /// Adds one operation of `op` with a random available type row.
    fn add_op(&mut self, op: TosaOp) {
        let rows: Vec<usize> = self.rows.iter().filter(|r| r.op == op).map(|r| r.row).collect();
        let Some(&row) = self.dice.pick(&rows) else { return };
        self.add_op_row(op, row);
    }

    /// An unconsumed result and an (operator, row) with a tensor operand of
    /// its element type and rank, so the next operation can read it.
    fn consumer_choice(&mut self) -> Option<(TosaOp, usize, usize)> {
        let open: Vec<usize> = (0..self.g.values.len())
            .filter(|&i| {
                let v = &self.g.values[i];
                matches!(v.kind, ValueKind::Result) && v.uses == 0 && !v.dead
            })
            .collect();
        let v = if self.dice.chance(0.5) { *open.last()? } else { *self.dice.pick(&open)? };
        let (elem, rank) = (self.g.values[v].elem, self.g.values[v].shape.len() as u32);
        let max_rank = self.cfg.max_rank;
        let cands: Vec<(TosaOp, usize)> = self
            .rows
            .iter()
            .filter(|r| {
                r.tensor_operands.iter().any(|&(e, req)| {
                    e == elem
                        && match req {
                            RankReq::Exact(n) => n == rank,
                            RankReq::Any => rank <= max_rank,
                            RankReq::SameAs(_) => false,
                        }
                })
            })
            .map(|r| (r.op, r.row))
            .collect();
        let &(op, row) = self.dice.pick(&cands)?;
        self.op_feature("dag:chained");
        Some((op, row, v))
    }

    /// Adds one operation of `op` with type row `row` (or nothing if it does
    /// not fit the budget).
    fn add_op_row(&mut self, op: TosaOp, row: usize) {
        self.g.picked.clear();
        self.special_ok = specials_comparable(op);
        let spec = match self.synth_op(op, row) {
            Ok(s) => s,
            Err(node::Skip::Budget) => {
                self.end_op();
                return;
            }
            Err(node::Skip::Internal(e)) => {
                self.meta.internal_errors.push(format!("{op} row {row}: {e}"));
                self.end_op();
                return;
            }
        };
        if let Err(node::Skip::Internal(e)) = self.add_node(spec) {
            self.meta.internal_errors.push(format!("{op} row {row}: {e}"));
        }
        self.end_op();
    }

    /// Forgets the per-operation state (emitted operations took their
    /// constructs already).
    fn end_op(&mut self) {
        self.special_ok = true;
        self.pending.clear();
    }

    /// Chooses operands and attributes for `op` with type row `row`.
    fn synth_op(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, node::Skip> {
        use spvgraph_ir::tosa::ShapeRule;
        match op.spec().shape {
            ShapeRule::Identity | ShapeRule::Table | ShapeRule::Rescale => self.unary_like(op, row),
            ShapeRule::Broadcast => self.broadcast_op(op, row),
            ShapeRule::Argmax | ShapeRule::Reduce => self.reduction(op, row),
            ShapeRule::Pool2d => self.pool2d(op, row),
            ShapeRule::Conv2d | ShapeRule::DepthwiseConv2d | ShapeRule::Conv3d => self.convolution(op, row),
            ShapeRule::TransposeConv2d => self.transpose_conv2d(op, row),
            ShapeRule::Matmul => self.matmul(op, row),
            ShapeRule::Fft2d | ShapeRule::Rfft2d => self.fft(op, row),
            ShapeRule::Concat => self.concat(op, row),
            ShapeRule::Pad | ShapeRule::Reshape | ShapeRule::Slice | ShapeRule::Tile | ShapeRule::Transpose => {
                self.layout(op, row)
            }
            ShapeRule::Gather | ShapeRule::Scatter => self.gather_scatter(op, row),
            ShapeRule::Resize => self.resize(op, row),
        }
    }

    // ---- shapes ---------------------------------------------------------------

    /// A rank in `1..=max_rank`.
    pub(crate) fn random_rank(&mut self) -> u32 {
        self.dice.range_u32(1, self.cfg.max_rank.clamp(1, spvgraph_ir::tosa::MAX_RANK))
    }

    /// A random dimension in `1..=max_dim`.
    pub(crate) fn random_dim(&mut self) -> u32 {
        self.dice.range_u32(1, self.cfg.max_dim.max(1))
    }

    /// A random shape of `rank` within the per-tensor element limit, or
    /// (`level_shape`) a long, thin one.
    pub(crate) fn random_shape(&mut self, rank: u32) -> Vec<u32> {
        if rank > 0 && self.dice.chance(self.cfg.probs.level_shape) {
            if let Some(shape) = self.long_shape(rank) {
                return shape;
            }
        }
        let mut shape: Vec<u32> = (0..rank).map(|_| self.random_dim()).collect();
        shrink_to_fit(&mut shape, self.cfg.max_tensor_elements);
        shape
    }

    /// A shape of `rank` with one dimension near the level limits
    /// (4096..=8192) and the others 1, or at most one of them 2; `None`
    /// when `max_long_elements` cannot hold it.
    fn long_shape(&mut self, rank: u32) -> Option<Vec<u32>> {
        let top = u64::from(LEVEL_8K).min(self.cfg.max_long_elements);
        let low = top / 2;
        if low < 2 {
            return None;
        }
        let mut shape = vec![1u32; rank as usize];
        let axis = self.dice.below(shape.len());
        shape[axis] = self.dice.range_i64(low as i64, top as i64) as u32;
        if rank > 1 && self.dice.chance(0.3) {
            let other = (axis + 1 + self.dice.below(shape.len() - 1)) % shape.len();
            shape[other] = 2;
        }
        self.fits(&shape).then_some(shape)
    }

    /// Whether a tensor of `shape` is within the element limits: the
    /// per-tensor limit, or the larger one of long, thin tensors.
    pub(crate) fn fits(&self, shape: &[u32]) -> bool {
        let n = elements(shape);
        if n <= self.cfg.max_tensor_elements {
            return true;
        }
        let longest = u64::from(shape.iter().copied().max().unwrap_or(1).max(1));
        n <= self.cfg.max_long_elements && n / longest <= THIN_FACTOR
    }

    /// The largest extent dimension `axis` of `shape` may grow to within
    /// the element limits (long, thin tensors included).
    pub(crate) fn max_extent(&self, shape: &[u32], axis: usize) -> u64 {
        let other = spvgraph_ir::count::saturating(
            shape.iter().enumerate().filter(|&(i, _)| i != axis).map(|(_, &d)| u64::from(d)),
        )
        .max(1);
        let plain = self.cfg.max_tensor_elements / other;
        let long = if other <= THIN_FACTOR { self.cfg.max_long_elements / other } else { 0 };
        plain.max(long)
    }

    /// A value in `lo..=hi` drawn over the whole range (half the time) or
    /// from its top eighth, for attributes taken up to their limits.
    pub(crate) fn wide_pick(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        if self.dice.chance(0.5) {
            self.dice.range_i64(lo, hi)
        } else {
            self.dice.range_i64(hi - (hi - lo) / 8, hi)
        }
    }

    /// Records the level-related constructs a tensor shape reaches.
    pub(crate) fn note_shape(&mut self, shape: &[u32]) {
        if shape.len() as u32 == spvgraph_ir::tosa::MAX_RANK {
            self.feature("level:rank=6");
        }
        if shape.iter().any(|&d| d >= LEVEL_8K / 2) {
            self.feature("level:dim>=4096");
        }
    }

    // ---- the value pool ---------------------------------------------------------

    /// A pool value satisfying `ok` and `need`, when reuse is chosen and one
    /// exists. Values no operation has consumed yet are preferred, which
    /// grows chains; any candidate may be taken again, which gives fan-out.
    pub(crate) fn pick_value(&mut self, need: &Need, ok: impl Fn(&Value) -> bool) -> Option<usize> {
        let special_ok = self.special_ok;
        let usable = |val: &Value| !val.dead && (special_ok || !val.special);
        if let Some(v) = self.g.prefer {
            if self.g.values.get(v).is_some_and(|val| usable(val) && ok(val) && admits_value(need, val)) {
                self.g.prefer = None;
                self.g.picked.push(v);
                return Some(v);
            }
        }
        if !self.dice.chance(self.cfg.probs.reuse_value) {
            return None;
        }
        // The same value twice in one operation (ADD x x) stays possible but rare.
        let allow_repeat = self.dice.chance(0.2);
        let cands: Vec<usize> = self
            .g
            .values
            .iter()
            .enumerate()
            .filter(|(i, v)| {
                usable(v) && ok(v) && admits_value(need, v) && (allow_repeat || !self.g.picked.contains(i))
            })
            .map(|(i, _)| i)
            .collect();
        let unused: Vec<usize> =
            cands.iter().copied().filter(|&i| self.g.values[i].uses == 0 && !self.g.picked.contains(&i)).collect();
        let choice = if !unused.is_empty() && self.dice.chance(0.6) {
            self.dice.pick(&unused).copied()
        } else {
            self.dice.pick(&cands).copied()
        };
        self.g.picked.extend(choice);
        choice
    }

    /// A value of `elem` with exactly `shape`: reused or fresh.
    pub(crate) fn value_of_shape(&mut self, elem: ElemType, shape: &[u32], need: &Need) -> usize {
        match self.pick_value(need, |v| v.elem == elem && v.shape == shape) {
            Some(v) => v,
            None => self.fresh_leaf(elem, shape, need),
        }
    }

    /// A value of `elem` with rank `rank` (`None`: any rank up to max_rank),
    /// reused or fresh with a random shape.
    pub(crate) fn value_of_rank(&mut self, elem: ElemType, rank: Option<u32>, need: &Need) -> usize {
        let max_rank = self.cfg.max_rank;
        let found = self.pick_value(need, |v| {
            v.elem == elem && rank.map_or(v.shape.len() as u32 <= max_rank, |r| v.shape.len() as u32 == r)
        });
        match found {
            Some(v) => v,
            None => {
                let r = rank.unwrap_or_else(|| self.random_rank());
                let shape = self.random_shape(r);
                self.fresh_leaf(elem, &shape, need)
            }
        }
    }

    /// `v` if it satisfies `need`, else a fresh leaf of the same type and shape.
    pub(crate) fn ensure(&mut self, v: usize, need: &Need) -> usize {
        let ok = self.g.values.get(v).is_some_and(|val| admits_value(need, val));
        if ok {
            return v;
        }
        let (elem, shape) = match self.g.values.get(v) {
            Some(val) => (val.elem, val.shape.clone()),
            None => (ElemType::I32, vec![1]),
        };
        self.fresh_leaf(elem, &shape, need)
    }

    /// An operand requirement with no constraint on values.
    pub(crate) fn any_need(&mut self, elem: ElemType) -> Need {
        let fresh = self.default_data(elem, Domain::any(elem));
        Need { admit: Domain::any(elem), leaf_only: false, fresh, weight: false }
    }

    /// A requirement: pool values must satisfy `admit`, fresh data comes from `fresh_domain`.
    pub(crate) fn need(&mut self, elem: ElemType, admit: Domain, fresh_domain: Domain) -> Need {
        let admit = admit.clamp_to(elem);
        let fresh = self.default_data(elem, fresh_domain.clamp_to(elem));
        Need { admit, leaf_only: false, fresh, weight: false }
    }

    /// Typical data for `elem` inside `domain`: a magnitude window drawn from
    /// a few classes (small, medium, large, full type range) and the
    /// configured share of special values.
    pub(crate) fn default_data(&mut self, elem: ElemType, domain: Domain) -> DataSpec {
        let scale = match elem {
            ElemType::Bool => 1.0,
            ElemType::I8 | ElemType::I16 => {
                let (_, hi) = floats::int_range(elem);
                *self.dice.pick(&[hi as f64, hi as f64, 16.0]).unwrap_or(&16.0)
            }
            ElemType::I32 => *self.dice.pick(&[100.0, 32768.0, 16777216.0, 2147483647.0]).unwrap_or(&100.0),
            ElemType::I48 => {
                *self.dice.pick(&[1000.0, 1048576.0, 1099511627776.0, 140737488355327.0]).unwrap_or(&1000.0)
            }
            _ => {
                let max = floats::max_finite(elem);
                *self.dice.pick(&[1.0, 10.0, 1000.0f64.min(max), max]).unwrap_or(&1.0)
            }
        };
        let specials = if self.special_ok { self.cfg.probs.special_values } else { 0.0 };
        DataSpec { domain, scale, specials, fill: Fill::Random }
    }

    /// A new graph input or constant of `elem` and `shape`, with data from `need.fresh`.
    pub(crate) fn fresh_leaf(&mut self, elem: ElemType, shape: &[u32], need: &Need) -> usize {
        let p = if need.weight { self.cfg.probs.weight_constant } else { self.cfg.probs.constant_leaf };
        let room = self.g.inputs < self.cfg.max_graph_inputs as usize;
        let constant = !room || self.dice.chance(p);
        let mut spec = need.fresh;
        if elem.is_float() && self.special_ok && self.dice.chance(self.cfg.probs.special_leaf) {
            spec.specials = spec.specials.max(SPECIAL_LEAF_SHARE);
        }
        if constant {
            if spec.domain.admits_zero() && self.dice.chance(self.cfg.probs.null_constant) {
                spec.fill = Fill::Zero;
            } else if spec.domain.admits_uniform() && self.dice.chance(self.cfg.probs.replicate_constant) {
                spec.fill = Fill::Uniform;
            } else if shape.len() > 1 && spec.domain.admits_uniform() && self.dice.chance(self.cfg.probs.constant_rows)
            {
                spec.fill = Fill::Rows;
            }
        }
        self.leaf(elem, shape, &spec, constant)
    }

    /// A leaf of `elem` and `shape` with data drawn from `spec`: a constant
    /// (in a form chosen by `tensor_constant`) or a graph input.
    pub(crate) fn leaf(&mut self, elem: ElemType, shape: &[u32], spec: &DataSpec, constant: bool) -> usize {
        let (data, summary) = data::generate_summarised(&mut self.rng, elem, shape, spec);
        let special = spec.specials > 0.0 && elem.is_float() && self.note_specials(&summary, constant);
        self.push_leaf(elem, shape, data, summary.range, special, constant)
    }

    /// A leaf of `elem` and `shape` holding `data` (whose exact range is
    /// `range`): a constant (in a form chosen by `tensor_constant`) or a
    /// graph input; `special` marks NaN or infinities placed on purpose.
    pub(crate) fn push_leaf(
        &mut self,
        elem: ElemType,
        shape: &[u32],
        data: TensorData,
        range: Range,
        special: bool,
        constant: bool,
    ) -> usize {
        self.note_shape(shape);
        let (id, kind) = if constant {
            let id =
                self.tensor_constant(elem, shape, &data, self.cfg.probs.graph_constant, self.cfg.max_inline_elements);
            (id, ValueKind::Const)
        } else {
            self.g.inputs += 1;
            (self.b.id(), ValueKind::Input)
        };
        self.g.elements += elements(shape);
        let value = Value {
            id,
            elem,
            shape: shape.to_vec(),
            range,
            kind,
            data: Some(data),
            uses: 0,
            depth: 0,
            dead: false,
            special,
        };
        self.g.values.push(value);
        self.g.values.len() - 1
    }

    /// Records which special values (NaN, infinities, subnormals) a leaf's
    /// data holds, for graph inputs and constants apart; whether it holds a
    /// NaN or an infinity.
    fn note_specials(&mut self, summary: &data::Summary, constant: bool) -> bool {
        let whereto = if constant { "constant" } else { "input" };
        for (hit, what) in [(summary.nan, "nan"), (summary.inf, "inf"), (summary.subnormal, "subnormal")] {
            if hit {
                self.feature(format!("special:{what}-{whereto}"));
            }
        }
        summary.nan || summary.inf
    }

    /// The leaves of a graph without operations: sometimes a constant
    /// (written straight to an output), the input `finish_graph` adds anyway.
    fn pass_through_leaves(&mut self) {
        self.feature("graph:no-operations");
        if self.dice.chance(0.5) {
            let elem = self.dice.pick_or(&PASS_THROUGH_TYPES, ElemType::Fp32);
            let rank = self.random_rank();
            let shape = self.random_shape(rank);
            let need = self.any_need(elem);
            self.leaf(elem, &shape, &need.fresh, true);
        }
    }

    pub(crate) fn value(&self, v: usize) -> Option<&Value> {
        self.g.values.get(v)
    }

    pub(crate) fn shape_of(&self, v: usize) -> Vec<u32> {
        self.g.values.get(v).map(|x| x.shape.clone()).unwrap_or_default()
    }

    pub(crate) fn range_of(&self, v: usize) -> Range {
        self.g.values.get(v).map_or(Range::Bool, |x| x.range)
    }
}

impl GraphState {
    fn new(id: Id, index: usize) -> GraphState {
        GraphState {
            id,
            index,
            values: Vec::new(),
            body: Vec::new(),
            elements: 0,
            nodes: 0,
            inputs: 0,
            debug: None,
            picked: Vec::new(),
            prefer: None,
        }
    }
}

/// Whether the compliance rules can compare `op`'s results when its inputs
/// hold NaN or infinities placed on purpose. Not for RESIZE (its bound
/// scales with the largest input magnitude, so one infinity leaves every
/// element unchecked) nor the dot-product operators: their inputs are then
/// checked with FP_SPECIAL, which compares finiteness against the fp64
/// reference, so an element whose exact value merely overflows the output
/// type (a legitimate infinity) would count as a mismatch.
fn specials_comparable(op: TosaOp) -> bool {
    !matches!(op.spec().accuracy, Accuracy::DotProduct | Accuracy::Relative)
}

/// Whether a pool value satisfies an operand requirement.
pub(crate) fn admits_value(need: &Need, v: &Value) -> bool {
    match &v.data {
        // A leaf's range holds all of its data, so the interval test settles
        // most cases; only a range straddling an excluded value, or index
        // domains, need the element scan.
        Some(d) => need.admit.admits(&v.range) || need.admit.admits_data(d),
        None => !need.leaf_only && need.admit.admits(&v.range),
    }
}

/// Element count of a shape (saturating).
pub(crate) fn elements(shape: &[u32]) -> u64 {
    shape.iter().fold(1u64, |a, &d| a.saturating_mul(u64::from(d)))
}

/// Halves the largest dimension until the shape has at most `limit` elements.
pub(crate) fn shrink_to_fit(shape: &mut [u32], limit: u64) {
    while elements(shape) > limit.max(1) {
        let Some(big) = shape.iter_mut().max() else { return };
        if *big <= 1 {
            return;
        }
        *big = (*big).div_ceil(2);
    }
}
