/* generate.c - `wgc generate -m FILE (-p TEXT | --ids 1,2,3) [-n N] [--temp T] ...`: runs the
 * prompt through the llama-family engine (wl_engine) on the default adapter and samples up to N
 * tokens, printing each as it comes (-p: the text, through the streaming detokenizer, whole UTF-8
 * only; --ids: the ids), stopping after the model's end-of-sequence token; then the prompt and
 * generation speed in tokens/s.  -p parses special-token text (<|im_start|>) as those tokens
 * unless --no-parse-special, and adds BOS/EOS as the model's tokenizer says.  --stop S (repeatable)
 * ends generation once the text contains S, which is not printed (wl_stop: a tail that may begin
 * a stop string is held back).  --json prints one document instead: {"promptTokens": [...],
 * "tokens": [...], "text": ... (with -p or --stop), "stop": "eos" | "length" | "stop_string" |
 * "context" (why it stopped), "stopString": S (when one matched), "prefillTokPerSec": ...,
 * "decodeTokPerSec": ...}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "wgc/llm.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char usage[] =
    "usage: wgc generate -m FILE (-p TEXT | --ids ID,ID,...) [-n N] [options]\n"
    "  -m FILE            a GGUF or safetensors model of the llama family (llama, mistral, qwen2)\n"
    "  --ids LIST         the prompt as token ids, comma-separated\n"
    "  -p TEXT            the prompt as text (the model's tokenizer; special-token text such as\n"
    "                     <|im_start|> is parsed as those tokens)\n"
    "  --no-parse-special -p's special-token text stays text\n"
    "  -n N               tokens to generate (default 64); stops earlier at end-of-sequence\n"
    "  -c N               context positions (default min(the model's, 4096))\n"
    "  --temp T           temperature (default 0.8); 0 is greedy, an argmax on the GPU\n"
    "  --top-k K          keep the K most likely tokens (default 40; 0 off)\n"
    "  --top-p P          keep the smallest set with probability mass P (default 0.95; 1 off)\n"
    "  --min-p P          keep tokens at least P times as likely as the best (default 0.05; 0 off)\n"
    "  --repeat-penalty R penalise the last 64 tokens (default 1: off)\n"
    "  --seed S           sampling seed (default: from the clock)\n"
    "  --stop S           stop once the text contains S (not printed); repeatable\n"
    "  --cache-type T     KV cache element type: f32 (default) or f16 (also -ctk T / -ctv T)\n"
    "  --json             one JSON document instead of the stream\n";

static int parse_ids(const char *s, int32_t **ids, uint32_t *n) {
    size_t cap = 16;
    *ids = malloc(cap * sizeof **ids);
    *n = 0;
    while (*ids && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 0 || v > INT32_MAX || (*end && *end != ','))
            return -1;
        if (*n == cap) {
            int32_t *g = realloc(*ids, (cap *= 2) * sizeof **ids);
            if (!g)
                return -1;
            *ids = g;
        }
        (*ids)[(*n)++] = (int32_t)v;
        s = *end ? end + 1 : end;
    }
    return *ids && *n ? 0 : -1;
}

/* The prompt's ids under m's tokenizer (*tok keeps it open for the output), malloc'ed; NULL after
 * a cli_fail. */
static int32_t *tokenize_prompt(const wl_model *m, const char *text, bool special, wl_tokenizer **tok, uint32_t *n) {
    wl_error err;
    *tok = wl_tokenizer_open(m, NULL, &err);
    if (!*tok) {
        cli_fail("generate: %s", err.message);
        return NULL;
    }
    uint32_t flags = WL_TOKENIZE_ADD_SPECIAL | (special ? WL_TOKENIZE_PARSE_SPECIAL : 0);
    size_t total = 0;
    int32_t *ids = cli_tokens(*tok, text, strlen(text), flags, &total, &err);
    if (!ids || !total || total > UINT32_MAX) {
        cli_fail("generate: %s", !ids ? err.message : total ? "the prompt is too long" : "the prompt has no tokens");
        free(ids);
        return NULL;
    }
    *n = (uint32_t)total;
    return ids;
}

typedef struct gen_opts {
    const char *path, *text;
    bool special;
    long ntok;
    uint32_t n_ctx;
    wt_dtype cache;
    wl_sampler_desc sd;
    const char **stops;
    size_t nstops;
    int json;
} gen_opts;

/* Appends b[0..k) to the growing text *all (--json). */
static void append(char **all, size_t *tlen, size_t *tcap, const char *b, size_t k) {
    if (!k)
        return;
    char *g = *tlen + k + 1 > *tcap ? realloc(*all, *tcap = 2 * (*tlen + k + 1)) : *all;
    if (g) {
        memcpy(g + *tlen, b, k);
        *tlen += k;
        g[*tlen] = 0;
        *all = g;
    }
}

