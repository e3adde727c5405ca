/* spirv.h - SPIR-V binary builder and the emitter's entry point (internal to src/wgsl).
 *
 * The builder (spvbuild.c) knows nothing about WGSL: it hands out result ids, keeps one word
 * buffer per module section in the order the SPIR-V spec (2.4 "Logical Layout of a Module")
 * requires, deduplicates types and constants by the words of their defining instruction (so
 * equal types get equal ids, which the emitter relies on), and assembles the final module.
 * Function bodies are built in three buffers (header, OpVariables of the entry block, body)
 * because SPIR-V wants every function-scope OpVariable at the top of the first block while
 * the emitter discovers them as it walks the statements.
 *
 * All enumerants the emitter uses come from X-macro tables below (numbers from the SPIR-V
 * 1.6 specification and the GLSL.std.450 extended instruction set); names follow the spec's
 * spelling after a prefix: SPV_OP_IAdd, SPV_CAP_Shader, SPV_DEC_ArrayStride, SPV_GLSL_FAbs.
 *
 * Memory goes through an allocator hook (spv_alloc_fn, Lua-style realloc).  Allocation
 * failure sets b->oom; every later call becomes a no-op and spv_finish reports it, so callers
 * check once at the end.  wgsl_emit() (spirv.c) is the compiler phase built on top. */
#ifndef WGSL_SPIRV_H
#define WGSL_SPIRV_H

#include <stddef.h>
#include <stdint.h>

#define SPV_MAGIC 0x07230203u
#define SPV_VERSION_1_3 0x00010300u /* Vulkan 1.1 */
#define SPV_VERSION_1_6 0x00010600u /* Vulkan 1.3 */

/* ---- enumerants ------------------------------------------------------------------------ */

