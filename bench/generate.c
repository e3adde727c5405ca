/* generate.c - `wgc bench generate`: text generation with wgc's llama-family engine (wl_engine,
 * include/wgc/llm.h) beside llama.cpp's `llama-bench` and transformers + PyTorch eager, measured
 * in the same run (issue 20, "Performance").  Models (--models picks; full size: all three):
 *   smollm2   SmolLM2-135M-Instruct Q4_1, the real file (-m FILE, or --model-dir DIR holding
 *             SmolLM2-135M-Instruct.Q4_1.gguf; default ~/.cache/wgc/models); where there is none,
 *             a synthetic file of its shape and formats (the row's note says so)
 *   llama1b   Llama-3.2-1B's shape (16 layers, width 2048, 32 heads, 8 KV heads, FFN 8192, tied
 *             head), Q4_K_M, random weights (bench/gguf_synth.c)
 *   llama8b   Llama-3-8B's shape (32 layers, width 4096, 32 heads, 8 KV heads, FFN 14336, its own
 *             head), Q4_K_M, random weights
 * Both Llama 3 shapes have Llama 3's vocabulary of 128256 entries.  Synthetic files are written
 * once and kept under --synth-dir (default ~/.cache/wgc/synth), named by shape and format.
 * Rows per model:
 *   decode     tokens/s of batch-1 greedy decoding: `gen` steps (each wl_engine_eval of one token,
 *              then the sampler's argmax on the GPU and its 4-byte readback) after a short prompt;
 *              wall clock, as llama-bench's tg test (which starts from an empty context)
 *   prefill    tokens/s of one wl_engine_eval of a `prompt`-token prompt (the last row's logits),
 *              then wt_sync; wall clock, as llama-bench's pp test
 *   decode GB/s  the weights' bytes on the GPU x decode tokens/s (each step reads every weight);
 *              the 8B shape's target at full size is 60% of the H200's 4.8 TB/s
 *   peak       wt_stats.peak_allocated_bytes of a context that ran only that model (the pool: KV
 *              cache, F32 weights, activations, pooled buffers) + the bytes of the block-format
 *              weights, which wt_qweight_upload keeps in buffers of their own outside wt_stats;
 *              target weights + KV cache + 10%
 * Prompts are random token ids (seeded); best of --runs after warm-up runs (at least one, and
 * BENCH_WARM_S of them: the GPU's clocks), the median in the note
 * (and the GPU time from wt's batch timestamps where the adapter has them).  A prefill whose last
 * logits are not all finite is a wrong result (exit 1). */
#include "bench.h"
#include "gguf_synth.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "wgc/llm.h"

/* X(key, name, synthetic file prefix) */
#define GEN_MODELS(X)                                        \
    X(smollm2, "SmolLM2-135M Q4_1", "smollm2-135m")          \
    X(llama1b, "Llama-3.2-1B Q4_K_M", "llama-3.2-1b")        \
    X(llama8b, "Llama-3-8B Q4_K_M", "llama-3-8b")

enum {
#define X(key, name, prefix) GEN_##key,
    GEN_MODELS(X)
#undef X
    GEN_MODEL_COUNT
};

static const struct {
    const char *key, *name, *prefix;
} gen_models[GEN_MODEL_COUNT] = {
#define X(key, name, prefix) { #key, name, prefix },
    GEN_MODELS(X)
#undef X
};

/* The shapes: the real ones, and tiny ones of the same kind for --size small (smoke tests). */
static const synth_shape gen_full[GEN_MODEL_COUNT] = {
    [GEN_smollm2] = { 30, 576, 9, 3, 1536, 49152, 8192, true, 100000, SYNTH_Q4_1 },
    [GEN_llama1b] = { 16, 2048, 32, 8, 8192, 128256, 131072, true, 500000, SYNTH_Q4_K_M },
    [GEN_llama8b] = { 32, 4096, 32, 8, 14336, 128256, 8192, false, 500000, SYNTH_Q4_K_M },
};
static const synth_shape gen_tiny[GEN_MODEL_COUNT] = {
    [GEN_smollm2] = { 2, 64, 4, 2, 128, 512, 512, true, 100000, SYNTH_Q4_1 },
    [GEN_llama1b] = { 2, 256, 4, 1, 512, 512, 512, true, 500000, SYNTH_Q4_K_M },
    [GEN_llama8b] = { 3, 256, 4, 2, 768, 512, 512, false, 500000, SYNTH_Q4_K_M },
};

#define GEN_SMOLLM2_FILE "SmolLM2-135M-Instruct.Q4_1.gguf"
#define GEN_SHORT 8                 /* the decode rows' prompt */
#define GEN_HBM_GBPS 4800.0         /* H200 HBM3e: the 8B decode target is 60% of it (issue 20) */
#define GEN_ROWS_PER_MODEL 4
#define GEN_MAX_EXTRA 16            /* words in --llama-bench-args */

