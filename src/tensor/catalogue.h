/* catalogue.h - the kernel catalogue: one row per kernel file of src/tensor/kernels/, everything
 * the C side knows about it in one place.  kernel.c builds the kernel from the row (which entry
 * point, which shared snippets go after it, which `enable` directives go before it, whether
 * wgc's compiler clamps its indices); the op files choose among rows by the condition the last
 * column states.  A file with no row here fails the build (its embedded text would be an unused
 * constant), and every row's file must exist.
 *
 * X(name, inputs, entry, shared1, shared2, needs, unclamped, when)
 *   name       kernels/<name>.wgsl; the enum value is WT_K_<name>
 *   inputs     storage inputs bound after the output (group 0, bindings 1..)
 *   entry      OWN: the file has `main` and declares its bindings; STD: it has `main`, and the
 *              prelude declares the standard bindings (out: array<SO>, read_write; then a, b, c:
 *              array<SA / SB / SC> for the inputs); MAP1 / MAP2: it defines `op`, and
 *              map1/map2.wgsl (standard bindings) or map1v4/map2v4.wgsl (vec4 ones, key.v4) are
 *              the entry point
 *   shared1/2  snippet files put after it (none: nothing)
 *   needs      NEEDS_F16: always `enable f16;` (else only when a dtype of the key is f16);
 *              NEEDS_SG: `enable subgroups;` and flash_sg.wgsl where the key's mode[2] bit 3 is
 *              set, else flash_nosg.wgsl's stand-ins; NEEDS_SGMAT: subgroup matrices
 *              (chromium_experimental_subgroup_matrix: VK_KHR_cooperative_matrix); NEEDS_WGMAT:
 *              workgroup matrices (wgc_workgroup_matrix: VK_NV_cooperative_matrix2); NEEDS_W2:
 *              binding 1 is read_write too (a second output), in pipeline layouts of its own
 *   unclamped  CLAMPED: wgc's compiler clamps every index (robustBufferAccess2 guards bindings
 *              anyway); UNCLAMPED: compiled without clamps, the file's header proves every index
 *              in range; a number: only keys whose op has one of those bits (the proof's case)
 *   when       which op runs it and when: the default's condition, or why it is a candidate
 *
 * Code the files repeat on purpose (`duplicates` over kernels/ lists 36 pairs): each kernel's
 * entry unpacks its own Params fields (flash2/3, flash_coop/x3, winograd, attention, conv_direct,
 * pool, scatter); loops unrolled inside one file (reduce4, matmul_coop, matmul2/3/4, flash2/3,
 * flash_x3, winograd); the scalar and vec4 forms of one op (reduce/reduce4, norm/norm4,
 * map1v4/map2v4); the tile loads of matmul2/3/4 and conv (scalar, 16-byte, swizzled, im2col
 * addressing: the H200's fastest forms, each measured alone); and flash_coop/flash_x3 beyond
 * flash_tc.wgsl: with more shared, the f16 kernel ran 71.3-71.9 TFLOP/s instead of 74.1-74.8 on
 * the H200 (NVIDIA's compiler gave it 231 registers instead of 243). */
#ifndef WT_CATALOGUE_H
#define WT_CATALOGUE_H

