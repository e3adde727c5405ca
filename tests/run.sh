#!/bin/sh
# run.sh - runs every test binary build/tests/*/test_* and every script tests/*/test_*.sh,
# prints one line per test and ends with "N passed, N failed".  Exit status 1 if any failed.
# Env: BUILD (build dir), WGC_TEST_WRAP (e.g. valgrind ...), WGC_TEST_FILTER (substring).
BUILD=${BUILD:-build}
export BUILD
pass=0; fail=0; failed=""
log=$BUILD/test-logs; mkdir -p "$log"
for t in $(ls "$BUILD"/tests/*/test_* tests/*/test_*.sh 2>/dev/null | grep -v '\.d$' | sort); do
  case "$t" in *"${WGC_TEST_FILTER:-}"*) ;; *) continue ;; esac
  name=$(echo "$t" | sed "s|^$BUILD/tests/||; s|^tests/||")
  out="$log/$(echo "$name" | tr '/' '_').log"
  start=$(date +%s)
  case "$t" in
    *.sh) sh "$t" >"$out" 2>&1 ;;
    *) ${WGC_TEST_WRAP:-} "$t" >"$out" 2>&1 ;;
  esac
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    pass=$((pass+1)); echo "ok   $name (${secs}s)"
  else
    fail=$((fail+1)); failed="$failed $name"; echo "FAIL $name (exit $rc, ${secs}s; log $out)"
    tail -n 25 "$out" | sed 's/^/     | /'
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
