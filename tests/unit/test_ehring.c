// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_ehring.c - the EventHeader reader's perf ring step (collect/ehtrace.c,
 * ehtrace__parse_ring): samples laid out as the kernel writes them for PERF_SAMPLE_TID | TIME |
 * CPU | RAW (the raw part: the tracepoint's 8 common bytes, then the event, padded), one of
 * them wrapping around the ring's end; PERF_RECORD_LOST counted; a sample too short for its
 * fields and one whose raw size runs past it counted as lost; a torn header stops the reading.
 */
#include <linux/perf_event.h>
#include <string.h>

#include "base/evhdr.h"
#include "collect/ehpair.h"
#include "collect/ehtrace.h"
#include "test.h"

#define RING 512

static uint8_t ring[RING];
static int nsamples;
static uint64_t dur;

static void on_sample(void *arg, const struct ehpair_sample *s)
{
	(void)arg;
	nsamples++;
	dur = s->dur_ns;
}

/* Put len bytes at offset off of the ring (wrapping). */
static void ring_put(uint64_t off, const void *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		ring[(off + i) % RING] = ((const uint8_t *)p)[i];
}

/* A sample at off of an event with opcode op and activity id k at time ts; returns its size. */
static uint16_t sample(uint64_t off, uint8_t op, uint8_t k, uint64_t ts)
{
	uint8_t b[128] = {};
	uint8_t ev[28] = {EVHDR_F_LE | EVHDR_F_PTR64 | EVHDR_F_EXT,
			  0,
			  0,
			  0,
			  0,
			  0,
			  op,
			  4,
			  16,
			  0,
			  EVHDR_EXT_ACTIVITY,
			  0,
			  k};
	struct perf_event_header h = {PERF_RECORD_SAMPLE, 0, 0};
	uint32_t raw = 8 + sizeof(ev), tid = 77, cpu = 1;
	size_t n = sizeof(h);

	memcpy(b + n + 4, &tid, 4);
	memcpy(b + n + 8, &ts, 8);
	memcpy(b + n + 16, &cpu, 4);
	memcpy(b + n + 24, &raw, 4);
	memcpy(b + n + 28 + 8, ev, sizeof(ev));
	n += 28 + raw;
	n = (n + 7) & ~(size_t)7;
	h.size = (uint16_t)n;
	memcpy(b, &h, sizeof(h));
	ring_put(off, b, n);
	return h.size;
}

static void test_ring(void)
{
	struct ehpair *p = ehpair__new(1000000000ull, on_sample, NULL);
	struct perf_event_header h;
	struct ehpair_loss l;
	uint64_t off = RING - 40, head, tail, lost[2] = {1, 5};
	uint8_t short_rec[16] = {};

	ehpair__add(p, "Prov_L4K1", NULL, NULL);
	/* A start that wraps around the end of the ring, then its stop. */
	head = off + sample(off, EVHDR_OP_START, 3, 1000);
	head += sample(head, EVHDR_OP_STOP, 3, 4500);
	/* PERF_RECORD_LOST: id, lost. */
	h = (struct perf_event_header){PERF_RECORD_LOST, 0, sizeof(h) + 16};
	ring_put(head, &h, sizeof(h));
	ring_put(head + sizeof(h), lost, 16);
	head += h.size;
	/* A sample too short for its fields. */
	h = (struct perf_event_header){PERF_RECORD_SAMPLE, 0, sizeof(h) + sizeof(short_rec)};
	ring_put(head, &h, sizeof(h));
	ring_put(head + sizeof(h), short_rec, sizeof(short_rec));
	head += h.size;
	/* A sample whose raw size runs past its record. */
	{
		uint32_t big = 200;
		uint16_t n = sample(head, EVHDR_OP_START, 4, 5000);

		ring_put(head + sizeof(h) + 24, &big, 4);
		head += n;
	}
	tail = ehtrace__parse_ring(ring, RING, off, head, p, 0);
	ASSERT_EQ(tail, head, "read to the head");
	ASSERT_EQ(nsamples, 1, "one pair");
	ASSERT_EQ(dur, 3500, "its duration");
	ehpair__loss(p, &l);
	ASSERT_EQ(l.lost, 7, "5 lost by the kernel, a short sample, a raw size past the record");
	ASSERT_EQ(l.malformed + l.foreign + l.unmatched, 0, "nothing else");
	ASSERT_EQ(ehpair__pending(p), 0, "the bad sample's start never taken");
	/* A header claiming more than was written stops the reading where it is. */
	h = (struct perf_event_header){PERF_RECORD_SAMPLE, 0, 64};
	ring_put(head, &h, sizeof(h));
	ASSERT_EQ(ehtrace__parse_ring(ring, RING, head, head + 16, p, 0), head, "torn record");
	h.size = 4;
	ring_put(head, &h, sizeof(h));
	ASSERT_EQ(ehtrace__parse_ring(ring, RING, head, head + 64, p, 0), head, "size < header");
	ehpair__free(p);
}

int main(void)
{
	test__suite = "ehring";
	RUN_TEST(test_ring);
	return TEST_EXIT();
}
