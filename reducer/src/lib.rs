//! `spvgraph-reducer`: predicate-driven, validity-preserving test-case reduction.
//!
//! Not implemented yet: this crate is a placeholder in the workspace layout.
