//! Tensors of every element type, and their `.npy` files.
//!
//! Storage follows TOSA: i48 lives in `i64`, bf16 and fp8 keep their raw bit
//! patterns (`u16`/`u8`) because numpy has no such dtypes. In `.npy` files:
//! bool `|b1`, i8 `|i1`, i16 `<i2`, i32 `<i4`, i48 `<i8`, fp16 `<f2`, fp32
//! `<f4`, bf16 `<u2` (raw bits), fp8e4m3/fp8e5m2 `|u1` (raw bits). Reading a
//! file needs the expected element type (from the module's interface type),
//! because `<u2`/`|u1` alone do not say which format the bits are in.

use crate::elem::ElemType;
use crate::npy::{Dtypes, NpyArray};
use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};
use std::path::Path;

/// The element data of a tensor, one variant per element type.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorData {
    /// bool.
    Bool(ArrayD<bool>),
    /// i8.
    I8(ArrayD<i8>),
    /// i16.
    I16(ArrayD<i16>),
    /// i32.
    I32(ArrayD<i32>),
    /// i48 values sign-extended into i64.
    I48(ArrayD<i64>),
    /// fp16.
    Fp16(ArrayD<f16>),
    /// bf16.
    Bf16(ArrayD<bf16>),
    /// fp32.
    Fp32(ArrayD<f32>),
    /// fp8 E4M3 raw bits.
    Fp8E4M3(ArrayD<u8>),
    /// fp8 E5M2 raw bits.
    Fp8E5M2(ArrayD<u8>),
}

/// A tensor failure with the file or operation it concerns.
#[derive(Debug, thiserror::Error)]
pub enum TensorError {
    /// The element count does not match the shape.
    #[error("{what}: {got} values for shape {shape:?}")]
    Shape {
        /// What was being built.
        what: String,
        /// Values supplied.
        got: usize,
        /// Shape requested.
        shape: Vec<usize>,
    },
    /// A `.npy` file could not be read as the expected element type.
    #[error("{path}: cannot read as {elem} (numpy dtype {dtype}): {reason}")]
    ReadNpy {
        /// The file.
        path: String,
        /// Expected element type.
        elem: ElemType,
        /// The dtype that element type is stored as.
        dtype: &'static str,
        /// The library's reason.
        reason: String,
    },
    /// A `.npy` file could not be written.
    #[error("{path}: cannot write: {reason}")]
    WriteNpy {
        /// The file.
        path: String,
        /// The library's reason.
        reason: String,
    },
}

/// The numpy dtype an element type is stored as.
pub fn npy_dtype(elem: ElemType) -> &'static str {
    match elem {
        ElemType::Bool => "bool",
        ElemType::I8 => "int8",
        ElemType::I16 => "int16",
        ElemType::I32 => "int32",
        ElemType::I48 => "int64",
        ElemType::Fp16 => "float16",
        ElemType::Fp32 => "float32",
        ElemType::Bf16 => "uint16 (bf16 bits)",
        ElemType::Fp8E4M3 => "uint8 (fp8e4m3 bits)",
        ElemType::Fp8E5M2 => "uint8 (fp8e5m2 bits)",
    }
}

fn sign_extend(bits: u64, width: u32) -> i64 {
    let shift = 64 - width;
    ((bits << shift) as i64) >> shift
}

