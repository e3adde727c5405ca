#!/bin/sh
# test_no_driver.sh - without a Vulkan loader (WGC_VULKAN_LIB naming a missing file) and without a
# driver (the loader pointed at no ICD), every command that needs the GPU fails with one line on
# stderr that names the packages to install, printed once, and a non-zero exit; nothing else
# on stderr.  (tests/gpu/test_info.sh checks `wgc info`'s own text and JSON in detail.)
W=$(cd "$(dirname "${BUILD:-build}/wgc")" && pwd)/wgc
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
export WGC_NO_PROGRESS=1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
printf '@group(0) @binding(0) var<storage, read_write> v: array<f32>;\n@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3u) { v[g.x] = 2.0 * v[g.x]; }\n' >k.wgsl
n=0
for how in loader driver; do
  for c in "info" "demo" "run k.wgsl --dispatch 1 --bind 0=rand:f32:4:1" \
           "profile k.wgsl --dispatch 1 --bind 0=rand:f32:4:1 --repeat 1" "bench runtime --size small" \
           "bench ops --size small"; do
    n=$((n + 1))
    if [ $how = loader ]; then
      WGC_VULKAN_LIB=/nonexistent/libvulkan.so.1 $W $c >out.txt 2>err.txt; rc=$?
    else
      VK_ICD_FILENAMES=/nonexistent.json VK_DRIVER_FILES=/nonexistent.json $W $c >out.txt 2>err.txt; rc=$?
    fi
    [ $rc -ne 0 ] || bad "no $how: wgc $c: exit 0"
    [ "$(grep -c . err.txt)" -eq 1 ] || bad "no $how: wgc $c: want one line on stderr, got: $(cat err.txt)"
    [ "$(grep -o 'apt-get install' err.txt | wc -l)" -eq 1 ] || bad "no $how: wgc $c: the packages are not named once: $(cat err.txt)"
  done
done
[ $fail -eq 0 ] && echo "ok: $n commands without a loader or a driver: one line each, the packages named once"
exit $fail
