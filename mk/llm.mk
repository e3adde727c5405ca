# llm.mk - model-file extras: `make fuzz-llm` builds the libFuzzer target over the GGUF and
# safetensors readers and runs it for FUZZ_TIME seconds with tests/llm/corpus as seeds (new finds
# go to build/fuzz/corpus-llm).  The corpus is replayed without libFuzzer by
# tests/llm/test_fuzz_replay.c in `make check`; tests/llm/make_corpus.py regenerates the seeds.
# the parsers only: the engine (engine.c, sample.c) needs the tensor layer
LLM_SRC = $(filter-out src/llm/engine.c src/llm/sample.c,$(sort $(wildcard src/llm/*.c)))

$(BUILD)/fuzz/fuzz_llm: tests/llm/fuzz_llm.c $(LLM_SRC) src/llm/llm.h include/wgc/llm.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -Isrc \
	    -o $@ tests/llm/fuzz_llm.c $(LLM_SRC) -lm

fuzz-llm: $(BUILD)/fuzz/fuzz_llm
	@mkdir -p $(BUILD)/fuzz/corpus-llm
	$(BUILD)/fuzz/fuzz_llm -max_total_time=$(FUZZ_TIME) -max_len=4096 -timeout=10 \
	    $(BUILD)/fuzz/corpus-llm tests/llm/corpus

.PHONY: fuzz-llm
