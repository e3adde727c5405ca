# oracle.mk - the execution-parity driver (tests/oracle/parity_wg.c): every tests/parity kernel
# through wgc on Vulkan and through Dawn, compared.  `make parity-wg` builds and runs it.  Not in
# `make check` until wgc emits SPIR-V; then it moves to tests/wgsl/test_parity.c and this goes.
$(BUILD)/parity-wg: tests/oracle/parity_wg.c $(BUILD)/libwgc.a $(GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests -o $@ $< $(BUILD)/libwgc.a $(LDFLAGS) $(LDLIBS_ALL)

parity-wg: $(BUILD)/parity-wg
	BUILD=$(BUILD) $(BUILD)/parity-wg

.PHONY: parity-wg
