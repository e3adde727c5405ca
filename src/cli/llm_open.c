/* llm_open.c - what the model commands (generate, chat, perplexity) share: the default adapter's
 * device (with shader-f16 where the adapter has it), the WGC_* settings mapped onto it and onto the
 * tensor policy, a tensor context and a wl_engine for the model; tokenizing into an array; and
 * the sampling options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_llm_open(cli_llm *l, const char *cmd, const wl_model *m, uint32_t n_ctx) {
    return cli_llm_open_desc(l, cmd, m, &(wl_engine_desc){ .n_ctx = n_ctx });
}

int cli_llm_open_desc(cli_llm *l, const char *cmd, const wl_model *m, const wl_engine_desc *desc) {
    memset(l, 0, sizeof *l);
    wg_error gerr;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = cmd };
    wg_adapter_options opt = { .label = cmd };
    wg_device_desc ddesc = { .label = cmd };
    if (!wg_config_from_env(&env, &idesc, &opt, &ddesc, &gerr))
        return cli_fail("%s: %s", cmd, gerr.message);
    l->inst = wg_instance_create(&idesc, &gerr);
    wg_adapter *ad = l->inst ? wg_instance_request_adapter(l->inst, &opt, &gerr) : NULL;
    if (ad && wg_adapter_has_feature(ad, WG_FEATURE_SHADER_F16))
        ddesc.required_features |= WG_FEATURE_BIT(WG_FEATURE_SHADER_F16);
    l->dev = ad ? wg_adapter_create_device(ad, &ddesc, &gerr) : NULL;
    if (!l->dev) {
        cli_llm_close(l);
        return cli_fail("%s: %s", cmd, gerr.message);
    }
    wt_context_desc cd = { .label = cmd };
    char perr[160] = "no tensor context";
    l->ctx = wt_policy_from_env(&cd.policy, perr, sizeof perr) ? wt_context_create(l->dev, &cd) : NULL;
    if (!l->ctx) {
        cli_llm_close(l);
        return cli_fail("%s: %s", cmd, perr);
    }
    wl_error err;
    l->e = wl_engine_create(l->ctx, m, desc, &err);
    if (!l->e) {
        cli_llm_close(l);
        return cli_fail("%s: %s", cmd, err.message);
    }
    return 0;
}

void cli_llm_close(cli_llm *l) {
    wl_engine_release(l->e);
    if (l->ctx)
        wt_context_destroy(l->ctx);
    if (l->dev)
        wg_device_release(l->dev);
    if (l->inst)
        wg_instance_release(l->inst);
    memset(l, 0, sizeof *l);
}

bool cli_sampler_option(const char *a, const char *v, wl_sampler_desc *sd, char **end) {
    if (!strcmp(a, "--temp"))
        sd->temperature = strtof(v, end);
    else if (!strcmp(a, "--top-k"))
        sd->top_k = (uint32_t)strtoul(v, end, 10);
    else if (!strcmp(a, "--top-p"))
        sd->top_p = strtof(v, end);
    else if (!strcmp(a, "--min-p"))
        sd->min_p = strtof(v, end);
    else if (!strcmp(a, "--repeat-penalty"))
        sd->repeat_penalty = strtof(v, end);
    else if (!strcmp(a, "--seed"))
        sd->seed = strtoull(v, end, 10);
    else
        return false;
    return true;
}

uint64_t cli_clock_seed(void) {
    return (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

int32_t *cli_tokens(const wl_tokenizer *tok, const char *text, size_t len, uint32_t flags, size_t *n,
                      wl_error *err) {
    size_t cap = len + 8;   /* a token per byte at most, and the specials: one pass */
    int32_t *ids = malloc(cap * sizeof *ids);
    wl_status st = ids ? wl_tokenize(tok, text, len, flags, ids, cap, n, err) : WL_STATUS_OUT_OF_MEMORY;
    if (st == WL_OK && *n > cap) {
        int32_t *more = realloc(ids, *n * sizeof *ids);
        st = more ? wl_tokenize(tok, text, len, flags, ids = more, cap = *n, n, err) : WL_STATUS_OUT_OF_MEMORY;
    }
    if (st == WL_OK)
        return ids;
    if (st == WL_STATUS_OUT_OF_MEMORY && err)
        *err = (wl_error){ .status = st, .message = "out of memory" };
    free(ids);
    return NULL;
}
