/*
 * Standalone reproducer: emulation-layer-exception-through-vulkan-api.
 *
 * Runs emulation-layer-exception-through-vulkan-api.spv through the Vulkan
 * API from C, as any C application would. The graph multiplies two i32 [4]
 * inputs (set 0, bindings 0 and 1) with MUL whose shift operand is the graph
 * constant GraphConstantID 0 (an i8 [1] tensor holding 0, given at pipeline
 * creation); the product is output 0 (set 0, binding 2). The Graph layer
 * refuses the graph (the shift is not an OpConstant), which is its right;
 * how it refuses is the bug: a C++ exception leaves
 * vkCreateDataGraphPipelinesARM instead of an error VkResult.
 *
 * Expected: vkCreateDataGraphPipelinesARM returns (VK_SUCCESS with output 0 =
 * [5, 12, 21, 32], or an error code such as VK_ERROR_UNKNOWN) and this
 * program goes on to print which.
 * Seen with ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe: the process
 * is aborted (SIGABRT) by the C++ runtime, "terminate called after throwing
 * an instance of 'std::runtime_error'", "what(): Missing declared constant
 * for id: ..."; nothing after the call runs.
 *
 * Build and run (Debian 12: apt-get install libvulkan-dev), from the
 * directory holding the .spv, with the emulation layers enabled:
 *
 *   cc -o emulation-layer-exception-through-vulkan-api \
 *       emulation-layer-exception-through-vulkan-api.c -lvulkan
 *   VK_LAYER_PATH=$ORACLES/layers/1_graph:$ORACLES/layers/2_tensor \
 *   VK_INSTANCE_LAYERS=VK_LAYER_ML_Graph_Emulation:VK_LAYER_ML_Tensor_Emulation \
 *   VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
 *       ./emulation-layer-exception-through-vulkan-api
 *
 * Exit status: 0 when vkCreateDataGraphPipelinesARM returned (an error code
 * or a pipeline giving the expected output), 1 when the output is wrong, 2
 * when another Vulkan call fails; SIGABRT while the exception escapes.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

/*
 * VK_ARM_tensors and VK_ARM_data_graph, for headers that predate them
 * (Debian 12 ships Vulkan-Headers 1.3.239). Declared here by hand after the
 * Vulkan registry as of Vulkan-Headers 1.4.357 (vk.xml); only what this
 * program uses. Newer system headers declare them already.
 */
#ifndef VK_ARM_tensors
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkTensorARM)
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkTensorViewARM)
#define VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM ((VkStructureType)1000460000)
#define VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM ((VkStructureType)1000460001)
#define VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM ((VkStructureType)1000460002)
#define VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM ((VkStructureType)1000460003)
#define VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM ((VkStructureType)1000460006)
#define VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM ((VkStructureType)1000460007)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM ((VkStructureType)1000460009)
#define VK_DESCRIPTOR_TYPE_TENSOR_ARM ((VkDescriptorType)1000460000)
#define VK_TENSOR_TILING_LINEAR_ARM 1
#define VK_TENSOR_USAGE_SHADER_BIT_ARM 0x02ULL
#define VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM 0x04ULL
#define VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM 0x08ULL
#define VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM 0x20ULL
typedef struct VkTensorDescriptionARM {
    VkStructureType sType;
    const void *pNext;
    int32_t tiling; /* VkTensorTilingARM */
    VkFormat format;
    uint32_t dimensionCount;
    const int64_t *pDimensions;
    const int64_t *pStrides; /* NULL: packed */
    VkFlags64 usage;         /* VkTensorUsageFlagsARM: 64-bit */
} VkTensorDescriptionARM;
typedef struct VkTensorCreateInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkFlags64 flags; /* VkTensorCreateFlagsARM: 64-bit */
    const VkTensorDescriptionARM *pDescription;
    VkSharingMode sharingMode;
    uint32_t queueFamilyIndexCount;
    const uint32_t *pQueueFamilyIndices;
} VkTensorCreateInfoARM;
typedef struct VkTensorViewCreateInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkFlags64 flags; /* VkTensorViewCreateFlagsARM: 64-bit */
    VkTensorARM tensor;
    VkFormat format;
} VkTensorViewCreateInfoARM;
typedef struct VkTensorMemoryRequirementsInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkTensorARM tensor;
} VkTensorMemoryRequirementsInfoARM;
typedef struct VkBindTensorMemoryInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkTensorARM tensor;
    VkDeviceMemory memory;
    VkDeviceSize memoryOffset;
} VkBindTensorMemoryInfoARM;
typedef struct VkWriteDescriptorSetTensorARM {
    VkStructureType sType;
    const void *pNext;
    uint32_t tensorViewCount;
    const VkTensorViewARM *pTensorViews;
} VkWriteDescriptorSetTensorARM;
typedef struct VkPhysicalDeviceTensorFeaturesARM {
    VkStructureType sType;
    void *pNext;
    VkBool32 tensorNonPacked;
    VkBool32 shaderTensorAccess;
    VkBool32 shaderStorageTensorArrayDynamicIndexing;
    VkBool32 shaderStorageTensorArrayNonUniformIndexing;
    VkBool32 descriptorBindingStorageTensorUpdateAfterBind;
    VkBool32 tensors;
} VkPhysicalDeviceTensorFeaturesARM;
typedef VkResult(VKAPI_PTR *PFN_vkCreateTensorARM)(VkDevice, const VkTensorCreateInfoARM *,
                                                   const VkAllocationCallbacks *, VkTensorARM *);
