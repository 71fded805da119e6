//! Queries on a catalogue entry: operand lookup, type-row selection, and
//! mapping operand element types onto type slots.

use super::catalogue::SPECS;
use super::ops::TosaOp;
use super::spec::{ElemRef, OpSpec, OperandSpec, Role, RowQualifier, TypeRow};
use crate::elem::{ElemType, Profile};

impl TosaOp {
    /// The catalogue entry of this operator.
    pub fn spec(self) -> &'static OpSpec {
        // SPECS has one entry per opcode, in opcode order (checked by tests),
        // and every discriminant is < 66, so this index is always in range.
        &SPECS[self as usize]
    }
}

/// The whole catalogue, in opcode order.
pub fn catalogue() -> &'static [OpSpec; TosaOp::COUNT] {
    &SPECS
}

/// An operand's element type disagrees with the operator's slots or fixed types.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SlotError {
    /// More operand types were given than the operator accepts.
    #[error("{op}: {found} operands given, but the operator takes {expected}")]
    OperandCount {
        /// The operator.
        op: TosaOp,
        /// Accepted count (minimum, for a variadic operator).
        expected: usize,
        /// Count given.
        found: usize,
    },
    /// An operand of a fixed type has another type.
    #[error("{op}: operand {index} ({name}) must be {expected}, found {found}")]
    Fixed {
        /// The operator.
        op: TosaOp,
        /// Operand index (or `operands.len()` + i for result `i`).
        index: usize,
        /// Operand or result name.
        name: &'static str,
        /// Required type.
        expected: ElemType,
        /// Type given.
        found: ElemType,
    },
    /// Two places sharing a type slot have different types.
    #[error("{op}: {name} is {found}, but {slot} is already {expected} (from {first})")]
    Conflict {
        /// The operator.
        op: TosaOp,
        /// The slot name.
        slot: &'static str,
        /// The operand or result that fixed the slot first.
        first: &'static str,
        /// The operand or result in conflict.
        name: &'static str,
        /// The slot's type.
        expected: ElemType,
        /// The conflicting type.
        found: ElemType,
    },
}

