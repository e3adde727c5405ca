/* pipeline.c - bind group layouts, pipeline layouts and compute pipelines, with three caches:
 * descriptor set layouts by their canonical entry list, pipeline layouts by their set layouts,
 * and pipelines by (SPIR-V hash, entry point, pipeline layout).  Cached Vulkan objects live as
 * long as the device, so equal layouts are the same VkDescriptorSetLayout (layout compatibility
 * is a pointer compare) and a warm pipeline creation is a lookup.
 *
 * Across runs, a VkPipelineCache is loaded from and saved to
 * <dir>/pipelines-<device uuid>-<driver version>.bin, dir = desc.cache_dir (NULL or "": no disk
 * cache; programs get the per-user directory from wg_config_from_env).  Any failure there
 * (unwritable directory, corrupt file) just means no disk cache.
 *
 * The driver compiles a pipeline on a worker thread, waited for up to the device's lost timeout:
 * some kernels (a large private array on lavapipe) keep a compiler busy for minutes, and a call
 * that never returns cannot be reported.  Past the timeout the device is lost and the thread is
 * left to finish on its own (create_pipeline_bounded). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/internal.h"

/* ---- on-disk VkPipelineCache ------------------------------------------------------------- */
void wg__pipeline_cache_open(wg_device *dev, const char *dir) {
    dev->cache_path[0] = 0;
    if (dir && *dir) {
        const wg_adapter_info *ai = &dev->adapter->info;
        char uuid[33];
        for (int i = 0; i < 16; i++)
            snprintf(uuid + 2 * i, 3, "%02x", ai->device_uuid[i]);
        snprintf(dev->cache_path, sizeof dev->cache_path, "%s/pipelines-%s-%08x.bin", dir, uuid, ai->driver_version);
    }
    void *data = NULL;
    size_t size = 0;
    FILE *f = dev->cache_path[0] ? fopen(dev->cache_path, "rb") : NULL;
    if (f) {
        if (fseek(f, 0, SEEK_END) == 0) {
            long len = ftell(f);
            if (len > 0 && len < (256l << 20) && fseek(f, 0, SEEK_SET) == 0 && (data = wg__alloc(&dev->alloc, (size_t)len))) {
                if (fread(data, 1, (size_t)len, f) == (size_t)len)
                    size = (size_t)len;
            }
        }
        fclose(f);
    }
    VkPipelineCacheCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                     .initialDataSize = size, .pInitialData = size ? data : NULL };
    VkResult r = dev->vk.vkCreatePipelineCache(dev->device, &ci, NULL, &dev->vk_cache);
    if (r != VK_SUCCESS && size) {
        ci.initialDataSize = 0;
        ci.pInitialData = NULL;
        size = 0;
        r = dev->vk.vkCreatePipelineCache(dev->device, &ci, NULL, &dev->vk_cache);
    }
    if (r != VK_SUCCESS)
        dev->vk_cache = VK_NULL_HANDLE;
    dev->stats.pipeline_cache_loaded_bytes = size;
    wg__free(&dev->alloc, data);
}

static void mkdir_p(const char *path) {
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(tmp, 0755);
            *p = '/';
        }
    mkdir(tmp, 0755);
}

void wg__pipeline_cache_close(wg_device *dev) {
    if (!dev->vk_cache)
        return;
    if (dev->cache_dirty && dev->cache_path[0] && !dev->lost) {
        size_t size = 0;
        if (dev->vk.vkGetPipelineCacheData(dev->device, dev->vk_cache, &size, NULL) == VK_SUCCESS && size) {
            void *data = wg__alloc(&dev->alloc, size);
            if (data && dev->vk.vkGetPipelineCacheData(dev->device, dev->vk_cache, &size, data) == VK_SUCCESS) {
                char dir[1024], tmp[1100];
                snprintf(dir, sizeof dir, "%s", dev->cache_path);
                char *slash = strrchr(dir, '/');
                if (slash) {
                    *slash = 0;
                    mkdir_p(dir);
                }
                snprintf(tmp, sizeof tmp, "%s.%ld.tmp", dev->cache_path, (long)getpid());
                FILE *f = fopen(tmp, "wb");
                if (f) {
                    bool ok = fwrite(data, 1, size, f) == size;
                    ok &= fclose(f) == 0;
                    if (!ok || rename(tmp, dev->cache_path) != 0)
                        remove(tmp);
                }
            }
            wg__free(&dev->alloc, data);
        }
    }
    if (!dev->abandoned)
        dev->vk.vkDestroyPipelineCache(dev->device, dev->vk_cache, NULL);
    dev->vk_cache = VK_NULL_HANDLE;
}

