#!/bin/sh
# test_coop_emu.sh - the tensor-core kernels (matmul_coop.wgsl, flash_coop.wgsl) run on any adapter,
# lavapipe included, with their subgroup matrices emulated in WGSL (tests/tensor/coop_emu.py: the
# matrices as 8 elements per invocation, multiply-accumulate through workgroup memory), against a
# double-precision reference: flash attention causal with Lq != Lk, grouped heads and a large
# scale (the rescaling path); matmul (matmul_coop.wgsl's ops 0 and 1: both bufferings, slices 16
# and 32 deep) with a bias, ragged M/N/K and transposed operands; the ceiling
# kernel of test_coop_peak.c (tests/tensor/coop_peak.wgsl), all four modes, exact.  So CI checks
# what the kernels compute, not only that they compile; test_matmul_coop / test_attention_coop
# run them for real on adapters with cooperative matrices.
W=${BUILD:-build}/wgc
t=$(mktemp -d /tmp/wgc-test-coop-emu-XXXXXX)
trap 'rm -rf "$t"' EXIT
python3 "$(dirname "$0")/coop_emu.py" "$W" "$t"
