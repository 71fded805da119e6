//! `.npy` files as numpy writes and reads them (`numpy.lib.format`).
//!
//! Writing produces the bytes `numpy.save` produces: format version 1.0
//! (2.0 only when the header outgrows 65535 bytes), the header dict
//! `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }` followed by
//! numpy's spare spaces for growing the first axis, then spaces and a newline
//! so that the data starts at a multiple of 64 bytes; the data in C order,
//! little-endian. Strict readers (IREE's `iree-run-module`, `tosa_verify`,
//! the scenario runner) accept what numpy writes, so the bytes are compared
//! with numpy's own by a test.
//!
//! Reading accepts what `numpy.load` accepts for the dtypes spvgraph uses:
//! format versions 1.0, 2.0 and 3.0; C or Fortran order (Fortran-ordered data
//! is reordered to C order); little-endian, big-endian or byte-order-free
//! dtypes; bool bytes that are true whenever non-zero (numpy views any
//! non-zero byte as `True`; model-converter writes 0xff); data bytes past the
//! end of the array are ignored, as `numpy.load` ignores them.
//!
//! numpy has no bf16 or fp8 dtype, so their bit patterns travel in a
//! container dtype chosen by [`Dtypes`] when writing; reading accepts every
//! container of the right width.

use crate::elem::ElemType;
use crate::tensor::TensorData;
use std::fmt;
use std::io::Write;
use std::path::Path;

/// Which numpy dtypes carry the element types numpy lacks (bf16, fp8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtypes {
    /// numpy's own types: bf16 as `<u2` and fp8 as `|u1` bit patterns. What
    /// `spvgraph run` reads and writes and what numpy users can load.
    Numpy,
    /// The TOSA reference model's (`tosa_reference_model`, `tosa_verify`):
    /// bf16 as `<V2`, fp8e4m3 as `<V1`, fp8e5m2 as `|u1`.
    ReferenceModel,
}

impl Dtypes {
    /// The `descr` a tensor of `elem` is written with.
    pub fn descr(self, elem: ElemType) -> &'static str {
        match (self, elem) {
            (_, ElemType::Bool) => "|b1",
            (_, ElemType::I8) => "|i1",
            (_, ElemType::I16) => "<i2",
            (_, ElemType::I32) => "<i4",
            (_, ElemType::I48) => "<i8",
            (_, ElemType::Fp16) => "<f2",
            (_, ElemType::Fp32) => "<f4",
            (Dtypes::Numpy, ElemType::Bf16) => "<u2",
            (Dtypes::ReferenceModel, ElemType::Bf16) => "<V2",
            (Dtypes::ReferenceModel, ElemType::Fp8E4M3) => "<V1",
            (_, ElemType::Fp8E4M3 | ElemType::Fp8E5M2) => "|u1",
        }
    }
}

/// Why bytes are not a `.npy` array this module can use, and where they came from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {reason}")]
pub struct NpyError {
    /// The file, or `.npy data` for bytes in memory.
    pub origin: String,
    /// What is wrong.
    pub reason: String,
}

impl NpyError {
    fn data(reason: impl Into<String>) -> NpyError {
        NpyError { origin: ".npy data".into(), reason: reason.into() }
    }

    /// The same error, attributed to the file `path`.
    pub fn at(self, path: &Path) -> NpyError {
        NpyError { origin: path.display().to_string(), reason: self.reason }
    }
}

/// The kind letter of a numpy dtype (`b`, `i`, `u`, `f`, `V`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DtypeKind {
    /// `b`: bool.
    Bool,
    /// `i`: signed integer.
    Int,
    /// `u`: unsigned integer.
    UInt,
    /// `f`: IEEE floating point.
    Float,
    /// `V`: raw bytes.
    Void,
}

/// A parsed dtype descriptor: kind, byte width and byte order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dtype {
    /// The kind letter.
    pub kind: DtypeKind,
    /// Bytes per element.
    pub size: usize,
    /// Big-endian (`>`); `<`, `|` and `=` are read as little-endian.
    pub big_endian: bool,
}