#define SPV_OPS(X) \
    X(Nop, 0) X(Undef, 1) X(Source, 3) X(Name, 5) X(MemberName, 6) X(String, 7) \
    X(Extension, 10) X(ExtInstImport, 11) X(ExtInst, 12) X(MemoryModel, 14) X(EntryPoint, 15) \
    X(ExecutionMode, 16) X(Capability, 17) X(TypeVoid, 19) X(TypeBool, 20) X(TypeInt, 21) \
    X(TypeFloat, 22) X(TypeVector, 23) X(TypeMatrix, 24) X(TypeArray, 28) \
    X(TypeRuntimeArray, 29) X(TypeStruct, 30) X(TypePointer, 32) X(TypeFunction, 33) \
    X(ConstantTrue, 41) X(ConstantFalse, 42) X(Constant, 43) X(ConstantComposite, 44) \
    X(ConstantNull, 46) X(SpecConstantTrue, 48) X(SpecConstantFalse, 49) X(SpecConstant, 50) \
    X(SpecConstantComposite, 51) X(SpecConstantOp, 52) X(Function, 54) \
    X(FunctionParameter, 55) X(FunctionEnd, 56) X(FunctionCall, 57) X(Variable, 59) \
    X(Load, 61) X(Store, 62) X(CopyMemory, 63) X(AccessChain, 65) X(InBoundsAccessChain, 66) \
    X(ArrayLength, 68) X(Decorate, 71) X(MemberDecorate, 72) X(VectorExtractDynamic, 77) \
    X(VectorInsertDynamic, 78) X(VectorShuffle, 79) X(CompositeConstruct, 80) \
    X(CompositeExtract, 81) X(CompositeInsert, 82) X(CopyObject, 83) X(Transpose, 84) \
    X(ConvertFToU, 109) X(ConvertFToS, 110) X(ConvertSToF, 111) X(ConvertUToF, 112) \
    X(UConvert, 113) X(SConvert, 114) X(FConvert, 115) X(Bitcast, 124) X(SNegate, 126) \
    X(FNegate, 127) X(IAdd, 128) X(FAdd, 129) X(ISub, 130) X(FSub, 131) X(IMul, 132) \
    X(FMul, 133) X(UDiv, 134) X(SDiv, 135) X(FDiv, 136) X(UMod, 137) X(SRem, 138) \
    X(SMod, 139) X(FRem, 140) X(FMod, 141) X(VectorTimesScalar, 142) \
    X(MatrixTimesScalar, 143) X(VectorTimesMatrix, 144) X(MatrixTimesVector, 145) \
    X(MatrixTimesMatrix, 146) X(OuterProduct, 147) X(Dot, 148) X(IAddCarry, 149) \
    X(ISubBorrow, 150) X(UMulExtended, 151) X(SMulExtended, 152) X(Any, 154) X(All, 155) \
    X(IsNan, 156) X(IsInf, 157) X(LogicalEqual, 164) X(LogicalNotEqual, 165) \
    X(LogicalOr, 166) X(LogicalAnd, 167) X(LogicalNot, 168) X(Select, 169) X(IEqual, 170) \
    X(INotEqual, 171) X(UGreaterThan, 172) X(SGreaterThan, 173) X(UGreaterThanEqual, 174) \
    X(SGreaterThanEqual, 175) X(ULessThan, 176) X(SLessThan, 177) X(ULessThanEqual, 178) \
    X(SLessThanEqual, 179) X(FOrdEqual, 180) X(FUnordEqual, 181) X(FOrdNotEqual, 182) \
    X(FUnordNotEqual, 183) X(FOrdLessThan, 184) X(FUnordLessThan, 185) \
    X(FOrdGreaterThan, 186) X(FUnordGreaterThan, 187) X(FOrdLessThanEqual, 188) \
    X(FUnordLessThanEqual, 189) X(FOrdGreaterThanEqual, 190) X(FUnordGreaterThanEqual, 191) \
    X(ShiftRightLogical, 194) X(ShiftRightArithmetic, 195) X(ShiftLeftLogical, 196) \
    X(BitwiseOr, 197) X(BitwiseXor, 198) X(BitwiseAnd, 199) X(Not, 200) \
    X(BitFieldInsert, 201) X(BitFieldSExtract, 202) X(BitFieldUExtract, 203) \
    X(BitReverse, 204) X(BitCount, 205) X(ControlBarrier, 224) X(MemoryBarrier, 225) \
    X(AtomicLoad, 227) X(AtomicStore, 228) X(AtomicExchange, 229) \
    X(AtomicCompareExchange, 230) X(AtomicCompareExchangeWeak, 231) \
    X(AtomicIIncrement, 232) X(AtomicIDecrement, 233) X(AtomicIAdd, 234) X(AtomicISub, 235) \
    X(AtomicSMin, 236) X(AtomicUMin, 237) X(AtomicSMax, 238) X(AtomicUMax, 239) \
    X(AtomicAnd, 240) X(AtomicOr, 241) X(AtomicXor, 242) X(Phi, 245) X(LoopMerge, 246) \
    X(SelectionMerge, 247) X(Label, 248) X(Branch, 249) X(BranchConditional, 250) \
    X(Switch, 251) X(Kill, 252) X(Return, 253) X(ReturnValue, 254) X(Unreachable, 255) \
    X(ExecutionModeId, 331) X(DecorateId, 332) X(GroupNonUniformElect, 333) \
    X(GroupNonUniformAll, 334) X(GroupNonUniformAny, 335) X(GroupNonUniformAllEqual, 336) \
    X(GroupNonUniformBroadcast, 337) X(GroupNonUniformBroadcastFirst, 338) \
    X(GroupNonUniformBallot, 339) X(GroupNonUniformInverseBallot, 340) \
    X(GroupNonUniformBallotBitExtract, 341) X(GroupNonUniformBallotBitCount, 342) \
    X(GroupNonUniformBallotFindLSB, 343) X(GroupNonUniformBallotFindMSB, 344) \
    X(GroupNonUniformShuffle, 345) X(GroupNonUniformShuffleXor, 346) \
    X(GroupNonUniformShuffleUp, 347) X(GroupNonUniformShuffleDown, 348) \
    X(GroupNonUniformIAdd, 349) X(GroupNonUniformFAdd, 350) X(GroupNonUniformIMul, 351) \
    X(GroupNonUniformFMul, 352) X(GroupNonUniformSMin, 353) X(GroupNonUniformUMin, 354) \
    X(GroupNonUniformFMin, 355) X(GroupNonUniformSMax, 356) X(GroupNonUniformUMax, 357) \
    X(GroupNonUniformFMax, 358) X(GroupNonUniformBitwiseAnd, 359) \
    X(GroupNonUniformBitwiseOr, 360) X(GroupNonUniformBitwiseXor, 361) \
    X(GroupNonUniformLogicalAnd, 362) X(GroupNonUniformLogicalOr, 363) \
    X(GroupNonUniformLogicalXor, 364) X(GroupNonUniformQuadBroadcast, 365) \
    X(GroupNonUniformQuadSwap, 366) X(CopyLogical, 400) X(PtrEqual, 401) \
    X(PtrNotEqual, 402) X(SDot, 4450) X(UDot, 4451) X(SUDot, 4452) \
    X(TypeCooperativeMatrixKHR, 4456) X(CooperativeMatrixLoadKHR, 4457) \
    X(CooperativeMatrixStoreKHR, 4458) X(CooperativeMatrixMulAddKHR, 4459)

