/* llama_ref.c - reference values for tests/llm/test_engine.c from llama.cpp (not part of wgc's
 * build: tests/llm/golden/make_golden.sh compiles it against libllama and runs it).
 *
 * It loads MODEL with an F32 KV cache, flash attention off and everything on the CPU, and for
 * each prompt (text, tokenized by llama.cpp with its special tokens parsed) evaluates all its
 * tokens in one batch, printing for every position the logits at a fixed subset of the
 * vocabulary, the top TOPK (id, logit) pairs and the mean and root mean square of the whole row
 * (in double); then it generates NGREEDY tokens greedily, one llama_decode per token, printing
 * each token and the gap between its logit and the runner-up's.  Text output, one record a line:
 *
 *   vocab V
 *   subset K id...                       the vocabulary subset (every V/K-th id, from 7)
 *   prompt P <text, C-escaped>
 *   ids n id...
 *   pos i mean rms top TOPK id logit ... subset logit...
 *   greedy G id gap id gap ...
 *
 * Usage: llama_ref MODEL NGREEDY TEXT... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llama.h"

#define SUBSET 256
#define TOPK 32

static void quiet(enum ggml_log_level level, const char *text, void *user) {
    (void)level, (void)text, (void)user;
}

static void print_escaped(const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n') fputs("\\n", stdout);
        else if (c == '\\') fputs("\\\\", stdout);
        else if (c == '\t') fputs("\\t", stdout);
        else putchar(c);
    }
}

static void top2(const float *l, int V, int *best, float *gap) {
    int b = 0, s = -1;
    for (int i = 1; i < V; i++) {
        if (l[i] > l[b]) { s = b; b = i; }
        else if (s < 0 || l[i] > l[s]) s = i;
    }
    *best = b;
    *gap = l[b] - l[s];
}

static void print_row(int pos, const float *l, int V, const int *subset) {
    double sum = 0, sq = 0;
    for (int i = 0; i < V; i++) { sum += l[i]; sq += (double)l[i] * l[i]; }
    printf("pos %d %.6f %.6f top %d", pos, sum / V, sqrt(sq / V), TOPK);
    int ids[TOPK];
    for (int k = 0; k < TOPK; k++) {   /* selection: the k-th largest after the ones before */
        int b = -1;
        for (int i = 0; i < V; i++) {
            int taken = 0;
            for (int j = 0; j < k && !taken; j++) taken = ids[j] == i;
            if (!taken && (b < 0 || l[i] > l[b])) b = i;
        }
        ids[k] = b;
        printf(" %d %.5f", b, l[b]);
    }
    printf(" subset");
    for (int k = 0; k < SUBSET; k++) printf(" %.5f", l[subset[k]]);
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: llama_ref MODEL NGREEDY TEXT...\n"); return 2; }
    int ngreedy = atoi(argv[2]);
    llama_log_set(quiet, NULL);
    llama_backend_init();
    struct llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    struct llama_model *model = llama_model_load_from_file(argv[1], mp);
    if (!model) { fprintf(stderr, "llama_ref: cannot load %s\n", argv[1]); return 1; }
    const struct llama_vocab *vocab = llama_model_get_vocab(model);
    int V = llama_vocab_n_tokens(vocab);
    struct llama_context_params cp = llama_context_default_params();
    cp.n_ctx = 512;
    cp.n_batch = 512;
    cp.n_ubatch = 512;
    cp.n_threads = cp.n_threads_batch = 2;
    cp.type_k = GGML_TYPE_F32;
    cp.type_v = GGML_TYPE_F32;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    struct llama_context *ctx = llama_init_from_model(model, cp);
    if (!ctx) { fprintf(stderr, "llama_ref: cannot create a context\n"); return 1; }

    int subset[SUBSET];
    printf("vocab %d\nsubset %d", V, SUBSET);
    for (int k = 0; k < SUBSET; k++) { subset[k] = 7 + k * (V / SUBSET); printf(" %d", subset[k]); }
    printf("\n");
    for (int p = 3; p < argc; p++) {
        llama_token toks[512];
        int n = llama_tokenize(vocab, argv[p], (int32_t)strlen(argv[p]), toks, 512, true, true);
        if (n <= 0 || n + ngreedy > 512) { fprintf(stderr, "llama_ref: prompt %d: %d tokens\n", p - 3, n); return 1; }
        printf("prompt %d ", p - 3);
        print_escaped(argv[p]);
        printf("\nids %d", n);
        for (int i = 0; i < n; i++) printf(" %d", toks[i]);
        printf("\n");
        llama_memory_clear(llama_get_memory(ctx), true);
        struct llama_batch b = llama_batch_init(512, 0, 1);
        for (int i = 0; i < n; i++) {
            b.token[i] = toks[i];
            b.pos[i] = i;
            b.n_seq_id[i] = 1;
            b.seq_id[i][0] = 0;
            b.logits[i] = 1;
        }
        b.n_tokens = n;
        if (llama_decode(ctx, b)) { fprintf(stderr, "llama_ref: decode failed\n"); return 1; }
        for (int i = 0; i < n; i++) print_row(i, llama_get_logits_ith(ctx, i), V, subset);
        int tok;
        float gap;
        top2(llama_get_logits_ith(ctx, n - 1), V, &tok, &gap);
        printf("greedy %d", ngreedy);
        for (int g = 0; g < ngreedy; g++) {
            printf(" %d %.5f", tok, gap);
            if (g == ngreedy - 1) break;
            b.token[0] = tok;
            b.pos[0] = n + g;
            b.n_seq_id[0] = 1;
            b.seq_id[0][0] = 0;
            b.logits[0] = 1;
            b.n_tokens = 1;
            if (llama_decode(ctx, b)) { fprintf(stderr, "llama_ref: decode failed\n"); return 1; }
            top2(llama_get_logits_ith(ctx, 0), V, &tok, &gap);
        }
        printf("\n");
        llama_batch_free(b);
    }
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    return 0;
}
