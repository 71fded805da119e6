//! `spvgraph-oracle`: the in-tree validator, round-trip and reference executor,
//! the external oracle adapters and the differential driver, all behind the
//! uniform [`oracle::Oracle`] interface.
#![deny(missing_docs)]

pub mod attribution;
pub mod cells;
pub mod compliance;
pub mod exec;
pub mod external;
pub mod features;
pub mod forms;
pub mod host;
pub mod judge;
pub mod oracle;
pub mod produced;
pub mod registry;
pub mod tools;
pub mod validate;