impl Dtype {
    /// Parses a simple descriptor such as `<f4`, `|b1`, `>i2` or `<V2`.
    pub fn parse(descr: &str) -> Option<Dtype> {
        let (big_endian, rest) = match descr.as_bytes().first()? {
            b'>' | b'!' => (true, &descr[1..]),
            b'<' | b'|' | b'=' => (false, &descr[1..]),
            _ => (false, descr),
        };
        let mut chars = rest.chars();
        let kind = match chars.next()? {
            'b' | '?' => DtypeKind::Bool,
            'i' => DtypeKind::Int,
            'u' => DtypeKind::UInt,
            'f' => DtypeKind::Float,
            'V' => DtypeKind::Void,
            _ => return None,
        };
        let size: usize = chars.as_str().parse().ok().filter(|&s| s > 0)?;
        Some(Dtype { kind, size, big_endian })
    }

    fn letter(self) -> char {
        match self.kind {
            DtypeKind::Bool => 'b',
            DtypeKind::Int => 'i',
            DtypeKind::UInt => 'u',
            DtypeKind::Float => 'f',
            DtypeKind::Void => 'V',
        }
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let order = if self.size == 1 {
            '|'
        } else if self.big_endian {
            '>'
        } else {
            '<'
        };
        write!(f, "{order}{}{}", self.letter(), self.size)
    }
}

/// The containers an element type may be read from (kind, width): its own
/// dtype, and for bf16/fp8 the unsigned or void container of either
/// [`Dtypes`] convention.
fn readable(elem: ElemType, d: Dtype) -> bool {
    use DtypeKind::*;
    match elem {
        ElemType::Bool => d.kind == Bool && d.size == 1,
        ElemType::I8 => d.kind == Int && d.size == 1,
        ElemType::I16 => d.kind == Int && d.size == 2,
        ElemType::I32 => d.kind == Int && d.size == 4,
        ElemType::I48 => d.kind == Int && d.size == 8,
        ElemType::Fp16 => d.kind == Float && d.size == 2,
        ElemType::Fp32 => d.kind == Float && d.size == 4,
        ElemType::Bf16 => matches!(d.kind, UInt | Void) && d.size == 2,
        ElemType::Fp8E4M3 | ElemType::Fp8E5M2 => matches!(d.kind, UInt | Void) && d.size == 1,
    }
}

/// One array of a `.npy` file: descriptor, shape, and the element bytes in
/// C order, little-endian.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpyArray {
    descr: String,
    dtype: Dtype,
    shape: Vec<usize>,
    data: Vec<u8>,
}

impl NpyArray {
    /// An array of `descr` elements (a simple descriptor, see [`Dtype::parse`],
    /// little-endian or byte-order free) with `data` holding every element
    /// in C order.
    pub fn new(descr: &str, shape: &[usize], data: Vec<u8>) -> Result<NpyArray, NpyError> {
        let dtype = Dtype::parse(descr).ok_or_else(|| NpyError::data(format!("unsupported dtype {descr:?}")))?;
        if dtype.big_endian && dtype.size > 1 {
            return Err(NpyError::data(format!("{descr}: big-endian data is only read, never written")));
        }
        let need = byte_len(shape, dtype.size)?;
        if data.len() != need {
            return Err(NpyError::data(format!(
                "{} data bytes for {descr} shape {shape:?}, which needs {need}",
                data.len()
            )));
        }
        Ok(NpyArray { descr: descr.to_string(), dtype, shape: shape.to_vec(), data })
    }

    /// A tensor in the container dtypes of `dtypes`.
    pub fn from_tensor(t: &TensorData, dtypes: Dtypes) -> NpyArray {
        let descr = dtypes.descr(t.elem());
        NpyArray {
            descr: descr.to_string(),
            // The descriptors of `Dtypes::descr` all parse.
            dtype: Dtype::parse(descr).unwrap_or(Dtype { kind: DtypeKind::Void, size: 1, big_endian: false }),
            shape: t.shape().to_vec(),
            data: t.to_le_bytes(),
        }
    }

