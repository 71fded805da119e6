//! Editing graph modules while keeping them consistent: a module with the
//! data of its graph inputs and constants ([`Candidate`]), graph inputs and
//! outputs added, removed or reshaped, result types re-inferred through the
//! catalogue's shape rules, and declarations an edit left unused removed.
//!
//! The reducer (`spvgraph-reducer`) shrinks modules with these helpers and
//! the structure-aware mutator (`spvgraph_generator::mutate`) changes shapes
//! with them, so both live below either crate.

pub mod candidate;
pub mod graph;
pub mod reshape;
pub mod shapes;

pub use candidate::{Candidate, InputKey, Size};
