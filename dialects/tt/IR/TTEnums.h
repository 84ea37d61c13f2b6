//===- TTEnums.h - enum attributes of the tt dialect ------------*- C++ -*-===//

#ifndef KILN_DIALECTS_TT_IR_TTENUMS_H
#define KILN_DIALECTS_TT_IR_TTENUMS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "dialects/tt/IR/TTEnums.h.inc"

#endif // KILN_DIALECTS_TT_IR_TTENUMS_H
