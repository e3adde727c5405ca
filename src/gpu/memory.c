/* memory.c - GPU memory suballocation: a few large VkDeviceMemory blocks per memory type
 * (desc.memory_block_size; by default 1/64 of the device memory, 64 to 256 MiB), carved
 * first-fit from a sorted, coalescing free list; a buffer bigger than half a block gets a
 * dedicated block of its own.  Host-visible blocks are mapped once, persistently.  A request
 * larger than the memory type's heap fails without asking the driver; a failed
 * vkAllocateMemory is an out-of-memory error, not a crash.  Blocks are also kept apart by use
 * (device / upload / readback), so one memory type serving all three (lavapipe, resizable BAR)
 * still gets separate blocks. */
#include "gpu/internal.h"

static uint64_t align_up(uint64_t v, uint64_t a) {
    return a > 1 ? (v + a - 1) / a * a : v;
}

/* Memory types for kind in order of preference; returns how many. */
static uint32_t pick_types(const wg_adapter *ad, uint32_t bits, wg_mem_kind kind, uint32_t out[VK_MAX_MEMORY_TYPES]) {
    const VkPhysicalDeviceMemoryProperties *mp = &ad->mem;
    const VkMemoryPropertyFlags DL = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, HV = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                HC = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, CA = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    VkMemoryPropertyFlags need, prefer;
    switch (kind) {
    case WG_MEM_UPLOAD: need = HV | HC; prefer = 0; break;
    case WG_MEM_READBACK: need = HV; prefer = CA; break;
    default: need = 0; prefer = DL; break;
    }
    uint32_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
            VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
            if (!(bits & (1u << i)) || (f & need) != need || (f & VK_MEMORY_PROPERTY_PROTECTED_BIT))
                continue;
            bool preferred = (f & prefer) == prefer;
            if (preferred == (pass == 0))
                out[n++] = i;
        }
    return n;
}

static bool block_carve(wg_mem_block *b, uint64_t size, uint64_t align, uint64_t *off, const wg_allocator *a) {
    for (size_t i = 0; i < b->nfree; i++) {
        wg_range r = b->free[i];
        uint64_t start = align_up(r.offset, align);
        if (start + size > r.offset + r.size)
            continue;
        uint64_t left = start - r.offset, right = r.offset + r.size - (start + size);
        if (left && right) {
            if (!wg__grow(a, (void **)&b->free, &b->capfree, b->nfree + 1, sizeof *b->free))
                return false;
            memmove(&b->free[i + 2], &b->free[i + 1], (b->nfree - i - 1) * sizeof *b->free);
            b->free[i] = (wg_range){ r.offset, left };
            b->free[i + 1] = (wg_range){ start + size, right };
            b->nfree++;
        } else if (left) {
            b->free[i].size = left;
        } else if (right) {
            b->free[i] = (wg_range){ start + size, right };
        } else {
            memmove(&b->free[i], &b->free[i + 1], (b->nfree - i - 1) * sizeof *b->free);
            b->nfree--;
        }
        b->used += size;
        *off = start;
        return true;
    }
    return false;
}

/* Returns the range to the free list.  Cannot fail: coalescing with a neighbour needs no space,
 * and the array always has room for one more entry than the carve that created the range took. */
static void block_return(wg_mem_block *b, uint64_t off, uint64_t size, const wg_allocator *a) {
    size_t i = 0;
    while (i < b->nfree && b->free[i].offset < off)
        i++;
    bool merge_prev = i > 0 && b->free[i - 1].offset + b->free[i - 1].size == off;
    bool merge_next = i < b->nfree && off + size == b->free[i].offset;
    b->used -= size;
    if (merge_prev && merge_next) {
        b->free[i - 1].size += size + b->free[i].size;
        memmove(&b->free[i], &b->free[i + 1], (b->nfree - i - 1) * sizeof *b->free);
        b->nfree--;
    } else if (merge_prev) {
        b->free[i - 1].size += size;
    } else if (merge_next) {
        b->free[i].offset = off;
        b->free[i].size += size;
    } else {
        if (!wg__grow(a, (void **)&b->free, &b->capfree, b->nfree + 1, sizeof *b->free)) {
            /* Out of host memory: the range is lost until the block dies (accounted as used). */
            b->used += size;
            return;
        }
        memmove(&b->free[i + 1], &b->free[i], (b->nfree - i) * sizeof *b->free);
        b->free[i] = (wg_range){ off, size };
        b->nfree++;
    }
}

static void block_destroy(wg_device *dev, wg_mem_block *b) {
    if (b->map && !dev->abandoned)
        dev->vk.vkUnmapMemory(dev->device, b->mem);
    if (!dev->abandoned)   /* lost by timeout: the GPU may still write it (device.c) */
        dev->vk.vkFreeMemory(dev->device, b->mem, NULL);
    dev->stats.memory_blocks--;
    dev->stats.memory_block_bytes -= b->size;
    wg__free(&dev->alloc, b->free);
    wg__free(&dev->alloc, b);
}

