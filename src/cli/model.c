/* model.c - `wgc model FILE`: what a model file holds (GGUF, safetensors, a sharded safetensors
 * index or directory): architecture, the llama-family sizes, tensor counts and bytes by dtype,
 * and the memory inference needs (the weights, plus a KV cache for the full context at f16/f32). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "wgc/llm.h"

static int get_u64(const wl_model *m, const char *arch, const char *key, uint64_t *out) {
    char k[256];
    snprintf(k, sizeof k, "%s.%s", arch, key);
    return wl_model_get_u64(m, k, out) == WL_OK;
}

int cli_model(int argc, char **argv) {
    const char *path = NULL;
    int json = 0, list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: wgc model FILE [--json] [--tensors]\n"
                 "  FILE: a .gguf, a .safetensors, a model.safetensors.index.json, or a directory of them\n"
                 "  prints the architecture, sizes, tensor types and bytes, and the memory needed\n"
                 "  --tensors: also each tensor: name, dtype, ne (ggml order), file offset, bytes");
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--tensors")) {
            list = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_fail("model: unknown option '%s' (try wgc model --help)", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            return cli_fail("model: one FILE only (try wgc model --help)");
        }
    }
    if (!path) return cli_fail("model: no FILE (try wgc model --help)");
    wl_error err;
    wl_model *m = wl_model_open(path, NULL, &err);
    if (!m) return cli_fail("model: %s", err.message);

    char arch[128] = "";
    const char *s;
    size_t len;
    if (wl_model_get_str(m, "general.architecture", &s, &len) == WL_OK)
        snprintf(arch, sizeof arch, "%.*s", (int)(len < 120 ? len : 120), s);
    char name[256] = "";
    if (wl_model_get_str(m, "general.name", &s, &len) == WL_OK)
        snprintf(name, sizeof name, "%.*s", (int)(len < 250 ? len : 250), s);
    static const char *const keys[] = { "context_length", "embedding_length", "block_count", "feed_forward_length",
                                        "attention.head_count", "attention.head_count_kv", "vocab_size" };
    static const char *const json_keys[] = { "contextLength", "embeddingLength", "blockCount", "feedForwardLength",
                                             "attentionHeadCount", "attentionHeadCountKv", "vocabSize" };
    enum { CTX, EMBD, BLOCKS, FFN, HEADS, KV_HEADS, VOCAB, NKEYS };
    uint64_t v[NKEYS];
    int have[NKEYS];
    for (int i = 0; i < NKEYS; i++) have[i] = *arch && get_u64(m, arch, keys[i], &v[i]);
    if (!have[VOCAB]) {   /* GGUF keeps the vocabulary in tokenizer.ggml.tokens */
        const wl_value *tok = wl_model_find(m, "tokenizer.ggml.tokens");
        if (tok && tok->type == WL_VALUE_ARRAY) {
            v[VOCAB] = tok->count;
            have[VOCAB] = 1;
        }
    }
    double rope = 0;
    char k[256];
    snprintf(k, sizeof k, "%s.rope.freq_base", arch);
    int have_rope = *arch && wl_model_get_f64(m, k, &rope) == WL_OK;

    uint64_t count[WL_DTYPE_COUNT] = { 0 }, bytes[WL_DTYPE_COUNT] = { 0 }, total = 0, params = 0;
    for (uint64_t i = 0; i < wl_model_tensor_count(m); i++) {
        const wl_tensor_info *t = wl_model_tensor(m, i);
        count[t->dtype]++;
        bytes[t->dtype] += t->size;
        total += t->size;
        params += t->elements;
    }
    /* KV cache: K and V, per layer, per position: kv_heads * head_dim values */
    uint64_t kv_f16 = 0;
    if (have[CTX] && have[EMBD] && have[BLOCKS] && have[HEADS] && v[HEADS]) {
        uint64_t head_dim = v[EMBD] / v[HEADS], kvh = have[KV_HEADS] ? v[KV_HEADS] : v[HEADS];
        uint64_t kl;
        snprintf(k, sizeof k, "%s.attention.key_length", arch);
        if (wl_model_get_u64(m, k, &kl) == WL_OK) head_dim = kl;
        kv_f16 = 2 * v[BLOCKS] * v[CTX] * kvh * head_dim * 2;
    }
    const char *fmt = wl_model_format(m) == WL_FORMAT_GGUF ? "gguf" : "safetensors";
    if (json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        printf(",\"format\":\"%s\",\"version\":%" PRIu32 ",\"files\":%" PRIu32 ",\"architecture\":", fmt,
               wl_model_version(m), wl_model_file_count(m));
        cli_json_str(stdout, arch);
        printf(",\"name\":");
        cli_json_str(stdout, name);
        printf(",\"metadataCount\":%" PRIu64, wl_model_metadata_count(m));
        for (int i = 0; i < NKEYS; i++) {
            if (!have[i]) continue;
            printf(",\"%s\":%" PRIu64, json_keys[i], v[i]);
        }
        if (have_rope) printf(",\"ropeFreqBase\":%.17g", rope);
        printf(",\"tensorCount\":%" PRIu64 ",\"parameters\":%" PRIu64 ",\"tensorBytes\":%" PRIu64 ",\"dtypes\":{",
               wl_model_tensor_count(m), params, total);
        int first = 1;
        for (int t = 1; t < WL_DTYPE_COUNT; t++)
            if (count[t]) {
                printf("%s\"%s\":{\"tensors\":%" PRIu64 ",\"bytes\":%" PRIu64 "}", first ? "" : ",",
                       wl_dtype_name((wl_dtype)t), count[t], bytes[t]);
                first = 0;
            }
        printf("},\"memory\":{\"weightsBytes\":%" PRIu64, total);
        if (kv_f16) printf(",\"kvCacheF16Bytes\":%" PRIu64 ",\"kvCacheF32Bytes\":%" PRIu64, kv_f16, kv_f16 * 2);
        printf("}");
        if (list) {
            printf(",\"tensors\":[");
            for (uint64_t i = 0; i < wl_model_tensor_count(m); i++) {
                const wl_tensor_info *t = wl_model_tensor(m, i);
                printf("%s{\"name\":", i ? "," : "");
                cli_json_str(stdout, t->name);
                printf(",\"dtype\":\"%s\",\"ne\":[", wl_dtype_name(t->dtype));
                for (uint32_t d = 0; d < t->n_dims; d++) printf("%s%" PRIu64, d ? "," : "", t->ne[d]);
                printf("],\"offset\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"file\":%" PRIu32 "}", t->offset, t->size,
                       t->file);
            }
            printf("]");
        }
        printf("}\n");
    } else {
        printf("file          %s\n", path);
        printf("format        %s", fmt);
        if (wl_model_version(m)) printf(" v%" PRIu32, wl_model_version(m));
        if (wl_model_file_count(m) > 1) printf(", %" PRIu32 " files", wl_model_file_count(m));
        printf(", %" PRIu64 " metadata keys\n", wl_model_metadata_count(m));
        printf("architecture  %s\n", *arch ? arch : "(unknown)");
        if (*name) printf("name          %s\n", name);
        for (int i = 0; i < NKEYS; i++)
            if (have[i]) printf("%-24s %" PRIu64 "\n", keys[i], v[i]);
        if (have_rope) printf("%-24s %g\n", "rope.freq_base", rope);
        printf("tensors       %" PRIu64 ", %" PRIu64 " parameters, %" PRIu64 " bytes (%.1f MiB)\n",
               wl_model_tensor_count(m), params, total, total / 1048576.0);
        for (int t = 1; t < WL_DTYPE_COUNT; t++)
            if (count[t])
                printf("  %-6s %5" PRIu64 " tensors  %12" PRIu64 " bytes\n", wl_dtype_name((wl_dtype)t), count[t],
                       bytes[t]);
        printf("memory needed %.1f MiB weights", total / 1048576.0);
        if (kv_f16)
            printf(" + KV cache for %" PRIu64 " positions: %.1f MiB at f16, %.1f MiB at f32", v[CTX],
                   kv_f16 / 1048576.0, kv_f16 * 2 / 1048576.0);
        printf("\n");
        for (uint64_t i = 0; list && i < wl_model_tensor_count(m); i++) {
            const wl_tensor_info *t = wl_model_tensor(m, i);
            printf("  %-40s %-5s [", t->name, wl_dtype_name(t->dtype));
            for (uint32_t d = 0; d < t->n_dims; d++) printf("%s%" PRIu64, d ? ", " : "", t->ne[d]);
            printf("] %" PRIu64 " bytes at %" PRIu64 "\n", t->size, t->offset);
        }
    }
    wl_model_close(m);
    return 0;
}