    /// An `<f8` array (the reference model's precise-mode results).
    pub fn from_f64(shape: &[usize], values: &[f64]) -> Result<NpyArray, NpyError> {
        NpyArray::new("<f8", shape, values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }

    /// The descriptor (byte order `<` for data read as big-endian, since the
    /// data has been made little-endian).
    pub fn descr(&self) -> &str {
        &self.descr
    }

    /// The parsed descriptor.
    pub fn dtype(&self) -> Dtype {
        self.dtype
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The element bytes, C order, little-endian.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The elements as a tensor of `elem` (see the module docs for the
    /// dtypes each element type is read from).
    pub fn to_tensor(&self, elem: ElemType) -> Result<TensorData, NpyError> {
        if !readable(elem, self.dtype) {
            let alternatives = match elem {
                ElemType::Bf16 => " (or <V2)",
                ElemType::Fp8E4M3 | ElemType::Fp8E5M2 => " (or |V1)",
                _ => "",
            };
            return Err(NpyError::data(format!(
                "dtype {} where {} ({elem}){alternatives} was expected",
                self.descr,
                Dtypes::Numpy.descr(elem)
            )));
        }
        let t = if elem == ElemType::Bool {
            TensorData::from_bit_iter(elem, &self.shape, self.data.iter().map(|&b| u64::from(b != 0)))
        } else {
            TensorData::from_bit_iter(elem, &self.shape, self.words())
        };
        t.map_err(|e| NpyError::data(e.to_string()))
    }

    /// The elements as `f64` when the dtype is `f8` (`None` otherwise).
    pub fn to_f64(&self) -> Option<Vec<f64>> {
        (self.dtype.kind == DtypeKind::Float && self.dtype.size == 8)
            .then(|| self.words().map(f64::from_bits).collect())
    }

    /// Each element's bytes as a little-endian integer (elements of up to 8 bytes).
    fn words(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        self.data.chunks_exact(self.dtype.size).map(|c| {
            let mut b = [0u8; 8];
            let n = c.len().min(8);
            b[..n].copy_from_slice(&c[..n]);
            u64::from_le_bytes(b)
        })
    }

    /// The file's bytes, as `numpy.save` writes them.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = header(&self.descr, &self.shape);
        out.extend_from_slice(&self.data);
        out
    }

    /// Parses a `.npy` file's bytes.
    pub fn decode(bytes: &[u8]) -> Result<NpyArray, NpyError> {
        let layout = Layout::parse(bytes)?;
        let data = &bytes[layout.data..layout.data + layout.len];
        let data = if layout.fortran { fortran_to_c(data, &layout.shape, layout.dtype.size) } else { data.to_vec() };
        Ok(layout.into_array(data))
    }

    /// [`NpyArray::decode`] keeping the file's buffer as the data (a C-ordered
    /// file's elements are not copied).
    pub fn decode_owned(mut bytes: Vec<u8>) -> Result<NpyArray, NpyError> {
        let layout = Layout::parse(&bytes)?;
        if layout.fortran {
            return NpyArray::decode(&bytes);
        }
        bytes.truncate(layout.data + layout.len);
        bytes.drain(..layout.data);
        Ok(layout.into_array(bytes))
    }

    /// Reads a `.npy` file.
    pub fn read(path: &Path) -> Result<NpyArray, NpyError> {
        let bytes = std::fs::read(path)
            .map_err(|e| NpyError { origin: path.display().to_string(), reason: format!("cannot read: {e}") })?;
        NpyArray::decode_owned(bytes).map_err(|e| e.at(path))
    }

    /// Writes a `.npy` file (header and data written in turn, not joined first).
    pub fn write(&self, path: &Path) -> Result<(), NpyError> {
        let failed =
            |e: std::io::Error| NpyError { origin: path.display().to_string(), reason: format!("cannot write: {e}") };
        let mut f = std::fs::File::create(path).map_err(failed)?;
        f.write_all(&header(&self.descr, &self.shape)).map_err(failed)?;
        f.write_all(&self.data).map_err(failed)
    }
}

/// Writes `t` as a `.npy` file in `dtypes`, streaming its elements (the
/// same bytes as [`NpyArray::from_tensor`] then [`NpyArray::write`], without
/// the copy of the data).
pub fn write_tensor(path: &Path, t: &TensorData, dtypes: Dtypes) -> Result<(), NpyError> {
    let failed =
        |e: std::io::Error| NpyError { origin: path.display().to_string(), reason: format!("cannot write: {e}") };
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).map_err(failed)?);
    f.write_all(&header(dtypes.descr(t.elem()), t.shape())).map_err(failed)?;
    t.write_le_bytes(&mut f).map_err(failed)?;
    f.flush().map_err(failed)
}

/// Where a `.npy` file's parts are and what its header says.
struct Layout {
    descr: String,
    dtype: Dtype,
    fortran: bool,
    shape: Vec<usize>,
    /// Offset of the data.
    data: usize,
    /// Bytes of data the shape needs.
    len: usize,
}

