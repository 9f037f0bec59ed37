#!/usr/bin/env bash
# EventHeader activities against Microsoft's reference producer, on the host (whose kernel has
# no user_events): tests/vm/uevents/producer.c, ours, written against the reference's
# TraceLoggingProvider.h and linked with its tracepoint-file implementation (its interceptor
# sample: every event appended to a file instead of user_events), writes N activities from 4
# threads with nested ones, stops without starts and starts without stops; raw records that are
# malformed or not EventHeader are appended; lattop's pairing (eh_dat: collect/ehpair.c as the
# reader thread runs it) must count exactly N per name and each loss exactly. The kernel path
# (perf, timestamps, percentiles, the consumer) is tests/vm/uevents' (make vmtest-uevents).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-eh-reference
LT_SRC=${LINUXTRACEPOINTS:-$(cd .. && pwd)/shared/third_party/LinuxTracepoints}
LT=${LATTOP_TEST_CACHE:-tests/vm/.cache}/linuxtracepoints
THREADS=4 PER=40 STOPS=7 ORPHANS=5 ROUNDS=3

if [ ! -f "$LT_SRC/CMakeLists.txt" ]; then
	skip reference "no LinuxTracepoints at $LT_SRC"
	end_suite
	exit 0
fi
if ! command -v cmake >/dev/null || ! command -v g++ >/dev/null; then
	skip reference "cmake and g++ are needed (make deps)"
	end_suite
	exit 0
fi
# The reference's libraries, built once into the tests' cache (shared/ is read-only).
if [ ! -f "$LT/build/lib/libeventheader-tracepoint.a" ]; then
	{ nice cmake -S "$LT_SRC" -B "$LT/build" -DCMAKE_BUILD_TYPE=Release &&
		nice cmake --build "$LT/build" -j2 --target eventheader-tracepoint; } \
		>"$TMP/cmake.log" 2>&1 || { fail build-reference "$(tail -n 5 "$TMP/cmake.log")"; }
fi
INC=(-I"$LT_SRC/libeventheader-tracepoint/include" -I"$LT_SRC/libtracepoint/include")
g++ -std=c++17 -O2 -c "$LT_SRC/libeventheader-tracepoint/samples/tracepoint-file.cpp" \
	"${INC[@]}" -o "$TMP/tracepoint-file.o" 2>"$TMP/cc.log" &&
	gcc -O2 -c tests/vm/uevents/producer.c "${INC[@]}" -o "$TMP/producer.o" 2>>"$TMP/cc.log" &&
	g++ -o "$TMP/producer" "$TMP/producer.o" "$TMP/tracepoint-file.o" \
		"$LT/build/lib/libeventheader-tracepoint.a" -lpthread 2>>"$TMP/cc.log"
check build-producer test -x "$TMP/producer" || { cat "$TMP/cc.log"; end_suite; exit 0; }

# The producer writes EventHeaderInterceptorLE64.dat in its working directory.
(cd "$TMP" && ./producer acts $THREADS $PER prod.txt && ./producer wrong $STOPS $ORPHANS 0)
check producer-wrote test -s "$TMP/EventHeaderInterceptorLE64.dat"
# raw HEX: append one record of LatTestProvider_L4K1 whose event is HEX.
raw() {
	local name=LatTestProvider_L4K1 ev=$1
	local size=$((4 + ${#name} + 1 + ${#ev} / 2))
	printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((size & 255)) $((size >> 8 & 255)) 0 0)" \
		>>"$TMP/EventHeaderInterceptorLE64.dat"
	printf '%s\0' "$name" >>"$TMP/EventHeaderInterceptorLE64.dat"
	printf "$(sed 's/../\\x&/g' <<<"$ev")" >>"$TMP/EventHeaderInterceptorLE64.dat"
}
for _ in $(seq $ROUNDS); do
	raw 07000000000001042800020001020304       # an extension past the end
	raw 0700000000000104050002000102030405     # a 5-byte activity id
	raw 0300000000000104                       # a start without an activity id
	raw 0300000000000105                       # level 5 on the level-4 tracepoint
	raw f300000000000104                       # flag bits EventHeader does not define
done
.output/tests/host/eh_dat "$TMP/EventHeaderInterceptorLE64.dat" LatTestProvider_L4K1 \
	>"$TMP/out" 2>"$TMP/err"
expect_eq eh-dat-exit $? 0
grep '^series ' "$TMP/out" | sed 's/^/  /'
expect_eq request-count "$(awk '$2=="Request" && NF==3{print $3}' "$TMP/out")" $((THREADS * PER))
expect_eq inner-count "$(awk '$2=="Inner" && NF==3{print $3}' "$TMP/out")" $((THREADS * PER / 4))
# Each Inner runs inside a Request (its parent, by related activity id): those Requests also
# give their own time less their child's, a "Request self" series.
expect_eq request-self-count "$(awk '$2=="Request" && $3=="self"{print $4}' "$TMP/out")" $((THREADS * PER / 4))
expect_eq producer-count "$(wc -l <"$TMP/prod.txt")" $((THREADS * PER * 5 / 4))
expect_eq series "$(grep -c '^series ' "$TMP/out")" 3
expect_eq losses "$(grep '^loss ' "$TMP/out")" \
	"loss orphan=$ORPHANS unmatched=$STOPS malformed=$((3 * ROUNDS)) foreign=$((2 * ROUNDS)) lost=0 other=0"
# One named activity: only it has a series; the others are paired silently.
.output/tests/host/eh_dat "$TMP/EventHeaderInterceptorLE64.dat" LatTestProvider_L4K1 Inner \
	>"$TMP/out2" 2>&1
expect_eq named-series "$(grep '^series ' "$TMP/out2")" "series Inner $((THREADS * PER / 4))"
expect_eq named-unmatched "$(grep -o 'unmatched=[0-9]*' "$TMP/out2")" "unmatched=$STOPS"
end_suite
