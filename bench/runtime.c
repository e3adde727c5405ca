/* runtime.c - `wgc bench runtime`: the wg runtime's figures of issue 2 beside baselines measured
 * in the same run on the same machine.
 *
 * Measured (kernels are WGSL from bench/kernels/, compiled by wgc's own compiler):
 *   upload        wg_queue_write_buffer of the working set + wait (GB/s, best of runs)
 *   add           c = a + b on vec4<f32> over n floats; GPU time from pass timestamps; bytes
 *                 counted read + written (3 x 4n); best and median of runs after a warm-up
 *   copy          the runtime's copy_buffer_to_buffer (a shader copy for large buffers), the same
 *                 with a size that is not a multiple of 16 (vkCmdCopyBuffer, the other engine),
 *                 and our WGSL vec4 copy kernel; 2 x 4n bytes
 *   readback      wg_buffer_read, and a MAP_READ buffer + map_async + memcpy (end to end)
 *   dependent op  `ops` dispatches of a[i] += 1 over 1024 floats in one submit, each reading what
 *                 the last wrote: CPU µs/op to record, end-to-end µs/op, GPU µs/op (timestamps)
 *   submit+wait   one tiny dispatch (and an empty command buffer) submitted and waited for
 *   pipelines     cold (new device, empty cache dir, never-seen kernel), warm from the on-disk
 *                 cache (new device, same dir), warm from the in-memory cache (same device)
 * Every result is checked (add, copies, readbacks, the dependent chain's final values); a wrong
 * value fails the command with exit status 1.
 *
 * Sizes: `full` is the (2^26 floats = 256 MiB per buffer); on a CPU adapter (lavapipe)
 * the default drops to `medium` (2^22 floats); `small` is for smoke tests.
 *
 * Baselines, each a child process: bench/baseline_runtime.py (PyTorch on CUDA; skipped on a CPU
 * adapter, where it would not run on the same device) and dawn-bench.mjs from $WGC_DAWN (Dawn,
 * one measurement per node process, failures tolerated). */
#include "bench.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_add4.wgsl.h"
#include "bench_copy4.wgsl.h"
#include "bench_inc.wgsl.h"
#include "bench_typical300.wgsl.h"
#include "wgc/gpu.h"

#define TINY_N 1024u               /* elements of the dependent op */
#define MAX_RUNS 64

typedef struct rt_sizes {
    const char *name;
    uint32_t n;                    /* floats per bandwidth buffer */
    uint32_t ops;                  /* dependent dispatches per submit */
    uint32_t roundtrips;           /* submit+wait repetitions */
    int runs;                      /* bandwidth / chain repetitions */
    int pipe_runs;                 /* cold pipeline creations (one device each) */
} rt_sizes;

typedef struct rt {
    const bench_options *opt;
    bench_report *rep;
    wg_instance *inst;
    wg_adapter *ad;
    const wg_adapter_info *info;
    wg_env_strings env;
    wg_device_desc base;           /* the WGC_* settings (wg_config_from_env) every device starts from */
    wg_device *dev;
    wg_queue *q;
    bool ts;                       /* timestamp queries enabled */
    rt_sizes sz;
    int wrong;                     /* results that did not check out */
    int errors;                    /* runtime errors seen */
    char last_error[512];
} rt;

static void on_error(void *user, const wg_error *e) {
    rt *r = user;
    r->errors++;
    snprintf(r->last_error, sizeof r->last_error, "%s", e->message);
    if (r->errors <= 8)
        fprintf(stderr, "wgc bench: runtime error: %s\n", e->message);
    else if (r->errors == 9)
        fputs("wgc bench: further runtime errors are counted, not shown\n", stderr);
}

static wg_device *make_device(rt *r, const char *label, const char *cache_dir) {
    uint64_t feats = 0;
    if (wg_adapter_has_feature(r->ad, WG_FEATURE_TIMESTAMP_QUERY))
        feats |= WG_FEATURE_BIT(WG_FEATURE_TIMESTAMP_QUERY);
    wg_error err;
    wg_device_desc d = r->base;
    d.label = label;
    d.required_features = feats;
    d.uncaptured_error = on_error;
    d.uncaptured_error_user = r;
    d.cache_dir = cache_dir;
    wg_device *dev = wg_adapter_create_device(r->ad, &d, &err);
    if (!dev)
        fprintf(stderr, "wgc bench: device: %s\n", err.message);
    return dev;
}

static wg_buffer *mkbuf(rt *r, const char *label, uint64_t size, uint32_t usage) {
    return wg_device_create_buffer(r->dev, &(wg_buffer_desc){ .label = label, .size = size, .usage = usage });
}

static wg_compute_pipeline *mkpipe(wg_device *dev, const char *label, const char *wgsl, const char *entry) {
    wg_shader_module *sm =
        wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = label, .wgsl = wgsl });
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(
        dev, &(wg_compute_pipeline_desc){ .label = label, .module = sm, .entry_point = entry });
    wg_shader_module_release(sm);
    return p;
}

static wg_bind_group *mkgroup(wg_device *dev, wg_compute_pipeline *p, int n, wg_buffer *const *bufs) {
    wg_bind_group_entry e[4];
    for (int i = 0; i < n; i++)
        e[i] = (wg_bind_group_entry){ .binding = (uint32_t)i, .buffer = bufs[i] };
    return wg_device_create_bind_group(
        dev, &(wg_bind_group_desc){ .layout = wg_compute_pipeline_get_bind_group_layout(p, 0),
                                    .entry_count = (size_t)n, .entries = e });
}

/* Workgroups of 256 for `vec4s` invocations as an x*y grid with x <= xmax (65535, the limit;
 * the small size uses 16 so the smoke test covers the 2-D grid that 2^26 floats need). */
static void grid(uint32_t vec4s, uint32_t xmax, uint32_t *x, uint32_t *y) {
    uint32_t wgs = (vec4s + 255) / 256;
    *y = (wgs + xmax - 1) / xmax;
    *x = (wgs + *y - 1) / *y;
}

static void submit(rt *r, wg_command_encoder *enc) {
    wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
    wg_command_encoder_release(enc);
    wg_queue_submit(r->q, 1, &cb);
}

