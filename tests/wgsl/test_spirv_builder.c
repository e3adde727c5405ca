/* test_spirv_builder.c - the SPIR-V builder alone: a hand-built compute module (bounds-checked
 * store of gid.x*2 into a runtime array) must pass spirv-val for Vulkan 1.1 and 1.3; types and
 * constants deduplicate; allocation failure at every allocation is reported and leaks nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wgsl/spirv.h"

static int live_allocs, fail_at, n_allocs;

static void *test_alloc(void *user, void *ptr, size_t old_size, size_t new_size) {
    (void)user; (void)old_size;
    if (!new_size) {
        if (ptr) live_allocs--;
        free(ptr);
        return NULL;
    }
    n_allocs++;
    if (fail_at && n_allocs == fail_at) return NULL;
    void *p = realloc(ptr, new_size);
    if (p && !ptr) live_allocs++;
    return p;
}

static void build(spv_builder *b) {
    spv_capability(b, SPV_CAP_Shader);
    spv_capability(b, SPV_CAP_Shader); /* deduplicated */
    spv_memory_model(b, SPV_ADDRESSING_LOGICAL, SPV_MEMORY_MODEL_GLSL450);
    uint32_t t_void = spv_type_void(b), t_u32 = spv_type_int(b, 32, 0);
    uint32_t t_uvec3 = spv_type_vector(b, t_u32, 3);
    uint32_t t_rta = spv_type_runtime_array(b, t_u32, 4);
    uint32_t t_rta2 = spv_type_runtime_array(b, t_u32, 4);
    CHECK(b->oom || t_rta == t_rta2);
    uint32_t t_blk = spv_type_struct(b, 1, &t_rta);
    SPV_DECORATE0(b, t_blk, SPV_DEC_Block);
    spv_member_decorate(b, t_blk, 0, SPV_DEC_Offset, 1, SPV_ARR_(0));
    spv_name(b, t_blk, "Buf");
    spv_member_name(b, t_blk, 0, "data");
    uint32_t p_blk = spv_type_pointer(b, SPV_SC_StorageBuffer, t_blk);
    uint32_t p_u32 = spv_type_pointer(b, SPV_SC_StorageBuffer, t_u32);
    uint32_t p_in = spv_type_pointer(b, SPV_SC_Input, t_uvec3);
    uint32_t buf = spv_global_var(b, p_blk, SPV_SC_StorageBuffer, 0);
    SPV_DECORATE(b, buf, SPV_DEC_DescriptorSet, 0);
    SPV_DECORATE(b, buf, SPV_DEC_Binding, 0);
    uint32_t gid = spv_global_var(b, p_in, SPV_SC_Input, 0);
    SPV_DECORATE(b, gid, SPV_DEC_BuiltIn, SPV_BUILTIN_GlobalInvocationId);
    uint32_t fn = spv_id(b);
    /* SPIR-V 1.4+ lists every global the entry point uses; before, only Input/Output */
    if (b->version >= SPV_VERSION_1_6)
        spv_entry_point(b, SPV_EXEC_MODEL_GLCOMPUTE, fn, "main", 2, SPV_ARR_(gid, buf));
    else
        spv_entry_point(b, SPV_EXEC_MODEL_GLCOMPUTE, fn, "main", 1, &gid);
    SPV_SEC(b, SPV_SEC_EXECUTION_MODE, SPV_OP_ExecutionMode, fn, SPV_EXEC_MODE_LOCAL_SIZE, 64, 1, 1);
    spv_fn_begin(b, fn, t_void, spv_type_function(b, t_void, 0, NULL));
    spv_fn_entry(b, spv_id(b));
    uint32_t t_fnptr = spv_type_pointer(b, SPV_SC_Function, t_u32);
    uint32_t local = spv_fn_var(b, t_fnptr, spv_const_u32(b, 7));
    uint32_t g = SPV_VAL(b, SPV_OP_Load, t_uvec3, gid);
    uint32_t x = SPV_VAL(b, SPV_OP_CompositeExtract, t_u32, g, 0);
    uint32_t len = SPV_VAL(b, SPV_OP_ArrayLength, t_u32, buf, 0);
    uint32_t ok = SPV_VAL(b, SPV_OP_ULessThan, spv_type_bool(b), x, len);
    uint32_t l_then = spv_id(b), l_merge = spv_id(b);
    SPV_OP(b, SPV_OP_SelectionMerge, l_merge, SPV_SELECTION_CONTROL_NONE);
    SPV_OP(b, SPV_OP_BranchConditional, ok, l_then, l_merge);
    CHECK(!b->block_open);
    spv_label(b, l_then);
    uint32_t v = SPV_VAL(b, SPV_OP_IMul, t_u32, x, spv_const_u32(b, 2));
    uint32_t seven = SPV_VAL(b, SPV_OP_Load, t_u32, local);
    uint32_t min = SPV_GLSL_CALL(b, t_u32, SPV_GLSL_UMin, v, seven);
    (void)min;
    uint32_t ptr = SPV_VAL(b, SPV_OP_AccessChain, p_u32, buf, spv_const_u32(b, 0), x);
    SPV_OP(b, SPV_OP_Store, ptr, v);
    SPV_OP(b, SPV_OP_Branch, l_merge);
    spv_label(b, l_merge);
    SPV_OP0(b, SPV_OP_Return);
    spv_fn_end(b);
    CHECK(b->oom || spv_const_u32(b, 2) == spv_const_u32(b, 2));
    CHECK(spv_const_u32(b, 2) != spv_const_i32(b, 2));
    CHECK(b->oom || spv_type_int(b, 32, 0) == t_u32);
}

