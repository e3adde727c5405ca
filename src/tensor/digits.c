/* digits.c - scikit-learn's digits data set (digits.csv.gz: 1,797 rows of 64 pixel values 0..16
 * and a label), and the gzip reader it needs, so that wt links no compression library.
 *
 * gzip (RFC 1952): members of a 10-byte header (magic 1f 8b, method 8, flags: extra field, file
 * name, comment, header CRC, each skipped), a deflate stream, CRC-32 and length of the data;
 * members may follow each other.  Deflate (RFC 1951): blocks stored, with the fixed codes or with
 * codes sent in the block; a code is decoded canonically, one bit at a time: within each length
 * the codes are consecutive integers, so a code of length L is the symbol at (code - first code
 * of L) among the symbols of length L in order.  Every length, distance and code table is
 * checked: a corrupt stream is an error, never a read or write out of bounds.  The CSV is parsed
 * strictly: 65 integers per row, pixels in 0..16, labels in 0..9; then every sixth row moves to
 * the held-out part at the end. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tensor/optim.h"

#define DIGITS_PATH "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"

/* ---- output buffer ---- */
typedef struct obuf {
    wt_context *ctx;
    unsigned char *p;
    size_t len, cap;
} obuf;

static bool ob_reserve(obuf *o, size_t more) {
    if (o->len + more <= o->cap)
        return true;
    size_t cap = o->cap ? o->cap : 65536;
    while (cap < o->len + more)
        cap *= 2;
    unsigned char *q = wt_realloc(o->ctx, o->p, cap);
    if (!q)
        return false;
    o->p = q;
    o->cap = cap;
    return true;
}

/* ---- deflate ---- */
typedef struct bits {
    const unsigned char *p;
    size_t n, pos;            /* byte position */
    uint32_t buf;             /* bits not yet used, LSB first */
    int have;
    bool over;                /* read past the end */
} bits;

static uint32_t getbits(bits *b, int k) {
    while (b->have < k) {
        uint32_t byte = 0;
        if (b->pos < b->n)
            byte = b->p[b->pos++];
        else
            b->over = true;
        b->buf |= byte << b->have;
        b->have += 8;
    }
    uint32_t v = k ? b->buf & ((1u << k) - 1) : 0;
    b->buf = k < 32 ? b->buf >> k : 0;
    b->have -= k;
    return v;
}

#define MAXBITS 15
typedef struct huff {
    uint16_t count[MAXBITS + 1];  /* codes of each length */
    uint16_t sym[320];            /* symbols by length, then value */
} huff;

/* Builds h from lens[0 .. n); false when the lengths over-subscribe the code space (an incomplete
 * code is allowed: a single distance code is). */
static bool huff_build(huff *h, const uint8_t *lens, int n) {
    memset(h->count, 0, sizeof h->count);
    for (int i = 0; i < n; i++)
        h->count[lens[i]]++;
    h->count[0] = 0;
    int left = 1;
    for (int l = 1; l <= MAXBITS; l++) {
        left = 2 * left - h->count[l];
        if (left < 0)
            return false;
    }
    uint16_t start[MAXBITS + 2];
    start[1] = 0;
    for (int l = 1; l <= MAXBITS; l++)
        start[l + 1] = (uint16_t)(start[l] + h->count[l]);
    for (int i = 0; i < n; i++)
        if (lens[i])
            h->sym[start[lens[i]]++] = (uint16_t)i;
    return true;
}

/* The next symbol, or -1 for a code not in the table. */
static int huff_decode(bits *b, const huff *h) {
    int code = 0, first = 0, index = 0;
    for (int l = 1; l <= MAXBITS; l++) {
        code |= (int)getbits(b, 1);
        int c = h->count[l];
        if (code - first < c)
            return h->sym[index + code - first];
        index += c;
        first = (first + c) << 1;
        code <<= 1;
    }
    return -1;
}

static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                       35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
                                        12, 12, 13, 13 };

