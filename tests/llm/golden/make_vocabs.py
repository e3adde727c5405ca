#!/usr/bin/env python3
"""make_vocabs.py - writes the vocabulary-only GGUF files the tokenizer tests compare with
llama.cpp (tests/llm/golden/gen_tokens.py, tests/llm/test_tokenizer_golden.sh), all derived from
the real model's byte-level BPE vocabulary (SmolLM2-135M-Instruct, 49152 tokens, 48900 merges):

  gpt2.gguf    the same tokens and merges plus 1,210 digit tokens (" d", "dd", " dd", "ddd") with
               tokenizer.ggml.pre = "gpt-2"; <reponame> and <filename> made user-defined
  llama3.gguf  the same with pre = "llama-bpe" (the Llama 3 regex, ignore_merges)
  qwen2.gguf   the same with pre = "qwen2"
  spm.gguf     tokenizer.ggml.model = "llama" (SentencePiece BPE): <unk> <s> </s>, the 256 byte
               tokens <0x00>..<0xFF>, then every byte-level token whose bytes are valid UTF-8,
               spaces written U+2581, score -rank; <|im_start|> <|im_end|> control, <tool>
               user-defined.  Characters it lacks go through byte fallback.
  smollm-st/   a safetensors model directory (one tiny tensor, config.json) whose tokenizer.json
               and tokenizer_config.json hold the real model's vocabulary: Hugging Face's form
               of the smollm pre-tokenizer (Sequence[Digits(individual_digits), ByteLevel])
  llama3-st/   the same vocabulary with the Llama 3 form (Split(regex), ByteLevel(use_regex=false),
               ignore_merges)
  spm-st/      spm.gguf's vocabulary as Llama 2's tokenizer.json has it (BPE with byte_fallback,
               merges = every split of each piece, in score order; Prepend + Replace normalizer)
  notok.gguf   a GGUF file without a tokenizer (the error path)

Deterministic: the same model and gguf package give the same files.
Usage: PYTHONPATH=$(sh tests/llm/install_gguf.sh) python3 tests/llm/golden/make_vocabs.py MODEL.gguf OUTDIR
"""
import json
import os
import struct
import sys

from gguf import GGUFReader, GGUFValueType, GGUFWriter


