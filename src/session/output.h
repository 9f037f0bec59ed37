/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * output.h - the outputs of a session (--eventheader's events, the recording, the flight
 * recorder): each is handed every closed interval, and stopped with the session. An output
 * measures nothing; it depends on session.h, and the session knows outputs only through this
 * table.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_OUTPUT_H
#define LAT_SESSION_OUTPUT_H

#include <stddef.h>

struct session;

/* One output (every op may be NULL). */
struct output_ops {
	const char *name;
	/* Open with a live session, after its kinds (--eventheader): an exit status, with one
	 * sentence in err on failure. Outputs started later (-w, the w key, --flight) leave it
	 * NULL and are started by their own verbs. */
	int (*open)(struct session *s, char *err, size_t errlen);
	/* Every tick of any session, live or replayed (requests from other threads). */
	void (*tick)(struct session *s);
	/* The interval s->m just closed (live). */
	void (*interval)(struct session *s);
	/* Flush and stop (safe when the output never started, and twice). */
	void (*stop)(struct session *s);
};

/* The outputs, each in its own file of src/output/, and their list (output/outputs.c): the
 * session reaches them only through it. */
extern const struct output_ops output_ehemit; /* output/ehemit.c */
extern const struct output_ops output_record; /* output/record.c */
extern const struct output_ops output_flight; /* output/flight_ses.c */
extern const struct output_ops *const output_list[];
extern const size_t output_count;

/* Each op over the list (output.c), in its order: EventHeader events, the recording, the
 * flight recorder. open stops at the first failure and returns its exit status. */
int outputs__open(struct session *s, char *err, size_t errlen);
void outputs__tick(struct session *s);
void outputs__interval(struct session *s);
void outputs__stop(struct session *s);

#endif /* LAT_SESSION_OUTPUT_H */
