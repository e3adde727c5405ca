/* buffer.c - buffers: creation (suballocated, zero-initialised), destroy, mapping (async map
 * completed by wg_device_poll, mapped_at_creation), queue writes through the persistently mapped
 * staging ring, and the blocking wg_buffer_read.
 *
 * Staging ring: bytes are written at `head` and freed at `tail` (both count up forever; the
 * position is the count modulo the ring size); each span remembers the serial of the submission
 * whose copy reads it, and space is reclaimed once that serial has passed.  The copies go to the
 * device's pending command buffer, which runs ahead of the next submitted work.  When the
 * destination is host-visible, coherent and idle on the GPU, the write is a plain memcpy. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "gpu/internal.h"

static const uint32_t known_usage = WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_MAP_WRITE | WG_BUFFER_USAGE_COPY_SRC |
                                    WG_BUFFER_USAGE_COPY_DST | WG_BUFFER_USAGE_UNIFORM | WG_BUFFER_USAGE_STORAGE |
                                    WG_BUFFER_USAGE_INDIRECT | WG_BUFFER_USAGE_QUERY_RESOLVE;

/* Big host copies are split over a small pool of worker threads, started on first use and
 * stopped with the device: one core cannot fill PCIe from write-combined staging memory (about
 * 10 GB/s against 50), and starting threads per copy would cost as much as the copy. */
typedef struct copy_part { uint8_t *dst; const uint8_t *src; size_t n; } copy_part;
#define POOL_MAX 8
struct wg_copy_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_t th[POOL_MAX];
    int nthreads;
    uint64_t gen;
    int pending;
    bool quit;
    copy_part parts[POOL_MAX + 1];
};
typedef struct pool_arg { struct wg_copy_pool *pool; int index; } pool_arg;

static void *pool_worker(void *arg) {
    struct wg_copy_pool *p = ((pool_arg *)arg)->pool;
    int k = ((pool_arg *)arg)->index;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        copy_part c = p->parts[k + 1];
        pthread_mutex_unlock(&p->mu);
        if (c.n)
            memcpy(c.dst, c.src, c.n);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static struct wg_copy_pool *pool_get(wg_device *dev) {
    if (dev->copy_pool || dev->copy_pool_failed)
        return dev->copy_pool;
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    int n = c < 2 ? 0 : c > POOL_MAX ? POOL_MAX - 1 : (int)c - 1;
    struct wg_copy_pool *p = n ? wg__calloc(&dev->alloc, sizeof *p) : NULL;
    if (!p || pthread_mutex_init(&p->mu, NULL) != 0) {
        wg__free(&dev->alloc, p);
        dev->copy_pool_failed = true;
        return NULL;
    }
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 0; i < n; i++) {
        pool_arg *a = wg__alloc(&dev->alloc, sizeof *a);
        if (!a)
            break;
        *a = (pool_arg){ p, i };
        if (pthread_create(&p->th[i], NULL, pool_worker, a) != 0) {
            wg__free(&dev->alloc, a);
            break;
        }
        dev->copy_pool_args[i] = a; /* owned by the worker; freed after it is joined */
        p->nthreads++;
    }
    dev->copy_pool = p;
    return p;
}

static void pool_destroy(wg_device *dev) {
    struct wg_copy_pool *p = dev->copy_pool;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nthreads; i++) {
        pthread_join(p->th[i], NULL);
        wg__free(&dev->alloc, dev->copy_pool_args[i]);
    }
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    wg__free(&dev->alloc, p);
    dev->copy_pool = NULL;
}

