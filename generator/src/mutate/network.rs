//! Neighbours of real networks (`corpus/networks/`, the hunt's `--profile
//! networks`): a network's module and data with one change, drawn from a
//! seed alone ([`neighbour`]):
//!
//! - an input's data redrawn from a data class ([`DataClass`]: zeros, one
//!   value, the type's extremes, one extreme element, the full range,
//!   special floats, large magnitudes, rows);
//! - a weight's data (a graph constant) redrawn likewise, or set to its
//!   operator's weight zero point;
//! - a quantization parameter ([`QuantParam`]: a zero point, a RESCALE
//!   shift or multiplier, per tensor or one channel of it) set to an
//!   extreme, nudged or redrawn, inside the range the TOSA specification
//!   allows, so the graph stays valid and, mostly, defined;
//! - one structure-aware mutation of the module ([`Mutation`]: operands,
//!   constants, nodes, shapes carried through the graph);
//! - the graph cut at an operator ([`cut`]): its result the only output,
//!   everything it does not need gone.
//!
//! Data of the network's own is kept wherever the change leaves it fitting;
//! the caller fits what a module change made stale ([`fit`]: a changed
//! input shape gets data drawn for it, not zeros). The validity check is
//! the caller's, as for [`super::mutate_valid`].

use super::{mutate, pick, Mutation, ATTEMPTS};
use crate::data::{self, DataSpec, Fill};
use crate::floats;
use crate::prng::SplitMix64;
use crate::range::Domain;
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::decls;
use spvgraph_ir::elem::{ElemType, ScalarKind};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::ValueRule;
use spvgraph_ir::Module;
use std::collections::{BTreeMap, BTreeSet};

/// How a tensor's data is redrawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataClass {
    /// Every element zero.
    Zeros,
    /// Every element one random value.
    Uniform,
    /// Every element the type's least or greatest finite value.
    Extremes,
    /// The data as it was, but one element at an extreme.
    OneExtreme,
    /// Values from the whole range of an integer type; floats up to 10^4.
    FullRange,
    /// Floats of the usual scale with 5% special values (NaN, ±Inf, ±0,
    /// subnormals, extremes); integers: the full range.
    Specials,
    /// Floats up to 10^30 (or the type's largest finite value), so sums
    /// and products overflow; integers: the extremes.
    Large,
    /// Per outermost row: zero, one value or random values.
    Rows,
    /// Every element the weight zero point of the operator that reads it
    /// (a zero contribution however the weight is used).
    ZeroPoint,
}

impl DataClass {
    /// The classes an input's data is redrawn from.
    pub const INPUTS: [DataClass; 8] = [
        DataClass::Zeros,
        DataClass::Uniform,
        DataClass::Extremes,
        DataClass::OneExtreme,
        DataClass::FullRange,
        DataClass::Specials,
        DataClass::Large,
        DataClass::Rows,
    ];

    /// The classes a weight's data is redrawn from.
    pub const WEIGHTS: [DataClass; 9] = [
        DataClass::Zeros,
        DataClass::Uniform,
        DataClass::Extremes,
        DataClass::OneExtreme,
        DataClass::FullRange,
        DataClass::Specials,
        DataClass::Large,
        DataClass::Rows,
        DataClass::ZeroPoint,
    ];

    /// The name in reports (`one-extreme`).
    pub fn name(self) -> &'static str {
        match self {
            DataClass::Zeros => "zeros",
            DataClass::Uniform => "uniform",
            DataClass::Extremes => "extremes",
            DataClass::OneExtreme => "one-extreme",
            DataClass::FullRange => "full-range",
            DataClass::Specials => "specials",
            DataClass::Large => "large",
            DataClass::Rows => "rows",
            DataClass::ZeroPoint => "zero-point",
        }
    }
}

/// Which quantization parameter a neighbour changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantParam {
    /// An 8-bit zero point (a convolution's, a RESCALE's input or output
    /// zero point): any value of the type.
    ZeroPoint,
    /// A RESCALE shift: 2 to 62.
    Shift,
    /// A RESCALE multiplier: 0 to the type's greatest value.
    Multiplier,
}

