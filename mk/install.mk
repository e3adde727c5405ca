# install.mk - `make install PREFIX=... [DESTDIR=...]` and `make uninstall`: the public headers,
# libwgc.a, libwgc.so.$(SOVER) (the soname) with the libwgc.so link, the wgc binary, the Python
# package (PREFIX/lib/wgc/python/wgc) and a pkg-config file, so programs build with
#   cc prog.c $(pkg-config --cflags --libs wgc)            (shared)
#   cc prog.c $(pkg-config --cflags --libs --static wgc)   (static: add -Wl,-Bstatic -lwgc -Wl,-Bdynamic)
# `make examples` builds examples/*.c against the tree; tests/cli/test_install.sh installs into a
# temporary prefix and builds them with pkg-config.
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR     ?= $(PREFIX)/bin
WGC_PC_VERSION = $(shell sed -n 's/^\#define WGC_VERSION "\(.*\)"/\1/p' src/cli/version.c)

# The .pc file is written at install time, so it always names the PREFIX of this install.
WGC_PC_LINES = 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' 'Name: wgc' \
  'Description: portable GPU compute in C: WGSL compiler, WebGPU-shaped Vulkan runtime, tensors' \
  'Version: $(WGC_PC_VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lwgc' \
  'Libs.private: -ldl -lm -lpthread'

install: all
	$(MAKE) --no-print-directory install-files
# install-files copies what $(BUILD) holds without rebuilding (tests use it, so a sanitizer
# build's objects are not remade with other flags).
install-files:
	install -d $(DESTDIR)$(INCLUDEDIR)/wgc $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(BINDIR) \
	  $(DESTDIR)$(LIBDIR)/wgc/python/wgc
	install -m 644 include/wgc/*.h $(DESTDIR)$(INCLUDEDIR)/wgc/
	install -m 644 $(BUILD)/libwgc.a $(DESTDIR)$(LIBDIR)/libwgc.a
	install -m 755 $(BUILD)/libwgc.so $(DESTDIR)$(LIBDIR)/libwgc.so.$(SOVER)
	ln -sf libwgc.so.$(SOVER) $(DESTDIR)$(LIBDIR)/libwgc.so
	printf '%s\n' $(WGC_PC_LINES) > $(DESTDIR)$(LIBDIR)/pkgconfig/wgc.pc
	install -m 755 $(BUILD)/wgc $(DESTDIR)$(BINDIR)/wgc
	install -m 644 python/wgc/*.py $(DESTDIR)$(LIBDIR)/wgc/python/wgc/

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/wgc/gpu.h $(DESTDIR)$(INCLUDEDIR)/wgc/wgsl.h $(DESTDIR)$(INCLUDEDIR)/wgc/tensor.h \
	  $(DESTDIR)$(LIBDIR)/libwgc.a $(DESTDIR)$(LIBDIR)/libwgc.so $(DESTDIR)$(LIBDIR)/libwgc.so.$(SOVER) \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/wgc.pc $(DESTDIR)$(BINDIR)/wgc
	rm -rf $(DESTDIR)$(LIBDIR)/wgc/python
	-rmdir $(DESTDIR)$(INCLUDEDIR)/wgc $(DESTDIR)$(LIBDIR)/wgc 2>/dev/null

# The examples built against this tree (the installed way is examples/Makefile + pkg-config).
EXAMPLES = $(patsubst examples/%.c,$(BUILD)/examples/%,$(sort $(wildcard examples/*.c)))
$(BUILD)/examples/%: examples/%.c $(BUILD)/libwgc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/libwgc.a $(LDFLAGS) $(LDLIBS_ALL)
examples: $(EXAMPLES)

.PHONY: install install-files uninstall examples
