// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * output.c - each op of a session's outputs (session/output.h) over their list (which
 * output/outputs.c holds), in the list's order.
 *
 * Thread use: UI/main thread only.
 */
#include "session/output.h"
#include "session/session.h"

/* Open the outputs that open with a live session. */
int outputs__open(struct session *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < output_count; i++) {
		int e = output_list[i]->open ? output_list[i]->open(s, err, errlen) : EXIT_OK;

		if (e != EXIT_OK)
			return e;
	}
	return EXIT_OK;
}

/* Every tick. */
void outputs__tick(struct session *s)
{
	for (size_t i = 0; i < output_count; i++)
		if (output_list[i]->tick)
			output_list[i]->tick(s);
}

/* The interval just closed. */
void outputs__interval(struct session *s)
{
	for (size_t i = 0; i < output_count; i++)
		if (output_list[i]->interval)
			output_list[i]->interval(s);
}

/* Flush and stop each. */
void outputs__stop(struct session *s)
{
	for (size_t i = 0; i < output_count; i++)
		if (output_list[i]->stop)
			output_list[i]->stop(s);
}
