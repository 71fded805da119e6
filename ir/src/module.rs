//! A whole module: header plus instructions in their original order.
//!
//! The order is kept as it was read (even where it breaks the logical layout)
//! so that decode → encode is the identity on every module that decodes;
//! [`crate::analysis`] builds the graph-level views on top.

use crate::binary::{self, DecodeError, Endian, Header};
use crate::inst::{ExtSet, Id, Inst, Recycler};

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
    /// The `GraphConstantID`s the module declares (`OpGraphConstantARM`):
    /// the graph-constant data a request for it needs, and no more.
    pub fn graph_constant_ids(&self) -> std::collections::BTreeSet<u32> {
        self.insts
            .iter()
            .filter_map(|i| match i {
                Inst::GraphConstant { graph_constant_id, .. } => Some(*graph_constant_id),
                _ => None,
            })
            .collect()
    }

    /// Decodes a module file (either byte order).
    pub fn decode_bytes(bytes: &[u8]) -> Result<Module, DecodeError> {
        let (words, endian) = binary::bytes_to_words(bytes)?;
        let mut m = Module::decode_words(&words)?;
        m.endian = endian;
        Ok(m)
    }

    /// Decodes a module from host-order words.
    pub fn decode_words(words: &[u32]) -> Result<Module, DecodeError> {
        Module::decode_words_recycling(words, &mut Recycler::default())
    }

    /// Like [`Module::decode_words`], but takes the instruction vector and
    /// every vector and string the instructions hold from `recycler`, so
    /// that a caller decoding many modules one after the other (handing
    /// each back with [`Recycler::reclaim`]) allocates almost nothing.
    pub fn decode_words_recycling(words: &[u32], recycler: &mut Recycler) -> Result<Module, DecodeError> {
        let header = binary::read_header(words)?;
        // First pass over the framing: count the instructions (one
        // allocation for them) and classify the sets before decoding, so
        // that an OpExtInst whose import comes later (an invalid layout) is
        // still typed. A later import of the same id wins, as it always has.
        let mut sets: Vec<(Id, ExtSet)> = Vec::new();
        let mut count = 0usize;
        let mut framing = None;
        for step in binary::frames(words) {
            match step {
                Ok(r) => {
                    if r.opcode == spirv::Op::ExtInstImport as u16 {
                        if let Ok(inst) = Inst::decode_recycling(r.opcode, r.operands, |_| ExtSet::Other, recycler) {
                            if let Inst::ExtInstImport { result, name } = &inst {
                                sets.push((*result, ExtSet::from_import_name(name)));
                            }
                            recycler.reclaim_one(inst);
                        }
                    }
                    count += 1;
                }
                Err(e) => framing = Some(e),
            }
        }
        let lookup = |id: Id| sets.iter().rev().find(|(s, _)| *s == id).map_or(ExtSet::Other, |(_, k)| *k);
        let mut insts = recycler.take_insts();
        insts.clear();
        insts.reserve_exact(count);
        // The framing error, if any, is the last item: `flatten` skips it.
        for r in binary::frames(words).flatten() {
            let inst = Inst::decode_recycling(r.opcode, r.operands, lookup, recycler).map_err(|kind| DecodeError {
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
