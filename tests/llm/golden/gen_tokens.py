#!/usr/bin/env python3
"""gen_tokens.py - regenerates the tokenizer goldens (tests/llm/golden/tokens-*.json) with
llama.cpp's llama-tokenize, the reference wgc's tokenizer must equal id for id.

llama.cpp: the one vendored in the PyPI sdist llama-cpp-python 0.3.36 (vendor/llama.cpp, commit
0c1e57098bba), built on the CPU; LLAMA_CPP_BUILD names its build directory (bin/llama-tokenize).
Vocabularies: the real SmolLM2-135M-Instruct Q4_1 (scripts/fetch-model.sh; pre-tokenizer smollm)
and the vocabulary-only files tests/llm/golden/make_vocabs.py derives from it (gpt-2, llama-bpe,
qwen2, SentencePiece).  Each text is run through `llama-tokenize -f FILE --no-escape --ids`,
with special-token parsing on and off (--no-parse-special), with BOS as the file says and (for
the SentencePiece vocabulary, the one that adds BOS) with --no-bos.  Texts are stored as hex, byte for byte.

Usage (from the repository root):
  LLAMA_CPP_BUILD=/path/to/llama.cpp/build PYTHONPATH=$(sh tests/llm/install_gguf.sh) \\
      python3 tests/llm/golden/gen_tokens.py
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LLAMA_VERSION = "llama.cpp 0c1e57098bba (PyPI sdist llama-cpp-python 0.3.36, vendor/llama.cpp)"


def texts():
    t = [
        ("empty", ""),
        ("space", " "),
        ("newline", "\n"),
        ("prose", "The quick brown fox jumps over the lazy dog. It's a test, isn't it? We'll see; "
                  "they've done it, I'm sure you'd agree."),
        ("contractions-upper", "IT'S DON'T WE'LL THEY'VE I'M YOU'D SHE'S 'Re 'vE"),
        ("apostrophes", "'s 't 're 'tis rock'n'roll \u2019s ''quoted''"),
        ("code", "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n\n"
                 "class A:\n\tdef __init__(self):\n\t\tself.x = {'a': [1, 2, 3]}  # comment\n"
                 "int main(void) { printf(\"%d\\n\", x->y); return 0; }\n"),
        ("numbers", "12345 3.14159 1,000,000 0x1F 2024-11-28 42nd 007 1e-9 -17 +3"),
        ("numerals", "Arabic-Indic \u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669, "
                     "full-width \uff11\uff12\uff13\uff14\uff15, Devanagari \u0967\u0968\u0969, "
                     "x\u00b2 y\u00b3 \u216b \u00bd \u2460\u2461 \U0001D7D8"),
        ("whitespace", "a  b   c    d\t\te  \n\n  f   "),
        ("leading-trailing", "   x and y   "),
        ("spaces-only", "        "),
        ("crlf", "line one\r\nline two\r\n\r\nline four\r\n"),
        ("tabs", "\tindented\n\t\tdouble\t tab-space \t"),
        ("newlines", "a\n\n\nb\n \n c\r\rd"),
        ("accents", "caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00c5ngstr\u00f6m fa\u00e7ade Z\u00fcrich \u00c9COLE"),
        ("combining", "e\u0301 a\u0308 n\u0303o\u0303"),
        ("cjk", "\u4e2d\u6587\u6d4b\u8bd5\u3002\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3001"
                "\ud55c\uad6d\uc5b4 \ud14d\uc2a4\ud2b8"),
        ("emoji", "\U0001F389\U0001F44D\U0001F3FD family \U0001F468\u200D\U0001F469\u200D\U0001F467 "
                  "flag \U0001F1EB\U0001F1F7 \u2764\ufe0f"),
        ("scripts", "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440! \u0393\u03b5\u03b9\u03ac "
                    "\u03c3\u03bf\u03c5! \u0645\u0631\u062d\u0628\u0627 \u05e9\u05dc\u05d5\u05dd \u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35"),
        ("symbols", "$100 + \u20ac50 = \u00a5? @user #tag ~/path/to/file.txt (a) [b] {c} <d> a->b => "
                    "!!! ... ??? --- *** ___"),
        ("unicode-space", "a\u00a0b\u2003c\u3000d\u2028e\x0bf\x0cg \u200bh"),
        ("chat", "<|im_start|>system\nYou are a helpful AI assistant.<|im_end|>\n<|im_start|>user\n"
                 "What is 2+2?<|im_end|>\n<|im_start|>assistant\n"),
        ("specials-adjacent", "<|im_end|><|im_end|>x<|endoftext|> <|im_start|><|im_start"),
        ("specials-partial", "<|im_start <|im_end| |im_end|> <|endoftext"),
        ("user-defined", "call <reponame> and <tool> now<tool> <filename>x.py<filename> <jupyter_code>"),
        ("invalid-utf8", b"abc\xff\xfe def \xc3 x \xe2\x82 \xf0\x9f\x98"),
        ("overlong-surrogate", b"a\xc0\x80b \xed\xa0\x80 c"),
    ]
    parts = [s for _, s in t if isinstance(s, str) and s]
    longt, i = [], 0
    while sum(len(x) for x in longt) < 10000:
        longt.append(parts[(i * 7) % len(parts)])
        i += 1
    t.append(("long", " ".join(longt)))
    return [(n, s.encode("utf-8") if isinstance(s, str) else s) for n, s in t]


def run(tool, vocab, data, parse_special, no_bos):
    with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as f:
        f.write(data)
        name = f.name
    try:
        cmd = [tool, "-m", vocab, "-f", name, "--no-escape", "--ids", "--log-disable"]
        if not parse_special:
            cmd.append("--no-parse-special")
        if no_bos:
            cmd.append("--no-bos")
        out = subprocess.run(cmd, capture_output=True, check=True).stdout.decode()
    finally:
        os.unlink(name)
    line = [l for l in out.splitlines() if l.startswith("[")][-1]
    return json.loads(line)


def main():
    build = os.environ.get("LLAMA_CPP_BUILD")
    if not build:
        sys.exit("gen_tokens.py: set LLAMA_CPP_BUILD to llama.cpp's build directory")
    tool = os.path.join(build, "bin", "llama-tokenize")
    model = subprocess.run(["sh", "scripts/fetch-model.sh"], capture_output=True, check=True).stdout.decode().strip()
    vdir = os.path.join(os.environ.get("BUILD", "build"), "tok")
    subprocess.run([sys.executable, os.path.join(HERE, "make_vocabs.py"), model, vdir], check=True)
    vocabs = [("smollm", model)] + [(v, os.path.join(vdir, v + ".gguf")) for v in ("gpt2", "llama3", "qwen2", "spm")]
    for name, path in vocabs:
        jobs = []
        for tname, data in texts():
            for parse_special in (True, False):
                # BOS on and off differ only where the file adds one: the SentencePiece vocabulary
                for no_bos in ((False, True) if name == "spm" else (False,)):
                    if (not parse_special or no_bos) and tname == "long":
                        continue
                    jobs.append((tname, data, parse_special, no_bos))
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            ids = list(pool.map(lambda j: run(tool, path, j[1], j[2], j[3]), jobs))
        cases = [{"name": tname, "text_hex": data.hex(), "parse_special": ps, "add_special": not nb, "ids": i}
                 for (tname, data, ps, nb), i in zip(jobs, ids)]
        doc = {"generator": "tests/llm/golden/gen_tokens.py", "reference": LLAMA_VERSION, "vocab": name,
               "cases": cases}
        out = os.path.join(HERE, "tokens-%s.json" % name)
        with open(out, "w") as f:
            json.dump(doc, f, indent=0, separators=(",", ":"))
            f.write("\n")
        print("%s: %d cases" % (out, len(cases)))


if __name__ == "__main__":
    main()
