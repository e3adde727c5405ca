"""ctypes declarations of the part of libwgc.so the package uses.

The library is found, in order, at $WGC_LIB; ../../build/libwgc.so from the package (a source
checkout after `make`); ../../../libwgc.so.0 from the package (installed by `make install` under
PREFIX/lib/wgc/python/wgc); then by the system's library search (libwgc.so.0).  The structs
below mirror include/wgc/gpu.h field for field; tests/python/test_wgc.py checks their sizes against the
headers with the C compiler.
"""
import ctypes
import ctypes.util
import os

_here = os.path.dirname(os.path.abspath(__file__))


class Error(ctypes.Structure):            # wg_error
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int), ("message", ctypes.c_char * 512)]


class Allocator(ctypes.Structure):        # wg_allocator (NULL: libc)
    _fields_ = [("alloc", ctypes.c_void_p), ("realloc", ctypes.c_void_p), ("free", ctypes.c_void_p),
                ("user", ctypes.c_void_p)]


class InstanceDesc(ctypes.Structure):     # wg_instance_desc
    _fields_ = [("label", ctypes.c_char_p), ("allocator", Allocator), ("vulkan_library", ctypes.c_char_p),
                ("validation", ctypes.c_int)]


class EnvStrings(ctypes.Structure):       # wg_env_strings
    _fields_ = [("vulkan_library", ctypes.c_char * 1024), ("adapter", ctypes.c_char * 256),
                ("cache_dir", ctypes.c_char * 1024)]


class AdapterOptions(ctypes.Structure):   # wg_adapter_options
    _fields_ = [("label", ctypes.c_char_p), ("power_preference", ctypes.c_int), ("select", ctypes.c_char_p)]


class DeviceDesc(ctypes.Structure):       # wg_device_desc (callbacks stay NULL)
    _fields_ = [("label", ctypes.c_char_p), ("required_features", ctypes.c_uint64),
                ("required_limits", ctypes.c_void_p), ("uncaptured_error", ctypes.c_void_p),
                ("uncaptured_error_user", ctypes.c_void_p), ("device_lost", ctypes.c_void_p),
                ("device_lost_user", ctypes.c_void_p), ("lost_timeout_ms", ctypes.c_uint32),
                ("memory_block_size", ctypes.c_uint64), ("staging_size", ctypes.c_uint64),
                ("cache_dir", ctypes.c_char_p), ("copy_engine", ctypes.c_int), ("device_memory", ctypes.c_int)]


class KernelBinding(ctypes.Structure):    # wg_kernel_binding
    _fields_ = [("group", ctypes.c_uint32), ("binding", ctypes.c_uint32), ("size", ctypes.c_uint64),
                ("data", ctypes.c_void_p), ("readback", ctypes.c_void_p)]


class KernelOverride(ctypes.Structure):   # wg_kernel_override
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_double)]


class KernelRunDesc(ctypes.Structure):    # wg_kernel_run_desc
    _fields_ = [("label", ctypes.c_char_p), ("wgsl", ctypes.c_char_p), ("wgsl_length", ctypes.c_size_t),
                ("filename", ctypes.c_char_p), ("entry_point", ctypes.c_char_p),
                ("dispatch", ctypes.c_uint32 * 3),
                ("overrides", ctypes.POINTER(KernelOverride)), ("override_count", ctypes.c_uint32),
                ("bindings", ctypes.POINTER(KernelBinding)), ("binding_count", ctypes.c_uint32),
                ("warmup", ctypes.c_uint32), ("repeat", ctypes.c_uint32),
                ("gpu_ns", ctypes.POINTER(ctypes.c_uint64)), ("wall_clock", ctypes.c_bool),
                ("no_bounds_checks", ctypes.c_bool)]


class PipelineStatistic(ctypes.Structure):  # wg_pipeline_statistic
    _fields_ = [("name", ctypes.c_char * 64), ("description", ctypes.c_char * 256), ("integer", ctypes.c_bool),
                ("value", ctypes.c_double)]


