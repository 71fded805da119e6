//! `spvgraph-generator`: valid-by-construction synthesis of graph modules and
//! their input data, and near-valid mutators (being written).
#![deny(missing_docs)]
