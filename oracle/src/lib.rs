//! `spvgraph-oracle`: the in-tree validator, round-trip and reference executor,
//! the external oracle adapters and the differential driver.
//!
//! Not implemented yet: this crate is a placeholder in the workspace layout.