static void wait_idle(rt *r) {
    wg_status st = wg_queue_wait(r->q, UINT64_MAX);
    if (st != WG_STATUS_OK) {
        r->errors++;
        snprintf(r->last_error, sizeof r->last_error, "wg_queue_wait: status %d", (int)st);
    }
}

/* Records `reps` passes, each one dispatch between timestamps 2i and 2i+1. */
static void timed_passes(rt *r, wg_command_encoder *enc, wg_query_set *qs, int reps, wg_compute_pipeline *p,
                         wg_bind_group *bg, uint32_t gx, uint32_t gy) {
    for (int i = 0; i < reps; i++) {
        wg_compute_pass_desc pd = { .label = "timed" };
        if (qs)
            pd = (wg_compute_pass_desc){ .label = "timed", .timestamp_query_set = qs,
                                         .beginning_index = (uint32_t)(2 * i), .end_index = (uint32_t)(2 * i + 1),
                                         .write_beginning = true, .write_end = true };
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, &pd);
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, gx, gy, 1);
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
    }
}

/* Durations (s) of timestamp pairs (2i, 2i+1) for i < reps; false when unreadable. */
static bool read_pairs(wg_query_set *qs, int reps, double *out) {
    uint64_t ns[2 * MAX_RUNS];
    if (wg_query_set_read_ns(qs, 0, (uint32_t)(2 * reps), ns) != WG_STATUS_OK)
        return false;
    for (int i = 0; i < reps; i++) {
        if (ns[2 * i + 1] <= ns[2 * i])
            return false;
        out[i] = (double)(ns[2 * i + 1] - ns[2 * i]) * 1e-9;
    }
    return true;
}

/* Sets a row from per-run seconds: rate = bytes / s (GB/s), best and median. */
static void rate_row(bench_row *row, double bytes, double *secs, int n, const char *how) {
    if (!row || n <= 0)
        return;
    double best = bench_min(secs, n), med = bench_median(secs, n);
    row->ours = bytes / best * 1e-9;
    snprintf(row->note, sizeof row->note, "%s; best of %d, median %.4g GB/s, %.1f MiB", how, n,
             bytes / med * 1e-9, bytes / 1048576.0);
}

static int check_floats(rt *r, const char *what, const float *got, const float *want, uint32_t n) {
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < 3)
            fprintf(stderr, "wgc bench: %s: [%u] = %g, expected %g\n", what, i, (double)got[i], (double)want[i]);
    if (bad) {
        fprintf(stderr, "wgc bench: %s: %u of %u values wrong\n", what, bad, n);
        r->wrong++;
    }
    return bad ? 1 : 0;
}

static void on_map(void *user, wg_map_status status) {
    *(wg_map_status *)user = status;
}