impl QuantParam {
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            QuantParam::ZeroPoint => "zero-point",
            QuantParam::Shift => "shift",
            QuantParam::Multiplier => "multiplier",
        }
    }
}

/// What a network neighbour changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkMutation {
    /// Nothing: the network as it is (when no change applied).
    Original,
    /// An input's data.
    InputData(DataClass),
    /// A weight's (graph constant's) data.
    Weights(DataClass),
    /// A quantization parameter.
    Quantization(QuantParam),
    /// One structure-aware mutation of the module.
    Module(Mutation),
    /// The graph cut at an operator.
    Cut,
}

impl NetworkMutation {
    /// The name in reports and findings (`input-data/extremes`,
    /// `module/change-shape`).
    pub fn name(self) -> String {
        match self {
            NetworkMutation::Original => "original".to_string(),
            NetworkMutation::InputData(c) => format!("input-data/{}", c.name()),
            NetworkMutation::Weights(c) => format!("weights/{}", c.name()),
            NetworkMutation::Quantization(q) => format!("quantization/{}", q.name()),
            NetworkMutation::Module(m) => format!("module/{}", m.name()),
            NetworkMutation::Cut => "cut".to_string(),
        }
    }
}

/// A network's data: the inputs of its entry point in the order executors
/// take them, and its graph constants by GraphConstantID.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetworkData {
    /// The inputs.
    pub inputs: Vec<TensorData>,
    /// The graph constants (the weights).
    pub graph_constants: BTreeMap<u32, TensorData>,
}

/// A network with one change.
#[derive(Clone, Debug, PartialEq)]
pub struct Neighbour {
    /// The module (the network's own unless the change is to the module).
    pub module: Module,
    /// The data; after a module change, it may no longer fit the module
    /// (see [`fit`]).
    pub data: NetworkData,
    /// What changed.
    pub mutation: NetworkMutation,
    /// Where and how, for people (`input 0: extremes`, `cut at %412 (CONV2D, operator 17 of 53)`).
    pub detail: String,
}

/// A neighbour of the network `module` with `data`, drawn from `seed`
/// alone; module changes are kept only when `valid` accepts them. The
/// network itself ([`NetworkMutation::Original`]) one time in twenty, and
/// when no change applies within [`ATTEMPTS`].
pub fn neighbour(module: &Module, data: &NetworkData, seed: u64, valid: &dyn Fn(&Module) -> bool) -> Neighbour {
    let mut rng = SplitMix64::new(seed ^ 0x6e65_7477_6f72_6b73);
    let original = || Neighbour {
        module: module.clone(),
        data: data.clone(),
        mutation: NetworkMutation::Original,
        detail: "the network as it is".to_string(),
    };
    for _ in 0..ATTEMPTS {
        let roll = rng.below(100);
        let tried = match roll {
            0..5 => return original(),
            5..25 => input_data(module, data, &mut rng),
            25..45 => weights(module, data, &mut rng),
            45..60 => quantization(module, &mut rng).filter(|(m, _, _)| valid(m)).map(|(m, q, detail)| Neighbour {
                module: m,
                data: data.clone(),
                mutation: NetworkMutation::Quantization(q),
                detail,
            }),
            // Most mutations of a large graph are invalid (another operator
            // rarely takes the same types): a few draws here keep the share.
            60..85 => (0..ATTEMPTS).find_map(|_| {
                let kind = Mutation::ALL[rng.below(Mutation::ALL.len() as u64) as usize];
                mutate(module, kind, &mut rng).filter(|m| valid(m)).map(|m| Neighbour {
                    module: m,
                    data: data.clone(),
                    mutation: NetworkMutation::Module(kind),
                    detail: kind.name().to_string(),
                })
            }),
            _ => cut(module, &mut rng).filter(|(m, _)| valid(m)).map(|(m, detail)| Neighbour {
                module: m,
                data: data.clone(),
                mutation: NetworkMutation::Cut,
                detail,
            }),
        };
        if let Some(n) = tried {
            return n;
        }
    }
    original()
}

