//! The Vulkan side of the worker: one instance and one device with
//! VK_ARM_tensors and VK_ARM_data_graph, and running one prepared graph on
//! it. The loader is loaded at run time (`libvulkan.so.1`), so nothing here
//! is needed to build spvgraph.
//!
//! A run, in the order the Vulkan-Samples `tensor_and_data_graph` samples and
//! scenario-runner use: a `VkTensorARM` with host-visible memory and a view
//! per interface tensor (each element of a tensor array at its
//! `arrayElement`); descriptor-set layouts of `TENSOR_ARM` bindings at the
//! module's DescriptorSet/Binding (a tensor array binding has as many
//! descriptors as elements); the data-graph pipeline from the module with
//! `pName` = the entry point, its resources described by set, binding and
//! array element, its graph constants as `VkDataGraphPipelineConstantARM`
//! by GraphConstantID; a session with memory bound at every bind point it
//! asks for; one dispatch on a `DATA_GRAPH` queue; the outputs read back
//! from the mapped tensors. Every failure says at which [`Stage`] it
//! happened, with the `VkResult`.

use super::abi;
use super::guard::{self, Created};
use super::protocol::{DeviceReport, Failure, Fault, RunTimes, Stage};
use crate::external::consumer::Slot;
use crate::external::raw;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use std::collections::BTreeMap;
use std::ffi::{c_void, CString};
use std::time::Instant;
use vulkanalia::loader::{LibloadingLoader, LIBRARY};
use vulkanalia::prelude::v1_3::*;
use vulkanalia::vk::{ArmDataGraphExtensionDeviceCommands, ArmTensorsExtensionDeviceCommands};

/// The `VkFormat` of a tensor of `elem`.
pub fn format(elem: ElemType) -> vk::Format {
    match elem {
        ElemType::Bool => vk::Format::R8_BOOL_ARM,
        ElemType::I8 => vk::Format::R8_SINT,
        ElemType::I16 => vk::Format::R16_SINT,
        ElemType::I32 => vk::Format::R32_SINT,
        ElemType::I48 => vk::Format::R64_SINT,
        ElemType::Fp16 => vk::Format::R16_SFLOAT,
        ElemType::Bf16 => vk::Format::R16_SFLOAT_FPENCODING_BFLOAT16_ARM,
        ElemType::Fp32 => vk::Format::R32_SFLOAT,
        ElemType::Fp8E4M3 => vk::Format::R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM,
        ElemType::Fp8E5M2 => vk::Format::R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM,
    }
}

/// `VK_ERROR_DEVICE_LOST`: the name of a `VkResult`.
pub fn result_name(code: vk::ErrorCode) -> String {
    format!("VK_{:?}", vk::Result::from_raw(code.as_raw()))
}

/// What a worker prints on standard error before a Vulkan call that may
/// not return, so that a crash names the call it happened in.
pub const MARK: &str = "spvgraph-vulkan-worker: calling ";

/// The call that creates a pipeline (where the layer compiles), as marked.
pub const PIPELINE_CALL: &str = "vkCreateDataGraphPipelinesARM";

#[allow(clippy::print_stderr, reason = "the worker's mark is its protocol with the client, on standard error")]
fn mark(call: &str) {
    eprintln!("{MARK}{call}");
}

/// A failure at `stage` with the `VkResult` `code`.
fn vk_failure(stage: Stage, code: vk::ErrorCode, what: &str) -> Failure {
    let stage = if code == vk::ErrorCode::DEVICE_LOST { Stage::DeviceLost } else { stage };
    let name = result_name(code);
    Failure {
        stage,
        result: Some(name.clone()),
        message: format!("{what} returned {name}"),
        times: RunTimes::default(),
    }
}

fn failure(stage: Stage, message: impl Into<String>) -> Failure {
    Failure { stage, result: None, message: message.into(), times: RunTimes::default() }
}

/// Why no device could be set up.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// One device ready to run graphs.
pub struct Gpu {
    _entry: Entry,
    instance: Instance,
    device: Device,
    queue: vk::Queue,
    command_pool: vk::CommandPool,
    memory: vk::PhysicalDeviceMemoryProperties,
    report: DeviceReport,
    /// Whether pipeline creation goes through the C++ guard ([`guard`]).
    catch_exceptions: bool,
}

/// What [`Gpu::new`] makes from the instance.
struct Parts {
    device: Device,
    queue: vk::Queue,
    command_pool: vk::CommandPool,
    memory: vk::PhysicalDeviceMemoryProperties,
    report: DeviceReport,
}

/// What a device offers.
struct Candidate {
    index: usize,
    physical: vk::PhysicalDevice,
    name: String,
    family: Option<u32>,
    extensions: Vec<String>,
}

fn version_text(v: u32) -> String {
    format!("{}.{}.{}", vk::version_major(v), vk::version_minor(v), vk::version_patch(v))
}

/// The device extensions enabled when the device has them (VK_ARM_data_graph
/// depends on the first two; graphs may use replicated composites).
const OPTIONAL_EXTENSIONS: [vk::ExtensionName; 3] = [
    vk::KHR_MAINTENANCE5_EXTENSION.name,
    vk::KHR_DEFERRED_HOST_OPERATIONS_EXTENSION.name,
    vk::EXT_SHADER_REPLICATED_COMPOSITES_EXTENSION.name,
];

