//! What the reducer shrinks and the predicate judges: a module with the data
//! of its graph inputs and graph constants.

use crate::inst::{Id, Inst};
use crate::tensor::TensorData;
use crate::Module;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

/// Which graph input a tensor feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InputKey {
    /// The graph (`OpGraphARM` result id).
    pub graph: Id,
    /// InputIndex.
    pub index: u32,
    /// ElementIndex, for an element of a tensor-array input.
    pub element: Option<u32>,
}

/// A module and the data to run it with.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The module.
    pub module: Module,
    /// Data of graph inputs (every entry point of a graph binds the same).
    pub inputs: BTreeMap<InputKey, TensorData>,
    /// Data of `OpGraphConstantARM`s, by GraphConstantID.
    pub graph_constants: BTreeMap<u32, TensorData>,
}

/// How big a candidate is. Compared lexicographically in field order: the
/// reducer accepts a candidate only if it is strictly smaller, which makes
/// every run terminate and lets a pass trade words for fewer operators
/// (a node replaced by a new graph input).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Size {
    /// TOSA instructions (and `OpCompositeExtract`s) over all graphs.
    pub nodes: usize,
    /// Instructions.
    pub instructions: usize,
    /// Encoded words.
    pub words: usize,
    /// Elements of input and graph-constant data.
    pub data_elements: usize,
    /// How far constants, decorations and data are from zero: the sum,
    /// capped per element, of their magnitudes (attribute values, bindings,
    /// data values).
    pub magnitude: u64,
    /// The id bound.
    pub bound: u32,
}

impl Size {
    /// The encoded size in bytes.
    pub fn bytes(&self) -> usize {
        self.words * 4
    }
}

/// Per-element cap of [`Size::magnitude`], so one huge value does not hide
/// every other simplification.
const MAGNITUDE_CAP: u64 = 1 << 20;

impl Candidate {
    /// A candidate without any data.
    pub fn new(module: Module) -> Candidate {
        Candidate { module, inputs: BTreeMap::new(), graph_constants: BTreeMap::new() }
    }

    /// The encoded module (`None` if an instruction is too long to encode).
    pub fn words(&self) -> Option<Vec<u32>> {
        self.module.encode_words().ok()
    }

    /// Its size.
    pub fn size(&self) -> Size {
        let words = self.words().map_or(usize::MAX, |w| w.len());
        let nodes =
            self.module.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. } | Inst::CompositeExtract { .. })).count();
        let data = self.inputs.values().chain(self.graph_constants.values());
        let mut data_elements = 0;
        let mut magnitude = 0u64;
        for t in data {
            data_elements += t.len();
            magnitude = magnitude.saturating_add(t.to_f64().iter().map(|&v| value_magnitude(v)).sum::<u64>());
        }
        for inst in &self.module.insts {
            let v = match inst {
                Inst::Constant { value, spec: false, .. } => value.first().copied().unwrap_or(0),
                Inst::Decorate { literals, .. } => literals.first().copied().unwrap_or(0),
                _ => continue,
            };
            // Read as signed: -1 is simpler than 0xffffffff.
            let s = i64::from(v as i32).unsigned_abs();
            magnitude = magnitude.saturating_add(s.min(MAGNITUDE_CAP));
        }
        Size {
            nodes,
            instructions: self.module.insts.len(),
            words,
            data_elements,
            magnitude,
            bound: self.module.header.bound,
        }
    }

    /// A hash of everything the predicate can see (module words and data).
    pub fn fingerprint(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        match self.module.encode_words() {
            Ok(w) => w.hash(&mut h),
            Err(_) => format!("{:?}", self.module.insts).hash(&mut h),
        }
        format!("{:?}", self.module.endian).hash(&mut h);
        for (k, t) in &self.inputs {
            k.hash(&mut h);
            hash_tensor(t, &mut h);
        }
        for (k, t) in &self.graph_constants {
            k.hash(&mut h);
            hash_tensor(t, &mut h);
        }
        h.finish()
    }
}

fn hash_tensor(t: &TensorData, h: &mut impl Hasher) {
    t.elem().hash(h);
    t.shape().hash(h);
    t.to_bits().hash(h);
}

fn value_magnitude(v: f64) -> u64 {
    if v.is_finite() {
        (v.abs().ceil() as u64).min(MAGNITUDE_CAP)
    } else {
        MAGNITUDE_CAP
    }
}
