//! Mutators for the `interface.*` rules.

use super::Mutator;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![]
}