typedef VkResult(VKAPI_PTR *PFN_vkCreateTensorViewARM)(VkDevice, const VkTensorViewCreateInfoARM *,
                                                       const VkAllocationCallbacks *, VkTensorViewARM *);
typedef void(VKAPI_PTR *PFN_vkGetTensorMemoryRequirementsARM)(VkDevice, const VkTensorMemoryRequirementsInfoARM *,
                                                              VkMemoryRequirements2 *);
typedef VkResult(VKAPI_PTR *PFN_vkBindTensorMemoryARM)(VkDevice, uint32_t, const VkBindTensorMemoryInfoARM *);
#endif

#ifndef VK_ARM_data_graph
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkDataGraphPipelineSessionARM)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM ((VkStructureType)1000507000)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM ((VkStructureType)1000507001)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM ((VkStructureType)1000507002)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM ((VkStructureType)1000507003)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM ((VkStructureType)1000507004)
#define VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM ((VkStructureType)1000507005)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM ((VkStructureType)1000507006)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM ((VkStructureType)1000507007)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM ((VkStructureType)1000507011)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM ((VkStructureType)1000507012)
#define VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM ((VkPipelineBindPoint)1000507000)
#define VK_QUEUE_DATA_GRAPH_BIT_ARM 0x00000400
#define VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MEMORY_ARM 0
typedef struct VkPhysicalDeviceDataGraphFeaturesARM {
    VkStructureType sType;
    void *pNext;
    VkBool32 dataGraph;
    VkBool32 dataGraphUpdateAfterBind;
    VkBool32 dataGraphSpecializationConstants;
    VkBool32 dataGraphDescriptorBuffer;
    VkBool32 dataGraphShaderModule;
} VkPhysicalDeviceDataGraphFeaturesARM;
typedef struct VkDataGraphPipelineConstantARM {
    VkStructureType sType;
    const void *pNext; /* a VkTensorDescriptionARM */
    uint32_t id;       /* the GraphConstantID */
    const void *pConstantData;
} VkDataGraphPipelineConstantARM;
typedef struct VkDataGraphPipelineResourceInfoARM {
    VkStructureType sType;
    const void *pNext; /* a VkTensorDescriptionARM */
    uint32_t descriptorSet;
    uint32_t binding;
    uint32_t arrayElement;
} VkDataGraphPipelineResourceInfoARM;
typedef struct VkDataGraphPipelineCreateInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkFlags64 flags; /* VkPipelineCreateFlags2: 64-bit */
    VkPipelineLayout layout;
    uint32_t resourceInfoCount;
    const VkDataGraphPipelineResourceInfoARM *pResourceInfos;
} VkDataGraphPipelineCreateInfoARM;
typedef struct VkDataGraphPipelineShaderModuleCreateInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkShaderModule module;
    const char *pName;
    const VkSpecializationInfo *pSpecializationInfo;
    uint32_t constantCount;
    const VkDataGraphPipelineConstantARM *pConstants;
} VkDataGraphPipelineShaderModuleCreateInfoARM;
typedef struct VkDataGraphPipelineSessionCreateInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkFlags64 flags; /* VkDataGraphPipelineSessionCreateFlagsARM: 64-bit */
    VkPipeline dataGraphPipeline;
} VkDataGraphPipelineSessionCreateInfoARM;
typedef struct VkDataGraphPipelineSessionBindPointRequirementsInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkDataGraphPipelineSessionARM session;
} VkDataGraphPipelineSessionBindPointRequirementsInfoARM;
typedef struct VkDataGraphPipelineSessionBindPointRequirementARM {
    VkStructureType sType;
    void *pNext;
    int32_t bindPoint;     /* VkDataGraphPipelineSessionBindPointARM */
    int32_t bindPointType; /* VkDataGraphPipelineSessionBindPointTypeARM */
    uint32_t numObjects;
} VkDataGraphPipelineSessionBindPointRequirementARM;
typedef struct VkDataGraphPipelineSessionMemoryRequirementsInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkDataGraphPipelineSessionARM session;
    int32_t bindPoint;
    uint32_t objectIndex;
} VkDataGraphPipelineSessionMemoryRequirementsInfoARM;
typedef struct VkBindDataGraphPipelineSessionMemoryInfoARM {
    VkStructureType sType;
    const void *pNext;
    VkDataGraphPipelineSessionARM session;
    int32_t bindPoint;
    uint32_t objectIndex;
    VkDeviceMemory memory;
    VkDeviceSize memoryOffset;
} VkBindDataGraphPipelineSessionMemoryInfoARM;
typedef VkResult(VKAPI_PTR *PFN_vkCreateDataGraphPipelinesARM)(VkDevice, VkDeferredOperationKHR, VkPipelineCache,
                                                               uint32_t, const VkDataGraphPipelineCreateInfoARM *,
                                                               const VkAllocationCallbacks *, VkPipeline *);
