# libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined):
#   fuzz_rec     the recording reader alone: scan, apply every record, read every event;
#   fuzz_replay  `lattop -r FILE` as a whole: the metadata, the apply path, seeks, and every
#                output format (totals text/CSV/JSON, per-interval reports in each mode with
#                --hist and -c, --events CSV and trace); links all of src/ but main.c;
#   fuzz_evhdr   the EventHeader decoder (header, extensions, metadata) and tracepoint names;
#   fuzz_perf    perf.data files read offline: the reader, the pairing and the recording made of
#                them (session/perf_src.c), then `lattop -r` of the input (links as fuzz_replay).
# `make fuzz` runs each for FUZZ_TIME seconds on the seed corpus with bounded memory and time
# per input (FUZZ_LIMITS: an input running 10 s, a process over 512 MB or one malloc over 64 MB
# is a failure). `make fuzz-cov` replays the corpus through coverage builds and prints the
# per-function coverage of the reader, the replay and the writers (llvm-cov).
# The seeds come from tests/fuzz/mkseeds.py and tests/fuzz/mkhostile.py (see there); the perf_*.data
# ones from tests/host/mkperf.py (python3 tests/host/mkperf.py tests/fuzz/corpus/perf_V.data V).
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_LIMITS ?= -timeout=10 -rss_limit_mb=512 -malloc_limit_mb=64 -max_len=65536
FUZZ_OUT := $(OUTPUT)/fuzz
FUZZ_SRCS := src/rec/codec.c src/rec/writer.c src/rec/reader.c src/model/model.c src/model/hist.c \
	src/base/jsonw.c src/base/text.c
FUZZ_BIN := $(FUZZ_OUT)/fuzz_rec
FUZZ_COV := $(FUZZ_OUT)/fuzz_rec_cov
FUZZ_DEPS := tests/fuzz/fuzz_rec.c tests/fuzz/fuzz_crc.h $(FUZZ_SRCS) src/rec/rec.h src/rec/codec.h \
	src/model/model.h src/model/hist.h bpf/lattop.h
FUZZ_CPPFLAGS = -D_GNU_SOURCE -Ibpf -Isrc $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null)
FUZZ_LIBS = $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null) -lz -lm
FUZZ_RP_BIN := $(FUZZ_OUT)/fuzz_replay
FUZZ_RP_COV := $(FUZZ_OUT)/fuzz_replay_cov
# All of src/ but main.c, with the protobuf-c code the Prometheus exporter uses (generated).
FUZZ_RP_SRCS = $(LIB_SRCS) $(addsuffix .c,$(PROTO_GEN))
FUZZ_RP_DEPS := tests/fuzz/fuzz_replay.c tests/fuzz/fuzz_crc.h $(LIB_SRCS) \
	$(wildcard src/*.h src/*/*.h src/*/*/*.h) bpf/lattop.h $(SKELS) $(PROTO_STAMP)
FUZZ_RP_CPPFLAGS = -D_GNU_SOURCE -DLATTOP_VERSION='"$(VERSION)"' -Ibpf -I$(OUTPUT) \
	-I$(OUTPUT)/proto -Isrc \
	-DLATTOP_THEME_DIR='"$(PREFIX)/share/lattop/themes"' \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
FUZZ_RP_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lz -lpthread -lm
FUZZ_EH_BIN := $(FUZZ_OUT)/fuzz_evhdr
FUZZ_PD_BIN := $(FUZZ_OUT)/fuzz_perf
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

$(FUZZ_RP_BIN): $(FUZZ_RP_DEPS)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(FUZZ_RP_CPPFLAGS) -o $@ tests/fuzz/fuzz_replay.c $(FUZZ_RP_SRCS) $(FUZZ_RP_LIBS)

$(FUZZ_RP_COV): $(FUZZ_RP_DEPS)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
		$(FUZZ_RP_CPPFLAGS) -o $@ tests/fuzz/fuzz_replay.c $(FUZZ_RP_SRCS) $(FUZZ_RP_LIBS)

$(FUZZ_PD_BIN): $(subst fuzz_replay.c,fuzz_perf.c,$(FUZZ_RP_DEPS))
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(FUZZ_RP_CPPFLAGS) -o $@ tests/fuzz/fuzz_perf.c $(FUZZ_RP_SRCS) $(FUZZ_RP_LIBS)

$(FUZZ_EH_BIN): tests/fuzz/fuzz_evhdr.c src/base/evhdr.c src/base/evhdr.h
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-Isrc -o $@ tests/fuzz/fuzz_evhdr.c src/base/evhdr.c

fuzz: $(FUZZ_BIN) $(FUZZ_RP_BIN) $(FUZZ_EH_BIN) $(FUZZ_PD_BIN)
	$(Q)mkdir -p $(FUZZ_OUT)/corpus $(FUZZ_OUT)/corpus_replay $(FUZZ_OUT)/corpus_evhdr \
		$(FUZZ_OUT)/corpus_perf
	$(FUZZ_PD_BIN) -max_total_time=$(FUZZ_TIME) $(FUZZ_LIMITS) $(FUZZ_OUT)/corpus_perf \
		tests/fuzz/corpus
	$(FUZZ_EH_BIN) -max_total_time=$(FUZZ_TIME) $(FUZZ_LIMITS) $(FUZZ_OUT)/corpus_evhdr \
		tests/fuzz/corpus_evhdr
	$(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) $(FUZZ_LIMITS) $(FUZZ_OUT)/corpus tests/fuzz/corpus
	$(FUZZ_RP_BIN) -max_total_time=$(FUZZ_TIME) $(FUZZ_LIMITS) -dict=tests/fuzz/rec.dict \
		$(FUZZ_OUT)/corpus_replay tests/fuzz/corpus

fuzz-cov: $(FUZZ_COV) $(FUZZ_RP_COV)
	$(Q)mkdir -p $(FUZZ_OUT)/corpus $(FUZZ_OUT)/corpus_replay
	$(Q)LLVM_PROFILE_FILE=$(FUZZ_OUT)/cov.profraw $(FUZZ_COV) -runs=0 $(FUZZ_OUT)/corpus \
		tests/fuzz/corpus >/dev/null 2>&1
	$(Q)$(LLVM_PROFDATA) merge -o $(FUZZ_OUT)/cov.profdata $(FUZZ_OUT)/cov.profraw
	$(Q)$(LLVM_COV) report $(FUZZ_COV) -instr-profile=$(FUZZ_OUT)/cov.profdata \
		-show-functions src/rec/codec.c src/rec/writer.c src/rec/reader.c
	$(Q)LLVM_PROFILE_FILE=$(FUZZ_OUT)/cov_rp.profraw $(FUZZ_RP_COV) -runs=0 \
		$(FUZZ_OUT)/corpus_replay tests/fuzz/corpus >/dev/null 2>&1
	$(Q)$(LLVM_PROFDATA) merge -o $(FUZZ_OUT)/cov_rp.profdata $(FUZZ_OUT)/cov_rp.profraw
	$(Q)$(LLVM_COV) report $(FUZZ_RP_COV) -instr-profile=$(FUZZ_OUT)/cov_rp.profdata \
		src/rec/codec.c src/rec/writer.c src/rec/reader.c src/model/model.c src/model/hist.c src/rec/replay.c \
		src/ui/report/report.c src/ui/report/batch.c src/ui/columns.c src/session/session.c