impl Layout {
    fn parse(bytes: &[u8]) -> Result<Layout, NpyError> {
        let (text, data) = split_header(bytes)?;
        let (descr, fortran, shape) = parse_header(&text)?;
        let dtype = Dtype::parse(&descr).ok_or_else(|| NpyError::data(format!("unsupported dtype {descr:?}")))?;
        let len = byte_len(&shape, dtype.size)?;
        if data.len() < len {
            return Err(NpyError::data(format!(
                "{} data bytes for {descr} shape {shape:?}, which needs {len}",
                data.len()
            )));
        }
        Ok(Layout { descr, dtype, fortran, shape, data: bytes.len() - data.len(), len })
    }

    /// The array of `data` (C order, in the file's byte order), made little-endian.
    fn into_array(self, mut data: Vec<u8>) -> NpyArray {
        let Layout { mut descr, mut dtype, shape, .. } = self;
        if dtype.big_endian && dtype.size > 1 {
            for element in data.chunks_exact_mut(dtype.size) {
                element.reverse();
            }
            dtype.big_endian = false;
            descr = dtype.to_string();
        }
        NpyArray { descr, dtype, shape, data }
    }
}

/// `shape`'s element count times `size`, or an error when it overflows.
fn byte_len(shape: &[usize], size: usize) -> Result<usize, NpyError> {
    shape
        .iter()
        .try_fold(size, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| NpyError::data(format!("shape {shape:?} is too large")))
}

const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// numpy aligns the data to this many bytes (`ARRAY_ALIGN`).
const ALIGN: usize = 64;
/// numpy leaves room for the first axis to grow to this many digits
/// (`GROWTH_AXIS_MAX_DIGITS`).
const GROWTH_DIGITS: usize = 21;

/// The header numpy writes for a C-ordered array: magic, version, length
/// and the padded dict.
fn header(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [] => "()".to_string(),
        [d] => format!("({d},)"),
        _ => format!("({})", shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {dims}, }}");
    if let Some(first) = shape.first() {
        dict.push_str(&" ".repeat(GROWTH_DIGITS.saturating_sub(first.to_string().len())));
    }
    // Version 1.0 stores the length in two bytes, 2.0 in four.
    let with_newline = dict.len() + 1;
    let wrap = |prefix: usize| with_newline + ALIGN - (prefix + with_newline) % ALIGN;
    let (version, len) = match wrap(10) {
        n if n <= usize::from(u16::MAX) => (1u8, n),
        _ => (2, wrap(12)),
    };
    let mut out = Vec::with_capacity(12 + len);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(len as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(len as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.resize(out.len() + len - with_newline, b' ');
    out.push(b'\n');
    out
}

/// The header text and the bytes after it.
fn split_header(bytes: &[u8]) -> Result<(String, &[u8]), NpyError> {
    if bytes.get(..6) != Some(MAGIC.as_slice()) {
        return Err(NpyError::data("not a .npy file (no \\x93NUMPY magic)"));
    }
    let truncated = || NpyError::data("truncated .npy header");
    let (major, minor) = (bytes.get(6).copied().ok_or_else(truncated)?, bytes.get(7).copied().ok_or_else(truncated)?);
    let (len, start) = match (major, minor) {
        (1, 0) => (bytes.get(8..10).map(|b| usize::from(u16::from_le_bytes([b[0], b[1]]))), 10),
        (2 | 3, 0) => (bytes.get(8..12).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize), 12),
        _ => return Err(NpyError::data(format!("unsupported .npy format version {major}.{minor}"))),
    };
    let end = len.and_then(|l| l.checked_add(start)).filter(|&e| e <= bytes.len()).ok_or_else(truncated)?;
    let raw = &bytes[start..end];
    // Versions 1.0 and 2.0 are latin-1, 3.0 is UTF-8.
    let text = if major == 3 {
        std::str::from_utf8(raw).map_err(|_| NpyError::data("the .npy header is not UTF-8"))?.to_string()
    } else {
        raw.iter().map(|&b| char::from(b)).collect()
    };
    Ok((text, &bytes[end..]))
}

