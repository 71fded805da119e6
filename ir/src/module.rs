//! A whole module: header plus instructions in their original order.
//!
//! The order is kept as it was read (even where it breaks the logical layout)
//! so that decode → encode is the identity on every module that decodes;
//! [`crate::analysis`] builds the graph-level views on top.

use crate::binary::{self, DecodeError, Endian, Header};
use crate::inst::{ExtSet, Id, Inst};
use std::collections::HashMap;

/// A decoded SPIR-V module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The header words.
    pub header: Header,
    /// Byte order of the file it came from (used by [`Module::encode_bytes`]).
    pub endian: Endian,
    /// Every instruction, in order.
    pub insts: Vec<Inst>,
}

/// An instruction too long for SPIR-V's 16-bit word count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("instruction {index} ({opname}) needs {words} words; SPIR-V allows at most 65535")]
pub struct EncodeError {
    /// Position in [`Module::insts`].
    pub index: usize,
    /// Opcode name.
    pub opname: String,
    /// Words it would take.
    pub words: usize,
}

impl Module {
    /// Decodes a module file (either byte order).
    pub fn decode_bytes(bytes: &[u8]) -> Result<Module, DecodeError> {
        let (words, endian) = binary::bytes_to_words(bytes)?;
        let mut m = Module::decode_words(&words)?;
        m.endian = endian;
        Ok(m)
    }

    /// Decodes a module from host-order words.
    pub fn decode_words(words: &[u32]) -> Result<Module, DecodeError> {
        let (header, raws, framing) = binary::split_partial(words)?;
        // Sets are classified before decoding so that an OpExtInst whose
        // import comes later (an invalid layout) is still typed.
        let mut sets: HashMap<Id, ExtSet> = HashMap::new();
        for r in &raws {
            if r.opcode == spirv::Op::ExtInstImport as u16 {
                if let Ok(Inst::ExtInstImport { result, name }) = Inst::decode(r.opcode, r.operands, |_| ExtSet::Other)
                {
                    sets.insert(result, ExtSet::from_import_name(&name));
                }
            }
        }
        let lookup = |id: Id| sets.get(&id).copied().unwrap_or(ExtSet::Other);
        let mut insts = Vec::with_capacity(raws.len());
        for r in &raws {
            let inst = Inst::decode(r.opcode, r.operands, lookup).map_err(|kind| DecodeError {
                word_offset: r.word_offset,
                opcode: Some(r.opcode),
                kind,
            })?;
            insts.push(inst);
        }
        // Every framed instruction precedes the framing error, so decode
        // errors (reported above) always come first in the stream.
        if let Some(e) = framing {
            return Err(e);
        }
        Ok(Module { header, endian: Endian::Little, insts })
    }

    /// Encodes to host-order words.
    pub fn encode_words(&self) -> Result<Vec<u32>, EncodeError> {
        let mut out = Vec::with_capacity(5 + self.insts.len() * 5);
        out.extend([binary::MAGIC, self.header.version, self.header.generator, self.header.bound, self.header.schema]);
        for (index, inst) in self.insts.iter().enumerate() {
            let start = out.len();
            out.push(0);
            inst.encode_operands(&mut out);
            let words = out.len() - start;
            if words > 0xffff {
                return Err(EncodeError { index, opname: crate::opname::opcode_name(inst.opcode()), words });
            }
            out[start] = ((words as u32) << 16) | u32::from(inst.opcode());
        }
        Ok(out)
    }

    /// Encodes to bytes in [`Module::endian`] order.
    pub fn encode_bytes(&self) -> Result<Vec<u8>, EncodeError> {
        Ok(binary::words_to_bytes(&self.encode_words()?, self.endian))
    }

    /// Word offset of every instruction in the encoded module (same order as
    /// [`Module::insts`]), for diagnostics.
    pub fn word_offsets(&self) -> Vec<usize> {
        let mut offsets = Vec::with_capacity(self.insts.len());
        let mut at = 5;
        let mut scratch = Vec::new();
        for inst in &self.insts {
            offsets.push(at);
            scratch.clear();
            inst.encode_operands(&mut scratch);
            at += 1 + scratch.len();
        }
        offsets
    }
}

/// Compares two word sequences; the index of the first difference, if any
/// (a length difference counts at the shorter length).
pub fn first_difference(a: &[u32], b: &[u32]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y).or(if a.len() == b.len() { None } else { Some(a.len().min(b.len())) })
}
