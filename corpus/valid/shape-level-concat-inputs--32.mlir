// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xi8>, %arg1: tensor<1xi8>, %arg2: tensor<1xi8>, %arg3: tensor<1xi8>, %arg4: tensor<1xi8>) -> (tensor<3xi8>, tensor<1xi8>) {
  %0 = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.const"() <{values = dense<13> : tensor<1xi8>}> : () -> tensor<1xi8>
  %5 = "tosa.const"() <{values = dense<-7> : tensor<1xi8>}> : () -> tensor<1xi8>
  %6 = "tosa.const"() <{values = dense<-5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %7 = "tosa.const"() <{values = dense<4> : tensor<1xi8>}> : () -> tensor<1xi8>
  %8 = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %9 = "tosa.const"() <{values = dense<16> : tensor<1xi8>}> : () -> tensor<1xi8>
  %10 = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %11 = "tosa.const"() <{values = dense<7> : tensor<1xi8>}> : () -> tensor<1xi8>
  %12 = "tosa.const"() <{values = dense<-4> : tensor<1xi8>}> : () -> tensor<1xi8>
  %13 = "tosa.const"() <{values = dense<9> : tensor<1xi8>}> : () -> tensor<1xi8>
  %14 = "tosa.concat"(%arg0, %arg0, %arg0, %arg0, %arg0, %0, %arg0, %0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg1, %arg2, %arg0, %arg2, %arg4, %1, %2, %arg0, %2, %arg0, %arg4, %arg1, %1, %arg0, %1, %3, %3, %4, %4, %arg0, %5, %arg0, %5, %6, %6, %arg0, %7, %7, %5, %8, %9, %8, %arg0, %9, %9, %9, %10, %10, %11, %11, %arg0, %12, %12, %13) <{axis = 0 : i32}> : (tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<97xi8>
  %15 = "tosa.concat"(%14, %14, %3) <{axis = 0 : i32}> : (tensor<97xi8>, tensor<97xi8>, tensor<1xi8>) -> tensor<195xi8>
  %16 = "tosa.logical_right_shift"(%15, %2) : (tensor<195xi8>, tensor<1xi8>) -> tensor<195xi8>
  return %arg0, %8 : tensor<3xi8>, tensor<1xi8>
}