void wg__caches_destroy(wg_device *dev) {
    VkDevice d = dev->device;
    for (size_t i = 0; i < dev->npipes && !dev->abandoned; i++)
        dev->vk.vkDestroyPipeline(d, dev->pipes[i].vk, NULL);
    for (size_t i = 0; i < dev->npipe_layouts && !dev->abandoned; i++)
        dev->vk.vkDestroyPipelineLayout(d, dev->pipe_layouts[i].vk, NULL);
    for (size_t i = 0; i < dev->nset_layouts; i++) {
        if (!dev->abandoned)
            dev->vk.vkDestroyDescriptorSetLayout(d, dev->set_layouts[i].vk, NULL);
        wg__free(&dev->alloc, dev->set_layouts[i].entries);
        wg__free(&dev->alloc, dev->set_layouts[i].free_sets); /* the sets die with their pools */
    }
    wg_internal_pipe *ip[] = { &dev->copy_pipe, &dev->indirect_pipe };
    for (size_t i = 0; i < 2 && !dev->abandoned; i++) {
        if (ip[i]->pipe)
            dev->vk.vkDestroyPipeline(d, ip[i]->pipe, NULL);
        if (ip[i]->layout)
            dev->vk.vkDestroyPipelineLayout(d, ip[i]->layout, NULL);
        if (ip[i]->set)
            dev->vk.vkDestroyDescriptorSetLayout(d, ip[i]->set, NULL);
    }
    wg__free(&dev->alloc, dev->pipes);
    wg__free(&dev->alloc, dev->pipe_layouts);
    wg__free(&dev->alloc, dev->set_layouts);
    dev->npipes = dev->npipe_layouts = dev->nset_layouts = 0;
}

