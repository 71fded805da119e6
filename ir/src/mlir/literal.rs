//! MLIR spellings of element types, tensor types and constant values.
//!
//! Values print exactly: integers as signed decimals of their width, floats
//! as the shortest decimal that reads back as the same `f64` (every bf16,
//! fp16, fp8 and fp32 value is exactly an `f64`, and MLIR rounds a decimal
//! literal to the nearest value of the element type, so the decimal comes
//! back bit-exact), and NaN/infinity as the hexadecimal bit pattern, which
//! MLIR reads as the raw bits of the element type.

use crate::elem::ElemType;
use crate::scalar::float_bits_to_f64;
use std::fmt::Write as _;

/// Tensors with more elements than this (and not all equal) print their data
/// as one hexadecimal string, which is compact and exact.
const HEX_THRESHOLD: usize = 64;

/// The MLIR element type of a TOSA element type (`i8`, `f16`, `f8E4M3FN`, `i1`).
pub fn mlir_elem_type(elem: ElemType) -> &'static str {
    match elem {
        ElemType::Bool => "i1",
        ElemType::I8 => "i8",
        ElemType::I16 => "i16",
        ElemType::I32 => "i32",
        // TOSA MLIR has a real 48-bit type; SPIR-V only stores it in 64 bits.
        ElemType::I48 => "i48",
        ElemType::Fp16 => "f16",
        ElemType::Bf16 => "bf16",
        ElemType::Fp32 => "f32",
        ElemType::Fp8E4M3 => "f8E4M3FN",
        ElemType::Fp8E5M2 => "f8E5M2",
    }
}

/// The MLIR ranked tensor type `tensor<2x3xf32>` (`tensor<f32>` for an empty shape).
pub fn mlir_type(elem: ElemType, shape: &[u64]) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        let _ = write!(s, "{d}x");
    }
    s.push_str(mlir_elem_type(elem));
    s.push('>');
    s
}

/// Bits MLIR's hexadecimal dense storage uses per element (i1 takes a byte,
/// i48 six bytes).
fn hex_bytes(elem: ElemType) -> usize {
    match elem {
        ElemType::I48 => 6,
        other => (other.storage_bits() / 8) as usize,
    }
}

/// The value of a signed integer element from its raw bits (low bits used).
fn signed(elem: ElemType, bits: u64) -> Result<i64, String> {
    let width = elem.storage_bits();
    let shift = 64 - width;
    let v = ((bits << shift) as i64) >> shift;
    if elem == ElemType::I48 && !(-(1i64 << 47)..(1i64 << 47)).contains(&v) {
        return Err(format!("value {v} does not fit in i48"));
    }
    Ok(v)
}

/// One element as an MLIR literal (without its type).
pub(crate) fn scalar_literal(elem: ElemType, bits: u64) -> Result<String, String> {
    Ok(match elem {
        ElemType::Bool => if bits & 1 != 0 { "true" } else { "false" }.to_string(),
        ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I48 => signed(elem, bits)?.to_string(),
        _ => float_literal(elem, bits),
    })
}

/// A float element: exact decimal when finite, else the bit pattern in hex.
fn float_literal(elem: ElemType, bits: u64) -> String {
    match float_bits_to_f64(elem, bits) {
        Some(v) if v.is_finite() => decimal(v),
        _ => {
            let digits = (elem.storage_bits() / 4) as usize;
            let mask = if elem.storage_bits() >= 64 { u64::MAX } else { (1u64 << elem.storage_bits()) - 1 };
            format!("0x{:0digits$X}", bits & mask)
        }
    }
}

/// The shortest round-trip decimal of `v` (Rust's `Debug` form: `0.5`,
/// `65504.0`, `1.5e-7`), always with a `.` in the mantissa, because MLIR's
/// lexer reads `1e-7` as the integer 1 followed by an identifier.
fn decimal(v: f64) -> String {
    let s = format!("{v:?}");
    match s.split_once('e') {
        Some((mantissa, exp)) if !mantissa.contains('.') => format!("{mantissa}.0e{exp}"),
        _ => s,
    }
}

/// A `dense<...>` attribute for a tensor of `shape` with raw element `bits`
/// in row-major order (the caller guarantees `bits.len()` is the element count).
pub(crate) fn dense_literal(elem: ElemType, shape: &[u64], bits: &[u64]) -> Result<String, String> {
    let Some(first) = bits.first() else {
        return Err("the tensor has no elements".into());
    };
    if bits.iter().all(|b| scalar_eq(elem, *b, *first)) {
        return Ok(format!("dense<{}>", scalar_literal(elem, *first)?));
    }
    if bits.len() > HEX_THRESHOLD {
        return hex_literal(elem, bits);
    }
    let mut out = String::from("dense<");
    nested(&mut out, elem, shape, bits)?;
    out.push('>');
    Ok(out)
}

