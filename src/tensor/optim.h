/* optim.h - what the training files of the wt layer share (optim.c, init.c, checkpoint.c):
 * the optimizer's per-parameter records, so checkpoint.c can save and restore state and step
 * counts, and the in-place dispatches of optim1.wgsl. */
#ifndef WT_OPTIM_H
#define WT_OPTIM_H

#include "tensor/internal.h"

/* One parameter of an optimizer: its state [rows, numel] (NULL before its first step) and its own
 * step count (torch's state['step']). */
typedef struct wt__opt_param {
    wt_tensor *p;
    wt_tensor *state;
    int group;
    int64_t step;
} wt__opt_param;

struct wt_optimizer {
    wt_context *ctx;
    wt_optimizer_kind kind;
    char label[64];
    int ngroups, nparams;
    wt_optim_hparams *h;          /* per group, defaults filled in */
    wt__opt_param *ps;            /* in group order */
    int64_t steps;                /* completed wt_optimizer_step calls */
};

/* The state rows of parameter i (0: none) and their names, row r: wt__optim_state_name(opt, r). */
int wt__optim_state_rows(const wt_optimizer *opt, int i);
const char *wt__optim_state_name(const wt_optimizer *opt, int r);
const char *wt__optim_kind_name(wt_optimizer_kind k);   /* "sgd", "adam", "adamw" */

/* wt_optimizer_step_grads whose every update is a no-op on the GPU when fi (a one-element f32
 * view: the GradScaler's inf/NaN flag, amp.c) is nonzero; errors name op. */
wt_status wt__optimizer_step_unless(wt_optimizer *opt, const char *op, const wt_tensor *fi);

/* optim1.wgsl's in-place ops (OP codes) into dst, a contiguous tensor, from src (contiguous). */
enum { WT__INPLACE_SGD = 0, WT__INPLACE_SCALE = 1, WT__INPLACE_COPY = 2 };

#endif
