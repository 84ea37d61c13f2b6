// exit_shim: `_Exit` as `exit`, for the BOLT training runs of
// tools/kiln/bolt_kiln.sh only (LD_PRELOAD). kiln ends a compile with
// `_Exit`, which skips the DT_FINI hook where a BOLT-instrumented binary
// writes its edge counts; `exit` runs it. Never linked into kiln.
#include <stdlib.h>

void _Exit(int status) { exit(status); }