/* ---- bind group layouts ------------------------------------------------------------------ */
static VkDescriptorType vk_type(wg_binding_type t, bool dynamic) {
    if (t == WG_BINDING_TYPE_UNIFORM)
        return dynamic ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    return dynamic ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

static wg_cached_set_layout *set_layout_get(wg_device *dev, const wg_set_layout_entry *e, size_t n, uint64_t hash) {
    for (size_t i = 0; i < dev->nset_layouts; i++) {
        wg_cached_set_layout *c = &dev->set_layouts[i];
        if (c->hash == hash && c->n == n && (!n || !memcmp(c->entries, e, n * sizeof *e)))
            return c;
    }
    if (!wg__grow(&dev->alloc, (void **)&dev->set_layouts, &dev->capset_layouts, dev->nset_layouts + 1,
                  sizeof *dev->set_layouts))
        return NULL;
    wg_set_layout_entry *copy = wg__alloc(&dev->alloc, (n ? n : 1) * sizeof *copy);
    VkDescriptorSetLayoutBinding *b = wg__alloc(&dev->alloc, (n ? n : 1) * sizeof *b);
    if (!copy || !b) {
        wg__free(&dev->alloc, copy);
        wg__free(&dev->alloc, b);
        return NULL;
    }
    if (n)
        memcpy(copy, e, n * sizeof *e);
    for (size_t i = 0; i < n; i++)
        b[i] = (VkDescriptorSetLayoutBinding){ e[i].binding, vk_type(e[i].type, e[i].dynamic), 1,
                                               VK_SHADER_STAGE_COMPUTE_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = (uint32_t)n, .pBindings = b };
    VkDescriptorSetLayout vk;
    VkResult r = dev->vk.vkCreateDescriptorSetLayout(dev->device, &ci, NULL, &vk);
    wg__free(&dev->alloc, b);
    if (r != VK_SUCCESS) {
        wg__free(&dev->alloc, copy);
        wg__check_vk(dev, r, "vkCreateDescriptorSetLayout");
        return NULL;
    }
    wg_cached_set_layout *c = &dev->set_layouts[dev->nset_layouts++];
    *c = (wg_cached_set_layout){ hash, n, copy, vk, NULL, 0, 0 };
    return c;
}

static int entry_cmp(const void *a, const void *b) {
    const wg_set_layout_entry *x = a, *y = b;
    return x->binding < y->binding ? -1 : x->binding > y->binding;
}

wg_bind_group_layout *wg__bind_group_layout_make(wg_device *dev, const char *label, const wg_set_layout_entry *in,
                                                 size_t n, bool internal) {
    wg_bind_group_layout *l = wg__obj_new(dev, WG_OBJ_BIND_GROUP_LAYOUT, sizeof *l, label);
    if (!l)
        return NULL;
    (void)internal;
    l->o.invalid = true;
    if (dev->lost)
        return l;
    const wg_limits *lim = &dev->limits;
    if (n > lim->max_bindings_per_bind_group) {
        wg__err(dev, WG_ERR_LAYOUT_TOO_MANY_BINDINGS, "bind group layout '%s' has %zu entries", wg__label(l), n);
        return l;
    }
    wg_set_layout_entry stack[32] = { { 0 } }, *e = n <= 32 ? stack : wg__alloc(&dev->alloc, n * sizeof *e);
    if (!e) {
        wg__err(dev, WG_ERR_HOST_OOM, "bind group layout '%s'", wg__label(l));
        return l;
    }
    memset(e, 0, n * sizeof *e);
    uint64_t nstorage = 0, nuniform = 0, ndyn_s = 0, ndyn_u = 0;
    wg_error_id err = WG_ERR_NONE;
    for (size_t i = 0; i < n && !err; i++) {
        e[i].binding = in[i].binding;
        e[i].type = in[i].type == WG_BINDING_TYPE_UNDEFINED ? WG_BINDING_TYPE_STORAGE : in[i].type;
        e[i].dynamic = in[i].dynamic;
        e[i].min_size = in[i].min_size;
        if ((unsigned)e[i].type >= WG_BINDING_TYPE_COUNT) {
            err = WG_ERR_LAYOUT_BINDING_TYPE;
            wg__err(dev, err, "bind group layout '%s' binding %u type %d", wg__label(l), e[i].binding, (int)e[i].type);
        } else if (e[i].binding >= lim->max_bindings_per_bind_group) {
            err = WG_ERR_LAYOUT_TOO_MANY_BINDINGS;
            wg__err(dev, err, "bind group layout '%s' binding number %u", wg__label(l), e[i].binding);
        }
        if (e[i].type == WG_BINDING_TYPE_UNIFORM)
            nuniform++, ndyn_u += e[i].dynamic;
        else
            nstorage++, ndyn_s += e[i].dynamic;
    }
    if (!err) {
        qsort(e, n, sizeof *e, entry_cmp);
        for (size_t i = 1; i < n && !err; i++)
            if (e[i].binding == e[i - 1].binding) {
                err = WG_ERR_LAYOUT_DUPLICATE_BINDING;
                wg__err(dev, err, "bind group layout '%s' binding %u", wg__label(l), e[i].binding);
            }
    }
    if (!err && (nstorage > lim->max_storage_buffers_per_shader_stage ||
                 nuniform > lim->max_uniform_buffers_per_shader_stage ||
                 ndyn_s > lim->max_dynamic_storage_buffers_per_pipeline_layout ||
                 ndyn_u > lim->max_dynamic_uniform_buffers_per_pipeline_layout)) {
        err = WG_ERR_LAYOUT_TOO_MANY_BINDINGS;
        wg__err(dev, err, "bind group layout '%s': %llu storage (%llu dynamic), %llu uniform (%llu dynamic)",
                wg__label(l), (unsigned long long)nstorage, (unsigned long long)ndyn_s, (unsigned long long)nuniform,
                (unsigned long long)ndyn_u);
    }
    if (!err) {
        uint64_t h = wg__hash(WG_HASH_INIT, e, n * sizeof *e);
        wg_cached_set_layout *c = set_layout_get(dev, e, n, h);
        if (!c) {
            if (!dev->lost)
                wg__err(dev, WG_ERR_HOST_OOM, "bind group layout '%s'", wg__label(l));
        } else {
            l->entries = c->entries;
            l->n = c->n;
            l->hash = h;
            l->vk = c->vk;
            l->cache_index = (uint32_t)(c - dev->set_layouts);
            l->ndynamic = (uint32_t)(ndyn_s + ndyn_u);
            l->o.invalid = false;
        }
    }
    if (e != stack)
        wg__free(&dev->alloc, e);
    return l;
}

wg_bind_group_layout *wg_device_create_bind_group_layout(wg_device *dev, const wg_bind_group_layout_desc *desc) {
    if (!dev)
        return NULL;
    static const wg_bind_group_layout_desc zero;
    if (!desc)
        desc = &zero;
    size_t n = desc->entries ? desc->entry_count : 0;
    wg_set_layout_entry stack[32] = { { 0 } }, *e = n <= 32 ? stack : wg__alloc(&dev->alloc, n * sizeof *e);
    if (!e) {
        wg__err(dev, WG_ERR_HOST_OOM, "bind group layout '%s'", desc->label ? desc->label : "");
        return NULL;
    }
    memset(e, 0, n * sizeof *e);
    for (size_t i = 0; i < n; i++)
        e[i] = (wg_set_layout_entry){ desc->entries[i].binding, desc->entries[i].type,
                                      desc->entries[i].has_dynamic_offset, desc->entries[i].min_binding_size };
    wg_bind_group_layout *l = wg__bind_group_layout_make(dev, desc->label, e, n, false);
    if (e != stack)
        wg__free(&dev->alloc, e);
    return l;
}

void wg__bind_group_layout_free(wg_obj *o) {
    (void)o;  /* the VkDescriptorSetLayout and entries belong to the device cache */
}

/* ---- pipeline layouts --------------------------------------------------------------------- */
static VkPipelineLayout pipe_layout_get(wg_device *dev, wg_bind_group_layout *const *sets, uint32_t n) {
    VkDescriptorSetLayout vk[WG_MAX_BIND_GROUPS] = { 0 };
    for (uint32_t i = 0; i < n; i++)
        vk[i] = sets[i]->vk;
    for (size_t i = 0; i < dev->npipe_layouts; i++) {
        wg_cached_pipeline_layout *c = &dev->pipe_layouts[i];
        if (c->nsets == n && !memcmp(c->sets, vk, sizeof vk))
            return c->vk;
    }
    if (!wg__grow(&dev->alloc, (void **)&dev->pipe_layouts, &dev->cappipe_layouts, dev->npipe_layouts + 1,
                  sizeof *dev->pipe_layouts))
        return VK_NULL_HANDLE;
    VkPipelineLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = n,
                                      .pSetLayouts = vk };
    VkPipelineLayout pl;
    VkResult r = dev->vk.vkCreatePipelineLayout(dev->device, &ci, NULL, &pl);
    if (r != VK_SUCCESS) {
        wg__check_vk(dev, r, "vkCreatePipelineLayout");
        return VK_NULL_HANDLE;
    }
    wg_cached_pipeline_layout *c = &dev->pipe_layouts[dev->npipe_layouts++];
    c->nsets = n;
    memcpy(c->sets, vk, sizeof vk);
    c->vk = pl;
    return pl;
}