#define SPV_CAPS(X) \
    X(Matrix, 0) X(Shader, 1) X(Float16, 9) X(DerivativeControl, 51) X(Float64, 10) X(Int64, 11) X(Int16, 22) \
    X(GroupNonUniform, 61) X(GroupNonUniformVote, 62) X(GroupNonUniformArithmetic, 63) \
    X(GroupNonUniformBallot, 64) X(GroupNonUniformShuffle, 65) \
    X(GroupNonUniformShuffleRelative, 66) X(GroupNonUniformClustered, 67) \
    X(GroupNonUniformQuad, 68) X(StorageBuffer16BitAccess, 4433) \
    X(UniformAndStorageBuffer16BitAccess, 4434) X(VariablePointersStorageBuffer, 4441) \
    X(VariablePointers, 4442) X(VulkanMemoryModel, 5345) \
    X(DotProductInputAll, 6016) X(DotProductInput4x8Bit, 6017) \
    X(DotProductInput4x8BitPacked, 6018) X(DotProduct, 6019) X(CooperativeMatrixKHR, 6022)

#define SPV_DECS(X) \
    X(SpecId, 1) X(Block, 2) X(RowMajor, 4) X(ColMajor, 5) X(ArrayStride, 6) \
    X(MatrixStride, 7) X(BuiltIn, 11) X(Restrict, 19) X(Aliased, 20) X(Volatile, 21) \
    X(Coherent, 23) X(NonWritable, 24) X(NonReadable, 25) X(Binding, 33) \
    X(DescriptorSet, 34) X(Offset, 35) X(NoContraction, 42)

#define SPV_BUILTINS(X) \
    X(NumWorkgroups, 24) X(WorkgroupSize, 25) X(WorkgroupId, 26) X(LocalInvocationId, 27) \
    X(GlobalInvocationId, 28) X(LocalInvocationIndex, 29) X(SubgroupSize, 36) \
    X(NumSubgroups, 38) X(SubgroupId, 40) X(SubgroupLocalInvocationId, 41)

#define SPV_STORAGE_CLASSES(X) \
    X(UniformConstant, 0) X(Input, 1) X(Uniform, 2) X(Output, 3) X(Workgroup, 4) \
    X(Private, 6) X(Function, 7) X(PushConstant, 9) X(StorageBuffer, 12)