/* The symbols of one compressed block into o; NULL or the problem. */
static const char *codes(bits *b, obuf *o, size_t start, const huff *lit, const huff *dist) {
    for (;;) {
        int s = huff_decode(b, lit);
        if (b->over)
            return "stream ends inside a block";
        if (s < 0)
            return "invalid literal/length code";
        if (s < 256) {
            if (!ob_reserve(o, 1))
                return "out of memory";
            o->p[o->len++] = (unsigned char)s;
            continue;
        }
        if (s == 256)
            return NULL;
        s -= 257;
        if (s >= 29)
            return "invalid length symbol";
        size_t len = len_base[s] + getbits(b, len_extra[s]);
        int d = huff_decode(b, dist);
        if (d < 0 || d >= 30)
            return "invalid distance code";
        size_t back = dist_base[d] + getbits(b, dist_extra[d]);
        if (b->over)
            return "stream ends inside a block";
        if (back > o->len - start)
            return "distance before the start of the data";
        if (!ob_reserve(o, len))
            return "out of memory";
        for (size_t i = 0; i < len; i++, o->len++)   /* overlapping copies repeat: byte by byte */
            o->p[o->len] = o->p[o->len - back];
    }
}

/* One deflate stream from b into o; NULL or the problem.  Leaves b at the byte after it. */
static const char *inflate(bits *b, obuf *o) {
    size_t start = o->len;
    huff lit, dist;
    int last;
    do {
        last = (int)getbits(b, 1);
        int type = (int)getbits(b, 2);
        if (type == 0) {   /* stored: to a byte boundary, LEN, NLEN, the bytes */
            b->buf = 0;
            b->have = 0;
            if (b->pos + 4 > b->n)
                return "stream ends inside a stored block";
            unsigned len = b->p[b->pos] | (unsigned)b->p[b->pos + 1] << 8;
            unsigned nlen = b->p[b->pos + 2] | (unsigned)b->p[b->pos + 3] << 8;
            b->pos += 4;
            if (len != (~nlen & 0xffffu))
                return "stored block length check failed";
            if (b->pos + len > b->n)
                return "stream ends inside a stored block";
            if (!ob_reserve(o, len))
                return "out of memory";
            memcpy(o->p + o->len, b->p + b->pos, len);
            o->len += len;
            b->pos += len;
            continue;
        }
        uint8_t lens[320];
        int nlit, ndist;
        if (type == 1) {   /* the fixed codes */
            nlit = 288;
            ndist = 30;
            for (int i = 0; i < 288; i++)
                lens[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
            for (int i = 0; i < 30; i++)
                lens[288 + i] = 5;
        } else if (type == 2) {   /* the codes sent: lengths of the code-length code, then both tables */
            static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
            nlit = (int)getbits(b, 5) + 257;
            ndist = (int)getbits(b, 5) + 1;
            int ncode = (int)getbits(b, 4) + 4;
            if (nlit > 286 || ndist > 30)
                return "too many length or distance codes";
            uint8_t cl[19] = { 0 };
            for (int i = 0; i < ncode; i++)
                cl[order[i]] = (uint8_t)getbits(b, 3);
            huff clh;
            if (!huff_build(&clh, cl, 19))
                return "bad code-length code";
            for (int i = 0; i < nlit + ndist;) {
                int s = huff_decode(b, &clh);
                if (s < 0 || b->over)
                    return "bad code lengths";
                if (s < 16) {
                    lens[i++] = (uint8_t)s;
                    continue;
                }
                int rep, val = 0;
                if (s == 16) {
                    if (i == 0)
                        return "a repeat with no previous length";
                    val = lens[i - 1];
                    rep = 3 + (int)getbits(b, 2);
                } else if (s == 17) {
                    rep = 3 + (int)getbits(b, 3);
                } else {
                    rep = 11 + (int)getbits(b, 7);
                }
                if (i + rep > nlit + ndist)
                    return "code lengths run past the tables";
                while (rep--)
                    lens[i++] = (uint8_t)val;
            }
            if (lens[256] == 0)
                return "no end-of-block code";
        } else {
            return "invalid block type";
        }
        if (!huff_build(&lit, lens, nlit) || !huff_build(&dist, lens + nlit, ndist))
            return "over-subscribed code";
        const char *e = codes(b, o, start, &lit, &dist);
        if (e)
            return e;
    } while (!last);
    b->buf = 0;   /* the rest of the last byte is padding */
    b->have = 0;
    return NULL;
}

static uint32_t crc32_of(const unsigned char *p, size_t n) {
    uint32_t table[256];   /* made per call (2k steps): no shared state between threads */
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

/* The data of every gzip member of in[0 .. n) into o; NULL or the problem. */
static const char *gunzip(const unsigned char *in, size_t n, obuf *o) {
    size_t pos = 0;
    do {
        if (n - pos < 18 || in[pos] != 0x1f || in[pos + 1] != 0x8b || in[pos + 2] != 8)
            return "not a gzip (deflate) member";
        unsigned flags = in[pos + 3];
        pos += 10;
        if (flags & 4) {   /* FEXTRA */
            if (n - pos < 2)
                return "truncated header";
            size_t xl = in[pos] | (size_t)in[pos + 1] << 8;
            pos += 2 + xl;
        }
        for (unsigned f = 8; f <= 16; f *= 2)   /* FNAME, FCOMMENT: zero-terminated */
            if (flags & f) {
                while (pos < n && in[pos])
                    pos++;
                pos++;
            }
        if (flags & 2)     /* FHCRC */
            pos += 2;
        if (pos >= n)
            return "truncated header";
        size_t start = o->len;
        bits b = { in + pos, n - pos, 0, 0, 0, false };
        const char *e = inflate(&b, o);
        if (e)
            return e;
        pos += b.pos;
        if (n - pos < 8)
            return "truncated trailer";
        uint32_t crc = in[pos] | (uint32_t)in[pos + 1] << 8 | (uint32_t)in[pos + 2] << 16 | (uint32_t)in[pos + 3] << 24;
        uint32_t size = in[pos + 4] | (uint32_t)in[pos + 5] << 8 | (uint32_t)in[pos + 6] << 16 |
                        (uint32_t)in[pos + 7] << 24;
        pos += 8;
        if (crc != crc32_of(o->p + start, o->len - start) || size != (uint32_t)(o->len - start))
            return "CRC or length check failed";
        while (pos < n && in[pos] == 0)   /* padding after the last member */
            pos++;
    } while (pos < n);
    return NULL;
}

/* ---- the data set ---- */

wt_status wt_digits_load(wt_context *ctx, const char *path, wt_digits *out) {
    const char *op = "wt_digits_load";
    if (!ctx)
        return WT_STATUS_INVALID_ARGUMENT;
    if (!out)
        return wt_failst(ctx, WT_STATUS_INVALID_ARGUMENT, op, "out is NULL");
    memset(out, 0, sizeof *out);
    if (!path)
        path = DIGITS_PATH;
    FILE *f = fopen(path, "rb");
    if (!f)
        return wt_failst(ctx, WT_STATUS_IO, op, "%s: %s%s", path, strerror(errno),
                         errno == ENOENT ? " (Debian: apt-get install python3-sklearn)" : "");
    unsigned char *raw = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0 || !(raw = wt_alloc(ctx, (size_t)size + 1)) ||
        fread(raw, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        wt_free(ctx, raw);
        return wt_failst(ctx, raw || size < 0 ? WT_STATUS_IO : WT_STATUS_HOST_OUT_OF_MEMORY, op, "%s: cannot read", path);
    }
    fclose(f);
    obuf o = { ctx, NULL, 0, 0 };
    const char *text;
    size_t tn;
    if (size >= 2 && raw[0] == 0x1f && raw[1] == 0x8b) {
        const char *e = gunzip(raw, (size_t)size, &o);
        wt_free(ctx, raw);
        raw = NULL;
        if (e) {
            wt_free(ctx, o.p);
            return wt_failst(ctx, strcmp(e, "out of memory") ? WT_STATUS_IO : WT_STATUS_HOST_OUT_OF_MEMORY, op,
                             "%s: gzip: %s", path, e);
        }
        text = (const char *)o.p;
        tn = o.len;
    } else {
        text = (const char *)raw;
        tn = (size_t)size;
    }
    /* rows of 65 integers */
    int64_t rows = 0;
    for (size_t i = 0; i < tn; i++)
        rows += text[i] == '\n' || (i + 1 == tn && text[i] != '\n');
    float *px = wt_alloc(ctx, (size_t)(rows ? rows : 1) * 64 * sizeof *px);
    int32_t *lab = wt_alloc(ctx, (size_t)(rows ? rows : 1) * sizeof *lab);
    wt_status st = px && lab ? WT_OK : wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    size_t at = 0;
    int64_t r = 0;
    for (; st == WT_OK && at < tn; r++) {
        if (r == rows) {   /* lines ended by a lone '\r' are not counted above */
            st = wt_failst(ctx, WT_STATUS_IO, op, "%s: row %lld: lines must end with '\\n'", path, (long long)r + 1);
            break;
        }
        for (int c = 0; c < 65 && st == WT_OK; c++) {
            int v = 0, digits = 0;
            while (at < tn && text[at] >= '0' && text[at] <= '9' && digits < 4) {
                v = v * 10 + (text[at++] - '0');
                digits++;
            }
            if (at < tn && text[at] == '.')   /* "5.0" written by some exports */
                for (at++; at < tn && text[at] == '0'; at++) {
                }
            char sep = at < tn ? text[at] : '\n';
            bool ok = digits > 0 && (c < 64 ? v <= 16 && sep == ',' : v <= 9 && (sep == '\n' || sep == '\r'));
            if (!ok) {
                st = wt_failst(ctx, WT_STATUS_IO, op, "%s: row %lld, column %d: %s", path, (long long)r + 1, c + 1,
                               c < 64 ? "a pixel value 0..16 and ',' expected" : "a label 0..9 at the end expected");
                break;
            }
            if (c < 64)
                px[r * 64 + c] = (float)v;
            else
                lab[r] = v;
            at++;
            if (sep == '\r' && at < tn && text[at] == '\n')
                at++;
        }
    }
    wt_free(ctx, o.p);
    wt_free(ctx, raw);
    if (st == WT_OK && r == 0)
        st = wt_failst(ctx, WT_STATUS_IO, op, "%s: no rows", path);
    if (st != WT_OK) {
        wt_free(ctx, px);
        wt_free(ctx, lab);
        return st;
    }
    /* the split: every sixth row tests; training rows first, each part in file order (in place,
     * through a scratch copy) */
    float *tp = wt_alloc(ctx, (size_t)r * 64 * sizeof *tp);
    int32_t *tl = wt_alloc(ctx, (size_t)r * sizeof *tl);
    if (!tp || !tl) {
        wt_free(ctx, tp), wt_free(ctx, tl), wt_free(ctx, px), wt_free(ctx, lab);
        return wt_failst(ctx, WT_STATUS_HOST_OUT_OF_MEMORY, op, "out of host memory");
    }
    int64_t ntrain = r - r / 6, a = 0, b = ntrain;
    for (int64_t i = 0; i < r; i++) {
        int64_t to = i % 6 == 5 ? b++ : a++;
        memcpy(tp + to * 64, px + i * 64, 64 * sizeof *tp);
        tl[to] = lab[i];
    }
    wt_free(ctx, px);
    wt_free(ctx, lab);
    out->count = r;
    out->train_count = ntrain;
    out->pixels = tp;
    out->labels = tl;
    return WT_OK;
}

void wt_digits_free(wt_context *ctx, wt_digits *d) {
    if (!ctx || !d)
        return;
    wt_free(ctx, d->pixels);
    wt_free(ctx, d->labels);
    memset(d, 0, sizeof *d);
}
