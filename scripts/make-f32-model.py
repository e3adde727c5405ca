#!/usr/bin/env python3
# make-f32-model.py - write an F32 copy of a GGUF model: every tensor dequantized to f32 by the
# PyPI `gguf` package (the llama.cpp project's own Python reader), every metadata key copied as it
# is, except general.file_type, which becomes 0 (all F32).  The reference values of
# tests/llm/test_engine.c come from llama.cpp run on this copy: exact math, no quantized
# activations.  Idempotent: an existing output newer than the input is kept.
#
# Usage: PYTHONPATH=$(sh tests/llm/install_gguf.sh) python3 scripts/make-f32-model.py IN.gguf OUT.gguf
# Prints OUT on success.
import os
import sys

import numpy as np
import gguf
from gguf import GGUFReader, GGUFValueType, GGUFWriter
from gguf.quants import dequantize


def field_value(f):
    t = f.types[0]
    if t == GGUFValueType.ARRAY:
        sub = f.types[-1]
        if sub == GGUFValueType.ARRAY:
            sys.exit(f"make-f32-model.py: {f.name}: nested arrays are not copied")
        if sub == GGUFValueType.STRING:
            return f.contents(), sub
        return [x.item() if hasattr(x, "item") else x for x in f.contents()], sub
    return f.contents(), None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-f32-model.py IN.gguf OUT.gguf")
    src, dst = sys.argv[1], sys.argv[2]
    if os.path.exists(dst) and os.path.getmtime(dst) >= os.path.getmtime(src):
        print(dst)
        return
    r = GGUFReader(src)
    arch = r.fields["general.architecture"].contents()
    tmp = dst + ".part"
    w = GGUFWriter(tmp, arch)
    for name, f in r.fields.items():
        if name.startswith("GGUF.") or name == "general.architecture":
            continue
        if name == "general.file_type":
            w.add_key_value(name, 0, GGUFValueType.UINT32)
            continue
        val, sub = field_value(f)
        w.add_key_value(name, val, f.types[0], sub)
    for t in r.tensors:
        a = dequantize(t.data, t.tensor_type).astype(np.float32)
        shape = tuple(int(n) for n in reversed(t.shape))   # ggml ne -> numpy order
        w.add_tensor(t.name, np.ascontiguousarray(a.reshape(shape)))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(tmp, dst)
    print(dst)


if __name__ == "__main__":
    main()
