"""wgc from Python: device specs, WGSL validation and kernel profiling over libwgc.so (ctypes only).

    import wgc
    specs = wgc.get_device_specs()                 # limits, features, subgroup sizes, warp_size
    ok, message = wgc.validate_kernel(code)        # wgc's WGSL compiler; message has file:line:col
    r = wgc.profile_kernel(code, "main", (16, 1, 1), {(0, 0): x_bytes, (0, 1): 4096}, repeat=50)
    r["median_ns"], r["outputs"][(0, 1)]

numpy is optional: buffers may be numpy arrays (outputs then come back as arrays of the same dtype
and shape), or anything with the buffer protocol (bytes, bytearray, array.array, memoryview;
outputs come back as bytes), or an int (that many zero bytes; output as bytes).

One device per adapter selection is created on first use and kept until the interpreter exits
(or `close()`); a device that is lost is dropped, with its instance, and the next call makes new
ones.  The calls hold one lock of the package, so threads may share it (their kernels run one at
a time).  Errors in the arguments raise ValueError / TypeError before anything reaches the
library; a kernel that does not compile or a GPU error is a result with ok False (the optimizer
loop this serves wants values, not exceptions); no Vulkan at all raises RuntimeError.

The runtime's WGC_* variables apply as they do to the wgc CLI (WGC_ADAPTER, WGC_VALIDATION,
WGC_LOST_TIMEOUT_MS, WGC_CACHE_DIR, WGC_COPY, ...: doc/gpu.md), read when the instance and each
device are created; a value the runtime cannot use raises WgcError.
"""
import atexit
import ctypes
import functools
import json
import numbers
import operator
import threading

from . import _lib

__all__ = ["list_adapters", "select_adapter", "get_device_specs", "validate_kernel", "profile_kernel",
           "run_kernel", "close", "WgcError", "Tokenizer", "Model", "generate", "tokenize", "detokenize"]

try:  # optional
    import numpy as _np
except ImportError:  # pragma: no cover - depends on the machine
    _np = None


class WgcError(RuntimeError):
    """No usable Vulkan loader, driver or adapter, or a WGC_* variable with an unusable value."""


_state = {"instance": None, "devices": {}, "select": None}
# The runtime's rule is one thread at a time per device (doc/gpu.md) and ctypes lets go of the GIL
# in every C call: the package's calls take this lock.
_lock = threading.RLock()

MAX_RUNS = 1000000          # repeat and warmup, as `wgc profile` caps them
U32, U64 = 2**32, 2**64


