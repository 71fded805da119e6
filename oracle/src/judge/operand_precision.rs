//! TOSA 1.0's operator sequence precision requirement lets an
//! implementation compute an operator "with same or higher precision
//! datatypes": a backend that fuses operators (IREE widens bf16 to f32 inside
//! a dispatch and rounds only what it stores) hands a consumer its
//! producer's unrounded result, while its run of the observed form shows
//! that result rounded to the declared type. Judged from the rounded value
//! alone, a compliant consumer can look wrong (a CEIL of `tanh(-4)` computed
//! as `-0.99993` gives `-0`; from the rounded `-1.0` it must give `-1`).
//!
//! So an elementwise operator whose floating-point operand another operator
//! computed is also compliant when its result is within its bound of what it
//! gives anywhere between that operand's neighbouring representable values
//! (the unrounded value lies within half a unit of the rounded one, so
//! between its neighbours): the operator is run again with each such operand
//! stepped down and up, and the result is held to the range those runs span.

use crate::compliance::OpContext;
use crate::exec::Executor;
use crate::oracle::OwnedExecRequest;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::observe::{local_form, LocalForm, LocalOperator};
use spvgraph_ir::scalar::float_bits_to_f64;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::ShapeRule;
use spvgraph_ir::{Id, Module};
use std::collections::BTreeSet;

use super::execution::{compare_direct, Direct};

/// At most this many computed operands are stepped (2^k runs).
const MAX_STEPPED: usize = 3;

/// What one operator's check needs: the graph, its operators, and the
/// local form with its request and the in-tree executor's outputs.
pub(super) struct Setting<'a> {
    /// The original module.
    pub module: &'a Module,
    /// The entry point that runs the graph.
    pub entry: Option<&'a str>,
    /// The graph's operators.
    pub operators: &'a [LocalOperator],
    /// The local form, its request, and the in-tree executor's outputs.
    pub local: &'a (LocalForm, OwnedExecRequest, Vec<TensorData>),
}

/// Whether `candidate`, a backend's value of output `j` of the local form,
/// is compliant once the operator's computed floating-point operands may
/// have been used unrounded (see the module documentation). `false` when
/// the operator is not elementwise, has no such operand, or its runs fail.
pub(super) fn within_operand_precision(
    s: &Setting<'_>,
    j: usize,
    candidate: &TensorData,
    context: Option<&OpContext>,
) -> bool {
    let (full, owned, reference) = s.local;
    let (Some(out), Some(reference)) = (full.outputs.get(j), reference.get(j)) else { return false };
    let Some(op) = s.operators.iter().find(|o| o.node == out.node) else { return false };
    if !matches!(op.op.spec().shape, ShapeRule::Identity | ShapeRule::Broadcast) {
        return false;
    }
    let first = owned.inputs.len() - full.operands.len();
    let value_of = |v: &Id| full.operands.iter().position(|x| x == v).and_then(|k| owned.inputs.get(first + k));
    let stepped: Vec<Id> =
        op.operands.iter().copied().filter(|v| value_of(v).is_some_and(|t| t.elem().is_float())).collect();
    if stepped.is_empty() || stepped.len() > MAX_STEPPED {
        return false;
    }
    let leave: BTreeSet<Id> = s.operators.iter().map(|o| o.node).filter(|n| *n != out.node).collect();
    let Ok(form) = local_form(s.module, s.entry, &leave) else { return false };
    let Some(at) = form.outputs.iter().position(|o| o.node == out.node && o.member == out.member) else {
        return false;
    };
    let mut variants = vec![reference.clone()];
    for pattern in 0..(1u32 << stepped.len()) {
        let mut inputs: Vec<TensorData> = owned.inputs[..first].to_vec();
        for v in &form.operands {
            let Some(t) = value_of(v) else { return false };
            let t = match stepped.iter().position(|x| x == v) {
                Some(k) => step(t, pattern & (1 << k) != 0),
                None => t.clone(),
            };
            inputs.push(t);
        }
        match Executor::default().run(&form.module, Some(&form.entry), &inputs, &owned.graph_constants) {
            Ok(outputs) => match outputs.into_iter().nth(at) {
                Some(o) => variants.push(o),
                None => return false,
            },
            Err(_) => return false,
        }
    }
    let Some(spanned) = span(&variants, candidate) else { return false };
    compare_direct(context, &spanned, candidate) == Direct::Agree
}

