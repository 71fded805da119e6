//! The four VK_ARM_tensors / VK_ARM_data_graph structures whose flags
//! vulkanalia 0.35.0 declares with the wrong width.
//!
//! The Vulkan registry (`vk.xml`, and so `vulkan_core.h`) declares
//! `VkTensorCreateFlagsARM`, `VkTensorUsageFlagsARM`,
//! `VkTensorViewCreateFlagsARM` and `VkDataGraphPipelineSessionCreateFlagsARM`
//! as `VkFlags64`; vulkanalia-sys 0.35.0 declares them as 32-bit `Flags`. In
//! the structures below the flags are followed by a pointer or a handle (or
//! end the structure, which is 8-aligned), so the fields keep their offsets
//! and the structures their sizes, but the upper half of each flags field is
//! padding on the Rust side: whatever bytes are there reach the driver as
//! flag bits (the emulation layer then refused every session: "Unsupported
//! data graph session create flags"). These mirrors have the registry's
//! layout, with every byte written; the Vulkan calls take them through a
//! pointer cast.

use std::ffi::c_void;
use vulkanalia::vk;

/// `VkTensorDescriptionARM` with a 64-bit `usage`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TensorDescription {
    /// `VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM`.
    pub s_type: vk::StructureType,
    /// Extension chain.
    pub next: *const c_void,
    /// Tiling.
    pub tiling: vk::TensorTilingARM,
    /// Format.
    pub format: vk::Format,
    /// Rank.
    pub dimension_count: u32,
    /// Dimensions (`dimension_count` of them).
    pub dimensions: *const i64,
    /// Strides, or null for packed.
    pub strides: *const i64,
    /// `VkTensorUsageFlagsARM` (64-bit).
    pub usage: u64,
}

/// `VkTensorCreateInfoARM` with 64-bit `flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TensorCreateInfo {
    /// `VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM`.
    pub s_type: vk::StructureType,
    /// Extension chain.
    pub next: *const c_void,
    /// `VkTensorCreateFlagsARM` (64-bit).
    pub flags: u64,
    /// The description.
    pub description: *const TensorDescription,
    /// Sharing mode.
    pub sharing_mode: vk::SharingMode,
    /// Queue families (for concurrent sharing).
    pub queue_family_index_count: u32,
    /// Their indices.
    pub queue_family_indices: *const u32,
}

/// `VkTensorViewCreateInfoARM` with 64-bit `flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TensorViewCreateInfo {
    /// `VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM`.
    pub s_type: vk::StructureType,
    /// Extension chain.
    pub next: *const c_void,
    /// `VkTensorViewCreateFlagsARM` (64-bit).
    pub flags: u64,
    /// The tensor.
    pub tensor: vk::TensorARM,
    /// The view's format.
    pub format: vk::Format,
}

/// `VkDataGraphPipelineSessionCreateInfoARM` with 64-bit `flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SessionCreateInfo {
    /// `VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM`.
    pub s_type: vk::StructureType,
    /// Extension chain.
    pub next: *const c_void,
    /// `VkDataGraphPipelineSessionCreateFlagsARM` (64-bit).
    pub flags: u64,
    /// The pipeline.
    pub data_graph_pipeline: vk::Pipeline,
}

impl TensorDescription {
    /// A linear, packed description.
    pub fn linear(format: vk::Format, dims: &[i64], usage: vk::TensorUsageFlagsARM) -> TensorDescription {
        TensorDescription {
            s_type: vk::StructureType::TENSOR_DESCRIPTION_ARM,
            next: std::ptr::null(),
            tiling: vk::TensorTilingARM::LINEAR,
            format,
            dimension_count: dims.len() as u32,
            dimensions: dims.as_ptr(),
            strides: std::ptr::null(),
            usage: u64::from(usage.bits()),
        }
    }
}

/// `info` as the type vulkanalia's command takes. The commands only pass
/// the pointer on to the driver, which reads the registry's layout.
///
/// # Safety
/// `Theirs` must be the vulkanalia type of the same Vulkan structure as
/// `Ours`, with the same `sType` and the same offsets for every field but
/// the flags' upper half (see the module documentation).
pub unsafe fn as_theirs<Ours, Theirs>(info: &Ours) -> &Theirs {
    // SAFETY: per the contract, both name one C structure; the callee reads
    // through the pointer with the registry's layout, which is `Ours`.
    unsafe { &*(info as *const Ours).cast::<Theirs>() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn the_mirrors_have_the_registry_layout_and_vulkanalia_does_not() {
        // vk.xml: VkFlags64 usage after two pointers: 56 bytes on LP64.
        assert_eq!(size_of::<TensorDescription>(), 56);
        assert_eq!(offset_of!(TensorDescription, usage), 48);
        assert_eq!(size_of::<vk::TensorDescriptionARM>(), 56);
        assert_eq!(offset_of!(vk::TensorDescriptionARM, usage), 48);
        // vulkanalia 0.35.0's flags are 32-bit, the rest of their 8 bytes
        // padding. When this fails, vulkanalia has been fixed and this
        // module can go.
        assert_eq!(size_of::<vk::TensorUsageFlagsARM>(), 4);
        assert_eq!(size_of::<vk::DataGraphPipelineSessionCreateFlagsARM>(), 4);
        assert_eq!(offset_of!(TensorCreateInfo, description), offset_of!(vk::TensorCreateInfoARM, description));
        assert_eq!(offset_of!(TensorCreateInfo, sharing_mode), offset_of!(vk::TensorCreateInfoARM, sharing_mode));
        assert_eq!(offset_of!(TensorViewCreateInfo, tensor), offset_of!(vk::TensorViewCreateInfoARM, tensor));
        assert_eq!(offset_of!(TensorViewCreateInfo, format), offset_of!(vk::TensorViewCreateInfoARM, format));
        assert_eq!(
            offset_of!(SessionCreateInfo, data_graph_pipeline),
            offset_of!(vk::DataGraphPipelineSessionCreateInfoARM, data_graph_pipeline)
        );
        assert_eq!(size_of::<SessionCreateInfo>(), size_of::<vk::DataGraphPipelineSessionCreateInfoARM>());
    }
}
