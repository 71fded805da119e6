//! `spvgraph-generator`: valid-by-construction synthesis of graph modules and
//! their input data, and near-valid mutators.
//!
//! Not implemented yet: this crate is a placeholder in the workspace layout so
//! that the dependency direction (generator → ir) is fixed from the start.
