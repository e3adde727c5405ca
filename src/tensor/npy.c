/* npy.c - .npy files (numpy's format: "\x93NUMPY", version, a little-endian header length, a
 * Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with
 * spaces and a newline to a multiple of 64 bytes, then the raw C-order data).  Loading accepts
 * versions 1-3, the dtypes of tensor.h plus <f8 and <i8 (narrowed to f32 / i32), and refuses
 * big-endian, Fortran order, structured dtypes and short files with a message saying which. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/internal.h"

static const struct {
    const char *descr;
    wt_dtype dt;
    size_t size;       /* bytes per element in the file */
} npy_types[] = {
    { "f4", WT_F32, 4 }, { "f2", WT_F16, 2 }, { "i4", WT_I32, 4 }, { "u4", WT_U32, 4 },
    { "b1", WT_BOOL, 1 }, { "f8", WT_F32, 8 }, { "i8", WT_I32, 8 },
};

/* Finds 'key' in the header dict and returns a pointer just after its ':' (spaces skipped). */
static const char *dict_value(const char *h, const char *key) {
    char pat[32];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *p = strstr(h, pat);
    if (!p) {
        snprintf(pat, sizeof pat, "\"%s\"", key);
        p = strstr(h, pat);
    }
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ')
        p++;
    if (*p != ':')
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    return p;
}

wt_tensor *wt_load_npy(wt_context *ctx, const char *path) {
    const char *op = "wt_load_npy";
    if (!ctx)
        return NULL;
    if (!path)
        return wt_fail(ctx, WT_STATUS_INVALID_ARGUMENT, op, "path is NULL");
    FILE *f = fopen(path, "rb");
    if (!f)
        return wt_fail(ctx, WT_STATUS_IO, op, "%s: %s", path, strerror(errno));
    uint8_t pre[12];
    size_t got = fread(pre, 1, sizeof pre, f);
    wt_tensor *t = NULL;
    char *hdr = NULL;
    uint8_t *data = NULL;
    if (got < 10 || memcmp(pre, "\x93NUMPY", 6)) {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: not a .npy file (bad magic)", path);
        goto done;
    }
    uint32_t major = pre[6], hlen, hstart;
    if (major == 1) {
        hlen = pre[8] | (uint32_t)pre[9] << 8;
        hstart = 10;
    } else if (major == 2 || major == 3) {
        if (got < 12) {
            wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: truncated header", path);
            goto done;
        }
        hlen = pre[8] | (uint32_t)pre[9] << 8 | (uint32_t)pre[10] << 16 | (uint32_t)pre[11] << 24;
        hstart = 12;
    } else {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: unsupported .npy version %u.%u", path, major, pre[7]);
        goto done;
    }
    if (hlen > (1u << 24)) {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: header length %u is implausible", path, hlen);
        goto done;
    }
    hdr = wt_alloc(ctx, hlen + 1);
    if (!hdr) {
        wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
        goto done;
    }
    if (fseek(f, (long)hstart, SEEK_SET) != 0 || fread(hdr, 1, hlen, f) != hlen) {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: truncated header", path);
        goto done;
    }
    hdr[hlen] = 0;
    const char *d = dict_value(hdr, "descr"), *fo = dict_value(hdr, "fortran_order"), *sh = dict_value(hdr, "shape");
    if (!d || !fo || !sh || (*d != '\'' && *d != '"') || *sh != '(') {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: header is not a descr/fortran_order/shape dict: %.120s", path, hdr);
        goto done;
    }
    if (!strncmp(fo, "True", 4)) {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: fortran_order arrays are not supported (save C order)", path);
        goto done;
    }
    char descr[16] = { 0 };
    size_t dl = 0;
    for (const char *p = d + 1; *p && *p != *d && dl < sizeof descr - 1; p++)
        descr[dl++] = *p;
    if (dl < 2 || (descr[0] != '<' && descr[0] != '|' && descr[0] != '=' && descr[0] != '>')) {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: unsupported dtype '%s' (structured or unknown)", path, descr);
        goto done;
    }
    int ti = -1;
    for (size_t i = 0; i < sizeof npy_types / sizeof *npy_types; i++)
        if (!strcmp(descr + 1, npy_types[i].descr))
            ti = (int)i;
    if (ti < 0 || (descr[0] == '>' && npy_types[ti].size > 1)) {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: unsupported dtype '%s' (supported: <f4 <f2 <i4 <u4 |b1 <f8 <i8)",
                path, descr);
        goto done;
    }
    int64_t shape[WT_MAX_DIMS];
    int ndim = 0;
    const char *p = sh + 1;
    for (;;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v < 0 || ndim >= WT_MAX_DIMS) {
            wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: bad or too long shape (at most %d dims): %.60s", path,
                    WT_MAX_DIMS, sh);
            goto done;
        }
        shape[ndim++] = v;
        p = end;
        while (*p == 'L')
            p++;
    }
    int64_t numel;
    if (!wt_check_shape(ctx, op, ndim, shape, &numel))
        goto done;
    wt_dtype dt = npy_types[ti].dt;
    size_t fsz = npy_types[ti].size, bytes = (size_t)numel * fsz;
    data = wt_alloc(ctx, bytes ? bytes : 1);
    if (!data) {
        wt_fail(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory (%zu bytes)", bytes);
        goto done;
    }
    if (fseek(f, (long)(hstart + hlen), SEEK_SET) != 0 || fread(data, 1, bytes, f) != bytes) {
        wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: file is shorter than its %zu bytes of data", path, bytes);
        goto done;
    }
    if (!strcmp(descr + 1, "f8")) {
        float *o = (float *)data;   /* narrowing in place, front to back */
        for (int64_t i = 0; i < numel; i++) {
            double v;
            memcpy(&v, data + 8 * i, 8);
            float fv = (float)v;
            memcpy(&o[i], &fv, 4);
        }
    } else if (!strcmp(descr + 1, "i8")) {
        for (int64_t i = 0; i < numel; i++) {
            int64_t v;
            memcpy(&v, data + 8 * i, 8);
            if (v < INT32_MIN || v > INT32_MAX) {
                wt_fail(ctx, WT_STATUS_NPY_FORMAT, op, "%s: <i8 value %lld at index %lld does not fit i32", path,
                        (long long)v, (long long)i);
                goto done;
            }
            int32_t w = (int32_t)v;
            memcpy(data + 4 * i, &w, 4);
        }
    }
    t = wt_from_host(ctx, dt, ndim, shape, data);
done:
    wt_free(ctx, hdr);
    wt_free(ctx, data);
    fclose(f);
    return t;
}