impl OpSpec {
    /// The spec of operand `index`, following CONCAT's variadic tail.
    pub fn operand(&self, index: usize) -> Option<&'static OperandSpec> {
        let ops: &'static [OperandSpec] = self.operands;
        match ops.get(index) {
            Some(o) => Some(o),
            None if self.variadic => ops.last(),
            None => None,
        }
    }

    /// The index and spec of the operand named `name` (grammar spelling).
    pub fn operand_named(&self, name: &str) -> Option<(usize, &'static OperandSpec)> {
        let ops: &'static [OperandSpec] = self.operands;
        ops.iter().enumerate().find(|(_, o)| o.name == name)
    }

    /// Whether an instruction with `count` operands has the right arity
    /// (for CONCAT: the axis plus at least one input).
    pub fn accepts_operand_count(&self, count: usize) -> bool {
        if self.variadic {
            count >= self.operands.len()
        } else {
            count == self.operands.len()
        }
    }

    /// The attribute operands, with their indices.
    pub fn attributes(&self) -> impl Iterator<Item = (usize, &'static OperandSpec)> {
        self.with_role(Role::Attribute)
    }

    /// The compile-time-constant inputs, with their indices.
    pub fn ctc_inputs(&self) -> impl Iterator<Item = (usize, &'static OperandSpec)> {
        self.with_role(Role::CtcInput)
    }

    /// The ordinary tensor inputs, with their indices.
    pub fn inputs(&self) -> impl Iterator<Item = (usize, &'static OperandSpec)> {
        self.with_role(Role::Input)
    }

    fn with_role(&self, role: Role) -> impl Iterator<Item = (usize, &'static OperandSpec)> {
        let ops: &'static [OperandSpec] = self.operands;
        ops.iter().enumerate().filter(move |(_, o)| o.role == role)
    }

    /// The operand whose value a [`TypeRow`] qualifier is about (`acc_type`,
    /// RESIZE `mode`, RESCALE `scale32`), if the operator has one.
    pub fn qualifier_operand(&self) -> Option<usize> {
        let has_qualifier = self.type_rows.iter().any(|r| r.qualifier != RowQualifier::Any);
        if !has_qualifier {
            return None;
        }
        ["acc_type", "mode", "scale32"].into_iter().find_map(|n| self.operand_named(n)).map(|(i, _)| i)
    }

    /// The type rows usable with the `enabled` profiles and extensions.
    pub fn rows_for<'a>(&self, enabled: &'a [Profile]) -> impl Iterator<Item = &'static TypeRow> + 'a {
        let rows: &'static [TypeRow] = self.type_rows;
        rows.iter().filter(move |r| r.available(enabled))
    }

    /// The row whose slot types are exactly `types` and whose qualifier
    /// admits `qualifier` (pass [`RowQualifier::Any`] for operators without
    /// one; for the others pass the instruction's `acc_type`/`mode`/`scale32`).
    pub fn find_row(&self, types: &[ElemType], qualifier: RowQualifier) -> Option<&'static TypeRow> {
        let rows: &'static [TypeRow] = self.type_rows;
        rows.iter().find(|r| r.types == types && r.qualifier.admits(qualifier))
    }

    /// The rows whose slot types match `types`, where `None` matches anything.
    pub fn rows_matching<'a>(&self, types: &'a [Option<ElemType>]) -> impl Iterator<Item = &'static TypeRow> + 'a {
        let rows: &'static [TypeRow] = self.type_rows;
        rows.iter().filter(move |r| {
            r.types.len() == types.len() && r.types.iter().zip(types).all(|(t, want)| want.is_none_or(|w| w == *t))
        })
    }

    /// Assigns element types to type slots from what an instruction carries.
    ///
    /// `operands[i]` is the element type (scalar type for scalar constants)
    /// of operand `i`, `None` where unknown or not applicable; `results` the
    /// element type of each result tensor. Operands with a fixed type are
    /// checked against it. The answer has one entry per slot (`None` where no
    /// operand or result mentioned the slot); feed it to
    /// [`OpSpec::rows_matching`] or, once complete, [`OpSpec::find_row`].
    pub fn slot_types(
        &self,
        operands: &[Option<ElemType>],
        results: &[Option<ElemType>],
    ) -> Result<Vec<Option<ElemType>>, SlotError> {
        if !self.accepts_operand_count(operands.len()) {
            return Err(SlotError::OperandCount { op: self.op, expected: self.operands.len(), found: operands.len() });
        }
        let mut slots: Vec<Option<(ElemType, &'static str)>> = vec![None; self.slots.len()];
        let places = operands
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((i, self.operand(i)?.name, self.operand(i)?.form.elem(), (*t)?)))
            .chain(results.iter().enumerate().filter_map(|(i, t)| {
                let name = self.result.names.get(i).copied().unwrap_or("output");
                Some((operands.len() + i, name, ElemRef::Slot(self.result.slot), (*t)?))
            }));
        for (index, name, elem, found) in places {
            match elem {
                ElemRef::Fixed(expected) if expected != found => {
                    return Err(SlotError::Fixed { op: self.op, index, name, expected, found });
                }
                ElemRef::Fixed(_) => {}
                ElemRef::Slot(s) => {
                    let Some(entry) = slots.get_mut(usize::from(s)) else { continue };
                    match *entry {
                        None => *entry = Some((found, name)),
                        Some((expected, first)) if expected != found => {
                            let slot = self.slots.get(usize::from(s)).copied().unwrap_or("?");
                            return Err(SlotError::Conflict { op: self.op, slot, first, name, expected, found });
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        Ok(slots.into_iter().map(|s| s.map(|(t, _)| t)).collect())
    }

    /// The operands whose element type (or scalar type) is type slot `slot`.
    pub fn slot_users(&self, slot: u8) -> impl Iterator<Item = (usize, &'static OperandSpec)> {
        let ops: &'static [OperandSpec] = self.operands;
        ops.iter().enumerate().filter(move |(_, o)| o.form.elem() == ElemRef::Slot(slot))
    }
}