#define WT_KERNEL_CATALOGUE(X) \
    X(unary_f, 1, MAP1, none, none, 0, UNCLAMPED, \
      "unary float ops (exp ... gelu, clamp) and fused chains (batch.c, chain.wgsl): always") \
    X(unary_i, 1, MAP1, none, none, 0, UNCLAMPED, "unary ops on i32/u32 tensors: always") \
    X(binary_f, 2, MAP2, none, none, 0, UNCLAMPED, "binary float ops and *_scalar: always") \
    X(binary_i, 2, MAP2, none, none, 0, UNCLAMPED, "binary integer ops: always") \
    X(compare, 2, MAP2, none, none, 0, UNCLAMPED, "comparisons and logical ops: always") \
    X(where, 3, STD, none, none, 0, CLAMPED, "wt_where, masked_fill: always") \
    X(cast, 1, MAP1, none, none, 0, UNCLAMPED, "dtype casts, contiguous, clone: always") \
    X(fill, 0, STD, none, none, 0, CLAMPED, "full, arange, eye: always") \
    X(rand, 0, STD, none, none, 0, CLAMPED, "rand, randn (Philox-4x32-10): always") \
    X(reduce, 1, STD, reduce_index, none, 0, CLAMPED, \
      "reductions: where reduce4 cannot read 16-byte quads (any layout, 64-bit-wide args)") \
    X(reduce4, 1, OWN, reduce_index, none, 0, CLAMPED, \
      "sum/prod/max/min/mean of 32-bit inputs with quad-aligned contiguous rows") \
    X(scan, 2, STD, none, none, 0, CLAMPED, "cumsum: always") \
    X(topk, 2, OWN, none, none, NEEDS_W2, CLAMPED, \
      "topk: always (radix select and a bitonic sort in one workgroup per row, k <= 1024)") \
    X(copy, 1, STD, none, none, 0, CLAMPED, "cat, stack, strided copies: where copy4 cannot") \
    X(pad, 1, STD, none, none, 0, CLAMPED, "pad (all modes): always") \
    X(gather, 2, STD, none, none, 0, CLAMPED, "gather, index_select, embedding: always") \
    X(scatter, 2, OWN, none, none, 0, CLAMPED, "scatter_add: always") \
    X(optim, 3, OWN, none, none, NEEDS_W2, CLAMPED, \
      "optimizer steps with state, parameter and state in one dispatch (SGD with momentum, " \
      "Adam, AdamW): always") \
    X(optim1, 2, OWN, none, none, 0, CLAMPED, \
      "in-place writes: plain SGD steps, clip_grad_norm's scale, copies into existing tensors " \
      "(checkpoint load): always") \
    X(amp, 1, OWN, none, none, NEEDS_W2, CLAMPED, \
      "GradScaler: gradients unscaled in place with the inf/NaN flag set on the GPU, and the " \
      "scale's update (amp.c): always") \
    X(transpose, 1, STD, none, none, 0, CLAMPED, "contiguous copy of a last-two-dims transpose: always") \
    X(copy4, 1, OWN, none, none, 0, CLAMPED, \
      "copies whose innermost dim, offsets and strides are quad-aligned on both sides") \
    X(softmax, 1, STD, none, none, 0, CLAMPED, "softmax/log_softmax: where softmax4 cannot") \
    X(softmax4, 1, OWN, rows, none, 0, CLAMPED, \
      "softmax/log_softmax of contiguous rows, K % 4 == 0 (one pass over memory)") \
    X(norm, 3, STD, none, none, 0, CLAMPED, "layer_norm/rms_norm: where norm4 cannot") \
    X(norm4, 3, OWN, rows, none, 0, CLAMPED, "layer_norm/rms_norm of contiguous rows, K % 4 == 0") \
    X(rope, 2, STD, none, none, 0, CLAMPED, "rope: always") \
    X(attention, 3, OWN, none, none, 0, CLAMPED, \
      "plain attention's scale-and-mask pass: a mask tensor, D > 256 or Dv != D, or " \
      "WT_ATTENTION_PLAIN") \
    X(flash2, 3, OWN, none, none, 0, CLAMPED, \
      "flash attention (FMA) for D > 128, and for every D on devices with at most 32 KiB of " \
      "workgroup memory (lavapipe: flash3 fits there only in 4 groups, and compiles 3-40x " \
      "slower on llvmpipe)") \
    X(matmul2, 3, OWN, matmul_tile, matmul_step, 0, CLAMPED, \
      "products the 16-byte kernels cannot read in place: tile128x64w from 128 tiles (within " \
      "3% of the fastest at 4095x4097x1023, H200), else tile64x64u (also the tuner's " \
      "reference); tuner candidate tile128x128u, its pick for ragged x.W^T (1.04 ms against " \
      "1.17)") \
    X(matmul3, 3, OWN, matmul_tile, matmul_step, 0, CLAMPED, \
      "quad-aligned products that are not tile-exact: tile128x128v4w from 256 tiles (4096^3 " \
      "3.98 ms, H200), else tile64x64v4w (1024^3 72 us against 82; also the Winograd GEMMs)") \
    X(matvec, 3, OWN, none, none, 0, CLAMPED, "matmul with one output row or column, no batch, aligned rows") \
    X(qmatvec, 3, OWN, qblock, none, NEEDS_SG, UNCLAMPED, \
      "wt_qlinear with 1 to 4 rows of x (decode): the weight's blocks read in place, row groups " \
      "of 8-256 lanes and 1-4 rows sharing x loads, subgroup shuffles where the device has " \
      "subgroups of 8 to 128 lanes; unclamped: 5% faster on the H200 (Q4_K 14336 x 4096 1857 " \
      "GB/s against 1770)") \
    X(qmatmul, 3, OWN, qblock, none, 0, CLAMPED, \
      "wt_qlinear with 5 to 63 rows of x, or f16 x: 32 x 64 tiles, weights decoded to f32 in " \
      "workgroup memory") \
    X(qrows, 2, OWN, qblock, none, 0, CLAMPED, \
      "wt_qdequantize, wt_qembedding: always; wt_qlinear with 64 or more rows of f32 x: the " \
      "weight decoded in chunks for wt_linear") \
    X(matmul_coop, 3, OWN, none, none, NEEDS_SGMAT, UNCLAMPED, \
      "f16 products with WT_MATMUL_F16_TENSOR where matmul_wgm cannot run or loses its guard: " \
      "128x128 tiles, one 32-deep slice buffer from 528 tiles (4096^3 219 TFLOP/s, H200), " \
      "else double-buffered") \
    X(conv, 3, OWN, none, none, 0, CLAMPED, \
      "conv2d as an implicit GEMM (64 x 128 tiles): where Winograd does not apply and the tiles fill") \
    X(conv_direct, 3, OWN, none, none, 0, CLAMPED, \
      "conv2d: depthwise, few channels, or a tiny inner dimension (the GEMM tiles would stay " \
      "empty)") \
    X(pool, 1, OWN, none, none, 0, CLAMPED, "max_pool2d, avg_pool2d: always") \
    X(conv_bw, 2, OWN, none, none, 0, CLAMPED, \
      "conv2d backward (backward.h): dx where wt_conv2d cannot take it (stride > 1, padding past " \
      "the dilated filter), dw as chunked partial sums for few channels") \
    X(conv_bw_dw, 2, OWN, none, none, 0, CLAMPED, \
      "conv2d backward dw as tiled partial sums (64 x 64 tiles of [K, R]): the tiles fill") \
    X(pool_bw, 2, OWN, none, none, 0, CLAMPED, "max_pool2d, avg_pool2d backward: always") \
    X(act_bw, 2, MAP2, unary_f, none, 0, UNCLAMPED, "silu, gelu backward: always") \
    X(nn_bw, 3, STD, none, none, 0, CLAMPED, \
      "softmax, log_softmax, layer_norm, rms_norm backward: always") \
    X(attn_bw, 3, OWN, none, none, 0, CLAMPED, \
      "scaled_dot_product_attention backward (flash, f32, D <= 256, no mask tensor): always") \
    X(cross_entropy, 3, STD, none, none, 0, CLAMPED, \
      "cross_entropy forward (per-row logsumexp and loss) and backward (dlogits in one pass): always") \
    X(matmul4, 3, OWN, matmul_tile, none, 0, 4, \
      "quad-aligned tile-exact products from 256 tiles: tile128x128v4s (4096^3 3.39 ms, 0.82x " \
      "cuBLAS, H200); tuner candidate tile128x64v4s, its pick for A^T.B (2.90 ms against " \
      "3.16); split-K (matmul.c split_of) tile128x64v4s_sk below 256 tiles with K >= 2048 " \
      "(A^T.B 768x3072x4096 483 us against 903), tile128x128v4s_sk a tuner candidate") \
    X(winograd, 2, OWN, none, none, 0, CLAMPED, \
      "conv2d 3x3, stride 1, dilation 1, one group, f32: F(2x2, 3x3), channel-major (H200 " \
      "29.6 TFLOP/s, 0.80x cuDNN)") \
    X(flash3, 3, OWN, none, none, NEEDS_SG, UNCLAMPED, \
      "flash attention (FMA), D <= 128, more than 32 KiB of workgroup memory, as " \
      "attention.c's table FL: flash3_wq for 64 < D <= 128 in f32 and, with subgroups, f16 " \
      "(H200 f32 29.8 TFLOP/s, f16 28.6), flash3_ds for f16 without subgroups (24.7), flash3 " \
      "(mode 2) for D <= 64 (19.7 at D 128 against flash2's 15.0); flash3_wq4 and " \
      "flash3_wq_nosg only by name (tests)") \
    X(flash_coop, 3, OWN, flash_tc, none, NEEDS_SGMAT, UNCLAMPED, \
      "f16 attention with WT_ATTENTION_F16_TENSOR on subgroup matrices (H200 75 TFLOP/s)") \
    X(flash_x3, 3, OWN, flash_tc, none, NEEDS_F16 | NEEDS_SGMAT, UNCLAMPED, \
      "f32 attention's default on devices with subgroup matrices: 3 f16 products per f32 one " \
      "(H200 41.9 TFLOP/s, 0.99x SDPA f32)") \
    X(matmul_wgm, 3, OWN, none, none, NEEDS_WGMAT, UNCLAMPED, \
      "f16 tensor-core matmul on workgroup matrices: whole 128x256 tiles, K % 512 == 0")

#endif
