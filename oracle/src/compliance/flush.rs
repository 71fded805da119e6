//! Subnormal inputs flushed to zero: the second reference TOSA allows.
//!
//! TOSA 1.0 lets an implementation flush bf16, fp16 and fp32 subnormal
//! *input* values to sign-preserved zero before an operator computes
//! (every floating-point operator's "Precision Requirements"), provided it
//! flushes all of them (§1.8 "Floating-Point Precision Requirements":
//! "either all values must be flushed to sign-preserved zero, or none of
//! them"). fp8 subnormals must be supported and are never flushed. A result
//! is then compliant if it meets the rules against either the reference as
//! given or the reference of the flushed computation.
//!
//! The in-tree executor computes the flushed form itself (every operator
//! flushes its operands: `crate::exec::Executor::flushing_subnormals`), so
//! subnormals produced inside the graph are flushed too. The TOSA reference
//! model cannot be asked to flush: [`flush_request`] flushes what the graph
//! reads from outside (inputs, graph constants, the module's constants), which
//! is where the hunt's subnormals come from.

use crate::oracle::{ExecRequest, OwnedExecRequest};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::{Inst, Module};

/// `(exponent mask, sign bit)` of the element types whose subnormals may be
/// flushed; `None` for the others (fp8 keeps its subnormals; integers and
/// bool have none).
fn masks(elem: ElemType) -> Option<(u64, u64)> {
    match elem {
        ElemType::Fp32 => Some((0x7f80_0000, 0x8000_0000)),
        ElemType::Fp16 => Some((0x7c00, 0x8000)),
        ElemType::Bf16 => Some((0x7f80, 0x8000)),
        ElemType::Fp8E4M3
        | ElemType::Fp8E5M2
        | ElemType::Bool
        | ElemType::I8
        | ElemType::I16
        | ElemType::I32
        | ElemType::I48 => None,
    }
}

/// The bits of `bits` flushed to sign-preserved zero, when they are a subnormal of `elem`
/// that TOSA lets an implementation flush.
pub fn flushed_bits(elem: ElemType, bits: u64) -> Option<u64> {
    let (exponent, sign) = masks(elem)?;
    let magnitude = bits & !sign;
    (bits & exponent == 0 && magnitude != 0).then_some(bits & sign)
}

/// Whether `t` holds a subnormal that may be flushed.
pub fn has_subnormals(t: &TensorData) -> bool {
    masks(t.elem()).is_some() && t.to_bits().into_iter().any(|b| flushed_bits(t.elem(), b).is_some())
}

/// `t` with every flushable subnormal replaced by sign-preserved zero, or
/// `None` when it holds none.
pub fn flush_subnormals(t: &TensorData) -> Option<TensorData> {
    let elem = t.elem();
    masks(elem)?;
    let bits = t.to_bits();
    if !bits.iter().any(|&b| flushed_bits(elem, b).is_some()) {
        return None;
    }
    let flushed: Vec<u64> = bits.into_iter().map(|b| flushed_bits(elem, b).unwrap_or(b)).collect();
    TensorData::from_bits(elem, t.shape(), &flushed).ok()
}

/// The request with every flushable subnormal the graph reads from outside
/// flushed: inputs, graph constants, and the module's scalar `OpConstant`s
/// (the constituents of its tensor constants). `None` when there is none, or
/// when the module does not decode and encode (then there is nothing to compare).
pub fn flush_request(request: &ExecRequest<'_>) -> Option<OwnedExecRequest> {
    let mut changed = false;
    let mut flush_all = |t: &TensorData| match flush_subnormals(t) {
        Some(f) => {
            changed = true;
            f
        }
        None => t.clone(),
    };
    let inputs: Vec<TensorData> = request.inputs.iter().map(&mut flush_all).collect();
    let graph_constants = request.graph_constants.iter().map(|(&id, t)| (id, flush_all(t))).collect();
    let module = Module::decode_words(request.module).ok()?;
    let mut flushed_module = module.clone();
    let a = Analysis::new(&module);
    for inst in &mut flushed_module.insts {
        let Inst::Constant { ty, value, spec: false, .. } = inst else { continue };
        let Some(elem) = (match a.ty(*ty) {
            Some(Type::Scalar(s)) => ElemType::from_spirv(s),
            _ => None,
        }) else {
            continue;
        };
        let Some(&word) = value.first() else { continue };
        if let Some(zero) = flushed_bits(elem, u64::from(word)) {
            // Scalar constants of these types are one word (16-bit ones in the low half).
            value[0] = zero as u32;
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    let words = if flushed_module == module { request.module.to_vec() } else { flushed_module.encode_words().ok()? };
    Some(OwnedExecRequest {
        module: words,
        entry_point: request.entry_point.map(str::to_string),
        inputs,
        graph_constants,
    })
}

/// The in-tree executor's outputs for `request` with every subnormal operand
/// flushed ([`crate::exec::Executor::run_flushing_subnormals`]); `None` when
/// no operator reads a subnormal, or the run does not complete.
pub fn flushed_in_tree_outputs(request: &ExecRequest<'_>) -> Option<Vec<TensorData>> {
    let module = Module::decode_words(request.module).ok()?;
    crate::exec::Executor::default()
        .run_flushing_subnormals(&module, request.entry_point, request.inputs, request.graph_constants)
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};

    #[test]
    fn only_bf16_fp16_fp32_subnormals_flush_and_keep_their_sign() {
        assert_eq!(flushed_bits(ElemType::Fp32, 1), Some(0));
        assert_eq!(flushed_bits(ElemType::Fp32, 0x8000_0001), Some(0x8000_0000));
        assert_eq!(flushed_bits(ElemType::Fp32, 0x0080_0000), None, "normal_min stays");
        assert_eq!(flushed_bits(ElemType::Fp32, 0), None, "zero is no subnormal");
        assert_eq!(flushed_bits(ElemType::Fp16, 0x83ff), Some(0x8000));
        assert_eq!(flushed_bits(ElemType::Bf16, 0x007f), Some(0));
        assert_eq!(flushed_bits(ElemType::Fp8E4M3, 0x01), None, "fp8 subnormals must be kept");
        assert_eq!(flushed_bits(ElemType::Fp8E5M2, 0x81), None);
        assert_eq!(flushed_bits(ElemType::I32, 1), None);
    }

    #[test]
    fn tensors_flush_only_when_they_hold_subnormals() {
        let t =
            TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(&[3]), vec![1.0, -f32::from_bits(1), 1e-30]).expect("shape"));
        assert!(has_subnormals(&t));
        let f = flush_subnormals(&t).expect("flushes");
        assert_eq!(f.to_bits(), vec![u64::from(1f32.to_bits()), 0x8000_0000, u64::from(1e-30f32.to_bits())]);
        assert!(flush_subnormals(&f).is_none());
        let e4 = TensorData::from_bits(ElemType::Fp8E4M3, &[2], &[0x01, 0x81]).expect("shape");
        assert!(!has_subnormals(&e4) && flush_subnormals(&e4).is_none());
    }
}
