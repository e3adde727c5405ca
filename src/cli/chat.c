/* chat.c - `wgc chat -m FILE [--system TEXT] [-n N] [-c N] [--temp T] ...`: a conversation with a
 * model under its chat template (wl_chat_*, ChatML or Llama 3).  User turns are read from stdin,
 * one line each (so `printf 'hi\nmore\n' | wgc chat -m FILE` is a two-turn chat; "/reset" on a line
 * of its own starts over); each answer is streamed to stdout through the detokenizer and ends with
 * a newline.  Status and errors go to stderr.
 *
 * The KV cache holds the conversation: a turn evaluates only the text the template adds after
 * what the cache already covers (the last prompt plus the tokens generated), found by formatting
 * the whole conversation and checking that the covered text is its prefix; when it is not (a
 * template that trims the answer), the cache is reset and the whole conversation evaluated again.
 * Generation stops at the model's end-of-sequence, end-of-turn (the template's <|im_end|> or
 * <|eot_id|>) or end-of-message token, or after N tokens.  When a turn does not fit in the context,
 * the conversation is reset to its system message and the turn is tried once more; an error in one
 * turn is reported on stderr and the next line is read.  Uses only the public wl_ API. */
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
    "usage: wgc chat -m FILE [--system TEXT] [-n N] [options] < turns.txt\n"
    "  reads user turns from stdin, one per line (\"/reset\" starts over), streams each answer\n"
    "  -m FILE            a GGUF model of the llama family with a ChatML or Llama 3 chat template\n"
    "  --system TEXT      the system message (default: the template's own default, if any)\n"
    "  -n N               at most N tokens per answer (default 512)\n"
    "  -c N               context positions (default min(the model's, 4096))\n"
    "  --temp T           temperature (default 0.8); 0 is greedy\n"
    "  --top-k K          (default 40; 0 off)\n"
    "  --top-p P          (default 0.95; 1 off)\n"
    "  --min-p P          (default 0.05; 0 off)\n"
    "  --repeat-penalty R (default 1: off)\n"
    "  --seed S           sampling seed (default: from the clock)\n";

typedef struct chat {
    wl_engine *e;
    wl_sampler *s;
    const wl_tokenizer *tok;
    wl_chat_template tmpl;
    wl_chat_message *msgs;
    size_t n, cap;
    size_t n_fixed;          /* leading messages a reset keeps (the system message) */
    char *covered;           /* the text the KV cache holds (malloc'ed; NULL: nothing) */
    int32_t stop[4];
    long max_tokens;
} chat;

static char *dupstr(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static int push(chat *c, const char *role, const char *content, size_t len) {
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        wl_chat_message *g = realloc(c->msgs, cap * sizeof *g);
        if (!g)
            return -1;
        c->msgs = g, c->cap = cap;
    }
    char *d = dupstr(content, len);
    if (!d)
        return -1;
    c->msgs[c->n++] = (wl_chat_message){ role, d };
    return 0;
}

static void pop_to(chat *c, size_t n) {
    while (c->n > n)
        free((char *)c->msgs[--c->n].content);
}

static void reset(chat *c) {
    pop_to(c, c->n_fixed);
    free(c->covered);
    c->covered = NULL;
    wl_engine_truncate(c->e, 0, 0, NULL);
    wl_sampler_reset(c->s);
}

/* The whole conversation with the generation prompt, malloc'ed. */
static char *format(chat *c, size_t *len, wl_error *err) {
    if (wl_chat_apply(&c->tmpl, c->msgs, c->n, true, NULL, 0, len, err) != WL_OK)
        return NULL;
    char *t = malloc(*len + 1);
    if (t && wl_chat_apply(&c->tmpl, c->msgs, c->n, true, t, *len + 1, len, err) != WL_OK) {
        free(t);
        return NULL;
    }
    return t;
}

