/* bindgroup.c - bind groups: buffer ranges checked against their layout (every binding exactly
 * once), the buffers' usages, offset alignment and the binding-size limits, then written into a
 * VkDescriptorSet from the device's descriptor pools (new pools are added as old ones fill).
 * A bind group keeps its buffers alive; its descriptor set is freed after the GPU is done. */
#include <stdio.h>

#include "gpu/internal.h"

static VkDescriptorPool pool_new(wg_device *dev) {
    if (!wg__grow(&dev->alloc, (void **)&dev->pools, &dev->cappools, dev->npools + 1, sizeof *dev->pools))
        return VK_NULL_HANDLE;
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2048 },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 512 },
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 256 },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 256 },
    };
    VkDescriptorPoolCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, .maxSets = 512,
                                      .poolSizeCount = 4, .pPoolSizes = sizes };
    VkDescriptorPool p;
    VkResult r = dev->vk.vkCreateDescriptorPool(dev->device, &ci, NULL, &p);
    if (r != VK_SUCCESS) {
        wg__check_vk(dev, r, "vkCreateDescriptorPool");
        return VK_NULL_HANDLE;
    }
    dev->pools[dev->npools++] = p;
    return p;
}

static bool set_alloc(wg_device *dev, VkDescriptorSetLayout layout, VkDescriptorSet *set, VkDescriptorPool *pool) {
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorSetCount = 1, .pSetLayouts = &layout };
    for (size_t i = dev->npools; i-- > 0;) {
        ai.descriptorPool = dev->pools[i];
        VkResult r = dev->vk.vkAllocateDescriptorSets(dev->device, &ai, set);
        if (r == VK_SUCCESS) {
            *pool = dev->pools[i];
            return true;
        }
        if (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL) {
            wg__check_vk(dev, r, "vkAllocateDescriptorSets");
            return false;
        }
    }
    ai.descriptorPool = pool_new(dev);
    if (!ai.descriptorPool)
        return false;
    VkResult r = dev->vk.vkAllocateDescriptorSets(dev->device, &ai, set);
    if (r != VK_SUCCESS) {
        wg__check_vk(dev, r, "vkAllocateDescriptorSets");
        return false;
    }
    *pool = ai.descriptorPool;
    return true;
}