typedef struct gen_cfg {
    bool want[GEN_MODEL_COUNT];
    const char *model;        /* -m FILE: the smollm2 row's file */
    const char *model_dir;    /* --model-dir */
    char synth_dir[1024];     /* --synth-dir, or ~/.cache/wgc/synth */
    const char *llama_bench;  /* --llama-bench, or $WGC_LLAMA_BENCH */
    const char *llama_bench_vk;   /* --llama-bench-vulkan, or $WGC_LLAMA_BENCH_VULKAN: its Vulkan build */
    const char *extra_args;   /* --llama-bench-args, or $WGC_LLAMA_BENCH_ARGS: more of its options */
    char extra_buf[512];
    const char *extra[GEN_MAX_EXTRA];   /* extra_args split at spaces */
    int nextra;
    bool tiny;                /* --size small: the tiny shapes */
    uint32_t prompt, gen, runs;
    char path[GEN_MODEL_COUNT][1200];   /* synth_dir/name: 1000 + 1 + 159 */   /* each model's file */
    char origin[GEN_MODEL_COUNT][200];  /* where it came from, for the notes */
    double weight_bytes[GEN_MODEL_COUNT];
} gen_cfg;

typedef struct gb {
    const bench_options *opt;
    bench_report *rep;
    double rel[BENCH_MAX_ROWS];   /* per row: the target as a fraction of llama.cpp's figure (NaN: none) */
    int wrong, errors;
} gb;

/* ---- the model files ------------------------------------------------------------------------ */
static bool mkdir_p(const char *path) {
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST)
                return false;
            *s = '/';
        }
    return mkdir(p, 0777) == 0 || errno == EEXIST;
}

/* Finds or writes model i's file into cfg->path[i]; false with a message on stderr. */
static bool model_file(gen_cfg *cfg, int i, const bench_options *opt) {
    if (i == GEN_smollm2 && cfg->model) {
        snprintf(cfg->path[i], sizeof cfg->path[i], "%s", cfg->model);
        snprintf(cfg->origin[i], sizeof cfg->origin[i], "-m %s", cfg->model);
        if (!bench_file_exists(cfg->model)) {
            fprintf(stderr, "wgc bench generate: -m %s: no such file\n", cfg->model);
            return false;
        }
        return true;
    }
    char real[1100] = "";
    if (i == GEN_smollm2 && !cfg->tiny) {
        const char *home = getenv("HOME");
        if (cfg->model_dir)
            snprintf(real, sizeof real, "%s/%s", cfg->model_dir, GEN_SMOLLM2_FILE);
        else
            snprintf(real, sizeof real, "%s/.cache/wgc/models/%s", home && *home ? home : ".", GEN_SMOLLM2_FILE);
        if (bench_file_exists(real)) {
            snprintf(cfg->path[i], sizeof cfg->path[i], "%s", real);
            snprintf(cfg->origin[i], sizeof cfg->origin[i], "the real file");
            return true;
        }
    }
    const synth_shape *s = cfg->tiny ? &gen_tiny[i] : &gen_full[i];
    char name[160];
    synth_file_name(s, gen_models[i].prefix, name, sizeof name);
    if (snprintf(cfg->path[i], sizeof cfg->path[i], "%.1000s/%s", cfg->synth_dir, name) >= (int)sizeof cfg->path[i])
        return false;
    snprintf(cfg->origin[i], sizeof cfg->origin[i], "synthetic (random weights%s%s)", *real ? "; no " : "",
             *real ? GEN_SMOLLM2_FILE : "");
    if (bench_file_exists(cfg->path[i]))
        return true;
    char err[300];
    bench_say(opt, "writing %s (%.1f MiB of weights)", cfg->path[i], synth_weight_bytes(s) / 1048576.0);
    if (!mkdir_p(cfg->synth_dir)) {
        fprintf(stderr, "wgc bench generate: --synth-dir %s: cannot create it\n", cfg->synth_dir);
        return false;
    }
    if (!synth_write(s, cfg->path[i], 1000 + (uint64_t)i, err, sizeof err)) {
        fprintf(stderr, "wgc bench generate: %s\n", err);
        return false;
    }
    return true;
}

/* ---- our rows -------------------------------------------------------------------------------- */
static bench_row *row_of(gb *b, int i, const char *what) {
    char key[48];
    snprintf(key, sizeof key, "%s_%s", gen_models[i].key, what);
    return bench_find_row(b->rep, key);
}

