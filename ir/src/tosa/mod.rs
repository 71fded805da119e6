//! The `TOSA.001000.1` operator catalogue: the single description of the 66
//! TOSA 1.0 operators that the generator, validator, executor, reducer and
//! MLIR printer all read.
//!
//! # Reading the table
//!
//! [`TosaOp::spec`] gives an [`OpSpec`]:
//!
//! * `operands` — in instruction (grammar) order, each an
//!   [`OperandSpec`] with its grammar name, TOSA
//!   [`Role`] (attribute, compile-time-constant input, or input),
//!   legal SPIR-V [`Form`], MLIR representation and value rule.
//!   CONCAT is `variadic`: its last operand repeats (at least once).
//! * **Type slots.** `slots` names the operator's independent element types
//!   (`in_t`, `weight_t`, `out_t`, `mul_t`, …). Every operand form and the
//!   result refer to a slot by index (or name a fixed type, e.g. GATHER
//!   `indices` is always i32, MUL `shift` always i8), so one
//!   [`TypeRow`] — `types[slot]` — fixes every element type
//!   of an instruction. A row is available when any of its `profiles` and
//!   all of its `also` extensions are enabled ([`OpSpec::rows_for`]).
//!   Rows may be tied to an attribute value by a
//!   [`RowQualifier`]: `acc_type` (pooling and
//!   convolutions), RESIZE `mode` (integer rows), RESCALE `scale32` (which
//!   decides `mul_t`: i32 with scale32, i16 without).
//! * To find the row of an instruction: map operand/result element types to
//!   slots with [`OpSpec::slot_types`], then call
//!   [`OpSpec::find_row`] with the qualifier value
//!   read from operand [`OpSpec::qualifier_operand`].
//! * `shape` names the [`ShapeRule`]; [`infer_shapes`]
//!   computes output shapes and reports every shape-related ERROR_IF.
//! * `accuracy` is the FP comparison class of §5.3.
//!
//! Enum-valued attributes are in [`enums`].

mod catalogue;
pub mod clauses;
pub mod enums;
pub mod level;
mod ops;
mod opspec;
mod shape;
mod shape_rules;
pub mod spec;

#[cfg(test)]
mod catalogue_tests;
#[cfg(test)]
mod shape_tests;

pub use enums::{AccType, EnumKind, NanMode, ResizeMode, RoundingMode};
pub use level::{element_bytes, level_violations, Level, LevelLimit, LevelLimits, LevelViolation};
pub use ops::TosaOp;
pub use opspec::{catalogue, SlotError};
pub use shape::{check_output, infer_shapes, Dims, ShapeArg, ShapeError, ShapeErrorKind, ShapeInputs};
pub use spec::{
    err_base, AbsErrorBound, AbsErrorSpec, Accuracy, ElemRef, Form, Len, MlirAttr, MlirRepr, OpSpec, OperandSpec,
    RankReq, ResultKind, ResultSpec, Role, RowQualifier, ShapeRule, TypeRow, ValueRule, MAX_RANK,
};
