//! Input and graph-constant data towards zero: all zeros, or every element
//! pulled to -1, 0 or 1 (NaN and infinities kept: they may be the point).

use super::{pick, Level, Pass};
use crate::candidate::{Candidate, InputKey};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;

/// Replaces data tensors by zeros, or by small values.
pub struct SimplifyData {
    /// Pull elements to -1/0/1 instead of zeroing them.
    pub small: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Input(InputKey),
    GraphConstant(u32),
}

fn simplified(t: &TensorData, small: bool) -> Option<TensorData> {
    let shape = t.shape().to_vec();
    let new = if small {
        let elem = t.elem();
        let bits: Vec<u64> = t.to_bits().into_iter().zip(t.to_f64()).map(|(b, v)| small_bits(elem, b, v)).collect();
        TensorData::from_bits(elem, &shape, &bits).ok()?
    } else {
        TensorData::zeros(t.elem(), &shape)
    };
    (new != *t).then_some(new)
}

/// The bits of -1, 0 or 1 nearest to `v` (sign kept), or `bits` unchanged
/// for NaN, infinities and bools.
fn small_bits(elem: ElemType, bits: u64, v: f64) -> u64 {
    if !v.is_finite() || elem == ElemType::Bool {
        return bits;
    }
    let one = if v.abs() < 0.5 { 0.0 } else { v.signum() };
    if elem.is_int() {
        return (one as i64) as u64;
    }
    let (one_bits, sign) = match elem {
        ElemType::Fp32 => (0x3f80_0000u64, 0x8000_0000u64),
        ElemType::Fp16 => (0x3c00, 0x8000),
        ElemType::Bf16 => (0x3f80, 0x8000),
        ElemType::Fp8E4M3 => (0x38, 0x80),
        ElemType::Fp8E5M2 => (0x3c, 0x80),
        _ => return bits,
    };
    match one {
        x if x > 0.0 => one_bits,
        x if x < 0.0 => one_bits | sign,
        _ => 0,
    }
}

fn slots(c: &Candidate, small: bool) -> Vec<(Slot, TensorData)> {
    let inputs = c.inputs.iter().filter_map(|(k, t)| Some((Slot::Input(*k), simplified(t, small)?)));
    let consts = c.graph_constants.iter().filter_map(|(k, t)| Some((Slot::GraphConstant(*k), simplified(t, small)?)));
    inputs.chain(consts).collect()
}

impl Pass for SimplifyData {
    fn name(&self) -> &'static str {
        if self.small {
            "small-data"
        } else {
            "zero-data"
        }
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        slots(c, self.small).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let mut out = c.clone();
        for (slot, data) in pick(&slots(c, self.small), chosen) {
            match slot {
                Slot::Input(k) => out.inputs.insert(k, data),
                Slot::GraphConstant(k) => out.graph_constants.insert(k, data),
            };
        }
        Some(out)
    }
}