static int run(const gen_opts *o, int32_t *ids, uint32_t nids) {
    wl_error err;
    wl_model *m = wl_model_open(o->path, NULL, &err);
    if (!m)
        return cli_fail("generate: %s", err.message);
    wl_tokenizer *tok = NULL;
    if (o->text) {
        ids = tokenize_prompt(m, o->text, o->special, &tok, &nids);
        if (!ids) {
            wl_tokenizer_close(tok);
            wl_model_close(m);
            return 2;
        }
    } else if (o->nstops && !(tok = wl_tokenizer_open(m, NULL, &err))) {   /* --stop matches text */
        wl_model_close(m);
        return cli_fail("generate: --stop needs the model's tokenizer: %s", err.message);
    }
    cli_llm l;
    int rc = cli_llm_open_desc(&l, "generate", m, &(wl_engine_desc){ .n_ctx = o->n_ctx, .cache_type = o->cache });
    wl_model_close(m);
    wl_engine *e = l.e;
    wt_context *ctx = l.ctx;
    wl_sampler *s = e ? wl_sampler_create(&o->sd, &err) : NULL;
    if (!rc && !s)
        rc = cli_fail("generate: %s", err.message);
    wl_stop *stop = !rc ? wl_stop_create(o->stops, NULL, o->nstops, &err) : NULL;
    if (!rc && !stop)
        rc = cli_fail("generate: %s", err.message);
    long ntok = o->ntok;
    int json = o->json;
    bool show_text = tok && o->text;   /* --ids streams ids; its text only goes to --stop and --json */
    int32_t *out = rc ? NULL : malloc((size_t)(ntok > 0 ? ntok : 1) * sizeof *out);
    /* the text as it comes (and in --json), whole UTF-8 only, through the stop strings */
    wl_detok dt;
    size_t pcap = tok ? wl_detok_cap(tok) : 0, tlen = 0, tcap = 0, k = 0, k2 = 0;
    size_t scap = stop ? wl_stop_cap(stop, pcap) : 0;
    char *piece = tok ? malloc(pcap) : NULL, *shown = tok ? malloc(scap) : NULL, *all = NULL;
    if (tok)
        wl_detok_init(&dt, tok, 0);
    if (!rc && tok && (!piece || !shown))
        rc = cli_fail("generate: out of memory");
    long nout = 0;
    int hit = -1;
    const char *why = "length";
    double t0 = now(), t1 = t0, t2 = t0;
    if (!rc && !out)
        rc = cli_fail("generate: out of memory");
    if (!rc && wl_engine_eval(e, 0, ids, nids, WL_LOGITS_LAST, &err) != WL_OK)
        rc = cli_fail("generate: %s", err.message);
    for (uint32_t i = 0; !rc && i < nids; i++)
        wl_sampler_accept(s, ids[i]);
    if (!rc && ntok == 0) {   /* the prompt only: its pass, timed */
        if (wt_sync(ctx) != WT_OK)
            rc = cli_fail("generate: %s", wt_last_error(ctx));
        t1 = now();
    }
    int32_t eos = e ? wl_engine_get_info(e)->eos : -1;
    while (!rc && nout < ntok) {
        int32_t t;
        if (wl_sampler_sample(s, e, 0, &t, &err) != WL_OK) {
            rc = cli_fail("generate: %s", err.message);
            break;
        }
        if (nout == 0)
            t1 = now();   /* prefill: the prompt's pass and the first token */
        out[nout++] = t;
        wl_sampler_accept(s, t);
        if (tok && wl_detok_push(&dt, t, piece, pcap, &k) == WL_OK && k &&
            wl_stop_push(stop, piece, k, shown, scap, &k2, &hit) == WL_OK && k2) {
            if (json)
                append(&all, &tlen, &tcap, shown, k2);
            else if (show_text)
                fwrite(shown, 1, k2, stdout), fflush(stdout);
        }
        if (!show_text && !json) {
            printf("%s%d", nout > 1 ? " " : "", t);
            fflush(stdout);
        }
        if (t == eos || hit >= 0) {
            why = hit >= 0 ? "stop_string" : "eos";
            break;
        }
        if (nout == ntok)
            break;
        if (wl_engine_pos(e, 0) >= wl_engine_get_info(e)->n_ctx) {
            fprintf(stderr, "wgc: generate: the context of %u positions is full\n", wl_engine_get_info(e)->n_ctx);
            why = "context";
            break;
        }
        if (wl_engine_eval(e, 0, &t, 1, WL_LOGITS_LAST, &err) != WL_OK)
            rc = cli_fail("generate: %s", err.message);
    }
    t2 = now();
    if (tok && hit < 0 && wl_detok_flush(&dt, piece, pcap, &k) == WL_OK &&
        wl_stop_push(stop, piece, k, shown, scap, &k2, &hit) == WL_OK) {
        size_t k3 = 0;   /* the held tail after it, when nothing matched */
        if (hit < 0 && k2 + wl_stop_cap(stop, 0) <= scap)
            wl_stop_flush(stop, shown + k2, scap - k2, &k3);
        if (json)
            append(&all, &tlen, &tcap, shown, k2 + k3);
        else if (show_text)
            fwrite(shown, 1, k2 + k3, stdout);
        if (hit >= 0)
            why = "stop_string";
    }
    if (!rc) {
        double pre = nids / (t1 - t0), dec = nout > 1 ? (nout - 1) / (t2 - t1) : 0;
        if (json) {
            printf("{\"promptTokens\": [");
            for (uint32_t i = 0; i < nids; i++)
                printf("%s%d", i ? ", " : "", ids[i]);
            printf("], \"tokens\": [");
            for (long i = 0; i < nout; i++)
                printf("%s%d", i ? ", " : "", out[i]);
            printf("]");
            if (tok) {
                printf(", \"text\": ");
                cli_json_str(stdout, all ? all : "");
            }
            printf(", \"stop\": \"%s\"", why);
            if (hit >= 0) {
                printf(", \"stopString\": ");
                cli_json_str(stdout, o->stops[hit]);
            }
            printf(", \"prefillTokPerSec\": %.3f, \"decodeTokPerSec\": %.3f}\n", pre, dec);
        } else {
            printf("\n");
            fflush(stdout);
            fprintf(stderr, "prompt: %u tokens, %.2f tok/s; generation: %ld tokens, %.2f tok/s\n", nids, pre, nout, dec);
        }
    }
    free(out);
    free(piece);
    free(shown);
    free(all);
    if (o->text)
        free(ids);
    wl_stop_release(stop);
    wl_tokenizer_close(tok);
    wl_sampler_release(s);
    cli_llm_close(&l);
    return rc;
}

