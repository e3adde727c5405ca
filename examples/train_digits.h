/* train_digits.h - the digits training of examples/train_digits.c as a function, so `wgc demo
 * train` runs the same code as the example (the CLI compiles train_digits.c with
 * TRAIN_DIGITS_NO_MAIN). */
#ifndef TRAIN_DIGITS_H
#define TRAIN_DIGITS_H
#include <stdbool.h>
#include <stddef.h>

#include <wgc/tensor.h>

typedef enum train_digits_model {
    TRAIN_DIGITS_MLP = 0,     /* 64 -> 256 -> ReLU -> dropout 0.2 -> 10 */
    TRAIN_DIGITS_CNN,         /* conv 1->16 3x3 pad 1, ReLU, max pool 2; conv 16->32, ReLU, pool; dropout 0.2; linear 128->10 */
    TRAIN_DIGITS_MODEL_COUNT
} train_digits_model;

typedef struct train_digits_opts {
    train_digits_model model;
    int epochs;               /* 0: 30 */
    const char *checkpoint;   /* NULL: none written */
    const char *data;         /* NULL: python3-sklearn's digits.csv.gz */
    uint64_t seed;            /* wt's generator and the batch order */
    bool amp;                 /* mixed precision: forward under autocast (f16), a GradScaler */
} train_digits_opts;

typedef struct train_digits_epoch {
    int epoch, epochs;        /* 1-based */
    int step, steps;          /* within the epoch (progress callbacks) */
    double loss;              /* mean training loss of the epoch */
    double train_acc, test_acc;
    double seconds;           /* since training began */
} train_digits_epoch;

typedef struct train_digits_result {
    double test_acc;          /* after the last epoch */
    double reloaded_acc;      /* of a fresh model loaded from the checkpoint (-1: none written) */
    double seconds;
    int64_t train_count, test_count;
} train_digits_result;

/* Trains on ctx's device; on_epoch (may be NULL) is called after each epoch (step == steps) and,
 * when on_step is true, after each step too.  0 on success, else 1 with a message in err. */
int train_digits(wt_context *ctx, const train_digits_opts *o,
                 void (*on_epoch)(const train_digits_epoch *e, void *user), bool on_step, void *user,
                 train_digits_result *res, char *err, size_t err_size);
#endif
