/* test_pcache.c - pipeline caching: in memory (the same pipeline twice is one VkPipeline) and on
 * disk across processes: this test runs itself twice as a child with one fresh cache directory;
 * the first child starts cold and writes the VkPipelineCache file when its device goes away, the
 * second loads it.  An unwritable cache directory is not an error. */
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu_test.h"
#include "gpu_add.spv.h"
#include "test_inc.spv.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int child(const char *dir, int phase) {
    gpu_fixture f;
    fixture_init(&f, &(wg_device_desc){ .cache_dir = dir });
    wg_device_stats s;
    wg_device_get_stats(f.dev, &s);
    if (phase == 1)
        CHECK_EQ_INT(s.pipeline_cache_loaded_bytes, 0);
    else
        CHECKF(s.pipeline_cache_loaded_bytes > 0, "phase 2 loaded %llu bytes", (unsigned long long)s.pipeline_cache_loaded_bytes);
    double t0 = now();
    wg_compute_pipeline *p1, *p2, *p3;
    EXPECT_NO_ERROR(f.dev, {
        p1 = mkpipe(f.dev, "add", gpu_add_spv, gpu_add_spv_words);
        p2 = mkpipe(f.dev, "inc", test_inc_spv, test_inc_spv_words);
    });
    double t1 = now();
    EXPECT_NO_ERROR(f.dev, p3 = mkpipe(f.dev, "add again", gpu_add_spv, gpu_add_spv_words));
    double t2 = now();
    CHECK(wg_compute_pipeline_is_valid(p1) && wg_compute_pipeline_is_valid(p2) && wg_compute_pipeline_is_valid(p3));
    wg_device_get_stats(f.dev, &s);
    CHECK_EQ_INT(s.pipeline_memory_hits, 1);
    CHECK_EQ_INT(s.pipelines_created, 2);    /* the in-memory hit created none */
    printf("phase %d: 2 pipelines in %.2f ms, in-memory hit in %.1f us; disk cache %llu bytes loaded, %llu "
           "creation-feedback hits; %s\n", phase, (t1 - t0) * 1e3, (t2 - t1) * 1e6,
           (unsigned long long)s.pipeline_cache_loaded_bytes, (unsigned long long)s.pipeline_disk_cache_hits,
           wg_device_pipeline_cache_path(f.dev));
    CHECK(strncmp(wg_device_pipeline_cache_path(f.dev), dir, strlen(dir)) == 0);
    wg_compute_pipeline_release(p1);
    wg_compute_pipeline_release(p2);
    wg_compute_pipeline_release(p3);
    fixture_end(&f);
    return test_end();
}

static const char *self;
static int run_child(const char *dir, const char *phase) {
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, "test_pcache", "child", dir, phase, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "child"))
        return child(argv[2], atoi(argv[3]));
    /* argv[0], not /proc/self/exe: under valgrind that is valgrind's own binary */
    self = strchr(argv[0], '/') ? argv[0] : "/proc/self/exe";
    char dir[] = "/tmp/wgc-pcache-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[64];
    snprintf(sub, sizeof sub, "%s/nested/dir", dir); /* created on demand */
    CHECK_EQ_INT(run_child(sub, "1"), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ls %s/pipelines-*.bin >/dev/null 2>&1", sub);
    CHECKF(system(cmd) == 0, "no cache file in %s", sub);
    CHECK_EQ_INT(run_child(sub, "2"), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);

    /* unwritable directory: works, no error */
    gpu_fixture f;
    fixture_init(&f, &(wg_device_desc){ .cache_dir = "/proc/wgc-cannot-write-here" });
    EXPECT_NO_ERROR(f.dev, {
        wg_compute_pipeline *p = mkpipe(f.dev, "add", gpu_add_spv, gpu_add_spv_words);
        CHECK(wg_compute_pipeline_is_valid(p));
        wg_compute_pipeline_release(p);
    });
    fixture_end(&f);
    return test_end();
}
