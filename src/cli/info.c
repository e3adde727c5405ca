/* info.c - `wgc info [--adapter SEL] [--json]`: every Vulkan adapter (or the one --adapter names:
 * an index or a name substring) with its info, WebGPU-named limits, subgroup sizes, features and
 * cooperative-matrix shapes; the default adapter ($WGC_ADAPTER, else by type) is marked.  Without
 * a Vulkan loader or driver it says what to install and exits 1; an --adapter that matches none
 * exits 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "wgc/gpu.h"

static void uuid_str(const uint8_t *u, char out[37]) {
    char *p = out;
    for (int i = 0; i < 16; i++) {
        p += sprintf(p, "%02x", u[i]);
        if (i == 3 || i == 5 || i == 7 || i == 9)
            *p++ = '-';
    }
    *p = 0;
}

static void print_human(wg_instance *inst, const wg_adapter *def, bool only_def) {
    size_t n = wg_instance_adapter_count(inst);
    for (size_t i = 0; i < n; i++) {
        const wg_adapter *ad = wg_instance_get_adapter(inst, i);
        if (only_def && ad != def)
            continue;
        const wg_adapter_info *in = wg_adapter_get_info(ad);
        const wg_limits *l = wg_adapter_get_limits(ad);
        char uuid[37];
        uuid_str(in->device_uuid, uuid);
        printf("adapter %zu%s: %s\n", i, ad == def ? " (default)" : "", in->name);
        printf("  type            %s\n", wg_adapter_type_name(in->type));
        printf("  vendor          %s (0x%04x), device 0x%04x\n", in->vendor, in->vendor_id, in->device_id);
        printf("  driver          %s, %s (version 0x%08x)\n", in->driver_name, in->driver_info, in->driver_version);
        printf("  vulkan          %u.%u.%u\n", in->api_version >> 22, (in->api_version >> 12) & 0x3ff,
               in->api_version & 0xfff);
        printf("  device uuid     %s\n", uuid);
        printf("  subgroup size   %u..%u\n", in->subgroup_min_size, in->subgroup_max_size);
        printf("  timestamp tick  %g ns\n", in->timestamp_period_ns);
        printf("  device memory   %.1f GiB\n", (double)in->device_local_bytes / (1 << 30));
        printf("  features       ");
        for (int f = 1; f < WG_FEATURE_COUNT; f++)
            if (in->features & WG_FEATURE_BIT(f))
                printf(" %s", wg_feature_name((wg_feature)f));
        printf("\n  limits\n");
#define X(field, name, kind) printf("    %-42s %llu\n", name, (unsigned long long)l->field);
        WG_LIMITS(X)
#undef X
        if (in->coop_shape_count) {
            printf("  cooperative matrix shapes (MxNxK A B C result)\n");
            for (uint32_t k = 0; k < in->coop_shape_count; k++) {
                const wg_coop_matrix_shape *s = &in->coop_shapes[k];
                printf("    %ux%ux%u %s %s %s %s\n", s->m, s->n, s->k, wg_component_type_name(s->a),
                       wg_component_type_name(s->b), wg_component_type_name(s->c), wg_component_type_name(s->result));
            }
        }
        if (in->flex_shape_count) {
            printf("  flexible cooperative matrix shapes (granularity MxNxK A B C result scope; workgroup matrices up to"
                   " %u invocations, dimension %u, %u bytes of workgroup memory reserved)\n", in->wgm_max_invocations,
                   in->wgm_max_dimension, in->wgm_reserved_shared_memory);
            for (uint32_t k = 0; k < in->flex_shape_count; k++) {
                const wg_coop_flex_shape *s = &in->flex_shapes[k];
                char scope[32];
                if (s->scope == 2) snprintf(scope, sizeof scope, "workgroup of %u", s->invocations);
                else snprintf(scope, sizeof scope, "subgroup");
                printf("    %ux%ux%u %s %s %s %s %s\n", s->m_granularity, s->n_granularity, s->k_granularity,
                       wg_component_type_name(s->a), wg_component_type_name(s->b), wg_component_type_name(s->c),
                       wg_component_type_name(s->result), scope);
            }
        }
    }
}

/* The document is the runtime's wg_instance_adapters_json (src/gpu/instance.c), the same one the
 * Python package reads, so `wgc info --json` and wgc.list_adapters() always agree. */