/// A class for an element type: the float-only classes become their
/// integer counterparts.
fn class_for(class: DataClass, elem: ElemType) -> DataClass {
    match (class, elem.is_float()) {
        (DataClass::Specials, false) => DataClass::FullRange,
        (DataClass::Large, false) => DataClass::Extremes,
        (c, _) => c,
    }
}

fn input_data(module: &Module, data: &NetworkData, rng: &mut SplitMix64) -> Option<Neighbour> {
    if data.inputs.is_empty() {
        return None;
    }
    let k = rng.below(data.inputs.len() as u64) as usize;
    let old = data.inputs.get(k)?;
    let class = class_for(pick(&DataClass::INPUTS, rng)?, old.elem());
    let new = redraw(rng, old, class, 0)?;
    let mut d = data.clone();
    *d.inputs.get_mut(k)? = new;
    Some(Neighbour {
        module: module.clone(),
        data: d,
        mutation: NetworkMutation::InputData(class),
        detail: format!("input {k} ({} {:?}): {}", old.elem(), old.shape(), class.name()),
    })
}

fn weights(module: &Module, data: &NetworkData, rng: &mut SplitMix64) -> Option<Neighbour> {
    // The graph constants the module declares (a cut may have left others unread).
    let declared: BTreeSet<u32> = module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphConstant { graph_constant_id, .. } => Some(*graph_constant_id),
            _ => None,
        })
        .collect();
    let ids: Vec<u32> = data.graph_constants.keys().copied().filter(|i| declared.contains(i)).collect();
    let id = pick(&ids, rng)?;
    let old = data.graph_constants.get(&id)?;
    let class = class_for(pick(&DataClass::WEIGHTS, rng)?, old.elem());
    let zp = if class == DataClass::ZeroPoint { weight_zero_point(module, id).unwrap_or(0) } else { 0 };
    let new = redraw(rng, old, class, zp)?;
    let mut d = data.clone();
    d.graph_constants.insert(id, new);
    let detail = match class {
        DataClass::ZeroPoint => {
            format!("graph constant {id} ({} {:?}): all {zp} (its zero point)", old.elem(), old.shape())
        }
        _ => format!("graph constant {id} ({} {:?}): {}", old.elem(), old.shape(), class.name()),
    };
    Some(Neighbour { module: module.clone(), data: d, mutation: NetworkMutation::Weights(class), detail })
}

/// The `weight_zp` of the first operator that reads graph constant `id` as
/// its `weight` (a signed value), when it is a constant.
fn weight_zero_point(module: &Module, id: u32) -> Option<i64> {
    let a = Analysis::new(module);
    let gc = module.insts.iter().find_map(|i| match i {
        Inst::GraphConstant { result, graph_constant_id, .. } if *graph_constant_id == id => Some(*result),
        _ => None,
    })?;
    module.insts.iter().find_map(|i| {
        let Inst::Tosa { op, args, .. } = i else { return None };
        let spec = op.spec();
        let at = args.iter().position(|&x| x == gc)?;
        if spec.operands.get(at)?.name != "weight" {
            return None;
        }
        let zp_at = spec.operands.iter().position(|o| o.name == "weight_zp")?;
        let zp = *args.get(zp_at)?;
        let bits = *a.const_tensor_bits(zp, 1)?.first()?;
        let elem = a.tensor_type(a.type_of(zp)?)?.elem?;
        Some(sign_extend(bits, elem.storage_bits()))
    })
}

fn sign_extend(bits: u64, width: u32) -> i64 {
    if width == 0 || width >= 64 {
        return bits as i64;
    }
    let shift = 64 - width;
    ((bits << shift) as i64) >> shift
}

/// The usual magnitude of data of `elem`: 1 for floats, the whole range
/// of 8-bit integers, 1000 for wider ones (biases, accumulators).
fn natural_scale(elem: ElemType) -> f64 {
    if elem.is_float() {
        1.0
    } else if elem.storage_bits() <= 8 {
        floats::int_range(elem).1 as f64
    } else {
        1000.0
    }
}

fn spec(elem: ElemType, scale: f64, specials: f64, fill: Fill) -> DataSpec {
    DataSpec { domain: Domain::any(elem), scale, specials, fill }
}