class KernelRunResult(ctypes.Structure):  # wg_kernel_run_result
    _fields_ = [("error", Error), ("diagnostics", ctypes.c_char * 8192),
                ("workgroup_size", ctypes.c_uint32 * 3), ("entry_point", ctypes.c_char * 64),
                ("compile_ms", ctypes.c_double), ("pipeline_ms", ctypes.c_double),
                ("pipeline_cache_hit", ctypes.c_bool), ("timestamps", ctypes.c_bool), ("runs", ctypes.c_uint32),
                ("min_ns", ctypes.c_double), ("median_ns", ctypes.c_double), ("max_ns", ctypes.c_double),
                ("mean_ns", ctypes.c_double), ("stddev_ns", ctypes.c_double), ("wall_ms", ctypes.c_double),
                ("statistic_count", ctypes.c_uint32), ("statistics", PipelineStatistic * 16)]


class WgslOptions(ctypes.Structure):     # wgsl_options (include/wgc/wgsl.h)
    _fields_ = [("label", ctypes.c_char_p), ("filename", ctypes.c_char_p),
                ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p), ("user", ctypes.c_void_p),
                ("target_env", ctypes.c_int), ("no_bounds_checks", ctypes.c_bool), ("check_only", ctypes.c_bool),
                ("parse_only", ctypes.c_bool), ("overrides", ctypes.c_void_p), ("override_count", ctypes.c_uint32),
                ("max_errors", ctypes.c_uint32), ("max_nesting", ctypes.c_uint32), ("no_f16", ctypes.c_bool),
                ("no_subgroups", ctypes.c_bool)]


class WgslEntryPoint(ctypes.Structure):  # wgsl_entry_point
    _fields_ = [("name", ctypes.c_char_p), ("stage", ctypes.c_int), ("workgroup_size", ctypes.c_uint32 * 3),
                ("workgroup_size_override", ctypes.c_int32 * 3), ("workgroup_memory_bytes", ctypes.c_uint32)]


class WgslResult(ctypes.Structure):      # wgsl_result (read only)
    _fields_ = [("ok", ctypes.c_bool), ("diagnostics", ctypes.c_void_p), ("diagnostic_count", ctypes.c_uint32),
                ("error_count", ctypes.c_uint32), ("warning_count", ctypes.c_uint32),
                ("spirv", ctypes.c_void_p), ("spirv_word_count", ctypes.c_size_t),
                ("entry_points", ctypes.POINTER(WgslEntryPoint)), ("entry_point_count", ctypes.c_uint32),
                ("bindings", ctypes.c_void_p), ("binding_count", ctypes.c_uint32),
                ("overrides", ctypes.c_void_p), ("override_count", ctypes.c_uint32)]


WGSL_STAGE_COMPUTE = 1

# name -> (ctypes struct, C type): test_python.py compares the sizes with the C compiler's.
STRUCTS = {"Error": (Error, "wg_error"), "AdapterOptions": (AdapterOptions, "wg_adapter_options"),
           "InstanceDesc": (InstanceDesc, "wg_instance_desc"), "EnvStrings": (EnvStrings, "wg_env_strings"),
           "DeviceDesc": (DeviceDesc, "wg_device_desc"),
           "KernelBinding": (KernelBinding, "wg_kernel_binding"), "KernelOverride": (KernelOverride, "wg_kernel_override"),
           "KernelRunDesc": (KernelRunDesc, "wg_kernel_run_desc"),
           "KernelRunResult": (KernelRunResult, "wg_kernel_run_result"), "WgslOptions": (WgslOptions, "wgsl_options"),
           "PipelineStatistic": (PipelineStatistic, "wg_pipeline_statistic"),
           "WgslEntryPoint": (WgslEntryPoint, "wgsl_entry_point"), "WgslResult": (WgslResult, "wgsl_result")}


def _candidates():
    env = os.environ.get("WGC_LIB")
    if env:
        yield env
    yield os.path.join(_here, "..", "..", "build", "libwgc.so")
    yield os.path.join(_here, "..", "..", "..", "libwgc.so.0")
    found = ctypes.util.find_library("wgc")
    if found:
        yield found
    yield "libwgc.so.0"


def _load():
    errors = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise OSError("libwgc.so not found (build it with `make`, install with `make install`, or set WGC_LIB): "
                  + "; ".join(errors))


