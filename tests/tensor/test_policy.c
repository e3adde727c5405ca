/* test_policy.c - the wt policy: wt_policy_from_env maps each WGC_* variable onto its field
 * (only where the field is zero), refuses malformed values with a message naming the variable;
 * a context rejects a policy out of range or naming an unknown (matmul or attention) kernel and
 * then keeps the one it had; the fields take effect (max_batch_ops flushes, fusion off keeps
 * dispatches apart). */
#include "tensor/tensor_test.h"

static void clear_env(void) {
    const char *names[] = { "WGC_BATCH_OPS", "WGC_EARLY_OPS", "WGC_BATCH_RAMP", "WGC_BATCH_MB", "WGC_FUSION",
                            "WGC_EW_VPT", "WGC_MATMUL_KERNEL", "WGC_MATMUL_WGM", "WGC_MM_PAD", "WGC_TUNE",
                            "WGC_TUNE_BUDGET_MS", "WGC_TUNE_MIN_FLOP", "WGC_CACHE_DIR", "WGC_TUNE_FAULT",
                            "WGC_WGM_GUARD_FAULT", "WGC_ATTENTION_KERNEL", "WGC_WINOGRAD_CHUNK_MB" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unsetenv(names[i]);
}

static void from_env(void) {
    char err[160];
    wt_policy p = { 0 };
    clear_env();
    CHECK(wt_policy_from_env(&p, err, sizeof err));
    wt_policy zero = { 0 };
    CHECK(!memcmp(&p, &zero, sizeof p));
    setenv("WGC_BATCH_OPS", "12", 1);
    setenv("WGC_BATCH_MB", "3", 1);
    setenv("WGC_FUSION", "0", 1);
    setenv("WGC_MATMUL_WGM", "on", 1);
    setenv("WGC_TUNE", "ahead", 1);
    setenv("WGC_TUNE_MIN_FLOP", "1e6", 1);
    setenv("WGC_CACHE_DIR", "/tmp/x", 1);
    setenv("WGC_WGM_GUARD_FAULT", "1", 1);
    setenv("WGC_ATTENTION_KERNEL", "flash2", 1);
    setenv("WGC_WINOGRAD_CHUNK_MB", "16", 1);
    CHECKF(wt_policy_from_env(&p, err, sizeof err), "%s", err);
    CHECK_EQ_INT(p.max_batch_ops, 12);
    CHECK_EQ_INT(p.batch_bytes, 3 << 20);
    CHECK_EQ_INT(p.fusion, WT_OFF);
    CHECK_EQ_INT(p.matmul_workgroup_matrix, WT_ON);
    CHECK_EQ_INT(p.tune, WT_TUNE_AHEAD);
    CHECK(p.tune_min_flop == 1e6);
    CHECK_STR(p.cache_dir, "/tmp/x");
    CHECK(p.fault_wgm_slow);
    CHECK_STR(p.attention_kernel, "flash2");
    CHECK_EQ_INT(p.winograd_chunk_bytes, 16 << 20);
    /* a field already set wins over the environment */
    wt_policy q = { .max_batch_ops = 7, .fusion = WT_ON };
    CHECK(wt_policy_from_env(&q, err, sizeof err));
    CHECK_EQ_INT(q.max_batch_ops, 7);
    CHECK_EQ_INT(q.fusion, WT_ON);
    /* malformed values: refused, the message names the variable */
    const char *bad[][2] = { { "WGC_BATCH_OPS", "0" }, { "WGC_BATCH_OPS", "70000" }, { "WGC_BATCH_OPS", "12x" },
                             { "WGC_EW_VPT", "-1" }, { "WGC_MM_PAD", "maybe" }, { "WGC_TUNE", "2" },
                             { "WGC_TUNE_MIN_FLOP", "nan" }, { "WGC_WINOGRAD_CHUNK_MB", "0" } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        clear_env();
        setenv(bad[i][0], bad[i][1], 1);
        wt_policy r = { 0 };
        bool ok = wt_policy_from_env(&r, err, sizeof err);
        CHECKF(!ok && strstr(err, bad[i][0]), "%s=%s: %s", bad[i][0], bad[i][1], ok ? "accepted" : err);
    }
    clear_env();
    CHECK(!wt_policy_from_env(NULL, err, sizeof err));
}

static void context_policy(wt_context *ctx) {
    wt_policy p;
    wt_context_get_policy(ctx, &p);
    wt_policy bad = p;
    bad.fusion = (wt_toggle)9;
    CHECK_EQ_INT(wt_context_set_policy(ctx, &bad), WT_STATUS_INVALID_ARGUMENT);
    bad = p;
    bad.ew_vec4_per_thread = 3;
    CHECK_EQ_INT(wt_context_set_policy(ctx, &bad), WT_STATUS_INVALID_ARGUMENT);
    bad = p;
    bad.matmul_kernel = "no-such-kernel";
    CHECK_EQ_INT(wt_context_set_policy(ctx, &bad), WT_STATUS_INVALID_ARGUMENT);
    CHECKF(strstr(wt_last_error(ctx), "no-such-kernel") != NULL, "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
    bad = p;
    bad.attention_kernel = "flash4";
    CHECK_EQ_INT(wt_context_set_policy(ctx, &bad), WT_STATUS_INVALID_ARGUMENT);
    CHECKF(strstr(wt_last_error(ctx), "flash4") != NULL, "%s", wt_last_error(ctx));
    wt_clear_error(ctx);
    wt_policy now;
    wt_context_get_policy(ctx, &now);
    CHECK(!memcmp(&now, &p, sizeof p));       /* unchanged */
    CHECK_EQ_INT(wt_context_set_policy(ctx, NULL), WT_STATUS_INVALID_ARGUMENT);
    wt_clear_error(ctx);

    /* every kernel the lists name is accepted as a forced kernel, and the lists are not empty */
    const char *names[64];
    size_t nm = wt_matmul_kernel_names(names, 64), na;
    CHECK(nm > 0 && nm <= 64);
    for (size_t i = 0; i < nm && i < 64; i++) {
        wt_policy f = p;
        f.matmul_kernel = names[i];
        CHECKF(wt_context_set_policy(ctx, &f) == WT_OK, "matmul kernel %s: %s", names[i], wt_last_error(ctx));
    }
    na = wt_attention_kernel_names(names, 64);
    CHECK(na > 0 && na <= 64);
    for (size_t i = 0; i < na && i < 64; i++) {
        wt_policy f = p;
        f.attention_kernel = names[i];
        CHECKF(wt_context_set_policy(ctx, &f) == WT_OK, "attention kernel %s: %s", names[i], wt_last_error(ctx));
    }
    CHECK(wt_matmul_kernel_names(NULL, 0) == nm && wt_attention_kernel_names(NULL, 0) == na);
    CHECK_EQ_INT(wt_context_set_policy(ctx, &p), WT_OK);

    /* strings are copied: the caller's buffer may go */
    char name[64] = { 0 };
    snprintf(name, sizeof name, "%s", "/tmp/wgc-policy-test");
    wt_policy s = p;
    s.cache_dir = name;
    CHECK_EQ_INT(wt_context_set_policy(ctx, &s), WT_OK);
    memset(name, 'x', sizeof name - 1);
    wt_context_get_policy(ctx, &now);
    CHECK_STR(now.cache_dir, "/tmp/wgc-policy-test");
    char kn[32] = { 0 };
    snprintf(kn, sizeof kn, "%s", "flash3_wq4");
    s.attention_kernel = kn;
    CHECK_EQ_INT(wt_context_set_policy(ctx, &s), WT_OK);
    memset(kn, 'x', sizeof kn - 1);
    wt_context_get_policy(ctx, &now);
    CHECK_STR(now.attention_kernel, "flash3_wq4");

    /* max_batch_ops takes effect: 10 dependent ops with a limit of 4 flush twice before the read */
    wt_policy b = { .max_batch_ops = 4, .fusion = WT_OFF };
    CHECK_EQ_INT(wt_context_set_policy(ctx, &b), WT_OK);
    wt_stats s0, s1;
    wt_tensor *x = wt_full(ctx, WT_F32, WT_SHAPE(64), 1.0);
    wt_sync(ctx);
    wt_get_stats(ctx, &s0);
    for (int i = 0; i < 10; i++) {
        wt_tensor *y = wt_add_scalar(ctx, x, 1.0);
        wt_release(x);
        x = y;
    }
    float v[64];
    CHECK_EQ_INT(wt_to_host(ctx, x, v, sizeof v), WT_OK);
    CHECK(v[0] == 11.0f && v[63] == 11.0f);
    wt_get_stats(ctx, &s1);
    CHECKF(s1.flushes - s0.flushes == 3, "flushes %llu", (unsigned long long)(s1.flushes - s0.flushes));
    CHECKF(s1.dispatches - s0.dispatches == 10 && s1.fused == s0.fused, "dispatches %llu fused %llu",
           (unsigned long long)(s1.dispatches - s0.dispatches), (unsigned long long)(s1.fused - s0.fused));
    wt_release(x);
}

int main(void) {
    from_env();
    tt_fixture f;
    wt_context *ctx = tt_init(&f, NULL);
    context_policy(ctx);
    tt_end(&f);
    return test_end();
}