/// `old` redrawn from `class` (same type and shape); `zp` is the value of
/// [`DataClass::ZeroPoint`].
pub fn redraw(rng: &mut SplitMix64, old: &TensorData, class: DataClass, zp: i64) -> Option<TensorData> {
    let elem = old.elem();
    let shape: Vec<u32> = old.shape().iter().map(|&d| u32::try_from(d).ok()).collect::<Option<_>>()?;
    let dims = old.shape().to_vec();
    let count = old.len();
    let (lo_bits, hi_bits) = extremes(elem);
    let t = match class {
        DataClass::Zeros => TensorData::zeros(elem, &dims),
        DataClass::ZeroPoint if elem.is_float() => TensorData::zeros(elem, &dims),
        DataClass::ZeroPoint => TensorData::from_bits(elem, &dims, &vec![zp as u64; count]).ok()?,
        DataClass::Uniform => data::generate(rng, elem, &shape, &spec(elem, natural_scale(elem), 0.0, Fill::Uniform)),
        DataClass::Extremes => {
            let bits: Vec<u64> = (0..count).map(|_| if rng.chance(0.5) { lo_bits } else { hi_bits }).collect();
            TensorData::from_bits(elem, &dims, &bits).ok()?
        }
        DataClass::OneExtreme => {
            let mut bits = old.to_bits();
            let at = rng.below(count.max(1) as u64) as usize;
            if let Some(b) = bits.get_mut(at) {
                *b = if rng.chance(0.5) { lo_bits } else { hi_bits };
            }
            TensorData::from_bits(elem, &dims, &bits).ok()?
        }
        DataClass::FullRange => {
            let scale = if elem.is_float() { 1e4 } else { floats::int_range(elem).1 as f64 };
            data::generate(rng, elem, &shape, &spec(elem, scale, 0.0, Fill::Random))
        }
        DataClass::Specials => data::generate(rng, elem, &shape, &spec(elem, natural_scale(elem), 0.05, Fill::Random)),
        DataClass::Large => {
            let scale = if elem.is_float() { floats::max_finite(elem).min(1e30) } else { natural_scale(elem) };
            data::generate(rng, elem, &shape, &spec(elem, scale, 0.0, Fill::Random))
        }
        DataClass::Rows => data::generate(rng, elem, &shape, &spec(elem, natural_scale(elem), 0.0, Fill::Rows)),
    };
    Some(t)
}

/// The bit patterns of the least and greatest finite values of `elem`.
fn extremes(elem: ElemType) -> (u64, u64) {
    if elem == ElemType::Bool {
        (0, 1)
    } else if elem.is_float() {
        let m = floats::max_finite(elem);
        (floats::encode(elem, -m), floats::encode(elem, m))
    } else {
        let (lo, hi) = floats::int_range(elem);
        (lo as u64, hi as u64)
    }
}

/// Data of `elem` and `shape` for a port a module change made, of the
/// usual scale (`None` when the shape is too large to draw: more than
/// 2^26 elements).
pub fn fit(rng: &mut SplitMix64, elem: ElemType, shape: &[usize]) -> Option<TensorData> {
    let count = spvgraph_ir::count::checked_len(shape)?;
    if count > 1 << 26 {
        return None;
    }
    let shape: Vec<u32> = shape.iter().map(|&d| u32::try_from(d).ok()).collect::<Option<_>>()?;
    Some(data::generate(rng, elem, &shape, &spec(elem, natural_scale(elem), 0.0, Fill::Random)))
}

/// A quantization parameter [`quantization`] may change.
#[derive(Clone)]
struct QuantOperand {
    /// The TOSA instruction's index.
    at: usize,
    /// The operand's index.
    operand: usize,
    param: QuantParam,
    /// Its elements' bit patterns.
    bits: Vec<u64>,
    /// Its element type id and tensor type id.
    element: Id,
    ty: Id,
    /// The element type's width and signedness.
    width: u32,
    signed: bool,
    /// The operator's name.
    op: &'static str,
}

