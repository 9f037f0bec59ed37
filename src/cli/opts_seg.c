// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * opts_seg.c - which vhost segment options go together; the device and the profile.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "cli/opts.h"

/* Resolve a device name; one sentence when there is no such device. */
static int device_index(const char *name, uint32_t *out, const char *what, char *err,
			size_t errlen)
{
	unsigned int i = strlen(name) < IF_NAMESIZE ? if_nametoindex(name) : 0;

	if (!i) {
		snprintf(err, errlen, "no network device '%s'%s (see `ip link`)", name, what);
		return -EINVAL;
	}
	*out = i;
	return 0;
}

/* Check the vhost segment options. */
int opts__check_segments(struct opts *o, char *err, size_t errlen)
{
	bool any = o->device || o->flow_spec || o->profile_out;

	if (o->discover) {
		if (o->profile_path || o->replay || o->batch || o->nspans || o->mode_set) {
			snprintf(err, errlen,
				 "--discover runs on its own: give it only --device, --flow, "
				 "--profile-out and -D");
			return -EINVAL;
		}
		if (!o->device || !o->flow_spec || !o->profile_out) {
			snprintf(err, errlen,
				 "--discover needs --device DEV, --flow SPEC and --profile-out FILE");
			return -EINVAL;
		}
		if (!o->duration_ns)
			o->duration_ns = 10000000000ull;
		return device_index(o->device, &o->ifindex, "", err, errlen);
	}
	if (any) {
		snprintf(err, errlen, "--device, --flow and --profile-out go with --discover");
		return -EINVAL;
	}
	if ((o->details || o->fifo_slots) && !o->profile_path) {
		snprintf(err, errlen, "--details and --fifo-slots go with --profile");
		return -EINVAL;
	}
	if (o->details && !o->batch) {
		snprintf(err, errlen, "--details prints one line per packet in batch mode: add -b");
		return -EINVAL;
	}
	if (!o->profile_path)
		return 0;
	if (o->replay) {
		snprintf(err, errlen, "--profile traces a live system: it does not apply to -r");
		return -EINVAL;
	}
	if (profile__load(&o->profile, o->profile_path, err, errlen))
		return -EINVAL;
	if (flow__parse(&o->flow, o->profile.flow, err, errlen)) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "profile %s: \"flow\": %s", o->profile_path, why);
		return -EINVAL;
	}
	return device_index(o->profile.device, &o->ifindex,
			    " (the profile's device: stale profile, run lattop --discover again)",
			    err, errlen);
}