static void add_rows(gb *b, int i, const gen_cfg *cfg) {
    const char *nm = gen_models[i].name;
    char key[48], name[80];
    struct { const char *what, *unit; bench_better better; double rel; } r[GEN_ROWS_PER_MODEL] = {
        { "decode_tok_s", "tok/s", BENCH_HIGHER, 1.0 },
        { "prefill_tok_s", "tok/s", BENCH_HIGHER, 0.8 },
        { "decode_GBps", "GB/s", BENCH_HIGHER, NAN },
        { "peak_MiB", "MiB", BENCH_LOWER, NAN },
    };
    for (int k = 0; k < GEN_ROWS_PER_MODEL; k++) {
        snprintf(key, sizeof key, "%s_%s", gen_models[i].key, r[k].what);
        if (k == 0)
            snprintf(name, sizeof name, "%s decode tg%u", nm, cfg->gen);
        else if (k == 1)
            snprintf(name, sizeof name, "%s prefill pp%u", nm, cfg->prompt);
        else if (k == 2)
            snprintf(name, sizeof name, "%s decode weight read", nm);
        else
            snprintf(name, sizeof name, "%s peak memory", nm);
        double target = k == 2 && i == GEN_llama8b && !cfg->tiny ? 0.6 * GEN_HBM_GBPS : NAN;
        if (bench_add_row(b->rep, key, name, r[k].unit, r[k].better, target))
            b->rel[b->rep->row_count - 1] = r[k].rel;
    }
}

static double tok_s(double n, double s) {
    return s > 0 ? n / s : NAN;
}

