/* test_views.c - views without copies: reshape/view (with -1, and the copy fallback), flatten,
 * permute/transpose at several ranks, expand, squeeze/unsqueeze, slice/narrow/select,
 * chunk/split; each checked for shared storage, shape, strides and the values read back against
 * index arithmetic on the host, and used as an op input; plus the errors of bad calls. */
#include "tensor/tensor_test.h"

static wt_context *ctx;

/* The tensor's values must equal base[offset + sum(idx * strides)] where base = 0, 1, 2, ... */
static void check_values(const char *what, wt_tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                         int64_t offset) {
    CHECKF(t != NULL, "%s: %s", what, wt_last_error(ctx));
    if (!t)
        return;
    CHECK_EQ_INT(wt_ndim(t), ndim);
    for (int d = 0; d < ndim && d < wt_ndim(t); d++) {
        CHECKF(wt_shape(t)[d] == shape[d], "%s: dim %d size %lld want %lld", what, d, (long long)wt_shape(t)[d],
               (long long)shape[d]);
        if (strides)
            CHECKF(wt_strides(t)[d] == strides[d], "%s: dim %d stride %lld want %lld", what, d,
                   (long long)wt_strides(t)[d], (long long)strides[d]);
    }
    double *v = tt_read(ctx, t);
    int64_t n = wt_numel(t), idx[WT_MAX_DIMS] = { 0 }, bad = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t off = offset;
        for (int d = 0; d < ndim; d++)
            off += idx[d] * wt_strides(t)[d];
        if (v[i] != (double)off && bad++ < 3)
            fprintf(stderr, "%s: element %lld = %g, want %lld\n", what, (long long)i, v[i], (long long)off);
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < wt_shape(t)[d])
                break;
            idx[d] = 0;
        }
    }
    CHECKF(bad == 0, "%s: %lld wrong values", what, (long long)bad);
    free(v);
}

static void expect_error(const char *what, void *result, wt_status st, const char *needle) {
    CHECKF(result == NULL, "%s: expected an error", what);
    CHECKF(wt_last_status(ctx) == st, "%s: status %s, want %s (%s)", what, wt_status_name(wt_last_status(ctx)),
           wt_status_name(st), wt_last_error(ctx));
    CHECKF(strstr(wt_last_error(ctx), needle) != NULL, "%s: message '%s' lacks '%s'", what, wt_last_error(ctx), needle);
    wt_clear_error(ctx);
}