typedef VkResult(VKAPI_PTR *PFN_vkCreateDataGraphPipelineSessionARM)(VkDevice,
                                                                     const VkDataGraphPipelineSessionCreateInfoARM *,
                                                                     const VkAllocationCallbacks *,
                                                                     VkDataGraphPipelineSessionARM *);
typedef VkResult(VKAPI_PTR *PFN_vkGetDataGraphPipelineSessionBindPointRequirementsARM)(
    VkDevice, const VkDataGraphPipelineSessionBindPointRequirementsInfoARM *, uint32_t *,
    VkDataGraphPipelineSessionBindPointRequirementARM *);
typedef void(VKAPI_PTR *PFN_vkGetDataGraphPipelineSessionMemoryRequirementsARM)(
    VkDevice, const VkDataGraphPipelineSessionMemoryRequirementsInfoARM *, VkMemoryRequirements2 *);
typedef VkResult(VKAPI_PTR *PFN_vkBindDataGraphPipelineSessionMemoryARM)(
    VkDevice, uint32_t, const VkBindDataGraphPipelineSessionMemoryInfoARM *);
typedef void(VKAPI_PTR *PFN_vkCmdDispatchDataGraphARM)(VkCommandBuffer, VkDataGraphPipelineSessionARM, const void *);
#endif

/* ---- The finding: module, interface tensors, expected outputs. ---- */

#define STEM "emulation-layer-exception-through-vulkan-api"
#define N 4 /* every interface tensor is i32 [4] */

struct slot {
    const char *what;
    uint32_t set, binding, element;
    int input;            /* 1: filled from data; 0: an output, read back */
    const int32_t *data;  /* input values, or expected output values */
};

static const int32_t in0[N] = {1, 2, 3, 4};
static const int32_t in1[N] = {5, 6, 7, 8};
static const int32_t want0[N] = {5, 12, 21, 32};

/* Inputs first, then outputs, as the graph's interface lists them. */
static const struct slot slots[] = {
    {"input 0", 0, 0, 0, 1, in0},
    {"input 1", 0, 1, 0, 1, in1},
    {"output 0", 0, 2, 0, 0, want0},
};
/* Graph constant 0: the MUL shift, an i8 [1] tensor. */
static const int8_t shift_data[1] = {0};
#define NSLOTS (sizeof slots / sizeof slots[0])

