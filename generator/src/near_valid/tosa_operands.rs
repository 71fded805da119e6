//! Mutators for the `tosa_operands.*` rules.

use super::Mutator;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![]
}