/// `descr`, `fortran_order` and `shape` of a header dict; numpy requires
/// exactly these keys.
fn parse_header(text: &str) -> Result<(String, bool, Vec<usize>), NpyError> {
    use py_literal::Value;
    let bad = |why: String| NpyError::data(format!("malformed .npy header {:?}: {why}", text.trim_end()));
    let value: Value = text.trim().parse().map_err(|e| bad(format!("{e}")))?;
    let Value::Dict(entries) = value else { return Err(bad("not a dict".into())) };
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    for (key, value) in entries {
        match (key, value) {
            (Value::String(k), Value::String(v)) if k == "descr" => descr = Some(v),
            (Value::String(k), Value::Boolean(v)) if k == "fortran_order" => fortran = Some(v),
            (Value::String(k), Value::Tuple(dims)) if k == "shape" => {
                let dims = dims
                    .iter()
                    .map(|d| match d {
                        Value::Integer(i) => usize::try_from(i).ok(),
                        _ => None,
                    })
                    .collect::<Option<Vec<usize>>>()
                    .ok_or_else(|| bad("the shape is not a tuple of non-negative integers".into()))?;
                shape = Some(dims);
            }
            (k, v) => return Err(bad(format!("unexpected entry {k}: {v}"))),
        }
    }
    match (descr, fortran, shape) {
        (Some(d), Some(f), Some(s)) => Ok((d, f, s)),
        _ => Err(bad("it needs 'descr' (a string), 'fortran_order' (a bool) and 'shape' (a tuple)".into())),
    }
}

