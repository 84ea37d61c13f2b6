func.func @f() -> tensor<4xi32> {
  %0 = arith.constant dense_resource<blob1> : tensor<4xi32>
  return %0 : tensor<4xi32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000030000000400000F"
    }
  }
#-}
