/* test.h - the tiny assertion kit every C test uses.
 *
 * A test is a program: each CHECK that fails prints file:line and the expression, counts a
 * failure and goes on; main returns test_end(), non-zero when anything failed.  There is no
 * skip macro on purpose: a test that cannot run its subject must say why and fail, or print
 * "SKIP: reason" to stdout itself where the issue allows a visible skip. */
#ifndef WGC_TEST_H
#define WGC_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int test_failures_;
static int test_checks_;

#define CHECK(cond) do { test_checks_++; if (!(cond)) { test_failures_++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECKF(cond, ...) do { test_checks_++; if (!(cond)) { test_failures_++; \
    fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)
#define CHECK_EQ_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    CHECKF(a_ == b_, "%s = %lld, %s = %lld", #a, a_, #b, b_); } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    CHECKF(a_ && b_ && strcmp(a_, b_) == 0, "'%s' != '%s'", a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)

/* Whether the test runs under valgrind (its preload library is in LD_PRELOAD).  There every
 * kernel compile (LLVM in lavapipe) takes seconds and threads run one at a time: tests run a
 * lighter set of cases or widen timing bounds, and say so. */
static inline int test_under_valgrind(void) {
    const char *p = getenv("LD_PRELOAD");
    return p && (strstr(p, "vgpreload") || strstr(p, "valgrind"));
}

/* The whole file at path, NUL-terminated (malloc'ed: the caller frees it), its length in *len when
 * len is not NULL; NULL when it cannot be read. */
static inline char *test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (len) *len = (size_t)n;
    }
    return buf;
}

/* stdout line-buffered in every test even when it is a file, so what a test prints reaches its
 * log at once: tests/run.sh shows a running test's last log line once a minute. */
__attribute__((constructor)) static void test_line_buffered_(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

/* For a test that runs minutes: a progress line on stdout at most every 30 s (and when done
 * reaches total), "progress: 40/260 after 31 s: WHAT" (WHAT: the case about to run). */
static inline void test_progress(int done, int total, const char *what) {
    static time_t start, last;
    time_t now = time(NULL);
    if (!start)
        start = last = now;
    if (now - last < 30 && done < total)
        return;
    last = now;
    printf("progress: %d/%d after %lld s: %s\n", done, total, (long long)(now - start), what);
}

static inline int test_end(void) {
    printf("%d checks, %d failed\n", test_checks_, test_failures_);
    return test_failures_ ? 1 : 0;
}
#endif