wg_bind_group *wg_device_create_bind_group(wg_device *dev, const wg_bind_group_desc *desc) {
    if (!dev)
        return NULL;
    static const wg_bind_group_desc zero;
    if (!desc)
        desc = &zero;
    wg_bind_group *g = wg__obj_new(dev, WG_OBJ_BIND_GROUP, sizeof *g, desc->label);
    if (!g)
        return NULL;
    g->o.invalid = true;
    if (dev->lost || !wg__check_obj(dev, desc->layout, "bind group layout"))
        return g;
    wg_bind_group_layout *l = desc->layout;
    size_t n = desc->entries ? desc->entry_count : 0;
    const char *name = wg__label(g);
    if (desc->entry_count && !desc->entries) {
        wg__err(dev, WG_ERR_BIND_ENTRY_COUNT, "bind group '%s': entries is NULL", name);
        return g;
    }
    /* every entry names a layout binding, once; every layout binding has an entry */
    for (size_t i = 0; i < n; i++) {
        const wg_bind_group_entry *e = &desc->entries[i];
        bool in_layout = false;
        for (size_t k = 0; k < l->n; k++)
            in_layout |= l->entries[k].binding == e->binding;
        if (!in_layout) {
            wg__err(dev, WG_ERR_BIND_ENTRY_EXTRA, "bind group '%s' binding %u not in layout '%s'", name, e->binding,
                    wg__label(l));
            return g;
        }
        for (size_t j = 0; j < i; j++)
            if (desc->entries[j].binding == e->binding) {
                wg__err(dev, WG_ERR_BIND_ENTRY_DUPLICATE, "bind group '%s' binding %u", name, e->binding);
                return g;
            }
    }
    if (n != l->n) {
        wg__err(dev, WG_ERR_BIND_ENTRY_MISSING, "bind group '%s' has %zu entries, layout '%s' has %zu", name, n,
                wg__label(l), l->n);
        return g;
    }
    g->entries = n <= sizeof g->inline_entries / sizeof g->inline_entries[0]
                     ? g->inline_entries : wg__calloc(&dev->alloc, n * sizeof *g->entries);
    if (!g->entries) {
        wg__err(dev, WG_ERR_HOST_OOM, "bind group '%s'", name);
        return g;
    }
    VkDescriptorBufferInfo infos_stack[32], *infos = infos_stack;
    VkWriteDescriptorSet writes_stack[32], *writes = writes_stack;
    if (n > 32) {
        infos = wg__alloc(&dev->alloc, n * sizeof *infos);
        writes = wg__alloc(&dev->alloc, n * sizeof *writes);
        if (!infos || !writes) {
            wg__err(dev, WG_ERR_HOST_OOM, "bind group '%s'", name);
            goto out;
        }
    }
    for (size_t k = 0; k < l->n; k++) {
        const wg_set_layout_entry *le = &l->entries[k];
        const wg_bind_group_entry *e = NULL;
        for (size_t i = 0; i < n; i++)
            if (desc->entries[i].binding == le->binding)
                e = &desc->entries[i];
        bool uniform = le->type == WG_BINDING_TYPE_UNIFORM;
        uint32_t usage = uniform ? WG_BUFFER_USAGE_UNIFORM : WG_BUFFER_USAGE_STORAGE;
        wg_buffer *b = e->buffer;
        if (!b || b->o.kind != WG_OBJ_BUFFER || b->o.dev != dev || b->o.invalid || b->destroyed ||
            !(b->usage & usage)) {
            char what[96];  /* the message is only formatted on the error path */
            snprintf(what, sizeof what, "bind group '%.40s' binding %u buffer", name, le->binding);
            if (!wg__buffer_usable(dev, b, usage, what))
                goto out;
        }
        uint64_t align = uniform ? dev->limits.min_uniform_buffer_offset_alignment
                                 : dev->limits.min_storage_buffer_offset_alignment;
        uint64_t maxsize = uniform ? dev->limits.max_uniform_buffer_binding_size
                                   : dev->limits.max_storage_buffer_binding_size;
        uint64_t size = e->size;
        if (size == 0 || size == WG_WHOLE_SIZE)
            size = e->offset <= b->size ? b->size - e->offset : 0;
        wg_error_id err = WG_ERR_NONE;
        if (e->offset % align)
            err = WG_ERR_UNALIGNED_OFFSET;
        else if (e->offset > b->size || size > b->size - e->offset)
            err = WG_ERR_RANGE_OUT_OF_BOUNDS;
        else if (size == 0)
            err = WG_ERR_BIND_SIZE_ZERO;
        else if (!uniform && size % 4)
            err = WG_ERR_BIND_SIZE_ALIGN;
        else if (size > maxsize)
            err = WG_ERR_BIND_SIZE_LIMIT;
        else if (size < le->min_size)
            err = WG_ERR_BIND_SIZE_MIN;
        if (err) {   /* the message names the limit it hit */
            char why[96] = "";
            const char *kind = uniform ? "Uniform" : "Storage";
            if (err == WG_ERR_UNALIGNED_OFFSET)
                snprintf(why, sizeof why, ": offset not a multiple of min%sBufferOffsetAlignment %llu", kind,
                         (unsigned long long)align);
            else if (err == WG_ERR_BIND_SIZE_LIMIT)
                snprintf(why, sizeof why, ": above max%sBufferBindingSize %llu", kind, (unsigned long long)maxsize);
            else if (err == WG_ERR_BIND_SIZE_MIN)
                snprintf(why, sizeof why, ": below the layout's min_binding_size %llu", (unsigned long long)le->min_size);
            else if (err == WG_ERR_RANGE_OUT_OF_BOUNDS)
                snprintf(why, sizeof why, ": the buffer has %llu bytes", (unsigned long long)b->size);
            wg__err(dev, err, "bind group '%s' binding %u: buffer '%s' offset %llu size %llu%s", name, le->binding,
                    wg__label(b), (unsigned long long)e->offset, (unsigned long long)size, why);
            goto out;
        }
        g->entries[k] = (struct wg_bg_entry){ le->binding, le->type, le->dynamic, b, e->offset, size };
        infos[k] = (VkDescriptorBufferInfo){ b->vk, e->offset, uniform ? size : (size + 3) & ~3ull };
        writes[k] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = le->binding,
                                            .descriptorCount = 1,
                                            .descriptorType = uniform ? (le->dynamic ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
                                                                                     : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)
                                                                      : (le->dynamic ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC
                                                                                     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                                            .pBufferInfo = &infos[k] };
    }
    wg_cached_set_layout *cached = &dev->set_layouts[l->cache_index];
    if (cached->nfree) {
        struct wg_free_set fs = cached->free_sets[--cached->nfree];
        g->set = fs.set;
        g->pool = fs.pool;
    } else if (!set_alloc(dev, l->vk, &g->set, &g->pool)) {
        if (!dev->lost)
            wg__err(dev, WG_ERR_HOST_OOM, "bind group '%s' descriptor set", name);
        g->set = VK_NULL_HANDLE;
        goto out;
    }
    for (size_t k = 0; k < l->n; k++)
        writes[k].dstSet = g->set;
    dev->vk.vkUpdateDescriptorSets(dev->device, (uint32_t)l->n, writes, 0, NULL);
    g->n = l->n;
    for (size_t k = 0; k < g->n; k++)
        wg__obj_retain(&g->entries[k].buffer->o);
    g->layout = l;
    wg__obj_retain(&l->o);
    g->o.invalid = false;
out:
    if (infos != infos_stack)
        wg__free(&dev->alloc, infos);
    if (writes != writes_stack)
        wg__free(&dev->alloc, writes);
    return g;
}

void wg__bind_group_free(wg_obj *o) {
    wg_bind_group *g = (wg_bind_group *)o;
    wg_device *dev = o->dev;
    if (g->set) {
        wg_garbage gb = { .kind = WG_GARBAGE_DESCRIPTOR_SET, .serial = o->last_use,
                          .handle = (uint64_t)(uintptr_t)g->set, .aux = (uint64_t)(uintptr_t)g->pool,
                          .aux2 = g->layout ? g->layout->cache_index + 1u : 0 };
        wg__defer(dev, &gb);
    }
    for (size_t k = 0; k < g->n; k++)
        wg__obj_release(&g->entries[k].buffer->o);
    if (g->layout)
        wg__obj_release(&g->layout->o);
    if (g->entries != g->inline_entries)
        wg__free(&dev->alloc, g->entries);
}