impl Gpu {
    /// Loads the loader, creates a Vulkan 1.3 instance (layers come from
    /// `VK_INSTANCE_LAYERS`, as for scenario-runner) and a device on the
    /// physical device `select` names (an index in the loader's enumeration,
    /// or part of its name; `None`: the first that exposes both extensions
    /// and a `DATA_GRAPH` queue).
    pub fn new(select: Option<&str>) -> Result<Gpu, SetupError> {
        // SAFETY: loading the system's Vulkan loader, as any Vulkan program does.
        let loader = unsafe { LibloadingLoader::new(LIBRARY) }
            .map_err(|e| SetupError(format!("cannot load the Vulkan loader {LIBRARY}: {e}")))?;
        // SAFETY: the loader library stays loaded as long as the entry.
        let entry = unsafe { Entry::new(loader) }
            .map_err(|e| SetupError(format!("the Vulkan loader {LIBRARY} has no entry points: {e}")))?;
        let app_name = c"spvgraph";
        let app = vk::ApplicationInfo {
            application_name: app_name.as_ptr(),
            application_version: 1,
            engine_name: app_name.as_ptr(),
            api_version: vk::make_version(1, 3, 0),
            ..Default::default()
        };
        let info = vk::InstanceCreateInfo { application_info: &app, ..Default::default() };
        // SAFETY: a valid create info whose pointers outlive the call.
        let instance = unsafe { entry.create_instance(&info, None) }
            .map_err(|e| SetupError(format!("vkCreateInstance returned {}", result_name(e))))?;
        match Self::with_instance(&entry, &instance, select) {
            Ok(p) => Ok(Gpu {
                _entry: entry,
                instance,
                device: p.device,
                queue: p.queue,
                command_pool: p.command_pool,
                memory: p.memory,
                report: p.report,
                catch_exceptions: guard::enabled_by_env(),
            }),
            Err(e) => {
                // SAFETY: nothing created from the instance is alive; the
                // loader (`entry`) is still loaded.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn with_instance(entry: &Entry, instance: &Instance, select: Option<&str>) -> Result<Parts, SetupError> {
        let fail = |_: &Instance, e: String| Err(SetupError(e));
        // SAFETY: a live instance.
        let physicals = match unsafe { instance.enumerate_physical_devices() } {
            Ok(p) => p,
            Err(e) => return fail(instance, format!("vkEnumeratePhysicalDevices returned {}", result_name(e))),
        };
        let candidates: Vec<Candidate> =
            physicals.iter().enumerate().map(|(index, &p)| candidate(instance, index, p)).collect();
        let usable = |c: &Candidate| {
            let has = |e: &vk::ExtensionName| c.extensions.iter().any(|x| e.to_string_lossy() == x.as_str());
            has(&vk::ARM_TENSORS_EXTENSION.name) && has(&vk::ARM_DATA_GRAPH_EXTENSION.name) && c.family.is_some()
        };
        let listing = || {
            candidates
                .iter()
                .map(|c| format!("{}: {}{}", c.index, c.name, if usable(c) { "" } else { " (no VK_ARM_data_graph)" }))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let chosen = match select {
            Some(s) => match s.trim().parse::<usize>() {
                Ok(i) => candidates.iter().find(|c| c.index == i),
                Err(_) => {
                    let want = s.to_lowercase();
                    candidates.iter().find(|c| usable(c) && c.name.to_lowercase().contains(&want))
                }
            },
            None => candidates.iter().find(|c| usable(c)),
        };
        let Some(chosen) = chosen else {
            let what = select.map_or_else(
                || "no device exposes VK_ARM_tensors and VK_ARM_data_graph with a DATA_GRAPH queue".to_string(),
                |s| format!("no device matches SPVGRAPH_VULKAN_DEVICE={s:?}"),
            );
            return fail(instance, format!("{what} (devices: {})", listing()));
        };
        if !usable(chosen) {
            return fail(
                instance,
                format!(
                    "device {} ({}) does not expose VK_ARM_tensors and VK_ARM_data_graph with a DATA_GRAPH queue \
                     (devices: {})",
                    chosen.index,
                    chosen.name,
                    listing()
                ),
            );
        }
        let family = chosen.family.unwrap_or(0);
        match create_device(instance, chosen, family) {
            Ok((device, optional)) => {
                // SAFETY: a live device and a queue family it was created with.
                let queue = unsafe { device.get_device_queue(family, 0) };
                let pool_info = vk::CommandPoolCreateInfo {
                    flags: vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER,
                    queue_family_index: family,
                    ..Default::default()
                };
                // SAFETY: a valid create info.
                let command_pool = match unsafe { device.create_command_pool(&pool_info, None) } {
                    Ok(p) => p,
                    Err(e) => {
                        // SAFETY: nothing was created from the device.
                        unsafe { device.destroy_device(None) };
                        return fail(instance, format!("vkCreateCommandPool returned {}", result_name(e)));
                    }
                };
                // SAFETY: a live instance and one of its physical devices.
                let memory = unsafe { instance.get_physical_device_memory_properties(chosen.physical) };
                let report = report(entry, instance, chosen, optional);
                Ok(Parts { device, queue, command_pool, memory, report })
            }
            Err(e) => fail(instance, e),
        }
    }

    /// The device, driver and layers in use.
    pub fn report(&self) -> &DeviceReport {
        &self.report
    }

    /// A memory type among `bits` with all of `want`.
    fn memory_type(&self, bits: u32, want: vk::MemoryPropertyFlags) -> Option<u32> {
        (0..self.memory.memory_type_count)
            .find(|&i| bits & (1 << i) != 0 && self.memory.memory_types[i as usize].property_flags.contains(want))
    }

    /// Runs one graph: `words` at `entry`, `inputs` bound with their data,
    /// `outputs` read back, `constants` given to the pipeline. `fault` is
    /// raised in place of the dispatch when planted. Also says where the
    /// time went ([`RunTimes`]: destroying what the run made counts as running).
    pub fn run(
        &self,
        words: &[u32],
        entry: &str,
        inputs: &[(Slot, TensorData)],
        outputs: &[Slot],
        constants: &[(u32, TensorData)],
        fault: Option<Fault>,
    ) -> (Result<Vec<TensorData>, Failure>, RunTimes) {
        let mut run = Run::new(self);
        let result = run.go(words, entry, inputs, outputs, constants, fault);
        run.enter(Phase::Run);
        let (mut times, teardown) = (run.times, run.since);
        drop(run);
        times.run_us += micros(teardown.elapsed());
        (result, times)
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: every object made from the device was destroyed with its
        // run; the pool and the device are destroyed once, in order.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.command_pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn candidate(instance: &Instance, index: usize, physical: vk::PhysicalDevice) -> Candidate {
    // SAFETY: a live instance and one of its physical devices.
    let props = unsafe { instance.get_physical_device_properties(physical) };
    // SAFETY: as above.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
    let family = families.iter().position(|f| f.queue_flags.contains(vk::QueueFlags::DATA_GRAPH_ARM));
    // The driver's extensions, and those of the active layers: a layer's
    // device extensions are listed only when it is asked by name.
    let mut extensions: Vec<String> = Vec::new();
    let layers: Vec<CString> = active_layers().into_iter().filter_map(|l| CString::new(l).ok()).collect();
    for layer in std::iter::once(None).chain(layers.iter().map(|l| Some(l.as_c_str()))) {
        // SAFETY: as above; the layer name outlives the call.
        let found = unsafe { instance.enumerate_device_extension_properties(physical, layer) }.unwrap_or_default();
        for e in found {
            let name = e.extension_name.to_string_lossy().into_owned();
            if !extensions.contains(&name) {
                extensions.push(name);
            }
        }
    }
    Candidate {
        index,
        physical,
        name: props.device_name.to_string_lossy().into_owned(),
        family: family.and_then(|f| u32::try_from(f).ok()),
        extensions,
    }
}

/// Creates the device with the two extensions, their features, the
/// optional extensions it has, and the integer and float16 shader features
/// it offers (graphs of every element type run on one device).
fn create_device(instance: &Instance, c: &Candidate, family: u32) -> Result<(Device, Vec<String>), String> {
    let has = |e: &vk::ExtensionName| c.extensions.iter().any(|x| e.to_string_lossy() == x.as_str());
    let mut optional = Vec::new();
    let mut names = vec![vk::ARM_TENSORS_EXTENSION.name.as_ptr(), vk::ARM_DATA_GRAPH_EXTENSION.name.as_ptr()];
    for e in &OPTIONAL_EXTENSIONS {
        if has(e) {
            names.push(e.as_ptr());
            optional.push(e.to_string_lossy().into_owned());
        }
    }
    let replicated = has(&vk::EXT_SHADER_REPLICATED_COMPOSITES_EXTENSION.name);
    // What the device offers.
    let mut q_replicated = vk::PhysicalDeviceShaderReplicatedCompositesFeaturesEXT::default();
    let mut q_graph = vk::PhysicalDeviceDataGraphFeaturesARM::default();
    let mut q_tensor =
        vk::PhysicalDeviceTensorFeaturesARM { next: &mut q_graph as *mut _ as *mut c_void, ..Default::default() };
    let mut q12 =
        vk::PhysicalDeviceVulkan12Features { next: &mut q_tensor as *mut _ as *mut c_void, ..Default::default() };
    if replicated {
        q_graph.next = &mut q_replicated as *mut _ as *mut c_void;
    }
    let mut q = vk::PhysicalDeviceFeatures2 { next: &mut q12 as *mut _ as *mut c_void, ..Default::default() };
    // SAFETY: a chain of feature structs that outlive the call.
    unsafe { instance.get_physical_device_features2(c.physical, &mut q) };
    let required = [
        ("tensors", q_tensor.tensors),
        ("shaderTensorAccess", q_tensor.shader_tensor_access),
        ("dataGraph", q_graph.data_graph),
        ("dataGraphShaderModule", q_graph.data_graph_shader_module),
        ("vulkanMemoryModel", q12.vulkan_memory_model),
    ];
    let missing: Vec<&str> = required.iter().filter(|(_, v)| *v != vk::TRUE).map(|(n, _)| *n).collect();
    if !missing.is_empty() {
        return Err(format!("device {} ({}) lacks the features {}", c.index, c.name, missing.join(", ")));
    }
    for (name, on) in [
        ("shaderInt8", q12.shader_int8),
        ("shaderFloat16", q12.shader_float16),
        ("shaderInt16", q.features.shader_int16),
        ("shaderInt64", q.features.shader_int64),
        ("shaderReplicatedComposites", q_replicated.shader_replicated_composites),
    ] {
        if on == vk::TRUE {
            optional.push(name.to_string());
        }
    }
    // What is enabled.
    let mut e_replicated = vk::PhysicalDeviceShaderReplicatedCompositesFeaturesEXT {
        shader_replicated_composites: q_replicated.shader_replicated_composites,
        ..Default::default()
    };
    let mut e_graph = vk::PhysicalDeviceDataGraphFeaturesARM {
        data_graph: vk::TRUE,
        data_graph_shader_module: vk::TRUE,
        ..Default::default()
    };
    if replicated {
        e_graph.next = &mut e_replicated as *mut _ as *mut c_void;
    }
    let mut e_tensor = vk::PhysicalDeviceTensorFeaturesARM {
        next: &mut e_graph as *mut _ as *mut c_void,
        tensors: vk::TRUE,
        shader_tensor_access: vk::TRUE,
        ..Default::default()
    };
    let mut e12 = vk::PhysicalDeviceVulkan12Features {
        next: &mut e_tensor as *mut _ as *mut c_void,
        vulkan_memory_model: vk::TRUE,
        vulkan_memory_model_device_scope: q12.vulkan_memory_model_device_scope,
        shader_int8: q12.shader_int8,
        shader_float16: q12.shader_float16,
        storage_buffer_8bit_access: q12.storage_buffer_8bit_access,
        ..Default::default()
    };
    let features = vk::PhysicalDeviceFeatures {
        shader_int16: q.features.shader_int16,
        shader_int64: q.features.shader_int64,
        ..Default::default()
    };
    let priority = [1.0f32];
    let queue = vk::DeviceQueueCreateInfo {
        queue_family_index: family,
        queue_count: 1,
        queue_priorities: priority.as_ptr(),
        ..Default::default()
    };
    let info = vk::DeviceCreateInfo {
        next: &mut e12 as *mut _ as *const c_void,
        queue_create_info_count: 1,
        queue_create_infos: &queue,
        enabled_extension_count: names.len() as u32,
        enabled_extension_names: names.as_ptr(),
        enabled_features: &features,
        ..Default::default()
    };
    // SAFETY: every pointer in the create info and its chain outlives the call.
    let device = unsafe { instance.create_device(c.physical, &info, None) }
        .map_err(|e| format!("vkCreateDevice on device {} ({}) returned {}", c.index, c.name, result_name(e)))?;
    Ok((device, optional))
}

/// The layers `VK_INSTANCE_LAYERS` enables (the loader reads it; so does
/// scenario-runner's environment).
fn active_layers() -> Vec<String> {
    std::env::var("VK_INSTANCE_LAYERS")
        .unwrap_or_default()
        .split(':')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn report(entry: &Entry, instance: &Instance, c: &Candidate, optional: Vec<String>) -> DeviceReport {
    let mut driver = vk::PhysicalDeviceDriverProperties::default();
    let mut props = vk::PhysicalDeviceProperties2 { next: &mut driver as *mut _ as *mut c_void, ..Default::default() };
    // SAFETY: a live instance, one of its devices, a chain that outlives the call.
    unsafe { instance.get_physical_device_properties2(c.physical, &mut props) };
    let p = props.properties;
    let active = active_layers();
    // SAFETY: a live entry.
    let available = unsafe { entry.enumerate_instance_layer_properties() }.unwrap_or_default();
    let layers = active
        .iter()
        .map(|name| match available.iter().find(|l| l.layer_name.to_string_lossy() == name.as_str()) {
            Some(l) => format!(
                "{name} {} (\"{}\", Vulkan {})",
                l.implementation_version,
                l.description.to_string_lossy(),
                version_text(l.spec_version)
            ),
            None => format!("{name} (not found by the loader)"),
        })
        .collect();
    DeviceReport {
        protocol: super::protocol::VERSION,
        index: c.index,
        name: p.device_name.to_string_lossy().into_owned(),
        device_type: format!("{:?}", p.device_type),
        api_version: version_text(p.api_version),
        driver: format!("{} {}", driver.driver_name.to_string_lossy(), driver.driver_info.to_string_lossy())
            .trim()
            .to_string(),
        driver_version: p.driver_version,
        layers,
        optional,
        // The worker adds these once the device exists.
        glslang_kept: Vec::new(),
        glslang_note: None,
        warm_up: None,
    }
}

/// One tensor with its memory, mapped, and its view.
struct Tensor {
    tensor: vk::TensorARM,
    memory: vk::DeviceMemory,
    view: vk::TensorViewARM,
    mapped: *mut u8,
    bytes: usize,
}

/// Which part of a run the clock is counting ([`RunTimes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Compile,
    Run,
    Readback,
}

fn micros(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// Everything one run creates, destroyed when it ends (whatever the outcome).
struct Run<'g> {
    gpu: &'g Gpu,
    tensors: Vec<Tensor>,
    module: vk::ShaderModule,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pipeline_layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    session: vk::DataGraphPipelineSessionARM,
    session_memory: Vec<vk::DeviceMemory>,
    descriptor_pool: vk::DescriptorPool,
    sets: Vec<vk::DescriptorSet>,
    command_buffer: vk::CommandBuffer,
    fence: vk::Fence,
    /// Time spent so far, by phase, up to `since`.
    times: RunTimes,
    /// The phase the clock is counting now, and since when.
    phase: Phase,
    since: Instant,
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        let d = &self.gpu.device;
        // SAFETY: every handle was created from this device by this run and
        // is destroyed once; null handles are skipped. The device is idle
        // (the run waited for its fence, or never submitted).
        unsafe {
            let _ = d.device_wait_idle();
            if !self.fence.is_null() {
                d.destroy_fence(self.fence, None);
            }
            if !self.command_buffer.is_null() {
                d.free_command_buffers(self.gpu.command_pool, &[self.command_buffer]);
            }
            if !self.descriptor_pool.is_null() {
                d.destroy_descriptor_pool(self.descriptor_pool, None);
            }
            if !self.session.is_null() {
                d.destroy_data_graph_pipeline_session_arm(self.session, None);
            }
            for m in &self.session_memory {
                d.free_memory(*m, None);
            }
            if !self.pipeline.is_null() {
                d.destroy_pipeline(self.pipeline, None);
            }
            if !self.pipeline_layout.is_null() {
                d.destroy_pipeline_layout(self.pipeline_layout, None);
            }
            for l in &self.set_layouts {
                d.destroy_descriptor_set_layout(*l, None);
            }
            if !self.module.is_null() {
                d.destroy_shader_module(self.module, None);
            }
            for t in &self.tensors {
                if !t.view.is_null() {
                    d.destroy_tensor_view_arm(t.view, None);
                }
                if !t.tensor.is_null() {
                    d.destroy_tensor_arm(t.tensor, None);
                }
                if !t.memory.is_null() {
                    d.free_memory(t.memory, None);
                }
            }
        }
    }
}

/// A tensor description and the dimensions it points at.
struct Description {
    dims: Vec<i64>,
    usage: vk::TensorUsageFlagsARM,
    format: vk::Format,
}

impl Description {
    fn new(elem: ElemType, shape: &[usize], usage: vk::TensorUsageFlagsARM) -> Description {
        // Rank-0 tensors are [1], as scenario-runner makes them.
        let dims = if shape.is_empty() { vec![1] } else { shape.iter().map(|&d| d as i64).collect() };
        Description { dims, usage, format: format(elem) }
    }

    /// The Vulkan struct (the registry's layout); valid while `self` lives.
    fn vk(&self) -> abi::TensorDescription {
        abi::TensorDescription::linear(self.format, &self.dims, self.usage)
    }
}

/// How the tensors a run binds are created: for every use a consumer may
/// make of them, as scenario-runner creates its tensors.
const TENSOR_USAGE: vk::TensorUsageFlagsARM = vk::TensorUsageFlagsARM::from_bits_truncate(
    vk::TensorUsageFlagsARM::SHADER.bits()
        | vk::TensorUsageFlagsARM::TRANSFER_SRC.bits()
        | vk::TensorUsageFlagsARM::TRANSFER_DST.bits()
        | vk::TensorUsageFlagsARM::DATA_GRAPH.bits(),
);

impl<'g> Run<'g> {
    fn new(gpu: &'g Gpu) -> Run<'g> {
        Run {
            gpu,
            tensors: Vec::new(),
            module: vk::ShaderModule::null(),
            set_layouts: Vec::new(),
            pipeline_layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            session: vk::DataGraphPipelineSessionARM::null(),
            session_memory: Vec::new(),
            descriptor_pool: vk::DescriptorPool::null(),
            sets: Vec::new(),
            command_buffer: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            times: RunTimes::default(),
            phase: Phase::Run,
            since: Instant::now(),
        }
    }

    /// Ends the current phase and starts `next`.
    fn enter(&mut self, next: Phase) {
        let now = Instant::now();
        let spent = micros(now.duration_since(self.since));
        match self.phase {
            Phase::Compile => self.times.compile_us += spent,
            Phase::Run => self.times.run_us += spent,
            Phase::Readback => self.times.readback_us += spent,
        }
        self.phase = next;
        self.since = now;
    }

    fn go(
        &mut self,
        words: &[u32],
        entry: &str,
        inputs: &[(Slot, TensorData)],
        outputs: &[Slot],
        constants: &[(u32, TensorData)],
        fault: Option<Fault>,
    ) -> Result<Vec<TensorData>, Failure> {
        let d = &self.gpu.device;
        let slots: Vec<&Slot> = inputs.iter().map(|(s, _)| s).chain(outputs).collect();
        // Tensors, filled with the inputs.
        for (k, slot) in slots.iter().enumerate() {
            let t = self.tensor(slot)?;
            if let Some((_, data)) = inputs.get(k) {
                let bytes = raw::to_raw(data);
                if bytes.len() > t.bytes {
                    return Err(failure(
                        Stage::Resources,
                        format!("input {k}: {} bytes for a tensor of {} bytes", bytes.len(), t.bytes),
                    ));
                }
                // SAFETY: `mapped` points at `t.bytes` bytes of host-visible,
                // coherent memory mapped for this run.
                unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), t.mapped, bytes.len()) };
            }
            self.tensors.push(t);
        }
        // The shader module, the layouts and the pipeline: what the layer
        // compiles.
        self.enter(Phase::Compile);
        let module_info =
            vk::ShaderModuleCreateInfo { code_size: words.len() * 4, code: words.as_ptr(), ..Default::default() };
        // SAFETY: `words` outlives the call.
        self.module = unsafe { d.create_shader_module(&module_info, None) }
            .map_err(|e| vk_failure(Stage::ShaderModule, e, "vkCreateShaderModule"))?;
        // Descriptor-set layouts: one per set up to the highest, each
        // binding with as many descriptors as it has array elements.
        let mut sets: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
        for s in &slots {
            let count = sets.entry(s.set).or_default().entry(s.binding).or_insert(0);
            *count = (*count).max(s.element.map_or(1, |e| e + 1));
        }
        let set_count = sets.keys().next_back().map_or(0, |&s| s + 1);
        for set in 0..set_count {
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = sets
                .get(&set)
                .into_iter()
                .flatten()
                .map(|(&binding, &count)| vk::DescriptorSetLayoutBinding {
                    binding,
                    descriptor_type: vk::DescriptorType::TENSOR_ARM,
                    descriptor_count: count,
                    stage_flags: vk::ShaderStageFlags::ALL,
                    ..Default::default()
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo {
                binding_count: bindings.len() as u32,
                bindings: bindings.as_ptr(),
                ..Default::default()
            };
            // SAFETY: `bindings` outlives the call.
            let layout = unsafe { d.create_descriptor_set_layout(&info, None) }
                .map_err(|e| vk_failure(Stage::Resources, e, "vkCreateDescriptorSetLayout"))?;
            self.set_layouts.push(layout);
        }
        let layout_info = vk::PipelineLayoutCreateInfo {
            set_layout_count: self.set_layouts.len() as u32,
            set_layouts: self.set_layouts.as_ptr(),
            ..Default::default()
        };
        // SAFETY: the set layouts are live.
        self.pipeline_layout = unsafe { d.create_pipeline_layout(&layout_info, None) }
            .map_err(|e| vk_failure(Stage::Resources, e, "vkCreatePipelineLayout"))?;
        // The pipeline: resources by set, binding and array element, graph
        // constants by GraphConstantID, the entry point by name.
        let descriptions: Vec<Description> =
            slots.iter().map(|s| Description::new(s.elem, &s.shape, vk::TensorUsageFlagsARM::DATA_GRAPH)).collect();
        let vk_descriptions: Vec<abi::TensorDescription> = descriptions.iter().map(Description::vk).collect();
        let resources: Vec<vk::DataGraphPipelineResourceInfoARM> = slots
            .iter()
            .zip(&vk_descriptions)
            .map(|(s, desc)| vk::DataGraphPipelineResourceInfoARM {
                next: desc as *const _ as *const c_void,
                descriptor_set: s.set,
                binding: s.binding,
                array_element: s.element.unwrap_or(0),
                ..Default::default()
            })
            .collect();
        let constant_descriptions: Vec<Description> = constants
            .iter()
            .map(|(_, t)| Description::new(t.elem(), t.shape(), vk::TensorUsageFlagsARM::DATA_GRAPH))
            .collect();
        let vk_constant_descriptions: Vec<abi::TensorDescription> =
            constant_descriptions.iter().map(Description::vk).collect();
        let constant_data: Vec<Vec<u8>> = constants.iter().map(|(_, t)| raw::to_raw(t)).collect();
        let vk_constants: Vec<vk::DataGraphPipelineConstantARM> = constants
            .iter()
            .zip(&vk_constant_descriptions)
            .zip(&constant_data)
            .map(|(((id, _), desc), data)| vk::DataGraphPipelineConstantARM {
                next: desc as *const _ as *const c_void,
                id: *id,
                constant_data: data.as_ptr() as *const c_void,
                ..Default::default()
            })
            .collect();
        let name = CString::new(entry).map_err(|_| failure(Stage::Request, "the entry-point name holds a NUL"))?;
        let shader = vk::DataGraphPipelineShaderModuleCreateInfoARM {
            module: self.module,
            name: name.as_ptr(),
            constant_count: vk_constants.len() as u32,
            constants: vk_constants.as_ptr(),
            ..Default::default()
        };
        let info = vk::DataGraphPipelineCreateInfoARM {
            next: &shader as *const _ as *const c_void,
            layout: self.pipeline_layout,
            resource_info_count: resources.len() as u32,
            resource_infos: resources.as_ptr(),
            ..Default::default()
        };
        mark(PIPELINE_CALL);
        // SAFETY: every pointer in the create info and its chains points at
        // a local that outlives the call.
        self.pipeline = match unsafe { guard::create_pipeline(d, &info, self.gpu.catch_exceptions) } {
            Created::Returned(created) => created.map_err(|e| vk_failure(Stage::Pipeline, e, PIPELINE_CALL))?,
            Created::Threw(what) => return Err(failure(Stage::Threw, format!("{PIPELINE_CALL}: {what}"))),
        };
        if self.pipeline.is_null() {
            return Err(failure(Stage::Pipeline, "vkCreateDataGraphPipelinesARM returned no pipeline"));
        }
        self.enter(Phase::Run);
        self.session()?;
        self.descriptors(&slots, set_count)?;
        self.dispatch(fault)?;
        // The outputs, read back from the mapped memory.
        self.enter(Phase::Readback);
        let first_output = inputs.len();
        outputs
            .iter()
            .enumerate()
            .map(|(j, slot)| {
                let t = &self.tensors[first_output + j];
                let need = raw::element_bytes(slot.elem) * slot.shape.iter().product::<usize>();
                if need > t.bytes {
                    return Err(failure(Stage::Resources, format!("output {j}: {need} bytes in {} bytes", t.bytes)));
                }
                // SAFETY: `mapped` points at `t.bytes` >= `need` mapped bytes,
                // which the device finished writing (the fence was waited for
                // and a host-read barrier recorded).
                let bytes = unsafe { std::slice::from_raw_parts(t.mapped, need) };
                raw::from_raw(slot.elem, &slot.shape, bytes)
                    .map_err(|e| failure(Stage::Resources, format!("output {j}: {e}")))
            })
            .collect()
    }

    /// A tensor for `slot`: created, bound to host-visible coherent memory
    /// (mapped) and given a view.
    fn tensor(&mut self, slot: &Slot) -> Result<Tensor, Failure> {
        let d = &self.gpu.device;
        let desc = Description::new(slot.elem, &slot.shape, TENSOR_USAGE);
        let vk_desc = desc.vk();
        let info = abi::TensorCreateInfo {
            s_type: vk::StructureType::TENSOR_CREATE_INFO_ARM,
            next: std::ptr::null(),
            flags: 0,
            description: &vk_desc,
            sharing_mode: vk::SharingMode::EXCLUSIVE,
            queue_family_index_count: 0,
            queue_family_indices: std::ptr::null(),
        };
        let mut t = Tensor {
            tensor: vk::TensorARM::null(),
            memory: vk::DeviceMemory::null(),
            view: vk::TensorViewARM::null(),
            mapped: std::ptr::null_mut(),
            bytes: 0,
        };
        // SAFETY: the description outlives the call; the mirror is the
        // registry's VkTensorCreateInfoARM.
        t.tensor = unsafe { d.create_tensor_arm(abi::as_theirs(&info), None) }.map_err(|e| {
            vk_failure(Stage::Resources, e, &format!("vkCreateTensorARM ({} {:?})", slot.elem, slot.shape))
        })?;
        // Destroyed with the run even if what follows fails.
        let cleanup = |t: Tensor, run: &mut Run<'_>, f: Failure| {
            run.tensors.push(t);
            Err(f)
        };
        let req_info = vk::TensorMemoryRequirementsInfoARM { tensor: t.tensor, ..Default::default() };
        let mut req = vk::MemoryRequirements2::default();
        // SAFETY: a live tensor.
        unsafe { d.get_tensor_memory_requirements_arm(&req_info, &mut req) };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let Some(type_index) = self.gpu.memory_type(req.memory_requirements.memory_type_bits, want) else {
            return cleanup(t, self, failure(Stage::Resources, "no host-visible, coherent memory type for a tensor"));
        };
        let size = req.memory_requirements.size.max(1);
        let alloc =
            vk::MemoryAllocateInfo { allocation_size: size, memory_type_index: type_index, ..Default::default() };
        // SAFETY: a valid allocate info.
        match unsafe { d.allocate_memory(&alloc, None) } {
            Ok(m) => t.memory = m,
            Err(e) => return cleanup(t, self, vk_failure(Stage::Resources, e, "vkAllocateMemory (tensor)")),
        }
        let bind =
            vk::BindTensorMemoryInfoARM { tensor: t.tensor, memory: t.memory, memory_offset: 0, ..Default::default() };
        // SAFETY: a live tensor and memory of its requirements.
        if let Err(e) = unsafe { d.bind_tensor_memory_arm(&[bind]) } {
            return cleanup(t, self, vk_failure(Stage::Resources, e, "vkBindTensorMemoryARM"));
        }
        // SAFETY: host-visible memory, mapped whole, once.
        match unsafe { d.map_memory(t.memory, 0, size, vk::MemoryMapFlags::empty()) } {
            Ok(p) => {
                t.mapped = p.cast::<u8>();
                t.bytes = usize::try_from(size).unwrap_or(usize::MAX);
                // SAFETY: `size` mapped bytes: start from zeros, as
                // scenario-runner does for outputs.
                unsafe { std::ptr::write_bytes(t.mapped, 0, t.bytes) };
            }
            Err(e) => return cleanup(t, self, vk_failure(Stage::Resources, e, "vkMapMemory (tensor)")),
        }
        let view_info = abi::TensorViewCreateInfo {
            s_type: vk::StructureType::TENSOR_VIEW_CREATE_INFO_ARM,
            next: std::ptr::null(),
            flags: 0,
            tensor: t.tensor,
            format: desc.format,
        };
        // SAFETY: a live tensor bound to memory; the mirror is the registry's
        // VkTensorViewCreateInfoARM.
        match unsafe { d.create_tensor_view_arm(abi::as_theirs(&view_info), None) } {
            Ok(v) => t.view = v,
            Err(e) => return cleanup(t, self, vk_failure(Stage::Resources, e, "vkCreateTensorViewARM")),
        }
        Ok(t)
    }

    /// The session, with memory bound at every memory bind point it asks for.
    fn session(&mut self) -> Result<(), Failure> {
        let d = &self.gpu.device;
        let info = abi::SessionCreateInfo {
            s_type: vk::StructureType::DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
            next: std::ptr::null(),
            flags: 0,
            data_graph_pipeline: self.pipeline,
        };
        mark("vkCreateDataGraphPipelineSessionARM");
        // SAFETY: a live pipeline; the mirror is the registry's
        // VkDataGraphPipelineSessionCreateInfoARM.
        self.session = unsafe { d.create_data_graph_pipeline_session_arm(abi::as_theirs(&info), None) }
            .map_err(|e| vk_failure(Stage::Session, e, "vkCreateDataGraphPipelineSessionARM"))?;
        let req_info =
            vk::DataGraphPipelineSessionBindPointRequirementsInfoARM { session: self.session, ..Default::default() };
        // SAFETY: a live session.
        let points = unsafe { d.get_data_graph_pipeline_session_bind_point_requirements_arm(&req_info) }
            .map_err(|e| vk_failure(Stage::Session, e, "vkGetDataGraphPipelineSessionBindPointRequirementsARM"))?;
        let mut binds = Vec::new();
        for p in points.iter().filter(|p| p.bind_point_type == vk::DataGraphPipelineSessionBindPointTypeARM::MEMORY) {
            for object in 0..p.num_objects {
                let mem_info = vk::DataGraphPipelineSessionMemoryRequirementsInfoARM {
                    session: self.session,
                    bind_point: p.bind_point,
                    object_index: object,
                    ..Default::default()
                };
                let mut req = vk::MemoryRequirements2::default();
                // SAFETY: a live session and one of its bind points.
                unsafe { d.get_data_graph_pipeline_session_memory_requirements_arm(&mem_info, &mut req) };
                let r = req.memory_requirements;
                if r.size == 0 {
                    continue;
                }
                let type_index = self
                    .gpu
                    .memory_type(r.memory_type_bits, vk::MemoryPropertyFlags::DEVICE_LOCAL)
                    .or_else(|| self.gpu.memory_type(r.memory_type_bits, vk::MemoryPropertyFlags::empty()))
                    .ok_or_else(|| {
                        failure(
                            Stage::SessionMemory,
                            format!("no memory type among {:#x} for bind point {:?}", r.memory_type_bits, p.bind_point),
                        )
                    })?;
                let alloc = vk::MemoryAllocateInfo {
                    allocation_size: r.size,
                    memory_type_index: type_index,
                    ..Default::default()
                };
                // SAFETY: a valid allocate info.
                let memory = unsafe { d.allocate_memory(&alloc, None) }.map_err(|e| {
                    vk_failure(Stage::SessionMemory, e, &format!("vkAllocateMemory ({} bytes for the session)", r.size))
                })?;
                self.session_memory.push(memory);
                binds.push(vk::BindDataGraphPipelineSessionMemoryInfoARM {
                    session: self.session,
                    bind_point: p.bind_point,
                    object_index: object,
                    memory,
                    memory_offset: 0,
                    ..Default::default()
                });
            }
        }
        if !binds.is_empty() {
            // SAFETY: a live session and memory of its requirements.
            unsafe { d.bind_data_graph_pipeline_session_memory_arm(&binds) }
                .map_err(|e| vk_failure(Stage::SessionMemory, e, "vkBindDataGraphPipelineSessionMemoryARM"))?;
        }
        Ok(())
    }

    /// The descriptor sets, one descriptor per tensor at its set, binding
    /// and array element.
    fn descriptors(&mut self, slots: &[&Slot], set_count: u32) -> Result<(), Failure> {
        let d = &self.gpu.device;
        let total: u32 = self.tensors.len().max(1) as u32;
        let sizes = [vk::DescriptorPoolSize { type_: vk::DescriptorType::TENSOR_ARM, descriptor_count: total }];
        let pool_info = vk::DescriptorPoolCreateInfo {
            max_sets: set_count.max(1),
            pool_size_count: 1,
            pool_sizes: sizes.as_ptr(),
            ..Default::default()
        };
        // SAFETY: `sizes` outlives the call.
        self.descriptor_pool = unsafe { d.create_descriptor_pool(&pool_info, None) }
            .map_err(|e| vk_failure(Stage::Resources, e, "vkCreateDescriptorPool"))?;
        if self.set_layouts.is_empty() {
            return Ok(());
        }
        let alloc = vk::DescriptorSetAllocateInfo {
            descriptor_pool: self.descriptor_pool,
            descriptor_set_count: self.set_layouts.len() as u32,
            set_layouts: self.set_layouts.as_ptr(),
            ..Default::default()
        };
        // SAFETY: a live pool and layouts.
        let sets = unsafe { d.allocate_descriptor_sets(&alloc) }
            .map_err(|e| vk_failure(Stage::Resources, e, "vkAllocateDescriptorSets"))?;
        let views: Vec<vk::TensorViewARM> = self.tensors.iter().map(|t| t.view).collect();
        let tensor_writes: Vec<vk::WriteDescriptorSetTensorARM> = views
            .iter()
            .map(|v| vk::WriteDescriptorSetTensorARM { tensor_view_count: 1, tensor_views: v, ..Default::default() })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = slots
            .iter()
            .zip(&tensor_writes)
            .map(|(s, w)| vk::WriteDescriptorSet {
                next: w as *const _ as *const c_void,
                dst_set: sets[s.set as usize],
                dst_binding: s.binding,
                dst_array_element: s.element.unwrap_or(0),
                descriptor_count: 1,
                descriptor_type: vk::DescriptorType::TENSOR_ARM,
                ..Default::default()
            })
            .collect();
        // SAFETY: every write points at live sets, views and locals.
        unsafe { d.update_descriptor_sets(&writes, &[] as &[vk::CopyDescriptorSet]) };
        self.sets = sets;
        Ok(())
    }

    /// Records, submits and waits for the dispatch.
    fn dispatch(&mut self, fault: Option<Fault>) -> Result<(), Failure> {
        let d = &self.gpu.device;
        let alloc = vk::CommandBufferAllocateInfo {
            command_pool: self.gpu.command_pool,
            level: vk::CommandBufferLevel::PRIMARY,
            command_buffer_count: 1,
            ..Default::default()
        };
        // SAFETY: a live pool.
        let buffers = unsafe { d.allocate_command_buffers(&alloc) }
            .map_err(|e| vk_failure(Stage::Dispatch, e, "vkAllocateCommandBuffers"))?;
        self.command_buffer = buffers.first().copied().unwrap_or_default();
        let cb = self.command_buffer;
        let begin =
            vk::CommandBufferBeginInfo { flags: vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT, ..Default::default() };
        let host_read = vk::MemoryBarrier {
            src_access_mask: vk::AccessFlags::MEMORY_WRITE,
            dst_access_mask: vk::AccessFlags::HOST_READ,
            ..Default::default()
        };
        mark("vkCmdDispatchDataGraphARM");
        // SAFETY: recording into a fresh command buffer with live objects.
        unsafe {
            d.begin_command_buffer(cb, &begin).map_err(|e| vk_failure(Stage::Dispatch, e, "vkBeginCommandBuffer"))?;
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::DATA_GRAPH_ARM, self.pipeline);
            if !self.sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::DATA_GRAPH_ARM,
                    self.pipeline_layout,
                    0,
                    &self.sets,
                    &[],
                );
            }
            d.cmd_dispatch_data_graph_arm(cb, self.session, None);
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[host_read],
                &[] as &[vk::BufferMemoryBarrier],
                &[] as &[vk::ImageMemoryBarrier],
            );
            d.end_command_buffer(cb).map_err(|e| vk_failure(Stage::Dispatch, e, "vkEndCommandBuffer"))?;
        }
        match fault {
            None => {}
            // SAFETY: dying of SIGSEGV is what the fault is for. The default
            // action first: std's handler (for stack overflows) would return
            // from a raised signal and the worker would go on.
            Some(Fault::Segfault) => unsafe {
                libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                libc::raise(libc::SIGSEGV);
            },
            Some(Fault::Hang) => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            Some(Fault::DeviceLost) => {
                return Err(vk_failure(Stage::Dispatch, vk::ErrorCode::DEVICE_LOST, "vkQueueSubmit (planted)"))
            }
        }
        let fence_info = vk::FenceCreateInfo::default();
        // SAFETY: a valid create info.
        self.fence = unsafe { d.create_fence(&fence_info, None) }
            .map_err(|e| vk_failure(Stage::Dispatch, e, "vkCreateFence"))?;
        let submit = vk::SubmitInfo { command_buffer_count: 1, command_buffers: &cb, ..Default::default() };
        mark("vkQueueSubmit");
        // SAFETY: a recorded command buffer, a live queue and fence.
        unsafe { d.queue_submit(self.gpu.queue, &[submit], self.fence) }
            .map_err(|e| vk_failure(Stage::Dispatch, e, "vkQueueSubmit"))?;
        // SAFETY: a fence of this device; the oracle's time limit bounds the wait.
        unsafe { d.wait_for_fences(&[self.fence], true, u64::MAX) }
            .map_err(|e| vk_failure(Stage::Dispatch, e, "vkWaitForFences"))?;
        Ok(())
    }
}
