# Helpers mode on kprobes/kretprobes (issue 4: the fallback where fentry on a map function
# fails; LATTOP_HELPER_PROBES=kprobe forces it): the same exact per-helper counts as t_20.
# The same session watches nest_iter, whose map calls helpers mode cannot time (a traced call
# inside a traced call of the same program): they are counted as helper_busy, not lost silently.
. /tests/lib.sh
T=/tmp/hkprobe
mkdir -p $T

# The nest fixture on fd 4 (lib.sh's cmd drives the target fixture on fd 3).
start_fifo nest $T/nin $T/nout 4 || { fail busy-fixture "did not start: $(cat $T/nout)"; exit 1; }
iter=$(awk '$1=="iter"{print $2}' $T/nout)
# 5.10 has no bpf_for_each_map_elem (5.13): the fixture leaves nest_iter unloaded ("iter 0").
noiter=
if [ "$iter" = 0 ] && ! kver_ge 5 13; then
	noiter="this kernel has no bpf_for_each_map_elem (Linux 5.13), so no map call runs inside another"
else
	[ -n "$iter" ] && [ "$iter" != 0 ] || fail busy-fixture "no nest_iter program: $(cat $T/nout)"
fi
# Its kprobe program on htab_map_update_elem would run inside every update timed here (with
# kprobes it ran within our window: update p50 29-33 us instead of 2; fentry's window starts
# after it, 2 us either way): detach it.
echo detach >&4
wait_line '^detached' $T/nout 100
start_target hkprobe || exit 1
watch=$maps
[ -n "$noiter" ] || watch=$maps,$iter

LATTOP_HELPER_PROBES=kprobe lattop -m helpers -b -o csv -c -d 0.5 -D 120 -p "$watch" \
	>$T/h.csv 2>$T/h.err &
lp=$!
wait_line 'fentry' $T/h.csv 300
kprobes=$(bpftool prog show | grep -cE '^[0-9]+: kprobe +name lat_helper_k')
fentries=$(bpftool prog show | grep -cE '^[0-9]+: tracing +name lat_helper_')
cmd "run maps 1000" >/dev/null
cmd "run maps2 700" >/dev/null
if [ -z "$noiter" ]; then
	echo "iter 500" >&4
	wait_line '^ran 500' $T/nout 300
fi
sleep 1
kill -INT $lp
wait $lp
expect kp-lattop-exit $? 0
echo "  helper kprobe programs: $kprobes, helper fentry programs: $fentries"
cat $T/h.err
ok kp-probes-are-kprobes [ "$kprobes" -ge 2 -a "$fentries" = 0 ]
expect kp-update-count "$(hcol count bpf_map_update_elem tgt_hash $T/h.csv)" 3000 ||
	{ head -n 1 $T/h.csv; tail -n 12 $T/h.csv; }
expect kp-lookup-count "$(hcol count bpf_map_lookup_elem tgt_hash $T/h.csv)" 5000
expect kp-delete-count "$(hcol count bpf_map_delete_elem tgt_hash $T/h.csv)" 2000
queue_count kp-push-count push $T/h.csv 4000
queue_count kp-pop-count pop $T/h.csv 4000
expect kp-big-update-count "$(hcol count bpf_map_update_elem tgt_big $T/h.csv)" 1000
expect kp-no-drops "$(csv_drops $T/h.csv)" 0
small=$(hcol p50_ns bpf_map_update_elem tgt_hash $T/h.csv)
big=$(hcol p50_ns bpf_map_update_elem tgt_big $T/h.csv)
echo "  kprobe update p50: tgt_hash (8 B values) $small ns, tgt_big (2 KiB values) $big ns"
ok kp-bigger-map-work-is-slower [ "$big" -gt "$small" ]
# nest_iter: bpf_for_each_map_elem over a 4-entry array whose callback looks up nest_hash, 500
# runs: the for_each calls are timed, the 2000 lookups inside them are lost and counted.
if [ -n "$noiter" ]; then
	skip busy-counted "$noiter"
else
	expect busy-for-each-count "$(hcol count bpf_for_each_map_elem iter_arr $T/h.csv)" 500 ||
		{ grep -i iter $T/h.csv | tail -n 4; }
	# The lookup row is there (BPF_FUNC_map_lookup_elem = 1) with nothing timed (count empty).
	expect busy-lookup-row "$(hcol helper_id bpf_map_lookup_elem nest_hash $T/h.csv)" 1
	c=$(hcol count bpf_map_lookup_elem nest_hash $T/h.csv)
	expect busy-lookup-untimed "${c:-0}" 0
	expect busy-counted "$(ctr helper_busy $T/h.csv)" 2000
fi
expect kp-no-helper-probes-after-exit "$(bpftool prog show | grep -c 'name lat_helper_')" 0
# The nest fixture first: stop_target's wait would also wait for it, still reading fd 4.
echo quit >&4
exec 4>&-
stop_target
