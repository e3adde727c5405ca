/* tokenizer_json.c - the Hugging Face tokenizer.json beside a safetensors model. */
#include <string.h>

#include "llm/llm.h"
#include "llm/tokenizer.h"

wl_status wl__tok_load_json(wl_tokenizer *t, const char *dir, wl_error *err) {
    (void)t;
    return wl__fail(err, WL_STATUS_UNSUPPORTED, dir, "tokenizer.json is not read yet");
}
