# Benchmarks: `make bench` builds and runs them; each reports ratios against a baseline
# measured in the same run.
BENCH_BINS := $(OUTPUT)/bench/collector_bench $(OUTPUT)/bench/ui_bench \
	$(OUTPUT)/bench/rec_bench

$(OUTPUT)/bench/%: $(OUTPUT)/bench/%.o $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench: $(BENCH_BINS)
	$(Q)for b in $(BENCH_BINS); do $$b || exit 1; done
