/* shader.c - shader modules from SPIR-V words, with reflection read from the SPIR-V itself:
 * GLCompute entry points, their workgroup size (LocalSize, LocalSizeId or a WorkgroupSize
 * built-in constant) and the buffer resources (group, binding, storage / read-only storage /
 * uniform).  That is all an automatic pipeline layout needs.
 *
 * Which entry point uses which resource: from SPIR-V 1.4 on the entry point's interface lists
 * every global it uses; before that (SPIR-V 1.3, wgsl's Vulkan 1.1 target) the entry point's
 * static use is computed here: the functions reachable from it through OpFunctionCall, and the
 * resource variables their instructions name (any operand word equal to a resource variable's
 * id counts, so a literal that happens to equal one can only add a binding: a superset, as
 * WebGPU allows for layouts).  The parser checks the header and that instructions tile the
 * words exactly; deeper validity is the driver's (and spirv-val's) business.
 *
 * Workgroup storage: the Workgroup variables an entry point uses (found the same way), each
 * counted as WebGPU counts it, roundUp(16, size), with sizes and alignments by the layout rules
 * Vulkan bounds shared memory with (std430; a bool as 4 bytes); pipeline.c checks the sum against
 * maxComputeWorkgroupStorageSize.  A type this cannot size (an array whose length is not a
 * constant, a malformed chain of types) counts as 0 and is left to the driver.  An entry point
 * whose functions name a cooperative matrix type of workgroup scope (VK_NV_cooperative_matrix2)
 * is marked: the driver keeps part of that limit for itself.
 *
 * WGSL source (desc.wgsl) goes through wgc's own compiler (include/wgc/wgsl.h) with the device's
 * allocator and features; its diagnostics become the WG_ERR_WGSL_COMPILE message. */
#include <stdio.h>

#include "gpu/internal.h"
#include "wgc/wgsl.h"

enum {
    OP_ENTRY_POINT = 15, OP_EXECUTION_MODE = 16, OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23, OP_TYPE_MATRIX = 24, OP_TYPE_ARRAY = 28, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43, OP_CONSTANT_COMPOSITE = 44, OP_SPEC_CONSTANT = 50, OP_SPEC_CONSTANT_COMPOSITE = 51,
    OP_VARIABLE = 59,
    OP_DECORATE = 71, OP_MEMBER_DECORATE = 72, OP_EXECUTION_MODE_ID = 331, OP_FUNCTION = 54, OP_FUNCTION_END = 56,
    OP_FUNCTION_CALL = 57, OP_TYPE_COOP_MATRIX = 4456,
    DEC_BLOCK = 2, DEC_BUFFER_BLOCK = 3, DEC_BUILTIN = 11, DEC_NON_WRITABLE = 24, DEC_BINDING = 33, DEC_SET = 34,
    BUILTIN_WORKGROUP_SIZE = 25, MODE_LOCAL_SIZE = 17, MODE_LOCAL_SIZE_ID = 38, MODEL_GLCOMPUTE = 5,
    SC_UNIFORM = 2, SC_WORKGROUP = 4, SC_STORAGE_BUFFER = 12,
};

typedef struct id_info {
    uint32_t set, binding, pointee, storage, members, nonwritable_members, value;
    uint32_t comp[3];
    uint32_t func_at;    /* OpFunction: word index of its first instruction + 1 (0: not a function) */
    uint32_t type_at;    /* a type the storage size needs (bool, int, float, vector, matrix, array,
                          * struct): word index of its instruction + 1 */
    uint64_t size, align; /* type_size's result, once `sized` is 2 (1: being sized) */
    uint32_t visit;      /* static use: entry point index + 1 that last reached this function / variable */
    uint8_t has_set, has_binding, nonwritable, block, buffer_block, is_var, is_ptr, is_const, wgsize, sized;
    uint8_t wgm;         /* a cooperative matrix type of workgroup scope */
} id_info;

static bool is_resource(const id_info *v) {
    return v->is_var && (v->storage == SC_STORAGE_BUFFER || v->storage == SC_UNIFORM);
}

static bool is_workgroup(const id_info *v) {
    return v->is_var && v->storage == SC_WORKGROUP;
}

