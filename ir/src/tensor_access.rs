//! A typed view of the SPV_ARM_tensors access instructions (`OpTensorReadARM`,
//! `OpTensorWriteARM`, `OpTensorQuerySizeARM`) and of
//! `OpCompositeConstructReplicateEXT`.
//!
//! These instructions live in function bodies, which the instruction model
//! keeps verbatim ([`Inst::Raw`]); this view reads their operands (the
//! optional Tensor Operands mask and the ids that follow it) and writes them
//! back, so that the validator and the near-valid mutators agree on one
//! encoding.

use crate::inst::{Id, Inst};
use spirv::{Op, TensorOperands as Bits};

/// `OpTensorReadARM`.
pub const OP_TENSOR_READ: u16 = Op::TensorReadARM as u16;
/// `OpTensorWriteARM`.
pub const OP_TENSOR_WRITE: u16 = Op::TensorWriteARM as u16;
/// `OpTensorQuerySizeARM`.
pub const OP_TENSOR_QUERY_SIZE: u16 = Op::TensorQuerySizeARM as u16;
/// `OpCompositeConstructReplicateEXT`.
pub const OP_COMPOSITE_CONSTRUCT_REPLICATE: u16 = Op::CompositeConstructReplicateEXT as u16;

/// `NontemporalARM`.
pub const NONTEMPORAL: u32 = Bits::NONTEMPORAL_ARM.bits();
/// `OutOfBoundsValueARM` (an id follows: the value read out of bounds).
pub const OUT_OF_BOUNDS_VALUE: u32 = Bits::OUT_OF_BOUNDS_VALUE_ARM.bits();
/// `MakeElementAvailableARM` (an id follows: the memory scope).
pub const MAKE_ELEMENT_AVAILABLE: u32 = Bits::MAKE_ELEMENT_AVAILABLE_ARM.bits();
/// `MakeElementVisibleARM` (an id follows: the memory scope).
pub const MAKE_ELEMENT_VISIBLE: u32 = Bits::MAKE_ELEMENT_VISIBLE_ARM.bits();
/// `NonPrivateElementARM`.
pub const NON_PRIVATE_ELEMENT: u32 = Bits::NON_PRIVATE_ELEMENT_ARM.bits();
/// Every defined Tensor Operands bit.
pub const KNOWN_BITS: u32 =
    NONTEMPORAL | OUT_OF_BOUNDS_VALUE | MAKE_ELEMENT_AVAILABLE | MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT;
/// The bits whose enabling capability SPV_ARM_tensors gives as VulkanMemoryModel.
pub const MEMORY_MODEL_BITS: u32 = MAKE_ELEMENT_AVAILABLE | MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT;

/// The bits of a Tensor Operands mask with their names, lowest first.
const BIT_NAMES: [(u32, &str); 5] = [
    (NONTEMPORAL, "NontemporalARM"),
    (OUT_OF_BOUNDS_VALUE, "OutOfBoundsValueARM"),
    (MAKE_ELEMENT_AVAILABLE, "MakeElementAvailableARM"),
    (MAKE_ELEMENT_VISIBLE, "MakeElementVisibleARM"),
    (NON_PRIVATE_ELEMENT, "NonPrivateElementARM"),
];

/// A Tensor Operands mask as assembly text (`MakeElementVisibleARM|NonPrivateElementARM`,
/// `NoneARM`); undefined bits are written as a number.
pub fn mask_text(mask: u32) -> String {
    if mask == 0 {
        return "NoneARM".into();
    }
    let mut parts: Vec<String> = BIT_NAMES.iter().filter(|(b, _)| mask & b != 0).map(|(_, n)| n.to_string()).collect();
    if mask & !KNOWN_BITS != 0 {
        parts.push(format!("{:#x}", mask & !KNOWN_BITS));
    }
    parts.join("|")
}

/// How many ids follow a Tensor Operands mask.
pub fn mask_ids(mask: u32) -> usize {
    (mask & (OUT_OF_BOUNDS_VALUE | MAKE_ELEMENT_AVAILABLE | MAKE_ELEMENT_VISIBLE)).count_ones() as usize
}

