//! The SPIR-V physical layout: header, instruction framing, literal strings.
//!
//! Everything here works on words and reports failures as [`DecodeError`]s that
//! name the word offset and, when known, the opcode. Nothing here panics on any
//! input.

use std::fmt;

/// The SPIR-V magic number (first word of every module).
pub const MAGIC: u32 = 0x0723_0203;

/// Byte order of a module file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Endian {
    /// Little-endian words (what every producer here writes).
    #[default]
    Little,
    /// Big-endian words.
    Big,
}

/// The five header words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Version word (`0x00010600` = 1.6).
    pub version: u32,
    /// Generator magic (tool id in the high 16 bits).
    pub generator: u32,
    /// Id bound: every id is below it.
    pub bound: u32,
    /// Reserved schema word (0).
    pub schema: u32,
}

impl Header {
    /// `(major, minor)` of the version word.
    pub fn version_pair(&self) -> (u32, u32) {
        ((self.version >> 16) & 0xff, (self.version >> 8) & 0xff)
    }
}

/// Why a byte or word string is not a well-formed SPIR-V module.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The byte length is not a multiple of four.
    #[error("length {0} bytes is not a multiple of 4")]
    NotWordAligned(usize),
    /// Fewer than five words.
    #[error("module has {0} words, fewer than the 5-word header")]
    NoHeader(usize),
    /// The first word is not the magic number in either byte order.
    #[error("bad magic number {0:#010x}")]
    BadMagic(u32),
    /// An instruction's word count is zero.
    #[error("instruction word count is 0")]
    ZeroWordCount,
    /// An instruction runs past the end of the module.
    #[error("instruction has word count {word_count} but only {remaining} words remain")]
    Truncated {
        /// Declared word count.
        word_count: usize,
        /// Words left in the module.
        remaining: usize,
    },
    /// The operand count does not fit the instruction's grammar.
    #[error("expected {expected} operand words, found {found}")]
    OperandCount {
        /// What the grammar allows, e.g. "3" or "2 to 4".
        expected: &'static str,
        /// Operand words present.
        found: usize,
    },
    /// A literal string is malformed.
    #[error("literal string {0}")]
    BadString(&'static str),
    /// Words follow a literal string where the grammar allows none.
    #[error("{0} unexpected word(s) after the literal string")]
    TrailingWords(usize),
}

/// A decode failure: where, in which instruction, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct DecodeError {
    /// Offset in words from the start of the module.
    pub word_offset: usize,
    /// The opcode of the instruction being decoded, if the failure is inside one.
    pub opcode: Option<u16>,
    /// What was wrong.
    pub kind: DecodeErrorKind,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}: ", self.word_offset)?;
        if let Some(op) = self.opcode {
            write!(f, "{} (opcode {op}): ", crate::opname::opcode_name(op))?;
        }
        write!(f, "{}", self.kind)
    }
}

/// One framed instruction: opcode plus operand words, and where it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawInst<'a> {
    /// The opcode (low half of the first word).
    pub opcode: u16,
    /// The operand words (everything after the first word).
    pub operands: &'a [u32],
    /// Offset of the first word of the instruction in the module.
    pub word_offset: usize,
}

/// Turns bytes into words, detecting the byte order from the magic number.
pub fn bytes_to_words(bytes: &[u8]) -> Result<(Vec<u32>, Endian), DecodeError> {
    let err = |kind| DecodeError { word_offset: 0, opcode: None, kind };
    if bytes.len() % 4 != 0 {
        return Err(err(DecodeErrorKind::NotWordAligned(bytes.len())));
    }
    if bytes.len() < 20 {
        return Err(err(DecodeErrorKind::NoHeader(bytes.len() / 4)));
    }
    let first = [bytes[0], bytes[1], bytes[2], bytes[3]];
    let endian = if u32::from_le_bytes(first) == MAGIC {
        Endian::Little
    } else if u32::from_be_bytes(first) == MAGIC {
        Endian::Big
    } else {
        return Err(err(DecodeErrorKind::BadMagic(u32::from_le_bytes(first))));
    };
    let words = bytes
        .chunks_exact(4)
        .map(|c| {
            let b = [c[0], c[1], c[2], c[3]];
            match endian {
                Endian::Little => u32::from_le_bytes(b),
                Endian::Big => u32::from_be_bytes(b),
            }
        })
        .collect();
    Ok((words, endian))
}

/// Turns words into bytes in the given byte order.
pub fn words_to_bytes(words: &[u32], endian: Endian) -> Vec<u8> {
    let mut out = Vec::with_capacity(words.len() * 4);
    for w in words {
        match endian {
            Endian::Little => out.extend_from_slice(&w.to_le_bytes()),
            Endian::Big => out.extend_from_slice(&w.to_be_bytes()),
        }
    }
    out
}

/// Reads the header and frames the instruction stream.
pub fn split(words: &[u32]) -> Result<(Header, Vec<RawInst<'_>>), DecodeError> {
    let (header, insts, framing) = split_partial(words)?;
    match framing {
        Some(e) => Err(e),
        None => Ok((header, insts)),
    }
}

/// Like [`split`], but keeps the instructions framed before a framing error
/// and returns that error separately, so a caller can report whichever
/// problem comes first in the stream.
pub fn split_partial(words: &[u32]) -> Result<(Header, Vec<RawInst<'_>>, Option<DecodeError>), DecodeError> {
    let header = read_header(words)?;
    let mut insts = Vec::new();
    let mut framing = None;
    for step in frames(words) {
        match step {
            Ok(r) => insts.push(r),
            Err(e) => framing = Some(e),
        }
    }
    Ok((header, insts, framing))
}