/* ---- bandwidth: upload, add, copies, readbacks ---- */
static void bench_bandwidth(rt *r) {
    bench_report *rep = r->rep;
    const uint32_t n = r->sz.n;
    const uint64_t bytes = (uint64_t)n * 4;
    const int runs = r->sz.runs;
    float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes), *want = malloc(bytes);
    if (!ha || !hb || !hc || !want) {
        fprintf(stderr, "wgc bench: out of host memory for %llu-byte buffers\n", (unsigned long long)bytes);
        r->errors++;
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        ha[i] = (float)(i % 1000) * 0.5f + 0.25f;
        hb[i] = 3.0f - (float)(i % 77);
        want[i] = ha[i] + hb[i];
    }
    wg_buffer *a = mkbuf(r, "bench a", bytes, 0), *b = mkbuf(r, "bench b", bytes, 0),
              *c = mkbuf(r, "bench c", bytes, 0), *d = mkbuf(r, "bench d", bytes, 0);
    wg_buffer *mr = mkbuf(r, "bench map-read", bytes, WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST);
    wg_query_set *qs = r->ts ? wg_device_create_query_set(
                                   r->dev, &(wg_query_set_desc){ .label = "bench ts", .count = 2 * MAX_RUNS })
                             : NULL;
    double secs[MAX_RUNS];

    /* upload: write_buffer + an empty submit to flush + wait */
    bench_say(r->opt, "upload %llu bytes x %d", (unsigned long long)bytes, runs + 1);
    for (int i = 0; i <= runs; i++) {
        double t0 = bench_now_s();
        wg_queue_write_buffer(r->q, i % 2 ? b : a, 0, i % 2 ? hb : ha, bytes);
        submit(r, wg_device_create_command_encoder(r->dev, NULL));
        wait_idle(r);
        if (i)
            secs[i - 1] = bench_now_s() - t0;
    }
    wg_queue_write_buffer(r->q, a, 0, ha, bytes);
    wg_queue_write_buffer(r->q, b, 0, hb, bytes);
    rate_row(bench_find_row(rep, "upload_GBps"), (double)bytes, secs, runs, "wg_queue_write_buffer + submit + wait");

    /* add */
    uint32_t gx, gy;
    grid(n / 4, r->sz.n <= (1u << 16) ? 16 : 65535, &gx, &gy);
    wg_compute_pipeline *padd = mkpipe(r->dev, "bench add4", bench_add4_wgsl, NULL);
    wg_buffer *abc[3] = { a, b, c };
    wg_bind_group *gadd = mkgroup(r->dev, padd, 3, abc);
    bench_say(r->opt, "add %u floats x %d", n, runs + 1);
    wg_command_encoder *enc = wg_device_create_command_encoder(r->dev, NULL);
    timed_passes(r, enc, NULL, 1, padd, gadd, gx, gy); /* warm-up */
    submit(r, enc);
    wait_idle(r);
    if (qs) {
        enc = wg_device_create_command_encoder(r->dev, NULL);
        timed_passes(r, enc, qs, runs, padd, gadd, gx, gy);
        submit(r, enc);
        if (read_pairs(qs, runs, secs))
            rate_row(bench_find_row(rep, "add_GBps"), 3.0 * (double)bytes, secs, runs, "GPU timestamps around the pass");
    } else {
        for (int i = 0; i < runs; i++) {
            double t0 = bench_now_s();
            enc = wg_device_create_command_encoder(r->dev, NULL);
            timed_passes(r, enc, NULL, 1, padd, gadd, gx, gy);
            submit(r, enc);
            wait_idle(r);
            secs[i] = bench_now_s() - t0;
        }
        rate_row(bench_find_row(rep, "add_GBps"), 3.0 * (double)bytes, secs, runs, "wall clock (no timestamps)");
    }

    /* readback through wg_buffer_read; the first one checks the add */
    bench_say(r->opt, "readback x %d", runs + 1);
    for (int i = 0; i <= runs; i++) {
        memset(hc, 0xff, bytes);
        double t0 = bench_now_s();
        wg_status st = wg_buffer_read(c, 0, hc, bytes);
        double t = bench_now_s() - t0;
        if (st != WG_STATUS_OK) {
            r->errors++;
            break;
        }
        if (i == 0)
            check_floats(r, "vec4 add", hc, want, n);
        else
            secs[i - 1] = t;
    }
    rate_row(bench_find_row(rep, "readback_GBps"), (double)bytes, secs, runs, "wg_buffer_read (waits, copies out)");

    /* readback through a MAP_READ buffer: copy, submit, map_async, poll, memcpy, unmap */
    for (int i = 0; i <= runs; i++) {
        memset(hc, 0xff, bytes);
        double t0 = bench_now_s();
        enc = wg_device_create_command_encoder(r->dev, NULL);
        wg_command_encoder_copy_buffer_to_buffer(enc, c, 0, mr, 0, bytes);
        submit(r, enc);
        wg_map_status ms = WG_MAP_STATUS_NONE;
        wg_buffer_map_async(mr, WG_MAP_MODE_READ, 0, bytes, on_map, &ms);
        while (ms == WG_MAP_STATUS_NONE && !wg_device_is_lost(r->dev))
            wg_device_poll(r->dev, true);
        const void *p = ms == WG_MAP_STATUS_SUCCESS ? wg_buffer_get_const_mapped_range(mr, 0, bytes) : NULL;
        if (!p) {
            r->errors++;
            break;
        }
        memcpy(hc, p, bytes);
        wg_buffer_unmap(mr);
        double t = bench_now_s() - t0;
        if (i == 0)
            check_floats(r, "map-read readback", hc, want, n);
        else
            secs[i - 1] = t;
    }
    rate_row(bench_find_row(rep, "readback_map_GBps"), (double)bytes, secs, runs,
             "copy to a MAP_READ buffer + map_async + memcpy");

    /* copy_buffer_to_buffer (the runtime's shader copy for large buffers), timestamps around it */
    bench_say(r->opt, "copies x %d", runs + 1);
    wg_device_stats st0, st1;
    wg_device_get_stats(r->dev, &st0);
    enc = wg_device_create_command_encoder(r->dev, NULL);
    wg_command_encoder_copy_buffer_to_buffer(enc, a, 0, d, 0, bytes); /* warm-up */
    for (int i = 0; qs && i < runs; i++) {
        wg_command_encoder_write_timestamp(enc, qs, (uint32_t)(2 * i));
        wg_command_encoder_copy_buffer_to_buffer(enc, a, 0, d, 0, bytes);
        wg_command_encoder_write_timestamp(enc, qs, (uint32_t)(2 * i + 1));
    }
    submit(r, enc);
    wg_device_get_stats(r->dev, &st1);
    if (qs && read_pairs(qs, runs, secs)) {
        rate_row(bench_find_row(rep, "copy_GBps"), 2.0 * (double)bytes, secs, runs, "");
        bench_row *row = bench_find_row(rep, "copy_GBps");
        char tmp[sizeof row->note];
        snprintf(tmp, sizeof tmp, "%s copies, timestamps; %s",
                 st1.shader_copies > st0.shader_copies ? "shader" : "vkCmdCopyBuffer", row->note + 2);
        snprintf(row->note, sizeof row->note, "%s", tmp);
    }
    memset(hc, 0, bytes);
    if (wg_buffer_read(d, 0, hc, bytes) == WG_STATUS_OK)
        check_floats(r, "copy_buffer_to_buffer", hc, ha, n);

    /* the same copy 4 bytes short, not a multiple of 16: vkCmdCopyBuffer on every adapter, the
     * engine the runtime leaves big copies to on CPU adapters only (b -> d, so d changes) */
    const uint64_t odd = bytes - 4;
    wg_device_get_stats(r->dev, &st0);
    enc = wg_device_create_command_encoder(r->dev, NULL);
    wg_command_encoder_copy_buffer_to_buffer(enc, b, 0, d, 0, odd); /* warm-up */
    for (int i = 0; qs && i < runs; i++) {
        wg_command_encoder_write_timestamp(enc, qs, (uint32_t)(2 * i));
        wg_command_encoder_copy_buffer_to_buffer(enc, b, 0, d, 0, odd);
        wg_command_encoder_write_timestamp(enc, qs, (uint32_t)(2 * i + 1));
    }
    submit(r, enc);
    wg_device_get_stats(r->dev, &st1);
    if (qs && read_pairs(qs, runs, secs)) {
        bench_row *row = bench_find_row(rep, "copy_transfer_GBps");
        rate_row(row, 2.0 * (double)odd, secs, runs, "");
        if (row) {
            char tmp[sizeof row->note];
            snprintf(tmp, sizeof tmp, "%llu-byte copies (not 16-byte sized): %s, timestamps; %s",
                     (unsigned long long)odd, st1.shader_copies > st0.shader_copies ? "shader" : "vkCmdCopyBuffer",
                     row->note + 2);
            snprintf(row->note, sizeof row->note, "%s", tmp);
        }
    }
    memset(hc, 0, bytes);
    if (wg_buffer_read(d, 0, hc, bytes) == WG_STATUS_OK)
        check_floats(r, "copy_buffer_to_buffer, odd size", hc, hb, n - 1);

    /* our WGSL vec4 copy kernel, b -> d */
    wg_compute_pipeline *pcopy = mkpipe(r->dev, "bench copy4", bench_copy4_wgsl, NULL);
    wg_buffer *bd[2] = { b, d };
    wg_bind_group *gcopy = mkgroup(r->dev, pcopy, 2, bd);
    enc = wg_device_create_command_encoder(r->dev, NULL);
    timed_passes(r, enc, NULL, 1, pcopy, gcopy, gx, gy);
    submit(r, enc);
    if (qs) {
        enc = wg_device_create_command_encoder(r->dev, NULL);
        timed_passes(r, enc, qs, runs, pcopy, gcopy, gx, gy);
        submit(r, enc);
        if (read_pairs(qs, runs, secs))
            rate_row(bench_find_row(rep, "copy_wgsl_GBps"), 2.0 * (double)bytes, secs, runs,
                     "bench/kernels/copy4.wgsl, timestamps");
    }
    memset(hc, 0, bytes);
    if (wg_buffer_read(d, 0, hc, bytes) == WG_STATUS_OK)
        check_floats(r, "copy4.wgsl", hc, hb, n);

    wg_bind_group_release(gcopy);
    wg_compute_pipeline_release(pcopy);
    wg_bind_group_release(gadd);
    wg_compute_pipeline_release(padd);
    if (qs)
        wg_query_set_release(qs);
    wg_buffer_release(a);
    wg_buffer_release(b);
    wg_buffer_release(c);
    wg_buffer_release(d);
    wg_buffer_release(mr);
