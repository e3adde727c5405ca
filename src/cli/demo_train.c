/* demo_train.c - `wgc demo train`: trains a network on scikit-learn's digits with the same code as
 * examples/train_digits.c (compiled into the CLI without its main, mk/examples.mk), printing a
 * line per epoch (loss, accuracy on the training and held-out images, time), a progress bar
 * within the epoch on a terminal (WGC_NO_PROGRESS=1 turns it off), and with --json one document
 * at the end.  Exit 0 when the held-out accuracy reaches 97% and the checkpoint (when written)
 * reloads to the same accuracy, 1 otherwise, 2 on bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "train_digits.h"
#include "wgc/gpu.h"
#include "wgc/tensor.h"

typedef struct show {
    bool json, bar;
    train_digits_epoch *hist;    /* --json: every epoch's figures */
    int nhist;
} show;

static void on_epoch(const train_digits_epoch *e, void *user) {
    show *s = user;
    if (e->step < e->steps) {   /* within an epoch: the progress bar */
        if (s->bar) {
            int w = 30, f = e->step * w / e->steps;
            fprintf(stderr, "\repoch %d/%d [%.*s%*s] %d/%d", e->epoch, e->epochs, f,
                    "##############################", w - f, "", e->step, e->steps);
            fflush(stderr);
        }
        return;
    }
    if (s->bar)
        fprintf(stderr, "\r%60s\r", "");
    if (s->json) {
        if (s->nhist < e->epochs)
            s->hist[s->nhist++] = *e;
        return;
    }
    printf("epoch %2d/%d  loss %.4f  train %.2f%%  test %.2f%%  %.2f s\n", e->epoch, e->epochs, e->loss,
           100 * e->train_acc, 100 * e->test_acc, e->seconds);
    fflush(stdout);
}

static int usage(void) {
    puts("usage: wgc demo train [--model mlp|cnn] [--epochs N] [--seed N] [--data FILE] [--checkpoint FILE] [--amp]\n"
         "                      [--json]\n"
         "  trains on scikit-learn's digits (1,797 8x8 images; python3-sklearn's digits.csv.gz unless --data\n"
         "  names one; 299 held out) on the default GPU ($WGC_ADAPTER picks another) with autograd and\n"
         "  AdamW, the code of examples/train_digits.c: mlp 64-256-10 (default) or cnn (two conv-relu-pool\n"
         "  blocks, then linear), 30 epochs by default; a line per epoch; with --checkpoint the model and\n"
         "  optimizer go to a safetensors file that is reloaded and scored again; --amp trains in mixed\n"
         "  precision (autocast to f16 and a GradScaler, as torch.autocast).  Exit 0 when the\n"
         "  held-out accuracy is at least 97%");
    return 0;
}

