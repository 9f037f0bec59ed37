# --activities on a Debian kernel (no CONFIG_USER_EVENTS: 6.1 has it depend on BROKEN, 6.12
# leaves it unset): one sentence naming what is missing, status 2, nothing else printed. The
# user_events kernel's own tests are tests/vm/uevents (make vmtest-uevents).
. /tests/lib.sh
T=/tmp/noue
mkdir -p $T

if [ -e /sys/kernel/tracing/user_events_data ]; then
	skip no-user-events "this kernel has user_events"
	exit 0
fi
lattop --activities Prov_L4K1 -b -n 1 >$T/out 2>$T/err
expect no-user-events-status $? 2
expect no-user-events-lines "$(wc -l <$T/err)" 1
ok no-user-events-sentence grep -q '^lattop: this kernel has no user_events (/sys/kernel/tracing/user_events_data is missing: CONFIG_USER_EVENTS)' $T/err
expect no-user-events-stdout "$(wc -c <$T/out)" 0