static wg_pipeline_layout *pipeline_layout_make(wg_device *dev, const char *label, wg_bind_group_layout *const *sets,
                                                size_t n) {
    wg_pipeline_layout *pl = wg__obj_new(dev, WG_OBJ_PIPELINE_LAYOUT, sizeof *pl, label);
    if (!pl)
        return NULL;
    pl->o.invalid = true;
    if (dev->lost)
        return pl;
    if (n > dev->limits.max_bind_groups) {
        wg__err(dev, WG_ERR_TOO_MANY_BIND_GROUPS, "pipeline layout '%s' has %zu, limit %llu", wg__label(pl), n,
                (unsigned long long)dev->limits.max_bind_groups);
        return pl;
    }
    if (n && !sets) {
        wg__err(dev, WG_ERR_NULL_OBJECT, "pipeline layout '%s' bind_group_layouts", wg__label(pl));
        return pl;
    }
    uint64_t nst = 0, nun = 0;
    for (size_t i = 0; i < n; i++) {
        if (!wg__check_obj(dev, sets[i], "bind group layout"))
            return pl;
        for (size_t k = 0; k < sets[i]->n; k++)
            if (sets[i]->entries[k].type == WG_BINDING_TYPE_UNIFORM)
                nun++;
            else
                nst++;
    }
    if (nst > dev->limits.max_storage_buffers_per_shader_stage ||
        nun > dev->limits.max_uniform_buffers_per_shader_stage) {
        wg__err(dev, WG_ERR_LAYOUT_TOO_MANY_BINDINGS, "pipeline layout '%s': %llu storage, %llu uniform buffers",
                wg__label(pl), (unsigned long long)nst, (unsigned long long)nun);
        return pl;
    }
    pl->vk = pipe_layout_get(dev, sets, (uint32_t)n);
    if (!pl->vk) {
        if (!dev->lost)
            wg__err(dev, WG_ERR_HOST_OOM, "pipeline layout '%s'", wg__label(pl));
        return pl;
    }
    pl->nsets = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        pl->sets[i] = sets[i];
        wg__obj_retain(&sets[i]->o);
    }
    pl->o.invalid = false;
    return pl;
}

wg_pipeline_layout *wg_device_create_pipeline_layout(wg_device *dev, const wg_pipeline_layout_desc *desc) {
    if (!dev)
        return NULL;
    static const wg_pipeline_layout_desc zero;
    if (!desc)
        desc = &zero;
    return pipeline_layout_make(dev, desc->label, desc->bind_group_layouts, desc->bind_group_layout_count);
}

void wg__pipeline_layout_free(wg_obj *o) {
    wg_pipeline_layout *pl = (wg_pipeline_layout *)o;
    for (uint32_t i = 0; i < pl->nsets; i++)
        wg__obj_release(&pl->sets[i]->o);
}

/* ---- compute pipelines -------------------------------------------------------------------- */
static bool layout_matches(const wg_pipeline_layout *pl, const wg_shader_entry_info *ep, char *why, size_t wsz) {
    for (uint32_t i = 0; i < ep->binding_count; i++) {
        const wg_shader_binding *b = &ep->bindings[i];
        if (b->group >= pl->nsets) {
            snprintf(why, wsz, "shader uses group %u, layout has %u groups", b->group, pl->nsets);
            return false;
        }
        const wg_bind_group_layout *l = pl->sets[b->group];
        const wg_set_layout_entry *e = NULL;
        for (size_t k = 0; k < l->n; k++)
            if (l->entries[k].binding == b->binding)
                e = &l->entries[k];
        if (!e) {
            snprintf(why, wsz, "group %u binding %u missing from the layout", b->group, b->binding);
            return false;
        }
        bool ok = b->type == WG_BINDING_TYPE_UNIFORM ? e->type == WG_BINDING_TYPE_UNIFORM
                  : b->type == WG_BINDING_TYPE_STORAGE ? e->type == WG_BINDING_TYPE_STORAGE
                  : e->type == WG_BINDING_TYPE_STORAGE || e->type == WG_BINDING_TYPE_READ_ONLY_STORAGE;
        if (!ok) {
            snprintf(why, wsz, "group %u binding %u: shader wants type %d, layout has %d", b->group, b->binding,
                     (int)b->type, (int)e->type);
            return false;
        }
    }
    return true;
}

