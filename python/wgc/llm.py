"""Language models from Python: tokenizers and text generation over libwgc.so's wl API (ctypes).

    import wgc
    tok = wgc.Tokenizer("SmolLM2-135M-Instruct.Q4_1.gguf")      # no GPU
    ids = tok.tokenize("<|im_start|>user\\nHi<|im_end|>")         # special-token text parsed
    tok.detokenize(ids, special=True)
    with wgc.Model("SmolLM2-135M-Instruct.Q4_1.gguf", n_ctx=512) as m:   # weights on the GPU
        r = m.generate("The capital of France is", n=16, temp=0, stop=["\\n\\n"])
        r["text"], r["tokens"], r["stop"]      # "eos" | "length" | "stop_string" | "context"
    wgc.generate(path, prompt, ...)            # opens the model for one call

generate() runs what `wgc generate --json` runs (the same tokenization of the prompt, sampler,
streaming detokenizer and stop strings: the same tokens for the same seed) and returns its
fields as a dict: prompt_tokens, tokens (the EOS or the token completing a stop string
included), text (stop string excluded), stop, stop_string (when one matched), prefill_tok_s,
decode_tok_s.  Every argument is checked before the library sees it (TypeError / ValueError);
errors of the library raise ValueError for a bad argument it found (a prompt longer than the
context, a token outside the vocabulary) and WgcError otherwise (a missing or unsupported
model, a GPU failure).  A Model holds the package's device for its adapter (wgc.select_adapter);
wgc.close() closes the models still open.  See doc/llm.md, "Python".
"""
import ctypes
import math
import numbers
import os
import time
import weakref

from . import _lib, _lock, _locked, _device, _int, WgcError

__all__ = ["Tokenizer", "Model", "generate", "tokenize", "detokenize"]

WL_STATUS_INVALID_ARGUMENT = 1
_open_models = weakref.WeakSet()


def _raise(err, what):
    msg = "%s: %s" % (what, err.message.decode(errors="replace") or "failed")
    if err.status == WL_STATUS_INVALID_ARGUMENT:
        raise ValueError(msg)
    raise WgcError(msg)


def _path(path):
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, str):
        path = path.encode()
    if not isinstance(path, bytes):
        raise TypeError("model path must be a str, bytes or os.PathLike, got %s" % type(path).__name__)
    if not path or b"\0" in path:
        raise ValueError("model path %r: empty or holds a NUL" % path)
    return path


def _bool(name, v):
    if not isinstance(v, bool):
        raise TypeError("%s must be a bool, got %s" % (name, type(v).__name__))
    return v


