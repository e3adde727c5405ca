#!/bin/sh
# test_deps.sh - scripts/deps.sh waits while another apt or dpkg holds the package lock instead
# of failing at once, and fails with apt-get's message on any other error.  apt-get, dpkg-query
# and id are fakes on PATH (nothing is installed): dpkg-query says one package is missing, id
# says root, apt-get answers "Could not get lock" twice before it succeeds.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
mkdir "$t/bin"
cat >"$t/bin/dpkg-query" <<'SH'
#!/bin/sh
# every package installed but pkg-config
for a; do last=$a; done
[ "$last" = pkg-config ] && exit 1
printf 'install ok installed'
SH
printf '#!/bin/sh\necho 0\n' >"$t/bin/id"
cat >"$t/bin/apt-get" <<'SH'
#!/bin/sh
n=$(cat "$FAKE_DIR/n" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$FAKE_DIR/n"
echo "apt-get $*" >>"$FAKE_DIR/calls"
if [ "$n" -le "${FAKE_LOCKED:-0}" ]; then
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2; exit 100
fi
[ -n "${FAKE_BROKEN:-}" ] && { echo "E: Unable to locate package pkg-config" >&2; exit 100; }
exit 0
SH
chmod +x "$t/bin/"*
export FAKE_DIR=$t WGC_APT_RETRY_S=1

# the lock is held for two attempts: deps.sh says it waits, then installs
PATH="$t/bin:$PATH" FAKE_LOCKED=2 sh "$ROOT/scripts/deps.sh" demo >"$t/out" 2>&1; rc=$?
[ $rc -eq 0 ] || no "held lock: exit $rc: $(cat "$t/out")"
grep -q 'waiting' "$t/out" || no "held lock: no waiting message: $(cat "$t/out")"
[ "$(grep -c 'waiting' "$t/out")" -eq 1 ] || no "the waiting message is printed more than once"
grep -q 'apt-get .* install -y -q pkg-config' "$t/calls" || no "pkg-config not installed: $(cat "$t/calls")"
[ "$(wc -l <"$t/calls")" -eq 4 ] || no "want 2 refused + update + install: $(cat "$t/calls")"
grep -q 'DPkg::Lock::Timeout' "$t/calls" || no "no DPkg::Lock::Timeout"

# another error fails at once, with apt-get's message
rm -f "$t/n" "$t/calls"
PATH="$t/bin:$PATH" FAKE_BROKEN=1 sh "$ROOT/scripts/deps.sh" demo >"$t/out" 2>&1; rc=$?
[ $rc -eq 1 ] || no "broken apt: exit $rc"
grep -q 'Unable to locate package' "$t/out" || no "broken apt: message: $(cat "$t/out")"
[ "$(wc -l <"$t/calls")" -eq 1 ] || no "broken apt retried: $(cat "$t/calls")"

# a lock held for longer than WGC_APT_WAIT_S: gives up with the lock's message
rm -f "$t/n" "$t/calls"
PATH="$t/bin:$PATH" FAKE_LOCKED=100 WGC_APT_WAIT_S=2 sh "$ROOT/scripts/deps.sh" demo >"$t/out" 2>&1; rc=$?
[ $rc -eq 1 ] || no "lock held forever: exit $rc"
grep -q 'Could not get lock' "$t/out" || no "lock held forever: message: $(cat "$t/out")"
[ $fail -eq 0 ] && echo "ok: deps.sh waits for the package lock ($(grep -c . "$t/calls") attempts in the last case)"
exit $fail