/// A reference for `candidate` from the `variants` of one result: where an
/// element of the candidate lies between the variants' values it is its own
/// reference, else the nearest variant value is (a NaN where any variant is
/// NaN, for a NaN candidate).
fn span(variants: &[TensorData], candidate: &TensorData) -> Option<TensorData> {
    let first = variants.first()?;
    if variants.iter().any(|v| v.elem() != candidate.elem() || v.shape() != candidate.shape()) {
        return None;
    }
    let values: Vec<Vec<f64>> = variants.iter().map(TensorData::to_f64).collect();
    let bits: Vec<Vec<u64>> = variants.iter().map(TensorData::to_bits).collect();
    let c_values = candidate.to_f64();
    let c_bits = candidate.to_bits();
    let mut out = first.to_bits();
    for (e, slot) in out.iter_mut().enumerate() {
        let c = c_values[e];
        let here: Vec<(f64, u64)> = values.iter().zip(&bits).map(|(v, b)| (v[e], b[e])).collect();
        if c.is_nan() {
            if let Some((_, b)) = here.iter().find(|(v, _)| v.is_nan()) {
                *slot = *b;
            }
            continue;
        }
        let finite: Vec<&(f64, u64)> = here.iter().filter(|(v, _)| !v.is_nan()).collect();
        let lo = finite.iter().map(|(v, _)| *v).fold(f64::INFINITY, f64::min);
        let hi = finite.iter().map(|(v, _)| *v).fold(f64::NEG_INFINITY, f64::max);
        if lo <= c && c <= hi {
            *slot = c_bits[e];
        } else if let Some((_, b)) = finite.iter().min_by(|x, y| (x.0 - c).abs().total_cmp(&(y.0 - c).abs())) {
            *slot = *b;
        }
    }
    TensorData::from_bits(first.elem(), first.shape(), &out).ok()
}

/// `t` with every finite element moved to its next representable value
/// up (`up`) or down, where that value is finite too.
fn step(t: &TensorData, up: bool) -> TensorData {
    let elem = t.elem();
    let bits: Vec<u64> = t.to_bits().into_iter().map(|b| step_bits(elem, b, up)).collect();
    TensorData::from_bits(elem, t.shape(), &bits).unwrap_or_else(|_| t.clone())
}

/// The next representable value of `elem` above (`up`) or below `bits`,
/// or `bits` when that is not finite (or `bits` itself is not).
fn step_bits(elem: ElemType, bits: u64, up: bool) -> u64 {
    let finite = |b: u64| float_bits_to_f64(elem, b).is_some_and(f64::is_finite);
    if !finite(bits) {
        return bits;
    }
    let sign = 1u64 << (elem.storage_bits() - 1);
    let magnitude = bits & !sign;
    let negative = bits & sign != 0;
    let next = match (magnitude, negative == up) {
        // From a zero, the smallest subnormal of the direction's sign.
        (0, _) => {
            if up {
                1
            } else {
                sign | 1
            }
        }
        // Towards zero.
        (m, true) => (bits & sign) | (m - 1),
        // Away from zero.
        (m, false) => (bits & sign) | (m + 1),
    };
    if finite(next) {
        next
    } else {
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_go_to_the_neighbouring_values_and_stop_at_the_finite_range() {
        let bf16 = |v: f32| u64::from(v.to_bits() >> 16);
        let one = bf16(1.0);
        assert_eq!(float_bits_to_f64(ElemType::Bf16, step_bits(ElemType::Bf16, one, true)), Some(1.0078125));
        assert_eq!(float_bits_to_f64(ElemType::Bf16, step_bits(ElemType::Bf16, one, false)), Some(0.99609375));
        let minus_one = bf16(-1.0);
        assert_eq!(float_bits_to_f64(ElemType::Bf16, step_bits(ElemType::Bf16, minus_one, true)), Some(-0.99609375));
        assert_eq!(float_bits_to_f64(ElemType::Bf16, step_bits(ElemType::Bf16, minus_one, false)), Some(-1.0078125));
        let up_from_zero = float_bits_to_f64(ElemType::Fp32, step_bits(ElemType::Fp32, 0, true));
        assert!(up_from_zero.is_some_and(|v| v > 0.0 && v < 1e-44));
        let max = u64::from(f32::MAX.to_bits());
        assert_eq!(step_bits(ElemType::Fp32, max, true), max, "no step to infinity");
        let inf = u64::from(f32::INFINITY.to_bits());
        assert_eq!(step_bits(ElemType::Fp32, inf, false), inf);
    }

    #[test]
    fn a_candidate_between_the_variants_is_its_own_reference() {
        let t = |v: &[f32]| {
            let bits: Vec<u64> = v.iter().map(|x| u64::from(x.to_bits())).collect();
            TensorData::from_bits(ElemType::Fp32, &[v.len()], &bits).expect("shape")
        };
        let variants = [t(&[-1.0, 2.0, f32::NAN]), t(&[-0.0, 3.0, 1.0])];
        let spanned = span(&variants, &t(&[-0.0, 5.0, f32::NAN])).expect("same shapes");
        let v = spanned.to_f64();
        assert_eq!(v[0].to_bits(), (-0.0f64).to_bits());
        assert_eq!(v[1], 3.0, "outside: the nearest variant");
        assert!(v[2].is_nan());
    }
}
