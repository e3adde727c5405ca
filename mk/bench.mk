# bench.mk - `wgc bench`: the drivers in bench/*.c link into the wgc binary; the benchmark's
# WGSL kernels (bench/kernels/*.wgsl) are embedded as text in $(BUILD)/gen/bench_<name>.wgsl.h.
BENCH_SRC  = $(sort $(wildcard bench/*.c))
BENCH_WGSL = $(sort $(wildcard bench/kernels/*.wgsl))
CLI_SRC   += $(BENCH_SRC)
GEN       += $(patsubst bench/kernels/%.wgsl,$(BUILD)/gen/bench_%.wgsl.h,$(BENCH_WGSL))

$(BUILD)/obj/src/cli/bench.o: CFLAGS_ALL += -Ibench

$(BUILD)/gen/bench_%.wgsl.h: bench/kernels/%.wgsl $(BUILD)/embed
	@mkdir -p $(dir $@)
	$(BUILD)/embed --text $< bench_$(subst -,_,$*)_wgsl $@

# `make bench`: both benchmarks with the default sizes and whatever baselines can run here.
bench: all
	$(BUILD)/wgc bench compile
	$(BUILD)/wgc bench runtime

.PHONY: bench