int cli_generate(int argc, char **argv) {
    const char *ids_arg = NULL;
    long n_ctx = 0;
    int have_seed = 0;
    gen_opts o = { .special = true, .ntok = 64, .cache = WT_F32,
                   .sd = { .temperature = 0.8f, .top_k = 40, .top_p = 0.95f, .min_p = 0.05f, .repeat_penalty = 1 } };
    const char *ctk = NULL, *ctv = NULL;
    o.stops = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *o.stops);   /* at most one per argument */
    if (!o.stops)
        return cli_fail("generate: out of memory");
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            free(o.stops);
            return 0;
        } else if (!strcmp(a, "--json")) {
            o.json = 1;
            continue;
        } else if (!strcmp(a, "--no-parse-special")) {
            o.special = false;
            continue;
        }
        if (!v) {
            rc = cli_fail("generate: %s needs a value (try wgc generate --help)", a);
            break;
        }
        i++;
        if (!strcmp(a, "-m"))
            o.path = v;
        else if (!strcmp(a, "--ids"))
            ids_arg = v;
        else if (!strcmp(a, "-p"))
            o.text = v;
        else if (!strcmp(a, "-n"))
            o.ntok = strtol(v, &end, 10);
        else if (!strcmp(a, "-c"))
            n_ctx = strtol(v, &end, 10);
        else if (!strcmp(a, "--stop") && *v)
            o.stops[o.nstops++] = v;
        else if (!strcmp(a, "--stop"))
            rc = cli_fail("generate: --stop: an empty stop string");
        else if (!strcmp(a, "--cache-type"))
            ctk = ctv = v;
        else if (!strcmp(a, "-ctk") || !strcmp(a, "--cache-type-k"))
            ctk = v;
        else if (!strcmp(a, "-ctv") || !strcmp(a, "--cache-type-v"))
            ctv = v;
        else if (cli_sampler_option(a, v, &o.sd, &end))
            have_seed |= !strcmp(a, "--seed");
        else
            rc = cli_fail("generate: unknown option '%s' (try wgc generate --help)", a);
        if (!rc && end && (end == v || *end))
            rc = cli_fail("generate: %s: '%s' is not a number", a, v);
    }
    if (!rc && (ctk || ctv)) {   /* one type for both: the engine keeps k and v alike */
        const char *k = ctk ? ctk : "f32", *v = ctv ? ctv : "f32";
        if (strcmp(k, v))
            rc = cli_fail("generate: -ctk %s and -ctv %s: the cache keeps k and v in one type", k, v);
        else if (!strcmp(k, "f16"))
            o.cache = WT_F16;
        else if (strcmp(k, "f32"))
            rc = cli_fail("generate: cache type '%s': f32 or f16", k);
    }
    if (!rc && !o.path)
        rc = cli_fail("generate: no model (-m FILE; try wgc generate --help)");
    if (!rc && o.text && ids_arg)
        rc = cli_fail("generate: -p and --ids both given: one prompt");
    if (!rc && !ids_arg && !o.text)
        rc = cli_fail("generate: no prompt (-p TEXT or --ids ID,ID,...)");
    if (!rc && (o.ntok < 0 || o.ntok > 1000000 || n_ctx < 0 || n_ctx > (1 << 24)))
        rc = cli_fail("generate: -n or -c out of range");
    if (rc) {
        free(o.stops);
        return rc;
    }
    o.n_ctx = (uint32_t)n_ctx;
    if (!have_seed)
        o.sd.seed = cli_clock_seed();
    int32_t *ids = NULL;
    uint32_t nids = 0;
    if (ids_arg && parse_ids(ids_arg, &ids, &nids))
        rc = cli_fail("generate: --ids '%s' is not a comma-separated list of token ids", ids_arg);
    else
        rc = run(&o, ids, nids);
    free(ids);
    free(o.stops);
    return rc;
}
