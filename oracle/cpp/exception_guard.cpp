// A C++ frame around one Vulkan command, for the `vulkan` worker.
//
// The emulation layer lets C++ exceptions out of vkCreateDataGraphPipelinesARM
// (corpus/findings/emulation-layer-exception-through-vulkan-api.md). Rust
// cannot catch a foreign exception: without this frame every such graph kills
// the worker, and the next graph waits for a new one. Here the exception is
// caught, its message kept, and the worker goes on; the oracle still reports
// the escape as the layer's bug.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>

namespace {

// vkCreateDataGraphPipelinesARM with its handles as the ABI passes them on
// x86_64 and aarch64 Linux: VkDevice is a pointer, the non-dispatchable
// handles are 64-bit integers, VkResult is a 32-bit int.
typedef int32_t (*CreateDataGraphPipelines)(void *device, uint64_t deferred_operation, uint64_t pipeline_cache,
                                            uint32_t create_info_count, const void *create_infos,
                                            const void *allocator, uint64_t *pipelines);

void keep(const char *text, char *what, size_t what_len) {
  if (what == nullptr || what_len == 0) {
    return;
  }
  std::strncpy(what, text, what_len - 1);
  what[what_len - 1] = '\0';
}

} // namespace

// Calls `command`; when it throws, writes 1 to `threw` and the exception's
// message (truncated to `what_len` - 1 bytes) to `what`, and returns
// VK_ERROR_UNKNOWN.
extern "C" int32_t spvgraph_guarded_create_data_graph_pipelines(CreateDataGraphPipelines command, void *device,
                                                                uint64_t deferred_operation,
                                                                uint64_t pipeline_cache,
                                                                uint32_t create_info_count,
                                                                const void *create_infos, const void *allocator,
                                                                uint64_t *pipelines, int32_t *threw, char *what,
                                                                size_t what_len) {
  const int32_t vk_error_unknown = -13;
  *threw = 0;
  try {
    return command(device, deferred_operation, pipeline_cache, create_info_count, create_infos, allocator,
                   pipelines);
  } catch (const std::exception &e) {
    *threw = 1;
    keep(e.what(), what, what_len);
  } catch (...) {
    *threw = 1;
    keep("an exception that is not a std::exception", what, what_len);
  }
  return vk_error_unknown;
}