/// One quantization parameter of `module` changed: a zero point, RESCALE
/// shift or multiplier that is a constant, replaced (for this operand
/// only) by a new constant with one element or all of them changed within
/// what the specification allows.
pub fn quantization(module: &Module, rng: &mut SplitMix64) -> Option<(Module, QuantParam, String)> {
    let a = Analysis::new(module);
    let mut candidates: Vec<QuantOperand> = Vec::new();
    for (i, inst) in module.insts.iter().enumerate() {
        let Inst::Tosa { op, args, .. } = inst else { continue };
        for (k, operand) in op.spec().operands.iter().enumerate() {
            let param = match operand.value {
                ValueRule::ZeroPoint | ValueRule::RescaleZeroPoint { .. } => QuantParam::ZeroPoint,
                ValueRule::RescaleShift => QuantParam::Shift,
                ValueRule::NonNegative => QuantParam::Multiplier,
                ValueRule::None
                | ValueRule::AtLeast(_)
                | ValueRule::PoolPad
                | ValueRule::OutPad
                | ValueRule::Permutation
                | ValueRule::ResizeParams
                | ValueRule::ClampBound
                | ValueRule::MulShift => continue,
            };
            let Some(&v) = args.get(k) else { continue };
            let Some(ty) = a.type_of(v) else { continue };
            let Some(t) = a.tensor_type(ty) else { continue };
            // Values are written as one literal word (no 64-bit parameter exists).
            let Some(ScalarKind::Int { width, signed }) =
                a.scalar_kind(t.element).filter(|k| matches!(k, ScalarKind::Int { width, .. } if *width <= 32))
            else {
                continue;
            };
            // Wider zero points are 0 (or 32768 for an unsigned 16-bit
            // RESCALE) by ERROR_IF: nothing to move.
            if param == QuantParam::ZeroPoint && width != 8 {
                continue;
            }
            let Some(bits) = a.const_tensor_bits(v, 1 << 16) else { continue };
            candidates.push(QuantOperand {
                at: i,
                operand: k,
                param,
                bits,
                element: t.element,
                ty,
                width,
                signed,
                op: op.name(),
            });
        }
    }
    let QuantOperand { at: i, operand: k, param, mut bits, element, ty, width, signed, op } =
        candidates.get(rng.below(candidates.len() as u64) as usize).cloned()?;
    let (lo, hi): (i64, i64) = match param {
        QuantParam::ZeroPoint => (-128, 127),
        QuantParam::Shift => (2, 62),
        QuantParam::Multiplier => (0, (1i64 << (width.clamp(2, 63) - 1)) - 1),
    };
    let current = |b: u64| sign_extend(b, width);
    let draw = |rng: &mut SplitMix64, b: u64| -> i64 {
        match rng.below(4) {
            0 => lo,
            1 => hi,
            2 => (current(b) + if rng.chance(0.5) { 1 } else { -1 }).clamp(lo, hi),
            _ => rng.range_i64(lo, hi),
        }
    };
    let all = bits.len() == 1 || rng.chance(0.5);
    let at = rng.below(bits.len() as u64) as usize;
    let before: Vec<i64> = bits.iter().map(|&b| current(b)).collect();
    for (n, b) in bits.iter_mut().enumerate() {
        if all || n == at {
            *b = draw(rng, *b) as u64;
        }
    }
    let after: Vec<i64> = bits.iter().map(|&b| current(b)).collect();
    if after == before {
        return None;
    }
    let mask = if width >= 32 { u64::from(u32::MAX) } else { (1u64 << width) - 1 };
    let mut m = module.clone();
    let parts: Vec<Id> = bits
        .iter()
        .map(|&b| {
            // SPIR-V: the high bits of a narrow literal are sign-extended for
            // a signed type and zero for an unsigned one.
            let word = if signed { (current(b) as u64 & u64::from(u32::MAX)) as u32 } else { (b & mask) as u32 };
            decls::constant(&mut m, element, &[word])
        })
        .collect();
    let new = decls::composite(&mut m, ty, &parts);
    // The declarations went in before the graph: the instruction moved by as many.
    let shift = m.insts.len() - module.insts.len();
    if let Some(Inst::Tosa { args, .. }) = m.insts.get_mut(i + shift) {
        *args.get_mut(k)? = new;
    } else {
        return None;
    }
    let which = if all { "every element".to_string() } else { format!("element {at} of {}", bits.len()) };
    let shown = |v: &[i64]| {
        if v.len() <= 4 {
            format!("{v:?}")
        } else {
            format!(
                "[{}, ... ({} values)]",
                v.iter().take(3).map(i64::to_string).collect::<Vec<_>>().join(", "),
                v.len()
            )
        }
    };
    let detail = format!("{op} operand {k} ({}): {which}, {} -> {}", param.name(), shown(&before), shown(&after));
    Some((m, param, detail))
}

