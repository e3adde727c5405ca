#!/bin/sh
# test_header_cxx.sh - include/wgc/wgsl.h compiles as C++ (g++ -std=c++11 -Wall -Wextra -pedantic
# -Werror) and as strict C11, and its worked example's calls type-check in both.
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cat > "$t/use.c" <<'C'
#include <string.h>
#include <wgc/wgsl.h>
int use(void);
int use(void) {
    const char *src = "const x = 1;";
    wgsl_options o;
    memset(&o, 0, sizeof o);
    o.filename = "x.wgsl";
    wgsl_result *r = wgsl_compile(src, strlen(src), &o);
    if (!r) return -1;
    int ok = r->ok && wgsl_result_text(r) && wgsl_result_json(r) && r->diagnostic_count == 0;
    wgsl_result_free(r);
    return ok ? 0 : 1;
}
C
cp "$t/use.c" "$t/use.cpp"
fail=0
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -Iinclude -c "$t/use.cpp" -o "$t/a.o" || { echo "FAIL: C++"; fail=1; }
cc -std=c11 -Wall -Wextra -pedantic -Werror -Iinclude -c "$t/use.c" -o "$t/b.o" || { echo "FAIL: C11"; fail=1; }
exit $fail
