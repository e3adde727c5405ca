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


if ours["metadata_count"] != len([k for k in r.fields if not k.startswith("GGUF.")]):
    bad.append(f"metadata count {ours['metadata_count']} vs {len(r.fields)}")
arch = field("general.architecture")
for ok, theirs in (("architecture", arch),
                   ("block_count", field(f"{arch}.block_count")),
                   ("embedding_length", field(f"{arch}.embedding_length")),
                   ("context_length", field(f"{arch}.context_length")),
                   ("feed_forward_length", field(f"{arch}.feed_forward_length")),
                   ("attention_head_count", field(f"{arch}.attention.head_count")),
                   ("attention_head_count_kv", field(f"{arch}.attention.head_count_kv")),
                   ("vocab_size", len(r.fields["tokenizer.ggml.tokens"].data)),
                   ("rope_freq_base", field(f"{arch}.rope.freq_base"))):
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
print(f"{'tensor bytes':26} wgc {ours['tensor_bytes']:<10} gguf {total}")
if ours["tensor_bytes"] != total:
    bad.append("tensor bytes")
for line in bad[:20]:
    print("MISMATCH", line)
sys.exit(1 if bad else 0)
