/* bench.c - `wgc bench runtime|compile|ops|nn|llm|train|generate [options]`: parses the shared options and hands over to
 * the benchmark drivers in bench/ (bench/runtime.c, compile.c, ops.c,
 * nn.c, nn_conv.c, nn_llm.c; see doc/bench.md).
 * Every figure is printed beside the baseline measured in the same run, the ratio and the
 * issue's target; --json prints one JSON document instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli/cli.h"

static void bench_usage(FILE *f) {
    fputs("usage: wgc bench runtime|compile|ops|nn|llm|train|generate [options]\n"
          "  runtime   wg runtime: tiny dependent dispatches, submit+wait, upload/readback,\n"
          "            shader copy and vec4 add bandwidth, pipeline creation cold/warm;\n"
          "            baselines: PyTorch/CUDA (bench/baseline_runtime.py) and Dawn ($WGC_DAWN)\n"
          "  compile   wgsl compiler: every .wgsl under tests/ src/ bench/, a typical 300-line\n"
          "            kernel and a generated 5000+-line shader; baseline: Tint (bench/tint_time.mjs)\n"
          "  ops       wt tensor ops: add/mul, 5 unary ops, sums, transpose, cat, 1000 dependent\n"
          "            tiny ops; baseline: PyTorch/CUDA (bench/baseline_ops.py)\n"
          "  nn        matmul family: sgemm 1024^3/4096^3/8192^3/ragged, bmm, f16, matvec 4096^2;\n"
          "            baseline: PyTorch/CUDA, TF32 off (bench/baseline_nn.py)\n"
          "  llm       softmax, layernorm, rmsnorm 8192^2, flash attention f32/f16 B1 H32 S4096\n"
          "            D128 causal; baseline: PyTorch/CUDA (bench/baseline_llm.py)\n"
          "  train     training steps (digits CNN with SGD, GPT-2 small with AdamW), peak memory,\n"
          "            --agree DIR; its own options: wgc bench train --help (bench/train.c)\n"
          "  generate  LLM decode and prefill tok/s, peak memory (SmolLM2-135M Q4_1, Llama-3.2-1B and\n"
          "            Llama-3-8B shapes Q4_K_M); baselines: llama-bench, transformers eager; its own\n"
          "            options: wgc bench generate --help (bench/generate.c)\n"
          "options:\n"
          "  --json              one JSON document on stdout\n"
          "  --size S            small | medium | full (default: full on a GPU, medium on a CPU adapter)\n"
          "  --runs N            repetitions per measurement (default: per benchmark)\n"
          "  --baseline LIST     auto (default) | none | torch,dawn,tint\n"
          "  --root DIR          repository root holding bench/ and tests/ (default .)\n"
          "  --svg FILE          also draw the ratios against the baselines as an SVG bar chart\n"
          "  --kernels           ops/nn/llm: list the wt kernels compiled on stderr, with the driver's\n"
          "                      figures (registers, spills, ...) where the adapter reports them\n"
          "  --profile           train: GPU time per kernel of three more steps (wt_context_set_profiling)\n"
          "  -v                  progress on stderr (default when stderr is a terminal;\n"
          "                      WGC_NO_PROGRESS=1 turns that off)\n"
          "env: WGC_DAWN=DIR (dawn-bench.mjs, webgpu/, optional node), WGC_DAWN_ARGS (Dawn toggles),\n"
          "     WGC_PYTHON (default python3), WEBGPU_PKG (the npm webgpu package for Tint)\n",
          f);
}

int cli_bench(int argc, char **argv) {
    bench_options opt = bench_options_default();
    const char *what = NULL;
    if (argc > 1 && !strcmp(argv[1], "train"))   /* options of its own beside the shared ones */
        return bench_train_cli(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "generate"))
        return bench_generate_cli(argc - 1, argv + 1);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int shared;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            bench_usage(stdout);
            return 0;
        } else if ((shared = bench_shared_option(&opt, argc, argv, &i)) != 0) {
            if (shared < 0)
                return 2;
        } else if (a[0] == '-') {
            return cli_fail("bench: unknown option '%s' (try wgc bench --help)", a);
        } else if (!what) {
            what = a;
        } else {
            return cli_fail("bench: one benchmark at a time ('%s' and '%s')", what, a);
        }
    }
    if (!what) {
        bench_usage(stderr);
        return 2;
    }
    if (!strcmp(what, "runtime")) return bench_runtime(&opt);
    if (!strcmp(what, "compile")) return bench_compile(&opt);
    if (!strcmp(what, "ops")) return bench_ops(&opt);
    if (!strcmp(what, "nn")) return bench_nn(&opt);
    if (!strcmp(what, "llm")) return bench_llm(&opt);
    return cli_fail("bench: unknown benchmark '%s' (runtime, compile, ops, nn, llm, train or generate)", what);
}