impl TensorData {
    /// The element type.
    pub fn elem(&self) -> ElemType {
        match self {
            TensorData::Bool(_) => ElemType::Bool,
            TensorData::I8(_) => ElemType::I8,
            TensorData::I16(_) => ElemType::I16,
            TensorData::I32(_) => ElemType::I32,
            TensorData::I48(_) => ElemType::I48,
            TensorData::Fp16(_) => ElemType::Fp16,
            TensorData::Bf16(_) => ElemType::Bf16,
            TensorData::Fp32(_) => ElemType::Fp32,
            TensorData::Fp8E4M3(_) => ElemType::Fp8E4M3,
            TensorData::Fp8E5M2(_) => ElemType::Fp8E5M2,
        }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        match self {
            TensorData::Bool(a) => a.shape(),
            TensorData::I8(a) => a.shape(),
            TensorData::I16(a) => a.shape(),
            TensorData::I32(a) => a.shape(),
            TensorData::I48(a) => a.shape(),
            TensorData::Fp16(a) => a.shape(),
            TensorData::Bf16(a) => a.shape(),
            TensorData::Fp32(a) => a.shape(),
            TensorData::Fp8E4M3(a) => a.shape(),
            TensorData::Fp8E5M2(a) => a.shape(),
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape().iter().product()
    }

    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A tensor from raw element bit patterns in row-major order (the low
    /// `storage_bits` of each value are used; integers are sign-extended).
    pub fn from_bits(elem: ElemType, shape: &[usize], bits: &[u64]) -> Result<TensorData, TensorError> {
        TensorData::from_bit_iter(elem, shape, bits.iter().copied())
    }

    /// [`TensorData::from_bits`] from an iterator, so a caller decoding a
    /// large buffer needs no vector of 64-bit patterns beside it.
    pub fn from_bit_iter(
        elem: ElemType,
        shape: &[usize],
        bits: impl ExactSizeIterator<Item = u64>,
    ) -> Result<TensorData, TensorError> {
        let got = bits.len();
        if crate::count::checked_len(shape) != Some(got) {
            return Err(TensorError::Shape { what: format!("{elem} tensor"), got, shape: shape.to_vec() });
        }
        let dim = IxDyn(shape);
        let build = |v| TensorError::Shape { what: format!("{elem} tensor ({v})"), got, shape: shape.to_vec() };
        let t = match elem {
            ElemType::Bool => {
                TensorData::Bool(ArrayD::from_shape_vec(dim, bits.map(|b| b & 1 != 0).collect()).map_err(build)?)
            }
            ElemType::I8 => {
                TensorData::I8(ArrayD::from_shape_vec(dim, bits.map(|b| b as u8 as i8).collect()).map_err(build)?)
            }
            ElemType::I16 => {
                TensorData::I16(ArrayD::from_shape_vec(dim, bits.map(|b| b as u16 as i16).collect()).map_err(build)?)
            }
            ElemType::I32 => {
                TensorData::I32(ArrayD::from_shape_vec(dim, bits.map(|b| b as u32 as i32).collect()).map_err(build)?)
            }
            ElemType::I48 => {
                TensorData::I48(ArrayD::from_shape_vec(dim, bits.map(|b| sign_extend(b, 64)).collect()).map_err(build)?)
            }
            ElemType::Fp16 => TensorData::Fp16(
                ArrayD::from_shape_vec(dim, bits.map(|b| f16::from_bits(b as u16)).collect()).map_err(build)?,
            ),
            ElemType::Bf16 => TensorData::Bf16(
                ArrayD::from_shape_vec(dim, bits.map(|b| bf16::from_bits(b as u16)).collect()).map_err(build)?,
            ),
            ElemType::Fp32 => TensorData::Fp32(
                ArrayD::from_shape_vec(dim, bits.map(|b| f32::from_bits(b as u32)).collect()).map_err(build)?,
            ),
            ElemType::Fp8E4M3 => {
                TensorData::Fp8E4M3(ArrayD::from_shape_vec(dim, bits.map(|b| b as u8).collect()).map_err(build)?)
            }
            ElemType::Fp8E5M2 => {
                TensorData::Fp8E5M2(ArrayD::from_shape_vec(dim, bits.map(|b| b as u8).collect()).map_err(build)?)
            }
        };
        Ok(t)
    }

    /// All-zero (all-false) tensor.
    pub fn zeros(elem: ElemType, shape: &[usize]) -> TensorData {
        let count: usize = shape.iter().product();
        match TensorData::from_bits(elem, shape, &vec![0; count]) {
            Ok(t) => t,
            // The count is computed from the shape, so this cannot mismatch.
            Err(_) => TensorData::Bool(ArrayD::from_elem(IxDyn(shape), false)),
        }
    }

    /// Raw element bit patterns in row-major order (integers sign-extended
    /// to 64 bits then reinterpreted; floats as their storage bits).
    pub fn to_bits(&self) -> Vec<u64> {
        match self {
            TensorData::Bool(a) => a.iter().map(|&v| u64::from(v)).collect(),
            TensorData::I8(a) => a.iter().map(|&v| i64::from(v) as u64).collect(),
            TensorData::I16(a) => a.iter().map(|&v| i64::from(v) as u64).collect(),
            TensorData::I32(a) => a.iter().map(|&v| i64::from(v) as u64).collect(),
            TensorData::I48(a) => a.iter().map(|&v| v as u64).collect(),
            TensorData::Fp16(a) => a.iter().map(|v| u64::from(v.to_bits())).collect(),
            TensorData::Bf16(a) => a.iter().map(|v| u64::from(v.to_bits())).collect(),
            TensorData::Fp32(a) => a.iter().map(|v| u64::from(v.to_bits())).collect(),
            TensorData::Fp8E4M3(a) | TensorData::Fp8E5M2(a) => a.iter().map(|&v| u64::from(v)).collect(),
        }
    }

    /// Element values as `f64` (floats decoded exactly, integers converted);
    /// for reports and comparisons.
    pub fn to_f64(&self) -> Vec<f64> {
        let elem = self.elem();
        match self {
            TensorData::Bool(a) => a.iter().map(|&v| f64::from(u8::from(v))).collect(),
            TensorData::I8(a) => a.iter().map(|&v| f64::from(v)).collect(),
            TensorData::I16(a) => a.iter().map(|&v| f64::from(v)).collect(),
            TensorData::I32(a) => a.iter().map(|&v| f64::from(v)).collect(),
            TensorData::I48(a) => a.iter().map(|&v| v as f64).collect(),
            TensorData::Fp32(a) => a.iter().map(|&v| f64::from(v)).collect(),
            _ => self
                .to_bits()
                .into_iter()
                .map(|b| crate::scalar::float_bits_to_f64(elem, b).unwrap_or(f64::NAN))
                .collect(),
        }
    }

    /// The elements' bytes in row-major order, little-endian, each in its
    /// storage width ([`ElemType::storage_bits`]; bool as 0 or 1): the data
    /// section of a `.npy` file, and raw binary for tools that take it.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            TensorData::Bool(a) => a.iter().map(|&v| u8::from(v)).collect(),
            TensorData::I8(a) => a.iter().map(|&v| v as u8).collect(),
            TensorData::I16(a) => a.iter().flat_map(|v| v.to_le_bytes()).collect(),
            TensorData::I32(a) => a.iter().flat_map(|v| v.to_le_bytes()).collect(),
            TensorData::I48(a) => a.iter().flat_map(|v| v.to_le_bytes()).collect(),
            TensorData::Fp16(a) => a.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect(),
            TensorData::Bf16(a) => a.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect(),
            TensorData::Fp32(a) => a.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect(),
            TensorData::Fp8E4M3(a) | TensorData::Fp8E5M2(a) => a.iter().copied().collect(),
        }
    }

