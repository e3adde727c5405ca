# tensor.mk - the wt layer's kernels: src/tensor/kernels/*.wgsl are embedded as text in
# $(BUILD)/gen/tensor_<name>.wgsl.h (tools/embed.c) and compiled at run time by wgc's compiler.
TENSOR_WGSL = $(sort $(wildcard src/tensor/kernels/*.wgsl))
GEN += $(patsubst src/tensor/kernels/%.wgsl,$(BUILD)/gen/tensor_%.wgsl.h,$(TENSOR_WGSL))

$(BUILD)/gen/tensor_%.wgsl.h: src/tensor/kernels/%.wgsl $(BUILD)/embed
	@mkdir -p $(dir $@)
	$(BUILD)/embed --text $< tensor_$*_wgsl $@
