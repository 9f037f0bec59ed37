# libFuzzer target for the recording reader: `make fuzz` builds it with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for FUZZ_TIME seconds on the seed corpus
# (any input running longer than 10 s is a failure: a hang). `make fuzz-cov` replays the corpus
# through a coverage build and prints the reader's per-function coverage (llvm-cov).
# The helpers seeds come from tests/fuzz/mkseeds.py (see there).
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_OUT := $(OUTPUT)/fuzz
FUZZ_SRCS := src/model/rec.c src/model/model.c src/model/hist.c
FUZZ_BIN := $(FUZZ_OUT)/fuzz_rec
FUZZ_COV := $(FUZZ_OUT)/fuzz_rec_cov
FUZZ_DEPS := tests/fuzz/fuzz_rec.c $(FUZZ_SRCS) src/model/rec.h src/model/model.h \
	src/model/hist.h bpf/lattop.h
FUZZ_CPPFLAGS = -D_GNU_SOURCE -Ibpf -Isrc $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null)
FUZZ_LIBS = $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null) -lz -lm
LLVM_PROFDATA ?= llvm-profdata
LLVM_COV ?= llvm-cov

.PHONY: fuzz-cov

$(FUZZ_BIN): $(FUZZ_DEPS)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(FUZZ_CPPFLAGS) -o $@ tests/fuzz/fuzz_rec.c $(FUZZ_SRCS) $(FUZZ_LIBS)

$(FUZZ_COV): $(FUZZ_DEPS)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
		$(FUZZ_CPPFLAGS) -o $@ tests/fuzz/fuzz_rec.c $(FUZZ_SRCS) $(FUZZ_LIBS)

fuzz: $(FUZZ_BIN)
	$(Q)mkdir -p $(FUZZ_OUT)/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -timeout=10 -max_len=65536 $(FUZZ_OUT)/corpus \
		tests/fuzz/corpus

fuzz-cov: $(FUZZ_COV)
	$(Q)mkdir -p $(FUZZ_OUT)/corpus
	$(Q)LLVM_PROFILE_FILE=$(FUZZ_OUT)/cov.profraw $(FUZZ_COV) -runs=0 $(FUZZ_OUT)/corpus \
		tests/fuzz/corpus >/dev/null 2>&1
	$(Q)$(LLVM_PROFDATA) merge -o $(FUZZ_OUT)/cov.profdata $(FUZZ_OUT)/cov.profraw
	$(Q)$(LLVM_COV) report $(FUZZ_COV) -instr-profile=$(FUZZ_OUT)/cov.profdata \
		-show-functions src/model/rec.c
