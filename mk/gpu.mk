# gpu.mk - build additions of the wg runtime: the embed tool, SPIR-V assembly of the runtime's
# own kernels (src/gpu/shaders) and the test kernels (tests/gpu/shaders), each checked with
# spirv-val and embedded as a C array in $(BUILD)/gen/<gpu|test>_<name>.spv.h.
SPIRV_AS  ?= spirv-as
SPIRV_VAL ?= spirv-val
SPV_ENV   ?= vulkan1.1

GPU_SPVASM  = $(sort $(wildcard src/gpu/shaders/*.spvasm))
TEST_SPVASM = $(sort $(wildcard tests/gpu/shaders/*.spvasm))
GEN += $(patsubst src/gpu/shaders/%.spvasm,$(BUILD)/gen/gpu_%.spv.h,$(GPU_SPVASM)) \
       $(patsubst tests/gpu/shaders/%.spvasm,$(BUILD)/gen/test_%.spv.h,$(TEST_SPVASM))

$(BUILD)/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 $(WARN) $(WERROR) -o $@ $<

$(BUILD)/gen/gpu_%.spv: src/gpu/shaders/%.spvasm
	@mkdir -p $(dir $@)
	$(SPIRV_AS) --target-env $(SPV_ENV) -o $@ $< && $(SPIRV_VAL) --target-env $(SPV_ENV) $@ || { rm -f $@; exit 1; }

$(BUILD)/gen/test_%.spv: tests/gpu/shaders/%.spvasm
	@mkdir -p $(dir $@)
	$(SPIRV_AS) --target-env $(SPV_ENV) -o $@ $< && $(SPIRV_VAL) --target-env $(SPV_ENV) $@ || { rm -f $@; exit 1; }

$(BUILD)/gen/%.spv.h: $(BUILD)/gen/%.spv $(BUILD)/embed
	$(BUILD)/embed --words $< $(subst .,_,$(notdir $<)) $@

.PRECIOUS: $(BUILD)/gen/%.spv

# The runtime's microbenchmark is `wgc bench runtime` (bench/runtime.c, doc/bench.md).
# bench_record: the host cost of recording 1000 dispatches (one bind group / one per dispatch),
# counted by callgrind in instructions; `make gpu-record-callgrind` prints both counts.
$(BUILD)/bench_record: tests/gpu/bench_record.c $(BUILD)/libwgc.a
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libwgc.a $(LDFLAGS) $(LDLIBS_ALL)

gpu-record-callgrind: $(BUILD)/bench_record
	@for f in record_one_group record_state_each record_group_each; do \
	  valgrind --tool=callgrind --callgrind-out-file=$(BUILD)/callgrind.$$f.out --toggle-collect=$$f \
	    $(BUILD)/bench_record 3 2>&1 | sed -n "s/.*Collected : */$$f: Ir /p"; done

.PHONY: gpu-record-callgrind

# A forwarding fake Vulkan loader that can fail vkQueueSubmit with VK_ERROR_DEVICE_LOST.
$(BUILD)/tests/gpu/libwgfake.so: tests/gpu/fake_vulkan.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -shared -o $@ $< -ldl
$(BUILD)/tests/gpu/test_lost: $(BUILD)/tests/gpu/libwgfake.so