/// The optional Tensor Operands of a read or write: the mask and the ids
/// its bits bring, in the order of the bits (lowest first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TensorOperands {
    /// The mask word.
    pub mask: u32,
    /// The id after `OutOfBoundsValueARM`.
    pub out_of_bounds: Option<Id>,
    /// The scope id after `MakeElementAvailableARM`.
    pub available_scope: Option<Id>,
    /// The scope id after `MakeElementVisibleARM`.
    pub visible_scope: Option<Id>,
}

impl TensorOperands {
    /// Whether `bit` is set.
    pub fn has(&self, bit: u32) -> bool {
        self.mask & bit != 0
    }

    /// Reads the mask and its ids from `words` (the words after the fixed operands).
    fn decode(words: &[u32]) -> Result<Option<TensorOperands>, TensorAccessError> {
        let Some((&mask, rest)) = words.split_first() else { return Ok(None) };
        if mask & !KNOWN_BITS != 0 {
            return Err(TensorAccessError::UnknownBits(mask & !KNOWN_BITS));
        }
        let wanted = mask_ids(mask);
        if rest.len() != wanted {
            return Err(TensorAccessError::OperandCount { mask, expected: wanted, found: rest.len() });
        }
        let mut ids = rest.iter().map(|&w| Id(w));
        let mut take = |bit: u32| if mask & bit != 0 { ids.next() } else { None };
        let out_of_bounds = take(OUT_OF_BOUNDS_VALUE);
        let available_scope = take(MAKE_ELEMENT_AVAILABLE);
        let visible_scope = take(MAKE_ELEMENT_VISIBLE);
        Ok(Some(TensorOperands { mask, out_of_bounds, available_scope, visible_scope }))
    }

    /// Appends the mask and its ids. An id is written only when its bit is
    /// set, so the words always decode back to what they say.
    fn encode(&self, out: &mut Vec<u32>) {
        out.push(self.mask);
        for (bit, id) in [
            (OUT_OF_BOUNDS_VALUE, self.out_of_bounds),
            (MAKE_ELEMENT_AVAILABLE, self.available_scope),
            (MAKE_ELEMENT_VISIBLE, self.visible_scope),
        ] {
            if self.has(bit) {
                out.push(id.map_or(0, |i| i.0));
            }
        }
    }

    /// The ids that follow the mask.
    pub fn ids(&self) -> impl Iterator<Item = Id> {
        [self.out_of_bounds, self.available_scope, self.visible_scope].into_iter().flatten()
    }
}

/// Why a tensor access instruction's words do not fit its grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TensorAccessError {
    /// Fewer or more fixed operands than the grammar lists.
    #[error("{name} takes {expected} operand words before any Tensor Operands, found {found}")]
    FixedOperands {
        /// The instruction.
        name: &'static str,
        /// Operand words the grammar lists (result type and id included).
        expected: usize,
        /// Operand words present.
        found: usize,
    },
    /// Tensor Operands bits that SPV_ARM_tensors does not define.
    #[error("Tensor Operands bits {0:#x} are not defined by SPV_ARM_tensors")]
    UnknownBits(u32),
    /// The ids after the mask do not match its bits.
    #[error("Tensor Operands {mask:#x} are followed by {found} ids, but its bits need {expected}")]
    OperandCount {
        /// The mask.
        mask: u32,
        /// Ids its bits need.
        expected: usize,
        /// Ids present.
        found: usize,
    },
}

/// One tensor access instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorAccess {
    /// `OpTensorReadARM`.
    Read {
        /// Result Type: a scalar or an array of scalars.
        ty: Id,
        /// Result id.
        result: Id,
        /// The tensor read.
        tensor: Id,
        /// An integer array of the tensor's rank.
        coordinates: Id,
        /// Optional Tensor Operands.
        operands: Option<TensorOperands>,
    },
    /// `OpTensorWriteARM`.
    Write {
        /// The tensor written.
        tensor: Id,
        /// An integer array of the tensor's rank.
        coordinates: Id,
        /// The value written: a scalar or an array of scalars.
        object: Id,
        /// Optional Tensor Operands.
        operands: Option<TensorOperands>,
    },
    /// `OpTensorQuerySizeARM`.
    QuerySize {
        /// Result Type: an integer scalar.
        ty: Id,
        /// Result id.
        result: Id,
        /// The tensor queried.
        tensor: Id,
        /// The dimension, a constant.
        dimension: Id,
    },
}