out:
    free(ha);
    free(hb);
    free(hc);
    free(want);
}

/* ---- dependent tiny dispatches and submit round trips ---- */
static void record_chain(wg_command_encoder *enc, wg_query_set *qs, int slot, wg_compute_pipeline *p,
                         wg_bind_group *bg, uint32_t ops) {
    wg_compute_pass_desc pd = { .label = "chain" };
    if (qs)
        pd = (wg_compute_pass_desc){ .label = "chain", .timestamp_query_set = qs,
                                     .beginning_index = (uint32_t)(2 * slot),
                                     .end_index = (uint32_t)(2 * slot + 1), .write_beginning = true,
                                     .write_end = true };
    wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(enc, &pd);
    for (uint32_t k = 0; k < ops; k++) { /* as a tensor library records ops: state set per op */
        wg_compute_pass_set_pipeline(pass, p);
        wg_compute_pass_set_bind_group(pass, 0, bg, 0, NULL);
        wg_compute_pass_dispatch_workgroups(pass, TINY_N / 64, 1, 1);
    }
    wg_compute_pass_end(pass);
    wg_compute_pass_release(pass);
}

static void bench_dispatch(rt *r) {
    bench_report *rep = r->rep;
    const uint32_t ops = r->sz.ops;
    const int runs = r->sz.runs;
    float host[TINY_N], back[TINY_N];
    for (uint32_t i = 0; i < TINY_N; i++)
        host[i] = (float)i;
    wg_buffer *t = mkbuf(r, "bench tiny", TINY_N * 4, 0);
    wg_queue_write_buffer(r->q, t, 0, host, sizeof host);
    wg_compute_pipeline *p = mkpipe(r->dev, "bench inc", bench_inc_wgsl, NULL);
    wg_bind_group *bg = mkgroup(r->dev, p, 1, &t);
    wg_query_set *qs = r->ts ? wg_device_create_query_set(
                                   r->dev, &(wg_query_set_desc){ .label = "chain ts", .count = 2 * MAX_RUNS })
                             : NULL;
    uint64_t done = 0;
    /* warm-up: the timed chains themselves for BENCH_WARM_S (the GPU's clocks after idle) */
    wg_command_encoder *enc;
    for (double until = bench_now_s() + BENCH_WARM_S; bench_now_s() < until; done += ops) {
        enc = wg_device_create_command_encoder(r->dev, NULL);
        record_chain(enc, NULL, 0, p, bg, ops);
        submit(r, enc);
        wait_idle(r);
    }

    bench_say(r->opt, "%u dependent dispatches x %d", ops, runs);
    double rec[MAX_RUNS], e2e[MAX_RUNS], gpu[MAX_RUNS];
    wg_device_stats s0, s1;
    wg_device_get_stats(r->dev, &s0);
    for (int i = 0; i < runs; i++) {
        double t0 = bench_now_s();
        enc = wg_device_create_command_encoder(r->dev, NULL);
        record_chain(enc, qs, i, p, bg, ops);
        wg_command_buffer *cb = wg_command_encoder_finish(enc, NULL);
        wg_command_encoder_release(enc);
        double t1 = bench_now_s();
        wg_queue_submit(r->q, 1, &cb);
        wait_idle(r);
        double t2 = bench_now_s();
        rec[i] = (t1 - t0) / ops * 1e6;
        e2e[i] = (t2 - t0) / ops * 1e6;
        done += ops;
    }
    wg_device_get_stats(r->dev, &s1);
    bool have_gpu = qs && read_pairs(qs, runs, gpu);
    if (wg_buffer_read(t, 0, back, sizeof back) == WG_STATUS_OK) {
        float want[TINY_N];
        for (uint32_t i = 0; i < TINY_N; i++)
            want[i] = (float)i + (float)done;
        check_floats(r, "dependent chain", back, want, TINY_N);
    }
    unsigned long long barriers = (unsigned long long)(s1.barriers - s0.barriers);
    bench_row *row = bench_find_row(rep, "dep_e2e_us");
    if (row) {
        double best = bench_min(e2e, runs);
        row->ours = best;
        snprintf(row->note, sizeof row->note, "%u dependent dispatches in one submit, record+submit+wait; best of %d, "
                 "median %.3g us; %llu barriers", ops, runs, bench_median(e2e, runs), barriers);
    }
    if ((row = bench_find_row(rep, "dep_record_us"))) {
        row->ours = bench_min(rec, runs);
        snprintf(row->note, sizeof row->note, "set pipeline + bind group + dispatch per op; median %.3g us",
                 bench_median(rec, runs));
    }
    if (have_gpu && (row = bench_find_row(rep, "dep_gpu_us"))) {
        for (int i = 0; i < runs; i++)
            gpu[i] = gpu[i] / ops * 1e6;
        row->ours = bench_min(gpu, runs);
        snprintf(row->note, sizeof row->note, "pass timestamps / %u; median %.3g us", ops, bench_median(gpu, runs));
    }

    /* submit + wait round trips: one tiny dispatch, then an empty command buffer */
    uint32_t R = r->sz.roundtrips;
    double *rt_us = malloc(R * sizeof *rt_us);
    for (int kind = 0; rt_us && kind < 2; kind++) {
        double until = bench_now_s() + BENCH_WARM_S;   /* warm-up: the same round trips, BENCH_WARM_S */
        for (uint32_t i = 0; i < R;) {
            double t0 = bench_now_s();
            enc = wg_device_create_command_encoder(r->dev, NULL);
            if (kind == 0)
                record_chain(enc, NULL, 0, p, bg, 1);
            submit(r, enc);
            wait_idle(r);
            if (t0 >= until)
                rt_us[i++] = (bench_now_s() - t0) * 1e6;
        }
        const char *k_mean = kind == 0 ? "submit_wait_us" : "submit_wait_empty_us";
        const char *k_min = kind == 0 ? "submit_wait_min_us" : NULL;
        if ((row = bench_find_row(rep, k_mean))) {
            row->ours = bench_mean(rt_us, (int)R);
            snprintf(row->note, sizeof row->note, "%s: encode + submit + wait, mean of %u after %.1f s of them",
                     kind == 0 ? "one 1024-element dispatch" : "empty command buffer", R, BENCH_WARM_S);
        }
        if (k_min && (row = bench_find_row(rep, k_min))) {
            row->ours = bench_min(rt_us, (int)R);
            snprintf(row->note, sizeof row->note, "min of the same %u", R);
        }
    }
    free(rt_us);
    if (qs)
        wg_query_set_release(qs);
    wg_bind_group_release(bg);
    wg_compute_pipeline_release(p);
    wg_buffer_release(t);
}

