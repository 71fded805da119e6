// RUN: mlir-translate --no-implicit-module --serialize-spirv --spirv-save-debug-info %s -o %t.spv
// RUN: %if spirv-tools %{ not spirv-val --target-env vulkan1.3 %t.spv 2>&1 | FileCheck %s %}

// SPV_ARM_graph: a graph definition may contain only OpGraphInputARM,
// OpGraphSetOutputARM, OpExtInst and OpCompositeExtract. With debug info
// enabled the serializer emits an OpLine before every non-OpExtInst
// instruction it writes into a body, graph bodies included, so each
// spirv.CompositeExtract below is preceded by an OpLine inside the graph and
// the module is invalid (spirv-val 2025.5 and SPIRV-Tools main reject it).

// CHECK: OpLine cannot appear in the graph definitions section

spirv.module Logical Vulkan requires #spirv.vce<v1.5, [Shader, TensorsARM, GraphARM, VulkanMemoryModel], [SPV_ARM_tensors, SPV_ARM_graph, SPV_KHR_vulkan_memory_model]> {
  spirv.GlobalVariable @in0 bind(0, 0) : !spirv.ptr<!spirv.arm.tensor<1x4x4xf32>, UniformConstant>
  spirv.GlobalVariable @in1 bind(0, 1) : !spirv.ptr<!spirv.arm.tensor<1x4x4xf32>, UniformConstant>
  spirv.GlobalVariable @out0 bind(0, 2) : !spirv.ptr<!spirv.arm.tensor<1x4x4xf32>, UniformConstant>
  spirv.GlobalVariable @out1 bind(0, 3) : !spirv.ptr<!spirv.arm.tensor<1x4x4xf32>, UniformConstant>
  spirv.ARM.GraphEntryPoint @fft, @in0, @in1, @out0, @out1
  spirv.ARM.Graph @fft(%re: !spirv.arm.tensor<1x4x4xf32>, %im: !spirv.arm.tensor<1x4x4xf32>) -> (!spirv.arm.tensor<1x4x4xf32>, !spirv.arm.tensor<1x4x4xf32>) attributes {entry_point = true} {
    %0 = spirv.Tosa.FFT2D inverse = false, local_bound = false, %re, %im : !spirv.arm.tensor<1x4x4xf32>, !spirv.arm.tensor<1x4x4xf32> -> !spirv.struct<(!spirv.arm.tensor<1x4x4xf32>, !spirv.arm.tensor<1x4x4xf32>)>
    %1 = spirv.CompositeExtract %0[0 : i32] : !spirv.struct<(!spirv.arm.tensor<1x4x4xf32>, !spirv.arm.tensor<1x4x4xf32>)>
    %2 = spirv.CompositeExtract %0[1 : i32] : !spirv.struct<(!spirv.arm.tensor<1x4x4xf32>, !spirv.arm.tensor<1x4x4xf32>)>
    spirv.ARM.GraphOutputs %1, %2 : !spirv.arm.tensor<1x4x4xf32>, !spirv.arm.tensor<1x4x4xf32>
  }
}
