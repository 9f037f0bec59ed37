# Benchmarks: `make bench` builds and runs them; each reports ratios against a baseline
# measured in the same run.
BENCH_BINS := $(OUTPUT)/bench/collector_bench $(OUTPUT)/bench/ui_bench \
	$(OUTPUT)/bench/rec_bench $(OUTPUT)/bench/prom_bench $(OUTPUT)/bench/flight_bench \
	$(OUTPUT)/bench/split_bench $(OUTPUT)/bench/cpus_bench $(OUTPUT)/bench/perf_bench

$(OUTPUT)/bench/%: $(OUTPUT)/bench/%.o $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The live TUI in tmux against the same session in batch mode (root; 100 loaded programs).
bench: $(BENCH_BINS) $(OUTPUT)/tests/host/many lattop
	$(Q)for b in $(BENCH_BINS); do $$b || exit 1; done
	$(Q)OUTPUT=$(OUTPUT) bash bench/tui_live.sh
	$(Q)OUTPUT=$(OUTPUT) bash bench/scale.sh
