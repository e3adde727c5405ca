# wgsl.mk - compiler extras: `make fuzz` builds the libFuzzer target over wgsl_compile and runs it
# for FUZZ_TIME seconds with the golden files as seeds (new finds go to build/fuzz/corpus).
# The seed corpus is also replayed without libFuzzer by tests/wgsl/test_fuzz_replay.c in `make check`.
FUZZ_TIME ?= 60
FUZZ_CC   ?= clang
WGSL_SRC   = $(sort $(wildcard src/wgsl/*.c))

$(BUILD)/fuzz/fuzz_wgsl: tests/wgsl/fuzz_wgsl.c $(WGSL_SRC) $(GEN)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -Isrc -I$(BUILD)/gen \
	    -o $@ tests/wgsl/fuzz_wgsl.c $(WGSL_SRC) -lm

fuzz: $(BUILD)/fuzz/fuzz_wgsl
	@mkdir -p $(BUILD)/fuzz/corpus
	$(BUILD)/fuzz/fuzz_wgsl -max_total_time=$(FUZZ_TIME) -max_len=8192 -timeout=10 \
	    $(BUILD)/fuzz/corpus tests/wgsl/golden

.PHONY: fuzz