/* Evaluates what the conversation adds after the covered text; 1 when it does not fit. */
static int feed(chat *c, wl_error *err) {
    size_t len, n = 0, skip = 0;
    char *full = format(c, &len, err);
    if (!full)
        return -1;
    size_t clen = c->covered ? strlen(c->covered) : 0;
    if (c->covered && clen <= len && !memcmp(full, c->covered, clen))
        skip = clen;
    else if (wl_engine_pos(c->e, 0) && wl_engine_truncate(c->e, 0, 0, err) != WL_OK) {
        free(full);
        return -1;
    }
    int32_t *ids = cli_tokens(c->tok, full + skip, len - skip, WL_TOKENIZE_PARSE_SPECIAL, &n, err);
    int rc = ids ? 0 : -1;
    if (!rc && (uint64_t)wl_engine_pos(c->e, 0) + n + 1 > wl_engine_get_info(c->e)->n_ctx)
        rc = 1;
    if (!rc && n && wl_engine_eval(c->e, 0, ids, (uint32_t)n, WL_LOGITS_LAST, err) != WL_OK)
        rc = -1;
    for (size_t i = 0; !rc && i < n; i++)
        wl_sampler_accept(c->s, ids[i]);
    free(ids);
    free(c->covered);
    c->covered = rc ? NULL : full;
    if (rc) {
        free(full);
        wl_engine_truncate(c->e, 0, 0, NULL);
    }
    return rc;
}

static int is_stop(const chat *c, int32_t t) {
    for (int i = 0; i < 4; i++)
        if (c->stop[i] >= 0 && c->stop[i] == t)
            return 1;
    return 0;
}

/* One user turn: feed it, stream the answer, record it.  Errors are reported, not fatal. */
static void turn(chat *c, const char *line, size_t len) {
    wl_error err;
    size_t before = c->n;
    if (push(c, "user", line, len)) {
        fprintf(stderr, "wgc: chat: out of memory\n");
        return;
    }
    int rc = feed(c, &err);
    if (rc == 1 && before > c->n_fixed) {
        fprintf(stderr, "wgc: chat: the context of %u positions is full: the conversation starts over\n",
                wl_engine_get_info(c->e)->n_ctx);
        char *keep = dupstr(line, len);
        reset(c);
        rc = keep && !push(c, "user", keep, len) ? feed(c, &err) : -1;
        free(keep);
        before = c->n_fixed;
    }
    if (rc) {
        if (rc == 1)
            fprintf(stderr, "wgc: chat: this turn does not fit in the context of %u positions\n",
                    wl_engine_get_info(c->e)->n_ctx);
        else
            fprintf(stderr, "wgc: chat: %s\n", err.message);
        pop_to(c, before);
        free(c->covered);
        c->covered = NULL;   /* the cache was reset: the next turn evaluates everything */
        return;
    }
    size_t cap = wl_detok_cap(c->tok), alen = 0, acap = 256;
    char *piece = malloc(cap), *answer = malloc(acap);
    wl_detok d;
    wl_detok_init(&d, c->tok, wl_tokenizer_kind(c->tok) == WL_VOCAB_SPM ? WL_DETOK_STRIP_SPACE : 0);
    long ntok = 0;
    int cut = 0;   /* the last token was not evaluated: the cache lacks it */
    double t0 = now();
    while (piece && answer && ntok < c->max_tokens) {
        int32_t t;
        if (wl_sampler_sample(c->s, c->e, 0, &t, &err) != WL_OK) {
            fprintf(stderr, "\nwgc: chat: %s\n", err.message);
            break;
        }
        if (is_stop(c, t))
            break;
        ntok++;
        size_t k = 0;
        wl_detok_push(&d, t, piece, cap, &k);
        if (alen + k + 1 > acap) {
            char *g = realloc(answer, (acap = (alen + k + 1) * 2));
            if (!g)
                break;
            answer = g;
        }
        memcpy(answer + alen, piece, k);
        alen += k;
        fwrite(piece, 1, k, stdout);
        fflush(stdout);
        wl_sampler_accept(c->s, t);
        if (wl_engine_pos(c->e, 0) + 2 > wl_engine_get_info(c->e)->n_ctx) {
            fprintf(stderr, "\nwgc: chat: the context of %u positions is full: answer cut\n",
                    wl_engine_get_info(c->e)->n_ctx);
            cut = 1;
            break;
        }
        if (wl_engine_eval(c->e, 0, &t, 1, WL_LOGITS_LAST, &err) != WL_OK) {
            fprintf(stderr, "\nwgc: chat: %s\n", err.message);
            cut = 1;
            break;
        }
    }
    size_t k = 0;
    if (piece && answer) {
        wl_detok_flush(&d, piece, cap, &k);
        fwrite(piece, 1, k, stdout);
        if (alen + k + 1 > acap) {
            char *g = realloc(answer, alen + k + 1);
            answer = g ? g : answer;
            k = g ? k : 0;
        }
        memcpy(answer + alen, piece, k);
        alen += k;
    }
    printf("\n");
    fflush(stdout);
    double dt = now() - t0;
    fprintf(stderr, "[%ld tokens, %.2f tok/s, %u positions used]\n", ntok, dt > 0 ? ntok / dt : 0,
            wl_engine_pos(c->e, 0));
    /* the cache covers the prompt and the answer's tokens: record both */
    char *cov = answer && c->covered && !cut ? malloc(strlen(c->covered) + alen + 1) : NULL;
    if (cov && !push(c, "assistant", answer, alen)) {
        strcpy(cov, c->covered);
        memcpy(cov + strlen(cov), answer, alen);
        cov[strlen(c->covered) + alen] = 0;
        free(c->covered);
        c->covered = cov;
    } else {
        free(cov);
        free(c->covered);
        c->covered = NULL;
    }
    free(piece);
    free(answer);
}

