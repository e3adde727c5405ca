/* test_fuzz_replay.c - the fuzz target's seed corpus replayed in `make check` (no libFuzzer):
 * every .wgsl file in tests/wgsl/golden, then deterministic mutations of each (prefixes cut at 8
 * points, bytes flipped, brackets and operators spliced in) through LLVMFuzzerTestOneInput with
 * each option byte pattern.  A crash, sanitizer report (make asan) or trap fails the test. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgsl/fuzz_wgsl.c"

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 2);
    size_t got = fread(buf + 1, 1, (size_t)n, f);
    fclose(f);
    *len = got;
    return buf;
}

/* Runs `src` (len bytes at buf+1; buf[0] is free for the option byte). */
static void run(char *buf, size_t len, uint8_t opt) {
    buf[0] = (char)opt;
    LLVMFuzzerTestOneInput((const uint8_t *)buf, len + 1);
}

int main(void) {
    const char *dir = "tests/wgsl/golden";
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "cannot open %s (run from the repository root)", dir);
    if (!d) return test_end();
    static const char *const splice[] = { "(", ")", "{", "}", "<", ">", ">>", "[", "]", "--", "@", "/*", "\xc3", "0x", "1e", "_" };
    int files = 0;
    long runs = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t nl = strlen(e->d_name);
        if (nl < 6 || strcmp(e->d_name + nl - 5, ".wgsl")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        char *buf = slurp(path, &len);
        CHECKF(buf != NULL, "cannot read %s", path);
        if (!buf) continue;
        files++;
        static const uint8_t opts[] = { 0, 1, 6, 25 }; /* full; check-only; no bounds checks + vk1.3; tight limits */
        for (size_t o = 0; o < sizeof opts; o++) { run(buf, len, opts[o]); runs++; }
        char *m = malloc(len + 64);
        for (int k = 1; k <= 8; k++) { /* prefixes */
            size_t cut = len * (size_t)k / 9;
            memcpy(m + 1, buf + 1, cut);
            run(m, cut, (uint8_t)k);
            runs++;
        }
        for (size_t k = 0; k < 10 && len; k++) { /* byte flips and splices */
            size_t at = (k * 2654435761u) % len;
            memcpy(m + 1, buf + 1, len);
            m[1 + at] ^= (char)(1u << (k % 8));
            run(m, len, (uint8_t)k);
            const char *s = splice[k];
            size_t sl = strlen(s);
            memcpy(m + 1, buf + 1, at);
            memcpy(m + 1 + at, s, sl);
            memcpy(m + 1 + at + sl, buf + 1 + at, len - at);
            run(m, len + sl, (uint8_t)(k * 7));
            runs += 2;
        }
        free(m);
        free(buf);
    }
    closedir(d);
    CHECKF(files >= 100, "only %d seed files", files);
    printf("replayed %d files, %ld runs\n", files, runs);
    return test_end();
}
