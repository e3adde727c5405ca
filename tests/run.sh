#!/bin/sh
# run.sh - runs every test binary build/tests/*/test_* and every script tests/*/test_*.sh,
# prints one line per finished test ("ok   [i/N] name (secs)") and ends with "N passed, N failed"
# and the total time.  Exit status 1 if any failed.
# A test still running after WGC_TEST_TICK seconds (default 60) gets a progress line every
# WGC_TEST_TICK seconds: its elapsed time and the last line of its log, so a slow suite on a
# loaded machine (lavapipe compiling every kernel once on a cold cache) is never silent for long.
# Env: BUILD (build dir), WGC_TEST_WRAP (e.g. valgrind ...), WGC_TEST_FILTER (substring),
#      WGC_TEST_TICK (seconds between progress lines; 0 turns them off).
BUILD=${BUILD:-build}
export BUILD
tick=${WGC_TEST_TICK:-60}
pass=0; fail=0; failed=""
log=$BUILD/test-logs; mkdir -p "$log"
all=$(ls "$BUILD"/tests/*/test_* tests/*/test_*.sh 2>/dev/null | grep -v '\.d$' | sort |
      while read -r t; do case "$t" in *"${WGC_TEST_FILTER:-}"*) echo "$t" ;; esac; done)
total=$(echo "$all" | grep -c .)
t0=$(date +%s)
i=0
for t in $all; do
  i=$((i+1))
  name=$(echo "$t" | sed "s|^$BUILD/tests/||; s|^tests/||")
  out="$log/$(echo "$name" | tr '/' '_').log"
  start=$(date +%s)
  ticker=
  if [ "$tick" -gt 0 ] 2>/dev/null; then
    ( trap 'kill $s 2>/dev/null; exit 0' TERM
      while :; do
        sleep "$tick" & s=$!
        wait $s
        last=$(tail -n 1 "$out" 2>/dev/null | cut -c1-100)
        echo "     [$i/$total] $name: running for $(( $(date +%s) - start ))s${last:+; last: $last}"
      done ) &
    ticker=$!
  fi
  case "$t" in
    *.sh) sh "$t" >"$out" 2>&1 ;;
    *) ${WGC_TEST_WRAP:-} "$t" >"$out" 2>&1 ;;
  esac
  rc=$?
  [ -n "$ticker" ] && { kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null; }
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    pass=$((pass+1)); echo "ok   [$i/$total] $name (${secs}s)"
  else
    fail=$((fail+1)); failed="$failed $name"; echo "FAIL [$i/$total] $name (exit $rc, ${secs}s; log $out)"
    tail -n 25 "$out" | sed 's/^/     | /'
  fi
done
echo "$pass passed, $fail failed ($(( $(date +%s) - t0 ))s)"
[ $fail -eq 0 ]
