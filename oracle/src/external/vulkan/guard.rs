//! Pipeline creation through a C++ frame (`cpp/exception_guard.cpp`) that
//! catches what the emulation layer throws out of
//! `vkCreateDataGraphPipelinesARM`, so that such a graph costs the worker a
//! failed run instead of its life (and the next graph a cold start).
//! `SPVGRAPH_CATCH_EXCEPTIONS=0` calls the command directly, as a C or Rust
//! application does: the worker then aborts with SIGABRT.

use std::ffi::{c_char, c_void, CStr};
use vulkanalia::prelude::v1_3::*;
use vulkanalia::vk::ArmDataGraphExtensionDeviceCommands;

/// `SPVGRAPH_CATCH_EXCEPTIONS=0` turns the guard off (the `before` variant
/// of `spvgraph bench-backends`).
pub const CATCH_VARIABLE: &str = "SPVGRAPH_CATCH_EXCEPTIONS";

/// Whether [`CATCH_VARIABLE`] leaves the guard on (the default).
pub fn enabled_by_env() -> bool {
    !matches!(
        std::env::var(CATCH_VARIABLE).map(|v| v.trim().to_ascii_lowercase()).as_deref(),
        Ok("0" | "false" | "off")
    )
}

/// How long a kept exception message may be.
const WHAT_LEN: usize = 1024;

extern "C" {
    fn spvgraph_guarded_create_data_graph_pipelines(
        command: vk::PFN_vkCreateDataGraphPipelinesARM,
        device: vk::Device,
        deferred_operation: vk::DeferredOperationKHR,
        pipeline_cache: vk::PipelineCache,
        create_info_count: u32,
        create_infos: *const vk::DataGraphPipelineCreateInfoARM,
        allocator: *const c_void,
        pipelines: *mut vk::Pipeline,
        threw: *mut i32,
        what: *mut c_char,
        what_len: usize,
    ) -> vk::Result;
}

/// What pipeline creation ended in.
pub enum Created {
    /// The command returned: its pipeline, or its error code.
    Returned(Result<vk::Pipeline, vk::ErrorCode>),
    /// The command threw; the exception's message.
    Threw(String),
}

/// Creates one data-graph pipeline from `info`, through the guard when
/// `catch` is set.
///
/// # Safety
/// Every pointer in `info` and its chains must be valid for the call.
pub unsafe fn create_pipeline(device: &Device, info: &vk::DataGraphPipelineCreateInfoARM, catch: bool) -> Created {
    if !catch {
        let created = device.create_data_graph_pipelines_arm(
            vk::DeferredOperationKHR::null(),
            vk::PipelineCache::null(),
            std::slice::from_ref(info),
            None,
        );
        return Created::Returned(created.map(|(p, _)| p.first().copied().unwrap_or_default()));
    }
    let mut pipeline = vk::Pipeline::null();
    let mut threw = 0i32;
    let mut what = [0 as c_char; WHAT_LEN];
    let result = spvgraph_guarded_create_data_graph_pipelines(
        device.commands().create_data_graph_pipelines_arm,
        device.handle(),
        vk::DeferredOperationKHR::null(),
        vk::PipelineCache::null(),
        1,
        info,
        std::ptr::null(),
        &mut pipeline,
        &mut threw,
        what.as_mut_ptr(),
        WHAT_LEN,
    );
    if threw != 0 {
        // SAFETY: the guard always ends the message with a NUL inside the buffer.
        let message = CStr::from_ptr(what.as_ptr()).to_string_lossy().into_owned();
        return Created::Threw(message);
    }
    if result.as_raw() < 0 {
        Created::Returned(Err(vk::ErrorCode::from(result)))
    } else {
        Created::Returned(Ok(pipeline))
    }
}
