// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<6xi1>, %arg1: tensor<14xi32>) -> (tensor<14xi32>, tensor<8xi1>) {
  %0 = "tosa.const"() <{values = dense<[3.973628044128418, -3.67537784576416, -8.08110237121582, -1.439651608467102, -2.258584499359131, -1.0585893392562866, 4.8195390701293945, -8.422203063964844]> : tensor<8xf32>}> : () -> tensor<8xf32>
  %1 = "tosa.sub"(%0, %0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "tosa.greater_equal"(%1, %0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %3 = "tosa.concat"(%2, %arg0) <{axis = 0 : i32}> : (tensor<8xi1>, tensor<6xi1>) -> tensor<14xi1>
  %4 = "tosa.cast"(%3) : (tensor<14xi1>) -> tensor<14xi32>
  %5 = "tosa.arithmetic_right_shift"(%4, %arg1) <{round = false}> : (tensor<14xi32>, tensor<14xi32>) -> tensor<14xi32>
  %6 = "tosa.const"() <{values = dense<[69, 66871241, 12497, 113785107, 850, 77414422, 2104496, 3820937, 1878850179, 267696137, 4939, 6556050, 16583988, 27]> : tensor<14xi32>}> : () -> tensor<14xi32>
  %7 = "tosa.const"() <{values = dense<[2, 4, 2, 2, 4, 2, 4, 2, 2, 2, 4, 3, 2, 2]> : tensor<14xi8>}> : () -> tensor<14xi8>
  %8 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %9 = "tosa.rescale"(%5, %6, %7, %8, %8) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<14xi32>, tensor<14xi32>, tensor<14xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<14xi32>
  return %9, %2 : tensor<14xi32>, tensor<8xi1>
}