static uint64_t round_up(uint64_t x, uint64_t a) {
    return a ? (x + a - 1) / a * a : x;
}

#define SIZE_CAP (1ull << 40)   /* past every workgroup storage limit; operands stay below it */

static uint64_t cap_mul(uint64_t a, uint64_t b) {
    return a && b > SIZE_CAP / a ? SIZE_CAP : a * b < SIZE_CAP ? a * b : SIZE_CAP;
}

static uint64_t type_size_of(const uint32_t *w, id_info *ids, uint32_t bound, const uint32_t *ins, uint64_t *align,
                             int depth);

/* std430 size of type t (its alignment in *align); 0 where it cannot be sized.  Each type is sized
 * once (a struct of structs of many members stays linear); `depth` bounds the recursion and a type
 * met again while being sized (a malformed module naming a type inside itself) counts as 0; sizes
 * saturate at SIZE_CAP. */
static uint64_t type_size(const uint32_t *w, id_info *ids, uint32_t bound, uint32_t t, uint64_t *align, int depth) {
    *align = 1;
    if (t >= bound || !ids[t].type_at || depth > 64 || ids[t].sized == 1)
        return 0;
    if (ids[t].sized != 2) {
        ids[t].sized = 1;
        ids[t].size = type_size_of(w, ids, bound, &w[ids[t].type_at - 1], &ids[t].align, depth);
        ids[t].sized = 2;
    }
    *align = ids[t].align;
    return ids[t].size;
}

static uint64_t type_size_of(const uint32_t *w, id_info *ids, uint32_t bound, const uint32_t *ins, uint64_t *align,
                             int depth) {
    *align = 1;
    uint32_t wc = ins[0] >> 16, op = ins[0] & 0xffff;
    uint64_t ea, es, n;
    switch (op) {
    case OP_TYPE_BOOL:
        return *align = 4;
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
        return *align = ins[2] >= 8 && ins[2] <= 64 ? ins[2] / 8 : 0;
    case OP_TYPE_VECTOR:    /* vec3: 12 bytes, aligned as vec4 */
        es = type_size(w, ids, bound, ins[2], &ea, depth + 1);
        *align = cap_mul(es, ins[3] == 3 ? 4 : ins[3]);
        return cap_mul(es, ins[3]);
    case OP_TYPE_MATRIX:    /* columns as an array of column vectors */
    case OP_TYPE_ARRAY:
        es = type_size(w, ids, bound, ins[2], &ea, depth + 1);
        if (op == OP_TYPE_MATRIX)
            n = ins[3];
        else
            n = ins[3] < bound && ids[ins[3]].is_const ? ids[ins[3]].value : 0;
        *align = ea;
        return cap_mul(round_up(es, ea), n);
    case OP_TYPE_STRUCT: {
        uint64_t off = 0, a = 1;
        for (uint32_t k = 2; k < wc; k++) {
            es = type_size(w, ids, bound, ins[k], &ea, depth + 1);
            off = round_up(off, ea) + es;
            a = ea > a ? ea : a;
            if (off >= SIZE_CAP) {
                *align = 16;
                return SIZE_CAP;
            }
        }
        *align = a;
        return round_up(off, a);
    }
    default:
        return 0;
    }
}

/* WebGPU's count of a workgroup variable: roundUp(16, its size). */
static uint64_t workgroup_bytes(const uint32_t *w, id_info *ids, uint32_t bound, const id_info *v) {
    uint64_t a;
    if (v->pointee >= bound)
        return 0;
    return round_up(type_size(w, ids, bound, ids[v->pointee].pointee, &a, 0), 16);
}

/* Marks (visit = mark) every function reachable from `fn` and every resource variable, workgroup
 * variable and workgroup-scope matrix type they name.  `stack` holds up to `cap` function ids (the
 * number of functions in the module bounds it). */