static wg_pipeline_layout *auto_layout(wg_device *dev, wg_compute_pipeline *p, const wg_shader_entry_info *ep) {
    uint32_t ngroups = 0;
    for (uint32_t i = 0; i < ep->binding_count; i++)
        if (ep->bindings[i].group + 1 > ngroups)
            ngroups = ep->bindings[i].group + 1;
    if (ngroups > dev->limits.max_bind_groups) {
        wg__err(dev, WG_ERR_TOO_MANY_BIND_GROUPS, "pipeline '%s' shader uses group %u", wg__label(p), ngroups - 1);
        return NULL;
    }
    wg_bind_group_layout *sets[WG_MAX_BIND_GROUPS] = { 0 };
    wg_pipeline_layout *pl = NULL;
    bool ok = true;
    for (uint32_t g = 0; g < ngroups && ok; g++) {
        wg_set_layout_entry e[WG_MAX_SHADER_BINDINGS];
        size_t n = 0;
        for (uint32_t i = 0; i < ep->binding_count; i++) {
            const wg_shader_binding *b = &ep->bindings[i];
            if (b->group != g)
                continue;
            size_t k = 0;
            while (k < n && e[k].binding != b->binding)
                k++;
            if (k == n)
                e[n++] = (wg_set_layout_entry){ b->binding, b->type, false, b->min_size };
            else if (b->type == WG_BINDING_TYPE_STORAGE)
                e[k].type = WG_BINDING_TYPE_STORAGE;
        }
        char label[WG_LABEL_MAX];
        snprintf(label, sizeof label, "%.40s/group%u", wg__label(p), g);
        sets[g] = wg__bind_group_layout_make(dev, label, e, n, false);
        ok = sets[g] && !sets[g]->o.invalid;
    }
    if (ok) {
        char label[WG_LABEL_MAX];
        snprintf(label, sizeof label, "%.48s/layout", wg__label(p));
        pl = pipeline_layout_make(dev, label, sets, ngroups);
    }
    for (uint32_t g = 0; g < ngroups; g++)
        if (sets[g])
            wg__obj_release(&sets[g]->o);
    if (pl && pl->o.invalid) {
        wg__obj_release(&pl->o);
        pl = NULL;
    }
    return pl;
}

/* One vkCreateComputePipelines on a worker thread.  The job is the thread's own memory (libc,
 * not the device's allocator: it may outlive the device and its allocator) and holds copies of
 * everything the call reads but the Vulkan objects.  Whichever of the caller and the thread is
 * last to let go frees it. */
typedef struct pipe_job {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int holders;                      /* 2 while both the caller and the thread hold it */
    bool done;
    PFN_vkCreateComputePipelines create;
    VkDevice device;
    VkPipelineCache cache;
    VkComputePipelineCreateInfo ci;
    VkPipelineCreationFeedbackCreateInfo fci;
    VkPipelineCreationFeedback fb;
    VkResult r;
    VkPipeline out;
    char entry[64];
} pipe_job;