/// Reorders elements of `size` bytes stored in Fortran order (first index
/// fastest) into C order (last index fastest).
fn fortran_to_c(data: &[u8], shape: &[usize], size: usize) -> Vec<u8> {
    if shape.len() < 2 || data.is_empty() {
        return data.to_vec();
    }
    // Element strides of the Fortran layout.
    let mut strides = Vec::with_capacity(shape.len());
    let mut acc = 1usize;
    for &d in shape {
        strides.push(acc);
        acc = acc.saturating_mul(d);
    }
    let mut out = Vec::with_capacity(data.len());
    let mut index = vec![0usize; shape.len()];
    loop {
        let at = index.iter().zip(&strides).map(|(i, s)| i * s).sum::<usize>() * size;
        out.extend_from_slice(&data[at..at + size]);
        // Advance the C-order odometer, last axis fastest.
        let mut axis = shape.len();
        loop {
            if axis == 0 {
                return out;
            }
            axis -= 1;
            index[axis] += 1;
            if index[axis] < shape[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` with the first `from` replaced by `to` (same length keeps the header valid).
    fn replace(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
        let at = bytes.windows(from.len()).position(|w| w == from.as_bytes()).expect("present");
        [&bytes[..at], to.as_bytes(), &bytes[at + from.len()..]].concat()
    }

    #[test]
    fn the_header_is_numpys() {
        // Bytes written by numpy 2.1.3 for np.zeros((2, 3), np.float32).
        let h = header("<f4", &[2, 3]);
        let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
        assert_eq!(&h[..10], b"\x93NUMPY\x01\x00\x76\x00");
        assert_eq!(&h[10..10 + dict.len()], dict.as_bytes());
        assert_eq!(h.len(), 128);
        assert!(h[10 + dict.len()..127].iter().all(|&b| b == b' '));
        assert_eq!(h[127], b'\n');
        let scalar = header("|b1", &[]);
        assert!(String::from_utf8_lossy(&scalar).contains("'shape': (), }"));
        assert_eq!(scalar.len() % ALIGN, 0);
        assert!(String::from_utf8_lossy(&header("|i1", &[5])).contains("'shape': (5,), }"));
    }

    #[test]
    fn a_header_past_64k_uses_version_2() {
        let shape = vec![1usize; 30_000];
        let h = header("<f4", &shape);
        assert_eq!(&h[6..8], &[2, 0]);
        assert_eq!(h.len() % ALIGN, 0);
        let a = NpyArray::decode(&[h, 7f32.to_le_bytes().to_vec()].concat()).expect("decode");
        assert_eq!(a.shape().len(), 30_000);
    }

    #[test]
    fn streamed_files_equal_encoded_ones_and_read_back() {
        let dir = std::env::temp_dir().join(format!("spvgraph-npy-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("t.npy");
        for dtypes in [Dtypes::Numpy, Dtypes::ReferenceModel] {
            for elem in ElemType::ALL {
                let bits: Vec<u64> =
                    (0..24u64).map(|i| if elem == ElemType::Bool { i % 3 / 2 } else { i * 0x9e37 + 5 }).collect();
                let t = TensorData::from_bits(elem, &[2, 3, 4], &bits).expect("shape");
                write_tensor(&path, &t, dtypes).expect("write");
                let written = std::fs::read(&path).expect("read");
                assert_eq!(written, NpyArray::from_tensor(&t, dtypes).encode(), "{elem} {dtypes:?}");
                let back = NpyArray::read(&path).and_then(|a| a.to_tensor(elem)).expect("decode");
                assert_eq!(back, t, "{elem} {dtypes:?}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_element_type_survives() {
        for dtypes in [Dtypes::Numpy, Dtypes::ReferenceModel] {
            for elem in ElemType::ALL {
                let bits: Vec<u64> =
                    (0..6u64).map(|i| if elem == ElemType::Bool { i % 2 } else { i * 37 + 1 }).collect();
                let t = TensorData::from_bits(elem, &[2, 3], &bits).expect("shape");
                let bytes = NpyArray::from_tensor(&t, dtypes).encode();
                assert_eq!(bytes.len() % ALIGN, t.to_le_bytes().len() % ALIGN);
                let back = NpyArray::decode(&bytes).and_then(|a| a.to_tensor(elem)).expect("read");
                assert_eq!(back, t, "{elem} {dtypes:?}");
            }
        }
    }

    #[test]
    fn fortran_order_is_reordered() {
        // [[1, 2, 3], [4, 5, 6]] stored column by column.
        let mut bytes = replace(&header("|i1", &[2, 3]), "False", "True ");
        bytes.extend_from_slice(&[1, 4, 2, 5, 3, 6]);
        let t = NpyArray::decode(&bytes).and_then(|a| a.to_tensor(ElemType::I8)).expect("read");
        assert_eq!(t.to_bits(), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(fortran_to_c(&[1, 2, 3, 4, 5, 6, 7, 8], &[2, 2, 2], 1), vec![1, 5, 3, 7, 2, 6, 4, 8]);
    }

    #[test]
    fn bool_bytes_are_true_when_non_zero() {
        let a = NpyArray::new("|b1", &[3], vec![0, 0xff, 2]).expect("array");
        assert_eq!(a.to_tensor(ElemType::Bool).expect("bool").to_bits(), vec![0, 1, 1]);
    }

    #[test]
    fn big_endian_data_is_swapped() {
        let mut bytes = header(">i2", &[2]);
        bytes.extend_from_slice(&[0x01, 0x02, 0xff, 0xfe]);
        let a = NpyArray::decode(&bytes).expect("decode");
        assert_eq!(a.descr(), "<i2");
        assert_eq!(a.to_tensor(ElemType::I16).expect("i16").to_bits(), vec![0x0102, (-2i64) as u64]);
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        let good =
            NpyArray::from_tensor(&TensorData::from_bits(ElemType::I16, &[2], &[1, 2]).expect("tensor"), Dtypes::Numpy)
                .encode();
        for cut in 0..good.len() {
            assert!(NpyArray::decode(&good[..cut]).is_err(), "{cut} bytes");
        }
        let e = NpyArray::decode(&good).and_then(|a| a.to_tensor(ElemType::Bf16)).expect_err("dtype");
        assert!(e.reason.contains("<i2") && e.reason.contains("<u2"), "{e}");
        let mut extra = good.clone();
        extra.push(9);
        assert!(NpyArray::decode(&extra).is_ok(), "numpy ignores trailing bytes");
        for (from, to) in [("'shape'", "'shap' "), ("(2,)", "[2] "), ("'<i2'", "'<U2'"), ("False", "0    ")] {
            assert!(NpyArray::decode(&replace(&good, from, to)).is_err(), "{from} -> {to}");
        }
        assert!(NpyArray::new("<f4", &[3], vec![0; 8]).is_err());
        assert!(NpyArray::new(">f4", &[1], vec![0; 4]).is_err());
        assert!(NpyArray::new("<f4", &[usize::MAX, 2], vec![]).is_err());
    }

    #[test]
    fn f64_arrays() {
        let a = NpyArray::from_f64(&[2], &[1.5, -0.25]).expect("array");
        let back = NpyArray::decode(&a.encode()).expect("decode");
        assert_eq!(back.to_f64(), Some(vec![1.5, -0.25]));
        assert_eq!(NpyArray::new("<f4", &[1], vec![0; 4]).expect("f4").to_f64(), None);
    }
}
