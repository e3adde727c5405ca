/* test_env.c - wg_config_from_env, the one place the runtime reads WGC_* variables.  Each case runs
 * this program again as a child with its own environment (the parent's, less every WGC_* entry,
 * plus the case's), so the test sets no variable in its own process; the child maps the variables
 * and prints the fields, the parent compares the line.  Covered: every variable reaches its field,
 * strings land in the caller's wg_env_strings, fields the program set win, unset and empty
 * variables change nothing, NULL descriptors are skipped, every kind of unusable value is a
 * WG_ERR_ENV_VALUE naming the variable (the first one reported, the rest still mapped), and a
 * device made from the mapped descriptor copies with the engine WGC_COPY names and keeps its
 * pipeline cache in WGC_CACHE_DIR. */
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_test.h"

extern char **environ;
static const char *self = "/proc/self/exe";   /* argv[0] when it is a path (valgrind runs the parent) */

/* ---- child: map the environment, print the fields ----------------------------------------- */
static const char *str(const char *s) {
    return s ? (*s ? s : "\"\"") : "-";
}

static bool inside(const void *p, const void *base, size_t size) {
    return (const char *)p >= (const char *)base && (const char *)p < (const char *)base + size;
}

static int child_fields(const char *mode) {
    wg_env_strings env;
    memset(&env, 0x55, sizeof env);
    wg_instance_desc inst = { 0 };
    wg_adapter_options opt = { 0 };
    wg_device_desc dev = { 0 };
    if (!strcmp(mode, "explicit")) {
        inst = (wg_instance_desc){ .vulkan_library = "mine.so", .validation = -1 };
        opt.select = "mine";
        dev = (wg_device_desc){ .lost_timeout_ms = 7, .cache_dir = "", .copy_engine = WG_COPY_ENGINE_SHADER,
                                .device_memory = WG_DEVICE_MEMORY_UNMAPPED };
    }
    bool dev_only = !strcmp(mode, "dev-only");
    wg_error err;
    bool ok = wg_config_from_env(&env, dev_only ? NULL : &inst, dev_only ? NULL : &opt, &dev, &err);
    /* strings the call filled must point into env, never into the environment */
    bool in = (!inst.vulkan_library || !strcmp(mode, "explicit") || inside(inst.vulkan_library, &env, sizeof env)) &&
              (!opt.select || !strcmp(mode, "explicit") || inside(opt.select, &env, sizeof env)) &&
              (!dev.cache_dir || !strcmp(mode, "explicit") || inside(dev.cache_dir, &env, sizeof env));
    printf("ok=%d lib=%s val=%d sel=%s lost=%u cache=%s copy=%d mem=%d in=%d err=%s", ok, str(inst.vulkan_library),
           inst.validation, str(opt.select), dev.lost_timeout_ms, str(dev.cache_dir), (int)dev.copy_engine,
           (int)dev.device_memory, in, ok ? "-" : wg_error_id_name(err.id));
    if (!ok)
        printf(" %s", err.message);
    putchar('\n');
    return 0;
}

/* A device from the mapped descriptors: which engine a big aligned copy took, where the cache is. */
static int child_device(void) {
    wg_env_strings env;
    wg_instance_desc idesc = { .validation = -1 };
    wg_adapter_options opt = { 0 };
    wg_device_desc ddesc = { 0 };
    wg_error err;
    wg_instance *inst = NULL;
    wg_device *dev = NULL;
    if (wg_config_from_env(&env, &idesc, &opt, &ddesc, &err) && (inst = wg_instance_create(&idesc, &err)) != NULL) {
        wg_adapter *ad = wg_instance_request_adapter(inst, &opt, &err);
        dev = ad ? wg_adapter_create_device(ad, &ddesc, &err) : NULL;
    }
    if (!dev) {
        printf("no device: %s\n", err.message);
        wg_instance_release(inst);
        return 0;
    }
    const uint64_t size = 4u << 20;
    wg_buffer *a = mkbuf(dev, "a", size, 0), *b = mkbuf(dev, "b", size, 0);
    wg_command_encoder *e = wg_device_create_command_encoder(dev, NULL);
    wg_command_encoder_copy_buffer_to_buffer(e, a, 0, b, 0, size);
    wg_command_buffer *cb = wg_command_encoder_finish(e, NULL);
    wg_command_encoder_release(e);
    wg_queue_submit(wg_device_get_queue(dev), 1, &cb);
    wg_queue_wait(wg_device_get_queue(dev), UINT64_MAX);
    wg_device_stats st;
    wg_device_get_stats(dev, &st);
    const char *cache = wg_device_pipeline_cache_path(dev), *slash = strrchr(cache, '/');
    printf("shader=%llu transfer=%llu cache_dir=%.*s\n", (unsigned long long)st.shader_copies,
           (unsigned long long)st.transfer_copies, slash ? (int)(slash - cache) : 0, cache);
    wg_buffer_release(a);
    wg_buffer_release(b);
    wg_device_release(dev);
    wg_instance_release(inst);
    return 0;
}