/* GLSL.std.450 extended instructions. */
#define SPV_GLSL(X) \
    X(Round, 1) X(RoundEven, 2) X(Trunc, 3) X(FAbs, 4) X(SAbs, 5) X(FSign, 6) X(SSign, 7) \
    X(Floor, 8) X(Ceil, 9) X(Fract, 10) X(Radians, 11) X(Degrees, 12) X(Sin, 13) X(Cos, 14) \
    X(Tan, 15) X(Asin, 16) X(Acos, 17) X(Atan, 18) X(Sinh, 19) X(Cosh, 20) X(Tanh, 21) \
    X(Asinh, 22) X(Acosh, 23) X(Atanh, 24) X(Atan2, 25) X(Pow, 26) X(Exp, 27) X(Log, 28) \
    X(Exp2, 29) X(Log2, 30) X(Sqrt, 31) X(InverseSqrt, 32) X(Determinant, 33) \
    X(MatrixInverse, 34) X(Modf, 35) X(ModfStruct, 36) X(FMin, 37) X(UMin, 38) X(SMin, 39) \
    X(FMax, 40) X(UMax, 41) X(SMax, 42) X(FClamp, 43) X(UClamp, 44) X(SClamp, 45) \
    X(FMix, 46) X(IMix, 47) X(Step, 48) X(SmoothStep, 49) X(Fma, 50) X(Frexp, 51) \
    X(FrexpStruct, 52) X(Ldexp, 53) X(PackSnorm4x8, 54) X(PackUnorm4x8, 55) \
    X(PackSnorm2x16, 56) X(PackUnorm2x16, 57) X(PackHalf2x16, 58) X(UnpackSnorm2x16, 60) \
    X(UnpackUnorm2x16, 61) X(UnpackHalf2x16, 62) X(UnpackSnorm4x8, 63) \
    X(UnpackUnorm4x8, 64) X(Length, 66) X(Distance, 67) X(Cross, 68) X(Normalize, 69) \
    X(FaceForward, 70) X(Reflect, 71) X(Refract, 72) X(FindILsb, 73) X(FindSMsb, 74) \
    X(FindUMsb, 75) X(NMin, 79) X(NMax, 80) X(NClamp, 81)

#define SPV_ENUM_(pfx, name, num) pfx##name = num,
#define SPV_COUNT_(name, num) +1
enum spv_op {
#define X(n, v) SPV_ENUM_(SPV_OP_, n, v)
    SPV_OPS(X)
#undef X
};
enum { SPV_OP_TABLE_COUNT = 0 SPV_OPS(SPV_COUNT_) };
enum spv_cap {
#define X(n, v) SPV_ENUM_(SPV_CAP_, n, v)
    SPV_CAPS(X)
#undef X
};
enum spv_dec {
#define X(n, v) SPV_ENUM_(SPV_DEC_, n, v)
    SPV_DECS(X)
#undef X
};
enum spv_builtin {
#define X(n, v) SPV_ENUM_(SPV_BUILTIN_, n, v)
    SPV_BUILTINS(X)
#undef X
};
enum spv_storage_class {
#define X(n, v) SPV_ENUM_(SPV_SC_, n, v)
    SPV_STORAGE_CLASSES(X)
#undef X
};
enum spv_glsl {
#define X(n, v) SPV_ENUM_(SPV_GLSL_, n, v)
    SPV_GLSL(X)
#undef X
};

