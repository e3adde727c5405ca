#!/usr/bin/env python3
"""baseline_generate.py - the transformers + PyTorch eager baseline of `wgc bench generate`, measured
in the same run.

Usage: python3 bench/baseline_generate.py --models KEY:L,E,H,KV,F,V,TIED,ROPE_BASE[;...]
                                          [--prompt P] [--gen G] [--short S] [--runs R]
Each model is transformers' LlamaForCausalLM of that shape (L layers, width E, H heads, KV key/value
heads, FFN width F, vocabulary V, the head tied to the embedding when TIED is 1), built on the GPU
in float16 with random weights and attn_implementation "eager": the same shapes as wgc's rows
(bench/generate.c), not the same file (transformers would dequantize a GGUF to f16 or f32 anyway;
speed does not depend on the values).  The same measurements as bench/generate.c, wall clock with
torch.cuda.synchronize():
  KEY_prefill_tok_s  one forward of a P-token prompt (random ids) with a fresh cache: P / seconds
  KEY_decode_tok_s   an S-token prompt and its greedy token, then G greedy steps with the KV cache
                     (DynamicCache), each an argmax read back as a Python int: G / seconds
  KEY_peak_MiB       torch.cuda.max_memory_allocated while the model ran (weights included), MiB
best of R runs after a warm-up run.  Prints one JSON line: {"torch": version, "device": name,
"transformers": version, and the keys above}, or {"error": reason} with exit status 1 when torch,
CUDA or transformers is missing.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_common import emit, fail, start  # noqa: E402


def parse_models(text):
    out = []
    for item in text.split(";"):
        key, _, dims = item.partition(":")
        v = dims.split(",")
        if not key or len(v) != 8:
            fail("--models: '%s' is not KEY:L,E,H,KV,F,V,TIED,ROPE_BASE" % item)
        L, E, H, KV, F, V, tied = (int(x) for x in v[:7])
        out.append((key, L, E, H, KV, F, V, bool(tied), float(v[7])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", required=True)
    ap.add_argument("--prompt", type=int, default=512)
    ap.add_argument("--gen", type=int, default=128)
    ap.add_argument("--short", type=int, default=8)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    models = parse_models(a.models)
    torch, dev, out, g, _ = start(a.runs, 20)
    try:
        import transformers
        from transformers import LlamaConfig, LlamaForCausalLM
        from transformers.cache_utils import DynamicCache
    except Exception as e:  # ImportError, or a broken install
        fail("transformers not importable: %s" % e)
    out["transformers"] = transformers.__version__
    torch.set_grad_enabled(False)
    for key, L, E, H, KV, F, V, tied, base in models:
        cfg = LlamaConfig(vocab_size=V, hidden_size=E, intermediate_size=F, num_hidden_layers=L,
                          num_attention_heads=H, num_key_value_heads=KV, max_position_embeddings=max(4096, a.prompt + a.gen),
                          rms_norm_eps=1e-5, rope_theta=base, tie_word_embeddings=tied, attn_implementation="eager")
        torch.cuda.empty_cache()
        torch.manual_seed(20)
        prev = torch.get_default_dtype()
        torch.set_default_dtype(torch.float16)
        with torch.device(dev):
            model = LlamaForCausalLM(cfg)
        torch.set_default_dtype(prev)
        model.eval()
        out["attn_implementation"] = model.config._attn_implementation
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        ids = torch.randint(0, V, (1, a.prompt), device=dev, generator=g)

        def prefill():
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            model(ids, past_key_values=DynamicCache(), use_cache=True, logits_to_keep=1)
            torch.cuda.synchronize()
            return time.perf_counter() - t0

        def decode(steps):
            cache = DynamicCache()
            r = model(ids[:, :a.short], past_key_values=cache, use_cache=True, logits_to_keep=1)
            tok = int(r.logits[0, -1].argmax())
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(steps):
                r = model(torch.tensor([[tok]], device=dev), past_key_values=cache, use_cache=True)
                tok = int(r.logits[0, -1].argmax())
            return time.perf_counter() - t0

        prefill(), decode(4)
        out[key + "_prefill_tok_s"] = a.prompt / min(prefill() for _ in range(max(1, a.runs)))
        out[key + "_decode_tok_s"] = a.gen / min(decode(a.gen) for _ in range(max(1, a.runs)))
        out[key + "_peak_MiB"] = torch.cuda.max_memory_allocated() / 1048576.0
        del model
    emit(out)


if __name__ == "__main__":
    main()