static void job_drop(pipe_job *j) {
    pthread_mutex_lock(&j->mu);
    int left = --j->holders;
    pthread_mutex_unlock(&j->mu);
    if (left)
        return;
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

static void *pipe_job_run(void *arg) {
    pipe_job *j = arg;
    VkPipeline out = VK_NULL_HANDLE;
    VkResult r = j->create(j->device, j->cache, 1, &j->ci, NULL, &out);
    pthread_mutex_lock(&j->mu);
    j->r = r;
    j->out = out;   /* abandoned: leaked with its device */
    j->done = true;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    job_drop(j);
    return NULL;
}

/* vkCreateComputePipelines, bounded by the device's lost timeout.  Returns VK_TIMEOUT (and *out
 * untouched) when the driver did not return in time; the thread keeps running. */
static VkResult create_pipeline_bounded(wg_device *dev, const VkComputePipelineCreateInfo *ci,
                                        VkPipelineCreationFeedback *fb, VkPipeline *out) {
    pipe_job *j = calloc(1, sizeof *j);
    pthread_condattr_t ca;
    bool ok = j && !pthread_condattr_init(&ca);
    if (ok) {
        ok = !pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) && !pthread_cond_init(&j->cv, &ca);
        pthread_condattr_destroy(&ca);
        if (ok && pthread_mutex_init(&j->mu, NULL)) {
            pthread_cond_destroy(&j->cv);
            ok = false;
        }
    }
    if (!ok) {   /* no thread to spare: call the driver directly */
        free(j);
        return dev->vk.vkCreateComputePipelines(dev->device, dev->vk_cache, 1, ci, NULL, out);
    }
    j->holders = 2;
    j->create = dev->vk.vkCreateComputePipelines;
    j->device = dev->device;
    j->cache = dev->vk_cache;
    j->ci = *ci;
    snprintf(j->entry, sizeof j->entry, "%s", ci->stage.pName);
    j->ci.stage.pName = j->entry;
    if (ci->pNext) {   /* the creation feedback request is the only chained struct */
        j->fci = *(const VkPipelineCreationFeedbackCreateInfo *)ci->pNext;
        j->fci.pPipelineCreationFeedback = &j->fb;
        j->ci.pNext = &j->fci;
    }
    pthread_t th;
    pthread_attr_t ta;
    if (pthread_attr_init(&ta)) {
        j->holders = 1;
        job_drop(j);
        return dev->vk.vkCreateComputePipelines(dev->device, dev->vk_cache, 1, ci, NULL, out);
    }
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    int e = pthread_create(&th, &ta, pipe_job_run, j);
    pthread_attr_destroy(&ta);
    if (e) {
        j->holders = 1;
        job_drop(j);
        return dev->vk.vkCreateComputePipelines(dev->device, dev->vk_cache, 1, ci, NULL, out);
    }
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t ns = (uint64_t)until.tv_nsec + dev->lost_timeout_ns;
    until.tv_sec += (time_t)(ns / 1000000000u);
    until.tv_nsec = (long)(ns % 1000000000u);
    VkResult r = VK_TIMEOUT;
    pthread_mutex_lock(&j->mu);
    while (!j->done && pthread_cond_timedwait(&j->cv, &j->mu, &until) != ETIMEDOUT) {
    }
    if (j->done) {
        r = j->r;
        *out = j->out;
        *fb = j->fb;
    }
    pthread_mutex_unlock(&j->mu);
    job_drop(j);
    return r;
}