impl TensorAccess {
    /// The view of `inst` when it is a tensor access instruction: `None` for
    /// other instructions, an error when its words do not fit the grammar.
    pub fn from_inst(inst: &Inst) -> Option<Result<TensorAccess, TensorAccessError>> {
        let Inst::Raw { opcode, operands } = inst else { return None };
        let fixed = |name: &'static str, expected: usize| TensorAccessError::FixedOperands {
            name,
            expected,
            found: operands.len(),
        };
        let access = match *opcode {
            OP_TENSOR_READ => match operands.as_slice() {
                [ty, result, tensor, coordinates, rest @ ..] => {
                    TensorOperands::decode(rest).map(|operands| TensorAccess::Read {
                        ty: Id(*ty),
                        result: Id(*result),
                        tensor: Id(*tensor),
                        coordinates: Id(*coordinates),
                        operands,
                    })
                }
                _ => Err(fixed("OpTensorReadARM", 4)),
            },
            OP_TENSOR_WRITE => match operands.as_slice() {
                [tensor, coordinates, object, rest @ ..] => {
                    TensorOperands::decode(rest).map(|operands| TensorAccess::Write {
                        tensor: Id(*tensor),
                        coordinates: Id(*coordinates),
                        object: Id(*object),
                        operands,
                    })
                }
                _ => Err(fixed("OpTensorWriteARM", 3)),
            },
            OP_TENSOR_QUERY_SIZE => match operands.as_slice() {
                [ty, result, tensor, dimension] => Ok(TensorAccess::QuerySize {
                    ty: Id(*ty),
                    result: Id(*result),
                    tensor: Id(*tensor),
                    dimension: Id(*dimension),
                }),
                _ => Err(fixed("OpTensorQuerySizeARM", 4)),
            },
            _ => return None,
        };
        Some(access)
    }

    /// The instruction.
    pub fn to_inst(&self) -> Inst {
        let mut words = Vec::with_capacity(8);
        let opcode = match self {
            TensorAccess::Read { ty, result, tensor, coordinates, operands } => {
                words.extend([ty.0, result.0, tensor.0, coordinates.0]);
                if let Some(o) = operands {
                    o.encode(&mut words);
                }
                OP_TENSOR_READ
            }
            TensorAccess::Write { tensor, coordinates, object, operands } => {
                words.extend([tensor.0, coordinates.0, object.0]);
                if let Some(o) = operands {
                    o.encode(&mut words);
                }
                OP_TENSOR_WRITE
            }
            TensorAccess::QuerySize { ty, result, tensor, dimension } => {
                words.extend([ty.0, result.0, tensor.0, dimension.0]);
                OP_TENSOR_QUERY_SIZE
            }
        };
        Inst::Raw { opcode, operands: words }
    }

    /// The instruction's name.
    pub fn name(&self) -> &'static str {
        match self {
            TensorAccess::Read { .. } => "OpTensorReadARM",
            TensorAccess::Write { .. } => "OpTensorWriteARM",
            TensorAccess::QuerySize { .. } => "OpTensorQuerySizeARM",
        }
    }

    /// The tensor accessed.
    pub fn tensor(&self) -> Id {
        match self {
            TensorAccess::Read { tensor, .. }
            | TensorAccess::Write { tensor, .. }
            | TensorAccess::QuerySize { tensor, .. } => *tensor,
        }
    }

    /// The Tensor Operands, when present.
    pub fn operands(&self) -> Option<&TensorOperands> {
        match self {
            TensorAccess::Read { operands, .. } | TensorAccess::Write { operands, .. } => operands.as_ref(),
            TensorAccess::QuerySize { .. } => None,
        }
    }

    /// The value operands (not the Result Type), in encoding order.
    pub fn value_ids(&self) -> Vec<Id> {
        let mut v = match self {
            TensorAccess::Read { tensor, coordinates, .. } => vec![*tensor, *coordinates],
            TensorAccess::Write { tensor, coordinates, object, .. } => vec![*tensor, *coordinates, *object],
            TensorAccess::QuerySize { tensor, dimension, .. } => vec![*tensor, *dimension],
        };
        v.extend(self.operands().into_iter().flat_map(TensorOperands::ids));
        v
    }
}