    /// Writes [`TensorData::to_le_bytes`] to `w` element by element, so a
    /// large tensor is written without a second copy of its data.
    pub fn write_le_bytes(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        match self {
            TensorData::Bool(a) => a.iter().try_for_each(|&v| w.write_all(&[u8::from(v)])),
            TensorData::I8(a) => a.iter().try_for_each(|&v| w.write_all(&[v as u8])),
            TensorData::I16(a) => a.iter().try_for_each(|v| w.write_all(&v.to_le_bytes())),
            TensorData::I32(a) => a.iter().try_for_each(|v| w.write_all(&v.to_le_bytes())),
            TensorData::I48(a) => a.iter().try_for_each(|v| w.write_all(&v.to_le_bytes())),
            TensorData::Fp16(a) => a.iter().try_for_each(|v| w.write_all(&v.to_bits().to_le_bytes())),
            TensorData::Bf16(a) => a.iter().try_for_each(|v| w.write_all(&v.to_bits().to_le_bytes())),
            TensorData::Fp32(a) => a.iter().try_for_each(|v| w.write_all(&v.to_bits().to_le_bytes())),
            TensorData::Fp8E4M3(a) | TensorData::Fp8E5M2(a) => a.iter().try_for_each(|&v| w.write_all(&[v])),
        }
    }

    /// Writes a `.npy` file as `numpy.save` would (dtypes in the module docs;
    /// see [`crate::npy`]).
    pub fn write_npy(&self, path: &Path) -> Result<(), TensorError> {
        crate::npy::write_tensor(path, self, Dtypes::Numpy)
            .map_err(|e| TensorError::WriteNpy { path: path.display().to_string(), reason: e.reason })
    }

    /// Reads a `.npy` file holding `elem` data, as numpy reads it (C or
    /// Fortran order, any byte order, any non-zero bool byte true; see
    /// [`crate::npy`]).
    pub fn read_npy(path: &Path, elem: ElemType) -> Result<TensorData, TensorError> {
        NpyArray::read(path).and_then(|a| a.to_tensor(elem)).map_err(|e| TensorError::ReadNpy {
            path: path.display().to_string(),
            elem,
            dtype: npy_dtype(elem),
            reason: e.reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_type_survives_npy() {
        let dir = std::env::temp_dir().join(format!("spvgraph-tensor-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for elem in ElemType::ALL {
            let bits: Vec<u64> = (0..6u64).map(|i| if elem == ElemType::Bool { i % 2 } else { i * 37 + 1 }).collect();
            let t = TensorData::from_bits(elem, &[2, 3], &bits).expect("shape");
            let f = dir.join(format!("{elem}.npy"));
            t.write_npy(&f).expect("write");
            let back = TensorData::read_npy(&f, elem).expect("read");
            assert_eq!(back.to_bits(), t.to_bits(), "{elem}");
            assert_eq!(back.shape(), &[2, 3]);
        }
        let f = dir.join("i8.npy");
        let e = TensorData::read_npy(&f, ElemType::Fp32).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("i8.npy") && e.contains("fp32"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn shape_mismatch_is_an_error_not_a_panic() {
        assert!(TensorData::from_bits(ElemType::I8, &[2, 2], &[1, 2, 3]).is_err());
    }

    #[test]
    fn integers_are_sign_extended() {
        let t = TensorData::from_bits(ElemType::I8, &[2], &[0xff, 0x7f]).expect("shape");
        assert_eq!(t.to_bits(), vec![u64::MAX, 0x7f]);
        assert_eq!(t.to_f64(), vec![-1.0, 127.0]);
    }
}