int main(void) {
    tt_fixture f;
    ctx = tt_init(&f, NULL);
    wt_tensor *base = wt_arange(ctx, WT_F32, 0, 120, 1);   /* values = storage index */
    check_values("arange", base, 1, (const int64_t[]){ 120 }, (const int64_t[]){ 1 }, 0);

    wt_tensor *r = wt_reshape(ctx, base, WT_SHAPE(2, 3, 4, 5));
    CHECK(wt_same_storage(r, base));
    check_values("reshape", r, 4, (const int64_t[]){ 2, 3, 4, 5 }, (const int64_t[]){ 60, 20, 5, 1 }, 0);
    wt_tensor *r2 = wt_view(ctx, r, WT_SHAPE(6, -1));
    check_values("view -1", r2, 2, (const int64_t[]){ 6, 20 }, (const int64_t[]){ 20, 1 }, 0);

    /* permute of rank 4, then a view that merges dims that stayed adjacent */
    wt_tensor *p = wt_permute(ctx, r, (const int[]){ 2, 0, 3, 1 });
    CHECK(wt_same_storage(p, base));
    CHECK(!wt_is_contiguous(p));
    check_values("permute", p, 4, (const int64_t[]){ 4, 2, 5, 3 }, (const int64_t[]){ 5, 60, 1, 20 }, 0);
    wt_tensor *t = wt_transpose(ctx, r, 1, 3);
    check_values("transpose", t, 4, (const int64_t[]){ 2, 5, 4, 3 }, (const int64_t[]){ 60, 1, 5, 20 }, 0);
    /* [2,3,4,5] -> permute(0,1,3,2) -> view merging dims 0,1 (still a view) */
    wt_tensor *p2 = wt_permute(ctx, r, (const int[]){ 0, 1, 3, 2 });
    wt_tensor *pv = wt_view(ctx, p2, WT_SHAPE(6, 5, 4));
    CHECK(wt_same_storage(pv, base));
    check_values("view of permuted", pv, 3, (const int64_t[]){ 6, 5, 4 }, (const int64_t[]){ 20, 1, 5 }, 0);
    /* flattening a permuted tensor cannot be a view: view fails, reshape copies */
    expect_error("view non-viewable", wt_view(ctx, p, WT_SHAPE(-1)), WT_STATUS_NOT_VIEWABLE, "wt_view");
    wt_tensor *flat = wt_reshape(ctx, p, WT_SHAPE(-1));
    CHECK(flat && !wt_same_storage(flat, base));
    CHECK(wt_is_contiguous(flat));
    double *fv = tt_read(ctx, flat);
    /* flat[i] = p[i0,i1,i2,i3] = 5*i0 + 60*i1 + i2 + 20*i3 */
    int bad = 0;
    for (int i0 = 0, k = 0; i0 < 4; i0++)
        for (int i1 = 0; i1 < 2; i1++)
            for (int i2 = 0; i2 < 5; i2++)
                for (int i3 = 0; i3 < 3; i3++, k++)
                    bad += fv[k] != 5 * i0 + 60 * i1 + i2 + 20 * i3;
    CHECK_EQ_INT(bad, 0);
    free(fv);

    /* slice with step, narrow, select, negative indices */
    wt_tensor *m = wt_reshape(ctx, base, WT_SHAPE(10, 12));
    wt_tensor *s = wt_slice(ctx, m, 1, 1, -1, 3);   /* columns 1, 4, 7, 10 */
    check_values("slice step", s, 2, (const int64_t[]){ 10, 4 }, (const int64_t[]){ 12, 3 }, 1);
    wt_tensor *s2 = wt_slice(ctx, s, 0, -4, 100, 2);   /* rows 6, 8 */
    check_values("slice of slice", s2, 2, (const int64_t[]){ 2, 4 }, (const int64_t[]){ 24, 3 }, 73);
    wt_tensor *n = wt_narrow(ctx, m, 0, 3, 2);
    check_values("narrow", n, 2, (const int64_t[]){ 2, 12 }, (const int64_t[]){ 12, 1 }, 36);
    CHECK(wt_is_contiguous(n));
    wt_tensor *sel = wt_select(ctx, m, 1, -2);   /* column 10 */
    check_values("select", sel, 1, (const int64_t[]){ 10 }, (const int64_t[]){ 12 }, 10);
    wt_tensor *empty = wt_slice(ctx, m, 0, 5, 5, 1);
    CHECK_EQ_INT(wt_numel(empty), 0);
    CHECK_EQ_INT(wt_shape(empty)[0], 0);

    /* expand, unsqueeze, squeeze */
    wt_tensor *col = wt_unsqueeze(ctx, sel, 1);   /* [10, 1] */
    check_values("unsqueeze", col, 2, (const int64_t[]){ 10, 1 }, NULL, 10);
    wt_tensor *e = wt_expand(ctx, col, WT_SHAPE(3, 10, 7));
    check_values("expand", e, 3, (const int64_t[]){ 3, 10, 7 }, (const int64_t[]){ 0, 12, 0 }, 10);
    wt_tensor *e2 = wt_expand(ctx, col, WT_SHAPE(-1, 4));
    check_values("expand -1", e2, 2, (const int64_t[]){ 10, 4 }, (const int64_t[]){ 12, 0 }, 10);
    wt_tensor *sq = wt_squeeze(ctx, col, -1);
    check_values("squeeze", sq, 1, (const int64_t[]){ 10 }, (const int64_t[]){ 12 }, 10);
    wt_tensor *one = wt_reshape(ctx, n, WT_SHAPE(1, 2, 1, 12, 1));
    wt_tensor *sqa = wt_squeeze_all(ctx, one);
    check_values("squeeze_all", sqa, 2, (const int64_t[]){ 2, 12 }, (const int64_t[]){ 12, 1 }, 36);
    wt_tensor *sq0 = wt_squeeze(ctx, one, 1);   /* size 2: unchanged */
    CHECK(sq0 && wt_ndim(sq0) == 5);

    /* an op on an expanded, a sliced and a transposed view at once */
    wt_tensor *nar = wt_narrow(ctx, m, 1, 0, 10);
    wt_tensor *mt = wt_transpose(ctx, nar, 0, 1);   /* mt[i][j] = 12 j + i */
    /* the expanded temporary is owned by nobody: the live count below finds it */
    wt_tensor *colx = wt_expand(ctx, col, WT_SHAPE(10, 10));
    wt_tensor *sum = wt_add(ctx, mt, colx);
    double *sv = tt_read(ctx, sum);
    bad = 0;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            bad += sv[i * 10 + j] != (12 * j + i) + (12 * i + 10);
    CHECK_EQ_INT(bad, 0);
    free(sv);

    /* chunk and split */
    wt_tensor *parts[8] = { 0 };
    int cnt = 0;
    CHECK(wt_chunk(ctx, m, 3, 1, parts, 8, &cnt) == WT_OK);
    CHECK_EQ_INT(cnt, 3);
    for (int i = 0; i < cnt; i++) {
        char what[32];
        snprintf(what, sizeof what, "chunk %d", i);
        check_values(what, parts[i], 2, (const int64_t[]){ 10, 4 }, (const int64_t[]){ 12, 1 }, 4 * i);
        wt_release(parts[i]);
    }
    CHECK(wt_split(ctx, m, 4, 0, parts, 8, &cnt) == WT_OK);
    CHECK_EQ_INT(cnt, 3);
    if (cnt == 3) {
        check_values("split last", parts[2], 2, (const int64_t[]){ 2, 12 }, (const int64_t[]){ 12, 1 }, 96);
        CHECK_EQ_INT(wt_shape(parts[0])[0], 4);
    }
    for (int i = 0; i < cnt; i++)
        wt_release(parts[i]);
    CHECK(wt_chunk(ctx, m, 7, 0, parts, 8, &cnt) == WT_OK);   /* 10 rows in chunks of 2: 5 pieces */
    CHECK_EQ_INT(cnt, 5);
    for (int i = 0; i < cnt; i++)
        wt_release(parts[i]);
    CHECK(wt_split(ctx, m, 1, 0, parts, 8, &cnt) == WT_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(wt_last_error(ctx), "wt_split") != NULL);
    wt_clear_error(ctx);

    /* contiguous of a view copies, of a contiguous tensor does not */
    wt_tensor *c1 = wt_contiguous(ctx, n);
    CHECK(c1 == n);
    wt_tensor *c2 = wt_contiguous(ctx, s);
    CHECK(c2 && c2 != s && wt_is_contiguous(c2) && !wt_same_storage(c2, s));
    wt_release(c1);
    wt_release(c2);

    /* scalars (0-d) */
    wt_tensor *sc = wt_select(ctx, sel, 0, 3);   /* m[3][10] = 46 */
    CHECK_EQ_INT(wt_ndim(sc), 0);
    double item = 0;
    CHECK(wt_item(ctx, sc, &item) == WT_OK);
    CHECK(item == 46);
    wt_tensor *sc2 = wt_reshape(ctx, sc, WT_SHAPE(1, 1));
    CHECK(sc2 && wt_numel(sc2) == 1);
    wt_tensor *u0 = wt_unsqueeze(ctx, sc, 0);
    CHECK(u0 && wt_ndim(u0) == 1);

    /* errors: each names the op and the shapes */
    expect_error("reshape bad numel", wt_reshape(ctx, m, WT_SHAPE(7, 7)), WT_STATUS_SHAPE, "[7, 7]");
    expect_error("reshape two -1", wt_reshape(ctx, m, WT_SHAPE(-1, -1)), WT_STATUS_SHAPE, "one -1");
    expect_error("permute dup", wt_permute(ctx, m, (const int[]){ 0, 0 }), WT_STATUS_INVALID_ARGUMENT, "permutation");
    expect_error("transpose dim", wt_transpose(ctx, m, 0, 2), WT_STATUS_INVALID_ARGUMENT, "[10, 12]");
    expect_error("expand", wt_expand(ctx, m, WT_SHAPE(10, 13)), WT_STATUS_SHAPE, "cannot expand shape [10, 12] to [10, 13]");
    expect_error("narrow", wt_narrow(ctx, m, 0, 8, 3), WT_STATUS_INVALID_ARGUMENT, "wt_narrow");
    expect_error("select", wt_select(ctx, m, 0, 10), WT_STATUS_INVALID_ARGUMENT, "index 10");
    expect_error("slice step", wt_slice(ctx, m, 0, 0, 5, 0), WT_STATUS_INVALID_ARGUMENT, "step");
    {   /* huge steps and lengths do not overflow: one element; an error */
        wt_tensor *ten = wt_arange(ctx, WT_F32, 0, 10, 1), *big = wt_slice(ctx, ten, 0, 0, 10, INT64_MAX);
        CHECK(big && wt_numel(big) == 1);
        double first = -1;
        CHECK(big && wt_item(ctx, big, &first) == WT_OK && first == 0);
        wt_release(big);
        big = wt_slice(ctx, ten, 0, 3, INT64_MAX, INT64_MAX - 1);
        CHECK(big && wt_numel(big) == 1 && wt_item(ctx, big, &first) == WT_OK && first == 3);
        wt_release(big);
        expect_error("narrow overflow", wt_narrow(ctx, ten, 0, INT64_MAX - 2, 5), WT_STATUS_INVALID_ARGUMENT,
                     "out of range");
        expect_error("narrow overflow 2", wt_narrow(ctx, ten, 0, 2, INT64_MAX), WT_STATUS_INVALID_ARGUMENT,
                     "out of range");
        wt_release(ten);
    }
    expect_error("NULL input", wt_transpose(ctx, NULL, 0, 1), WT_STATUS_NULL_TENSOR, "wt_transpose");
    expect_error("add shapes", wt_add(ctx, m, n), WT_STATUS_SHAPE, "wt_add: shapes [10, 12] and [2, 12] are not broadcastable");
    wt_tensor *r8 = wt_reshape(ctx, base, WT_SHAPE(1, 1, 1, 1, 1, 1, 1, 120));
    expect_error("unsqueeze 9 dims", wt_unsqueeze(ctx, r8, 0), WT_STATUS_SHAPE, "8 dimensions");

    wt_stats st;
    wt_get_stats(ctx, &st);
    printf("live tensors before release: %llu\n", (unsigned long long)st.live_tensors);
    wt_tensor *all[] = { base, r, r2, p, t, p2, pv, flat, m, s, s2, n, sel, empty, col, e, e2, sq, one, sqa, sq0,
                         nar, mt, sum, sc, sc2, u0, colx, r8 };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        wt_release(all[i]);
    wt_get_stats(ctx, &st);
    CHECK_EQ_INT(st.live_tensors, 0);   /* tensors held past wt_context_destroy would outlive it */
    tt_end(&f);
    return test_end();
}
