//! Mutators for the `debuginfo.*` rules.

use super::Mutator;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![]
}