/* The same tiny op on `ops` disjoint 4 KiB ranges of one buffer (one bind group each): no
 * hazards, so the runtime needs no barriers (it still puts one each time its hazard table of
 * WG_HAZARD_MAX ranges fills); the GPU time per op beside the dependent chain's shows what the
 * barriers cost. */
static void bench_independent(rt *r) {
    const uint32_t ops = r->sz.ops, stride = 4096, per = TINY_N; /* 1024 floats = 4 KiB per op */
    const int runs = r->sz.runs;
    wg_query_set *qs = r->ts ? wg_device_create_query_set(
                                   r->dev, &(wg_query_set_desc){ .label = "indep ts", .count = 2 * MAX_RUNS })
                             : NULL;
    wg_buffer *big = mkbuf(r, "bench independent", (uint64_t)ops * stride, 0);
    wg_compute_pipeline *p = mkpipe(r->dev, "bench inc", bench_inc_wgsl, NULL);
    wg_bind_group **bgs = calloc(ops, sizeof *bgs);
    float *host = malloc((size_t)ops * stride), *back = malloc((size_t)ops * stride);
    if (!qs || !bgs || !host || !back)
        goto out;
    for (uint32_t i = 0; i < ops * per; i++)
        host[i] = (float)(i % 4099);
    wg_queue_write_buffer(r->q, big, 0, host, (uint64_t)ops * stride);
    for (uint32_t k = 0; k < ops; k++)
        bgs[k] = wg_device_create_bind_group(
            r->dev, &(wg_bind_group_desc){ .layout = wg_compute_pipeline_get_bind_group_layout(p, 0),
                                           .entry_count = 1,
                                           .entries = &(wg_bind_group_entry){ .binding = 0, .buffer = big,
                                                                              .offset = (uint64_t)k * stride,
                                                                              .size = stride } });
    double gpu[MAX_RUNS];
    wg_device_stats s0, s1;
    wg_device_get_stats(r->dev, &s0);
    for (int i = 0; i <= runs; i++) { /* the first is a warm-up */
        wg_command_encoder *enc = wg_device_create_command_encoder(r->dev, NULL);
        wg_compute_pass *pass = wg_command_encoder_begin_compute_pass(
            enc, &(wg_compute_pass_desc){ .label = "independent", .timestamp_query_set = qs,
                                          .beginning_index = (uint32_t)(2 * i), .end_index = (uint32_t)(2 * i + 1),
                                          .write_beginning = true, .write_end = true });
        for (uint32_t k = 0; k < ops; k++) {
            wg_compute_pass_set_pipeline(pass, p);
            wg_compute_pass_set_bind_group(pass, 0, bgs[k], 0, NULL);
            wg_compute_pass_dispatch_workgroups(pass, per / 64, 1, 1);
        }
        wg_compute_pass_end(pass);
        wg_compute_pass_release(pass);
        submit(r, enc);
    }
    wait_idle(r);
    wg_device_get_stats(r->dev, &s1);
    bool have = read_pairs(qs, runs + 1, gpu);
    if (wg_buffer_read(big, 0, back, (uint64_t)ops * stride) == WG_STATUS_OK) {
        for (uint32_t i = 0; i < ops * per; i++)
            host[i] += (float)(runs + 1);
        check_floats(r, "independent dispatches", back, host, ops * per);
    }
    bench_row *row = bench_find_row(r->rep, "indep_gpu_us");
    if (have && row) {
        for (int i = 0; i < runs; i++)
            gpu[i] = gpu[i + 1] / ops * 1e6;
        row->ours = bench_min(gpu, runs);
        snprintf(row->note, sizeof row->note, "%u dispatches on disjoint 4 KiB ranges, one pass; median %.3g us; "
                 "%llu barriers in %d passes", ops, bench_median(gpu, runs),
                 (unsigned long long)(s1.barriers - s0.barriers), runs + 1);
    }
out:
    for (uint32_t k = 0; bgs && k < ops; k++)
        wg_bind_group_release(bgs[k]);
    free(bgs);
    free(host);
    free(back);
    wg_compute_pipeline_release(p);
    wg_buffer_release(big);
    if (qs)
        wg_query_set_release(qs);
}

/* ---- pipeline creation ---- */
static void rm_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char p[512];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* typical300.wgsl with `const SALT: f32 = 1.0;` replaced by a value of its own (an integer,
 * exact in f32), so the SPIR-V - and every cache key - is new. */
static char *salted_kernel(uint32_t salt) {
    const char *src = bench_typical300_wgsl, *mark = "const SALT: f32 = 1.0;";
    const char *at = strstr(src, mark);
    size_t len = strlen(src);
    char *out = malloc(len + 32);
    if (!out || !at) {
        free(out);
        return NULL;
    }
    size_t pre = (size_t)(at - src);
    memcpy(out, src, pre);
    int w = sprintf(out + pre, "const SALT: f32 = %u.0;", salt);
    strcpy(out + pre + (size_t)w, at + strlen(mark));
    return out;
}

