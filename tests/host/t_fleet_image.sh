#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The container image and the DaemonSet (image/, docs/GUIDE.md "Fleet"): the .deb (make deb,
# or DEB=path) installed on a cached Debian 12 base into a root file system tarball
# (image/build-rootfs.sh), imported into podman (image/import.sh) and run there where podman
# can start a container; where it cannot (a SKIP line gives podman's own error), the root file
# system exported from that image runs under systemd-nspawn, read-only, with the DaemonSet's
# args and CAP_SYS_ADMIN as its only capability, and is scraped from the host. The DaemonSet's
# structure is checked offline (tests/fleet/k8s_check.py). The tree is unmounted (and checked)
# before it is removed; no host directory is bound into it.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-fleet-image
. tests/distro/chroot.sh
. tests/host/prom_lib.sh
VERSION=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
IMG=localhost/lattop-test-$$:$VERSION
TREE= NSPID= IMPORTED=
LOCK=${LATTOP_LOCK:-/run/lattop.lock}
# in_tree: the processes whose root is in the tree. systemd-nspawn mounts in a mount namespace
# of its own, which findmnt here does not see: the tree is removed only once no process runs
# in it (and nothing is mounted under it in this namespace either: distro_leave).
in_tree() {
	local p
	for p in /proc/[0-9]*; do
		case $(readlink "$p/root" 2>/dev/null) in "$TREE" | "$TREE"/*) echo "${p#/proc/}" ;; esac
	done
}
leave_tree() {
	local _
	for _ in $(seq 100); do [ -z "$(in_tree)" ] && break; sleep 0.1; done
	if [ -n "$(in_tree)" ]; then
		echo "processes $(in_tree | tr '\n' ' ')still run in $TREE: not removed" >&2
		return 1
	fi
	distro_leave "$TREE"
}
cleanup() {
	if [ -n "$NSPID" ]; then
		kill -TERM "$NSPID" 2>/dev/null
		wait "$NSPID" 2>/dev/null
	fi
	[ -n "$TREE" ] && leave_tree
	[ -n "$IMPORTED" ] && podman rmi -f "$IMG" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT

# The DaemonSet: structure only (what is checked and why no more: k8s_check.py).
python3 tests/fleet/k8s_check.py image/lattop-daemonset.yaml >"$TMP/args" 2>&1
rc=$?
if [ $rc = 0 ]; then pass daemonset-structure; else fail daemonset-structure "$(tr '\n' ';' <"$TMP/args")"; fi
mapfile -t ARGS <"$TMP/args"
skip daemonset-schema "no offline validator: kubectl needs an API server (its OpenAPI schema and API discovery) even for --dry-run=client"

why=$(distro_unusable)
command -v systemd-nspawn >/dev/null || why=${why:-"systemd-nspawn is not installed (make deps: systemd-container)"}
command -v dpkg-buildpackage >/dev/null || why=${why:-"dpkg-buildpackage is not installed (make deps)"}
if [ -n "$why" ]; then
	skip image "$why"
	end_suite
	exit 0
fi

# The .deb, the root file system and the podman image: make image (with DEB=path, that .deb
# through the same scripts make image runs).
t0=$SECONDS
ROOTFS=$TMP/rootfs.tar
if [ -z "${DEB:-}" ]; then
	make -s image IMAGE="$IMG" IMAGE_TAR="$ROOTFS" >"$TMP/image.log" 2>&1 || tail -n 20 "$TMP/image.log"
	DEB=$OUTPUT/deb/lattop_${VERSION}_$(dpkg --print-architecture).deb
	check deb-built test -s "$DEB"
else
	check deb-given test -s "$DEB"
	bash image/build-rootfs.sh "$DEB" "$ROOTFS" >"$TMP/image.log" 2>&1 &&
		{ ! command -v podman >/dev/null || bash image/import.sh "$ROOTFS" "$IMG" >>"$TMP/image.log" 2>&1; }
fi
expect_eq rootfs-built "$(tar -tf "$ROOTFS" 2>/dev/null | grep -cxE '\./usr/sbin/lattop|\./usr/lib/systemd/system/lattop\.service')" 2
echo "# make image (or the rootfs from DEB): $((SECONDS - t0)) s"

# podman: run the image where podman can start a container; export its root file system for
# systemd-nspawn either way.
if ! command -v podman >/dev/null; then
	skip podman "podman is not installed (make deps): systemd-nspawn runs the tarball itself"
elif ! podman image exists "$IMG"; then
	fail podman-import "no image $IMG: $(tail -n 3 "$TMP/image.log")"
else
	IMPORTED=1
	expect_eq podman-import "$(podman image inspect "$IMG" --format '{{.Config.Entrypoint}} {{.Config.Cmd}}')" \
		"[/usr/sbin/lattop] [--listen 0.0.0.0:9364]"
	PP=$(free_port)
	wait_lock
	podman run --rm --name "lattop-test-$$" --privileged --pid=host --network=host "$IMG" \
		--demo --listen "127.0.0.1:$PP" \
		>"$TMP/podman.out" 2>&1 &
	PODPID=$!
	for _ in $(seq 240); do # until it serves or podman gave up, up to 60 s
		kill -0 "$PODPID" 2>/dev/null || break
		curl -s "http://127.0.0.1:$PP/metrics" | grep -q '^lattop_intervals_total [1-9]' && break
		sleep 0.25
	done
	if kill -0 "$PODPID" 2>/dev/null; then
		check podman-scrape curl -sf -o "$TMP/podman.metrics" "http://127.0.0.1:$PP/metrics"
		check podman-demo grep -q 'prog_name="demo_xdp_hash"' "$TMP/podman.metrics"
		podman stop --time 10 "lattop-test-$$" >/dev/null 2>&1 || true
		kill -TERM "$PODPID" 2>/dev/null
		wait "$PODPID"
	else
		wait "$PODPID"
		skip podman-run "podman cannot start a container here (exit $?): $(grep -m1 . "$TMP/podman.out")"
	fi
	C=$(podman create "$IMG" 2>"$TMP/create.err")
	if [ -n "$C" ] && podman export "$C" -o "$TMP/exported.tar" 2>"$TMP/export.err"; then
		ROOTFS=$TMP/exported.tar
		pass podman-export
	else
		fail podman-export "$(cat "$TMP/create.err" "$TMP/export.err" | head -n 3)"
	fi
	[ -n "$C" ] && podman rm -f "$C" >/dev/null 2>&1
fi

# systemd-nspawn: the image's tree, read-only, sharing the host's network; bpf() and
# perf_event_open() allowed past nspawn's default system call filter; lattop keeps only
# CAP_SYS_ADMIN (setpriv). The session lock of this suite is held meanwhile (the container's
# own /run has another).
TREE=$(mktemp -d /var/tmp/lattop-fleet-image.XXXXXX)
tar -C "$TREE" -xf "$ROOTFS"
# No host file goes in: no time zone or resolv.conf bind. SIGTERM to nspawn is passed to lattop.
NSPAWN=(systemd-nspawn --register=no --keep-unit --quiet --console=pipe --read-only --timezone=off
	--resolv-conf=off --kill-signal=SIGTERM --system-call-filter='bpf perf_event_open' -D "$TREE")
only_caps() { # CAPS: setpriv's bounding set
	echo /usr/bin/setpriv --bounding-set=-all${1:+,$1} --inh-caps=-all --
}
expect_eq nspawn-version "$("${NSPAWN[@]}" /usr/sbin/lattop --version 2>&1 | grep -m1 '^lattop')" "lattop $VERSION"
exec 9>>"$LOCK"
flock -w 120 9
# Without CAP_SYS_ADMIN, lattop says so and stops.
out=$("${NSPAWN[@]}" $(only_caps +bpf,+perfmon) /usr/sbin/lattop --demo -b -n 1 2>&1 | grep '^lattop')
expect_eq nspawn-needs-sys-admin "$out" \
	"lattop: a live session needs root (CAP_SYS_ADMIN) to list BPF programs and enable their run-time stats: run it with sudo"
NP=$(free_port)
ARGS=("${ARGS[@]/0.0.0.0:9364/127.0.0.1:$NP}")
# (A simple command, so that $! is nspawn's own pid.)
"${NSPAWN[@]}" $(only_caps +sys_admin) /usr/sbin/lattop "${ARGS[@]}" --demo -d 1 >"$TMP/nspawn.out" 2>&1 &
NSPID=$!
served() {
	for _ in $(seq 240); do # up to 60 s
		curl -s "http://127.0.0.1:$NP/metrics" >"$TMP/ns.metrics" 2>/dev/null
		grep -q '^lattop_intervals_total [1-9]' "$TMP/ns.metrics" && return 0
		kill -0 "$NSPID" 2>/dev/null || return 1
		sleep 0.25
	done
	return 1
}
if served; then pass nspawn-serves; else fail nspawn-serves "$(head -c 300 "$TMP/nspawn.out")"; fi
promtool check metrics <"$TMP/ns.metrics" >"$TMP/promtool.out" 2>&1
expect_eq nspawn-promtool-check-metrics "$? $(cat "$TMP/promtool.out")" "0 "
expect_eq nspawn-demo-programs "$(grep -oE '^lattop_program_runs_total\{[^}]*prog_name="demo_[a-z_]+"' "$TMP/ns.metrics" | grep -oE 'demo_[a-z_]+' | sort | tr '\n' ' ')" \
	"demo_sk_queue demo_xdp_array demo_xdp_hash demo_xdp_lru "
check nspawn-losses-family grep -q '^lattop_lost_events_total{reason="ringbuf"}' "$TMP/ns.metrics"
kill -TERM "$NSPID"
wait "$NSPID"
expect_eq nspawn-sigterm-status $? 0
NSPID=
flock -u 9
exec 9>&-
# Nothing runs in the tree any more, nothing is mounted under it: removed.
leave_tree
expect_eq tree-removed "$(distro_mounts "$TREE" | wc -l) $([ -e "$TREE" ] && echo left || echo gone)" "0 gone"
TREE=
end_suite