/* Other small enumerants, fixed by the spec. */
enum {
    SPV_ADDRESSING_LOGICAL = 0, SPV_MEMORY_MODEL_GLSL450 = 1, SPV_MEMORY_MODEL_VULKAN = 3,
    SPV_EXEC_MODEL_GLCOMPUTE = 5, SPV_EXEC_MODE_LOCAL_SIZE = 17, SPV_EXEC_MODE_LOCAL_SIZE_ID = 38,
    SPV_SCOPE_DEVICE = 1, SPV_SCOPE_WORKGROUP = 2, SPV_SCOPE_SUBGROUP = 3,
    SPV_SCOPE_INVOCATION = 4, SPV_SCOPE_QUEUE_FAMILY = 5,
    SPV_SEM_NONE = 0, SPV_SEM_ACQUIRE = 0x2, SPV_SEM_RELEASE = 0x4,
    SPV_SEM_ACQUIRE_RELEASE = 0x8, SPV_SEM_UNIFORM_MEMORY = 0x40,
    SPV_SEM_WORKGROUP_MEMORY = 0x100, SPV_SEM_IMAGE_MEMORY = 0x800,
    SPV_GROUP_OP_REDUCE = 0, SPV_GROUP_OP_INCLUSIVE_SCAN = 1, SPV_GROUP_OP_EXCLUSIVE_SCAN = 2,
    SPV_FUNCTION_CONTROL_NONE = 0, SPV_SELECTION_CONTROL_NONE = 0, SPV_LOOP_CONTROL_NONE = 0,
    SPV_SOURCE_LANGUAGE_WGSL = 10
};

/* Spec name of an opcode ("IAdd"), or NULL; for messages and tests. */
const char *spv_op_name(uint32_t op);

/* ---- builder ---------------------------------------------------------------------------- */

/* Lua-style allocator: new_size 0 frees and returns NULL; otherwise like realloc. */
typedef void *(*spv_alloc_fn)(void *user, void *ptr, size_t old_size, size_t new_size);

typedef struct spv_words {
    uint32_t *w;
    uint32_t n, cap;
} spv_words;

/* Module sections, in the order of SPIR-V 2.4. */
typedef enum spv_section {
    SPV_SEC_CAPABILITY, SPV_SEC_EXTENSION, SPV_SEC_EXT_INST_IMPORT, SPV_SEC_MEMORY_MODEL,
    SPV_SEC_ENTRY_POINT, SPV_SEC_EXECUTION_MODE, SPV_SEC_DEBUG_STRING, SPV_SEC_DEBUG_NAME,
    SPV_SEC_ANNOTATION, SPV_SEC_GLOBAL, SPV_SEC_FUNCTION, SPV_SEC_COUNT
} spv_section;

typedef struct spv_dedup_entry {
    uint32_t hash;
    uint32_t key;  /* offset of the key words in spv_builder.keys */
    uint32_t len;  /* key length in words; 0 = empty slot */
    uint32_t id;
} spv_dedup_entry;

typedef struct spv_builder {
    spv_alloc_fn alloc;
    void *alloc_user;
    int oom;                          /* an allocation failed; everything after is a no-op */
    uint32_t version;                 /* SPV_VERSION_1_3 by default */
    uint32_t bound;                   /* next free id */
    spv_words sec[SPV_SEC_COUNT];
    spv_words keys;                   /* dedup keys, back to back */
    spv_dedup_entry *dedup;           /* open addressing, power-of-two capacity */
    uint32_t dedup_cap, dedup_n;
    uint32_t glsl_id;                 /* GLSL.std.450 import, 0 until first asked */
    /* the function being built (spv_fn_begin .. spv_fn_end) */
    spv_words fn_head, fn_vars, fn_body;
    int in_fn;
    int block_open;                   /* a label was emitted and no terminator yet */
    uint32_t cur_label;               /* label of the block being emitted */
} spv_builder;

void spv_init(spv_builder *b, spv_alloc_fn alloc, void *user, uint32_t version);
void spv_free(spv_builder *b);
uint32_t spv_id(spv_builder *b);

/* Appends one instruction (opcode + operands) to w. */
void spv_inst(spv_builder *b, spv_words *w, uint32_t op, uint32_t n, const uint32_t *ops);
/* Appends one instruction whose operands are: pre[0..npre), the literal string s (nul
 * terminated, padded to words), post[0..npost). */
