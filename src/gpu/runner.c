/* runner.c - wg_device_run_kernel, one call that compiles, runs and times a WGSL kernel: the
 * engine of `wgc run`, `wgc profile` and the Python package (python/wgc, through ctypes), and
 * public API for C programs that want a kernel's numbers or results without the object model.
 *
 * It does nothing the public API cannot: it compiles the WGSL itself (to time the compile
 * apart from pipeline creation and to apply overrides), checks the caller's bindings against the
 * entry point's reflection, creates one buffer per binding, records warmup runs in one submit and
 * the timed runs in another, each timed run its own compute pass with a begin and end timestamp
 * (the runtime inserts the barriers between runs that write the same buffers), then reads back.  Device errors are caught in error scopes and returned in the result; nothing
 * is printed.  Host memory goes through the device's allocator hook. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/internal.h"
#include "wgc/wgsl.h"

#define RUN_MAX_QUERY_PAIRS 2048   /* a query set holds at most 4096 timestamps */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct run_state {
    wg_device *dev;
    const wg_allocator *al;
    wgsl_result *compiled;
    wg_shader_module *module;
    wg_compute_pipeline *pipe;
    wg_buffer **bufs;              /* per desc binding */
    wg_bind_group **groups;
    uint32_t group_count;
    wg_query_set *qs;
    uint64_t *ns;
    int scopes;                    /* error scopes pushed */
} run_state;

