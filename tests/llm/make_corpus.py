#!/usr/bin/env python3
"""make_corpus.py - writes the seed corpus of tests/llm/fuzz_llm.c into tests/llm/corpus/: a few
tiny valid GGUF and safetensors files, each prefixed with the harness's selector byte (0: GGUF,
1: safetensors).  Deterministic: running it again rewrites the same bytes.  Each file stays under
4 KB so libFuzzer can mutate it quickly and the replay test (test_fuzz_replay.c) can cut it at
every byte.

Usage: python3 tests/llm/make_corpus.py [DIR]   (default tests/llm/corpus)"""
import json
import os
import struct
import sys

GGUF_TYPES = {"u8": (0, "<B"), "i8": (1, "<b"), "u16": (2, "<H"), "i16": (3, "<h"), "u32": (4, "<I"),
              "i32": (5, "<i"), "f32": (6, "<f"), "bool": (7, "<B"), "u64": (10, "<Q"), "i64": (11, "<q"),
              "f64": (12, "<d")}
# ggml type id: (elements per block, bytes per block)
GGML = {0: (1, 4), 1: (1, 2), 30: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34),
        10: (256, 84), 11: (256, 110), 12: (256, 144), 13: (256, 176), 14: (256, 210)}


def gstr(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gvalue(kind, v):
    """(type code, bytes) of a metadata value: kind is a scalar name, 'str', or ('arr', kind)."""
    if kind == "str":
        return 8, gstr(v)
    if isinstance(kind, tuple):
        code, _ = gvalue(kind[1], v[0]) if v else (GGUF_TYPES.get(kind[1], (8,))[0], b"")
        body = b"".join(gvalue(kind[1], x)[1] for x in v)
        return 9, struct.pack("<IQ", code, len(v)) + body
    code, fmt = GGUF_TYPES[kind]
    return code, struct.pack(fmt, v)


def gguf(version, kvs, tensors, align=32):
    """kvs: [(key, kind, value)]; tensors: [(name, ne list, ggml type)]."""
    out = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs))
    for key, kind, v in kvs:
        code, body = gvalue(kind, v)
        out += gstr(key) + struct.pack("<I", code) + body
    off, infos, sizes = 0, b"", []
    for name, ne, t in tensors:
        blk, nbytes = GGML[t]
        n = 1
        for d in ne:
            n *= d
        size = n // blk * nbytes
        infos += gstr(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", d) for d in ne)
        infos += struct.pack("<IQ", t, off)
        sizes.append((off, size))
        off = (off + size + align - 1) // align * align
    out += infos
    out += b"\0" * (-len(out) % align)
    data = bytearray(off if tensors else 0)
    for i, (o, s) in enumerate(sizes):
        data[o:o + s] = bytes((i * 7 + k) & 0xFF for k in range(s))
    return out + bytes(data)


def safetensors(tensors, metadata=None, pad=True):
    """tensors: [(name, dtype, shape)], laid out in order."""
    sizes = {"F32": 4, "F16": 2, "BF16": 2}
    header, off = {}, 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, dt, shape in tensors:
        n = 1
        for d in shape:
            n *= d
        header[name] = {"dtype": dt, "shape": shape, "data_offsets": [off, off + n * sizes[dt]]}
        off += n * sizes[dt]
    h = json.dumps(header, separators=(",", ":")).encode()
    if pad:
        h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + bytes((k * 13) & 0xFF for k in range(off))


def raw_safetensors(header, data):
    """A safetensors file from a header written by hand (escapes, spacing) and its buffer."""
    return struct.pack("<Q", len(header)) + header + data


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")
    os.makedirs(out, exist_ok=True)
    every = [("t.u8", "u8", 200), ("t.i8", "i8", -5), ("t.u16", "u16", 60000), ("t.i16", "i16", -300),
             ("t.u32", "u32", 4000000000), ("t.i32", "i32", -7), ("t.f32", "f32", 1.5), ("t.bool", "bool", 1),
             ("t.u64", "u64", 1 << 40), ("t.i64", "i64", -(1 << 40)), ("t.f64", "f64", 0.25),
             ("general.architecture", "str", "llama")]
    seeds = {
        "gguf-v3-types.bin": gguf(3, every + [("t.arr", ("arr", "i32"), [1, -2, 3]),
                                              ("t.strs", ("arr", "str"), ["a", "", "bc"])],
                                  [("a.weight", [4, 2], 0), ("b.weight", [32], 2)]),
        "gguf-v2-llama.bin": gguf(2, [("general.architecture", "str", "llama"), ("llama.block_count", "u32", 2),
                                      ("llama.embedding_length", "u32", 32),
                                      ("tokenizer.ggml.tokens", ("arr", "str"), ["<s>", "</s>", "a"])],
                                  [("token_embd.weight", [32, 3], 8), ("blk.0.attn_q.weight", [32, 32], 3),
                                   ("output_norm.weight", [32], 0)]),
        "gguf-align64-kquants.bin": gguf(3, [("general.alignment", "u32", 64)],
                                         [("q2", [256], 10), ("q3", [256], 11), ("q4", [256], 12),
                                          ("q5", [256], 13), ("q6", [256], 14), ("q50", [32], 6),
                                          ("q51", [32], 7), ("f16", [3], 1), ("bf16", [2], 30)], align=64),
        "gguf-empty.bin": gguf(3, [], []),
        # tokenizers (fuzz_llm.c opens one on every GGUF input and tokenizes the input's bytes)
        "gguf-tok-bpe.bin": gguf(3, [("tokenizer.ggml.model", "str", "gpt2"), ("tokenizer.ggml.pre", "str", "smollm"),
                                     ("tokenizer.ggml.tokens", ("arr", "str"),
                                      ["<|endoftext|>", "<|im_start|>", "a", "b", "c", "\u0120", "1", "\u010a",
                                       "ab", "\u0120a", "\u0120ab", "abc", "\u00c3", "\u00a9", "\u00c3\u00a9", "<u>"]),
                                     ("tokenizer.ggml.token_type", ("arr", "i32"),
                                      [3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4]),
                                     ("tokenizer.ggml.merges", ("arr", "str"),
                                      ["a b", "\u0120 a", "\u0120a b", "ab c", "\u00c3 \u00a9"]),
                                     ("tokenizer.ggml.bos_token_id", "u32", 0),
                                     ("tokenizer.ggml.add_bos_token", "bool", 1)], []),
        "gguf-tok-spm.bin": gguf(3, [("tokenizer.ggml.model", "str", "llama"),
                                     ("tokenizer.ggml.tokens", ("arr", "str"),
                                      ["<unk>", "<s>", "</s>", "<0x41>", "<0xC3>", "<0xA9>", "\u2581", "a", "b",
                                       "\u2581a", "ab", "\u2581ab", "<|im_start|>"]),
                                     ("tokenizer.ggml.token_type", ("arr", "i32"), [2, 3, 3, 6, 6, 6, 1, 1, 1, 1, 1, 1, 3]),
                                     ("tokenizer.ggml.scores", ("arr", "f32"),
                                      [0, 0, 0, 0, 0, 0, -1, -2, -3, -4, -5, -6, 0])], []),
        "st-single.bin": safetensors([("a.weight", "F32", [2, 3]), ("b.bias", "F16", [4]),
                                      ("c.norm", "BF16", [2, 1, 2])], {"format": "pt", "note": "caf\u00e9"}),
        "st-scalar-empty.bin": safetensors([("s", "F32", []), ("z", "F32", [0, 4]), ("x", "F32", [1, 1, 1, 2])],
                                           pad=False),
        "st-empty.bin": safetensors([], None),
        "st-escapes.bin": raw_safetensors(b'{"__metadata__":{"k\\u00e9\\ud83d\\ude00":"\\n\\t\\"\\\\"},'
                                          b' "w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}',
                                          b"\x00\x00\x80\x3f"),
    }
    for name, body in seeds.items():
        sel = b"\x01" if name.startswith("st-") else b"\x00"
        data = sel + body
        assert len(data) < 4096, name
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(seeds)} seeds to {out}")


if __name__ == "__main__":
    main()