wg_compute_pipeline *wg_device_create_compute_pipeline(wg_device *dev, const wg_compute_pipeline_desc *desc) {
    if (!dev)
        return NULL;
    static const wg_compute_pipeline_desc zero;
    if (!desc)
        desc = &zero;
    wg_compute_pipeline *p = wg__obj_new(dev, WG_OBJ_COMPUTE_PIPELINE, sizeof *p, desc->label);
    if (!p)
        return NULL;
    p->o.invalid = true;
    if (dev->lost || !wg__check_obj(dev, desc->module, "shader module"))
        return p;
    wg_shader_module *m = desc->module;
    const wg_shader_entry_info *ep = NULL;
    if (!desc->entry_point) {
        if (m->nentries != 1) {
            wg__err(dev, WG_ERR_ENTRY_POINT_AMBIGUOUS, "pipeline '%s': module '%s' has %u entry points", wg__label(p),
                    wg__label(m), m->nentries);
            return p;
        }
        ep = &m->entries[0];
    } else {
        for (uint32_t i = 0; i < m->nentries; i++)
            if (!strcmp(m->entries[i].name, desc->entry_point))
                ep = &m->entries[i];
        if (!ep) {
            wg__err(dev, WG_ERR_ENTRY_POINT_NOT_FOUND, "pipeline '%s': '%s' in module '%s'", wg__label(p),
                    desc->entry_point, wg__label(m));
            return p;
        }
    }
    const uint32_t *ws = ep->workgroup_size;
    const wg_limits *L = &dev->limits;
    if (ws[0] > L->max_compute_workgroup_size_x || ws[1] > L->max_compute_workgroup_size_y ||
        ws[2] > L->max_compute_workgroup_size_z ||
        (uint64_t)ws[0] * ws[1] * ws[2] > L->max_compute_invocations_per_workgroup || !ws[0] || !ws[1] || !ws[2]) {
        char why[96];
        if (!ws[0] || !ws[1] || !ws[2])
            snprintf(why, sizeof why, "a dimension is 0");
        else if (ws[0] > L->max_compute_workgroup_size_x || ws[1] > L->max_compute_workgroup_size_y ||
                 ws[2] > L->max_compute_workgroup_size_z)
            snprintf(why, sizeof why, "maxComputeWorkgroupSize x/y/z is %llu/%llu/%llu",
                     (unsigned long long)L->max_compute_workgroup_size_x,
                     (unsigned long long)L->max_compute_workgroup_size_y,
                     (unsigned long long)L->max_compute_workgroup_size_z);
        else
            snprintf(why, sizeof why, "%llu invocations, maxComputeInvocationsPerWorkgroup is %llu",
                     (unsigned long long)ws[0] * ws[1] * ws[2],
                     (unsigned long long)L->max_compute_invocations_per_workgroup);
        wg__err(dev, WG_ERR_WORKGROUP_SIZE_LIMIT, "pipeline '%s': workgroup size %ux%ux%u: %s", wg__label(p), ws[0],
                ws[1], ws[2], why);
        return p;
    }
    /* with workgroup matrices the driver keeps wgm_reserved_shared_memory for itself
     * (VK_NV_cooperative_matrix2; on the H200 8192 of 49152: a kernel past the rest hung in NVIDIA's
     * driver) */
    uint64_t wlim = L->max_compute_workgroup_storage_size, rsv = ep->workgroup_matrices ?
        dev->adapter->info.wgm_reserved_shared_memory : 0;
    wlim = wlim > rsv ? wlim - rsv : 0;
    if (ep->workgroup_storage_size > wlim) {
        wg__err(dev, WG_ERR_WORKGROUP_STORAGE_LIMIT,
                "pipeline '%s': entry point '%s' uses %u bytes, the limit is %llu%s", wg__label(p), ep->name,
                ep->workgroup_storage_size, (unsigned long long)wlim,
                rsv ? " (less the driver's reserve for workgroup matrices)" : "");
        return p;
    }
    wg_pipeline_layout *pl;
    if (desc->layout) {
        if (!wg__check_obj(dev, desc->layout, "pipeline layout"))
            return p;
        pl = desc->layout;
        char why[160];
        if (!layout_matches(pl, ep, why, sizeof why)) {
            wg__err(dev, WG_ERR_LAYOUT_MISMATCH, "pipeline '%s', layout '%s': %s", wg__label(p), wg__label(pl), why);
            return p;
        }
        wg__obj_retain(&pl->o);
    } else {
        pl = auto_layout(dev, p, ep);
        if (!pl)
            return p;
    }
    p->layout = pl;
    memcpy(p->workgroup_size, ws, sizeof p->workgroup_size);

    for (size_t i = 0; i < dev->npipes; i++) {
        wg_cached_pipeline *c = &dev->pipes[i];
        if (c->module_hash == m->hash && c->layout == pl->vk && !strcmp(c->entry, ep->name)) {
            p->vk = c->vk;
            dev->stats.pipeline_memory_hits++;
            p->o.invalid = false;
            return p;
        }
    }
    if (!wg__grow(&dev->alloc, (void **)&dev->pipes, &dev->cappipes, dev->npipes + 1, sizeof *dev->pipes)) {
        wg__err(dev, WG_ERR_HOST_OOM, "pipeline '%s'", wg__label(p));
        return p;
    }
    VkPipelineCreationFeedback fb = { 0 };
    VkPipelineCreationFeedbackCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
                                                 .pPipelineCreationFeedback = &fb };
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .pNext = dev->creation_feedback ? &fci : NULL,
        .flags = (dev->features & WG_FEATURE_BIT(WG_FEATURE_PIPELINE_STATISTICS))
                     ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = m->vk, .pName = ep->name },
        .layout = pl->vk };
    VkPipeline vp = VK_NULL_HANDLE;
    VkResult r = create_pipeline_bounded(dev, &ci, &fb, &vp);
    if (r == VK_TIMEOUT) {
        wg__lose(dev, WG_DEVICE_LOST_TIMEOUT, "pipeline '%s': the driver did not create it within %llu ms",
                 wg__label(p), (unsigned long long)(dev->lost_timeout_ns / 1000000));
        return p;
    }
    if (r != VK_SUCCESS) {
        if (r == VK_ERROR_DEVICE_LOST || r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
            wg__check_vk(dev, r, "vkCreateComputePipelines");
        else
            wg__err(dev, WG_ERR_PIPELINE_CREATE, "pipeline '%s': VkResult %d", wg__label(p), (int)r);
        return p;
    }
    if ((fb.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
        (fb.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT))
        dev->stats.pipeline_disk_cache_hits++;
    dev->stats.pipelines_created++;
    dev->cache_dirty = true;
    wg_cached_pipeline *c = &dev->pipes[dev->npipes++];
    c->module_hash = m->hash;
    snprintf(c->entry, sizeof c->entry, "%s", ep->name);
    c->layout = pl->vk;
    c->vk = vp;
    p->vk = vp;
    p->o.invalid = false;
    return p;
}

void wg__compute_pipeline_free(wg_obj *o) {
    wg_compute_pipeline *p = (wg_compute_pipeline *)o;
    if (p->layout)
        wg__obj_release(&p->layout->o);
}

wg_bind_group_layout *wg_compute_pipeline_get_bind_group_layout(wg_compute_pipeline *p, uint32_t index) {
    if (!p)
        return NULL;
    if (!wg__check_obj(p->o.dev, p, "compute pipeline"))
        return NULL;
    if (index >= p->layout->nsets) {
        wg__err(p->o.dev, WG_ERR_BIND_GROUP_INDEX, "pipeline '%s' has %u groups, asked for %u", wg__label(p),
                p->layout->nsets, index);
        return NULL;
    }
    return p->layout->sets[index];
}

bool wg_compute_pipeline_is_valid(const wg_compute_pipeline *p) {
    return p && !p->o.invalid;
}

uint32_t wg_compute_pipeline_get_statistics(wg_compute_pipeline *p, wg_pipeline_statistic *out, uint32_t cap) {
    if (!p)
        return 0;
    wg_device *dev = p->o.dev;
    if (!wg__check_obj(dev, p, "compute pipeline"))
        return 0;
    if (!(dev->features & WG_FEATURE_BIT(WG_FEATURE_PIPELINE_STATISTICS)) ||
        !dev->vk.vkGetPipelineExecutablePropertiesKHR || !dev->vk.vkGetPipelineExecutableStatisticsKHR) {
        wg__err(dev, WG_ERR_FEATURE_NOT_ENABLED, "pipeline '%s': statistics need the device feature '%s'",
                wg__label(p), wg_feature_name(WG_FEATURE_PIPELINE_STATISTICS));
        return 0;
    }
    /* a compute pipeline has one executable, the compute stage's */
    VkPipelineInfoKHR pi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = p->vk };
    uint32_t nexe = 0;
    VkResult r = dev->vk.vkGetPipelineExecutablePropertiesKHR(dev->device, &pi, &nexe, NULL);
    VkPipelineExecutableInfoKHR ei = { .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = p->vk,
                                       .executableIndex = 0 };
    uint32_t n = 0;
    if (r == VK_SUCCESS && nexe)
        r = dev->vk.vkGetPipelineExecutableStatisticsKHR(dev->device, &ei, &n, NULL);
    if (r != VK_SUCCESS || !nexe) {
        wg__err(dev, WG_ERR_VK_CALL, "pipeline '%s': vkGetPipelineExecutable*KHR: VkResult %d, %u executables",
                wg__label(p), (int)r, nexe);
        return 0;
    }
    if (!cap || !out || !n)
        return n;
    VkPipelineExecutableStatisticKHR *st = wg__alloc(&dev->alloc, n * sizeof *st);
    if (!st) {
        wg__err(dev, WG_ERR_HOST_OOM, "pipeline '%s': %u statistics", wg__label(p), n);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        st[i] = (VkPipelineExecutableStatisticKHR){ .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR };
    uint32_t got = n;
    r = dev->vk.vkGetPipelineExecutableStatisticsKHR(dev->device, &ei, &got, st);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        wg__free(&dev->alloc, st);
        wg__err(dev, WG_ERR_VK_CALL, "pipeline '%s': vkGetPipelineExecutableStatisticsKHR: VkResult %d", wg__label(p),
                (int)r);
        return 0;
    }
    for (uint32_t i = 0; i < got && i < cap; i++) {
        wg_pipeline_statistic *o = &out[i];
        snprintf(o->name, sizeof o->name, "%.63s", st[i].name);
        snprintf(o->description, sizeof o->description, "%s", st[i].description);
        o->integer = st[i].format != VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR;
        switch (st[i].format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: o->value = st[i].value.b32 ? 1 : 0; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: o->value = (double)st[i].value.i64; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: o->value = (double)st[i].value.u64; break;
        default: o->value = st[i].value.f64; break;
        }
    }
    wg__free(&dev->alloc, st);
    return got;
}

