/* tensor.c - GPU tensors with wt: build a 2x3 matrix, take a transposed view (no copy), compute
 * exp(t) * 0.5 + 1 lazily (recorded, run in one submit at the read), check against the CPU.
 *
 *   cc tensor.c $(pkg-config --cflags --libs wgc) -lm -o tensor && ./tensor
 *
 * Errors: a failing op returns NULL and sets the context's last error; NULL flows through later
 * ops, so checking once at the read is enough.  Exit 0 and "tensor: ok" on success. */
#include <math.h>
#include <stdio.h>

#include <wgc/tensor.h>

int main(void) {
    wg_error err;
    wg_instance *inst = wg_instance_create(NULL, &err);
    wg_adapter *ad = inst ? wg_instance_request_adapter(inst, NULL, &err) : NULL;
    wg_device *dev = ad ? wg_adapter_create_device(ad, NULL, &err) : NULL;
    if (!dev) {
        fprintf(stderr, "tensor: %s\n", err.message);
        wg_instance_release(inst);
        return 1;
    }
    wt_context *ctx = wt_context_create(dev, NULL);
    int64_t shape[2] = { 2, 3 };
    wt_tensor *x = wt_arange(ctx, WT_F32, 0, 6, 1);          /* [0 1 2 3 4 5] */
    wt_tensor *m = wt_reshape(ctx, x, 2, shape);             /* [[0 1 2] [3 4 5]] */
    wt_tensor *t = wt_transpose(ctx, m, 0, 1);               /* 3x2 view */
    wt_tensor *e = wt_exp(ctx, t);
    wt_tensor *h = wt_mul_scalar(ctx, e, 0.5);
    wt_tensor *y = wt_add_scalar(ctx, h, 1.0);
    float out[6];
    int bad = 0;
    if (wt_to_host(ctx, y, out, sizeof out) != WT_OK) {
        fprintf(stderr, "tensor: %s\n", wt_last_error(ctx));
        bad = 1;
    }
    for (int i = 0; !bad && i < 3; i++)
        for (int j = 0; j < 2; j++) {
            double want = exp((double)(j * 3 + i)) * 0.5 + 1.0;
            if (fabs(out[i * 2 + j] - want) > 1e-4 * want) {
                fprintf(stderr, "tensor: y[%d][%d] = %g, want %g\n", i, j, out[i * 2 + j], want);
                bad = 1;
            }
        }
    if (!bad)
        printf("tensor: ok, shape [%lld, %lld], y[2][1] = %g\n", (long long)wt_shape(y)[0], (long long)wt_shape(y)[1],
               out[5]);
    wt_release(x); wt_release(m); wt_release(t); wt_release(e); wt_release(h); wt_release(y);
    wt_context_destroy(ctx);
    wg_device_release(dev);
    wg_instance_release(inst);
    return bad;
}
