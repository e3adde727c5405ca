/* fuzz_wgsl.c - libFuzzer target over the whole compiler: wgsl_compile() (parse, check, emit,
 * reflection) on arbitrary bytes, then both renderings of the diagnostics.  The first input byte
 * picks options (check-only, no bounds checks, Vulkan 1.3 target, a tight nesting limit) so
 * those paths are fuzzed too; the rest is the source.
 *
 *   make fuzz                  builds build/fuzz/fuzz_wgsl (clang -fsanitize=fuzzer,address,undefined)
 *                              and runs it for FUZZ_TIME seconds over tests/wgsl/golden as seeds
 * tests/wgsl/test_fuzz_replay.c includes this file to replay the seed corpus in `make check`. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wgc/wgsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wgsl_options opt;
    memset(&opt, 0, sizeof opt);
    if (size > 0) {
        uint8_t o = data[0];
        opt.check_only = (o & 1) != 0;
        opt.no_bounds_checks = (o & 2) != 0;
        opt.target_env = (o & 4) ? WGSL_TARGET_VULKAN_1_3 : WGSL_TARGET_DEFAULT;
        opt.max_nesting = (o & 8) ? 16 : 0;
        opt.max_errors = (o & 16) ? 1 : 0;
        data++;
        size--;
    }
    wgsl_result *r = wgsl_compile((const char *)data, size, &opt);
    if (r) {
        const char *t = wgsl_result_text(r);
        const char *j = wgsl_result_json(r);
        /* every diagnostic has a message and a span inside the source */
        for (uint32_t i = 0; i < r->diagnostic_count; i++) {
            const wgsl_diagnostic *d = &r->diagnostics[i];
            if (!d->message || d->offset > size || d->length > size - d->offset) __builtin_trap();
        }
        if (!t || !j || (r->ok && r->error_count)) __builtin_trap();
    }
    wgsl_result_free(r);
    return 0;
}