static wg_error_id block_new(wg_device *dev, uint32_t type, wg_mem_kind kind, uint64_t size, bool dedicated,
                             wg_mem_block **out) {
    if (!wg__grow(&dev->alloc, (void **)&dev->blocks, &dev->capblocks, dev->nblocks + 1, sizeof *dev->blocks))
        return WG_ERR_HOST_OOM;
    wg_mem_block *b = wg__calloc(&dev->alloc, sizeof *b);
    if (!b)
        return WG_ERR_HOST_OOM;
    b->free = wg__alloc(&dev->alloc, 8 * sizeof *b->free);
    if (!b->free) {
        wg__free(&dev->alloc, b);
        return WG_ERR_HOST_OOM;
    }
    b->capfree = 8;
    VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = size,
                                 .memoryTypeIndex = type };
    VkResult r = dev->vk.vkAllocateMemory(dev->device, &mai, NULL, &b->mem);
    if (r != VK_SUCCESS) {
        wg__free(&dev->alloc, b->free);
        wg__free(&dev->alloc, b);
        if (r == VK_ERROR_DEVICE_LOST)
            wg__lose(dev, WG_DEVICE_LOST_DRIVER, "vkAllocateMemory returned VK_ERROR_DEVICE_LOST");
        return r == VK_ERROR_OUT_OF_HOST_MEMORY ? WG_ERR_HOST_OOM : WG_ERR_DEVICE_OOM;
    }
    if ((dev->adapter->mem.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
        !(kind == WG_MEM_DEVICE && dev->unmapped_device_memory)) {
        void *p = NULL;
        if (dev->vk.vkMapMemory(dev->device, b->mem, 0, VK_WHOLE_SIZE, 0, &p) != VK_SUCCESS) {
            dev->vk.vkFreeMemory(dev->device, b->mem, NULL);
            wg__free(&dev->alloc, b->free);
            wg__free(&dev->alloc, b);
            return WG_ERR_DEVICE_OOM;
        }
        b->map = p;
    }
    b->size = size;
    b->type = type;
    b->kind = kind;
    b->dedicated = dedicated;
    b->free[0] = (wg_range){ 0, size };
    b->nfree = 1;
    dev->blocks[dev->nblocks++] = b;
    dev->stats.memory_blocks++;
    dev->stats.memory_block_bytes += size;
    *out = b;
    return WG_ERR_NONE;
}

wg_error_id wg__mem_alloc(wg_device *dev, const VkMemoryRequirements *req, wg_mem_kind kind, wg_mem *out) {
    uint32_t types[VK_MAX_MEMORY_TYPES];
    uint32_t nt = pick_types(dev->adapter, req->memoryTypeBits, kind, types);
    uint64_t size = align_up(req->size, req->alignment);
    wg_error_id last = WG_ERR_DEVICE_OOM;
    for (uint32_t t = 0; t < nt; t++) {
        uint32_t type = types[t];
        uint32_t heap = dev->adapter->mem.memoryTypes[type].heapIndex;
        if (size > dev->adapter->mem.memoryHeaps[heap].size)
            continue;
        bool dedicated = size > dev->block_size / 2;
        if (!dedicated)
            for (size_t i = 0; i < dev->nblocks; i++) {
                wg_mem_block *b = dev->blocks[i];
                uint64_t off;
                if (b->type != type || b->kind != kind || b->dedicated || b->size - b->used < size)
                    continue;
                if (block_carve(b, size, req->alignment, &off, &dev->alloc)) {
                    *out = (wg_mem){ b, off, size };
                    return WG_ERR_NONE;
                }
            }
        wg_mem_block *b;
        last = block_new(dev, type, kind, dedicated ? size : dev->block_size, dedicated, &b);
        if (last == WG_ERR_HOST_OOM)
            return last;
        if (last != WG_ERR_NONE)
            continue;
        uint64_t off = 0;
        if (!block_carve(b, size, req->alignment, &off, &dev->alloc))
            return WG_ERR_HOST_OOM;  /* cannot happen on a fresh block */
        *out = (wg_mem){ b, off, size };
        return WG_ERR_NONE;
    }
    return last;
}

void wg__mem_free(wg_device *dev, wg_mem *m) {
    wg_mem_block *b = m->block;
    if (!b)
        return;
    block_return(b, m->offset, m->size, &dev->alloc);
    m->block = NULL;
    if (b->used)
        return;
    size_t same = 0, idx = 0;
    for (size_t i = 0; i < dev->nblocks; i++) {
        if (dev->blocks[i] == b)
            idx = i;
        else if (dev->blocks[i]->type == b->type && dev->blocks[i]->kind == b->kind && !dev->blocks[i]->dedicated)
            same++;
    }
    if (!b->dedicated && same == 0)
        return;  /* keep one empty block per type for reuse */
    dev->blocks[idx] = dev->blocks[--dev->nblocks];
    block_destroy(dev, b);
}

void wg__mem_destroy_all(wg_device *dev) {
    for (size_t i = 0; i < dev->nblocks; i++)
        block_destroy(dev, dev->blocks[i]);
    dev->nblocks = 0;
}

bool wg__mem_host_coherent(wg_device *dev, const wg_mem *m) {
    return m->block && (dev->adapter->mem.memoryTypes[m->block->type].propertyFlags &
                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}