wt_status wt_save_npy(wt_context *ctx, wt_tensor *t, const char *path) {
    const char *op = "wt_save_npy";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!wt_check_tensor(ctx, op, t))
        return ctx->status;
    if (!path)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "path is NULL");
    static const char *const descr[WT_DTYPE_COUNT] = { [WT_F32] = "<f4", [WT_F16] = "<f2", [WT_I32] = "<i4",
                                                       [WT_U32] = "<u4", [WT_BOOL] = "|b1" };
    size_t bytes = (size_t)t->numel * wt_dtype_size(t->dtype);
    void *data = wt_alloc(ctx, bytes ? bytes : 1);
    if (!data)
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    wt_status s = wt_to_host(ctx, t, data, bytes);
    if (s != WT_OK) {
        wt_free(ctx, data);
        return s;
    }
    char dict[400];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr[t->dtype]);
    for (int i = 0; i < t->ndim; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld,%s", (long long)t->shape[i], i + 1 < t->ndim ? " " : "");
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    size_t total = 10 + (size_t)n + 1;
    size_t padded = (total + 63) / 64 * 64;
    char hdr[512];
    memcpy(hdr, "\x93NUMPY\x01\x00", 8);
    uint16_t hl = (uint16_t)(padded - 10);
    hdr[8] = (char)(hl & 0xff);
    hdr[9] = (char)(hl >> 8);
    memcpy(hdr + 10, dict, (size_t)n);
    memset(hdr + 10 + n, ' ', padded - total);
    hdr[padded - 1] = '\n';
    FILE *f = fopen(path, "wb");
    if (!f) {
        wt_free(ctx, data);
        return wt_failst(ctx, WT_STATUS_IO, op, "%s: %s", path, strerror(errno));
    }
    bool ok = fwrite(hdr, 1, padded, f) == padded && fwrite(data, 1, bytes, f) == bytes;
    ok &= fclose(f) == 0;
    wt_free(ctx, data);
    if (!ok)
        return wt_failst(ctx, WT_STATUS_IO, op, "%s: write failed", path);
    return WT_OK;
}
