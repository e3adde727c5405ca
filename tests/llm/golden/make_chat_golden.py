#!/usr/bin/env python3
"""make_chat_golden.py - writes tests/llm/golden/chat-templates.txt, the reference of
tests/llm/test_chat.c: conversations rendered by Jinja2 (the engine Hugging Face's
apply_chat_template runs, with its settings: trim_blocks, lstrip_blocks, bos_token, eos_token,
add_generation_prompt) over chat templates:

  smollm2       tokenizer.chat_template of SmolLM2-135M-Instruct (read from the model file with
                the PyPI gguf package): ChatML with a default system message
  chatml-system ChatML with a default system message (Qwen2 Instruct's format), written here
                with Jinja's '\\n' escapes in its literals
  chatml        plain ChatML (no default system message), literal newlines
  llama3        Llama 3 Instruct's format (bos_token, | trim)
  llama31       Llama 3.1 Instruct's format without tools (a dated system turn, always)
The last four are written for this test (see below), not copied from model files.

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

# The templates below were written for this test (not copied from any model): each produces the
# format of a family wgc formats, in Jinja text unlike the models' own, so wgc's recognition by
# markers is exercised on more than one spelling.
CHATML_SYSTEM = (  # ChatML with a default system message (the Qwen2 Instruct format)
    r"{%- if messages and messages[0]['role'] != 'system' -%}"
    r"{{- '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' -}}"
    r"{%- endif -%}"
    r"{%- for m in messages -%}"
    r"{{- '<|im_start|>' ~ m['role'] ~ '\n' ~ m['content'] ~ '<|im_end|>\n' -}}"
    r"{%- endfor -%}"
    r"{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\n' -}}{%- endif -%}")
CHATML = (  # plain ChatML, no default system message; literal newlines instead of escapes
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
LLAMA3 = (  # Llama 3 Instruct: BOS before the first turn, contents trimmed
    r"{%- for m in messages -%}"
    r"{{- (bos_token if loop.first else '') ~ '<|start_header_id|>' ~ m['role'] ~ '<|end_header_id|>\n\n'"
    r" ~ (m['content'] | trim) ~ '<|eot_id|>' -}}"
    r"{%- endfor -%}"
    r"{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' if add_generation_prompt else '' -}}")
LLAMA31 = (  # Llama 3.1 Instruct without tools: BOS, then always a dated system turn
    r'{%- if date_string is not defined -%}{%- set date_string = "26 Jul 2024" -%}{%- endif -%}'
    r"{{- bos_token -}}"
    r"{%- if messages and messages[0]['role'] == 'system' -%}"
    r"{%- set sys = messages[0]['content'] | trim -%}{%- set rest = messages[1:] -%}"
    r"{%- else -%}{%- set sys = '' -%}{%- set rest = messages -%}{%- endif -%}"
    r"{{- '<|start_header_id|>system<|end_header_id|>\n\n' ~ 'Cutting Knowledge Date: December 2023\n'"
    r" ~ 'Today Date: ' ~ date_string ~ '\n\n' ~ sys ~ '<|eot_id|>' -}}"
    r"{%- for m in rest -%}"
    r"{{- '<|start_header_id|>' ~ m['role'] ~ '<|end_header_id|>\n\n' ~ (m['content'] | trim) ~ '<|eot_id|>' -}}"
    r"{%- endfor -%}"
    r"{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' if add_generation_prompt else '' -}}")

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
    templates = [("smollm2", "<|im_start|>", smol), ("chatml-system", "", CHATML_SYSTEM), ("chatml", "", CHATML),
                 ("llama3", "<|begin_of_text|>", LLAMA3), ("llama31", "<|begin_of_text|>", LLAMA31)]
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    out = sys.stdout.buffer
    out.write(b"# Reference of tests/llm/test_chat.c, written by Jinja2 %s.\n"
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
                                eos_token="<|eot_id|>" if name.startswith("llama") else "<|im_end|>").encode()
                out.write(b"case %s %d %d\n" % (name.encode(), gen, len(conv)))
                for ro, c in conv:
                    ro, c = ro.encode(), c.encode()
                    out.write(b"msg %d %d\n" % (len(ro), len(c)))
                    blob(out, ro + c)
                out.write(b"expect %d\n" % len(s))
                blob(out, s)


main()
