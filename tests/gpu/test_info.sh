#!/bin/sh
# wgc info / demo: human and JSON output (validated by python3 -m json.tool), no libvulkan link,
# clear failure (exit 1, what to install) with no loader or no driver, WGC_ADAPTER selection, and
# WGC_* values the runtime cannot use (exit 2, naming the variable).
W=${BUILD:-build}/wgc
fail=0
err() { echo "FAIL: $*"; fail=1; }
out=$($W info) || err "info exit $?"
echo "$out" | grep -q '^adapter 0 (default): ' || err "info lacks the default adapter line"
echo "$out" | grep -q 'maxStorageBufferBindingSize' || err "info lacks limits"
echo "$out" | grep -q 'subgroup size' || err "info lacks subgroup sizes"
$W info --json > /tmp/wgc-info-$$.json || err "info --json exit $?"
python3 -m json.tool /tmp/wgc-info-$$.json >/dev/null || err "info --json is not valid JSON"
python3 -c "
import json,sys
d=json.load(open('/tmp/wgc-info-$$.json'))
a=d['adapters'][0]
for k in ('name','type','vendor','driverName','apiVersion','deviceUuid','subgroupMinSize','features','limits','cooperativeMatrixShapes'):
    assert k in a, k
assert a['limits']['maxComputeInvocationsPerWorkgroup'] > 0
assert sum(1 for x in d['adapters'] if x['default']) == 1
" || err "info --json lacks fields"
rm -f /tmp/wgc-info-$$.json
ldd $W | grep -q libvulkan && err "wgc links libvulkan"
# no loader
out=$(WGC_VULKAN_LIB=/nonexistent/libvulkan.so.1 $W info 2>&1); rc=$?
[ $rc -eq 1 ] || err "no loader: exit $rc"
echo "$out" | grep -q 'apt-get install libvulkan1 mesa-vulkan-drivers' || err "no loader: no install hint: $out"
out=$(WGC_VULKAN_LIB=/nonexistent/libvulkan.so.1 $W info --json 2>/dev/null); rc=$?
[ $rc -eq 1 ] || err "no loader --json: exit $rc"
echo "$out" | python3 -m json.tool >/dev/null || err "no loader --json: not JSON: $out"
# a library that is not a Vulkan loader
out=$(WGC_VULKAN_LIB=libc.so.6 $W info 2>&1); rc=$?
[ $rc -eq 1 ] || err "bogus loader: exit $rc"
# no driver
out=$(VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent $W info 2>&1); rc=$?
[ $rc -eq 1 ] || err "no driver: exit $rc"
echo "$out" | grep -q 'mesa-vulkan-drivers' || err "no driver: no install hint: $out"
out=$(VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent $W demo 2>&1); rc=$?
[ $rc -eq 1 ] || err "demo without driver: exit $rc"
# adapter selection
WGC_ADAPTER=0 $W info | grep -q '^adapter 0 (default)' || err "WGC_ADAPTER=0"
name=$($W info --json | python3 -c "import json,sys; print(json.load(sys.stdin)['adapters'][0]['name'].split()[0])")
WGC_ADAPTER="$name" $W info | grep -q '(default)' || err "WGC_ADAPTER=$name"
out=$(WGC_ADAPTER=no-such-gpu $W info 2>&1); rc=$?
[ $rc -eq 1 ] || err "WGC_ADAPTER=no-such-gpu: exit $rc"
out=$(WGC_ADAPTER=42 $W demo 2>&1); rc=$?
[ $rc -eq 1 ] || err "demo WGC_ADAPTER=42: exit $rc"
# unusable WGC_* values: every command that touches the GPU says which and exits 2
for cmd in info demo; do
  out=$(WGC_COPY=fast $W $cmd 2>&1); rc=$?
  [ $rc -eq 2 ] || err "$cmd WGC_COPY=fast: exit $rc"
  echo "$out" | grep -q "WGC_COPY='fast': want shader or transfer" || err "$cmd WGC_COPY=fast: $out"
done
out=$(WGC_VALIDATION=yes $W info --json 2>&1); rc=$?
[ $rc -eq 2 ] || err "info WGC_VALIDATION=yes: exit $rc"
# demo
# (the validation layer's own exit-time leaks are not ours: no leak check in this one run)
out=$(ASAN_OPTIONS=detect_leaks=0 WGC_VALIDATION=1 $W demo 2>&1) || err "demo exit $?"
$W demo >/dev/null 2>&1 || err "demo without validation exit $?"
echo "$out" | grep -q '^demo: ok$' || err "demo: $out"
echo "$out" | grep -q 'validation' && err "demo: validation messages: $out"
$W info --help | grep -q usage || err "info --help"
$W info --bogus >/dev/null 2>&1; [ $? -eq 2 ] || err "info --bogus exit"
exit $fail
