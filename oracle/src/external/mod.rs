//! Adapters for the external oracles, each behind [`crate::oracle::Oracle`].

pub mod consumer;
pub mod emulation_layer;
pub mod iree;
pub mod model_converter;
pub mod model_explorer;
pub mod process;
pub mod raw;
pub mod spirv_val;
pub mod tosa_reference;
pub mod translate;
pub mod vulkan;