/* Model i on a context of its own: the decode and prefill runs, the peak. */
static void measure(gb *b, bench_wt *w, int i, gen_cfg *cfg) {
    wt_context_desc cd = { .label = "bench generate" };
    char perr[160];
    if (!wt_policy_from_env(&cd.policy, perr, sizeof perr))
        memset(&cd.policy, 0, sizeof cd.policy);
    wt_context *ctx = wt_context_create(w->dev, &cd);
    if (!ctx) {
        fprintf(stderr, "wgc bench generate: no tensor context\n");
        b->errors++;
        return;
    }
    bool timed = w->timed && wt_context_set_timing(ctx, true) == WT_OK;
    wl_error err;
    wl_engine *e = NULL;
    wl_sampler *smp = NULL;
    int32_t *ids = NULL;
    float *logits = NULL;
    uint32_t n_ctx = cfg->prompt > GEN_SHORT + cfg->gen ? cfg->prompt : GEN_SHORT + cfg->gen;
    double t0 = bench_now_s();
    wl_model *m = wl_model_open(cfg->path[i], NULL, &err);
    uint64_t qbytes = 0;   /* the block-format weights: buffers of their own, outside wt_stats */
    for (uint64_t k = 0; m && k < wl_model_tensor_count(m); k++) {
        const wl_tensor_info *t = wl_model_tensor(m, k);
        if (wl_dtype_block_elements(t->dtype) > 1)
            qbytes += t->size;
    }
    if (m) {
        e = wl_engine_create(ctx, m, &(wl_engine_desc){ .label = gen_models[i].key, .n_ctx = n_ctx }, &err);
        wl_model_close(m);
    }
    if (!e || !(smp = wl_sampler_create(&(wl_sampler_desc){ .temperature = 0 }, &err))) {
        fprintf(stderr, "wgc bench generate: %s: %s\n", gen_models[i].key, err.message);
        b->errors++;
        goto out;
    }
    double load_s = bench_now_s() - t0;
    const wl_engine_info *inf = wl_engine_get_info(e);
    cfg->weight_bytes[i] = (double)inf->weight_bytes;
    ids = malloc(cfg->prompt * sizeof *ids);
    logits = malloc((size_t)inf->n_vocab * sizeof *logits);
    if (!ids || !logits) {
        b->errors++;
        goto out;
    }
    uint64_t seed = 77 + (uint64_t)i;
    for (uint32_t k = 0; k < cfg->prompt; k++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        ids[k] = (int32_t)(seed % inf->n_vocab);
    }
    bench_say(b->opt, "%s: loaded in %.1f s; prefill %u tokens", gen_models[i].key, load_s, cfg->prompt);

    /* prefill: warm-up passes for at least BENCH_WARM_S (the GPU's clocks), then runs */
    double pre[BENCH_MAX_RUNS], pre_gpu[BENCH_MAX_RUNS];
    int np = 0;
    bool ok = true, checked = false;
    double w0 = bench_now_s();
    for (uint32_t r = 0; ok && r <= cfg->runs; r++) {
        if (r == 1 && bench_now_s() - w0 < BENCH_WARM_S)
            r = 0;   /* one more warm-up pass */
        uint64_t g0 = bench_gpu_ns(ctx);
        double s0 = bench_now_s();
        ok = wl_engine_truncate(e, 0, 0, &err) == WL_OK && wl_engine_eval(e, 0, ids, cfg->prompt, WL_LOGITS_LAST, &err) == WL_OK;
        if (ok && wt_sync(ctx) != WT_OK) {
            snprintf(err.message, sizeof err.message, "%s", wt_last_error(ctx));
            ok = false;
        }
        double s1 = bench_now_s();
        if (ok && r == 0 && !checked) {   /* the logits must be finite: a valid file and a sound forward pass */
            checked = true;
            ok = wl_engine_read_logits(e, logits, inf->n_vocab, &err) == WL_OK;
            uint32_t bad = 0;
            for (uint32_t k = 0; ok && k < inf->n_vocab; k++)
                bad += !isfinite(logits[k]);
            if (bad) {
                fprintf(stderr, "wgc bench generate: %s: %u of %u prefill logits are not finite\n", gen_models[i].key,
                        bad, inf->n_vocab);
                b->wrong++;
            }
        } else if (ok && r > 0) {
            pre[np] = s1 - s0;
            pre_gpu[np++] = (double)(bench_gpu_ns(ctx) - g0) * 1e-9;
        }
    }
    /* decode: the short prompt and its first token, then gen steps */
    double dec[BENCH_MAX_RUNS], dec_gpu[BENCH_MAX_RUNS];
    int nd = 0;
    bench_say(b->opt, "%s: decode %u tokens", gen_models[i].key, cfg->gen);
    w0 = bench_now_s();
    for (uint32_t r = 0; ok && r <= cfg->runs; r++) {
        int32_t tok = 0;
        if (r == 1 && bench_now_s() - w0 < BENCH_WARM_S)
            r = 0;   /* more warm-up */
        uint32_t steps = r == 0 ? (cfg->gen < 4 ? cfg->gen : 4) : cfg->gen;   /* warm-up: a few steps at a time */
        ok = wl_engine_truncate(e, 0, 0, &err) == WL_OK && wl_engine_eval(e, 0, ids, GEN_SHORT, WL_LOGITS_LAST, &err) == WL_OK &&
             wl_sampler_sample(smp, e, 0, &tok, &err) == WL_OK;
        uint64_t g0 = bench_gpu_ns(ctx);
        double s0 = bench_now_s();
        for (uint32_t k = 0; ok && k < steps; k++)
            ok = wl_engine_eval(e, 0, &tok, 1, WL_LOGITS_LAST, &err) == WL_OK && wl_sampler_sample(smp, e, 0, &tok, &err) == WL_OK;
        double s1 = bench_now_s();
        if (ok && r > 0) {
            dec[nd] = s1 - s0;
            dec_gpu[nd++] = (double)(bench_gpu_ns(ctx) - g0) * 1e-9;
        }
    }
    if (!ok) {
        fprintf(stderr, "wgc bench generate: %s: %s\n", gen_models[i].key, err.message);
        b->errors++;
        goto out;
    }
    wt_stats st;
    wt_get_stats(ctx, &st);
    double W = (double)inf->weight_bytes, KV = (double)inf->kv_bytes, MiB = 1048576.0;
    bench_row *row = row_of(b, i, "decode_tok_s");
    double best = bench_min(dec, nd), med = bench_median(dec, nd), gbest = bench_min(dec_gpu, nd);
    row->ours = tok_s(cfg->gen, best);
    int nn = snprintf(row->note, sizeof row->note, "after a %d-token prompt; best of %d, median %.4g tok/s", GEN_SHORT, nd,
                      tok_s(cfg->gen, med));
    if (timed && nn > 0 && (size_t)nn < sizeof row->note)
        snprintf(row->note + nn, sizeof row->note - (size_t)nn, "; GPU time %.4g tok/s", tok_s(cfg->gen, gbest));
    double dec_best = row->ours;
    row = row_of(b, i, "prefill_tok_s");
    best = bench_min(pre, np), med = bench_median(pre, np), gbest = bench_min(pre_gpu, np);
    row->ours = tok_s(cfg->prompt, best);
    if (timed)
        snprintf(row->note, sizeof row->note, "best of %d, median %.4g tok/s; GPU time %.4g tok/s", np, tok_s(cfg->prompt, med),
                 tok_s(cfg->prompt, gbest));
    else
        snprintf(row->note, sizeof row->note, "best of %d, median %.4g tok/s", np, tok_s(cfg->prompt, med));
    row = row_of(b, i, "decode_GBps");
    row->ours = W * dec_best / 1e9;
    snprintf(row->note, sizeof row->note, "%.1f MiB of weights x decode tok/s%s", W / MiB,
             isnan(row->target) ? "" : "; target 60% of 4.8 TB/s (H200 HBM)");
    row = row_of(b, i, "peak_MiB");
    row->ours = (double)(st.peak_allocated_bytes + qbytes) / MiB;
    row->target = 1.1 * (W + KV) / MiB;
    snprintf(row->note, sizeof row->note, "pool peak %.1f + block weights %.1f; target: weights %.1f + KV %.1f MiB (%u positions) + 10%%",
             (double)st.peak_allocated_bytes / MiB, (double)qbytes / MiB, W / MiB, KV / MiB, inf->n_ctx);
    char fkey[24];
    snprintf(fkey, sizeof fkey, "%s file", gen_models[i].key);
    bench_info(b->rep, fkey, "%s", cfg->path[i]);
    bench_info(b->rep, gen_models[i].key, "%s, %s; %u layers, width %u, %u/%u heads, FFN %u, vocabulary %u; loaded in %.2f s; "
               "a decode step: %.0f dispatches", gen_models[i].name, cfg->origin[i], inf->n_layer, inf->n_embd, inf->n_head,
               inf->n_head_kv, inf->n_ff, inf->n_vocab, load_s,
               st.flushes ? (double)st.dispatches / (double)st.flushes : 0.0);
out:
    free(ids);
    free(logits);
    wl_sampler_release(smp);
    wl_engine_release(e);
    wt_context_destroy(ctx);
}