void spv_inst_str(spv_builder *b, spv_words *w, uint32_t op, uint32_t npre,
                  const uint32_t *pre, const char *s, uint32_t npost, const uint32_t *post);

#define SPV_ARR_(...) ((const uint32_t[]){ __VA_ARGS__ })
#define SPV_NARGS_(...) ((uint32_t)(sizeof(SPV_ARR_(__VA_ARGS__)) / sizeof(uint32_t)))
/* SPV_INST(b, words, SPV_OP_X, operands...) */
#define SPV_INST(b, w, op, ...) spv_inst((b), (w), (op), SPV_NARGS_(__VA_ARGS__), SPV_ARR_(__VA_ARGS__))
/* SPV_SEC(b, SPV_SEC_X, SPV_OP_X, operands...) */
#define SPV_SEC(b, s, op, ...) SPV_INST((b), &(b)->sec[(s)], (op), __VA_ARGS__)

void spv_capability(spv_builder *b, uint32_t cap);        /* once per capability */
/* 1 the first time (tag, key) is seen, then 0: for decorations that must appear once. */
int spv_once(spv_builder *b, uint32_t tag, uint32_t key);
void spv_extension(spv_builder *b, const char *name);      /* once per name */
uint32_t spv_glsl_import(spv_builder *b);                  /* GLSL.std.450 id */
void spv_memory_model(spv_builder *b, uint32_t addressing, uint32_t model);
void spv_entry_point(spv_builder *b, uint32_t model, uint32_t fn, const char *name,
                     uint32_t n_iface, const uint32_t *iface);
void spv_name(spv_builder *b, uint32_t id, const char *name);
void spv_member_name(spv_builder *b, uint32_t id, uint32_t member, const char *name);
void spv_decorate(spv_builder *b, uint32_t id, uint32_t dec, uint32_t n, const uint32_t *args);
void spv_member_decorate(spv_builder *b, uint32_t id, uint32_t member, uint32_t dec,
                         uint32_t n, const uint32_t *args);
#define SPV_DECORATE(b, id, dec, ...) spv_decorate((b), (id), (dec), SPV_NARGS_(__VA_ARGS__), SPV_ARR_(__VA_ARGS__))
#define SPV_DECORATE0(b, id, dec) spv_decorate((b), (id), (dec), 0, NULL)

/* Deduplicated global: returns the id of an instruction `op [type] id operands` in the
 * GLOBAL section with the same words (and the same extra key words, which are not emitted
 * but distinguish e.g. array types with different strides); emits it when new.  has_type:
 * the instruction has a result type before the result id (constants). */
uint32_t spv_global_dedup(spv_builder *b, uint32_t op, int has_type, uint32_t type,
                          uint32_t n, const uint32_t *ops, uint32_t nextra, const uint32_t *extra);

/* Types (deduplicated except structs). */
uint32_t spv_type_void(spv_builder *b);
uint32_t spv_type_bool(spv_builder *b);
uint32_t spv_type_int(spv_builder *b, uint32_t width, int is_signed);
uint32_t spv_type_float(spv_builder *b, uint32_t width);
uint32_t spv_type_vector(spv_builder *b, uint32_t comp, uint32_t n);
uint32_t spv_type_matrix(spv_builder *b, uint32_t column, uint32_t ncols);
/* Arrays with a non-zero stride get an ArrayStride decoration (once). */
uint32_t spv_type_array(spv_builder *b, uint32_t elem, uint32_t length_id, uint32_t stride);
uint32_t spv_type_runtime_array(spv_builder *b, uint32_t elem, uint32_t stride);
uint32_t spv_type_struct(spv_builder *b, uint32_t n, const uint32_t *members); /* always new */
uint32_t spv_type_pointer(spv_builder *b, uint32_t storage_class, uint32_t type);
uint32_t spv_type_function(spv_builder *b, uint32_t ret, uint32_t n, const uint32_t *params);

