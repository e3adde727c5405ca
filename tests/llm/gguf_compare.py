"""gguf_compare.py - compares `wgc model --json --tensors FILE` (on stdin) with the PyPI gguf
package's GGUFReader over the same file: every tensor's name, type, shape, data offset and byte
size, the metadata count, and the llama sizes.  Prints the figures; exits 1 on any difference."""
import json
import sys

from gguf import GGUFReader

path = sys.argv[1]
ours = json.load(sys.stdin)
r = GGUFReader(path)
bad = []


def field(key):
    f = r.fields[key]
    return f.contents() if hasattr(f, "contents") else f.parts[f.data[0]][0]


if ours["metadataCount"] != len([k for k in r.fields if not k.startswith("GGUF.")]):
    bad.append(f"metadata count {ours['metadataCount']} vs {len(r.fields)}")
arch = field("general.architecture")
for ok, theirs in (("architecture", arch),
                   ("blockCount", field(f"{arch}.block_count")),
                   ("embeddingLength", field(f"{arch}.embedding_length")),
                   ("contextLength", field(f"{arch}.context_length")),
                   ("feedForwardLength", field(f"{arch}.feed_forward_length")),
                   ("attentionHeadCount", field(f"{arch}.attention.head_count")),
                   ("attentionHeadCountKv", field(f"{arch}.attention.head_count_kv")),
                   ("vocabSize", len(r.fields["tokenizer.ggml.tokens"].data)),
                   ("ropeFreqBase", field(f"{arch}.rope.freq_base"))):
    if ours.get(ok) != theirs:
        bad.append(f"{ok}: wgc {ours.get(ok)!r}, gguf {theirs!r}")
    print(f"{ok:26} wgc {ours.get(ok)!r:10} gguf {theirs!r}")
if len(ours["tensors"]) != len(r.tensors):
    bad.append(f"tensor count {len(ours['tensors'])} vs {len(r.tensors)}")
total = 0
for a, b in zip(ours["tensors"], r.tensors):
    want = (b.name, b.tensor_type.name, [int(x) for x in b.shape], int(b.data_offset), int(b.n_bytes))
    got = (a["name"], a["dtype"], a["ne"], a["offset"], a["bytes"])
    total += int(b.n_bytes)
    if got != want:
        bad.append(f"tensor {got} vs {want}")
print(f"{'tensors':26} wgc {len(ours['tensors']):<10} gguf {len(r.tensors)}")
print(f"{'tensor bytes':26} wgc {ours['tensorBytes']:<10} gguf {total}")
if ours["tensorBytes"] != total:
    bad.append("tensor bytes")
for line in bad[:20]:
    print("MISMATCH", line)
sys.exit(1 if bad else 0)