lib = _load()
_vp, _sz, _cp = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p
for _name, _res, _args in [
    ("wg_config_from_env", ctypes.c_bool, [ctypes.POINTER(EnvStrings), ctypes.POINTER(InstanceDesc),
                                           ctypes.POINTER(AdapterOptions), ctypes.POINTER(DeviceDesc),
                                           ctypes.POINTER(Error)]),
    ("wg_instance_create", _vp, [ctypes.POINTER(InstanceDesc), ctypes.POINTER(Error)]),
    ("wg_instance_release", None, [_vp]),
    ("wg_instance_adapter_count", _sz, [_vp]),
    ("wg_instance_get_adapter", _vp, [_vp, _sz]),
    ("wg_instance_request_adapter", _vp, [_vp, ctypes.POINTER(AdapterOptions), ctypes.POINTER(Error)]),
    ("wg_instance_adapters_json", _sz, [_vp, ctypes.POINTER(AdapterOptions), _cp, _sz]),
    ("wg_adapter_has_feature", ctypes.c_bool, [_vp, ctypes.c_int]),
    ("wg_adapter_create_device", _vp, [_vp, ctypes.POINTER(DeviceDesc), ctypes.POINTER(Error)]),
    ("wg_device_release", None, [_vp]),
    ("wg_device_get_adapter", _vp, [_vp]),
    ("wg_device_is_lost", ctypes.c_bool, [_vp]),
    ("wg_device_run_kernel", ctypes.c_int, [_vp, ctypes.POINTER(KernelRunDesc), ctypes.POINTER(KernelRunResult)]),
    ("wg_error_id_name", _cp, [ctypes.c_int]),
    ("wgsl_compile", ctypes.POINTER(WgslResult), [_cp, _sz, ctypes.POINTER(WgslOptions)]),
    ("wgsl_result_text", _cp, [ctypes.POINTER(WgslResult)]),
    ("wgsl_result_json", _cp, [ctypes.POINTER(WgslResult)]),
    ("wgsl_result_free", None, [ctypes.POINTER(WgslResult)]),
]:
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args


# ---- include/wgc/llm.h (wl) and the few wt calls the engine needs: python/wgc/llm.py ----------
class WlError(ctypes.Structure):          # wl_error
    _fields_ = [("status", ctypes.c_int), ("message", ctypes.c_char * 320)]


class WlEngineDesc(ctypes.Structure):     # wl_engine_desc
    _fields_ = [("label", ctypes.c_char_p), ("n_ctx", ctypes.c_uint32), ("n_seq", ctypes.c_uint32),
                ("cache_type", ctypes.c_int)]


class WlEngineInfo(ctypes.Structure):     # wl_engine_info
    _fields_ = [("arch", ctypes.c_char * 32)] + [(n, ctypes.c_uint32) for n in (
        "n_vocab", "n_embd", "n_layer", "n_head", "n_head_kv", "head_dim", "n_ff", "rope_dims", "n_ctx",
        "n_seq")] + [("cache_type", ctypes.c_int), ("rope_base", ctypes.c_double), ("rms_eps", ctypes.c_double),
                     ("rope_layout", ctypes.c_int), ("rope_host", ctypes.c_bool), ("tied", ctypes.c_bool),
                     ("bos", ctypes.c_int32), ("eos", ctypes.c_int32), ("weight_bytes", ctypes.c_uint64),
                     ("kv_bytes", ctypes.c_uint64)]


class WlSamplerDesc(ctypes.Structure):    # wl_sampler_desc
    _fields_ = [("temperature", ctypes.c_float), ("top_k", ctypes.c_uint32), ("top_p", ctypes.c_float),
                ("min_p", ctypes.c_float), ("repeat_penalty", ctypes.c_float), ("repeat_last_n", ctypes.c_uint32),
                ("seed", ctypes.c_uint64)]


class WlDetok(ctypes.Structure):          # wl_detok (caller-owned streaming state)
    _fields_ = [("tok", ctypes.c_void_p), ("flags", ctypes.c_uint32), ("pending", ctypes.c_ubyte * 4),
                ("npending", ctypes.c_uint32), ("at_start", ctypes.c_bool)]


class WlSpecialTokens(ctypes.Structure):  # wl_special_tokens
    _fields_ = [(n, ctypes.c_int32) for n in ("bos", "eos", "eot", "eom", "unk", "pad", "sep")] + [
        ("add_bos", ctypes.c_bool), ("add_eos", ctypes.c_bool), ("add_space_prefix", ctypes.c_bool)]