/* Constants (deduplicated).  Scalars take their bit pattern (64-bit only for 64-bit types). */
uint32_t spv_const_bool(spv_builder *b, int v);
uint32_t spv_const_scalar(spv_builder *b, uint32_t type, uint32_t width, uint64_t bits);
uint32_t spv_const_u32(spv_builder *b, uint32_t v);
uint32_t spv_const_i32(spv_builder *b, int32_t v);
uint32_t spv_const_f32(spv_builder *b, float v);
uint32_t spv_const_composite(spv_builder *b, uint32_t type, uint32_t n, const uint32_t *parts);
uint32_t spv_const_null(spv_builder *b, uint32_t type);

/* A global OpVariable (never deduplicated). */
uint32_t spv_global_var(spv_builder *b, uint32_t ptr_type, uint32_t storage_class, uint32_t init);

/* Functions.  spv_fn_begin emits OpFunction; spv_fn_param adds parameters; spv_fn_entry
 * starts the first block; spv_fn_var adds a Function-class OpVariable to that block's top;
 * spv_fn_end closes the function (adding OpUnreachable/OpReturn is the caller's business). */
void spv_fn_begin(spv_builder *b, uint32_t fn, uint32_t ret_type, uint32_t fn_type);
uint32_t spv_fn_param(spv_builder *b, uint32_t type);
void spv_fn_entry(spv_builder *b, uint32_t label);
uint32_t spv_fn_var(spv_builder *b, uint32_t ptr_type, uint32_t init);
void spv_fn_end(spv_builder *b);

/* Body instructions (into the current function). */
void spv_label(spv_builder *b, uint32_t id);
/* An instruction without a result; terminators (Branch, Return, ...) close the block. */
void spv_op(spv_builder *b, uint32_t op, uint32_t n, const uint32_t *ops);
/* An instruction `op type newid operands`; returns newid. */
uint32_t spv_val(spv_builder *b, uint32_t op, uint32_t type, uint32_t n, const uint32_t *ops);
#define SPV_OP(b, op, ...) spv_op((b), (op), SPV_NARGS_(__VA_ARGS__), SPV_ARR_(__VA_ARGS__))
#define SPV_OP0(b, op) spv_op((b), (op), 0, NULL)
#define SPV_VAL(b, op, type, ...) spv_val((b), (op), (type), SPV_NARGS_(__VA_ARGS__), SPV_ARR_(__VA_ARGS__))
/* OpExtInst of GLSL.std.450. */
uint32_t spv_glsl_call(spv_builder *b, uint32_t type, uint32_t inst, uint32_t n, const uint32_t *args);
#define SPV_GLSL_CALL(b, type, inst, ...) spv_glsl_call((b), (type), (inst), SPV_NARGS_(__VA_ARGS__), SPV_ARR_(__VA_ARGS__))

/* The module's words (header + sections), allocated with the builder's allocator (free with
 * b->alloc(user, words, n*4, 0)).  Returns 0, or -1 when an allocation failed anywhere. */
int spv_finish(spv_builder *b, uint32_t **words, size_t *nwords);

/* ---- the compiler phase ------------------------------------------------------------------ */

struct wgsl_cc;
/* Emits SPIR-V for the checked module in cc (cc->sema) into cc->res (spirv, spirv_word_count)
 * and fills the reflection; 0 on success, non-zero when errors were reported. */
int wgsl_emit(struct wgsl_cc *cc);

/* reflect.c: fills cc->res's entry points, bindings and overrides from cc->sema.  wg[i] is the
 * workgroup size of cc->sema->fns[i] with override values applied (NULL: the const sizes);
 * wg_bytes[i] its workgroup memory in bytes, override-sized arrays included (NULL: sema's). */
void spv_reflect(struct wgsl_cc *cc, const uint32_t (*wg)[3], const uint64_t *wg_bytes);

#endif