def _locked(fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        with _lock:
            return fn(*args, **kwargs)
    return call


def _int(name, value, lo, hi):
    """value as an int in [lo, hi]: an int (or numpy integer), not a bool, a float or a str."""
    try:
        if isinstance(value, bool):
            raise TypeError
        value = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, got %s %r" % (name, type(value).__name__, value)) from None
    if not lo <= value <= hi:
        raise ValueError("%s must be in [%d, %d], got %d" % (name, lo, hi, value))
    return value


def _config(select=None):
    """The WGC_* variables mapped onto the runtime's descriptors (wg_config_from_env), under an
    explicit adapter selection: (strings, instance desc, adapter options, device desc).  The
    descriptors point into strings: keep the tuple while they are used."""
    strings, err = _lib.EnvStrings(), _lib.Error()
    inst, dev = _lib.InstanceDesc(label=b"python"), _lib.DeviceDesc(label=b"python")
    opt = _lib.AdapterOptions(b"python", 0, select.encode() if select else None)
    if not _lib.lib.wg_config_from_env(ctypes.byref(strings), ctypes.byref(inst), ctypes.byref(opt),
                                       ctypes.byref(dev), ctypes.byref(err)):
        raise WgcError(err.message.decode(errors="replace"))
    return strings, inst, opt, dev


def _instance():
    if _state["instance"] is None:
        err = _lib.Error()
        cfg = _config()
        inst = _lib.lib.wg_instance_create(ctypes.byref(cfg[1]), ctypes.byref(err))
        if not inst:
            raise WgcError(err.message.decode(errors="replace"))
        _state["instance"] = inst
    return _state["instance"]


def _adapter(cfg):
    err = _lib.Error()
    ad = _lib.lib.wg_instance_request_adapter(_instance(), ctypes.byref(cfg[2]), ctypes.byref(err))
    if not ad:
        raise WgcError(err.message.decode(errors="replace"))
    return ad


def _key(adapter):
    sel = _state["select"] if adapter is None else str(adapter)
    return sel, sel or ""


def _device(adapter):
    """The device of an adapter selection, with every feature the adapter has (f16, subgroups,
    timestamps, the driver's pipeline statistics)."""
    sel, key = _key(adapter)
    dev = _state["devices"].get(key)
    if dev is None:
        cfg = _config(sel)
        ad = _adapter(cfg)
        desc = cfg[3]
        desc.required_features = sum(1 << f for f in range(1, 64) if _lib.lib.wg_adapter_has_feature(ad, f))
        err = _lib.Error()
        dev = _lib.lib.wg_adapter_create_device(ad, ctypes.byref(desc), ctypes.byref(err))
        if not dev:
            raise WgcError(err.message.decode(errors="replace"))
        _state["devices"][key] = dev
    return dev


def _forget(key):
    """Drops a lost device and the package's instance: the next call makes new ones.  A new device
    of the old instance could wait behind the runaway work (lavapipe runs an instance's kernels on
    one thread pool and cannot stop them: doc/gpu.md); a new instance gets its own threads.
    Releasing returns at once: the runtime leaks a device lost by timeout rather than wait."""
    dev = _state["devices"].pop(key, None)
    if dev:
        _lib.lib.wg_device_release(dev)
    if _state["instance"] is not None:
        _lib.lib.wg_instance_release(_state["instance"])
        _state["instance"] = None


@_locked
def close():
    """Releases every device and the instance (done at exit anyway).  Returns at once, also after
    a lost device whose kernel still runs."""
    from . import llm
    llm._close_all()   # their tensor contexts live on the devices
    for dev in _state["devices"].values():
        _lib.lib.wg_device_release(dev)
    _state["devices"].clear()
    if _state["instance"] is not None:
        _lib.lib.wg_instance_release(_state["instance"])
        _state["instance"] = None


atexit.register(close)


@_locked
def list_adapters():
    """Every Vulkan adapter as a dict (the `wgc info --json` fields: index, default, name, type,
    vendor, driverName, subgroupMinSize, subgroupMaxSize, features, limits, ...)."""
    inst = _instance()
    cfg = _config()  # "default": $WGC_ADAPTER, else the best, as `wgc info --json` marks it
    n = _lib.lib.wg_instance_adapters_json(inst, ctypes.byref(cfg[2]), None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    _lib.lib.wg_instance_adapters_json(inst, ctypes.byref(cfg[2]), buf, n + 1)
    return json.loads(buf.value.decode())["adapters"]


@_locked
def select_adapter(adapter):
    """Makes `adapter` (index, or a name substring; None: $WGC_ADAPTER, else the best one) the
    default of the calls below and returns its dict from list_adapters()."""
    specs = get_device_specs(adapter)
    _state["select"] = None if adapter is None else str(adapter)
    return specs


def _adapter_index(adapter):
    inst = _instance()
    ad = _adapter(_config(_state["select"] if adapter is None else str(adapter)))
    for i in range(_lib.lib.wg_instance_adapter_count(inst)):
        if _lib.lib.wg_instance_get_adapter(inst, i) == ad:
            return i
    raise WgcError("adapter %r not in the list" % (adapter,))


@_locked
def get_device_specs(adapter=None):
    """The adapter's specs: the list_adapters() dict plus CUDA-minded aliases:
    warp_size (= the subgroup size; the largest when the adapter has a range),
    subgroup_sizes (min, max), max_threads_per_block, max_shared_memory_per_block,
    max_block_dims, max_grid_dim, features (list) and limits (dict, WebGPU names)."""
    d = dict(list_adapters()[_adapter_index(adapter)])
    lim = d["limits"]
    d["subgroup_sizes"] = (d["subgroupMinSize"], d["subgroupMaxSize"])
    d["warp_size"] = d["subgroupMaxSize"]
    d["max_threads_per_block"] = lim["maxComputeInvocationsPerWorkgroup"]
    d["max_shared_memory_per_block"] = lim["maxComputeWorkgroupStorageSize"]
    d["max_block_dims"] = (lim["maxComputeWorkgroupSizeX"], lim["maxComputeWorkgroupSizeY"],
                           lim["maxComputeWorkgroupSizeZ"])
    d["max_grid_dim"] = lim["maxComputeWorkgroupsPerDimension"]
    return d


def validate_kernel(code, filename="kernel.wgsl", device=False, adapter=None):
    """Compiles WGSL with wgc's compiler (parse, checks and SPIR-V generation).  Returns
    (ok, message): message holds every diagnostic as "file:line:col: error: ..." with the source
    line and a caret ("" when there are none; warnings may come with ok True).

    device=False needs no GPU.  device=True (or an adapter given) also checks the kernel against
    that adapter: `enable f16;` / `enable subgroups;` need the features, and each compute entry
    point's workgroup size and workgroup memory must fit the limits (maxComputeWorkgroupSizeX/Y/Z,
    maxComputeInvocationsPerWorkgroup, maxComputeWorkgroupStorageSize)."""
    if isinstance(code, str):
        code = code.encode()
    if not isinstance(code, (bytes, bytearray)):
        raise TypeError("code must be str or bytes")
    specs = get_device_specs(adapter) if device or adapter is not None else None
    opt = _lib.WgslOptions(label=b"validate_kernel", filename=str(filename).encode())
    if specs is not None:
        opt.no_f16 = "shader-f16" not in specs["features"]
        opt.no_subgroups = "subgroups" not in specs["features"]
    r = _lib.lib.wgsl_compile(bytes(code), len(code), ctypes.byref(opt))
    if not r:
        raise MemoryError("wgsl_compile: out of memory")
    try:
        text = (_lib.lib.wgsl_result_text(r) or b"").decode(errors="replace")
        res = r.contents
        ok = bool(res.ok)
        if ok and specs is not None:
            lim, extra = specs["limits"], []
            for i in range(res.entry_point_count):
                ep = res.entry_points[i]
                if ep.stage != _lib.WGSL_STAGE_COMPUTE:
                    continue
                name, wg = ep.name.decode(), tuple(ep.workgroup_size)
                where = "%s: error: entry point '%s': " % (filename, name)
                for d, key in enumerate(("maxComputeWorkgroupSizeX", "maxComputeWorkgroupSizeY",
                                         "maxComputeWorkgroupSizeZ")):
                    if wg[d] > lim[key]:
                        extra.append(where + "workgroup size %s is %d, above %s %d on %s"
                                     % ("xyz"[d], wg[d], key, lim[key], specs["name"]))
                inv = wg[0] * wg[1] * wg[2]
                if inv > lim["maxComputeInvocationsPerWorkgroup"]:
                    extra.append(where + "workgroup size %dx%dx%d = %d invocations, above "
                                 "maxComputeInvocationsPerWorkgroup %d on %s"
                                 % (wg + (inv, lim["maxComputeInvocationsPerWorkgroup"], specs["name"])))
                if ep.workgroup_memory_bytes > lim["maxComputeWorkgroupStorageSize"]:
                    extra.append(where + "%d bytes of workgroup memory, above maxComputeWorkgroupStorageSize %d on %s"
                                 % (ep.workgroup_memory_bytes, lim["maxComputeWorkgroupStorageSize"], specs["name"]))
            if extra:
                ok = False
                text += "".join(e + "\n" for e in extra)
        return ok, text
    finally:
        _lib.lib.wgsl_result_free(r)


def _parse_key(key):
    bad = ValueError("binding key %r: use (group, binding), 'G:B' or a binding number (group 0)" % (key,))
    if isinstance(key, str):
        parts = key.split(":")
        if not 1 <= len(parts) <= 2 or not all(p.strip().isdigit() for p in parts):
            raise bad
        key = tuple(int(p) for p in parts) if len(parts) == 2 else int(parts[0])
    if isinstance(key, tuple):
        if len(key) != 2:
            raise bad
        return _int("binding key group", key[0], 0, U32 - 1), _int("binding key binding", key[1], 0, U32 - 1)
    if isinstance(key, bool) or not isinstance(key, numbers.Integral):
        raise bad
    return 0, _int("binding key", key, 0, U32 - 1)


def _host(value):
    """(ctypes buffer to upload or None, size, how to rebuild the output)."""
    if _np is not None and isinstance(value, _np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("a numpy array of dtype %s holds Python objects, not numbers: it cannot be a GPU buffer"
                            % value.dtype)
        if value.nbytes == 0:
            raise ValueError("empty buffer (numpy array of shape %s)" % (value.shape,))
        arr = _np.ascontiguousarray(value)
        raw = ctypes.create_string_buffer(arr.tobytes(), arr.nbytes)
        return raw, arr.nbytes, ("numpy", arr.dtype, arr.shape)
    if isinstance(value, bool):
        raise TypeError("a buffer cannot be a bool")
    if isinstance(value, numbers.Integral):
        size = int(value)
        if size <= 0:
            raise ValueError("buffer size must be positive, got %d" % size)
        if size >= U64:
            raise ValueError("buffer size %d does not fit in 64 bits" % size)
        return None, size, ("bytes",)
    if isinstance(value, str):
        raise TypeError("buffer %r: a str is not bytes (encode it, or give an array or a size)" % value[:20])
    try:
        mv = memoryview(value).cast("B")
    except TypeError:
        raise TypeError("buffer %r: give a numpy array, a bytes-like object or a size in bytes" % type(value))
    if len(mv) == 0:
        raise ValueError("empty buffer")
    raw = ctypes.create_string_buffer(mv.tobytes(), len(mv))
    return raw, len(mv), ("bytes",)


def _rebuild(kind, raw):
    data = raw.raw
    if kind[0] == "numpy":
        return _np.frombuffer(data, dtype=kind[1]).reshape(kind[2]).copy()
    return data


@_locked
def profile_kernel(code, entry, dispatch, buffers, repeat=100, warmup=10, overrides=None, adapter=None,
                   wall_clock=False, filename="kernel.wgsl", no_bounds_checks=False):
    """Runs entry point `entry` (None: the only one) of WGSL `code` with `dispatch` workgroups
    (int or up to 3 ints) on `buffers` ({key: value}, key (group, binding) | "G:B" | binding, value
    a numpy array | bytes-like | size in bytes), warmup + repeat times, and returns a dict:

      ok, entry_point, workgroup_size, compile_ms, pipeline_ms, pipeline_cache_hit,
      timer ("timestamp": GPU timestamp queries, or "wall": host submit+wait), runs,
      min_ns, median_ns, max_ns, mean_ns, stddev_ns, spread_percent ((max-min)/median),
      samples_ns (every timed run), wall_ms, outputs ({key: contents after all runs}),
      driver_statistics ({name: value}: the driver's figures for the pipeline, registers, spills,
      ..., where the adapter reports them (the pipeline-statistics feature), else {}).

    A kernel that fails to compile or a GPU error gives ok False with error (an id such as
    "WG_ERR_WGSL_COMPILE"), message and diagnostics.  overrides: {name or @id: number}.
    no_bounds_checks: compile without index clamping (unsafe; shows what the checks cost)."""
    if isinstance(code, str):
        code = code.encode()
    if not isinstance(code, (bytes, bytearray)):
        raise TypeError("code must be str or bytes, got %s" % type(code).__name__)
    if entry is not None and not isinstance(entry, str):
        raise TypeError("entry must be a str or None, got %s" % type(entry).__name__)
    if not isinstance(filename, str):
        raise TypeError("filename must be a str, got %s" % type(filename).__name__)
    if isinstance(dispatch, (str, bytes, bytearray)):
        raise TypeError("dispatch must be an int or up to 3 ints, got %s %r" % (type(dispatch).__name__, dispatch))
    if isinstance(dispatch, numbers.Integral) or (_np is not None and isinstance(dispatch, _np.integer)):
        dispatch = (dispatch,)
    try:
        dispatch = tuple(dispatch)
    except TypeError:
        raise TypeError("dispatch must be an int or up to 3 ints, got %s" % type(dispatch).__name__) from None
    if not 1 <= len(dispatch) <= 3:
        raise ValueError("dispatch: 1 to 3 workgroup counts, got %d" % len(dispatch))
    dispatch = tuple(_int("dispatch[%d]" % i, d, 0, U32 - 1) for i, d in enumerate(dispatch))
    dispatch = dispatch + (1,) * (3 - len(dispatch))
    repeat = _int("repeat", repeat, 1, MAX_RUNS)
    warmup = _int("warmup", warmup, 0, MAX_RUNS)
    if not isinstance(buffers, dict):
        raise TypeError("buffers must be a dict {(group, binding): array | bytes | size}")
    if overrides is not None and not isinstance(overrides, dict):
        raise TypeError("overrides must be a dict {name or @id: number}")
    ovs = []
    for k, v in (overrides or {}).items():
        if not isinstance(k, (str, numbers.Integral)) or isinstance(k, bool):
            raise TypeError("override name %r: a str or an @id int" % (k,))
        if not isinstance(v, numbers.Real):
            raise TypeError("override %r: the value must be a number, got %s %r" % (k, type(v).__name__, v))
        ovs.append((str(k).encode(), float(v)))
    keys, binds, keep, kinds, backs = [], [], [], [], []
    seen = set()
    for key, value in buffers.items():
        gb = _parse_key(key)
        if gb in seen:
            raise ValueError("binding %d:%d given twice" % gb)
        seen.add(gb)
        raw, size, kind = _host(value)
        back = ctypes.create_string_buffer(size)
        keys.append(key)
        kinds.append(kind)
        backs.append(back)
        keep.append(raw)
        binds.append(_lib.KernelBinding(gb[0], gb[1], size, ctypes.cast(raw, ctypes.c_void_p) if raw is not None
                                        else None, ctypes.cast(back, ctypes.c_void_p)))
    bind_arr = (_lib.KernelBinding * max(1, len(binds)))(*binds)
    ov_arr = (_lib.KernelOverride * max(1, len(ovs)))(*[_lib.KernelOverride(n, v) for n, v in ovs])
    ns = (ctypes.c_uint64 * repeat)()
    desc = _lib.KernelRunDesc(label=b"python", wgsl=bytes(code), wgsl_length=len(code),
                              filename=filename.encode(), entry_point=entry.encode() if entry else None,
                              dispatch=(ctypes.c_uint32 * 3)(*dispatch), overrides=ov_arr,
                              override_count=len(ovs), bindings=bind_arr, binding_count=len(binds),
                              warmup=warmup, repeat=repeat, gpu_ns=ns, wall_clock=bool(wall_clock),
                              no_bounds_checks=bool(no_bounds_checks))
    res = _lib.KernelRunResult()
    dev = _device(adapter)
    status = _lib.lib.wg_device_run_kernel(dev, ctypes.byref(desc), ctypes.byref(res))
    if _lib.lib.wg_device_is_lost(dev):
        _forget(_key(adapter)[1])
    out = {"ok": status == 0, "entry_point": res.entry_point.decode(), "workgroup_size": tuple(res.workgroup_size),
           "compile_ms": res.compile_ms, "pipeline_ms": res.pipeline_ms,
           "pipeline_cache_hit": bool(res.pipeline_cache_hit), "diagnostics": res.diagnostics.decode(errors="replace")}
    if status != 0:
        out.update(error=(_lib.lib.wg_error_id_name(res.error.id) or b"").decode(),
                   message=res.error.message.decode(errors="replace"))
        return out
    med = res.median_ns
    out.update(timer="timestamp" if res.timestamps else "wall", runs=res.runs, warmup=warmup,
               min_ns=res.min_ns, median_ns=med, max_ns=res.max_ns, mean_ns=res.mean_ns, stddev_ns=res.stddev_ns,
               spread_percent=(res.max_ns - res.min_ns) / med * 100 if med > 0 else 0.0,
               samples_ns=list(ns), wall_ms=res.wall_ms,
               driver_statistics={s.name.decode(errors="replace"): s.value
                                  for s in res.statistics[:min(res.statistic_count, 16)]},
               outputs={k: _rebuild(kind, back) for k, kind, back in zip(keys, kinds, backs)})
    return out


def run_kernel(code, entry, dispatch, buffers, overrides=None, adapter=None):
    """Runs the kernel once; returns profile_kernel's dict (outputs hold the results)."""
    return profile_kernel(code, entry, dispatch, buffers, repeat=1, warmup=0, overrides=overrides, adapter=adapter)


from .llm import Tokenizer, Model, generate, tokenize, detokenize  # noqa: E402 (needs the names above)
