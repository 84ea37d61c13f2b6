//===- TargetInfo.h - target differences of the SIMT lowering ---*- C++ -*-===//
//
// The one interface through which the shared lowering (KGPUConvertToLLVM)
// reaches target-specific instructions: thread and program ids, warp
// shuffles, barriers, predicated global memory accesses and how kernels are
// marked. NVPTX implements it today (NVPTXTargetInfo.cpp); AMDGPU is a
// second implementation of the same interface, not a fork of the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_TARGETINFO_H
#define KILN_PASSES_TARGETINFO_H

#include "dialects/tt/IR/TTOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <memory>

namespace kiln {

class TargetInfo {
public:
  virtual ~TargetInfo() = default;

  /// The target's name in diagnostics ("nvptx", "amdgpu").
  virtual llvm::StringRef getName() const = 0;
  /// Lanes per warp (NVIDIA: 32; AMD CDNA wavefronts: 64).
  virtual unsigned getWarpSize() const = 0;
  /// Most shared memory one CTA may use, in bytes (sm_90:
  /// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 232448; per
  /// chip: sm_80 166912, sm_86/sm_89 101376).
  virtual int64_t getMaxSharedBytes() const = 0;
  /// Most 32-bit registers one thread may hold in a CTA of `threads`
  /// threads: NVIDIA sm_80/sm_90: 255 per thread and 65536 per CTA (CUDA
  /// C Programming Guide, compute capability table); AMD CDNA2/3: 512
  /// (256 VGPRs + 256 AGPRs per lane).
  virtual int64_t getMaxRegistersPerThread(int64_t threads) const = 0;
  /// Address space of shared memory (NVPTX: 3).
  virtual unsigned getSharedAddressSpace() const = 0;

  /// Thread index within the CTA along x, as i32.
  virtual mlir::Value getThreadId(mlir::OpBuilder &b, mlir::Location loc) = 0;
  /// Program (CTA) id / count along `axis` (0, 1, 2), as i32.
  virtual mlir::Value getProgramId(mlir::OpBuilder &b, mlir::Location loc,
                                   unsigned axis) = 0;
  virtual mlir::Value getNumPrograms(mlir::OpBuilder &b, mlir::Location loc,
                                     unsigned axis) = 0;

