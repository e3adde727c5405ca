#!/bin/sh
# test_chat_cli.sh - `wgc chat` on the real model (SmolLM2-135M-Instruct Q4_1, ChatML template with
# a default system message), greedy, a 192-position context, four turns from stdin:
#   1, 2  short: each answered; the cache holds the conversation, so the positions used after turn
#         2 are those after turn 1 plus the tokens of what the template adds for turn 2 (counted by
#         `wgc tokenize` over that exact text) plus the answer's tokens: only the new turn was
#         evaluated
#   3     too long for the context: reported on stderr, no answer
#   4     short: answered (the conversation goes on after the error)
set -u
BUILD=${BUILD:-build}
fail() { echo "FAIL: $*"; exit 1; }
Q=$(sh scripts/fetch-model.sh) || fail "cannot fetch the model (scripts/fetch-model.sh; needs PyPI)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
long=$(python3 -c "print(' '.join(['lighthouse'] * 300))")
printf 'Hi\nWhat is 2+2?\n%s\nThanks\n' "$long" |
  "$BUILD/wgc" chat -m "$Q" --temp 0 -n 8 -c 192 >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "wgc chat exited $?"; }
cat "$tmp/out"; cat "$tmp/err"
[ "$(grep -c '^\[[0-9]* tokens' "$tmp/err")" = 3 ] || fail "expected 3 answered turns"
grep -q "does not fit" "$tmp/err" || fail "the long turn was not reported"
[ -s "$tmp/out" ] || fail "no answer text"
p1=$(sed -n '1s/.* \([0-9]*\) positions used.*/\1/p' "$tmp/err")
n2=$(grep '^\[' "$tmp/err" | sed -n '2s/^\[\([0-9]*\) tokens.*/\1/p')
p2=$(grep '^\[' "$tmp/err" | sed -n '2s/.* \([0-9]*\) positions used.*/\1/p')
printf '<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n' >"$tmp/turn2"
d=$("$BUILD/wgc" tokenize -m "$Q" --json -f "$tmp/turn2" |
    python3 -c "import json,sys; print(len(json.load(sys.stdin)['ids']))") || fail "wgc tokenize"
echo "after turn 1: $p1 positions; turn 2 adds $d prompt tokens and $n2 answer tokens; after turn 2: $p2"
[ -n "$p1" ] && [ -n "$p2" ] && [ "$p2" -eq $((p1 + d + n2)) ] || fail "turn 2 did not evaluate only its own tokens"
echo "ok"
