//===- kiln.cpp - the kiln command-line compiler --------------------------===//
//
// `kiln compile FILE --target sm_90 --num-warps N --num-stages S [-o DIR]`
// turns a TTIR kernel (or an LLVM + NVVM dialect module) into a kernel
// artifact directory; `kiln toolchain` prints the CUDA tools a compile would
// use and their identity (ptxas version, libdevice SHA-256).
//
//===----------------------------------------------------------------------===//

#include "tools/kiln/CompileCommand.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  CLI::App app{"kiln: GPU kernel compiler (TTIR -> PTX -> cubin)", "kiln"};
  app.require_subcommand(1);

  kiln::tool::CompileOptions compile;
  CLI::App *compileCmd = app.add_subcommand(
      "compile", "compile a TTIR or LLVM-dialect kernel to a cubin artifact");
  compileCmd->add_option("FILE", compile.inputFile, "input .ttir / .mlir ('-' for stdin)")
      ->required();
  compileCmd->add_option("--target", compile.arch, "SM architecture (sm_90, sm_90a, ...)")
      ->capture_default_str();
  CLI::Option *numWarps =
      compileCmd->add_option("--num-warps", compile.numWarps, "warps per CTA")
          ->capture_default_str();
  compileCmd->add_option("--num-stages", compile.numStages, "software pipelining stages")
      ->capture_default_str();
  compileCmd->add_option("--ptx-version", compile.ptxVersion,
                         "PTX ISA version times ten (80 = PTX 8.0)")
      ->capture_default_str();
  compileCmd->add_option("-o,--output", compile.outputDir,
                         "artifact directory (default ./kiln-out/<kernel>)");
  compileCmd->add_option("--kernel", compile.kernel,
                         "kernel to compile when the module has several");
  compileCmd->add_option("--ptxas", compile.ptxasPath,
                         "ptxas binary (default: $KILN_PTXAS, PATH, $CUDA_HOME/bin)");
  compileCmd->add_option("--libdevice", compile.libdevicePath,
                         "libdevice.10.bc (default: $KILN_LIBDEVICE, CUDA root)");
  compileCmd->add_flag("--ftz", compile.ftz,
                       "flush f32 denormals to zero in libdevice math");
  bool noFpFusion = false;
  compileCmd->add_flag("--no-fp-fusion", noFpFusion,
                       "keep multiplies and adds separately rounded (no FMA)");
  compileCmd->add_flag("--timings", compile.timings,
                       "print per-stage and per-pass times");
  compileCmd->add_flag("--stage-dump", compile.stageDump,
                       "write the IR after every pipeline pass to DIR/stages/");

  std::string ptxasPath, libdevicePath;
  CLI::App *toolchainCmd = app.add_subcommand(
      "toolchain", "print the ptxas and libdevice a compile uses, with their identity");
  toolchainCmd->add_option("--ptxas", ptxasPath, "ptxas binary");
  toolchainCmd->add_option("--libdevice", libdevicePath, "libdevice.10.bc");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int status = app.exit(e);
    return status == 0 ? 0 : 2;
  }
  if (compileCmd->parsed()) {
    compile.fpFusion = !noFpFusion;
    compile.numWarpsGiven = numWarps->count() > 0;
    return kiln::tool::runCompile(compile);
  }
  if (toolchainCmd->parsed())
    return kiln::tool::runToolchain(ptxasPath, libdevicePath);
  return 2;
}