  /// Value of the 32-bit `value` held by lane (laneId ^ laneMask).
  virtual mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value value, unsigned laneMask) = 0;
  /// Value of the 32-bit `value` held by lane (laneId - delta) (`up`) or
  /// (laneId + delta) (down). A lane whose source is outside the warp gets
  /// an unspecified value (NVPTX: its own); callers select it away.
  virtual mlir::Value shuffleUp(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value value, unsigned delta) = 0;
  virtual mlir::Value shuffleDown(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value value, unsigned delta) = 0;
  /// Value of the 32-bit `value` held by lane `srcLane` (i32, 0 .. warp
  /// size - 1).
  virtual mlir::Value shuffleIdx(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value value, mlir::Value srcLane) = 0;
  /// CTA-wide barrier that also orders shared memory accesses.
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) = 0;

  /// Loads `words.size()` consecutive words of `wordBits` bits (16, 32, 64;
  /// `elemBits` 8 loads one byte into a 16-bit word) from `ptr` when `pred`
  /// is true; otherwise the words are `other` (may be empty: undefined).
  virtual llvm::SmallVector<mlir::Value>
  predicatedLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                 mlir::Value pred, llvm::ArrayRef<mlir::Value> other,
                 unsigned numWords, unsigned wordBits, unsigned elemBits,
                 tt::CacheModifier cache, tt::EvictionPolicy evict,
                 bool isVolatile) = 0;
  /// Stores `words` to `ptr` when `pred` is true.
  virtual void predicatedStore(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value ptr, mlir::Value pred,
                               llvm::ArrayRef<mlir::Value> words,
                               unsigned wordBits, unsigned elemBits,
                               tt::CacheModifier cache,
                               tt::EvictionPolicy evict) = 0;

  /// Whether atomicRMW/atomicCAS take the element's predicate themselves
  /// (NVPTX: a predicated instruction). When false, the lowering branches
  /// around the atomic and calls them with a null `pred`.
  virtual bool atomicsTakePredicate() const { return true; }

  /// Atomic read-modify-write of one element at `ptr` when `pred` is true;
  /// returns the previous value (undefined where `pred` is false). `value`
  /// and the result have `elemType`. Fails (null) for an operation/type
  /// pair the target has no instruction for.
  virtual mlir::Value atomicRMW(mlir::OpBuilder &b, mlir::Location loc,
                                tt::RMWOp op, mlir::Value ptr,
                                mlir::Value value, mlir::Value pred,
                                tt::MemSemantic sem, tt::MemSyncScope scope) = 0;
  /// Atomic compare-and-swap of one element; returns the previous value.
  virtual mlir::Value atomicCAS(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value ptr, mlir::Value cmp,
                                mlir::Value value, mlir::Value pred,
                                tt::MemSemantic sem, tt::MemSyncScope scope) = 0;

  /// f32 division as Triton lowers `arith.divf` on f32 (approximate, at
  /// most 2 ulp; PTX ISA 9.7.3.8 div.full.f32); tt.precise_divf stays IEEE.
  virtual mlir::Value fastDivF32(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value x, mlir::Value y) = 0;

  /// The high half of the unsigned product of two i32 (or i64) values in
  /// one instruction, or null (creating nothing) where the generic
  /// widen-multiply-shift is left to the backend. NVPTX: mul.hi.u32 /
  /// mul.hi.u64 (PTX ISA 9.7.1.3) through llvm.nvvm.mulhi.ui / .ull, one
  /// intrinsic instead of four instructions of IR for LLVM to match.
  virtual mlir::Value mulhiU(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value x, mlir::Value y) {
    return {};
  }

  /// An f32 math op (`op`, operands `args`, already converted) lowered as
  /// Triton lowers it on this target, with no device-library call; null,
  /// creating nothing, where the target keeps the library call. NVPTX, as
  /// Triton 3.6's PTX shows: math.exp is ex2.approx.f32(x * log2(e)) (PTX
  /// ISA 9.7.3.22 ex2: at most 2 ulp, plus the rounding of the product),
  /// math.exp2 is ex2.approx.f32 (.ftz with the option; libdevice's
  /// __nv_exp2f is exactly that), arith.maxnumf / minnumf are max.f32 /
  /// min.f32.
  virtual mlir::Value mathF32(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Operation *op, mlir::ValueRange args) {
    return {};
  }

  /// An f32 rounded to tf32 (10-bit mantissa, round to nearest, ties away
  /// from zero), as tensor cores see tt.dot operands of inputPrecision tf32.
  virtual mlir::Value roundToTF32(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value x) = 0;

  /// The float `x` (f16, bf16, f32 or f64) rounded toward zero to the
  /// narrower float type `dst` (f16, bf16 or f32), as tt.fp_to_fp with
  /// rounding = rtz converts it; null, creating nothing, where the target
  /// has no such conversion. NVPTX: cvt.rz (PTX ISA, "cvt"; bf16 from f32
  /// only, sm_80 or later).
  virtual mlir::Value truncFloatTowardZero(mlir::OpBuilder &b,
                                           mlir::Location loc, mlir::Value x,
                                           mlir::Type dst) {
    return {};
  }

  /// Two values of `f8Type` (f8E4M3FN or f8E5M2; each an i8 holding the
  /// bits) converted to f16 (exactly) by one instruction: the two f16
  /// values, in order. Empty, creating nothing, where the chip has no such
  /// instruction; the lowering then converts with integer operations
  /// (KGPUConvertToLLVM, upcastF8ToF16).
  virtual llvm::SmallVector<mlir::Value, 2>
  convertF8x2ToF16x2(mlir::OpBuilder &b, mlir::Location loc, mlir::Value first,
                     mlir::Value second, mlir::Type f8Type) {
    return {};
  }

  /// The same conversion on a vector<2xi8> (the low byte first), giving a
  /// vector<2xf16>; null, creating nothing, where the chip has no such
  /// instruction.
  virtual mlir::Value convertF8x2VectorToF16x2(mlir::OpBuilder &b,
                                               mlir::Location loc,
                                               mlir::Value pair,
                                               mlir::Type f8Type) {
    return {};
  }

  /// Two f32 values converted to `f8Type` (f8E4M3FN or f8E5M2) by one
  /// instruction, rounding to nearest even and saturating to the largest
  /// finite value (NaN stays NaN), as Triton 3.6 converts them on NVIDIA:
  /// the two i8 bit patterns, in order. Empty, creating nothing, where the
  /// chip has no such instruction (kgpu-convert-to-llvm then reports the
  /// conversion as unsupported).
  virtual llvm::SmallVector<mlir::Value, 2>
  convertF32x2ToF8x2(mlir::OpBuilder &b, mlir::Location loc, mlir::Value first,
                     mlir::Value second, mlir::Type f8Type) {
    return {};
  }

  /// Marks `fn` as a kernel launched with `numThreads` threads per CTA.
  virtual void markKernel(mlir::LLVM::LLVMFuncOp fn, unsigned numThreads) = 0;
};

/// NVPTX: PTX special registers, shfl.sync, bar.sync, ld/st.global with
/// predicates and cache operators (PTX ISA 9.7.9.8 ld, 9.7.9.9 st), for
/// compute capability `sm` (90 for sm_90/sm_90a; 0: unknown, no
/// chip-specific instructions) and PTX ISA `ptxVersion` x 10 (0: unknown).
/// `ftz`: f32 exp2 flushes denormals (see mathF32).
std::unique_ptr<TargetInfo> createNVPTXTargetInfo(int sm = 0,
                                                  int ptxVersion = 0,
                                                  bool ftz = false);

/// AMDGPU (gfx90a, gfx942): ROCDL workitem/workgroup ids, ds_bpermute,
/// s_barrier, masked vector loads/stores, LLVM atomicrmw/cmpxchg with AMDGPU
/// sync scopes ("workgroup", "agent", system).
std::unique_ptr<TargetInfo> createAMDGPUTargetInfo();

} // namespace kiln

#endif // KILN_PASSES_TARGETINFO_H
