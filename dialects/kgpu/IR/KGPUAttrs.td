//===- KGPUAttrs.td - layouts of the kgpu dialect ----------*- tablegen -*-===//

#ifndef KILN_DIALECTS_KGPU_IR_KGPUATTRS_TD
#define KILN_DIALECTS_KGPU_IR_KGPUATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "dialects/kgpu/IR/KGPUDialect.td"

// A list of unsigned integers (counts, dimensions, shapes) whose parser
// rejects a negative entry by name instead of wrapping it around.
def KGPU_UnsignedArrayParameter : ArrayRefParameter<"unsigned"> {
  let parser = "::kiln::kgpu::parseUnsignedList($_parser)";
}

class KGPU_Attr<string name, string mnemonic_, list<Trait> traits = []>
    : AttrDef<KGPU_Dialect, name, traits> {
  let mnemonic = mnemonic_;
}

def KGPU_BlockedEncodingAttr : KGPU_Attr<"BlockedEncoding", "blocked"> {
  let summary = "tensor spread over the CTA in blocks";
  let description = [{
    Along each dimension d a thread holds `sizePerThread[d]` consecutive
    elements, `threadsPerWarp[d]` lanes and `warpsPerCTA[d]` warps tile the
    dimension, and the tile repeats until it covers the shape (a tile larger
    than the shape wraps around, replicating elements). `order` lists the
    dimensions from fastest to slowest varying, both for the elements a
    thread holds and for numbering lanes and warps.

    ```mlir
    #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32],
                   warpsPerCTA = [4], order = [0]}>
    ```
  }];
  let parameters = (ins
    KGPU_UnsignedArrayParameter:$sizePerThread,
    KGPU_UnsignedArrayParameter:$threadsPerWarp,
    KGPU_UnsignedArrayParameter:$warpsPerCTA,
    KGPU_UnsignedArrayParameter:$order);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
    `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
    `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
    `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
}

def KGPU_SliceEncodingAttr : KGPU_Attr<"SliceEncoding", "slice"> {
  let summary = "parent layout with dimension `dim` removed";
  let description = [{
    The layout of a reduction's result along `dim`: each thread holds the
    elements its parent layout gives it, with `dim` dropped (and so
    replicated across the lanes and warps that split `dim`).

    ```mlir
    #kgpu.slice<{dim = 1, parent = #blocked}>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
}

def KGPU_SharedEncodingAttr : KGPU_Attr<"SharedEncoding", "shared"> {
  let summary = "swizzled layout of a tensor in shared memory";
  let description = [{
    Rows along order[0] are stored contiguously; groups of `vec` elements
    are XOR-swizzled by `(row / perPhase) % maxPhase` to avoid bank
    conflicts (maxPhase = 1: no swizzle).
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, KGPU_UnsignedArrayParameter:$order);
  let assemblyFormat = [{
    `<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,`
    `maxPhase` `=` $maxPhase `,` `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def KGPU_MmaEncodingAttr : KGPU_Attr<"MmaEncoding", "mma"> {
  let summary = "accumulator layout of NVIDIA tensor-core instructions";
  let description = [{
    The registers of a matrix-multiply accumulator: version 2 is mma.sync
    (PTX ISA 9.7.14.5, instrShape [16, 8]), version 3 is wgmma on sm_90
    (9.7.15, instrShape [64, N, 16], warps grouped in warpgroups of 4).
    `warpsPerCTA` tiles the CTA's warps over the M and N dimensions.

    Version 2 is a distributed layout (KGPULayouts.h): instrShape [16, W]
    (W a power of two from 8 to 256) is a warp's tile, W / 8 m16n8 tiles
    side by side. Warp w covers the 16 x W tile (w % warpsPerCTA[0],
    w / warpsPerCTA[0]) of a [16 * warpsPerCTA[0], W * warpsPerCTA[1]] CTA
    tile that repeats over the shape; in each m16n8 tile lane l holds rows
    l/4 and l/4 + 8 and columns 2*(l%4) and 2*(l%4) + 1 (the c0..c3
    fragment of PTX ISA 9.7.14.5.8). Register order: M repetitions, N
    repetitions, the warp tile's m16n8 tiles left to right, c0..c3.
    W = 8 deals 8-column tiles to the warps along N in turn (mma.sync's
    layout); W = N / warpsPerCTA[1] gives each warp column one contiguous
    part of N, the columns of one wgmma m64nWk16 per warpgroup (PTX ISA
    9.7.15.5.1: its D fragment is the m16n8 fragment repeated W / 8 times
    along N). Version 3 is recorded but not lowered yet.

    ```mlir
    #kgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]}>
    ```
  }];
  let parameters = (ins "unsigned":$version,
                        KGPU_UnsignedArrayParameter:$warpsPerCTA,
                        KGPU_UnsignedArrayParameter:$instrShape);
  let assemblyFormat = [{
    `<` `{` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]`
    `,` `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def KGPU_DotOperandEncodingAttr : KGPU_Attr<"DotOperandEncoding", "dot_op"> {
  let summary = "layout of an A (opIdx 0) or B (opIdx 1) matrix operand";
  let description = [{
    The registers a tensor-core instruction reads for one operand of a
    multiply whose accumulator has layout `parent`; `kWidth` is the number
    of consecutive K elements a thread holds (e.g. 8 for f16 operands of
    mma.sync m16n8k16 loaded by ldmatrix).

    ```mlir
    #kgpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `{` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,` `kWidth` `=` $kWidth `}` `>`
  }];
  let genVerifyDecl = 1;
}

def KGPU_MfmaEncodingAttr : KGPU_Attr<"MfmaEncoding", "mfma"> {
  let summary = "accumulator layout of AMD CDNA matrix-core instructions";
  let description = [{
    The registers of a 16x16 MFMA accumulator on 64-lane wavefronts
    (v_mfma_f32_16x16x16f16 / _bf16_1k / 16x16x4f32; AMD CDNA3 ISA,
    "Matrix fused multiply add" and the MI300 instruction-set matrix
    layouts): in each 16x16 instruction tile lane l holds column l % 16 and
    rows 4 * (l / 16) + i, i = 0..3, in that register order. Warp
    (wavefront) w covers tile (w % warpsPerCTA[0], w / warpsPerCTA[0]) of a
    [16 * warpsPerCTA[0], 16 * warpsPerCTA[1]] CTA tile that repeats over
    the shape (M repetitions outermost, then N, then the 4 registers). A
    distributed layout (KGPULayouts.h).

    ```mlir
    #kgpu.mfma<{warpsPerCTA = [2, 2], instrShape = [16, 16]}>
    ```
  }];
  let parameters = (ins KGPU_UnsignedArrayParameter:$warpsPerCTA,
                        KGPU_UnsignedArrayParameter:$instrShape);
  let assemblyFormat = [{
    `<` `{` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
    `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

#endif // KILN_DIALECTS_KGPU_IR_KGPUATTRS_TD
