# wgc - portable GPU compute in C.  Plain Makefile; see README.md.
#
#   make            build/libwgc.a, build/libwgc.so, build/wgc
#   make demo       build and run the demo (wgc demo's checked kernels, then a real LLM generating)
#   make check      build and run every test (tests/run.sh); prints "N passed, N failed"
#   make asan       the same tests under ASan+UBSan, in build-asan/
#   make valgrind   the same tests under valgrind (leak check), in build/
#
# Layers live in src/<layer>/ (flat); every .c there is part of libwgc.  Tests are
# tests/<layer>/test_*.c (one binary each, linked with libwgc.a) and tests/<layer>/test_*.sh.
# Per-layer build additions (generated files, extra test deps) go in mk/<layer>.mk.

BUILD   ?= build
CC      ?= cc
OPT     ?= -O2
WARN     = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wwrite-strings -Wundef -Wvla -Wformat=2 -Wcast-align \
           -Wold-style-definition -Wnested-externs -Wimplicit-fallthrough -Wno-unused-parameter
WERROR  ?= -Werror
SAN     ?=
CFLAGS_ALL = -std=c11 $(OPT) -g -fPIC $(WARN) $(WERROR) $(SAN) -D_POSIX_C_SOURCE=200809L \
           -D_DEFAULT_SOURCE -Iinclude -Isrc -I$(BUILD)/gen $(CFLAGS)
LDLIBS_ALL = -ldl -lm -lpthread $(LDLIBS)

LIB_SRC  = $(sort $(wildcard src/gpu/*.c src/wgsl/*.c src/tensor/*.c src/llm/*.c))
CLI_SRC  = $(sort $(wildcard src/cli/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC = $(sort $(wildcard tests/*/test_*.c))
TEST_BIN = $(TEST_SRC:%.c=$(BUILD)/%)
GEN      =          # generated headers, appended to by mk/*.mk

SOVER    = 0
all: $(BUILD)/libwgc.a $(BUILD)/libwgc.so $(BUILD)/wgc

-include $(sort $(wildcard mk/*.mk))

$(BUILD)/obj/%.o: %.c $(GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/libwgc.a: $(LIB_OBJ)
	@mkdir -p $(dir $@); rm -f $@
	ar rcs $@ $^

$(BUILD)/libwgc.so: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libwgc.so.$(SOVER) $(SAN) -o $@ $^ $(LDFLAGS) $(LDLIBS_ALL)

$(BUILD)/wgc: $(CLI_OBJ) $(BUILD)/libwgc.a
	$(CC) $(SAN) -o $@ $(CLI_OBJ) $(BUILD)/libwgc.a $(LDFLAGS) $(LDLIBS_ALL)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libwgc.a $(GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests -MMD -MP -o $@ $< $(BUILD)/libwgc.a $(LDFLAGS) $(LDLIBS_ALL)

tests: $(TEST_BIN) $(BUILD)/wgc

deps:
	@sh scripts/deps.sh check

# the demo: wgc demo's checked kernels, then a real LLM (SmolLM2-135M-Instruct Q4_1, fetched once
# into ~/.cache/wgc/models by scripts/fetch-model.sh) answering a chat prompt, greedy, with its speed
DEMO_PROMPT = <|im_start|>user\nWhat is a GPU? Answer in one sentence.<|im_end|>\n<|im_start|>assistant\n
demo: all
	@sh scripts/deps.sh demo
	$(BUILD)/wgc demo
	@m=$$(sh scripts/fetch-model.sh) && echo "wgc generate -m $$m --temp 0 -n 40 -p <a chat prompt>:" && \
	    $(BUILD)/wgc generate -m "$$m" --temp 0 -n 40 -p "$$(printf '$(DEMO_PROMPT)')"

check: deps all tests
	@BUILD=$(BUILD) sh tests/run.sh

# tests/lsan.supp: the third-party leaks LeakSanitizer reports in every process (scripts' wgc too)
asan:
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	    $(MAKE) BUILD=build-asan OPT=-O1 SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" check

valgrind: all tests
	@BUILD=$(BUILD) WGC_LOST_TIMEOUT_MS=600000 WGC_TEST_WRAP="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --suppressions=tests/valgrind.supp" sh tests/run.sh

clean:
	rm -rf build build-asan

.PHONY: all tests deps demo check asan valgrind clean
-include $(shell find $(BUILD)/obj $(BUILD)/tests -name '*.d' 2>/dev/null)