WL_OK = 0
WL_TOKENIZE_PARSE_SPECIAL, WL_TOKENIZE_ADD_SPECIAL = 1, 2
WL_DETOK_SPECIAL, WL_DETOK_STRIP_SPACE = 1, 2
WL_LOGITS_LAST = 0

# Checked against the C compiler by tests/python/test_llm.py, as STRUCTS by test_wgc.py.
LLM_STRUCTS = {"WlError": (WlError, "wl_error"), "WlEngineDesc": (WlEngineDesc, "wl_engine_desc"),
               "WlEngineInfo": (WlEngineInfo, "wl_engine_info"), "WlSamplerDesc": (WlSamplerDesc, "wl_sampler_desc"),
               "WlDetok": (WlDetok, "wl_detok"), "WlSpecialTokens": (WlSpecialTokens, "wl_special_tokens")}

_E = ctypes.POINTER(WlError)
_i32p = ctypes.POINTER(ctypes.c_int32)
for _name, _res, _args in [
    ("wt_context_create", _vp, [_vp, _vp]),
    ("wt_context_destroy", None, [_vp]),
    ("wt_dtype_name", _cp, [ctypes.c_int]),
    ("wl_model_open", _vp, [_cp, _vp, _E]),
    ("wl_model_close", None, [_vp]),
    ("wl_tokenizer_open", _vp, [_vp, _vp, _E]),
    ("wl_tokenizer_close", None, [_vp]),
    ("wl_tokenizer_vocab_size", ctypes.c_uint32, [_vp]),
    ("wl_tokenizer_special", ctypes.POINTER(WlSpecialTokens), [_vp]),
    ("wl_tokenize", ctypes.c_int, [_vp, _cp, _sz, ctypes.c_uint32, _i32p, _sz, ctypes.POINTER(_sz), _E]),
    ("wl_detok_init", None, [ctypes.POINTER(WlDetok), _vp, ctypes.c_uint32]),
    ("wl_detok_cap", _sz, [_vp]),
    ("wl_detok_push", ctypes.c_int, [ctypes.POINTER(WlDetok), ctypes.c_int32, _vp, _sz, ctypes.POINTER(_sz)]),
    ("wl_detok_flush", ctypes.c_int, [ctypes.POINTER(WlDetok), _vp, _sz, ctypes.POINTER(_sz)]),
    ("wl_engine_create", _vp, [_vp, _vp, ctypes.POINTER(WlEngineDesc), _E]),
    ("wl_engine_release", None, [_vp]),
    ("wl_engine_get_info", ctypes.POINTER(WlEngineInfo), [_vp]),
    ("wl_engine_eval", ctypes.c_int, [_vp, ctypes.c_uint32, _i32p, ctypes.c_uint32, ctypes.c_int, _E]),
    ("wl_engine_pos", ctypes.c_uint32, [_vp, ctypes.c_uint32]),
    ("wl_engine_truncate", ctypes.c_int, [_vp, ctypes.c_uint32, ctypes.c_uint32, _E]),
    ("wl_sampler_create", _vp, [ctypes.POINTER(WlSamplerDesc), _E]),
    ("wl_sampler_release", None, [_vp]),
    ("wl_sampler_accept", None, [_vp, ctypes.c_int32]),
    ("wl_sampler_sample", ctypes.c_int, [_vp, _vp, ctypes.c_uint32, _i32p, _E]),
    ("wl_stop_create", _vp, [ctypes.POINTER(_cp), _vp, _sz, _E]),
    ("wl_stop_release", None, [_vp]),
    ("wl_stop_cap", _sz, [_vp, _sz]),
    ("wl_stop_push", ctypes.c_int, [_vp, _vp, _sz, _vp, _sz, ctypes.POINTER(_sz), ctypes.POINTER(ctypes.c_int)]),
    ("wl_stop_flush", ctypes.c_int, [_vp, _vp, _sz, ctypes.POINTER(_sz)]),
]:
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

DTYPE = {}   # "f32" / "f16" -> the wt_dtype code, from the library's own names
for _code in range(1, 64):
    _n = lib.wt_dtype_name(_code)
    if _n in (b"?", None):
        break
    DTYPE[_n.decode()] = _code
