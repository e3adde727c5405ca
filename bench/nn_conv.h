/* nn_conv.h - the conv2d rows of `wgc bench nn` (bench/nn_conv.c), called from bench/nn.c. */
#ifndef WGC_BENCH_NN_CONV_H
#define WGC_BENCH_NN_CONV_H
#include "bench.h"
#include "wgc/tensor.h"

/* Adds and measures the conv2d row (and with `variants` a row per forced kernel); counts wrong
 * results and wt errors into *wrong and *errors. */
void nn_conv_rows(bench_report *rep, wt_context *ctx, bool timed, bench_size size, int runs, bool variants,
                  int *wrong, int *errors);
/* The baseline script's argument for the same problem: "N,C,K,H,W" (static storage). */
const char *nn_conv_shape(bench_size size);
/* After the baselines: the row's target, 60% of baseline bi's figure (issue 5). */
void nn_conv_target(bench_report *rep, int bi);
#endif