/// Reads the five header words (the magic number checked).
pub fn read_header(words: &[u32]) -> Result<Header, DecodeError> {
    let err = |kind| DecodeError { word_offset: 0, opcode: None, kind };
    match words {
        [MAGIC, version, generator, bound, schema, ..] => {
            Ok(Header { version: *version, generator: *generator, bound: *bound, schema: *schema })
        }
        [first, _, _, _, _, ..] => Err(err(DecodeErrorKind::BadMagic(*first))),
        _ => Err(err(DecodeErrorKind::NoHeader(words.len()))),
    }
}

/// The instructions after the header, framed one by one without collecting
/// them; a framing error is the last item.
pub fn frames(words: &[u32]) -> Frames<'_> {
    Frames { words, at: 5 }
}

/// The iterator of [`frames`].
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    words: &'a [u32],
    at: usize,
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<RawInst<'a>, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        let at = self.at;
        let first = *self.words.get(at)?;
        let opcode = (first & 0xffff) as u16;
        let count = (first >> 16) as usize;
        let remaining = self.words.len() - at;
        let kind = if count == 0 {
            DecodeErrorKind::ZeroWordCount
        } else if let Some(operands) = self.words.get(at + 1..at + count) {
            self.at = at + count;
            return Some(Ok(RawInst { opcode, operands, word_offset: at }));
        } else {
            DecodeErrorKind::Truncated { word_count: count, remaining }
        };
        // Nothing after a framing error can be framed.
        self.at = self.words.len();
        Some(Err(DecodeError { word_offset: at, opcode: Some(opcode), kind }))
    }
}

/// Decodes a nul-terminated, zero-padded UTF-8 literal string at the start of
/// `words`; returns it with the number of words it used.
pub fn decode_string(words: &[u32]) -> Result<(String, usize), DecodeErrorKind> {
    decode_string_in(words, Vec::new())
}

/// [`decode_string`] into `buffer`'s allocation (cleared first), for a
/// decoder that reuses the strings of modules it no longer needs.
pub fn decode_string_in(words: &[u32], mut buffer: Vec<u8>) -> Result<(String, usize), DecodeErrorKind> {
    // Find the word holding the nul first, so the bytes are copied once into
    // a buffer of the right size (strings are decoded for every OpName).
    let Some(last) = words.iter().position(|w| w.to_le_bytes().contains(&0)) else {
        return Err(DecodeErrorKind::BadString("is not nul-terminated"));
    };
    let b = words[last].to_le_bytes();
    let nul = b.iter().position(|&x| x == 0).unwrap_or(b.len());
    if b[nul..].iter().any(|&x| x != 0) {
        return Err(DecodeErrorKind::BadString("has non-zero padding after its nul"));
    }
    buffer.clear();
    buffer.reserve_exact(last * 4 + nul);
    for w in &words[..last] {
        buffer.extend_from_slice(&w.to_le_bytes());
    }
    buffer.extend_from_slice(&b[..nul]);
    let s = String::from_utf8(buffer).map_err(|_| DecodeErrorKind::BadString("is not UTF-8"))?;
    Ok((s, last + 1))
}

/// Appends the canonical encoding of a literal string (nul-terminated, zero-padded).
pub fn encode_string(out: &mut Vec<u32>, s: &str) {
    let bytes = s.as_bytes();
    for chunk in bytes.chunks(4) {
        let mut b = [0u8; 4];
        b[..chunk.len()].copy_from_slice(chunk);
        out.push(u32::from_le_bytes(b));
    }
    if bytes.len() % 4 == 0 {
        out.push(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_round_trip_at_every_length_mod_4() {
        for s in ["", "a", "ab", "abc", "abcd", "TOSA.001000.1", "é"] {
            let mut w = Vec::new();
            encode_string(&mut w, s);
            assert_eq!(w.len(), s.len() / 4 + 1);
            assert_eq!(decode_string(&w), Ok((s.to_string(), w.len())));
        }
    }

    #[test]
    fn string_errors_are_named() {
        assert_eq!(
            decode_string(&[u32::from_le_bytes(*b"abcd")]),
            Err(DecodeErrorKind::BadString("is not nul-terminated"))
        );
        assert_eq!(
            decode_string(&[u32::from_le_bytes([b'a', 0, 7, 0])]),
            Err(DecodeErrorKind::BadString("has non-zero padding after its nul"))
        );
    }

    #[test]
    fn framing_reports_offsets() {
        let w = [MAGIC, 0x10600, 0, 10, 0, (4 << 16) | 21, 1, 32];
        let e = split(&w).err();
        assert_eq!(
            e,
            Some(DecodeError {
                word_offset: 5,
                opcode: Some(21),
                kind: DecodeErrorKind::Truncated { word_count: 4, remaining: 3 }
            })
        );
        let w = [MAGIC, 0x10600, 0, 10, 0, 0];
        assert_eq!(split(&w).err().map(|e| e.kind), Some(DecodeErrorKind::ZeroWordCount));
    }

    #[test]
    fn big_endian_is_detected() {
        let words = [MAGIC, 0x10600, 0, 1, 0];
        let be = words_to_bytes(&words, Endian::Big);
        assert_eq!(bytes_to_words(&be), Ok((words.to_vec(), Endian::Big)));
    }
}