static double time_pipeline(wg_device *dev, const char *src, double *module_ms) {
    double t0 = bench_now_s();
    wg_shader_module *sm =
        wg_device_create_shader_module(dev, &(wg_shader_module_desc){ .label = "typical300", .wgsl = src });
    double t1 = bench_now_s();
    wg_compute_pipeline *p = wg_device_create_compute_pipeline(
        dev, &(wg_compute_pipeline_desc){ .label = "typical300 matmul", .module = sm, .entry_point = "matmul" });
    double t2 = bench_now_s();
    bool ok = wg_compute_pipeline_is_valid(p);
    wg_compute_pipeline_release(p);
    wg_shader_module_release(sm);
    if (module_ms)
        *module_ms = (t1 - t0) * 1e3;
    return ok ? (t2 - t1) * 1e3 : NAN;
}

static void bench_pipelines(rt *r) {
    bench_report *rep = r->rep;
    int runs = r->sz.pipe_runs;
    double cold[MAX_RUNS], disk[MAX_RUNS], mem[MAX_RUNS], mod[MAX_RUNS];
    int nc = 0, nd = 0, nm = 0;
    uint64_t disk_hits = 0, loaded = 0, mem_hits = 0;
    uint32_t nonce = (uint32_t)(((uint64_t)(bench_now_s() * 1e6) ^ ((uint64_t)getpid() << 20)) % 8000000u) + 2u;
    bench_say(r->opt, "pipeline creation x %d", runs);
    for (int i = 0; i < runs; i++) {
        char dir[] = "/tmp/wgc-bench-pcache-XXXXXX";
        if (!mkdtemp(dir)) {
            r->errors++;
            break;
        }
        char *src = salted_kernel(nonce + (uint32_t)i);
        wg_device *dev = src ? make_device(r, "bench pipelines cold", dir) : NULL;
        if (dev) {
            double mms;
            double ms = time_pipeline(dev, src, &mms);
            if (!isnan(ms)) {
                cold[nc] = ms;
                mod[nc++] = mms;
            }
            wg_device_release(dev); /* writes the on-disk cache */
        }
        if (src && (dev = make_device(r, "bench pipelines warm", dir)) != NULL) {
            wg_device_stats s;
            double ms = time_pipeline(dev, src, NULL);
            wg_device_get_stats(dev, &s);
            if (!isnan(ms))
                disk[nd++] = ms;
            disk_hits += s.pipeline_disk_cache_hits;
            loaded += s.pipeline_cache_loaded_bytes;
            ms = time_pipeline(dev, src, NULL);
            wg_device_stats s2;
            wg_device_get_stats(dev, &s2);
            if (!isnan(ms))
                mem[nm++] = ms;
            mem_hits += s2.pipeline_memory_hits - s.pipeline_memory_hits;
            wg_device_release(dev);
        }
        free(src);
        rm_dir(dir);
    }
    bench_row *row;
    if (nc && (row = bench_find_row(rep, "pipeline_cold_ms"))) {
        row->ours = bench_median(cold, nc);
        snprintf(row->note, sizeof row->note, "typical300.wgsl 'matmul', new kernel + empty cache dir each; median of %d, "
                 "min %.3g ms", nc, bench_min(cold, nc));
    }
    if (nc && (row = bench_find_row(rep, "shader_module_ms"))) {
        row->ours = bench_median(mod, nc);
        snprintf(row->note, sizeof row->note, "wg_device_create_shader_module from WGSL (wgc compiler); median of %d", nc);
    }
    if (nd && (row = bench_find_row(rep, "pipeline_warm_disk_ms"))) {
        row->ours = bench_median(disk, nd);
        snprintf(row->note, sizeof row->note, "new device, same cache dir; median of %d; %llu disk-cache hits, "
                 "%llu cache bytes loaded", nd, (unsigned long long)disk_hits, (unsigned long long)loaded);
    }
    if (nm && (row = bench_find_row(rep, "pipeline_warm_mem_ms"))) {
        row->ours = bench_median(mem, nm);
        snprintf(row->note, sizeof row->note, "same device, same source again: pipeline call only; median of %d; %llu memory hits",
                 nm, (unsigned long long)mem_hits);
    }
}

/* ---- baselines ---- */
static void set_base(bench_report *rep, const char *key, int b, double v, const char *what) {
    bench_row *row = bench_find_row(rep, key);
    if (!row || isnan(v))
        return;
    row->base[b] = v;
    snprintf(row->base_note[b], sizeof row->base_note[b], "%s", what);
}

static void baseline_torch(rt *r, int b) {
    bench_report *rep = r->rep;
    char n[32], ops[32], runs[32], rts[32];
    snprintf(n, sizeof n, "%u", r->sz.n);
    snprintf(ops, sizeof ops, "%u", r->sz.ops);
    snprintf(runs, sizeof runs, "%d", r->sz.runs);
    snprintf(rts, sizeof rts, "%u", r->sz.roundtrips);
    const char *args[] = { "--n", n, "--ops", ops, "--runs", runs, "--roundtrips", rts, NULL };
    const char *js;
    char *out = bench_torch_baseline(rep, b, r->opt, r->info->type == WG_ADAPTER_TYPE_CPU, r->info->name,
                                     "baseline_runtime.py", args, "CUDA events", &js);
    if (!out)
        return;
    set_base(rep, "upload_GBps", b, bench_json_num(js, "upload_GBps", NULL), "pinned host->device");
    set_base(rep, "readback_GBps", b, bench_json_num(js, "readback_GBps", NULL), "device->pinned host");
    set_base(rep, "readback_map_GBps", b, bench_json_num(js, "readback_GBps", NULL), "device->pinned host");
    set_base(rep, "add_GBps", b, bench_json_num(js, "add_GBps", NULL), "torch.add, CUDA events");
    set_base(rep, "copy_GBps", b, bench_json_num(js, "copy_GBps", NULL), "Tensor.copy_ device->device");
    set_base(rep, "copy_wgsl_GBps", b, bench_json_num(js, "copy_GBps", NULL), "Tensor.copy_ device->device");
    set_base(rep, "copy_transfer_GBps", b, bench_json_num(js, "copy_GBps", NULL), "Tensor.copy_ device->device");
    set_base(rep, "dep_e2e_us", b, bench_json_num(js, "tiny_eager_us", NULL), "eager dependent adds + sync");
    set_base(rep, "dep_gpu_us", b, bench_json_num(js, "tiny_graph_us", NULL), "same in a CUDA graph");
    set_base(rep, "submit_wait_us", b, bench_json_num(js, "sync_us_mean", NULL), "tiny kernel + synchronize, mean");
    set_base(rep, "submit_wait_min_us", b, bench_json_num(js, "sync_us_min", NULL), "tiny kernel + synchronize, min");
    free(out);
}

