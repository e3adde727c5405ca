/* test_fuzz_replay.c - the model-file fuzz target's seed corpus replayed in `make check` (no
 * libFuzzer): every seed in tests/llm/corpus (tests/llm/make_corpus.py writes them) must open,
 * then each file goes through LLVMFuzzerTestOneInput as is, cut at every byte, with bytes flipped
 * and set to 0x00/0xff at a spread of positions, read as the other format, and with its Nth
 * allocation failing.  All deterministic.  A crash, sanitizer report (make asan) or trap fails it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "llm/fuzz_llm.c"

static long runs;

static void run(const unsigned char *d, size_t n) {
    /* an exact-size copy, so a read past the end is a heap overflow under ASan */
    unsigned char *c = malloc(n ? n : 1);
    if (!c) return;
    memcpy(c, d, n);
    LLVMFuzzerTestOneInput(c, n);
    free(c);
    runs++;
}

int main(void) {
    const char *dir = "tests/llm/corpus";
    DIR *d = opendir(dir);
    CHECKF(d != NULL, "cannot open %s (run from the repository root)", dir);
    if (!d) return test_end();
    int files = 0, ggufs = 0, sts = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        unsigned char *buf = (unsigned char *)test_read_file(path, &len);
        CHECKF(buf != NULL && len >= 1, "cannot read %s", path);
        if (!buf || !len) { free(buf); continue; }
        files++;
        /* a seed from make_corpus.py opens; a crash input kept from fuzzing (crash-*) need not */
        if (!strncmp(e->d_name, "gguf-", 5) || !strncmp(e->d_name, "st-", 3)) {
            wl_error err;
            wl_model *m = (buf[0] & 1) ? wl_safetensors_open_memory(buf + 1, len - 1, NULL, &err)
                                       : wl_gguf_open_memory(buf + 1, len - 1, NULL, &err);
            CHECKF(m != NULL, "seed %s does not open: %s", e->d_name, err.message);
            wl_model_close(m);
            if (buf[0] & 1) sts++;
            else ggufs++;
        }
        run(buf, len);
        unsigned char *m = malloc(len);
        if (!m) { free(buf); continue; }
        for (size_t cut = 1; cut < len; cut++) run(buf, cut);           /* every truncation */
        for (size_t k = 0; k < 64 && len > 1; k++) {                    /* flips, zeros, 0xff */
            size_t at = 1 + (k * 2654435761u) % (len - 1);
            memcpy(m, buf, len);
            m[at] ^= (unsigned char)(1u << (k % 8));
            run(m, len);
            m[at] = (k & 1) ? 0xff : 0x00;
            run(m, len);
        }
        memcpy(m, buf, len);
        m[0] ^= 1;                                                      /* the other format */
        run(m, len);
        for (unsigned fail = 1; fail < 64; fail++) {                    /* allocation N fails */
            m[0] = (unsigned char)((buf[0] & 1) | fail << 2);
            run(m, len);
        }
        free(m);
        free(buf);
    }
    closedir(d);
    CHECKF(ggufs >= 3 && sts >= 3, "%d GGUF and %d safetensors seeds (want 3 of each)", ggufs, sts);
    printf("replayed %d files, %ld runs\n", files, runs);
    return test_end();
}
