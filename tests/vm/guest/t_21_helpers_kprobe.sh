# Helpers mode on kprobes/kretprobes (issue 4: the fallback where fentry on a map function
# fails; LATTOP_HELPER_PROBES=kprobe forces it): the same exact per-helper counts as t_20.
# Then the calls helpers mode cannot time (a traced call inside a traced call of the same
# program) are counted as helper_busy, not lost silently.
. /tests/lib.sh
T=/tmp/hkprobe
mkdir -p $T

# hcol NAME HELPER MAP FILE: CSV column NAME of the last interval's row for (HELPER, MAP).
hcol() {
	awk -F, -v want="$1" -v hl="$2" -v mp="$3" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["helper"]==hl && $h["map_name"]==mp {v=$h[want]} END{print v}' "$4"
}
# ctr NAME FILE: a session-wide named counter of the last CSV row ("a=1;b=2").
ctr() {
	awk -F, -v want="$1" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {c=$h["counters"]}
		END{n=split(c,kv,";"); for(i=1;i<=n;i++){split(kv[i],p,"="); if(p[1]==want) print p[2]}}' "$2"
}

start_target hkprobe || exit 1
LATTOP_HELPER_PROBES=kprobe lattop -m helpers -b -o csv -c -d 0.5 -D 120 -p "$maps" >$T/h.csv 2>$T/h.err &
lp=$!
wait_line 'fentry' $T/h.csv 300
kprobes=$(bpftool prog show | grep -cE '^[0-9]+: kprobe +name lat_helper_k')
fentries=$(bpftool prog show | grep -cE '^[0-9]+: tracing +name lat_helper_')
cmd "run maps 1000" >/dev/null
cmd "run maps2 700" >/dev/null
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
expect kp-push-count "$(hcol count bpf_map_push_elem tgt_queue $T/h.csv)" 4000
expect kp-pop-count "$(hcol count bpf_map_pop_elem tgt_queue $T/h.csv)" 4000
expect kp-big-update-count "$(hcol count bpf_map_update_elem tgt_big $T/h.csv)" 1000
small=$(hcol p50_ns bpf_map_update_elem tgt_hash $T/h.csv)
big=$(hcol p50_ns bpf_map_update_elem tgt_big $T/h.csv)
echo "  kprobe update p50: tgt_hash (8 B values) $small ns, tgt_big (2 KiB values) $big ns"
ok kp-bigger-map-work-is-slower [ "$big" -gt "$small" ]
expect kp-helper-busy "$(ctr helper_busy $T/h.csv)" 0
expect kp-no-helper-probes-after-exit "$(bpftool prog show | grep -c 'name lat_helper_')" 0
stop_target

# helper_busy: nest_iter's for_each callback does 4 hash lookups inside the traced for_each
# call, at the same program depth: the for_each calls are timed, the lookups counted as lost.
rm -f $T/in $T/out
mkfifo $T/in
nest <$T/in >$T/out 2>&1 &
exec 3>$T/in
wait_line '^ready' $T/out || { fail busy-fixture "did not start: $(cat $T/out)"; exit 1; }
iter=$(awk '$1=="iter"{print $2}' $T/out)
lattop -m helpers -b -o csv -c -d 0.5 -D 120 -p "$iter" >$T/b.csv 2>$T/b.err &
lp=$!
wait_line 'fentry' $T/b.csv 300
cmd "iter 500" >/dev/null
sleep 1
kill -INT $lp
wait $lp
expect busy-for-each-count "$(hcol count bpf_for_each_map_elem iter_arr $T/b.csv)" 500 ||
	{ head -n 1 $T/b.csv; tail -n 4 $T/b.csv; cat $T/b.err; }
# The lookup row is there (BPF_FUNC_map_lookup_elem = 1) with nothing timed (count empty).
expect busy-lookup-row "$(hcol helper_id bpf_map_lookup_elem nest_hash $T/b.csv)" 1
c=$(hcol count bpf_map_lookup_elem nest_hash $T/b.csv)
expect busy-lookup-untimed "${c:-0}" 0
expect busy-counted "$(ctr helper_busy $T/b.csv)" 2000
lattop -m helpers -b -n 1 -d 0.3 -p "$iter" >$T/b.txt 2>&1
ok busy-text-line grep -q '^counters: .*helper_busy 0' $T/b.txt || cat $T/b.txt
echo quit >&3
exec 3>&-
wait
