# examples.mk - `wgc demo train` runs the training of examples/train_digits.c: the file is
# compiled into the CLI without its main (TRAIN_DIGITS_NO_MAIN), so the demo and the example are
# one code.
CLI_SRC += examples/train_digits.c
$(BUILD)/obj/examples/train_digits.o: CFLAGS_ALL += -DTRAIN_DIGITS_NO_MAIN
$(BUILD)/obj/src/cli/demo_train.o: CFLAGS_ALL += -Iexamples
