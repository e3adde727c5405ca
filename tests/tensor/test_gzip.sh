#!/bin/sh
# test_gzip.sh - wt's own gzip reader (src/tensor/digits.c, behind wt_digits_load) against Python's
# zlib on every kind of deflate block and gzip header: a digits-shaped CSV of random rows, compressed
# stored (level 0, blocks past 64 KiB), with the fixed codes (Z_FIXED), Huffman only, dynamic codes at
# levels 1 and 9, as two concatenated members, and with every optional header field (FEXTRA, FNAME,
# FCOMMENT, FHCRC); each must load to the same rows as the uncompressed file.
set -e
B=${BUILD:-build}
t=$(mktemp -d /tmp/wgc-test-gzip-XXXXXX)
trap 'rm -rf "$t"' EXIT
/usr/bin/python3 - "$t" <<'PY'
import random, struct, sys, zlib
d = sys.argv[1]
rng = random.Random(5)
rows = []
for i in range(2000):
    px = [rng.choice([0, 0, 0, 1, 5, 9, 12, 16, rng.randint(0, 16)]) for _ in range(64)]
    rows.append(",".join(map(str, px)) + ",%d\n" % rng.randint(0, 9))
text = "".join(rows).encode()
open(d + "/ref.csv", "wb").write(text)

def member(data, level=6, strategy=zlib.Z_DEFAULT_STRATEGY, flags=0):
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    raw = c.compress(data) + c.flush()
    head = bytes([0x1f, 0x8b, 8, flags]) + struct.pack("<I", 0) + bytes([0, 255])
    if flags & 4:
        head += struct.pack("<H", 6) + b"ab\x02\x00xy"
    if flags & 8:
        head += b"digits.csv\x00"
    if flags & 16:
        head += b"a comment\x00"
    if flags & 2:
        head += struct.pack("<H", zlib.crc32(head) & 0xffff)
    return head + raw + struct.pack("<II", zlib.crc32(data), len(data) & 0xffffffff)

cases = {
    "stored": member(text, 0),
    "fixed": member(text, 6, zlib.Z_FIXED),
    "huffman": member(text, 6, zlib.Z_HUFFMAN_ONLY),
    "rle": member(text, 6, zlib.Z_RLE),
    "fast": member(text, 1),
    "best": member(text, 9),
    "members": member(text[:70001], 9) + member(text[70001:], 0),
    "header": member(text, 6, flags=2 | 4 | 8 | 16),
}
for k, v in cases.items():
    open("%s/%s.csv.gz" % (d, k), "wb").write(v)
PY
"$B/tests/tensor/test_optim" --gzip "$t/ref.csv" "$t"/*.csv.gz
