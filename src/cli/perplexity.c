/* perplexity.c - `wgc perplexity -m FILE -f TEXT_FILE [-c CTX] [--json]`: the mean negative
 * log-likelihood (natural log) of the text's tokens under the model, each given the tokens before
 * it, and its exp, the perplexity.  The text is tokenized as the model file says (BOS added when
 * it asks for one; special-token text is plain text).
 *
 * Windows.  A text of at most CTX tokens is one window: every token after the first is scored.
 * A longer one is cut as llama.cpp's llama-perplexity cuts it: floor(n / CTX) non-overlapping
 * windows of CTX tokens (the rest dropped), each evaluated on its own from an empty KV cache (its
 * first token replaced by BOS when the tokenizer adds BOS), and only the predictions in its second
 * half scored (the tokens at window positions CTX/2 + 1 .. CTX - 1), so that every scored token
 * has at least CTX/2 tokens of context.  The window's logits of every position come back from one
 * wl_engine_eval (WL_LOGITS_ALL); log-softmax runs on the host in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "wgc/llm.h"

static const char usage[] =
    "usage: wgc perplexity -m FILE -f TEXT_FILE [-c CTX] [--json]\n"
    "  -m FILE     a GGUF or safetensors model of the llama family\n"
    "  -f FILE     the text (UTF-8)\n"
    "  -c CTX      window size in tokens (default 512): a longer text is cut into floor(n/CTX)\n"
    "              windows whose second halves are scored, as llama.cpp's llama-perplexity does\n"
    "  --json      {\"nll\": ..., \"ppl\": ..., \"tokens\": n} (n: the tokens scored)\n";

/* Sum over rows r in [from, to) of -log softmax(logits[r])[next[r]]. */
static double window_nll(const float *logits, uint32_t n_vocab, const int32_t *next, uint32_t from, uint32_t to) {
    double sum = 0;
    for (uint32_t r = from; r < to; r++) {
        const float *row = logits + (size_t)r * n_vocab;
        double mx = row[0], z = 0;
        for (uint32_t v = 1; v < n_vocab; v++)
            mx = row[v] > mx ? row[v] : mx;
        for (uint32_t v = 0; v < n_vocab; v++)
            z += exp((double)row[v] - mx);
        sum += mx + log(z) - (double)row[next[r]];
    }
    return sum;
}

static int run(const char *path, const char *text, size_t tlen, uint32_t n_ctx, int json) {
    wl_error err;
    wl_model *m = wl_model_open(path, NULL, &err);
    if (!m)
        return cli_fail("perplexity: %s", err.message);
    wl_tokenizer *tok = wl_tokenizer_open(m, NULL, &err);
    if (!tok) {
        wl_model_close(m);
        return cli_fail("perplexity: %s", err.message);
    }
    size_t n = 0;
    int32_t *ids = cli_tokens(tok, text, tlen, WL_TOKENIZE_ADD_SPECIAL, &n, &err);
    wl_status st = ids ? WL_OK : err.status;
    const wl_special_tokens *sp = wl_tokenizer_special(tok);
    int32_t bos = sp->add_bos ? sp->bos : -1;
    wl_tokenizer_close(tok);
    if (st != WL_OK || n < 2) {
        wl_model_close(m);
        free(ids);
        return st != WL_OK ? cli_fail("perplexity: %s", err.message)
                           : cli_fail("perplexity: the text has %zu token(s): nothing to score", n);
    }
    uint32_t win = n <= n_ctx ? (uint32_t)n : n_ctx, n_win = n <= n_ctx ? 1 : (uint32_t)(n / n_ctx);
    uint32_t first = n <= n_ctx ? 0 : n_ctx / 2;   /* the first scored row of a window */

    cli_llm l;
    int rc = cli_llm_open(&l, "perplexity", m, win);
    wl_model_close(m);
    wl_engine *e = l.e;
    uint32_t n_vocab = e ? wl_engine_get_info(e)->n_vocab : 0;
    float *logits = rc ? NULL : malloc((size_t)win * n_vocab * sizeof *logits);
    int32_t *w = rc ? NULL : malloc((size_t)win * sizeof *w);
    if (!rc && (!logits || !w))
        rc = cli_fail("perplexity: out of memory for %u x %u logits", win, n_vocab);
    double nll = 0;
    uint64_t scored = 0;
    for (uint32_t k = 0; !rc && k < n_win; k++) {
        memcpy(w, ids + (size_t)k * win, (size_t)win * sizeof *w);
        if (n_win > 1 && bos >= 0)
            w[0] = bos;
        if (wl_engine_truncate(e, 0, 0, &err) != WL_OK || wl_engine_eval(e, 0, w, win, WL_LOGITS_ALL, &err) != WL_OK ||
            wl_engine_read_logits(e, logits, (size_t)win * n_vocab, &err) != WL_OK) {
            rc = cli_fail("perplexity: window %u: %s", k, err.message);
            break;
        }
        /* row r predicts token r + 1 of the window (the original ids: BOS only fed the model) */
        nll += window_nll(logits, n_vocab, ids + (size_t)k * win + 1, first, win - 1);
        scored += win - 1 - first;
        if (!json)
            fprintf(stderr, "window %u/%u: running ppl %.4f\n", k + 1, n_win, exp(nll / (double)scored));
    }
    if (!rc) {
        double mean = nll / (double)scored;
        if (json)
            printf("{\"nll\": %.6f, \"ppl\": %.6f, \"tokens\": %llu}\n", mean, exp(mean), (unsigned long long)scored);
        else
            printf("nll %.6f  ppl %.4f  (%llu tokens scored in %u window(s) of %u; the text has %zu)\n", mean,
                   exp(mean), (unsigned long long)scored, n_win, win, n);
    }
    free(w);
    free(logits);
    free(ids);
    cli_llm_close(&l);
    return rc;
}

int cli_perplexity(int argc, char **argv) {
    const char *path = NULL, *file = NULL;
    long n_ctx = 512;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
            continue;
        }
        if (!v)
            return cli_fail("perplexity: %s needs a value (try wgc perplexity --help)", a);
        i++;
        if (!strcmp(a, "-m"))
            path = v;
        else if (!strcmp(a, "-f"))
            file = v;
        else if (!strcmp(a, "-c"))
            n_ctx = strtol(v, &end, 10);
        else
            return cli_fail("perplexity: unknown option '%s' (try wgc perplexity --help)", a);
        if (end && (end == v || *end))
            return cli_fail("perplexity: %s: '%s' is not a number", a, v);
    }
    if (!path || !file)
        return cli_fail("perplexity: needs -m FILE and -f TEXT_FILE (try wgc perplexity --help)");
    if (n_ctx < 4 || n_ctx > (1 << 20))
        return cli_fail("perplexity: -c %ld out of range (4 .. 1048576)", n_ctx);
    size_t len;
    const char *why = NULL;
    char *text = cli_read_file(file, (size_t)1 << 30, &len, &why);
    if (!text)
        return cli_fail("perplexity: '%s' %s", file, why ? why : "cannot be read");
    int rc = run(path, text, len, (uint32_t)n_ctx, json);
    free(text);
    return rc;
}