/* Where the index-th element of the document's "adapters" array starts; its length in *len. */
static const char *json_element(const char *doc, size_t index, size_t *len) {
    const char *p = strstr(doc, "\"adapters\":[");
    if (!p)
        return NULL;
    p += strlen("\"adapters\":[");
    for (size_t k = 0;; k++) {
        const char *start = p;
        int depth = 0;
        bool str = false;
        for (; *p; p++) {
            if (str) {
                if (*p == '\\' && p[1])
                    p++;
                else if (*p == '"')
                    str = false;
            } else if (*p == '"') {
                str = true;
            } else if (*p == '{' || *p == '[') {
                depth++;
            } else if (*p == '}' || *p == ']') {
                if (depth-- == 0)
                    break;
            } else if (*p == ',' && depth == 0) {
                break;
            }
        }
        if (k == index) {
            *len = (size_t)(p - start);
            return start;
        }
        if (*p != ',')
            return NULL;
        p++;
    }
}

static int print_json(wg_instance *inst, const wg_adapter_options *opt, const wg_adapter *only) {
    size_t n = wg_instance_adapters_json(inst, opt, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf)
        return cli_fail("info: out of memory");
    wg_instance_adapters_json(inst, opt, buf, n + 1);
    size_t index = 0, len = 0;
    while (only && index < wg_instance_adapter_count(inst) && wg_instance_get_adapter(inst, index) != only)
        index++;
    const char *one = only ? json_element(buf, index, &len) : NULL;
    if (one)
        printf("{\"adapters\":[%.*s]}\n", (int)len, one);
    else
        puts(buf);
    free(buf);
    return 0;
}

int cli_info(int argc, char **argv) {
    int json = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--adapter") || !strncmp(argv[i], "--adapter=", 10)) {
            only = argv[i][9] == '=' ? argv[i] + 10 : i + 1 < argc ? argv[++i] : NULL;
            if (!only || !*only)
                return cli_fail("info: --adapter needs an index or a name substring");
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: wgc info [--adapter SEL] [--json]\n"
                 "  lists the Vulkan adapters (WGC_ADAPTER=<index|name> picks the default)\n"
                 "  --adapter SEL  only that adapter: an index or a name substring\n"
                 "  --json         one JSON document: {\"adapters\":[{\"index\",\"default\",\"name\",...}]}");
            return 0;
        } else
            return cli_fail("info: unknown option '%s' (try wgc info --help)", argv[i]);
    }
    wg_error err;
    wg_env_strings env;
    wg_instance_desc idesc = { .label = "info" };
    wg_adapter_options opt = { .label = "info", .select = only };
    wg_device_desc unused = { 0 };   /* no device here, but a bad device variable is reported too */
    if (!wg_config_from_env(&env, &idesc, &opt, &unused, &err))
        return cli_fail("info: %s", err.message);
    wg_instance *inst = wg_instance_create(&idesc, &err);
    if (!inst) {
        if (json) {
            printf("{\"error\":");
            cli_json_str(stdout, err.message);
            printf(",\"install\":\"apt-get install libvulkan1 mesa-vulkan-drivers\"}\n");
        }
        /* one line; the runtime's no-loader and no-driver messages already say what to install */
        fprintf(stderr, "wgc: info: %s%s\n", err.message, strstr(err.message, "apt-get install") ? "" :
                " (no usable Vulkan; install a loader and driver: apt-get install libvulkan1 mesa-vulkan-drivers)");
        return 1;
    }
    const wg_adapter *def = wg_instance_request_adapter(inst, &opt, &err);
    if (only && !def) {   /* the adapter asked for is not there: nothing to show */
        if (json) {
            printf("{\"error\":");
            cli_json_str(stdout, err.message);
            printf("}\n");
        }
        cli_fail("info: --adapter %s: %s", only, err.message);
        wg_instance_release(inst);
        return 2;
    }
    if (json && print_json(inst, &opt, only ? def : NULL)) {
        wg_instance_release(inst);
        return 2;
    } else if (!json)
        print_human(inst, def, only != NULL);
    if (!def)
        fprintf(stderr, "wgc: %s\n", err.message);
    wg_instance_release(inst);
    return def ? 0 : 1;
}
