//! What the two consumer oracles share: `emulation-layer` (the emulation
//! layer driven by scenario-runner) and `vulkan` (any Vulkan driver that
//! exposes VK_ARM_tensors and VK_ARM_data_graph, driven through the API).
//! Both prepare a request the same way ([`prepare()`]: bindings, graph
//! constants, the documented [`Workarounds`]) and find the layers and the
//! driver the same way ([`env`]), so that when their answers differ the
//! difference lies in scenario-runner or in the API path, never in what the
//! two were given. Both keep the layers' glslang initialized the same way
//! ([`glslang`]: the same compiled shaders, built faster).

pub mod env;
pub mod glslang;
mod prepare;
mod workarounds;

pub use prepare::{prepare, Preparation, Prepared, RequestError, Slot, TensorArrays};
pub use workarounds::{Workaround, Workarounds, SHARED_OUTPUT_REFUSAL};
