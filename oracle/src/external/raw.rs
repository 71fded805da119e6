//! Tensors as raw little-endian element bytes, without a header: what
//! `iree-run-module --input=SHAPExTYPE=@file.bin` reads and `--output=@file.bin`
//! writes, and what `vgf_dump --dump-constant N` writes for a non-`.npy` name.
//!
//! Each element takes [`ElemType::storage_bits`] / 8 bytes: bool one byte
//! (0 or 1), i48 eight bytes (sign-extended), bf16 and fp8 their bit patterns.
//! Raw bytes need no dtype for bf16 or fp8, which numpy's format lacks.

use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;

/// Bytes per element in raw form.
pub fn element_bytes(elem: ElemType) -> usize {
    (elem.storage_bits() / 8) as usize
}

/// The tensor's elements as raw little-endian bytes, row-major.
pub fn to_raw(t: &TensorData) -> Vec<u8> {
    let width = element_bytes(t.elem());
    let mut bytes = Vec::with_capacity(t.len() * width);
    for b in t.to_bits() {
        bytes.extend_from_slice(&b.to_le_bytes()[..width]);
    }
    bytes
}

/// A tensor of `elem` and `shape` from raw little-endian bytes; the length
/// must be exactly the element count times the element width.
pub fn from_raw(elem: ElemType, shape: &[usize], bytes: &[u8]) -> Result<TensorData, String> {
    let width = element_bytes(elem);
    let count = spvgraph_ir::count::checked_len(shape).ok_or("shape too large")?;
    let need = count.checked_mul(width).ok_or("shape too large")?;
    if bytes.len() != need {
        return Err(format!("{} bytes where {need} were expected for {elem} {shape:?}", bytes.len()));
    }
    let bits: Vec<u64> = bytes
        .chunks_exact(width)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..width].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect();
    // Any non-zero byte is true, as a C++ `bool` read would make it.
    let bits = if elem == ElemType::Bool { bits.into_iter().map(|b| u64::from(b != 0)).collect() } else { bits };
    TensorData::from_bits(elem, shape, &bits).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_type_round_trips() {
        for elem in ElemType::ALL {
            let bits: Vec<u64> = (0..6u64).map(|i| if elem == ElemType::Bool { i % 2 } else { i * 37 + 1 }).collect();
            let t = TensorData::from_bits(elem, &[3, 2], &bits).expect("tensor");
            let raw = to_raw(&t);
            assert_eq!(raw.len(), 6 * element_bytes(elem), "{elem}");
            let back = from_raw(elem, &[3, 2], &raw).expect("reads");
            assert_eq!(back.to_bits(), t.to_bits(), "{elem}");
        }
    }

    #[test]
    fn negative_i48_is_eight_sign_extended_bytes() {
        let t = TensorData::from_bits(ElemType::I48, &[1], &[(-2i64) as u64]).expect("tensor");
        assert_eq!(to_raw(&t), vec![0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    }

    #[test]
    fn wrong_lengths_are_errors() {
        let e = from_raw(ElemType::I16, &[2, 2], &[0; 7]).expect_err("short");
        assert!(e.contains("7 bytes where 8"), "{e}");
        assert!(from_raw(ElemType::Fp32, &[usize::MAX, 2], &[]).is_err());
    }
}