/* ---- Plumbing. ---- */

static void check(VkResult r, const char *call) {
    if (r != VK_SUCCESS) {
        printf("%s returned VkResult %d\n", call, (int)r);
        exit(2);
    }
}

static PFN_vkVoidFunction device_proc(VkDevice d, const char *name) {
    PFN_vkVoidFunction f = vkGetDeviceProcAddr(d, name);
    if (!f) {
        printf("vkGetDeviceProcAddr(%s) returned NULL: are the emulation layers enabled?\n", name);
        exit(2);
    }
    return f;
}

static uint32_t *read_spv(const char *path, size_t *bytes) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("cannot open %s (run from the directory holding it)\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = malloc((size_t)n);
    if (!words || fread(words, 1, (size_t)n, f) != (size_t)n) {
        printf("cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *bytes = (size_t)n;
    return words;
}

static uint32_t memory_type(const VkPhysicalDeviceMemoryProperties *m, uint32_t bits, VkMemoryPropertyFlags want) {
    for (uint32_t i = 0; i < m->memoryTypeCount; i++)
        if ((bits & (1u << i)) && (m->memoryTypes[i].propertyFlags & want) == want)
            return i;
    printf("no suitable memory type\n");
    exit(2);
}

static int has_extension(VkPhysicalDevice p, const char *name) {
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(p, NULL, &n, NULL);
    VkExtensionProperties *e = calloc(n ? n : 1, sizeof *e);
    vkEnumerateDeviceExtensionProperties(p, NULL, &n, e);
    int found = 0;
    for (uint32_t i = 0; i < n; i++)
        found |= strcmp(e[i].extensionName, name) == 0;
    free(e);
    return found;
}

int main(void) {
    printf("%s: expected: vkCreateDataGraphPipelinesARM returns; output 0 = [5, 12, 21, 32]\n", STEM);

    /* Instance: the loader adds the layers named by VK_INSTANCE_LAYERS. */
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, STEM, 1, STEM, 1, VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance;
    check(vkCreateInstance(&ici, NULL, &instance), "vkCreateInstance");

    /* The first physical device with a queue family that runs data graphs. */
    uint32_t np = 0;
    vkEnumeratePhysicalDevices(instance, &np, NULL);
    VkPhysicalDevice *ps = calloc(np ? np : 1, sizeof *ps);
    vkEnumeratePhysicalDevices(instance, &np, ps);
    VkPhysicalDevice phys = VK_NULL_HANDLE;
    uint32_t family = 0;
    for (uint32_t i = 0; i < np && phys == VK_NULL_HANDLE; i++) {
        uint32_t nq = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(ps[i], &nq, NULL);
        VkQueueFamilyProperties *q = calloc(nq ? nq : 1, sizeof *q);
        vkGetPhysicalDeviceQueueFamilyProperties(ps[i], &nq, q);
        for (uint32_t j = 0; j < nq; j++)
            if (q[j].queueFlags & VK_QUEUE_DATA_GRAPH_BIT_ARM) {
                phys = ps[i];
                family = j;
                break;
            }
        free(q);
    }
    if (phys == VK_NULL_HANDLE) {
        printf("no device with a DATA_GRAPH queue: are the emulation layers enabled?\n");
        return 2;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(phys, &props);
    printf("device: %s\n", props.deviceName);

    /* Device: both extensions and their features, plus what the graph's
     * shaders may need where the driver offers it. */
    VkPhysicalDeviceDataGraphFeaturesARM graph = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM};
    VkPhysicalDeviceTensorFeaturesARM tensor = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, &graph};
    VkPhysicalDeviceVulkan12Features v12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &tensor};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
    vkGetPhysicalDeviceFeatures2(phys, &f2);
    if (!tensor.tensors || !tensor.shaderTensorAccess || !graph.dataGraph || !graph.dataGraphShaderModule ||
        !v12.vulkanMemoryModel) {
        printf("the device lacks the tensor / data-graph features\n");
        return 2;
    }
    VkPhysicalDeviceDataGraphFeaturesARM graph_on = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM};
    graph_on.dataGraph = VK_TRUE;
    graph_on.dataGraphShaderModule = VK_TRUE;
    VkPhysicalDeviceTensorFeaturesARM tensor_on = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, &graph_on};
    tensor_on.tensors = VK_TRUE;
    tensor_on.shaderTensorAccess = VK_TRUE;
    VkPhysicalDeviceVulkan12Features v12_on = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &tensor_on};
    v12_on.vulkanMemoryModel = VK_TRUE;
    v12_on.vulkanMemoryModelDeviceScope = v12.vulkanMemoryModelDeviceScope;
    v12_on.shaderInt8 = v12.shaderInt8;
    v12_on.shaderFloat16 = v12.shaderFloat16;
    v12_on.storageBuffer8BitAccess = v12.storageBuffer8BitAccess;
    VkPhysicalDeviceFeatures core = {0};
    core.shaderInt16 = f2.features.shaderInt16;
    core.shaderInt64 = f2.features.shaderInt64;
    const char *exts[4] = {"VK_ARM_tensors", "VK_ARM_data_graph"};
    uint32_t next = 2;
    if (has_extension(phys, "VK_KHR_maintenance5"))
        exts[next++] = "VK_KHR_maintenance5";
    if (has_extension(phys, "VK_KHR_deferred_host_operations"))
        exts[next++] = "VK_KHR_deferred_host_operations";
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, family, 1, &priority};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12_on};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = next;
    dci.ppEnabledExtensionNames = exts;
    dci.pEnabledFeatures = &core;
    VkDevice dev;
    check(vkCreateDevice(phys, &dci, NULL, &dev), "vkCreateDevice");
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(phys, &mem);

    PFN_vkCreateTensorARM createTensor = (PFN_vkCreateTensorARM)device_proc(dev, "vkCreateTensorARM");
    PFN_vkCreateTensorViewARM createTensorView =
        (PFN_vkCreateTensorViewARM)device_proc(dev, "vkCreateTensorViewARM");
    PFN_vkGetTensorMemoryRequirementsARM tensorMemReq =
        (PFN_vkGetTensorMemoryRequirementsARM)device_proc(dev, "vkGetTensorMemoryRequirementsARM");
    PFN_vkBindTensorMemoryARM bindTensorMemory =
        (PFN_vkBindTensorMemoryARM)device_proc(dev, "vkBindTensorMemoryARM");
    PFN_vkCreateDataGraphPipelinesARM createPipelines =
        (PFN_vkCreateDataGraphPipelinesARM)device_proc(dev, "vkCreateDataGraphPipelinesARM");
    PFN_vkCreateDataGraphPipelineSessionARM createSession =
        (PFN_vkCreateDataGraphPipelineSessionARM)device_proc(dev, "vkCreateDataGraphPipelineSessionARM");
    PFN_vkGetDataGraphPipelineSessionBindPointRequirementsARM bindPointReqs =
        (PFN_vkGetDataGraphPipelineSessionBindPointRequirementsARM)device_proc(
            dev, "vkGetDataGraphPipelineSessionBindPointRequirementsARM");
    PFN_vkGetDataGraphPipelineSessionMemoryRequirementsARM sessionMemReq =
        (PFN_vkGetDataGraphPipelineSessionMemoryRequirementsARM)device_proc(
            dev, "vkGetDataGraphPipelineSessionMemoryRequirementsARM");
    PFN_vkBindDataGraphPipelineSessionMemoryARM bindSessionMemory =
        (PFN_vkBindDataGraphPipelineSessionMemoryARM)device_proc(dev, "vkBindDataGraphPipelineSessionMemoryARM");
    PFN_vkCmdDispatchDataGraphARM dispatch =
        (PFN_vkCmdDispatchDataGraphARM)device_proc(dev, "vkCmdDispatchDataGraphARM");

    /* One linear i32 [4] tensor per interface slot, in host-visible memory,
     * with a view; inputs filled, outputs zeroed. */
    const int64_t dims[1] = {N};
    VkTensorARM tensors[NSLOTS];
    VkTensorViewARM views[NSLOTS];
    int32_t *mapped[NSLOTS];
    for (uint32_t k = 0; k < NSLOTS; k++) {
        VkTensorDescriptionARM desc = {VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM, NULL, VK_TENSOR_TILING_LINEAR_ARM,
                                       VK_FORMAT_R32_SINT, 1, dims, NULL,
                                       VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM |
                                           VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM | VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM};
        VkTensorCreateInfoARM tci = {VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM, NULL, 0, &desc,
                                     VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
        check(createTensor(dev, &tci, NULL, &tensors[k]), "vkCreateTensorARM");
        VkTensorMemoryRequirementsInfoARM ri = {VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, NULL,
                                                tensors[k]};
        VkMemoryRequirements2 req = {VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
        tensorMemReq(dev, &ri, &req);
        VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.memoryRequirements.size,
                                   memory_type(&mem, req.memoryRequirements.memoryTypeBits,
                                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
        VkDeviceMemory m;
        check(vkAllocateMemory(dev, &ai, NULL, &m), "vkAllocateMemory");
        VkBindTensorMemoryInfoARM bi = {VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM, NULL, tensors[k], m, 0};
        check(bindTensorMemory(dev, 1, &bi), "vkBindTensorMemoryARM");
        void *p;
        check(vkMapMemory(dev, m, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
        mapped[k] = p;
        memset(p, 0, (size_t)req.memoryRequirements.size);
        if (slots[k].input)
            memcpy(p, slots[k].data, sizeof(int32_t) * N);
        VkTensorViewCreateInfoARM vci = {VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM, NULL, 0, tensors[k],
                                         VK_FORMAT_R32_SINT};
        check(createTensorView(dev, &vci, NULL, &views[k]), "vkCreateTensorViewARM");
    }

    /* The module. */
    size_t bytes;
    uint32_t *words = read_spv(STEM ".spv", &bytes);
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, bytes, words};
    VkShaderModule module;
    check(vkCreateShaderModule(dev, &smci, NULL, &module), "vkCreateShaderModule");

    /* Set 0: bindings 0, 1 and 2, one tensor each. */
    VkDescriptorSetLayoutBinding lb[3] = {
        {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_ALL, NULL},
        {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_ALL, NULL},
        {2, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_ALL, NULL},
    };
    VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 3, lb};
    VkDescriptorSetLayout set_layout;
    check(vkCreateDescriptorSetLayout(dev, &lci, NULL, &set_layout), "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &set_layout};
    VkPipelineLayout layout;
    check(vkCreatePipelineLayout(dev, &plci, NULL, &layout), "vkCreatePipelineLayout");

    /* The pipeline: every tensor described by set, binding and array
     * element; graph constant 0 with its description and data; the entry
     * point by name. */
    VkTensorDescriptionARM rdesc = {VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM, NULL, VK_TENSOR_TILING_LINEAR_ARM,
                                    VK_FORMAT_R32_SINT, 1, dims, NULL, VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM};
    VkDataGraphPipelineResourceInfoARM res[NSLOTS];
    for (uint32_t k = 0; k < NSLOTS; k++) {
        VkDataGraphPipelineResourceInfoARM r = {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM, &rdesc,
                                                slots[k].set, slots[k].binding, slots[k].element};
        res[k] = r;
    }
    const int64_t shift_dims[1] = {1};
    VkTensorDescriptionARM cdesc = {VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM, NULL, VK_TENSOR_TILING_LINEAR_ARM,
                                    VK_FORMAT_R8_SINT, 1, shift_dims, NULL, VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM};
    VkDataGraphPipelineConstantARM constant = {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM, &cdesc, 0,
                                               shift_data};
    VkDataGraphPipelineShaderModuleCreateInfoARM smi = {
        VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM, NULL, module, "main", NULL, 1, &constant};
    VkDataGraphPipelineCreateInfoARM pci = {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM, &smi, 0, layout,
                                            NSLOTS, res};
    VkPipeline pipeline = VK_NULL_HANDLE;
    printf("calling vkCreateDataGraphPipelinesARM\n");
    fflush(stdout);
    VkResult r = createPipelines(dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &pci, NULL, &pipeline);
    printf("vkCreateDataGraphPipelinesARM returned VkResult %d\n", (int)r);
    if (r != VK_SUCCESS) {
        /* A refusal reported the Vulkan way: the bug is fixed. */
        printf("refused with an error code, as a Vulkan command should\n");
        return 0;
    }

    /* The session, with memory at every bind point it asks for. */
    VkDataGraphPipelineSessionCreateInfoARM sci = {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
                                                   NULL, 0, pipeline};
    VkDataGraphPipelineSessionARM session;
    check(createSession(dev, &sci, NULL, &session), "vkCreateDataGraphPipelineSessionARM");
    VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
        VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM, NULL, session};
    uint32_t nbp = 0;
    check(bindPointReqs(dev, &bri, &nbp, NULL), "vkGetDataGraphPipelineSessionBindPointRequirementsARM");
    VkDataGraphPipelineSessionBindPointRequirementARM *bps = calloc(nbp ? nbp : 1, sizeof *bps);
    for (uint32_t i = 0; i < nbp; i++)
        bps[i].sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM;
    check(bindPointReqs(dev, &bri, &nbp, bps), "vkGetDataGraphPipelineSessionBindPointRequirementsARM");
    for (uint32_t i = 0; i < nbp; i++) {
        if (bps[i].bindPointType != VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MEMORY_ARM)
            continue;
        for (uint32_t o = 0; o < bps[i].numObjects; o++) {
            VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
                VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM, NULL, session,
                bps[i].bindPoint, o};
            VkMemoryRequirements2 req = {VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
            sessionMemReq(dev, &mri, &req);
            if (req.memoryRequirements.size == 0)
                continue;
            VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.memoryRequirements.size,
                                       memory_type(&mem, req.memoryRequirements.memoryTypeBits, 0)};
            VkDeviceMemory m;
            check(vkAllocateMemory(dev, &ai, NULL, &m), "vkAllocateMemory (session)");
            VkBindDataGraphPipelineSessionMemoryInfoARM bi = {
                VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM, NULL, session, bps[i].bindPoint,
                o, m, 0};
            check(bindSessionMemory(dev, 1, &bi), "vkBindDataGraphPipelineSessionMemoryARM");
        }
    }

    /* One descriptor per tensor at its binding and array element. */
    VkDescriptorPoolSize ps_size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, NSLOTS};
    VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps_size};
    VkDescriptorPool pool;
    check(vkCreateDescriptorPool(dev, &dpci, NULL, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, pool, 1, &set_layout};
    VkDescriptorSet set;
    check(vkAllocateDescriptorSets(dev, &dsai, &set), "vkAllocateDescriptorSets");
    VkWriteDescriptorSetTensorARM tw[NSLOTS];
    VkWriteDescriptorSet w[NSLOTS];
    for (uint32_t k = 0; k < NSLOTS; k++) {
        VkWriteDescriptorSetTensorARM t = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 1, &views[k]};
        tw[k] = t;
        VkWriteDescriptorSet x = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &tw[k], set, slots[k].binding,
                                  slots[k].element, 1, VK_DESCRIPTOR_TYPE_TENSOR_ARM};
        w[k] = x;
    }
    vkUpdateDescriptorSets(dev, NSLOTS, w, 0, NULL);

    /* One dispatch, then a barrier for the host to read the outputs. */
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, family};
    VkCommandPool cpool;
    check(vkCreateCommandPool(dev, &cpci, NULL, &cpool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, cpool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb;
    check(vkAllocateCommandBuffers(dev, &cbai, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                      VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, layout, 0, 1, &set, 0, NULL);
    dispatch(cb, session, NULL);
    VkMemoryBarrier host_read = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_MEMORY_WRITE_BIT,
                                 VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host_read, 0,
                         NULL, 0, NULL);
    check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    check(vkCreateFence(dev, &fci, NULL, &fence), "vkCreateFence");
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    check(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");

    /* Every tensor as it is now, and the outputs against the expected. */
    int wrong = 0;
    for (uint32_t k = 0; k < NSLOTS; k++) {
        const int32_t *v = mapped[k];
        printf("%s: [%d, %d, %d, %d]", slots[k].what, v[0], v[1], v[2], v[3]);
        if (!slots[k].input) {
            int same = memcmp(v, slots[k].data, sizeof(int32_t) * N) == 0;
            wrong |= !same;
            printf(" %s", same ? "(right)" : "(WRONG)");
        }
        printf("\n");
    }
    printf("%s\n", wrong ? "wrong outputs" : "outputs as expected");
    return wrong ? 1 : 0;
}
