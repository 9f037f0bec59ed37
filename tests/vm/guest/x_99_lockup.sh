# The harness's own hang path, on a real kernel lockup (opt-in, and it must be the last test
# of its boot: the guest panics in it). The `lockup` fixture runs a BPF program that does not
# return for hours; the soft-lockup watchdog must panic the guest (softlockup_panic=1), so
# run.sh prints `FAIL vm/boot` with the stuck CPU's stack naming lockup_spin in its hang log.
# A PASS line here means the guest survived it: the watchdog did not fire.
. /tests/lib.sh
echo "x_99: starting a lockup on purpose; the guest must panic now"
lockup
fail lockup-survived "lockup returned: the soft-lockup watchdog did not stop the guest"