/// Whether two raw patterns are the same element value bit for bit (only the
/// storage bits count).
fn scalar_eq(elem: ElemType, a: u64, b: u64) -> bool {
    let width = elem.storage_bits();
    let mask = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    if elem == ElemType::Bool {
        return (a & 1) == (b & 1);
    }
    (a & mask) == (b & mask)
}

/// Nested brackets, one level per dimension. Iterative, so that a hostile
/// rank cannot exhaust the stack.
fn nested(out: &mut String, elem: ElemType, shape: &[u64], bits: &[u64]) -> Result<(), String> {
    let rank = shape.len().max(1);
    for (i, b) in bits.iter().enumerate() {
        if i == 0 {
            out.push_str(&"[".repeat(rank));
        } else {
            // How many innermost dimensions end just before element i.
            let mut closed = 0;
            let mut stride = 1u64;
            for &d in shape.iter().rev() {
                stride = stride.saturating_mul(d);
                if stride == 0 || (i as u64) % stride != 0 {
                    break;
                }
                closed += 1;
            }
            let closed = closed.min(rank);
            out.push_str(&"]".repeat(closed));
            out.push_str(", ");
            out.push_str(&"[".repeat(closed));
        }
        out.push_str(&scalar_literal(elem, *b)?);
    }
    out.push_str(&"]".repeat(rank));
    Ok(())
}