/* ---- llama.cpp: llama-bench -o json ------------------------------------------------------------ */
/* The next top-level object of a JSON array at *p, copied into buf; false at the end. */
static bool next_object(const char **p, char *buf, size_t cap) {
    const char *s = strchr(*p, '{');
    if (!s)
        return false;
    int depth = 0;
    bool str = false;
    const char *e = s;
    for (; *e; e++) {
        if (str) {
            if (*e == '\\' && e[1])
                e++;
            else if (*e == '"')
                str = false;
        } else if (*e == '"') {
            str = true;
        } else if (*e == '{') {
            depth++;
        } else if (*e == '}' && --depth == 0) {
            break;
        }
    }
    if (!*e)
        return false;
    size_t n = (size_t)(e + 1 - s) < cap - 1 ? (size_t)(e + 1 - s) : cap - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    *p = e + 1;
    return true;
}

/* Baseline column bi: the llama-bench at bin (NULL: none given; `given` says how to give it). */
static void llama_cpp(gb *b, int bi, const gen_cfg *cfg, const char *bin, const char *given) {
    if (!bin) {
        bench_baseline_status(b->rep, bi, false, "no llama-bench given (%s)", given);
        return;
    }
    char p[16], n[16], r[16], what[200] = "";
    snprintf(p, sizeof p, "%u", cfg->prompt);
    snprintf(n, sizeof n, "%u", cfg->gen);
    snprintf(r, sizeof r, "%u", cfg->runs);
    int ran = 0, rc = 0;
    for (int i = 0; i < GEN_MODEL_COUNT; i++) {
        if (!cfg->want[i] || !*cfg->path[i])
            continue;
        const char *argv[14 + GEN_MAX_EXTRA + 1] = { bin, "-m", cfg->path[i], "-p", p, "-n", n, "-fa", "1", "-r", r,
                                                     "-o", "json" };
        for (int k = 0; k < cfg->nextra; k++)
            argv[13 + k] = cfg->extra[k];
        bench_say(b->opt, "baseline: %s -m %s -p %s -n %s -fa 1 -r %s -o json %s", bin, cfg->path[i], p, n, r,
                  cfg->extra_args ? cfg->extra_args : "");
        char *out = NULL;
        rc = bench_spawn(argv, NULL, 600, !b->opt->verbose, &out);
        char obj[16384];
        const char *s = out ? out : "";
        int got = 0;
        while (rc == 0 && next_object(&s, obj, sizeof obj)) {
            double np = bench_json_num(obj, "n_prompt", NULL), ng = bench_json_num(obj, "n_gen", NULL);
            double ts = bench_json_num(obj, "avg_ts", NULL), size = bench_json_num(obj, "model_size", NULL);
            bench_row *row = NULL;
            if (np == cfg->prompt && ng == 0)
                row = row_of(b, i, "prefill_tok_s");
            else if (np == 0 && ng == cfg->gen)
                row = row_of(b, i, "decode_tok_s");
            if (!row || isnan(ts))
                continue;
            row->base[bi] = ts;
            snprintf(row->base_note[bi], sizeof row->base_note[bi], "llama-bench %s%.0f", ng ? "tg" : "pp", ng ? ng : np);
            if (ng && !isnan(size)) {
                bench_row *bw = row_of(b, i, "decode_GBps");
                bw->base[bi] = size * ts / 1e9;
                snprintf(bw->base_note[bi], sizeof bw->base_note[bi], "model_size x tg%.0f", ng);
            }
            got++;
            if (!*what) {
                char commit[48] = "?", backend[48] = "?", dev[120] = "";
                bench_json_str(obj, "build_commit", commit, sizeof commit);
                bench_json_str(obj, "backends", backend, sizeof backend);
                if (!bench_json_str(obj, "gpu_info", dev, sizeof dev) || !*dev)
                    bench_json_str(obj, "cpu_info", dev, sizeof dev);
                snprintf(what, sizeof what, "llama.cpp %s (%s) on %s, threads %g, flash attention on%s%s",
                         commit, backend, dev, bench_json_num(obj, "n_threads", NULL), cfg->nextra ? "; " : "",
                         cfg->nextra ? cfg->extra_args : "");
            }
        }
        free(out);
        if (got)
            ran++;
        else if (rc == 0)
            rc = -2;   /* ran, no figures */
        if (rc)
            break;
    }
    if (rc)
        bench_baseline_status(b->rep, bi, false, "%s %s", bin,
                              rc == -1 ? "could not be started" : rc == -2 ? "printed no pp/tg results for our sizes"
                              : rc == 124 ? "timed out" : "failed (run with -v to see its output)");
    else if (ran)
        bench_baseline_status(b->rep, bi, true, "%s", what);
    else
        bench_baseline_status(b->rep, bi, false, "no model to run");
}

