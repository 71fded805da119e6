//! Adapters for the external oracles, each behind [`crate::oracle::Oracle`].

pub mod known;
pub mod process;
pub mod spirv_val;
pub mod tosa_reference;