/// `OpCompositeConstructReplicateEXT`: a composite whose constituents are all `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstructReplicate {
    /// Result Type: a composite type.
    pub ty: Id,
    /// Result id.
    pub result: Id,
    /// The value replicated.
    pub value: Id,
}

impl ConstructReplicate {
    /// The view of `inst` when it is an `OpCompositeConstructReplicateEXT`
    /// with its three operands.
    pub fn from_inst(inst: &Inst) -> Option<ConstructReplicate> {
        match inst {
            Inst::Raw { opcode: OP_COMPOSITE_CONSTRUCT_REPLICATE, operands } => match operands.as_slice() {
                [ty, result, value] => Some(ConstructReplicate { ty: Id(*ty), result: Id(*result), value: Id(*value) }),
                _ => None,
            },
            _ => None,
        }
    }

    /// The instruction.
    pub fn to_inst(&self) -> Inst {
        Inst::Raw { opcode: OP_COMPOSITE_CONSTRUCT_REPLICATE, operands: vec![self.ty.0, self.result.0, self.value.0] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(opcode: u16, operands: &[u32]) -> Inst {
        Inst::Raw { opcode, operands: operands.to_vec() }
    }

    #[test]
    fn operands_follow_the_bit_order() {
        let mask = OUT_OF_BOUNDS_VALUE | MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT;
        let inst = raw(OP_TENSOR_READ, &[1, 2, 3, 4, mask, 7, 9]);
        let read = TensorAccess::from_inst(&inst).expect("a read").expect("fits the grammar");
        let ops = read.operands().copied().expect("operands");
        assert_eq!(ops.out_of_bounds, Some(Id(7)));
        assert_eq!(ops.visible_scope, Some(Id(9)));
        assert_eq!(ops.available_scope, None);
        assert_eq!(read.to_inst(), inst);
        assert_eq!(read.value_ids(), vec![Id(3), Id(4), Id(7), Id(9)]);
    }

    #[test]
    fn counts_and_bits_are_checked() {
        let missing = raw(OP_TENSOR_WRITE, &[1, 2, 3, MAKE_ELEMENT_AVAILABLE | NON_PRIVATE_ELEMENT]);
        assert!(matches!(
            TensorAccess::from_inst(&missing),
            Some(Err(TensorAccessError::OperandCount { expected: 1, found: 0, .. }))
        ));
        let unknown = raw(OP_TENSOR_READ, &[1, 2, 3, 4, 0x40]);
        assert_eq!(TensorAccess::from_inst(&unknown), Some(Err(TensorAccessError::UnknownBits(0x40))));
        let short = raw(OP_TENSOR_QUERY_SIZE, &[1, 2, 3]);
        assert!(matches!(TensorAccess::from_inst(&short), Some(Err(TensorAccessError::FixedOperands { .. }))));
        assert_eq!(TensorAccess::from_inst(&raw(Op::Load as u16, &[1, 2, 3])), None);
        let plain = raw(OP_TENSOR_WRITE, &[1, 2, 3]);
        assert_eq!(TensorAccess::from_inst(&plain).and_then(Result::ok).map(|w| w.to_inst()), Some(plain));
    }

    #[test]
    fn masks_render_as_assembly() {
        assert_eq!(mask_text(0), "NoneARM");
        assert_eq!(mask_text(MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT), "MakeElementVisibleARM|NonPrivateElementARM");
        assert_eq!(mask_text(0x41), "NontemporalARM|0x40");
        assert_eq!(mask_ids(OUT_OF_BOUNDS_VALUE | MAKE_ELEMENT_AVAILABLE | NON_PRIVATE_ELEMENT), 2);
    }

    #[test]
    fn replicate_round_trips() {
        let inst = raw(OP_COMPOSITE_CONSTRUCT_REPLICATE, &[5, 6, 7]);
        let r = ConstructReplicate::from_inst(&inst).expect("a replicate");
        assert_eq!(r.value, Id(7));
        assert_eq!(r.to_inst(), inst);
        assert_eq!(ConstructReplicate::from_inst(&raw(OP_COMPOSITE_CONSTRUCT_REPLICATE, &[5, 6])), None);
    }
}