/* ---- transformers + PyTorch eager: bench/baseline_generate.py ----------------------------------- */
static void torch_eager(gb *b, int bi, const gen_cfg *cfg, bench_wt *w) {
    char models[600] = "", p[16], n[16], s[16], r[16];
    size_t len = 0;
    for (int i = 0; i < GEN_MODEL_COUNT; i++) {
        if (!cfg->want[i])
            continue;
        const synth_shape *sh = cfg->tiny ? &gen_tiny[i] : &gen_full[i];
        len += (size_t)snprintf(models + len, sizeof models - len, "%s%s:%u,%u,%u,%u,%u,%u,%d,%g", len ? ";" : "",
                                gen_models[i].key, sh->n_layer, sh->n_embd, sh->n_head, sh->n_head_kv, sh->n_ff,
                                sh->n_vocab, sh->tied, sh->rope_base);
    }
    snprintf(p, sizeof p, "%u", cfg->prompt);
    snprintf(n, sizeof n, "%u", cfg->gen);
    snprintf(s, sizeof s, "%d", GEN_SHORT);
    snprintf(r, sizeof r, "%u", cfg->runs);
    const char *args[] = { "--models", models, "--prompt", p, "--gen", n, "--short", s, "--runs", r, NULL };
    const char *js;
    char *out = bench_torch_baseline(b->rep, bi, b->opt, w->cpu, w->info->name, "baseline_generate.py", args,
                                     "transformers eager f16, random weights of each shape, wall clock", &js);
    if (!out)
        return;
    for (int k = 0; k < b->rep->row_count; k++) {
        bench_row *row = &b->rep->rows[k];
        double v = bench_json_num(js, row->key, NULL);
        if (isnan(v))
            continue;
        row->base[bi] = v;
        snprintf(row->base_note[bi], sizeof row->base_note[bi], "%s",
                 strstr(row->key, "MiB") ? "max_memory_allocated, f16" : "eager f16, random weights");
    }
    free(out);
}

/* ---- the command ------------------------------------------------------------------------------ */
static void generate_usage(FILE *f) {
    fputs("usage: wgc bench generate [options]\n"
          "  decode and prefill tokens/s, and peak GPU memory, of wgc's engine on SmolLM2-135M Q4_1 and\n"
          "  on synthetic Llama-3.2-1B- and Llama-3-8B-shaped Q4_K_M files; baselines in the same run:\n"
          "  llama.cpp's llama-bench and transformers + PyTorch eager (bench/baseline_generate.py)\n"
          "options: the shared ones (--json --size --runs --baseline --root --svg -v; wgc bench --help), and\n"
          "  --models LIST       smollm2,llama1b,llama8b (default: all at full size, smollm2 at medium)\n"
          "  -m FILE             the smollm2 row's model (default: SmolLM2-135M-Instruct.Q4_1.gguf in\n"
          "                      --model-dir, else a synthetic file of its shape)\n"
          "  --model-dir DIR     where SmolLM2-135M-Instruct.Q4_1.gguf is (default ~/.cache/wgc/models)\n"
          "  --synth-dir DIR     where the synthetic files are kept (default ~/.cache/wgc/synth)\n"
          "  --llama-bench PATH  llama.cpp's llama-bench (default $WGC_LLAMA_BENCH; none: no baseline),\n"
          "                      run as: -m FILE -p PROMPT -n GEN -fa 1 -r RUNS -o json\n"
          "  --llama-bench-vulkan PATH  a llama-bench of llama.cpp's Vulkan backend: a third column,\n"
          "                      llama.cpp-vk (default $WGC_LLAMA_BENCH_VULKAN; none: no column)\n"
          "  --llama-bench-args A  more llama-bench options, space-separated (default $WGC_LLAMA_BENCH_ARGS;\n"
          "                      e.g. '--repack 0' where its AMX kernels fault, '-ngl 99')\n"
          "  --prepare           only find or write the model files (no device), print their paths\n"
          "  --prompt N          prefill prompt tokens (full 512, medium 128, small 16)\n"
          "  --gen N             decode tokens (full 128, medium 64, small 8)\n"
          "baseline names for --baseline: llama.cpp, torch, llama.cpp-vk\n",
          f);
}