def byte_decoder():
    bs = list(range(0x21, 0x7F)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def read_fields(path):
    r = GGUFReader(path)
    out = {}
    for k, f in r.fields.items():
        if k.startswith("GGUF."):
            continue
        t = f.types[0]
        if t == GGUFValueType.ARRAY:
            out[k] = (f.contents(), t, f.types[-1])
        else:
            out[k] = (f.contents(), t, None)
    return out


def write(path, fields, overrides):
    w = GGUFWriter(path, "llama")
    f = dict(fields)
    f.update(overrides)
    for k, (v, t, sub) in f.items():
        if k == "general.architecture" or v is None:
            continue
        w.add_key_value(k, v, t, sub)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def st_model(d):
    """A one-tensor model.safetensors in d."""
    hdr = json.dumps({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}).encode()
    with open(os.path.join(d, "model.safetensors"), "wb") as o:
        o.write(struct.pack("<Q", len(hdr)) + hdr + b"\0\0\0\0")


def main():
    model, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    f = read_fields(model)
    S, A, I32 = GGUFValueType.STRING, GGUFValueType.ARRAY, GGUFValueType.INT32
    # SmolLM2's vocabulary has single digits only: add 2- and 3-digit tokens and " d", " dd" so
    # that the pre-tokenizers' digit rules (GPT-2's  ?\p{N}+, Llama 3's \p{N}{1,3}, Qwen2's \p{N})
    # give different ids
    btoks = list(f["tokenizer.ggml.tokens"][0])
    bmerges = list(f["tokenizer.ggml.merges"][0])
    types = list(f["tokenizer.ggml.token_type"][0])
    D = "0123456789"
    for a in D:
        bmerges.append("\u0120 " + a)
        btoks.append("\u0120" + a)
        for b in D:
            bmerges.append(a + " " + b)
            btoks.append(a + b)
    for a in D:
        for b in D:
            bmerges.append("\u0120" + a + " " + b)
            btoks.append("\u0120" + a + b)
            for c in D:
                bmerges.append(a + b + " " + c)
                btoks.append(a + b + c)
    types += [1] * (len(btoks) - len(types))
    types[4] = 4   # <reponame>: user-defined, but llama.cpp makes it control (a fill-in-the-middle text)
    types[6] = 4   # <filename>: user-defined, matched in text even without special parsing
    big = {"tokenizer.ggml.tokens": (btoks, A, S), "tokenizer.ggml.merges": (bmerges, A, S),
           "tokenizer.ggml.token_type": (types, A, I32)}
    for name, pre in (("gpt2", "gpt-2"), ("llama3", "llama-bpe"), ("qwen2", "qwen2")):
        write(os.path.join(outdir, name + ".gguf"), f, dict(big, **{"tokenizer.ggml.pre": (pre, S, None)}))

    dec = byte_decoder()
    toks, tys, scores = ["<unk>", "<s>", "</s>"], [2, 3, 3], [0.0, 0.0, 0.0]
    for b in range(256):
        toks.append("<0x%02X>" % b)
        tys.append(6)
        scores.append(0.0)
    for s, ty in (("<|im_start|>", 3), ("<|im_end|>", 3), ("<tool>", 4)):
        toks.append(s)
        tys.append(ty)
        scores.append(0.0)
    seen = set(toks)
    for rank, tok in enumerate(f["tokenizer.ggml.tokens"][0]):
        if f["tokenizer.ggml.token_type"][0][rank] != 1:
            continue
        try:
            text = bytes(dec[c] for c in tok).decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            continue
        piece = text.replace(" ", "\u2581")
        if piece in seen or not piece:
            continue
        seen.add(piece)
        toks.append(piece)
        tys.append(1)
        scores.append(-float(rank))
    spm = {k: v for k, v in f.items() if not k.startswith("tokenizer.")}
    spm.update({
        "tokenizer.ggml.model": ("llama", S, None),
        "tokenizer.ggml.tokens": (toks, A, S),
        "tokenizer.ggml.token_type": (tys, A, I32),
        "tokenizer.ggml.scores": (scores, A, GGUFValueType.FLOAT32),
        "tokenizer.ggml.bos_token_id": (1, GGUFValueType.UINT32, None),
        "tokenizer.ggml.eos_token_id": (2, GGUFValueType.UINT32, None),
        "tokenizer.ggml.unknown_token_id": (0, GGUFValueType.UINT32, None),
    })
    spm["llama.vocab_size"] = (len(toks), GGUFValueType.UINT32, None)
    write(os.path.join(outdir, "spm.gguf"), spm, {})
    write(os.path.join(outdir, "notok.gguf"), {k: v for k, v in f.items() if not k.startswith("tokenizer.")}, {})
    smol = (f["tokenizer.ggml.tokens"][0], f["tokenizer.ggml.token_type"][0], f["tokenizer.ggml.merges"][0])
    llama3_re = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|"
                 r"\s*[\r\n]+|\s+(?!\S)|\s+")   # as Llama 3's tokenizer.json has it
    for name, (tokens, ttypes, merges), pre, ignore in (
            ("smollm-st", smol, {"type": "Sequence", "pretokenizers": [
                {"type": "Digits", "individual_digits": True},
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}]}, False),
            ("llama3-st", (btoks, types, bmerges), {"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": llama3_re}, "behavior": "Isolated", "invert": False},
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}, True)):
        d = os.path.join(outdir, name)
        os.makedirs(d, exist_ok=True)
        tj = {"version": "1.0", "truncation": None, "padding": None,
              "added_tokens": [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                                "normalized": False, "special": ttypes[i] == 3}
                               for i, t in enumerate(tokens) if ttypes[i] in (3, 4)],
              "normalizer": None, "pre_tokenizer": pre, "post_processor": None, "decoder": {"type": "ByteLevel"},
              "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                        "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                        "ignore_merges": ignore,
                        "vocab": {t: i for i, t in enumerate(tokens) if ttypes[i] not in (3, 4)},
                        "merges": [m.split(" ", 1) for m in merges] if ignore else list(merges)}}
        with open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8") as o:
            json.dump(tj, o, ensure_ascii=False)
        with open(os.path.join(d, "tokenizer_config.json"), "w") as o:
            json.dump({"add_bos_token": False, "bos_token": "<|im_start|>", "eos_token": {"content": "<|im_end|>"},
                       "unk_token": "<|endoftext|>", "pad_token": "<|im_end|>"}, o)
        with open(os.path.join(d, "config.json"), "w") as o:
            json.dump({"model_type": "llama", "vocab_size": len(tokens)}, o)
        st_model(d)
    # SentencePiece in Hugging Face's BPE form (Llama 2's tokenizer.json): the spm.gguf vocabulary,
    # merges listing every split of each piece into two tokens, pieces in score order (what the
    # transformers converter writes), byte_fallback, a Prepend + Replace normalizer
    d = os.path.join(outdir, "spm-st")
    os.makedirs(d, exist_ok=True)
    vset = {t: i for i, t in enumerate(toks)}
    smerges = []
    for i, t in enumerate(toks):
        if tys[i] != 1:
            continue
        for k in range(1, len(t)):
            if t[:k] in vset and t[k:] in vset:
                smerges.append([t[:k], t[k:]])
    tj = {"version": "1.0", "truncation": None, "padding": None,
          "added_tokens": [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                            "normalized": False, "special": tys[i] != 4}
                           for i, t in enumerate(toks) if tys[i] in (2, 3, 4)],
          "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "\u2581"},
                                                             {"type": "Replace", "pattern": {"String": " "},
                                                              "content": "\u2581"}]},
          "pre_tokenizer": None, "post_processor": None,
          "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
                                                       {"type": "ByteFallback"}, {"type": "Fuse"},
                                                       {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
          "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                    "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True, "ignore_merges": False,
                    "vocab": {t: i for i, t in enumerate(toks) if tys[i] in (1, 6)}, "merges": smerges}}
    with open(os.path.join(d, "tokenizer.json"), "w", encoding="utf-8") as o:
        json.dump(tj, o, ensure_ascii=False)
    with open(os.path.join(d, "tokenizer_config.json"), "w") as o:
        json.dump({"add_bos_token": True, "add_eos_token": False, "bos_token": "<s>", "eos_token": "</s>",
                   "unk_token": "<unk>"}, o)
    with open(os.path.join(d, "config.json"), "w") as o:
        json.dump({"model_type": "llama", "vocab_size": len(toks)}, o)
    st_model(d)
    print(outdir)


if __name__ == "__main__":
    main()
