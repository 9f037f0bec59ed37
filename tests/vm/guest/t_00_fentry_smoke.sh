# fentry/fexit (BPF trampolines) on a BPF program: 100000 XDP test runs must give exactly
# 100000 fentry and 100000 fexit hits (tests/vm/fixtures/fentry_smoke.c).
. /tests/lib.sh
if out=$(fentry_smoke 2>&1); then
	echo "$out"
	pass fentry_smoke
else
	echo "$out"
	fail fentry_smoke "$(echo "$out" | grep -E 'MISMATCH|fentry_smoke: [a-z /_]+: ' | head -n 1)"
fi
