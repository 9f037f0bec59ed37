#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# image/import.sh ROOTFS.tar NAME: the root file system image/build-rootfs.sh made, imported
# into podman as NAME with lattop as its entry point, serving Prometheus metrics on port 9364.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 ROOTFS.tar NAME" >&2; exit 2; }
podman import --quiet \
	--change 'ENTRYPOINT ["/usr/sbin/lattop"]' \
	--change 'CMD ["--listen", "0.0.0.0:9364"]' \
	--change 'EXPOSE 9364/tcp' \
	--change 'LABEL org.opencontainers.image.title=lattop' \
	"$1" "$2" >/dev/null
echo "$2"