static void static_use(const uint32_t *w, size_t n, id_info *ids, uint32_t bound, uint32_t fn, uint32_t mark,
                       uint32_t *stack, size_t cap) {
    size_t sp = 0;
    if (fn >= bound || !ids[fn].func_at)
        return;
    ids[fn].visit = mark;
    stack[sp++] = fn;
    while (sp) {
        uint32_t f = stack[--sp];
        for (size_t i = ids[f].func_at - 1; i < n; i += w[i] >> 16) {
            uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
            if (op == OP_FUNCTION_END)
                break;
            for (uint32_t k = 1; k < wc; k++) {
                uint32_t id = w[i + k];
                if (id >= bound || ids[id].visit == mark)
                    continue;
                if (is_resource(&ids[id]) || is_workgroup(&ids[id]) || ids[id].wgm)
                    ids[id].visit = mark;
                else if (op == OP_FUNCTION_CALL && k == 3 && ids[id].func_at && sp < cap)
                    ids[id].visit = mark, stack[sp++] = id;
            }
        }
    }
}

uint64_t wg__hash(uint64_t h, const void *data, size_t n) {
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

wg_error_id wg__reflect(const wg_allocator *a, const uint32_t *w, size_t n, wg_shader_entry_info *out, uint32_t max,
                        uint32_t *count, char *detail, size_t dsz) {
    *count = 0;
    if (n < 5) {
        snprintf(detail, dsz, "%zu words", n);
        return n ? WG_ERR_SPIRV_MALFORMED : WG_ERR_SPIRV_EMPTY;
    }
    if (w[0] != 0x07230203u) {
        snprintf(detail, dsz, "0x%08x", w[0]);
        return WG_ERR_SPIRV_MAGIC;
    }
    uint32_t version = w[1], bound = w[3];
    if (bound == 0 || bound > 4 * n + 64) {
        snprintf(detail, dsz, "id bound %u for %zu words", bound, n);
        return WG_ERR_SPIRV_MALFORMED;
    }
    id_info *ids = wg__calloc(a, (size_t)bound * sizeof *ids);
    if (!ids)
        return WG_ERR_HOST_OOM;
    struct { uint32_t id, iface_at, iface_n; } eps[WG_MAX_ENTRY_POINTS];
    uint32_t neps = 0;
    wg_error_id err = WG_ERR_NONE;
    int in_function = 0;
    bool any_wgm = false;     /* a workgroup-scope matrix type: the walk must run even with interfaces */
    size_t nfuncs = 0;
    uint32_t *stack = NULL;
#define ID_OK(x) ((x) < bound)
    /* pass 1: everything but execution modes */
    for (size_t i = 5; i < n;) {
        uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
        if (wc == 0 || i + wc > n) {
            snprintf(detail, dsz, "instruction at word %zu overruns the module", i);
            err = WG_ERR_SPIRV_MALFORMED;
            goto done;
        }
        const uint32_t *ins = &w[i];
        if (op == OP_FUNCTION || op == OP_FUNCTION_END) {
            if (in_function == (op == OP_FUNCTION)) {
                snprintf(detail, dsz, "unbalanced OpFunction/OpFunctionEnd at word %zu", i);
                err = WG_ERR_SPIRV_MALFORMED;
                goto done;
            }
            in_function = op == OP_FUNCTION;
            if (op == OP_FUNCTION && wc >= 3 && ID_OK(ins[2])) {
                ids[ins[2]].func_at = (uint32_t)(i + wc + 1);
                nfuncs++;
            }
        }
        switch (op) {
        case OP_ENTRY_POINT:
            if (wc >= 4 && ins[1] == MODEL_GLCOMPUTE && neps < max && neps < WG_MAX_ENTRY_POINTS && ID_OK(ins[2])) {
                wg_shader_entry_info *e = &out[neps];
                memset(e, 0, sizeof *e);
                e->workgroup_size[0] = e->workgroup_size[1] = e->workgroup_size[2] = 1;
                const char *s = (const char *)&ins[3];
                size_t maxlen = (wc - 3) * 4, len = 0;
                while (len < maxlen && s[len])
                    len++;
                if (len == maxlen) {
                    snprintf(detail, dsz, "unterminated entry point name");
                    err = WG_ERR_SPIRV_MALFORMED;
                    goto done;
                }
                snprintf(e->name, sizeof e->name, "%s", s);
                uint32_t name_words = (uint32_t)(len / 4 + 1);
                eps[neps].id = ins[2];
                eps[neps].iface_at = (uint32_t)(i + 3 + name_words);
                eps[neps].iface_n = wc - 3 - name_words;
                neps++;
            }
            break;
        case OP_DECORATE:
            if (wc >= 3 && ID_OK(ins[1])) {
                id_info *d = &ids[ins[1]];
                if (ins[2] == DEC_SET && wc >= 4) d->set = ins[3], d->has_set = 1;
                else if (ins[2] == DEC_BINDING && wc >= 4) d->binding = ins[3], d->has_binding = 1;
                else if (ins[2] == DEC_NON_WRITABLE) d->nonwritable = 1;
                else if (ins[2] == DEC_BLOCK) d->block = 1;
                else if (ins[2] == DEC_BUFFER_BLOCK) d->buffer_block = 1;
                else if (ins[2] == DEC_BUILTIN && wc >= 4 && ins[3] == BUILTIN_WORKGROUP_SIZE) d->wgsize = 1;
            }
            break;
        case OP_MEMBER_DECORATE:
            if (wc >= 4 && ID_OK(ins[1]) && ins[3] == DEC_NON_WRITABLE)
                ids[ins[1]].nonwritable_members++;
            break;
        case OP_TYPE_STRUCT:
            if (wc >= 2 && ID_OK(ins[1]))
                ids[ins[1]].members = wc - 2, ids[ins[1]].type_at = (uint32_t)(i + 1);
            break;
        case OP_TYPE_COOP_MATRIX:   /* result, component type, scope (a constant's id), rows, columns, use */
            if (wc >= 7 && ID_OK(ins[1]) && ID_OK(ins[3]) && ids[ins[3]].is_const && ids[ins[3]].value == 2)
                ids[ins[1]].wgm = 1, any_wgm = true;
            break;
        case OP_TYPE_BOOL:
        case OP_TYPE_INT:
        case OP_TYPE_FLOAT:
        case OP_TYPE_VECTOR:
        case OP_TYPE_MATRIX:
        case OP_TYPE_ARRAY:
            if (wc >= (op == OP_TYPE_BOOL ? 2u : op == OP_TYPE_FLOAT ? 3u : 4u) && ID_OK(ins[1]))
                ids[ins[1]].type_at = (uint32_t)(i + 1);
            break;
        case OP_TYPE_POINTER:
            if (wc >= 4 && ID_OK(ins[1]))
                ids[ins[1]].is_ptr = 1, ids[ins[1]].storage = ins[2], ids[ins[1]].pointee = ins[3];
            break;
        case OP_VARIABLE:
            if (wc >= 4 && ID_OK(ins[2]))
                ids[ins[2]].is_var = 1, ids[ins[2]].pointee = ins[1], ids[ins[2]].storage = ins[3];
            break;
        case OP_CONSTANT:
        case OP_SPEC_CONSTANT:
            if (wc >= 4 && ID_OK(ins[2]))
                ids[ins[2]].is_const = 1, ids[ins[2]].value = ins[3];
            break;
        case OP_CONSTANT_COMPOSITE:
        case OP_SPEC_CONSTANT_COMPOSITE:
            if (wc == 6 && ID_OK(ins[2]))
                for (int k = 0; k < 3; k++)
                    ids[ins[2]].comp[k] = ins[3 + k];
            break;
        default:
            break;
        }
        i += wc;
    }
    if (in_function) {
        snprintf(detail, dsz, "module ends inside a function (truncated?)");
        err = WG_ERR_SPIRV_MALFORMED;
        goto done;
    }
    if (!neps) {
        err = WG_ERR_SPIRV_NO_COMPUTE_ENTRY;
        snprintf(detail, dsz, "no OpEntryPoint GLCompute");
        goto done;
    }
    /* pass 2: execution modes (need the constants) */
    for (size_t i = 5; i < n; i += w[i] >> 16) {
        uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
        const uint32_t *ins = &w[i];
        if ((op != OP_EXECUTION_MODE && op != OP_EXECUTION_MODE_ID) || wc < 6)
            continue;
        for (uint32_t e = 0; e < neps; e++) {
            if (eps[e].id != ins[1])
                continue;
            for (int k = 0; k < 3; k++) {
                if (op == OP_EXECUTION_MODE && ins[2] == MODE_LOCAL_SIZE)
                    out[e].workgroup_size[k] = ins[3 + k];
                else if (op == OP_EXECUTION_MODE_ID && ins[2] == MODE_LOCAL_SIZE_ID && ID_OK(ins[3 + k]))
                    out[e].workgroup_size[k] = ids[ins[3 + k]].value;
            }
        }
    }
    /* a WorkgroupSize built-in constant overrides the execution mode */
    for (uint32_t id = 0; id < bound; id++)
        if (ids[id].wgsize)
            for (uint32_t e = 0; e < neps; e++)
                for (int k = 0; k < 3; k++)
                    if (ID_OK(ids[id].comp[k]))
                        out[e].workgroup_size[k] = ids[ids[id].comp[k]].value;
    /* resources */
    bool use_iface = version >= 0x00010400, walk = !use_iface || any_wgm;
    if (walk && !(stack = wg__alloc(a, (nfuncs + 1) * sizeof *stack))) {
        err = WG_ERR_HOST_OOM;
        goto done;
    }
    for (uint32_t e = 0; e < neps; e++) {
        uint32_t nb = 0;
        /* the walk also finds the workgroup-scope matrix types the entry point's code names (from
         * SPIR-V 1.4 on, where the interface decides the variables, only for those) */
        if (walk)
            static_use(w, n, ids, bound, eps[e].id, e + 1, stack, nfuncs + 1);
        uint64_t wgbytes = 0;
        for (uint32_t id = 0; id < bound; id++) {
            id_info *v = &ids[id];
            if (v->wgm && v->visit == e + 1)
                out[e].workgroup_matrices = true;
            if (!is_resource(v) && !is_workgroup(v))
                continue;
            if (use_iface) {
                bool found = false;
                for (uint32_t k = 0; k < eps[e].iface_n; k++)
                    found |= w[eps[e].iface_at + k] == id;
                if (!found)
                    continue;
            } else if (v->visit != e + 1) {
                continue;
            }
            if (is_workgroup(v)) {
                wgbytes += workgroup_bytes(w, ids, bound, v);
                continue;
            }
            if (!ID_OK(v->pointee) || !ID_OK(ids[v->pointee].pointee))
                continue;
            const id_info *st = &ids[ids[v->pointee].pointee];
            wg_binding_type t;
            if (v->storage == SC_UNIFORM && !st->buffer_block)
                t = WG_BINDING_TYPE_UNIFORM;
            else
                t = (v->nonwritable || (st->members && st->nonwritable_members >= st->members))
                        ? WG_BINDING_TYPE_READ_ONLY_STORAGE : WG_BINDING_TYPE_STORAGE;
            if (nb == WG_MAX_SHADER_BINDINGS) {
                snprintf(detail, dsz, "more than %d buffer bindings", WG_MAX_SHADER_BINDINGS);
                err = WG_ERR_SPIRV_MALFORMED;
                goto done;
            }
            out[e].bindings[nb++] = (wg_shader_binding){ v->set, v->binding, t, 0 };
        }
        out[e].binding_count = nb;
        out[e].workgroup_storage_size = wgbytes < UINT32_MAX ? (uint32_t)wgbytes : UINT32_MAX;
    }
    *count = neps;
done:
    wg__free(a, stack);
    wg__free(a, ids);
    return err;
#undef ID_OK
}

static void shader_finish(wg_device *dev, wg_shader_module *m, const uint32_t *words, size_t nwords);

void wg__wgsl_options(const wg_device *dev, wgsl_options *opt) {
    opt->allocator = (wgsl_allocator){ dev->alloc.alloc, dev->alloc.free, dev->alloc.user };
    opt->no_f16 = !(dev->features & WG_FEATURE_BIT(WG_FEATURE_SHADER_F16));
    opt->no_subgroups = !(dev->features & WG_FEATURE_BIT(WG_FEATURE_SUBGROUPS));
    opt->no_subgroup_matrix = !(dev->features & WG_FEATURE_BIT(WG_FEATURE_COOPERATIVE_MATRIX));
    opt->no_workgroup_matrix = !(dev->features & WG_FEATURE_BIT(WG_FEATURE_WORKGROUP_MATRIX));
}

wg_shader_module *wg_device_create_shader_module(wg_device *dev, const wg_shader_module_desc *desc) {
    if (!dev)
        return NULL;
    static const wg_shader_module_desc zero;
    if (!desc)
        desc = &zero;
    wg_shader_module *m = wg__obj_new(dev, WG_OBJ_SHADER_MODULE, sizeof *m, desc->label);
    if (!m)
        return NULL;
    m->o.invalid = true;
    if (dev->lost)
        return m;
    const uint32_t *words = desc->spirv;
    size_t nwords = desc->spirv_words;
    wgsl_result *compiled = NULL;
    if (!words && desc->wgsl) {
        wgsl_options opt = { .label = desc->label, .filename = desc->label };
        wg__wgsl_options(dev, &opt);
        compiled = wgsl_compile(desc->wgsl, strlen(desc->wgsl), &opt);
        if (!compiled) {
            wg__err(dev, WG_ERR_HOST_OOM, "compiling WGSL of shader module '%s'", wg__label(m));
            return m;
        }
        if (!compiled->ok || !compiled->spirv) {
            const char *text = wgsl_result_text(compiled);
            wg__err(dev, compiled->ok ? WG_ERR_HOST_OOM : WG_ERR_WGSL_COMPILE, "shader module '%s':\n%s", wg__label(m),
                    text ? text : "(out of memory)");
            wgsl_result_free(compiled);
            return m;
        }
        words = compiled->spirv;
        nwords = compiled->spirv_word_count;
    }
    if (!words || !nwords) {
        wg__err(dev, WG_ERR_SPIRV_EMPTY, "shader module '%s'", wg__label(m));
        return m;
    }
    shader_finish(dev, m, words, nwords);
    wgsl_result_free(compiled);
    return m;
}

static void shader_finish(wg_device *dev, wg_shader_module *m, const uint32_t *words, size_t nwords) {
    m->entries = wg__alloc(&dev->alloc, WG_MAX_ENTRY_POINTS * sizeof *m->entries);
    if (!m->entries) {
        wg__err(dev, WG_ERR_HOST_OOM, "shader module '%s' reflection", wg__label(m));
        return;
    }
    char detail[160] = "";
    wg_error_id e = wg__reflect(&dev->alloc, words, nwords, m->entries, WG_MAX_ENTRY_POINTS, &m->nentries, detail,
                                sizeof detail);
    if (e) {
        wg__err(dev, e, "shader module '%s': %s", wg__label(m), detail);
        return;
    }
    VkShaderModuleCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = nwords * 4, .pCode = words };
    VkResult r = dev->vk.vkCreateShaderModule(dev->device, &ci, NULL, &m->vk);
    if (r != VK_SUCCESS) {
        m->vk = VK_NULL_HANDLE;
        if (r == VK_ERROR_DEVICE_LOST)
            wg__check_vk(dev, r, "vkCreateShaderModule");
        else
            wg__err(dev, r == VK_ERROR_OUT_OF_HOST_MEMORY ? WG_ERR_HOST_OOM : WG_ERR_SHADER_CREATE,
                    "shader module '%s': VkResult %d", wg__label(m), (int)r);
        return;
    }
    m->hash = wg__hash(WG_HASH_INIT, words, nwords * 4);
    m->o.invalid = false;
}

void wg__shader_module_free(wg_obj *o) {
    wg_shader_module *m = (wg_shader_module *)o;
    if (m->vk && o->dev->lost != WG_DEVICE_LOST_TIMEOUT)
        o->dev->vk.vkDestroyShaderModule(o->dev->device, m->vk, NULL);
    else if (m->vk)   /* a driver thread may still compile from it: leaked with its device (device.c) */
        wg__keep_forever((const void *)(uintptr_t)m->vk);
    wg__free(&o->dev->alloc, m->entries);
}

uint32_t wg_shader_module_entry_point_count(const wg_shader_module *m) {
    return m && !m->o.invalid ? m->nentries : 0;
}

const wg_shader_entry_info *wg_shader_module_get_entry_point(const wg_shader_module *m, uint32_t index) {
    return m && !m->o.invalid && index < m->nentries ? &m->entries[index] : NULL;
}