/* Runs dawn-bench.mjs once with ONLY=<only>; returns its stdout (malloc'ed) or NULL with *why. */
static char *dawn_run(rt *r, const char *dir, const char *only, char *why, size_t cap) {
    char node[1024], script[1024], pkg[1024], onlyenv[64];
    snprintf(node, sizeof node, "%s/node", dir);
    if (access(node, X_OK) != 0)
        snprintf(node, sizeof node, "node");
    snprintf(script, sizeof script, "%s/dawn-bench.mjs", dir);
    snprintf(pkg, sizeof pkg, "%s/webgpu", dir);
    if (!bench_file_exists(script) || !bench_file_exists(pkg)) {
        snprintf(why, cap, "$WGC_DAWN=%s lacks dawn-bench.mjs or webgpu/", dir);
        return NULL;
    }
    char *abs_pkg = realpath(pkg, NULL);
    snprintf(onlyenv, sizeof onlyenv, "ONLY=%s", only);
    const char *argv[12] = { node, script, abs_pkg ? abs_pkg : pkg };
    int argc = 3;
    char extra[512] = "";
    const char *ea = getenv("WGC_DAWN_ARGS");
    if (ea)
        snprintf(extra, sizeof extra, "%s", ea);
    for (char *tok = strtok(extra, " "); tok && argc < 11; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    const char *env[] = { onlyenv, NULL };
    char *out = NULL;
    int rc = -1;
    for (int attempt = 0; attempt < 2; attempt++) { /* dawn.node crashes now and then */
        free(out);
        bench_say(r->opt, "baseline: %s %s (ONLY=%s, attempt %d)", node, script, only, attempt + 1);
        rc = bench_spawn(argv, env, 300, !r->opt->verbose, &out);
        if (rc == 0 && out && strstr(out, "\"adapter\""))
            break;
    }
    free(abs_pkg);
    if (rc != 0 || !out) {
        char e[120] = "";
        if (out && strstr(out, "\"error\""))
            bench_json_str(strstr(out, "{\"error\""), "error", e, sizeof e);
        snprintf(why, cap, "dawn-bench.mjs ONLY=%s exited with status %d%s%s", only, rc, e[0] ? ": " : "", e);
        free(out);
        return NULL;
    }
    return out;
}

static void baseline_dawn(rt *r, int b) {
    bench_report *rep = r->rep;
    const char *dir = getenv("WGC_DAWN");
    if (!dir || !*dir) {
        bench_baseline_status(rep, b, false, "WGC_DAWN not set (a directory with dawn-bench.mjs and webgpu/)");
        return;
    }
    char why[300] = "", desc[160] = "?";
    int got = 0;
    const char *parts[2] = { "dispatch", "add" };
    for (int k = 0; k < 2; k++) { /* one node process per measurement */
        char *out = dawn_run(r, dir, parts[k], why, sizeof why);
        if (!out)
            continue;
        got++;
        const char *ad = strstr(out, "{\"adapter\"");
        if (ad && !bench_json_str(ad, "desc", desc, sizeof desc))
            bench_json_str(ad, "device", desc, sizeof desc);
        for (char *line = out; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = 0;
            if (!strncmp(line, "{\"add\"", 6)) { /* dawn-bench's add is 2^26 floats (or its binding limit) */
                char what[40];
                snprintf(what, sizeof what, "vec4 add, %.0f floats", bench_json_num(line, "n", NULL));
                set_base(rep, "add_GBps", b, bench_json_num(line, "GBps", NULL), what);
            } else if (!strncmp(line, "{\"copy\"", 7)) {
                char what[40];
                snprintf(what, sizeof what, "copyBufferToBuffer, %.0f MiB", bench_json_num(line, "bytes", NULL) / 1048576.0);
                set_base(rep, "copy_GBps", b, bench_json_num(line, "GBps", NULL), what);
            } else if (!strncmp(line, "{\"dispatch\"", 11) && strstr(line, "\"passPerDispatch\":false")) {
                set_base(rep, "dep_e2e_us", b, bench_json_num(line, "usPerDispatch", NULL),
                         "2000 dispatches, one pass, wall");
            } else if (!strncmp(line, "{\"roundtrip\"", 12)) {
                set_base(rep, "submit_wait_us", b, bench_json_num(line, "usPerSubmitWait", NULL),
                         "submit + onSubmittedWorkDone");
            }
            line = nl ? nl + 1 : NULL;
        }
        free(out);
    }
    if (got)
        bench_baseline_status(rep, b, true, "Dawn (dawn-bench.mjs) on %s%s%s", desc, why[0] ? "; " : "", why);
    else
        bench_baseline_status(rep, b, false, "%s", why);
}

/* ---- driver ---- */
/* The rows, in print order: X(key, name, unit, better, target); NAN = no target in the issue. */
#define RUNTIME_ROWS(X) \
    X(add_GBps, "vec4 add (GPU time)", "GB/s", HIGHER, 4200) \
    X(copy_GBps, "copy_buffer_to_buffer (GPU time)", "GB/s", HIGHER, NAN) \
    X(copy_transfer_GBps, "vkCmdCopyBuffer copy (GPU time)", "GB/s", HIGHER, NAN) \
    X(copy_wgsl_GBps, "WGSL vec4 copy kernel (GPU time)", "GB/s", HIGHER, NAN) \
    X(dep_e2e_us, "dependent tiny op, end to end", "us", LOWER, 2.5) \
    X(dep_gpu_us, "dependent tiny op, GPU time", "us", LOWER, 2.5) \
    X(dep_record_us, "dependent tiny op, CPU record", "us", LOWER, NAN) \
    X(indep_gpu_us, "independent tiny op, GPU time", "us", LOWER, NAN) \
    X(submit_wait_us, "submit+wait, tiny dispatch (mean)", "us", LOWER, 25) \
    X(submit_wait_min_us, "submit+wait, tiny dispatch (min)", "us", LOWER, NAN) \
    X(submit_wait_empty_us, "submit+wait, empty (mean)", "us", LOWER, NAN) \
    X(upload_GBps, "upload (write_buffer)", "GB/s", HIGHER, 40) \
    X(readback_GBps, "readback (wg_buffer_read)", "GB/s", HIGHER, NAN) \
    X(readback_map_GBps, "readback (map-read buffer)", "GB/s", HIGHER, NAN) \
    X(shader_module_ms, "shader module from WGSL (300 lines)", "ms", LOWER, NAN) \
    X(pipeline_cold_ms, "pipeline creation, cold", "ms", LOWER, NAN) \
    X(pipeline_warm_disk_ms, "pipeline creation, warm (disk cache)", "ms", LOWER, 1) \
    X(pipeline_warm_mem_ms, "pipeline creation, warm (in memory)", "ms", LOWER, 1)

enum {
#define X(key, name, unit, better, target) RT_ROW_##key,
    RUNTIME_ROWS(X)
#undef X
    RT_ROW_COUNT
};
_Static_assert(RT_ROW_COUNT == 18, "runtime rows: update the count, doc/bench.md and tests/cli/test_bench.sh");
_Static_assert(RT_ROW_COUNT <= BENCH_MAX_ROWS, "report too small");

static void add_rows(bench_report *rep) {
#define X(key, name, unit, better, target) bench_add_row(rep, #key, name, unit, BENCH_##better, target);
    RUNTIME_ROWS(X)
#undef X
}

int bench_runtime(const bench_options *opt) {
    bench_report *rep = calloc(1, sizeof *rep);
    rt r = { .opt = opt, .rep = rep };
    if (!rep)
        return 2;
    bench_report_init(rep, "runtime");
    wg_error err;
    wg_instance_desc idesc = { .label = "bench", .validation = -1 };
    wg_adapter_options aopt = { .label = "bench" };
    if (wg_config_from_env(&r.env, &idesc, &aopt, &r.base, &err))
        r.inst = wg_instance_create(&idesc, &err);
    if (!r.inst) {
        free(rep);
        fprintf(stderr, "wgc bench: %s\n", err.message);
        return 2;
    }
    r.ad = wg_instance_request_adapter(r.inst, &aopt, &err);
    if (!r.ad) {
        fprintf(stderr, "wgc bench: %s\n", err.message);
        wg_instance_release(r.inst);
        free(rep);
        return 2;
    }
    r.info = wg_adapter_get_info(r.ad);
    rep->cpu_adapter = r.info->type == WG_ADAPTER_TYPE_CPU;
    bench_size size = opt->size;
    if (size == BENCH_SIZE_AUTO)
        size = r.info->type == WG_ADAPTER_TYPE_CPU ? BENCH_SIZE_MEDIUM : BENCH_SIZE_FULL;
    static const rt_sizes sizes[BENCH_SIZE_COUNT] = {
        [BENCH_SIZE_SMALL] = { "small", 1u << 16, 100, 20, 3, 2 },
        [BENCH_SIZE_MEDIUM] = { "medium", 1u << 22, 1000, 100, 3, 3 },
        [BENCH_SIZE_FULL] = { "full", 1u << 26, 1000, 200, 10, 3 },
    };
    r.sz = sizes[size];
    if (opt->runs)
        r.sz.runs = r.sz.pipe_runs = opt->runs < MAX_RUNS ? opt->runs : MAX_RUNS;
    const wg_limits *lim = wg_adapter_get_limits(r.ad);
    uint64_t max_bytes = lim->max_storage_buffer_binding_size < lim->max_buffer_size
                             ? lim->max_storage_buffer_binding_size : lim->max_buffer_size;
    while ((uint64_t)r.sz.n * 4 > max_bytes && r.sz.n > 1024)
        r.sz.n /= 2;

    r.dev = make_device(&r, "bench", "");
    if (!r.dev) {
        wg_instance_release(r.inst);
        free(rep);
        return 2;
    }
    r.q = wg_device_get_queue(r.dev);
    r.ts = wg_device_has_feature(r.dev, WG_FEATURE_TIMESTAMP_QUERY);
    bench_info(rep, "adapter", "%s (%s, %s %s)", r.info->name, wg_adapter_type_name(r.info->type),
               r.info->driver_name, r.info->driver_info);
    bench_info(rep, "size", "%s: %u floats (%.1f MiB) per buffer, %u dependent ops, %d runs%s", r.sz.name, r.sz.n,
               r.sz.n * 4.0 / 1048576.0, r.sz.ops, r.sz.runs, r.ts ? "" : "; no timestamp queries: wall clock");
    add_rows(rep);

    bench_bandwidth(&r);
    bench_dispatch(&r);
    bench_independent(&r);
    bench_pipelines(&r);
    wg_device_release(r.dev);

    int bt = bench_add_baseline(rep, "torch"), bd = bench_add_baseline(rep, "dawn");
    if (bench_want(opt, "torch"))
        baseline_torch(&r, bt);
    else
        bench_baseline_status(rep, bt, false, "not selected (--baseline %s)", opt->baseline);
    if (bench_want(opt, "dawn"))
        baseline_dawn(&r, bd);
    else
        bench_baseline_status(rep, bd, false, "not selected (--baseline %s)", opt->baseline);

    if (r.errors)
        bench_info(rep, "errors", "%d runtime errors; last: %s", r.errors, r.last_error);
    if (r.wrong)
        bench_info(rep, "WRONG", "%d results did not match the CPU reference", r.wrong);
    if (bench_output(rep, opt))
        r.errors++;
    wg_instance_release(r.inst);
    free(rep);
    return r.wrong ? 1 : r.errors ? 2 : 0;
}