/* ---- the runtime's own kernels ----------------------------------------------------------- */
bool wg__internal_pipe(wg_device *dev, wg_internal_pipe *ip, const uint32_t *spirv, size_t words, uint32_t nbindings,
                       uint32_t push_size) {
    if (ip->pipe)
        return true;
    if (!dev->vk.vkCmdPushDescriptorSetKHR)
        return false;
    VkDescriptorSetLayoutBinding b[4];
    for (uint32_t i = 0; i < nbindings && i < 4; i++)
        b[i] = (VkDescriptorSetLayoutBinding){ i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                            .bindingCount = nbindings, .pBindings = b };
    VkPushConstantRange pr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size };
    if (dev->vk.vkCreateDescriptorSetLayout(dev->device, &sci, NULL, &ip->set) != VK_SUCCESS) {
        ip->set = VK_NULL_HANDLE;
        return false;
    }
    VkPipelineLayoutCreateInfo lci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &ip->set, .pushConstantRangeCount = 1,
                                       .pPushConstantRanges = &pr };
    if (dev->vk.vkCreatePipelineLayout(dev->device, &lci, NULL, &ip->layout) != VK_SUCCESS) {
        ip->layout = VK_NULL_HANDLE;
        return false;
    }
    VkShaderModuleCreateInfo mci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = words * 4,
                                     .pCode = spirv };
    VkShaderModule sm;
    if (dev->vk.vkCreateShaderModule(dev->device, &mci, NULL, &sm) != VK_SUCCESS)
        return false;
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = sm, .pName = "main" },
        .layout = ip->layout };
    VkResult r = dev->vk.vkCreateComputePipelines(dev->device, dev->vk_cache, 1, &ci, NULL, &ip->pipe);
    dev->vk.vkDestroyShaderModule(dev->device, sm, NULL);
    if (r != VK_SUCCESS) {
        ip->pipe = VK_NULL_HANDLE;
        return false;
    }
    dev->cache_dirty = true;
    return true;
}
