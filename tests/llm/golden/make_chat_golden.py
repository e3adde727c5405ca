#!/usr/bin/env python3
"""make_chat_golden.py - writes tests/llm/golden/chat-templates.txt, the reference of
tests/llm/test_chat.c: conversations rendered by Jinja2 (the engine Hugging Face's
apply_chat_template runs, with its settings: trim_blocks, lstrip_blocks, bos_token, eos_token,
add_generation_prompt) over real chat templates:

  smollm2      tokenizer.chat_template of SmolLM2-135M-Instruct (read from the model file with the
               PyPI gguf package): ChatML with a default system message
  qwen2        Qwen2-7B-Instruct's tokenizer_config.json template (ChatML, default system message),
               here with Jinja's '\\n' escapes in its literals
  chatml       the plain ChatML template many fine-tunes ship (no default system message)
  llama3       Meta-Llama-3-8B-Instruct's tokenizer_config.json template (bos_token, | trim)

File format (lengths in bytes; every blob is followed by one newline):
  template NAME BOSLEN TEXTLEN \\n <bos><template text> \\n
  case NAME ADDGEN NMSG \\n then NMSG times: msg ROLELEN CONTENTLEN \\n <role><content> \\n
  expect LEN \\n <text> \\n

Usage: PYTHONPATH=$(sh tests/llm/install_gguf.sh) /usr/bin/python3 tests/llm/golden/make_chat_golden.py \\
           ~/.cache/wgc/models/SmolLM2-135M-Instruct.Q4_1.gguf > tests/llm/golden/chat-templates.txt
Needs jinja2 (Debian python3-jinja2) and gguf (tests/llm/install_gguf.sh) only to regenerate.
"""
import sys

import jinja2
from gguf import GGUFReader

QWEN2 = (r"{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
         r"{{ '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}{% endif %}"
         r"{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
         r"{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")
CHATML = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content']"
          " + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
          "{% endif %}")
LLAMA3 = ("{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = "
          "'<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + "
          "'<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}"
          "{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant"
          "<|end_header_id|>\n\n' }}{% endif %}")

CONVERSATIONS = [
    [("user", "Hello!")],
    [("system", "You are terse."), ("user", "What is 2+2?")],
    [("user", "Hi"), ("assistant", "Hello! How can I help?"), ("user", "  Tell me a joke.\n ")],
    [("user", "Unicode: caf\u00e9, \u65e5\u672c\u8a9e, emoji \U0001F642\nsecond line\n\n"), ("assistant", " ok ")],
    [("system", "  Answer in French.\t"), ("user", "Good morning"), ("assistant", "Bonjour"), ("user", "Thanks")],
    [],
]


def blob(out, b):
    out.write(b)
    out.write(b"\n")


def main():
    r = GGUFReader(sys.argv[1])
    smol = r.fields["tokenizer.chat_template"].contents()
    templates = [("smollm2", "<|im_start|>", smol), ("qwen2", "", QWEN2), ("chatml", "", CHATML),
                 ("llama3", "<|begin_of_text|>", LLAMA3)]
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    out = sys.stdout.buffer
    out.write(b"# Reference of tests/llm/test_chat.c, written by Jinja2 %s over real chat templates.\n"
              % jinja2.__version__.encode())
    out.write(b"# Regenerate: tests/llm/golden/make_chat_golden.py (see its header).\n")
    for name, bos, text in templates:
        t, b = text.encode(), bos.encode()
        out.write(b"template %s %d %d\n" % (name.encode(), len(b), len(t)))
        blob(out, b + t)
        tmpl = env.from_string(text)
        for conv in CONVERSATIONS:
            for gen in (True, False):
                msgs = [{"role": ro, "content": c} for ro, c in conv]
                s = tmpl.render(messages=msgs, add_generation_prompt=gen, bos_token=bos,
                                eos_token="<|im_end|>" if name != "llama3" else "<|eot_id|>").encode()
                out.write(b"case %s %d %d\n" % (name.encode(), gen, len(conv)))
                for ro, c in conv:
                    ro, c = ro.encode(), c.encode()
                    out.write(b"msg %d %d\n" % (len(ro), len(c)))
                    blob(out, ro + c)
                out.write(b"expect %d\n" % len(s))
                blob(out, s)


main()