static bool parse_count(const char *s, uint32_t *v) {
    char *e;
    long x = strtol(s, &e, 10);
    if (e == s || *e || x < 1 || x > 65536)
        return false;
    *v = (uint32_t)x;
    return true;
}

int bench_generate_cli(int argc, char **argv) {
    bench_options opt = bench_options_default();
    gen_cfg cfg = { .llama_bench = getenv("WGC_LLAMA_BENCH"), .llama_bench_vk = getenv("WGC_LLAMA_BENCH_VULKAN") };
    const char *models = NULL, *synth = NULL;
    uint32_t prompt = 0, gen = 0;
    bool prepare = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        int shared;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            generate_usage(stdout);
            return 0;
        } else if ((shared = bench_shared_option(&opt, argc, argv, &i)) != 0) {
            if (shared < 0)
                return 2;
        } else if (!strcmp(a, "--models") && more) {
            models = argv[++i];
        } else if (!strcmp(a, "-m") && more) {
            cfg.model = argv[++i];
        } else if (!strcmp(a, "--model-dir") && more) {
            cfg.model_dir = argv[++i];
        } else if (!strcmp(a, "--synth-dir") && more) {
            synth = argv[++i];
        } else if (!strcmp(a, "--llama-bench") && more) {
            cfg.llama_bench = argv[++i];
        } else if (!strcmp(a, "--llama-bench-vulkan") && more) {
            cfg.llama_bench_vk = argv[++i];
        } else if (!strcmp(a, "--llama-bench-args") && more) {
            cfg.extra_args = argv[++i];
        } else if (!strcmp(a, "--prepare")) {
            prepare = true;
        } else if (!strcmp(a, "--prompt") && more) {
            if (!parse_count(argv[++i], &prompt) || prompt < GEN_SHORT)
                return cli_fail("bench generate: --prompt takes %d..65536 tokens", GEN_SHORT);
        } else if (!strcmp(a, "--gen") && more) {
            if (!parse_count(argv[++i], &gen))
                return cli_fail("bench generate: --gen takes 1..65536 tokens");
        } else {
            return cli_fail("bench generate: unknown option '%s' (try wgc bench generate --help)", a);
        }
    }
    if (cfg.llama_bench && !*cfg.llama_bench)
        cfg.llama_bench = NULL;
    if (cfg.llama_bench_vk && !*cfg.llama_bench_vk)
        cfg.llama_bench_vk = NULL;
    if (!cfg.extra_args)
        cfg.extra_args = getenv("WGC_LLAMA_BENCH_ARGS");
    if (cfg.extra_args) {
        snprintf(cfg.extra_buf, sizeof cfg.extra_buf, "%s", cfg.extra_args);
        for (char *t = strtok(cfg.extra_buf, " \t"); t; t = strtok(NULL, " \t"))
            if (cfg.nextra == GEN_MAX_EXTRA)
                return cli_fail("bench generate: --llama-bench-args: at most %d words", GEN_MAX_EXTRA);
            else
                cfg.extra[cfg.nextra++] = t;
    }
    if (models) {
        for (const char *s = models; *s;) {
            size_t n = strcspn(s, ",");
            int k = 0;
            while (k < GEN_MODEL_COUNT && (strlen(gen_models[k].key) != n || strncmp(s, gen_models[k].key, n)))
                k++;
            if (k == GEN_MODEL_COUNT)
                return cli_fail("bench generate: --models: '%.*s' is not one of smollm2, llama1b, llama8b", (int)n, s);
            cfg.want[k] = true;
            s += n + (s[n] == ',');
        }
    }
    const char *home = getenv("HOME");
    if (synth)
        snprintf(cfg.synth_dir, sizeof cfg.synth_dir, "%s", synth);
    else
        snprintf(cfg.synth_dir, sizeof cfg.synth_dir, "%s/.cache/wgc/synth", home && *home ? home : ".");

    if (prepare) {   /* the files only, no device: --size small or not, all models unless --models */
        cfg.tiny = opt.size == BENCH_SIZE_SMALL;
        int rc = 0;
        for (int i = 0; i < GEN_MODEL_COUNT; i++) {
            if (models && !cfg.want[i])
                continue;
            double t0 = bench_now_s();
            if (!model_file(&cfg, i, &opt))
                rc = 2;
            else
                printf("%s: %s (%s, %.1f s)\n", gen_models[i].key, cfg.path[i], cfg.origin[i], bench_now_s() - t0);
        }
        return rc;
    }
    bench_report *rep;
    bench_wt w;
    bench_size size;
    if (!bench_wt_start(&opt, "generate", true, &rep, &w, &size))
        return 2;
    static const struct { const char *name; uint32_t prompt, gen, runs; bool all; } sizes[BENCH_SIZE_COUNT] = {
        [BENCH_SIZE_SMALL] = { "small (tiny shapes)", 16, 8, 1, true },
        [BENCH_SIZE_MEDIUM] = { "medium", 128, 64, 2, false },
        [BENCH_SIZE_FULL] = { "full", 512, 128, 5, true },
    };
    cfg.tiny = size == BENCH_SIZE_SMALL;
    cfg.prompt = prompt ? prompt : sizes[size].prompt;
    cfg.gen = gen ? gen : sizes[size].gen;
    cfg.runs = (uint32_t)bench_runs(&opt, (int)sizes[size].runs);
    if (!models)
        for (int i = 0; i < GEN_MODEL_COUNT; i++)
            cfg.want[i] = sizes[size].all || i == GEN_smollm2;
    gb b = { .opt = &opt, .rep = rep };
    for (int i = 0; i < BENCH_MAX_ROWS; i++)
        b.rel[i] = NAN;
    bench_info(rep, "size", "%s: prompt %u tokens, decode %u tokens after %d, %u runs", sizes[size].name, cfg.prompt,
               cfg.gen, GEN_SHORT, cfg.runs);
    for (int i = 0; i < rep->info_count; i++)
        if (!strcmp(rep->info_key[i], "timing"))
            snprintf(rep->info_val[i], sizeof rep->info_val[i], "wall clock (as llama-bench); GPU time from wt's batch "
                     "timestamps in the notes%s", w.timed ? "" : " (none here: no timestamp queries)");
    for (int i = 0; i < GEN_MODEL_COUNT; i++)
        if (cfg.want[i])
            add_rows(&b, i, &cfg);
    for (int i = 0; i < GEN_MODEL_COUNT; i++) {
        if (!cfg.want[i])
            continue;
        if (!model_file(&cfg, i, &opt)) {
            cfg.path[i][0] = 0;
            b.errors++;
            continue;
        }
        bench_say(&opt, "%s: %s", gen_models[i].key, cfg.path[i]);
        measure(&b, &w, i, &cfg);
    }
    bench_wt_done(&w, rep);
    for (int i = 0; i < rep->info_count; i++)   /* the suite's own context ran nothing */
        if (!strcmp(rep->info_key[i], "wt"))
            snprintf(rep->info_val[i], sizeof rep->info_val[i], "each model on a context of its own");

    int bl = bench_add_baseline(rep, "llama.cpp"), bt = bench_add_baseline(rep, "torch");
    if (bench_want(&opt, "llama.cpp"))
        llama_cpp(&b, bl, &cfg, cfg.llama_bench, "--llama-bench PATH or $WGC_LLAMA_BENCH");
    else
        bench_baseline_status(rep, bl, false, "not selected (--baseline %s)", opt.baseline);
    if (cfg.llama_bench_vk) {   /* a third column only when given: the targets stay llama.cpp's */
        int bv = bench_add_baseline(rep, "llama.cpp-vk");
        if (bench_want(&opt, "llama.cpp-vk"))
            llama_cpp(&b, bv, &cfg, cfg.llama_bench_vk, "");
        else
            bench_baseline_status(rep, bv, false, "not selected (--baseline %s)", opt.baseline);
    }
    if (bench_want(&opt, "torch"))
        torch_eager(&b, bt, &cfg, &w);
    else
        bench_baseline_status(rep, bt, false, "not selected (--baseline %s)", opt.baseline);
    bench_relative_targets(rep, bl, b.rel, rep->row_count);
    int rc = bench_wt_end(&w, rep, &opt, b.wrong, b.errors);
    free(rep);
    return rc;
}