/// `dense<"0x...">`: each element's storage bytes, little-endian.
fn hex_literal(elem: ElemType, bits: &[u64]) -> Result<String, String> {
    let bytes = hex_bytes(elem);
    let mut out = String::with_capacity(10 + bits.len() * bytes * 2);
    out.push_str("dense<\"0x");
    for &b in bits {
        let v = match elem {
            ElemType::Bool => b & 1,
            ElemType::I48 => signed(elem, b)? as u64,
            _ => b,
        };
        for byte in v.to_le_bytes().iter().take(bytes) {
            let _ = write!(out, "{byte:02X}");
        }
    }
    out.push_str("\">");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        assert_eq!(mlir_type(ElemType::Fp32, &[1, 8, 8, 4]), "tensor<1x8x8x4xf32>");
        assert_eq!(mlir_type(ElemType::I48, &[3]), "tensor<3xi48>");
        assert_eq!(mlir_type(ElemType::Fp8E4M3, &[]), "tensor<f8E4M3FN>");
        assert_eq!(mlir_elem_type(ElemType::Bool), "i1");
    }

    #[test]
    fn integers_are_signed_decimals_of_their_width() {
        assert_eq!(scalar_literal(ElemType::I8, 0x80).as_deref(), Ok("-128"));
        assert_eq!(scalar_literal(ElemType::I16, 0xFF9C).as_deref(), Ok("-100"));
        assert_eq!(scalar_literal(ElemType::I32, u64::MAX).as_deref(), Ok("-1"));
        assert_eq!(scalar_literal(ElemType::I48, (-5i64) as u64).as_deref(), Ok("-5"));
        assert!(scalar_literal(ElemType::I48, 1u64 << 47).is_err());
        assert_eq!(scalar_literal(ElemType::Bool, 1).as_deref(), Ok("true"));
    }

    #[test]
    fn floats_are_exact() {
        assert_eq!(scalar_literal(ElemType::Fp32, 0x3f80_0000).as_deref(), Ok("1.0"));
        assert_eq!(scalar_literal(ElemType::Fp32, 0x3dcc_cccd).as_deref(), Ok("0.10000000149011612"));
        assert_eq!(scalar_literal(ElemType::Fp32, 0x8000_0000).as_deref(), Ok("-0.0"));
        assert_eq!(scalar_literal(ElemType::Fp32, 0x0000_0001).as_deref(), Ok("1.401298464324817e-45"));
        assert_eq!(scalar_literal(ElemType::Fp32, 0x7f7f_ffff).as_deref(), Ok("3.4028234663852886e38"));
        assert_eq!(scalar_literal(ElemType::Fp32, 0x7fc0_0000).as_deref(), Ok("0x7FC00000"));
        assert_eq!(scalar_literal(ElemType::Fp16, 0x7c00).as_deref(), Ok("0x7C00"));
        assert_eq!(scalar_literal(ElemType::Fp16, 0x0001).as_deref(), Ok("5.960464477539063e-8"));
        assert_eq!(scalar_literal(ElemType::Fp16, 0x0400 | 0x8000).as_deref(), Ok("-6.103515625e-5"));
        assert_eq!(scalar_literal(ElemType::Bf16, 0x3fc0).as_deref(), Ok("1.5"));
        assert_eq!(scalar_literal(ElemType::Fp8E4M3, 0x7f).as_deref(), Ok("0x7F"));
        assert_eq!(scalar_literal(ElemType::Fp8E4M3, 0x7e).as_deref(), Ok("448.0"));
        assert_eq!(scalar_literal(ElemType::Fp8E5M2, 0x7c).as_deref(), Ok("0x7C"));
        // Every decimal printed reads back to the same f32.
        for bits in [0x0000_0001u32, 0x0080_0000, 0x7f7f_ffff, 0x3eaa_aaab, 0xc2f6_e979] {
            let text = scalar_literal(ElemType::Fp32, u64::from(bits)).unwrap_or_default();
            let back: f64 = text.parse().unwrap_or(f64::NAN);
            assert_eq!((back as f32).to_bits(), bits, "{text}");
        }
    }

    /// MLIR's float token: `[0-9]+ '.' [0-9]* ([eE] [-+]? [0-9]+)?`, after an optional minus.
    fn is_mlir_float_token(s: &str) -> bool {
        let s = s.strip_prefix('-').unwrap_or(s);
        let (mantissa, exp) = match s.split_once('e') {
            Some((m, e)) => (m, Some(e)),
            None => (s, None),
        };
        let Some((int, frac)) = mantissa.split_once('.') else { return false };
        let digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
        let exp_ok = exp.is_none_or(|e| {
            let e = e.strip_prefix('-').or_else(|| e.strip_prefix('+')).unwrap_or(e);
            !e.is_empty() && digits(e)
        });
        !int.is_empty() && digits(int) && digits(frac) && exp_ok
    }

    /// Every finite value of the narrow float types (and a sweep of fp32)
    /// prints as a float token whose f64 value is exactly the element's value.
    #[test]
    fn decimals_read_back_exactly() {
        let mut patterns: Vec<(ElemType, u64)> = Vec::new();
        for bits in 0..=0xffffu64 {
            patterns.push((ElemType::Fp16, bits));
            patterns.push((ElemType::Bf16, bits));
        }
        for bits in 0..=0xffu64 {
            patterns.push((ElemType::Fp8E4M3, bits));
            patterns.push((ElemType::Fp8E5M2, bits));
        }
        let mut x = 0x9e37_79b9u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            patterns.push((ElemType::Fp32, u64::from(x)));
        }
        for (elem, bits) in patterns {
            let Some(v) = float_bits_to_f64(elem, bits) else { continue };
            let text = float_literal(elem, bits);
            if !v.is_finite() {
                assert!(text.starts_with("0x"), "{elem} {bits:#x}: {text}");
                continue;
            }
            assert!(is_mlir_float_token(&text), "{elem} {bits:#x}: {text}");
            let back: f64 = text.parse().unwrap_or(f64::NAN);
            assert_eq!(back.to_bits(), v.to_bits(), "{elem} {bits:#x}: {text}");
        }
    }

    #[test]
    fn dense_forms() {
        assert_eq!(dense_literal(ElemType::I8, &[3], &[1, 1, 1]).as_deref(), Ok("dense<1>"));
        assert_eq!(dense_literal(ElemType::I8, &[2, 2], &[1, 2, 0xff, 4]).as_deref(), Ok("dense<[[1, 2], [-1, 4]]>"));
        let bits: Vec<u64> = (0..12).collect();
        assert_eq!(
            dense_literal(ElemType::I32, &[2, 3, 2], &bits).as_deref(),
            Ok("dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]>")
        );
        assert_eq!(dense_literal(ElemType::I32, &[1, 3, 1], &bits[..3]).as_deref(), Ok("dense<[[[0], [1], [2]]]>"));
        // A hostile rank neither overflows the stack nor misplaces commas.
        let mut shape = vec![1u64; 100_000];
        shape.push(2);
        let text = dense_literal(ElemType::I8, &shape, &[0, 1]).unwrap_or_default();
        assert_eq!(text.matches('[').count(), 100_001);
        assert!(text.contains("[0, 1]"), "{}", &text[text.len() - 20..]);
        assert_eq!(dense_literal(ElemType::Bool, &[2], &[1, 0]).as_deref(), Ok("dense<[true, false]>"));
        let bits: Vec<u64> = (0..65).collect();
        let hex = dense_literal(ElemType::I16, &[65], &bits).unwrap_or_default();
        assert!(hex.starts_with("dense<\"0x000001000200"), "{hex}");
        assert_eq!(hex.len(), "dense<\"0x\">".len() + 65 * 4);
        let wide: Vec<u64> = (0..65).map(|i| (-(i as i64)) as u64).collect();
        let hex = dense_literal(ElemType::I48, &[65], &wide).unwrap_or_default();
        assert!(hex.starts_with("dense<\"0x000000000000FFFFFFFFFFFF"), "{hex}");
        assert!(dense_literal(ElemType::I8, &[0], &[]).is_err());
    }
}
