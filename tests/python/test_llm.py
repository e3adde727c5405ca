"""wgc's language-model API from Python (python/wgc/llm.py) against the wgc CLI on the real model,
SmolLM2-135M-Instruct Q4_1 (scripts/fetch-model.sh fetches and caches it; the test fails, naming
why, when it cannot): token ids equal `wgc tokenize --json`'s over varied texts and detokenize
round-trips them; greedy generation, with and without a stop string, equals `wgc generate --json`
token for token with the same text and stop reason; a seeded sampled run equals the CLI's with the
same seed.  Every bad argument raises TypeError / ValueError before the library is called (checked
with the library's functions replaced by mocks that fail when called).  Run by test_python.sh."""
import ctypes
import json
import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock

import wgc
from wgc import _lib

ROOT = os.environ.get("WGC_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
WGC = os.environ.get("WGC_BIN", os.path.join(ROOT, "build", "wgc"))
TEXTS = ["Hello, world!", "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n",
         "def f(x):\n    return x * 12345\n", "  spaces\t\ttabs\r\nCRLF  ", "caf\u00e9 na\u00efve \u0663\u0664 \u4f60\u597d",
         "emoji \U0001f600 and 3.14159", ""]
_model = None


def model_path():
    global _model
    if _model is None:
        r = subprocess.run(["sh", os.path.join(ROOT, "scripts", "fetch-model.sh")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=ROOT)
        if r.returncode != 0:
            raise AssertionError("cannot fetch the model (scripts/fetch-model.sh): " + r.stderr.decode())
        _model = r.stdout.decode().strip()
    return _model


def cli(*args):
    return json.loads(subprocess.check_output([WGC] + list(args)).decode())


class StructLayout(unittest.TestCase):
    def test_llm_sizes_match_the_header(self):
        cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("cc") or shutil.which("gcc")
        self.assertIsNotNone(cc, "a C compiler is needed to check the ctypes layouts")
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "sizes.c")
            with open(src, "w") as f:
                f.write('#include <stdio.h>\n#include <stddef.h>\n#include "wgc/llm.h"\nint main(void) {\n')
                for name, (cls, ctype) in _lib.LLM_STRUCTS.items():
                    f.write('    printf("%s %%zu\\n", sizeof(%s));\n' % (name, ctype))
                    for field, _ in cls._fields_:
                        f.write('    printf("%s.%s %%zu\\n", offsetof(%s, %s));\n' % (name, field, ctype, field))
                f.write("    return 0;\n}\n")
            exe = os.path.join(d, "sizes")
            subprocess.check_call([cc, "-std=c11", "-I", os.path.join(ROOT, "include"), src, "-o", exe])
            got = dict(line.split() for line in subprocess.check_output([exe]).decode().splitlines())
        for name, (cls, ctype) in _lib.LLM_STRUCTS.items():
            self.assertEqual(int(got[name]), ctypes.sizeof(cls), "%s (%s)" % (name, ctype))
            for field, _ in cls._fields_:
                self.assertEqual(int(got[name + "." + field]), getattr(cls, field).offset, "%s.%s" % (ctype, field))

    def test_dtype_codes(self):
        self.assertEqual(set(_lib.DTYPE) >= {"f32", "f16"}, True)


class TokenizerVsCli(unittest.TestCase):
    def test_ids_equal_wgc_tokenize(self):
        path = model_path()
        with wgc.Tokenizer(path) as tok:
            self.assertEqual(tok.vocab_size, 49152)
            for text in TEXTS:
                for special in (True, False):
                    args = ["tokenize", "-m", path, text, "--json"] + ([] if special else ["--no-parse-special"])
                    want = cli(*args)["ids"]
                    self.assertEqual(tok.tokenize(text, special=special), want, "%r special=%s" % (text, special))
                    self.assertEqual(wgc.tokenize(path, text, special=special), want)
                ids = tok.tokenize(text, add_special=False)
                self.assertEqual(tok.detokenize(ids, special=True), text, repr(text))
            self.assertEqual(tok.tokenize(b"bytes too"), tok.tokenize("bytes too"))
        with self.assertRaises(ValueError):
            tok.tokenize("closed")


class GenerateVsCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = wgc.Model(model_path(), n_ctx=128)

    @classmethod
    def tearDownClass(cls):
        cls.m.close()

    # the CLI's JSON keys (camelCase, as all of wgc's JSON) and the dict's (Python's snake_case)
    KEYS = {"prompt_tokens": "promptTokens", "tokens": "tokens", "text": "text", "stop": "stop"}

    def check(self, got, want):
        for k, w in self.KEYS.items():
            self.assertEqual(got[k], want[w], k)
        self.assertEqual(got.get("stop_string"), want.get("stopString"))
        self.assertGreater(got["prefill_tok_s"], 0)

    def test_greedy_equals_wgc_generate(self):
        prompt = "The capital of France is"
        want = cli("generate", "-m", model_path(), "-p", prompt, "-n", "8", "--temp", "0", "-c", "128", "--json")
        got = self.m.generate(prompt, n=8, temp=0)
        self.check(got, want)
        self.assertEqual(got["stop"], "length")
        # a stop string cut from the middle of that text, given as ids this time
        t = want["text"]
        s = t[len(t) // 2 - 2:len(t) // 2 + 2]
        want = cli("generate", "-m", model_path(), "-p", prompt, "-n", "8", "--temp", "0", "-c", "128", "--json",
                   "--stop", s)
        self.assertEqual(want["stop"], "stop_string")
        got = self.m.generate(want["promptTokens"], n=8, temp=0, stop=[s, "never"])
        self.check(got, want)
        self.assertEqual(got["text"], t[:t.index(s)])
        self.assertEqual(self.m.info["n_ctx"], 128)
        self.assertEqual(self.m.info["cache_type"], "f32")

    def test_seeded_sampling_equals_wgc_generate(self):
        prompt = "Once upon a time"
        want = cli("generate", "-m", model_path(), "-p", prompt, "-n", "4", "--temp", "1", "--top-k", "20",
                   "--seed", "7", "-c", "128", "--json")
        self.check(self.m.generate(prompt, n=4, temp=1, top_k=20, seed=7), want)

    def test_bad_arguments_before_the_library(self):
        calls = {n: mock.Mock(side_effect=AssertionError("called " + n))
                 for n in ("wl_model_open", "wl_engine_eval", "wl_engine_truncate", "wl_sampler_create", "wl_tokenize",
                           "wl_stop_create")}
        bad = [(TypeError, dict(n="4")), (ValueError, dict(n=-1)), (TypeError, dict(temp="hot")),
               (ValueError, dict(temp=float("nan"))), (ValueError, dict(top_p=-1)), (ValueError, dict(min_p=2)),
               (TypeError, dict(top_k=1.5)), (ValueError, dict(seed=-1)), (ValueError, dict(stop=[""])),
               (TypeError, dict(stop=[3])), (TypeError, dict(stop=5)), (TypeError, dict(special=1)),
               (TypeError, dict(prompt=None)), (ValueError, dict(prompt=[])), (ValueError, dict(prompt=[-1])),
               (TypeError, dict(prompt=[1.5]))]
        with mock.patch.multiple(_lib.lib, **calls):
            for exc, kw in bad:
                args = dict(prompt="hi")
                args.update(kw)
                with self.assertRaises(exc, msg=repr(kw)):
                    self.m.generate(**args)
                with self.assertRaises(exc, msg=repr(kw)):   # the path is not opened first
                    wgc.generate("/nonexistent.gguf", **args)
            with self.assertRaises(TypeError):
                wgc.Tokenizer(3)
            with self.assertRaises(ValueError):
                wgc.Model(model_path(), cache_type="q8")
            with self.assertRaises(ValueError):
                wgc.Model(model_path(), n_ctx=-1)
            with self.assertRaises(TypeError):
                self.m.tokenize(None)
            with self.assertRaises(TypeError):
                self.m.detokenize("abc")
        with self.assertRaises(ValueError):   # the library's own check: longer than the context
            self.m.generate(list(range(1, 200)), n=1, temp=0)
        with self.assertRaises(ValueError):
            self.m.detokenize([49152])
        with self.assertRaises(wgc.WgcError):
            wgc.Tokenizer("/nonexistent.gguf")


if __name__ == "__main__":
    unittest.main()