static int run(const char *path, const char *system, long max_tokens, uint32_t n_ctx, const wl_sampler_desc *sd) {
    wl_error err;
    wl_model *m = wl_model_open(path, NULL, &err);
    if (!m)
        return cli_fail("chat: %s", err.message);
    chat c = { .max_tokens = max_tokens };
    wl_tokenizer *tok = wl_tokenizer_open(m, NULL, &err);
    if (!tok || wl_chat_template_from_model(m, &c.tmpl, &err) != WL_OK) {
        wl_tokenizer_close(tok);
        wl_model_close(m);
        return cli_fail("chat: %s", err.message);
    }
    c.tok = tok;
    const wl_special_tokens *sp = wl_tokenizer_special(tok);
    c.stop[0] = sp->eos, c.stop[1] = sp->eot, c.stop[2] = sp->eom;
    c.stop[3] = wl_token_find(tok, c.tmpl.end_of_turn, strlen(c.tmpl.end_of_turn));
    cli_llm l;
    int rc = cli_llm_open(&l, "chat", m, n_ctx);
    wl_model_close(m);
    c.e = l.e;
    c.s = c.e ? wl_sampler_create(sd, &err) : NULL;
    if (!rc && !c.s)
        rc = cli_fail("chat: %s", err.message);
    if (!rc && system && push(&c, "system", system, strlen(system)))
        rc = cli_fail("chat: out of memory");
    c.n_fixed = c.n;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t got;
    int tty = isatty(0);
    for (;;) {
        if (tty)
            fputs("> ", stderr);
        if (rc || (got = getline(&line, &lcap, stdin)) < 0)
            break;
        while (got && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = 0;
        if (!got)
            continue;
        if (!strcmp(line, "/reset")) {
            reset(&c);
            fprintf(stderr, "[conversation reset]\n");
            continue;
        }
        turn(&c, line, (size_t)got);
    }
    free(line);
    pop_to(&c, 0);
    free(c.msgs);
    free(c.covered);
    wl_sampler_release(c.s);
    cli_llm_close(&l);
    wl_tokenizer_close(tok);
    return rc;
}

int cli_chat(int argc, char **argv) {
    const char *path = NULL, *system = NULL;
    long ntok = 512, n_ctx = 0;
    int have_seed = 0;
    wl_sampler_desc sd = { .temperature = 0.8f, .top_k = 40, .top_p = 0.95f, .min_p = 0.05f, .repeat_penalty = 1 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!v)
            return cli_fail("chat: %s needs a value (try wgc chat --help)", a);
        i++;
        if (!strcmp(a, "-m"))
            path = v;
        else if (!strcmp(a, "--system"))
            system = v;
        else if (!strcmp(a, "-n"))
            ntok = strtol(v, &end, 10);
        else if (!strcmp(a, "-c"))
            n_ctx = strtol(v, &end, 10);
        else if (cli_sampler_option(a, v, &sd, &end))
            have_seed |= !strcmp(a, "--seed");
        else
            return cli_fail("chat: unknown option '%s' (try wgc chat --help)", a);
        if (end && (end == v || *end))
            return cli_fail("chat: %s: '%s' is not a number", a, v);
    }
    if (!path)
        return cli_fail("chat: no model (-m FILE; try wgc chat --help)");
    if (ntok < 1 || ntok > 1000000 || n_ctx < 0 || n_ctx > (1 << 24))
        return cli_fail("chat: -n or -c out of range");
    if (!have_seed)
        sd.seed = cli_clock_seed();
    return run(path, system, ntok, (uint32_t)n_ctx, &sd);
}