static int validate(const uint32_t *w, size_t n, const char *env) {
    const char *dir = getenv("BUILD") ? getenv("BUILD") : "build";
    char path[512], cmd[1200];
    snprintf(path, sizeof path, "%s/tests/wgsl/builder-%s.spv", dir, env);
    FILE *f = fopen(path, "wb");
    if (!f) { fprintf(stderr, "cannot write %s\n", path); return -1; }
    fwrite(w, 4, n, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "spirv-val --target-env %s %s", env, path);
    return system(cmd);
}

int main(void) {
    spv_builder b;
    spv_init(&b, test_alloc, NULL, SPV_VERSION_1_3);
    build(&b);
    uint32_t *w;
    size_t n;
    CHECK_EQ_INT(spv_finish(&b, &w, &n), 0);
    CHECK(n > 5 && w[0] == SPV_MAGIC && w[3] == b.bound);
    CHECK_EQ_INT(validate(w, n, "vulkan1.1"), 0);
    test_alloc(NULL, w, n * 4, 0);
    spv_free(&b);
    CHECK_EQ_INT(live_allocs, 0);

    spv_init(&b, test_alloc, NULL, SPV_VERSION_1_6);
    build(&b);
    CHECK_EQ_INT(spv_finish(&b, &w, &n), 0);
    CHECK_EQ_INT(validate(w, n, "vulkan1.3"), 0);
    test_alloc(NULL, w, n * 4, 0);
    spv_free(&b);

    CHECK_STR(spv_op_name(SPV_OP_IAdd), "IAdd");
    CHECK(spv_op_name(9999) == NULL);

    /* fail each allocation in turn: an error, never a crash or a leak */
    int total = n_allocs;
    for (int k = 1; k < 40; k++) {
        n_allocs = 0;
        fail_at = k;
        live_allocs = 0;
        spv_init(&b, test_alloc, NULL, 0);
        build(&b);
        int rc = spv_finish(&b, &w, &n);
        if (rc == 0) test_alloc(NULL, w, n * 4, 0);
        spv_free(&b);
        CHECKF(live_allocs == 0, "leak after failing allocation %d", k);
        if (rc == 0) { CHECK(n_allocs < k); break; }
    }
    (void)total;
    return test_end();
}
