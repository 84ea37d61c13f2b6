#!/bin/sh
# A ptxas that, like CUDA 13.0's, does not know sm_70: --version is the real
# one's ($REAL_PTXAS), --help lists a few architectures, assembling fails.
case "$1" in
  --version) exec "$REAL_PTXAS" --version ;;
  --help)
    echo "--gpu-name <gpu name>                               (-arch)"
    echo "        Allowed values for this option:  'compute_75','sm_75','sm_80',"
    echo "        'sm_90','sm_90a'."
    echo ""
    echo "--opt-level <N>                                     (-O)"
    echo "        'sm_99' is not an architecture"
    exit 0 ;;
esac
echo "ptxas fatal   : Value 'sm_70' is not defined for option 'gpu-name'" >&2
exit 255