int cli_demo_train(int argc, char **argv) {
    train_digits_opts o = { 0 };
    show s = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage();
        if (!strcmp(a, "--json")) {
            s.json = true;
            continue;
        }
        if (!strcmp(a, "--amp")) {
            o.amp = true;
            continue;
        }
        if (!v)
            return cli_fail("demo train: %s needs a value (try wgc demo train --help)", a);
        i++;
        if (!strcmp(a, "--model")) {
            if (!strcmp(v, "mlp"))
                o.model = TRAIN_DIGITS_MLP;
            else if (!strcmp(v, "cnn"))
                o.model = TRAIN_DIGITS_CNN;
            else
                return cli_fail("demo train: --model '%s': want mlp or cnn", v);
        } else if (!strcmp(a, "--epochs")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 10000)
                return cli_fail("demo train: --epochs '%s': want a number in [1, 10000]", v);
            o.epochs = (int)n;
        } else if (!strcmp(a, "--seed")) {
            unsigned long long n = strtoull(v, &end, 10);
            if (*end || *v == '-')
                return cli_fail("demo train: --seed '%s': want a non-negative number", v);
            o.seed = n;
        } else if (!strcmp(a, "--data")) {
            o.data = v;
        } else if (!strcmp(a, "--checkpoint")) {
            o.checkpoint = v;
        } else {
            return cli_fail("demo train: unknown option '%s' (try wgc demo train --help)", a);
        }
    }
    s.bar = !s.json && isatty(STDERR_FILENO) && !getenv("WGC_NO_PROGRESS");
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = "demo train" };
    wg_adapter_options opt = { .label = "demo train" };
    wg_device_desc ddesc = { .label = "demo train" };
    if (!wg_config_from_env(&env, &idesc, &opt, &ddesc, &err))
        return cli_fail("demo train: %s", err.message);
    wg_instance *inst = wg_instance_create(&idesc, &err);
    wg_adapter *ad = inst ? wg_instance_request_adapter(inst, &opt, &err) : NULL;
    static const wg_feature amp_features[] = { WG_FEATURE_SHADER_F16, WG_FEATURE_COOPERATIVE_MATRIX,
                                               WG_FEATURE_WORKGROUP_MATRIX };
    for (size_t i = 0; o.amp && ad && i < sizeof amp_features / sizeof *amp_features; i++)   /* f16, tensor cores */
        if (wg_adapter_has_feature(ad, amp_features[i]))
            ddesc.required_features |= WG_FEATURE_BIT(amp_features[i]);
    wg_device *dev = ad ? wg_adapter_create_device(ad, &ddesc, &err) : NULL;
    if (!dev) {
        wg_instance_release(inst);
        return cli_fail("demo train: %s", err.message);
    }
    wt_context *ctx = wt_context_create(dev, &(wt_context_desc){ .label = "demo train" });
    int epochs = o.epochs ? o.epochs : 30;
    s.hist = calloc((size_t)epochs, sizeof *s.hist);
    if (!ctx || !s.hist) {
        free(s.hist);
        wt_context_destroy(ctx);
        wg_device_release(dev);
        wg_instance_release(inst);
        return cli_fail("demo train: out of host memory");
    }
    const wg_adapter_info *info = wg_adapter_get_info(ad);
    const char *model = o.model == TRAIN_DIGITS_CNN ? "cnn" : "mlp";
    if (!s.json)
        printf("adapter: %s; digits %s, %d epochs%s\n", info->name, model, epochs, o.amp ? ", mixed precision" : "");
    train_digits_result res;
    char msg[600];
    int rc = train_digits(ctx, &o, on_epoch, s.bar, &s, &res, msg, sizeof msg);
    bool ok = rc == 0 && res.test_acc >= 0.97 && (!o.checkpoint || res.reloaded_acc == res.test_acc);
    if (rc) {
        rc = cli_fail("demo train: %s", msg);
        if (s.json) {
            printf("{\"ok\":false,\"error\":\"WGC_ERROR\",\"message\":");
            cli_json_str(stdout, msg);
            printf("}\n");
        }
    } else if (s.json) {
        printf("{\"ok\":%s,\"adapter\":", ok ? "true" : "false");
        cli_json_str(stdout, info->name);
        printf(",\"model\":\"%s\",\"amp\":%s,\"trainImages\":%lld,\"testImages\":%lld,\"epochs\":[", model,
               o.amp ? "true" : "false", (long long)res.train_count, (long long)res.test_count);
        for (int i = 0; i < s.nhist; i++)
            printf("%s{\"epoch\":%d,\"loss\":%.6g,\"trainAccuracy\":%.6g,\"testAccuracy\":%.6g,\"seconds\":%.3f}",
                   i ? "," : "", s.hist[i].epoch, s.hist[i].loss, s.hist[i].train_acc, s.hist[i].test_acc,
                   s.hist[i].seconds);
        printf("],\"testAccuracy\":%.6g,\"reloadedAccuracy\":%.6g,\"seconds\":%.3f}\n", res.test_acc,
               res.reloaded_acc, res.seconds);
        rc = ok ? 0 : 1;
    } else {
        if (o.checkpoint)
            printf("checkpoint %s: reloaded model's test accuracy %.2f%%\n", o.checkpoint, 100 * res.reloaded_acc);
        printf("demo train: %s (%s%s, test accuracy %.2f%%, %.1f s)\n", ok ? "ok" : "below 97%", model,
               o.amp ? ", amp" : "", 100 * res.test_acc, res.seconds);
        rc = ok ? 0 : 1;
    }
    free(s.hist);
    wt_context_destroy(ctx);
    wg_device_release(dev);
    wg_instance_release(inst);
    return rc;
}