/// The graph of a one-graph module cut at an operator: the operator's
/// result (a shaped tensor that is not already an output) becomes the
/// graph's one output, and every instruction of the body it does not
/// depend on goes. The inputs stay as they are (some may go unread).
pub fn cut(module: &Module, rng: &mut SplitMix64) -> Option<(Module, String)> {
    let a = Analysis::new(module);
    let [g] = a.graphs.as_slice() else { return None };
    let outputs: BTreeSet<Id> = g
        .outputs
        .iter()
        .filter_map(|&i| match module.insts.get(i) {
            Some(Inst::GraphSetOutput { value, .. }) => Some(*value),
            _ => None,
        })
        .collect();
    let operators: Vec<usize> =
        g.body.iter().copied().filter(|&i| matches!(module.insts.get(i), Some(Inst::Tosa { .. }))).collect();
    let cuttable: Vec<(usize, usize)> = operators
        .iter()
        .enumerate()
        .filter(|(_, &i)| match module.insts.get(i) {
            Some(Inst::Tosa { ty, result, .. }) => {
                !outputs.contains(result) && a.tensor_type(*ty).is_some_and(|t| t.shape.is_some() && t.elem.is_some())
            }
            _ => false,
        })
        .map(|(n, &i)| (n, i))
        .collect();
    let (order, at) = pick(&cuttable, rng)?;
    let Some(Inst::Tosa { ty: out_ty, result: x, op, .. }) = module.insts.get(at) else { return None };
    let (x, out_ty, op) = (*x, *out_ty, *op);
    // What the cut value depends on, within the body.
    let body: BTreeSet<usize> = g.body.iter().copied().collect();
    let mut live: BTreeSet<Id> = BTreeSet::from([x]);
    for &i in g.body.iter().rev() {
        let Some(inst) = module.insts.get(i) else { continue };
        if !inst.result_id().is_some_and(|r| live.contains(&r)) {
            continue;
        }
        match inst {
            Inst::Tosa { args, .. } => live.extend(args.iter().copied()),
            Inst::CompositeExtract { composite, .. } => {
                live.insert(*composite);
            }
            _ => {}
        }
    }
    let Some(Type::Graph { inputs, .. }) = a.ty(g.ty) else { return None };
    let graph_id = g.result;
    let input_count = inputs.len();
    let mut m = module.clone();
    // Drop the body instructions the cut value does not need, the graph's
    // outputs and any debug information (it names dropped instructions).
    let mut index = 0usize;
    let mut dropped: BTreeSet<Id> = BTreeSet::new();
    m.insts.retain(|inst| {
        let i = index;
        index += 1;
        let keep = if matches!(inst, Inst::GraphDebug { .. }) {
            false
        } else if !body.contains(&i) && !g.outputs.contains(&i) {
            true
        } else {
            match inst {
                Inst::GraphSetOutput { .. } => false,
                _ => inst.result_id().is_some_and(|r| live.contains(&r)),
            }
        };
        if !keep {
            dropped.extend(inst.result_id());
        }
        keep
    });
    // Names and decorations of what went would name undefined ids.
    m.insts.retain(|inst| match inst {
        Inst::Name { target, .. } | Inst::Decorate { target, .. } => !dropped.contains(target),
        _ => true,
    });
    let index0 = decls::const_u32(&mut m, 0);
    let gty = decls::graph_type(&mut m, &inputs, &[out_ty]);
    let var = decls::interface_variable(&mut m, out_ty);
    for inst in &mut m.insts {
        match inst {
            Inst::Graph { ty, result } if *result == graph_id => *ty = gty,
            Inst::GraphEntryPoint { graph, interface, .. } if *graph == graph_id => {
                interface.truncate(input_count);
                interface.push(var);
            }
            _ => {}
        }
    }
    let end = m.insts.iter().position(|i| matches!(i, Inst::GraphEnd))?;
    m.insts.insert(end, Inst::GraphSetOutput { value: x, output_index: index0, element_index: None });
    let kept = m.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
    let detail = format!(
        "cut at %{} ({}, operator {} of {}): {kept} operator(s) kept",
        x.0,
        op.name(),
        order + 1,
        operators.len()
    );
    Some((m, detail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_oracle::oracle::ValidateOptions;
    use spvgraph_oracle::validate::Validator;

    fn valid(m: &Module) -> bool {
        Validator::new(ValidateOptions::default()).rule(m).is_valid()
    }

    /// A generated one-graph case with its data, as a network would come.
    fn network_like(seed: u64) -> (Module, NetworkData) {
        let c = crate::Config { max_graphs: 1, min_nodes: 4, max_nodes: 8, ..Default::default() };
        let case = crate::generate_from_seed(seed, &c);
        let inputs = case.entry_points.first().map(|e| e.inputs.iter().map(|t| t.data.clone()).collect());
        (case.module, NetworkData { inputs: inputs.unwrap_or_default(), graph_constants: case.graph_constants })
    }

    #[test]
    fn neighbours_are_deterministic_valid_and_of_every_kind() {
        let mut kinds = BTreeSet::new();
        for seed in 0..40u64 {
            let (module, data) = network_like(seed % 8);
            if !valid(&module) {
                continue;
            }
            let a = neighbour(&module, &data, seed, &valid);
            let b = neighbour(&module, &data, seed, &valid);
            assert_eq!(a, b, "seed {seed}: the same seed gives the same neighbour");
            assert!(valid(&a.module), "seed {seed}: {} gave an invalid module", a.mutation.name());
            let changed = a.module != module || a.data != data;
            assert_eq!(changed, a.mutation != NetworkMutation::Original, "seed {seed}: {}", a.detail);
            kinds.insert(a.mutation.name().split('/').next().unwrap_or("").to_string());
        }
        for k in ["input-data", "weights", "module", "cut"] {
            assert!(kinds.contains(k), "no {k} neighbour in 40 seeds: {kinds:?}");
        }
    }

    #[test]
    fn a_cut_keeps_what_its_output_needs_and_one_output() {
        let mut cuts = 0;
        for seed in 0..30u64 {
            let (module, _) = network_like(seed);
            let Some((m, detail)) = cut(&module, &mut SplitMix64::new(seed)) else { continue };
            let ruling = Validator::new(ValidateOptions::default()).rule(&m);
            assert!(ruling.is_valid(), "seed {seed}: {detail}: {:?}", ruling.error_rules());
            let outputs = m.insts.iter().filter(|i| matches!(i, Inst::GraphSetOutput { .. })).count();
            assert_eq!(outputs, 1, "{detail}");
            let before = module.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
            let after = m.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
            assert!(after < before, "{detail}");
            cuts += 1;
        }
        assert!(cuts >= 10, "only {cuts} cuts in 30 graphs");
    }

    #[test]
    fn redrawn_data_keeps_type_and_shape_and_zero_points_fill() {
        let old = TensorData::zeros(ElemType::I8, &[2, 3]);
        let mut rng = SplitMix64::new(7);
        for class in DataClass::WEIGHTS {
            let t = redraw(&mut rng, &old, class, -5).unwrap();
            assert_eq!((t.elem(), t.shape()), (ElemType::I8, [2usize, 3].as_slice()), "{}", class.name());
        }
        let zp = redraw(&mut rng, &old, DataClass::ZeroPoint, -5).unwrap();
        assert!(zp.to_f64().iter().all(|&v| v == -5.0));
        let ext = redraw(&mut rng, &old, DataClass::Extremes, 0).unwrap();
        assert!(ext.to_f64().iter().all(|&v| v == -128.0 || v == 127.0));
        let f = TensorData::zeros(ElemType::Fp32, &[4]);
        let large = redraw(&mut rng, &f, DataClass::Large, 0).unwrap();
        assert!(large.to_f64().iter().any(|v| v.abs() > 1e6));
    }
}
