// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * outputs.c - the list of a session's outputs (session/output.h), in the order of every op:
 * the EventHeader events first, then the recording, then the flight recorder (the order each
 * closed interval was handed to them in before they were a list). A new output is a file here
 * and one more line in this list.
 *
 * Thread use: read by the UI/main thread only.
 */
#include "session/output.h"

const struct output_ops *const output_list[] = {
	&output_ehemit,
	&output_record,
	&output_flight,
};
const size_t output_count = sizeof(output_list) / sizeof(output_list[0]);
