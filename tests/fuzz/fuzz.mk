# libFuzzer target for the recording reader: `make fuzz` builds it with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for FUZZ_TIME seconds on the seed corpus.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_OUT := $(OUTPUT)/fuzz
FUZZ_SRCS := src/model/rec.c src/model/model.c src/model/hist.c
FUZZ_BIN := $(FUZZ_OUT)/fuzz_rec

$(FUZZ_BIN): tests/fuzz/fuzz_rec.c $(FUZZ_SRCS) src/model/rec.h src/model/model.h \
		src/model/hist.h bpf/lattop.h
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-D_GNU_SOURCE -Ibpf -Isrc $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null) \
		-o $@ tests/fuzz/fuzz_rec.c $(FUZZ_SRCS) \
		$(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null) -lz -lm

fuzz: $(FUZZ_BIN)
	$(Q)mkdir -p $(FUZZ_OUT)/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -max_len=65536 $(FUZZ_OUT)/corpus tests/fuzz/corpus