static wg_status fail(wg_kernel_run_result *out, wg_error_id id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static wg_status fail(wg_kernel_run_result *out, wg_error_id id, const char *fmt, ...) {
    char detail[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    out->error.id = id;
    out->error.type = wg_error_id_type(id);
    snprintf(out->error.message, sizeof out->error.message, "%s: %s", wg_error_id_summary(id), detail);
    return out->error.type == WG_ERROR_TYPE_DEVICE_LOST ? WG_STATUS_DEVICE_LOST : WG_STATUS_ERROR;
}

/* Pops the scopes push_scopes pushed; false with the first error caught (innermost first) in *err. */
static bool pop_scopes(run_state *st, wg_error *err) {
    bool ok = true;
    while (st->scopes > 0) {
        wg_error e;
        st->scopes--;
        if (wg_device_pop_error_scope(st->dev, &e) != WG_ERR_NONE && ok) {
            *err = e;
            ok = false;
        }
    }
    return ok;
}

static void push_scopes(run_state *st) {
    wg_device_push_error_scope(st->dev, WG_ERROR_TYPE_INTERNAL);
    wg_device_push_error_scope(st->dev, WG_ERROR_TYPE_OUT_OF_MEMORY);
    wg_device_push_error_scope(st->dev, WG_ERROR_TYPE_VALIDATION);
    st->scopes = 3;
}

static void run_free(run_state *st, uint32_t nbind) {
    if (st->bufs)
        for (uint32_t i = 0; i < nbind; i++)
            wg_buffer_release(st->bufs[i]);
    if (st->groups)
        for (uint32_t g = 0; g < st->group_count; g++)
            wg_bind_group_release(st->groups[g]);
    wg__free(st->al, st->bufs);
    wg__free(st->al, st->groups);
    wg__free(st->al, st->ns);
    wg_query_set_release(st->qs);
    wg_compute_pipeline_release(st->pipe);
    wg_shader_module_release(st->module);
    wgsl_result_free(st->compiled);
}

static bool is_uint(const char *s) {
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Records `count` runs into one command buffer and submits it; with qs, run i writes timestamps
 * 2i and 2i+1 of the query set. */
static void record_runs(run_state *st, uint32_t count, const uint32_t d[3], wg_query_set *qs) {
    wg_command_encoder *enc = wg_device_create_command_encoder(st->dev, &(wg_command_encoder_desc){ .label = "run" });
    for (uint32_t i = 0; i < count; i++) {
        wg_compute_pass_desc pd = { .label = "run" };
        if (qs) {
            pd.timestamp_query_set = qs;
            pd.beginning_index = 2 * i;
            pd.end_index = 2 * i + 1;
            pd.write_beginning = pd.write_end = true;
        }
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, &pd);
        wg_compute_pass_set_pipeline(pass, st->pipe);
        for (uint32_t g = 0; g < st->group_count; g++)
            wg_compute_pass_set_bind_group(pass, g, st->groups[g], 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, d[0], d[1], d[2]);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
    }
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_command_encoder_release(enc);
    wg_queue_submit(wg_device_get_queue(st->dev), 1, &cb);
}

wg_status wg_device_run_kernel(wg_device *dev, const wg_kernel_run_desc *desc, wg_kernel_run_result *out) {
    if (!out)
        return WG_STATUS_ERROR;
    memset(out, 0, sizeof *out);
    if (!dev)
        return fail(out, WG_ERR_NULL_OBJECT, "wg_device_run_kernel: device is NULL");
    if (!desc || !desc->wgsl)
        return fail(out, WG_ERR_NULL_OBJECT, "wg_device_run_kernel: desc or desc->wgsl is NULL");
    if (wg_device_is_lost(dev))
        return fail(out, WG_ERR_DEVICE_LOST, "wg_device_run_kernel");
    if (desc->binding_count && !desc->bindings)
        return fail(out, WG_ERR_NULL_OBJECT, "wg_device_run_kernel: binding_count is %u but bindings is NULL",
                    desc->binding_count);
    if (desc->override_count && !desc->overrides)
        return fail(out, WG_ERR_NULL_OBJECT, "wg_device_run_kernel: override_count is %u but overrides is NULL",
                    desc->override_count);
    run_state st = { .dev = dev, .al = &dev->alloc };
    uint32_t nbind = desc->binding_count, repeat = desc->repeat ? desc->repeat : 1;
    wg_status status = WG_STATUS_ERROR;

    /* compile */
    wgsl_override_value *ov = NULL;
    if (desc->override_count) {
        ov = wg__calloc(st.al, desc->override_count * sizeof *ov);
        if (!ov)
            return fail(out, WG_ERR_HOST_OOM, "override list");
        for (uint32_t i = 0; i < desc->override_count; i++) {
            const char *name = desc->overrides[i].name ? desc->overrides[i].name : "";
            ov[i].value = desc->overrides[i].value;
            if (is_uint(name))
                ov[i].id = (uint32_t)strtoul(name, NULL, 10);
            else
                ov[i].name = name;
        }
    }
    wgsl_options opt = { .label = desc->label, .filename = desc->filename ? desc->filename : "kernel.wgsl",
                         .overrides = ov, .override_count = desc->override_count,
                         .no_bounds_checks = desc->no_bounds_checks };
    wg__wgsl_options(dev, &opt);
    double t0 = now_ms();
    st.compiled = wgsl_compile(desc->wgsl, desc->wgsl_length ? desc->wgsl_length : strlen(desc->wgsl), &opt);
    out->compile_ms = now_ms() - t0;
    wg__free(st.al, ov);
    if (!st.compiled)
        return fail(out, WG_ERR_HOST_OOM, "compiling '%s'", opt.filename);
    const char *text = wgsl_result_text(st.compiled);
    snprintf(out->diagnostics, sizeof out->diagnostics, "%s", text ? text : "");
    if (!st.compiled->ok && st.compiled->override_error && st.compiled->diagnostic_count) {
        /* the overrides are wrong, not the kernel: an error of the call, without diagnostics */
        out->diagnostics[0] = '\0';
        status = fail(out, WG_ERR_WGSL_COMPILE, "'%s': %s", opt.filename, st.compiled->diagnostics[0].message);
        goto done;
    }
    if (!st.compiled->ok || !st.compiled->spirv) {
        const wgsl_diagnostic *d0 = st.compiled->diagnostic_count ? &st.compiled->diagnostics[0] : NULL;
        status = fail(out, WG_ERR_WGSL_COMPILE, "%s:%u:%u: %s", opt.filename, d0 ? d0->line : 0, d0 ? d0->col : 0,
                      d0 ? d0->message : "(no diagnostic)");
        goto done;
    }
    const wgsl_result *cr = st.compiled;
    for (uint32_t k = 0; k < cr->override_count; k++) {   /* no initializer: the value must be given */
        const wgsl_override *o = &cr->overrides[k];
        bool given = o->has_default;
        for (uint32_t i = 0; i < desc->override_count && !given; i++) {
            const char *name = desc->overrides[i].name ? desc->overrides[i].name : "";
            given = o->has_explicit_id ? is_uint(name) && (uint32_t)strtoul(name, NULL, 10) == o->id
                                       : !strcmp(o->name, name);
        }
        if (!given) {
            char key[16];
            snprintf(key, sizeof key, "%u", o->id);
            status = fail(out, WG_ERR_WGSL_COMPILE, "'%s': pipeline constant '%s' is not set (override '%s' has no "
                          "initializer)", opt.filename, o->has_explicit_id ? key : o->name, o->name);
            goto done;
        }
    }
    int ep = -1, ncompute = 0;
    for (uint32_t i = 0; i < cr->entry_point_count; i++) {
        if (cr->entry_points[i].stage != WGSL_STAGE_COMPUTE)
            continue;
        ncompute++;
        if (desc->entry_point ? !strcmp(cr->entry_points[i].name, desc->entry_point) : ep < 0)
            ep = (int)i;
    }
    if (ep < 0) {
        status = fail(out, WG_ERR_ENTRY_POINT_NOT_FOUND, "'%s' in '%s'", desc->entry_point ? desc->entry_point : "(any)",
                      opt.filename);
        goto done;
    }
    if (!desc->entry_point && ncompute > 1) {
        status = fail(out, WG_ERR_ENTRY_POINT_AMBIGUOUS, "'%s' has %d compute entry points", opt.filename, ncompute);
        goto done;
    }
    const wgsl_entry_point *e = &cr->entry_points[ep];
    snprintf(out->entry_point, sizeof out->entry_point, "%s", e->name);
    memcpy(out->workgroup_size, e->workgroup_size, sizeof out->workgroup_size);

    /* bindings: every one the entry point uses needs exactly one desc entry, and no extras */
    uint64_t epbit = ep < 64 ? 1ull << ep : 0;
    uint32_t ngroups = 0;
    for (uint32_t i = 0; i < cr->binding_count; i++) {
        const wgsl_binding *b = &cr->bindings[i];
        if (!(b->entry_point_mask & epbit))
            continue;
        int found = -1;
        for (uint32_t k = 0; k < nbind; k++)
            if (desc->bindings[k].group == b->group && desc->bindings[k].binding == b->binding)
                found = found < 0 ? (int)k : -2;
        if (found == -1) {
            status = fail(out, WG_ERR_BIND_ENTRY_MISSING, "@group(%u) @binding(%u) ('%s') has no buffer", b->group,
                          b->binding, b->name);
            goto done;
        }
        if (found == -2) {
            status = fail(out, WG_ERR_BIND_ENTRY_DUPLICATE, "@group(%u) @binding(%u) given twice", b->group, b->binding);
            goto done;
        }
        uint64_t sz = desc->bindings[found].size;
        if (sz < b->min_size || sz == 0) {
            status = fail(out, WG_ERR_BIND_SIZE_MIN, "@group(%u) @binding(%u) ('%s') has %llu bytes, needs at least %llu",
                          b->group, b->binding, b->name, (unsigned long long)sz,
                          (unsigned long long)(b->min_size ? b->min_size : 4));
            goto done;
        }
        if (b->group + 1 > ngroups)
            ngroups = b->group + 1;
    }
    for (uint32_t k = 0; k < nbind; k++) {
        bool used = false;
        for (uint32_t i = 0; i < cr->binding_count; i++)
            used |= (cr->bindings[i].entry_point_mask & epbit) && cr->bindings[i].group == desc->bindings[k].group &&
                    cr->bindings[i].binding == desc->bindings[k].binding;
        if (!used) {
            status = fail(out, WG_ERR_BIND_ENTRY_EXTRA, "@group(%u) @binding(%u) is not used by entry point '%s'",
                          desc->bindings[k].group, desc->bindings[k].binding, e->name);
            goto done;
        }
    }

    /* pipeline */
    wg_device_stats s0, s1;
    wg_device_get_stats(dev, &s0);
    push_scopes(&st);
    t0 = now_ms();
    st.module = wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = opt.filename,
        .spirv = cr->spirv, .spirv_words = cr->spirv_word_count });
    st.pipe = wg_device_create_compute_pipeline(dev, &(wg_compute_pipeline_desc){ .label = opt.filename,
        .module = st.module, .entry_point = e->name });
    out->pipeline_ms = now_ms() - t0;
    wg_device_get_stats(dev, &s1);
    out->pipeline_cache_hit = s1.pipeline_memory_hits > s0.pipeline_memory_hits ||
                              s1.pipeline_disk_cache_hits > s0.pipeline_disk_cache_hits;
    if (!pop_scopes(&st, &out->error))
        goto done_err;
    if (wg_device_has_feature(dev, WG_FEATURE_PIPELINE_STATISTICS)) {
        /* the driver's figures are extra: a failure to read them leaves none and fails nothing */
        push_scopes(&st);
        uint32_t cap = sizeof out->statistics / sizeof out->statistics[0];
        uint32_t n = wg_compute_pipeline_get_statistics(st.pipe, out->statistics, cap);
        wg_error ignored;
        out->statistic_count = pop_scopes(&st, &ignored) ? (n < cap ? n : cap) : 0;
    }

    /* buffers and bind groups */
    push_scopes(&st);
    st.bufs = wg__calloc(st.al, (nbind ? nbind : 1) * sizeof *st.bufs);
    st.groups = wg__calloc(st.al, (ngroups ? ngroups : 1) * sizeof *st.groups);
    wg_bind_group_entry *ents = wg__calloc(st.al, (nbind ? nbind : 1) * sizeof *ents);
    if (!st.bufs || !st.groups || !ents) {
        wg__free(st.al, ents);
        pop_scopes(&st, &out->error);
        status = fail(out, WG_ERR_HOST_OOM, "binding tables");
        goto done;
    }
    wg_queue *q = wg_device_get_queue(dev);
    for (uint32_t k = 0; k < nbind; k++) {
        const wg_kernel_binding *kb = &desc->bindings[k];
        uint32_t usage = WG_BUFFER_USAGE_DEFAULT;
        for (uint32_t i = 0; i < cr->binding_count; i++)
            if (cr->bindings[i].group == kb->group && cr->bindings[i].binding == kb->binding &&
                cr->bindings[i].kind == WGSL_BINDING_UNIFORM)
                usage = WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST | WG_BUFFER_USAGE_COPY_SRC;
        char label[48];
        snprintf(label, sizeof label, "binding %u:%u", kb->group, kb->binding);
        uint64_t size4 = (kb->size + 3) & ~3ull;
        st.bufs[k] = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = label, .size = size4, .usage = usage });
        if (kb->data) {
            wg_queue_write_buffer(q, st.bufs[k], 0, kb->data, kb->size & ~3ull);
            if (kb->size & 3) {
                uint8_t tail[4] = { 0 };
                memcpy(tail, (const uint8_t *)kb->data + (kb->size & ~3ull), kb->size & 3);
                wg_queue_write_buffer(q, st.bufs[k], kb->size & ~3ull, tail, 4);
            }
        }
    }
    /* The pipeline's layout is the runtime's reflection of the entry point, which may list
     * bindings the entry point does not use (module-wide variables): those get a small zeroed
     * placeholder buffer each. */
    const wg_shader_entry_info *rinfo = NULL;
    for (uint32_t i = 0; i < wg_shader_module_entry_point_count(st.module); i++) {
        const wg_shader_entry_info *ei = wg_shader_module_get_entry_point(st.module, i);
        if (ei && !strcmp(ei->name, e->name))
            rinfo = ei;
    }
    uint32_t nph = 0;
    for (uint32_t i = 0; rinfo && i < rinfo->binding_count; i++) {
        const wg_shader_binding *sb = &rinfo->bindings[i];
        if (sb->group + 1 > ngroups)
            ngroups = sb->group + 1;
        bool given = false;
        for (uint32_t k = 0; k < nbind; k++)
            given |= desc->bindings[k].group == sb->group && desc->bindings[k].binding == sb->binding;
        nph += !given;
    }
    wg_buffer **ph = wg__calloc(st.al, (nph ? nph : 1) * sizeof *ph);
    wg_bind_group_entry *ents2 = wg__calloc(st.al, (nbind + nph ? nbind + nph : 1) * sizeof *ents2);
    wg__free(st.al, ents);
    ents = ents2;
    st.group_count = ngroups;
    wg__free(st.al, st.groups);
    st.groups = wg__calloc(st.al, (ngroups ? ngroups : 1) * sizeof *st.groups);
    if (!ph || !ents || !st.groups) {
        wg__free(st.al, ph);
        wg__free(st.al, ents);
        st.group_count = 0;
        pop_scopes(&st, &out->error);
        status = fail(out, WG_ERR_HOST_OOM, "binding tables");
        goto done;
    }
    nph = 0;
    for (uint32_t g = 0; g < ngroups; g++) {
        size_t n = 0;
        for (uint32_t k = 0; k < nbind; k++)
            if (desc->bindings[k].group == g)
                ents[n++] = (wg_bind_group_entry){ .binding = desc->bindings[k].binding, .buffer = st.bufs[k] };
        for (uint32_t i = 0; rinfo && i < rinfo->binding_count; i++) {
            const wg_shader_binding *sb = &rinfo->bindings[i];
            bool given = false;
            for (uint32_t k = 0; k < nbind; k++)
                given |= desc->bindings[k].group == sb->group && desc->bindings[k].binding == sb->binding;
            if (sb->group != g || given)
                continue;
            uint64_t sz = ((sb->min_size ? sb->min_size : 4) + 15) & ~15ull;
            ph[nph] = wg_device_create_buffer(dev, &(wg_buffer_desc){ .label = "placeholder", .size = sz,
                .usage = sb->type == WG_BINDING_TYPE_UNIFORM ? WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_COPY_DST
                                                             : WG_BUFFER_USAGE_DEFAULT });
            ents[n++] = (wg_bind_group_entry){ .binding = sb->binding, .buffer = ph[nph++] };
        }
        st.groups[g] = wg_device_create_bind_group(dev, &(wg_bind_group_desc){ .label = "run",
            .layout = wg_compute_pipeline_get_bind_group_layout(st.pipe, g), .entry_count = n, .entries = ents });
    }
    wg__free(st.al, ents);
    for (uint32_t i = 0; i < nph; i++)
        wg_buffer_release(ph[i]);   /* the bind groups hold them */
    wg__free(st.al, ph);
    if (!pop_scopes(&st, &out->error))
        goto done_err;

    /* runs */
    uint32_t d[3] = { desc->dispatch[0], desc->dispatch[1] ? desc->dispatch[1] : 1,
                      desc->dispatch[2] ? desc->dispatch[2] : 1 };
    push_scopes(&st);
    if (desc->warmup) {
        record_runs(&st, desc->warmup, d, NULL);
        wg_queue_wait(q, UINT64_MAX);
    }
    st.ns = wg__calloc(st.al, repeat * sizeof *st.ns);
    if (!st.ns) {
        pop_scopes(&st, &out->error);
        status = fail(out, WG_ERR_HOST_OOM, "timing table");
        goto done;
    }
    out->timestamps = !desc->wall_clock && wg_device_has_feature(dev, WG_FEATURE_TIMESTAMP_QUERY);
    uint32_t chunk = out->timestamps ? (repeat < RUN_MAX_QUERY_PAIRS ? repeat : RUN_MAX_QUERY_PAIRS) : 0;
    if (chunk)
        st.qs = wg_device_create_query_set(dev, &(wg_query_set_desc){ .label = "run", .type = WG_QUERY_TYPE_TIMESTAMP,
                                                                        .count = 2 * chunk });
    double wall0 = now_ms();
    for (uint32_t done_runs = 0; done_runs < repeat;) {
        uint32_t n = out->timestamps ? (repeat - done_runs < chunk ? repeat - done_runs : chunk) : 1;
        double w0 = now_ms();
        record_runs(&st, n, d, st.qs);
        if (out->timestamps) {
            uint64_t pairs[2 * RUN_MAX_QUERY_PAIRS];
            if (wg_query_set_read_ns(st.qs, 0, 2 * n, pairs) != WG_STATUS_OK)
                break;
            for (uint32_t i = 0; i < n; i++)
                st.ns[done_runs + i] = pairs[2 * i + 1] >= pairs[2 * i] ? pairs[2 * i + 1] - pairs[2 * i] : 0;
        } else {
            if (wg_queue_wait(q, UINT64_MAX) != WG_STATUS_OK)
                break;
            st.ns[done_runs] = (uint64_t)((now_ms() - w0) * 1e6);
        }
        done_runs += n;
        out->runs = done_runs;
    }
    wg_queue_wait(q, UINT64_MAX);
    out->wall_ms = now_ms() - wall0;
    for (uint32_t k = 0; k < nbind; k++)
        if (desc->bindings[k].readback)
            wg_buffer_read(st.bufs[k], 0, desc->bindings[k].readback, desc->bindings[k].size);
    if (!pop_scopes(&st, &out->error))
        goto done_err;
    if (wg_device_is_lost(dev)) {
        const char *msg = "";
        wg_device_lost_reason_get(dev, &msg);
        status = fail(out, WG_ERR_DEVICE_LOST, "%s", msg ? msg : "");
        goto done;
    }
    if (out->runs < repeat) {
        status = fail(out, WG_ERR_VK_CALL, "only %u of %u timed runs finished", out->runs, repeat);
        goto done;
    }

    /* statistics */
    if (desc->gpu_ns)
        memcpy(desc->gpu_ns, st.ns, repeat * sizeof *st.ns);
    double sum = 0, sq = 0;
    for (uint32_t i = 0; i < repeat; i++)
        sum += (double)st.ns[i];
    out->mean_ns = sum / repeat;
    for (uint32_t i = 0; i < repeat; i++)
        sq += ((double)st.ns[i] - out->mean_ns) * ((double)st.ns[i] - out->mean_ns);
    out->stddev_ns = repeat > 1 ? sqrt(sq / (repeat - 1)) : 0;
    qsort(st.ns, repeat, sizeof *st.ns, cmp_u64);
    out->min_ns = (double)st.ns[0];
    out->max_ns = (double)st.ns[repeat - 1];
    out->median_ns = repeat % 2 ? (double)st.ns[repeat / 2] : ((double)st.ns[repeat / 2 - 1] + (double)st.ns[repeat / 2]) / 2;
    status = WG_STATUS_OK;
    goto done;
done_err:
    status = out->error.type == WG_ERROR_TYPE_DEVICE_LOST ? WG_STATUS_DEVICE_LOST : WG_STATUS_ERROR;
done:
    run_free(&st, nbind);
    return status;
}