/* ---- parent: one child per case ----------------------------------------------------------- */
/* Runs this program with `mode` and the parent's environment less WGC_*, plus vars (NULL-ended);
 * returns its first output line. */
static char *run_child(const char *mode, const char *const *vars, char *out, size_t cap) {
    const char *envp[512];
    size_t n = 0;
    for (char **e = environ; *e && n < 400; e++)   /* the cache default's variables only when given */
        if (strncmp(*e, "WGC_", 4) && strncmp(*e, "HOME=", 5) && strncmp(*e, "XDG_CACHE_HOME=", 15))
            envp[n++] = *e;
    for (; vars && *vars && n < 510; vars++)
        envp[n++] = *vars;
    envp[n] = NULL;
    int fd[2];
    out[0] = 0;
    if (pipe(fd) != 0)
        return out;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    char a0[] = "test_env", a1[] = "--child", a2[32];
    snprintf(a2, sizeof a2, "%s", mode);
    char *argv[] = { a0, a1, a2, NULL };
    pid_t pid;
    int rc = posix_spawn(&pid, self, &fa, NULL, argv, (char **)envp);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    size_t len = 0;
    ssize_t r;
    while (rc == 0 && len + 1 < cap && (r = read(fd[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)r;
    out[len] = 0;
    close(fd[0]);
    int status = 0;
    if (rc == 0)
        waitpid(pid, &status, 0);
    CHECKF(rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %s: spawn %d, status %d", mode, rc, status);
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = 0;
    return out;
}

static void expect(const char *mode, const char *const *vars, const char *want) {
    char got[4096];
    run_child(mode, vars, got, sizeof got);
    CHECKF(!strncmp(got, want, strlen(want)), "%s %s%s...:\n  got  %s\n  want %s", mode, vars && vars[0] ? vars[0] : "",
           vars && vars[0] && vars[1] ? " ..." : "", got, want);
}

#define VARS(...) ((const char *const[]){ __VA_ARGS__, NULL })

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "--child"))
        return !strcmp(argv[2], "device") ? child_device() : child_fields(argv[2]);
    if (strchr(argv[0], '/'))
        self = argv[0];

    /* nothing set: nothing filled */
    expect("fields", NULL, "ok=1 lib=- val=0 sel=- lost=0 cache=- copy=0 mem=0 in=1 err=-");
    expect("fields", VARS("WGC_COPY=", "WGC_ADAPTER=", "WGC_LOST_TIMEOUT_MS="),
           "ok=1 lib=- val=0 sel=- lost=0 cache=- copy=0 mem=0 in=1 err=-");
    /* every variable to its field, strings copied into wg_env_strings */
    const char *const *all = VARS("WGC_VULKAN_LIB=libvulkan.so.1", "WGC_VALIDATION=1", "WGC_ADAPTER=llvm",
                                  "WGC_LOST_TIMEOUT_MS=600000", "WGC_CACHE_DIR=/tmp/wgc-env", "WGC_COPY=transfer",
                                  "WGC_DEBUG_UNMAPPED=1");
    expect("fields", all,
           "ok=1 lib=libvulkan.so.1 val=1 sel=llvm lost=600000 cache=/tmp/wgc-env copy=2 mem=1 in=1 err=-");
    expect("fields", VARS("WGC_VALIDATION=0", "WGC_COPY=shader", "WGC_DEBUG_UNMAPPED=0", "WGC_LOST_TIMEOUT_MS=0"),
           "ok=1 lib=- val=-1 sel=- lost=0 cache=- copy=1 mem=0 in=1 err=-");
    expect("fields", VARS("WGC_LOST_TIMEOUT_MS=4294967295"), "ok=1 lib=- val=0 sel=- lost=4294967295 ");
    /* no cache directory given: the per-user one */
    expect("fields", VARS("XDG_CACHE_HOME=/tmp/xdg", "HOME=/home/u"),
           "ok=1 lib=- val=0 sel=- lost=0 cache=/tmp/xdg/wgc copy=0 mem=0 in=1 err=-");
    expect("fields", VARS("HOME=/home/u"), "ok=1 lib=- val=0 sel=- lost=0 cache=/home/u/.cache/wgc copy=0 ");
    expect("fields", VARS("HOME=/home/u", "WGC_CACHE_DIR=/tmp/c"), "ok=1 lib=- val=0 sel=- lost=0 cache=/tmp/c ");
    /* what the program set wins */
    expect("explicit", all, "ok=1 lib=mine.so val=-1 sel=mine lost=7 cache=\"\" copy=1 mem=1 in=1 err=-");
    /* NULL descriptors are not wanted */
    expect("dev-only", all, "ok=1 lib=- val=0 sel=- lost=600000 cache=/tmp/wgc-env copy=2 mem=1 in=1 err=-");

    /* unusable values: an error naming the variable; the others are still mapped */
    expect("fields", VARS("WGC_COPY=fast", "WGC_ADAPTER=3"),
           "ok=0 lib=- val=0 sel=3 lost=0 cache=- copy=0 mem=0 in=1 err=WG_ERR_ENV_VALUE "
           "a WGC_* environment variable has a value wg cannot use: WGC_COPY='fast': want shader or transfer");
    static const char *const bad[][2] = {
        { "WGC_LOST_TIMEOUT_MS=10s", "WGC_LOST_TIMEOUT_MS='10s': want a decimal number below 2^32" },
        { "WGC_LOST_TIMEOUT_MS=-1", "WGC_LOST_TIMEOUT_MS='-1'" },
        { "WGC_LOST_TIMEOUT_MS=4294967296", "WGC_LOST_TIMEOUT_MS='4294967296'" },
        { "WGC_LOST_TIMEOUT_MS= 5", "WGC_LOST_TIMEOUT_MS=' 5'" },
        { "WGC_VALIDATION=yes", "WGC_VALIDATION='yes': want 1 or 0" },
        { "WGC_DEBUG_UNMAPPED=2", "WGC_DEBUG_UNMAPPED='2': want 1 or 0" },
        { "WGC_COPY=Shader", "WGC_COPY='Shader'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char got[4096];
        run_child("fields", VARS(bad[i][0]), got, sizeof got);
        CHECKF(strstr(got, "ok=0 ") && strstr(got, "err=WG_ERR_ENV_VALUE ") && strstr(got, bad[i][1]),
               "%s: %s", bad[i][0], got);
    }
    /* two bad values: the first in table order is reported */
    expect("fields", VARS("WGC_COPY=fast", "WGC_VALIDATION=on"), "ok=0 lib=- val=0 ");
    char got[4096];
    run_child("fields", VARS("WGC_COPY=fast", "WGC_VALIDATION=on"), got, sizeof got);
    CHECKF(strstr(got, "WGC_VALIDATION='on'") && !strstr(got, "WGC_COPY"), "%s", got);
    /* a string longer than its buffer */
    static char longdir[sizeof "WGC_CACHE_DIR=" + 1100];
    memset(longdir, 'd', sizeof longdir - 1);
    memcpy(longdir, "WGC_CACHE_DIR=/", 15);
    run_child("fields", VARS(longdir), got, sizeof got);
    CHECKF(strstr(got, "ok=0 ") && strstr(got, "cache=- ") && strstr(got, "longer than 1023 bytes"), "%s", got);
    /* strings NULL with a descriptor: a NULL_OBJECT error before any variable is read */
    wg_device_desc d = { 0 };
    wg_error err;
    CHECK(!wg_config_from_env(NULL, NULL, NULL, &d, &err) && err.id == WG_ERR_NULL_OBJECT);
    CHECK(wg_config_from_env(NULL, NULL, NULL, NULL, &err) && err.id == WG_ERR_NONE);

    /* a device made from the mapped descriptors: 4 MiB aligned copy by the engine WGC_COPY names */
    char dir[] = "/tmp/wgc-test-env-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cachevar[64];
    snprintf(cachevar, sizeof cachevar, "WGC_CACHE_DIR=%s", dir);
    char want[128];
    snprintf(want, sizeof want, "shader=0 transfer=1 cache_dir=%s", dir);
    expect("device", VARS("WGC_COPY=transfer", cachevar), want);
    snprintf(want, sizeof want, "shader=1 transfer=0 cache_dir=%s", dir);
    expect("device", VARS("WGC_COPY=shader", cachevar), want);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return test_end();
}