static void big_memcpy(wg_device *dev, void *dst, const void *src, size_t n) {
    struct wg_copy_pool *p = n >= (4u << 20) ? pool_get(dev) : NULL;
    if (!p || !p->nthreads) {
        memcpy(dst, src, n);
        return;
    }
    int parts = p->nthreads + 1;
    size_t per = (n / (size_t)parts + 4095) & ~(size_t)4095;
    pthread_mutex_lock(&p->mu);
    for (int i = 0; i < parts; i++) {
        size_t off = (size_t)i * per;
        p->parts[i] = (copy_part){ (uint8_t *)dst + off, (const uint8_t *)src + off,
                                   off >= n ? 0 : n - off < per ? n - off : per };
    }
    p->pending = p->nthreads;
    p->gen++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    if (p->parts[0].n)
        memcpy(p->parts[0].dst, p->parts[0].src, p->parts[0].n);
    pthread_mutex_lock(&p->mu);
    while (p->pending)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static uint8_t *mem_ptr(const wg_mem *m) {
    return m->block && m->block->map ? m->block->map + m->offset : NULL;
}

static VkResult make_vk_buffer(wg_device *dev, uint64_t size, VkBufferUsageFlags usage, wg_mem_kind kind,
                               VkBuffer *out, wg_mem *mem, wg_error_id *eid) {
    VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage,
                               .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    VkResult r = dev->vk.vkCreateBuffer(dev->device, &bci, NULL, out);
    if (r != VK_SUCCESS) {
        *eid = r == VK_ERROR_OUT_OF_HOST_MEMORY ? WG_ERR_HOST_OOM : WG_ERR_DEVICE_OOM;
        *out = VK_NULL_HANDLE;
        return r;
    }
    VkMemoryRequirements req;
    dev->vk.vkGetBufferMemoryRequirements(dev->device, *out, &req);
    *eid = wg__mem_alloc(dev, &req, kind, mem);
    if (*eid == WG_ERR_NONE) {
        r = dev->vk.vkBindBufferMemory(dev->device, *out, mem->block->mem, mem->offset);
        if (r == VK_SUCCESS)
            return VK_SUCCESS;
        wg__mem_free(dev, mem);
        *eid = WG_ERR_DEVICE_OOM;
    }
    dev->vk.vkDestroyBuffer(dev->device, *out, NULL);
    *out = VK_NULL_HANDLE;
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

static const VkBufferUsageFlags all_vk_usage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
    VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;

wg_buffer *wg_device_create_buffer(wg_device *dev, const wg_buffer_desc *desc) {
    if (!dev)
        return NULL;
    static const wg_buffer_desc zero;
    if (!desc)
        desc = &zero;
    wg_buffer *b = wg__obj_new(dev, WG_OBJ_BUFFER, sizeof *b, desc->label);
    if (!b)
        return NULL;
    uint32_t usage = desc->usage ? desc->usage : WG_BUFFER_USAGE_DEFAULT;
    b->size = desc->size;
    b->usage = usage;
    b->o.invalid = true;
    if (dev->lost)
        return b;
    if (usage & ~known_usage) {
        wg__err(dev, WG_ERR_BUFFER_USAGE_INVALID, "buffer '%s' usage 0x%x", wg__label(b), usage);
        return b;
    }
    if (((usage & WG_BUFFER_USAGE_MAP_READ) && (usage & ~(WG_BUFFER_USAGE_MAP_READ | WG_BUFFER_USAGE_COPY_DST))) ||
        ((usage & WG_BUFFER_USAGE_MAP_WRITE) && (usage & ~(WG_BUFFER_USAGE_MAP_WRITE | WG_BUFFER_USAGE_COPY_SRC)))) {
        wg__err(dev, WG_ERR_BUFFER_MAP_USAGE_MIX, "buffer '%s' usage 0x%x", wg__label(b), usage);
        return b;
    }
    if (desc->size > dev->limits.max_buffer_size) {
        wg__err(dev, WG_ERR_BUFFER_TOO_LARGE, "buffer '%s' size %llu > maxBufferSize %llu", wg__label(b),
                (unsigned long long)desc->size, (unsigned long long)dev->limits.max_buffer_size);
        return b;
    }
    if (desc->mapped_at_creation && desc->size % 4) {
        wg__err(dev, WG_ERR_MAPPED_SIZE_ALIGN, "buffer '%s' size %llu", wg__label(b), (unsigned long long)desc->size);
        return b;
    }
    uint64_t vsize = desc->size < 4 ? 4 : (desc->size + 3) & ~3ull;
    wg_mem_kind kind = (usage & WG_BUFFER_USAGE_MAP_READ) ? WG_MEM_READBACK
                       : (usage & WG_BUFFER_USAGE_MAP_WRITE) ? WG_MEM_UPLOAD : WG_MEM_DEVICE;
    wg_error_id eid;
    if (make_vk_buffer(dev, vsize, all_vk_usage, kind, &b->vk, &b->mem, &eid) != VK_SUCCESS) {
        wg__err(dev, eid, "buffer '%s' of %llu bytes", wg__label(b), (unsigned long long)desc->size);
        return b;
    }
    uint8_t *p = mem_ptr(&b->mem);
    if (p) {
        memset(p, 0, vsize);
    } else {
        VkCommandBuffer cb = wg__pending_cb(dev);
        if (!cb) {
            dev->vk.vkDestroyBuffer(dev->device, b->vk, NULL);
            wg__mem_free(dev, &b->mem);
            b->vk = VK_NULL_HANDLE;
            return b;
        }
        wg__pending_write(dev, b, 0, vsize);
        dev->vk.vkCmdFillBuffer(cb, b->vk, 0, VK_WHOLE_SIZE, 0);
        b->o.last_use = dev->next_serial;
    }
    if (desc->mapped_at_creation) {
        if (!p) {
            b->shadow = wg__calloc(&dev->alloc, vsize);
            if (!b->shadow) {
                wg__err(dev, WG_ERR_HOST_OOM, "mapped_at_creation shadow of buffer '%s'", wg__label(b));
                wg_garbage g = { .kind = WG_GARBAGE_BUFFER, .serial = b->o.last_use, .handle = (uint64_t)(uintptr_t)b->vk, .mem = b->mem };
                wg__defer(dev, &g);
                b->vk = VK_NULL_HANDLE;
                return b;
            }
        }
        b->map_state = WG_MAP_MAPPED;
        b->map_mode = WG_MAP_MODE_WRITE;
        b->map_offset = 0;
        b->map_size = desc->size;
    }
    dev->stats.buffer_bytes += b->mem.size;
    b->o.invalid = false;
    return b;
}

static void map_list_remove(wg_device *dev, wg_buffer *b) {
    for (wg_buffer **pp = &dev->map_list; *pp; pp = &(*pp)->map_next)
        if (*pp == b) {
            *pp = b->map_next;
            b->map_next = NULL;
            return;
        }
}

static void map_abort(wg_buffer *b, wg_map_status status) {
    if (b->map_state != WG_MAP_PENDING)
        return;
    map_list_remove(b->o.dev, b);
    b->map_state = WG_MAP_UNMAPPED;
    if (b->map_cb)
        b->map_cb(b->map_user, status);
}

static void release_memory(wg_buffer *b) {
    wg_device *dev = b->o.dev;
    if (!b->vk)
        return;
    dev->stats.buffer_bytes -= b->mem.size;
    wg_garbage g = { .kind = WG_GARBAGE_BUFFER, .serial = b->o.last_use, .handle = (uint64_t)(uintptr_t)b->vk, .mem = b->mem };
    wg__defer(dev, &g);
    b->vk = VK_NULL_HANDLE;
    b->mem.block = NULL;
}

void wg__buffer_free(wg_obj *o) {
    wg_buffer *b = (wg_buffer *)o;
    map_abort(b, WG_MAP_STATUS_ABORTED);
    wg__free(&o->dev->alloc, b->shadow);
    release_memory(b);
}

void wg_buffer_destroy(wg_buffer *b) {
    if (b && b->o.kind != WG_OBJ_BUFFER) {  /* released (see keep_released in device.c) */
        wg__err(b->o.dev, WG_ERR_OBJECT_RELEASED, "wg_buffer_destroy: buffer '%s' was already released",
                wg__label(b));
        return;
    }
    if (!b || b->o.invalid || b->destroyed)
        return;
    map_abort(b, WG_MAP_STATUS_ABORTED);
    b->map_state = WG_MAP_UNMAPPED;
    wg__free(&b->o.dev->alloc, b->shadow);
    b->shadow = NULL;
    b->destroyed = true;
    release_memory(b);
}

uint64_t wg_buffer_get_size(const wg_buffer *b) {
    return b ? b->size : 0;
}
uint32_t wg_buffer_get_usage(const wg_buffer *b) {
    return b ? b->usage : 0;
}
bool wg_buffer_is_valid(const wg_buffer *b) {
    return b && !b->o.invalid;
}

bool wg__buffer_usable(wg_device *dev, wg_buffer *b, uint32_t usage, const char *what) {
    if (!wg__check_obj(dev, b, what))
        return false;
    if (b->destroyed) {
        wg__err(dev, WG_ERR_BUFFER_DESTROYED, "%s '%s'", what, wg__label(b));
        return false;
    }
    if (usage && !(b->usage & usage)) {
        wg__err(dev, WG_ERR_BUFFER_USAGE_MISSING, "%s '%s' has usage 0x%x, needs 0x%x", what, wg__label(b), b->usage,
                usage);
        return false;
    }
    return true;
}

/* ---- mapping ------------------------------------------------------------------------------ */
static void map_fail(wg_buffer_map_callback cb, void *user, wg_map_status st) {
    if (cb)
        cb(user, st);
}

void wg_buffer_map_async(wg_buffer *b, wg_map_mode mode, uint64_t offset, uint64_t size, wg_buffer_map_callback cb,
                         void *user) {
    if (!b) {
        map_fail(cb, user, WG_MAP_STATUS_VALIDATION_ERROR);
        return;
    }
    wg_device *dev = b->o.dev;
    if (dev->lost) {
        map_fail(cb, user, WG_MAP_STATUS_DEVICE_LOST);
        return;
    }
    if (!wg__check_obj(dev, b, "buffer")) {
        map_fail(cb, user, WG_MAP_STATUS_VALIDATION_ERROR);
        return;
    }
    wg_error_id e = WG_ERR_NONE;
    if (size == WG_WHOLE_SIZE)
        size = offset <= b->size ? b->size - offset : 0;
    if (b->destroyed)
        e = WG_ERR_BUFFER_DESTROYED;
    else if (b->map_state != WG_MAP_UNMAPPED)
        e = WG_ERR_BUFFER_MAPPED;
    else if ((mode != WG_MAP_MODE_READ && mode != WG_MAP_MODE_WRITE) ||
             (mode == WG_MAP_MODE_READ && !(b->usage & WG_BUFFER_USAGE_MAP_READ)) ||
             (mode == WG_MAP_MODE_WRITE && !(b->usage & WG_BUFFER_USAGE_MAP_WRITE)))
        e = WG_ERR_MAP_MODE_INVALID;
    else if (offset % 8)
        e = WG_ERR_UNALIGNED_OFFSET;
    else if (size % 4)
        e = WG_ERR_UNALIGNED_SIZE;
    else if (offset > b->size || size > b->size - offset)
        e = WG_ERR_RANGE_OUT_OF_BOUNDS;
    if (e) {
        wg__err(dev, e, "map_async of buffer '%s' (mode %d, offset %llu, size %llu)", wg__label(b), (int)mode,
                (unsigned long long)offset, (unsigned long long)size);
        map_fail(cb, user, WG_MAP_STATUS_VALIDATION_ERROR);
        return;
    }
    if (b->o.last_use >= dev->next_serial)
        wg__flush_pending(dev);
    b->map_state = WG_MAP_PENDING;
    b->map_mode = mode;
    b->map_offset = offset;
    b->map_size = size;
    b->map_serial = b->o.last_use;
    b->map_cb = cb;
    b->map_user = user;
    b->map_next = dev->map_list;
    dev->map_list = b;
}

void wg__buffer_complete_maps(wg_device *dev) {
    wg_buffer *ready = NULL;
    for (wg_buffer **pp = &dev->map_list; *pp;) {
        wg_buffer *b = *pp;
        if (b->map_serial <= dev->completed) {
            *pp = b->map_next;
            b->map_next = ready;
            ready = b;
        } else {
            pp = &b->map_next;
        }
    }
    while (ready) {
        wg_buffer *b = ready;
        ready = b->map_next;
        b->map_next = NULL;
        b->map_state = WG_MAP_MAPPED;
        if (!wg__mem_host_coherent(dev, &b->mem)) {
            VkMappedMemoryRange r = { .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = b->mem.block->mem,
                                      .offset = 0, .size = VK_WHOLE_SIZE };
            dev->vk.vkInvalidateMappedMemoryRanges(dev->device, 1, &r);
        }
        if (b->map_cb)
            b->map_cb(b->map_user, WG_MAP_STATUS_SUCCESS);
    }
}

void wg__buffer_reject_maps(wg_device *dev, wg_map_status status) {
    while (dev->map_list)
        map_abort(dev->map_list, status);
}

static void *mapped_range(wg_buffer *b, uint64_t offset, uint64_t size) {
    if (!b)
        return NULL;
    wg_device *dev = b->o.dev;
    if (!wg__check_obj(dev, b, "buffer"))
        return NULL;
    if (size == WG_WHOLE_SIZE)
        size = offset <= b->map_offset + b->map_size ? b->map_offset + b->map_size - offset : 0;
    wg_error_id e = WG_ERR_NONE;
    if (b->map_state != WG_MAP_MAPPED)
        e = WG_ERR_BUFFER_NOT_MAPPED;
    else if (offset % 8)
        e = WG_ERR_UNALIGNED_OFFSET;
    else if (size % 4)
        e = WG_ERR_UNALIGNED_SIZE;
    else if (offset < b->map_offset || offset > b->map_offset + b->map_size ||
             size > b->map_offset + b->map_size - offset)
        e = WG_ERR_MAPPED_RANGE_INVALID;
    if (e) {
        wg__err(dev, e, "mapped range of buffer '%s' (offset %llu, size %llu)", wg__label(b),
                (unsigned long long)offset, (unsigned long long)size);
        return NULL;
    }
    return b->shadow ? b->shadow + offset : mem_ptr(&b->mem) + offset;
}

void *wg_buffer_get_mapped_range(wg_buffer *b, uint64_t offset, uint64_t size) {
    return mapped_range(b, offset, size);
}
const void *wg_buffer_get_const_mapped_range(wg_buffer *b, uint64_t offset, uint64_t size) {
    return mapped_range(b, offset, size);
}

void wg_buffer_unmap(wg_buffer *b) {
    if (!b || b->o.invalid)
        return;
    wg_device *dev = b->o.dev;
    if (b->map_state == WG_MAP_PENDING) {
        map_abort(b, WG_MAP_STATUS_ABORTED);
        return;
    }
    if (b->map_state != WG_MAP_MAPPED)
        return;
    b->map_state = WG_MAP_UNMAPPED;
    if (b->shadow) {
        uint8_t *s = b->shadow;
        b->shadow = NULL;
        wg_queue_write_buffer(&dev->queue, b, 0, s, (b->size + 3) & ~3ull);
        wg__free(&dev->alloc, s);
    } else if (b->map_mode == WG_MAP_MODE_WRITE && !wg__mem_host_coherent(dev, &b->mem)) {
        VkMappedMemoryRange r = { .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = b->mem.block->mem,
                                  .offset = 0, .size = VK_WHOLE_SIZE };
        dev->vk.vkFlushMappedMemoryRanges(dev->device, 1, &r);
    }
}

/* ---- staging ring and queue writes ------------------------------------------------------- */
static bool ring_init(wg_device *dev) {
    if (dev->ring_buf)
        return true;
    wg_error_id eid;
    if (make_vk_buffer(dev, dev->ring_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, WG_MEM_UPLOAD, &dev->ring_buf,
                       &dev->ring_mem, &eid) != VK_SUCCESS) {
        wg__err(dev, eid, "staging ring of %llu bytes", (unsigned long long)dev->ring_size);
        return false;
    }
    dev->ring_head = dev->ring_tail = 0;
    dev->ring_first = dev->ring_count = 0;
    return true;
}

/* Reserves n bytes (n <= ring size); returns the ring offset or UINT64_MAX on failure. */
static uint64_t ring_reserve(wg_device *dev, uint64_t n) {
    const uint64_t R = dev->ring_size;
    for (;;) {
        while (dev->ring_count && dev->ring_spans[dev->ring_first].serial <= dev->completed) {
            dev->ring_tail = dev->ring_spans[dev->ring_first].end;
            dev->ring_first = (dev->ring_first + 1) % 256;
            dev->ring_count--;
        }
        if (!dev->ring_count)
            dev->ring_tail = dev->ring_head;
        uint64_t pos = dev->ring_head % R;
        uint64_t pad = pos + n > R ? R - pos : 0;
        if (dev->ring_head + pad + n - dev->ring_tail <= R && dev->ring_count < 255) {
            dev->ring_head += pad;
            uint64_t off = dev->ring_head % R;
            dev->ring_head += n;
            uint32_t last = (dev->ring_first + dev->ring_count + 255) % 256;
            if (dev->ring_count && dev->ring_spans[last].serial == dev->next_serial) {
                dev->ring_spans[last].end = dev->ring_head;
            } else {
                uint32_t at = (dev->ring_first + dev->ring_count) % 256;
                dev->ring_spans[at].end = dev->ring_head;
                dev->ring_spans[at].serial = dev->next_serial;
                dev->ring_count++;
            }
            return off;
        }
        uint64_t s = dev->ring_spans[dev->ring_first].serial;
        if (s >= dev->next_serial && !wg__flush_pending(dev))
            return UINT64_MAX;
        if (wg__wait_serial(dev, s, UINT64_MAX) != WG_STATUS_OK)
            return UINT64_MAX;
    }
}

void wg_queue_write_buffer(wg_queue *q, wg_buffer *b, uint64_t offset, const void *data, uint64_t size) {
    if (!q)
        return;
    wg_device *dev = q->dev;
    if (dev->lost || !wg__buffer_usable(dev, b, WG_BUFFER_USAGE_COPY_DST, "write_buffer destination"))
        return;
    wg_error_id e = WG_ERR_NONE;
    if (offset % 4)
        e = WG_ERR_UNALIGNED_OFFSET;
    else if (size % 4)
        e = WG_ERR_UNALIGNED_SIZE;
    else if (offset > b->size || size > b->size - offset)
        e = WG_ERR_RANGE_OUT_OF_BOUNDS;
    else if (!data && size)
        e = WG_ERR_WRITE_NULL_DATA;
    else if (b->map_state != WG_MAP_UNMAPPED)
        e = WG_ERR_BUFFER_MAPPED;
    if (e) {
        wg__err(dev, e, "write_buffer to '%s' (offset %llu, size %llu)", wg__label(b), (unsigned long long)offset,
                (unsigned long long)size);
        return;
    }
    if (!size)
        return;
    uint8_t *direct = mem_ptr(&b->mem);
    if (direct && wg__mem_host_coherent(dev, &b->mem) && b->o.last_use < dev->next_serial) {
        if (b->o.last_use > dev->completed)
            wg__retire(dev);
        if (b->o.last_use <= dev->completed) {
            big_memcpy(dev, direct + offset, data, size);
            return;
        }
    }
    if (!ring_init(dev))
        return;
    const uint8_t *src = data;
    /* Big writes go in quarter-ring chunks, each submitted at once, so the GPU copies one chunk
     * while the host fills the next. */
    const uint64_t max_chunk = size > dev->ring_size / 2 ? dev->ring_size / 4 : dev->ring_size;
    while (size) {
        uint64_t chunk = size < max_chunk ? size : max_chunk;
        uint64_t at = ring_reserve(dev, chunk);
        if (at == UINT64_MAX)
            return;
        VkCommandBuffer cb = wg__pending_cb(dev);
        if (!cb)
            return;
        big_memcpy(dev, mem_ptr(&dev->ring_mem) + at, src, chunk);
        wg__pending_write(dev, b, offset, offset + chunk);
        VkBufferCopy region = { at, offset, chunk };
        dev->vk.vkCmdCopyBuffer(cb, dev->ring_buf, b->vk, 1, &region);
        b->o.last_use = dev->next_serial;
        src += chunk;
        offset += chunk;
        size -= chunk;
        if (size && max_chunk < dev->ring_size)
            wg__flush_pending(dev);
    }
}

/* ---- blocking readback -------------------------------------------------------------------- */
/* Submits a copy of n bytes of b at src into the readback buffer at dst; the serial, 0 on failure. */
static uint64_t rb_copy(wg_device *dev, wg_buffer *b, uint64_t src, uint64_t dst, uint64_t n) {
    VkCommandBuffer cb = wg__cmd_acquire(dev);
    if (!cb)
        return 0;
    VkBufferCopy region = { src, dst, n };
    dev->vk.vkCmdCopyBuffer(cb, b->vk, dev->rb_buf, 1, &region);
    wg__barrier(dev, cb, true);
    VkResult r = dev->vk.vkEndCommandBuffer(cb);
    uint64_t serial = r == VK_SUCCESS ? wg__submit(dev, &cb, 1) : 0;
    if (!serial) {
        wg__check_vk(dev, r, "vkEndCommandBuffer");
        wg__cmd_recycle(dev, cb);
    }
    return serial;
}

wg_status wg_buffer_read(wg_buffer *b, uint64_t offset, void *dst, uint64_t size) {
    if (!b)
        return WG_STATUS_ERROR;
    wg_device *dev = b->o.dev;
    if (dev->lost)
        return WG_STATUS_DEVICE_LOST;
    if (!wg__buffer_usable(dev, b, 0, "buffer_read source"))
        return WG_STATUS_ERROR;
    wg_error_id e = WG_ERR_NONE;
    if (!(b->usage & (WG_BUFFER_USAGE_COPY_SRC | WG_BUFFER_USAGE_MAP_READ)))
        e = WG_ERR_BUFFER_USAGE_MISSING;
    else if (b->map_state != WG_MAP_UNMAPPED)
        e = WG_ERR_BUFFER_MAPPED;
    else if (offset > b->size || size > b->size - offset)
        e = WG_ERR_RANGE_OUT_OF_BOUNDS;
    else if (!dst && size)
        e = WG_ERR_WRITE_NULL_DATA;
    if (e) {
        wg__err(dev, e, "buffer_read of '%s' (offset %llu, size %llu)", wg__label(b), (unsigned long long)offset,
                (unsigned long long)size);
        return WG_STATUS_ERROR;
    }
    if (!size)
        return WG_STATUS_OK;
    if (b->o.last_use >= dev->next_serial)
        wg__flush_pending(dev);
    wg_status st = wg__wait_serial(dev, b->o.last_use, UINT64_MAX);
    if (st != WG_STATUS_OK)
        return st;
    uint8_t *p = mem_ptr(&b->mem);
    if (p) {
        if (!wg__mem_host_coherent(dev, &b->mem)) {
            VkMappedMemoryRange r = { .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = b->mem.block->mem,
                                      .offset = 0, .size = VK_WHOLE_SIZE };
            dev->vk.vkInvalidateMappedMemoryRanges(dev->device, 1, &r);
        }
        big_memcpy(dev, dst, p + offset, size);
        return WG_STATUS_OK;
    }
    /* Device-only memory: through the readback buffer, double-buffered: the GPU copies chunk
     * i+1 into one half while the host copies chunk i out of the other. */
    uint64_t a0 = offset & ~3ull, a1 = (offset + size + 3) & ~3ull, total = a1 - a0;
    uint64_t C = total < (32ull << 20) ? total : 32ull << 20;
    uint64_t nchunks = (total + C - 1) / C, need = nchunks > 1 ? 2 * C : C;
    if (dev->rb_size < need) {
        if (dev->rb_buf) {
            wg_garbage g = { .kind = WG_GARBAGE_BUFFER, .serial = dev->completed,
                              .handle = (uint64_t)(uintptr_t)dev->rb_buf, .mem = dev->rb_mem };
            wg__defer(dev, &g);
            dev->rb_buf = VK_NULL_HANDLE;
            dev->rb_size = 0;
        }
        uint64_t want = need < (1ull << 20) ? 1ull << 20 : need;
        wg_error_id eid;
        if (make_vk_buffer(dev, want, VK_BUFFER_USAGE_TRANSFER_DST_BIT, WG_MEM_READBACK, &dev->rb_buf, &dev->rb_mem,
                           &eid) != VK_SUCCESS) {
            wg__err(dev, eid, "readback buffer of %llu bytes", (unsigned long long)want);
            return WG_STATUS_ERROR;
        }
        dev->rb_size = want;
    }
    uint64_t serial[2] = { 0, 0 };
    uint8_t *out = dst;
    for (uint64_t i = 0; i < nchunks; i++) {
        for (uint64_t j = i ? i + 1 : 0; j <= i + 1 && j < nchunks; j++) {
            uint64_t c0 = a0 + j * C, n = a1 - c0 < C ? a1 - c0 : C;
            serial[j % 2] = rb_copy(dev, b, c0, (j % 2) * C, n);
            if (!serial[j % 2])
                return dev->lost ? WG_STATUS_DEVICE_LOST : WG_STATUS_ERROR;
        }
        st = wg__wait_serial(dev, serial[i % 2], UINT64_MAX);
        if (st != WG_STATUS_OK)
            return st;
        if (!wg__mem_host_coherent(dev, &dev->rb_mem)) {
            VkMappedMemoryRange mr = { .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                                       .memory = dev->rb_mem.block->mem, .offset = 0, .size = VK_WHOLE_SIZE };
            dev->vk.vkInvalidateMappedMemoryRanges(dev->device, 1, &mr);
        }
        uint64_t c0 = a0 + i * C, c1 = c0 + C < a1 ? c0 + C : a1;
        uint64_t from = offset > c0 ? offset : c0, to = offset + size < c1 ? offset + size : c1;
        big_memcpy(dev, out, mem_ptr(&dev->rb_mem) + (i % 2) * C + (from - c0), to - from);
        out += to - from;
    }
    return WG_STATUS_OK;
}

void wg__staging_destroy(wg_device *dev) {
    pool_destroy(dev);
    if (dev->ring_buf) {
        if (!dev->abandoned)
            dev->vk.vkDestroyBuffer(dev->device, dev->ring_buf, NULL);
        wg__mem_free(dev, &dev->ring_mem);
        dev->ring_buf = VK_NULL_HANDLE;
    }
    if (dev->rb_buf) {
        if (!dev->abandoned)
            dev->vk.vkDestroyBuffer(dev->device, dev->rb_buf, NULL);
        wg__mem_free(dev, &dev->rb_mem);
        dev->rb_buf = VK_NULL_HANDLE;
    }
    if (dev->indirect_obj) {
        wg__obj_release(&dev->indirect_obj->o);
        dev->indirect_obj = NULL;
    }
}