def _real(name, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError("%s must be a number, got %s %r" % (name, type(v).__name__, v))
    v = float(v)
    if not (math.isfinite(v) and lo <= v <= hi):
        raise ValueError("%s must be in [%g, %g], got %r" % (name, lo, hi, v))
    return v


def _text(name, text):
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass")
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    raise TypeError("%s must be a str or bytes, got %s" % (name, type(text).__name__))


def _ids(name, ids):
    if isinstance(ids, (str, bytes, bytearray)):
        raise TypeError("%s must be a sequence of token ids, got %s" % (name, type(ids).__name__))
    try:
        ids = list(ids)
    except TypeError:
        raise TypeError("%s must be a sequence of token ids, got %s" % (name, type(ids).__name__)) from None
    return [_int("%s[%d]" % (name, i), t, 0, 2**31 - 1) for i, t in enumerate(ids)]


def _stops(stop):
    if stop is None:
        return []
    if isinstance(stop, (str, bytes)):
        stop = [stop]
    try:
        stop = list(stop)
    except TypeError:
        raise TypeError("stop must be a str or a sequence of str, got %s" % type(stop).__name__) from None
    out = []
    for i, s in enumerate(stop):
        b = _text("stop[%d]" % i, s)
        if not b or b"\0" in b:
            raise ValueError("stop[%d] %r: empty or holds a NUL" % (i, s))
        out.append(b)
    return out


class Tokenizer:
    """The tokenizer of a model file (GGUF keys, or tokenizer.json beside safetensors): no GPU."""
    _tok = None   # a failed __init__ leaves these for __del__

    def __init__(self, path):
        p = _path(path)
        self._tok = None
        err = _lib.WlError()
        with _lock:
            m = _lib.lib.wl_model_open(p, None, ctypes.byref(err))
            if not m:
                _raise(err, "open %s" % p.decode(errors="replace"))
            try:
                self._tok = _lib.lib.wl_tokenizer_open(m, None, ctypes.byref(err))
            finally:
                _lib.lib.wl_model_close(m)
            if not self._tok:
                _raise(err, "tokenizer of %s" % p.decode(errors="replace"))
        sp = _lib.lib.wl_tokenizer_special(self._tok).contents
        self.vocab_size = _lib.lib.wl_tokenizer_vocab_size(self._tok)
        self.bos = sp.bos if sp.bos >= 0 else None
        self.eos = sp.eos if sp.eos >= 0 else None

    def _check(self):
        if not self._tok:
            raise ValueError("the tokenizer is closed")

    @_locked
    def tokenize(self, text, special=True, add_special=True):
        """text (str or bytes) to token ids, as `wgc tokenize --json`: special=True parses
        special-token text (<|im_start|>) as those tokens; add_special adds BOS/EOS as the model
        file says."""
        b = _text("text", text)
        flags = (_lib.WL_TOKENIZE_PARSE_SPECIAL if _bool("special", special) else 0) | \
                (_lib.WL_TOKENIZE_ADD_SPECIAL if _bool("add_special", add_special) else 0)
        self._check()
        cap = len(b) + 8
        while True:
            arr, n, err = (ctypes.c_int32 * cap)(), ctypes.c_size_t(), _lib.WlError()
            if _lib.lib.wl_tokenize(self._tok, b, len(b), flags, arr, cap, ctypes.byref(n),
                                    ctypes.byref(err)) != _lib.WL_OK:
                _raise(err, "tokenize")
            if n.value <= cap:
                return list(arr[:n.value])
            cap = n.value

    @_locked
    def detokenize(self, ids, special=False, strip_space=False):
        """Token ids to text (str; a byte that is not valid UTF-8 becomes U+FFFD).  special: write
        control tokens' text; strip_space: SentencePiece's leading space dropped."""
        ids = _ids("ids", ids)
        flags = (_lib.WL_DETOK_SPECIAL if _bool("special", special) else 0) | \
                (_lib.WL_DETOK_STRIP_SPACE if _bool("strip_space", strip_space) else 0)
        self._check()
        for i, t in enumerate(ids):
            if t >= self.vocab_size:
                raise ValueError("ids[%d] = %d is outside the vocabulary of %d" % (i, t, self.vocab_size))
        d = _Detok(self._tok, flags)
        return b"".join([d.push(t) for t in ids] + [d.flush()]).decode("utf-8")

    def close(self):
        with _lock:
            if self._tok:
                _lib.lib.wl_tokenizer_close(self._tok)
                self._tok = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Detok:
    """wl_detok: pieces in, whole UTF-8 out."""

    def __init__(self, tok, flags):
        self.st = _lib.WlDetok()
        _lib.lib.wl_detok_init(ctypes.byref(self.st), tok, flags)
        self.cap = _lib.lib.wl_detok_cap(tok)
        self.buf = ctypes.create_string_buffer(self.cap)
        self.n = ctypes.c_size_t()

    def push(self, t):
        if _lib.lib.wl_detok_push(ctypes.byref(self.st), t, self.buf, self.cap, ctypes.byref(self.n)) != _lib.WL_OK:
            raise ValueError("token %d: not in the vocabulary" % t)
        return self.buf.raw[:self.n.value]

    def flush(self):
        _lib.lib.wl_detok_flush(ctypes.byref(self.st), self.buf, self.cap, ctypes.byref(self.n))
        return self.buf.raw[:self.n.value]


class _Stop:
    """wl_stop over the strings (bytes)."""

    def __init__(self, strings):
        arr = (ctypes.c_char_p * max(1, len(strings)))(*strings)
        err = _lib.WlError()
        self.h = _lib.lib.wl_stop_create(arr, None, len(strings), ctypes.byref(err))
        if not self.h:
            _raise(err, "stop strings")
        self.hit = ctypes.c_int(-1)
        self.n = ctypes.c_size_t()

    def push(self, b):
        cap = _lib.lib.wl_stop_cap(self.h, len(b))
        out = ctypes.create_string_buffer(max(1, cap))
        _lib.lib.wl_stop_push(self.h, b, len(b), out, cap, ctypes.byref(self.n), ctypes.byref(self.hit))
        return out.raw[:self.n.value]

    def flush(self):
        cap = _lib.lib.wl_stop_cap(self.h, 0)
        out = ctypes.create_string_buffer(max(1, cap))
        _lib.lib.wl_stop_flush(self.h, out, cap, ctypes.byref(self.n))
        return out.raw[:self.n.value]

    def close(self):
        _lib.lib.wl_stop_release(self.h)
        self.h = None


def _gen_args(prompt, n, temp, top_k, top_p, min_p, repeat_penalty, seed, stop, special):
    """generate()'s arguments, checked: (ids or None, the prompt's bytes or None, n, the sampler
    desc, the stop strings as bytes)."""
    ids = None if isinstance(prompt, (str, bytes, bytearray)) else _ids("prompt", prompt)
    text = _text("prompt", prompt) if ids is None else None
    if ids is not None and not ids:
        raise ValueError("the prompt has no tokens")
    n = _int("n", n, 0, 1000000)
    sd = _lib.WlSamplerDesc(temperature=_real("temp", temp, -1e30, 1e30), top_k=_int("top_k", top_k, 0, 2**32 - 1),
                            top_p=_real("top_p", top_p, 0, 1e30), min_p=_real("min_p", min_p, 0, 1),
                            repeat_penalty=_real("repeat_penalty", repeat_penalty, 0, 1e30),
                            seed=(time.time_ns() ^ (os.getpid() << 32)) % 2**64 if seed is None
                            else _int("seed", seed, 0, 2**64 - 1))
    stops = _stops(stop)
    _bool("special", special)
    return ids, text, n, sd, stops


class Model:
    """A llama-family model (GGUF or safetensors) on the GPU: its weights, a KV cache of n_ctx
    positions (0: min(the model's, 4096)) in cache_type ("f32" or "f16"), and its tokenizer.
    adapter: as wgc.select_adapter (None: the package's selection)."""
    _e = _ctx = tokenizer = None

    def __init__(self, path, n_ctx=0, cache_type="f32", adapter=None):
        p = _path(path)
        n_ctx = _int("n_ctx", n_ctx, 0, 1 << 24)
        if cache_type not in ("f32", "f16"):
            raise ValueError("cache_type must be 'f32' or 'f16', got %r" % (cache_type,))
        self._ctx = self._e = None
        self.tokenizer = Tokenizer(path)
        err = _lib.WlError()
        with _lock:
            dev = _device(adapter)
            m = _lib.lib.wl_model_open(p, None, ctypes.byref(err))
            if not m:
                _raise(err, "open %s" % p.decode(errors="replace"))
            try:
                self._ctx = _lib.lib.wt_context_create(dev, None)
                if not self._ctx:
                    raise WgcError("no tensor context on the device")
                desc = _lib.WlEngineDesc(label=b"python", n_ctx=n_ctx, cache_type=_lib.DTYPE[cache_type])
                self._e = _lib.lib.wl_engine_create(self._ctx, m, ctypes.byref(desc), ctypes.byref(err))
            finally:
                _lib.lib.wl_model_close(m)
            if not self._e:
                self.close()
                _raise(err, "engine for %s" % p.decode(errors="replace"))
            _open_models.add(self)
        i = _lib.lib.wl_engine_get_info(self._e).contents
        self.info = {k: (getattr(i, k).decode() if k == "arch" else getattr(i, k)) for k, _ in i._fields_}
        self.info["cache_type"] = _lib.lib.wt_dtype_name(i.cache_type).decode()

    def tokenize(self, text, special=True, add_special=True):
        return self.tokenizer.tokenize(text, special, add_special)

    def detokenize(self, ids, special=False, strip_space=False):
        return self.tokenizer.detokenize(ids, special, strip_space)

    @_locked
    def generate(self, prompt, n=64, temp=0.8, top_k=40, top_p=0.95, min_p=0.05, repeat_penalty=1.0, seed=None,
                 stop=None, special=True):
        """Generates up to n tokens after prompt (str: tokenized as `wgc generate -p` does, special
        text parsed unless special=False, BOS as the file says; or a sequence of token ids), from an
        empty context, with `wgc generate`'s sampling (temp 0: greedy) and defaults; seed None: from
        the clock.  stop: a str or a sequence of str.  Returns a dict (see the module's doc)."""
        ids, text, n, sd, stops = _gen_args(prompt, n, temp, top_k, top_p, min_p, repeat_penalty, seed, stop,
                                            special)
        if not self._e:
            raise ValueError("the model is closed")
        if ids is None:
            ids = self.tokenizer.tokenize(text, special=special, add_special=True)
            if not ids:
                raise ValueError("the prompt has no tokens")
        err = _lib.WlError()
        if _lib.lib.wl_engine_truncate(self._e, 0, 0, ctypes.byref(err)) != _lib.WL_OK:
            _raise(err, "reset")
        s = _lib.lib.wl_sampler_create(ctypes.byref(sd), ctypes.byref(err))
        if not s:
            _raise(err, "sampler")
        st = _Stop(stops)
        try:
            return self._run(ids, n, s, st, stops)
        finally:
            st.close()
            _lib.lib.wl_sampler_release(s)

    def _run(self, ids, n, s, st, stops):
        e, err = self._e, _lib.WlError()
        info = _lib.lib.wl_engine_get_info(e).contents
        dt = _Detok(self.tokenizer._tok, 0)
        out, text, why = [], [], "length"
        t0 = time.perf_counter()
        t1 = t0
        arr = (ctypes.c_int32 * len(ids))(*ids)
        if _lib.lib.wl_engine_eval(e, 0, arr, len(ids), _lib.WL_LOGITS_LAST, ctypes.byref(err)) != _lib.WL_OK:
            _raise(err, "generate")
        for t in ids:
            _lib.lib.wl_sampler_accept(s, t)
        tok = ctypes.c_int32()
        while len(out) < n:
            if _lib.lib.wl_sampler_sample(s, e, 0, ctypes.byref(tok), ctypes.byref(err)) != _lib.WL_OK:
                _raise(err, "generate")
            t = tok.value
            if not out:
                t1 = time.perf_counter()
            out.append(t)
            _lib.lib.wl_sampler_accept(s, t)
            piece = dt.push(t)
            if piece:
                text.append(st.push(piece))
            if t == info.eos or st.hit.value >= 0:
                why = "stop_string" if st.hit.value >= 0 else "eos"
                break
            if len(out) == n:
                break
            if _lib.lib.wl_engine_pos(e, 0) >= info.n_ctx:
                why = "context"
                break
            if _lib.lib.wl_engine_eval(e, 0, ctypes.byref(tok), 1, _lib.WL_LOGITS_LAST, ctypes.byref(err)) != _lib.WL_OK:
                _raise(err, "generate")
        t2 = time.perf_counter()
        if st.hit.value < 0:
            text.append(st.push(dt.flush()))
            if st.hit.value >= 0:
                why = "stop_string"
            else:
                text.append(st.flush())
        r = {"prompt_tokens": list(ids), "tokens": out, "text": b"".join(text).decode("utf-8"), "stop": why,
             "prefill_tok_s": len(ids) / (t1 - t0) if t1 > t0 else 0.0,
             "decode_tok_s": (len(out) - 1) / (t2 - t1) if len(out) > 1 and t2 > t1 else 0.0}
        if st.hit.value >= 0:
            r["stop_string"] = stops[st.hit.value].decode("utf-8", "replace")
        return r

    def close(self):
        """Releases the engine and its tensor context (the device stays the package's)."""
        with _lock:
            if self._e:
                _lib.lib.wl_engine_release(self._e)
                self._e = None
            if self._ctx:
                _lib.lib.wt_context_destroy(self._ctx)
                self._ctx = None
            _open_models.discard(self)
            if getattr(self, "tokenizer", None):
                self.tokenizer.close()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _close_all():
    for m in list(_open_models):
        m.close()


def generate(model, prompt, n=64, temp=0.8, top_k=40, top_p=0.95, min_p=0.05, repeat_penalty=1.0, seed=None,
             stop=None, special=True, n_ctx=0, cache_type="f32"):
    """Model.generate on model (a Model, or a path: opened for this call with n_ctx and
    cache_type, and closed after)."""
    _gen_args(prompt, n, temp, top_k, top_p, min_p, repeat_penalty, seed, stop, special)   # before any C call
    if isinstance(model, Model):
        return model.generate(prompt, n, temp, top_k, top_p, min_p, repeat_penalty, seed, stop, special)
    with Model(model, n_ctx=n_ctx, cache_type=cache_type) as m:
        return m.generate(prompt, n, temp, top_k, top_p, min_p, repeat_penalty, seed, stop, special)


def _tokenizer_of(model):
    if isinstance(model, Model):
        return model.tokenizer, False
    if isinstance(model, Tokenizer):
        return model, False
    return Tokenizer(model), True


def tokenize(model, text, special=True, add_special=True):
    """Tokenizer.tokenize of model (a Model, a Tokenizer, or a model file's path)."""
    tok, own = _tokenizer_of(model)
    try:
        return tok.tokenize(text, special, add_special)
    finally:
        if own:
            tok.close()


def detokenize(model, ids, special=False, strip_space=False):
    """Tokenizer.detokenize of model (a Model, a Tokenizer, or a model file's path)."""
    tok, own = _tokenizer_of(model)
    try:
        return tok.detokenize(ids, special, strip_space)
    finally:
        if own:
            tok.close()
