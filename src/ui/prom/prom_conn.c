// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_conn.c - the HTTP server's connection table (see prom_conn.h): two lists in the order
 * connections entered their state, so the oldest, the one to close first, is always a list's
 * head, and checking the deadlines costs one look per connection closed plus one.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "ui/prom/prom_conn.h"

enum conn_state { CS_FREE, CS_WAITING, CS_BUSY, CS_CLOSING };

struct prom_conn {
	struct prom_conn *prev, *next; /* in its state's list, or the free list */
	uint64_t since_ns;	       /* entered its state */
	int fd;
	enum conn_state state;
};

/* A list of entries, oldest first. */
struct conn_list {
	struct prom_conn *head, *tail;
};

struct prom_conns {
	struct conn_list waiting, busy, free;
	unsigned int max, live; /* live: waiting + busy */
	uint64_t head_ns, send_ns;
	struct prom_conns_stats st;
	struct prom_conn e[]; /* max + slack */
};

/* Append c at the tail of l. */
static void list_push(struct conn_list *l, struct prom_conn *c)
{
	c->next = NULL;
	c->prev = l->tail;
	if (l->tail)
		l->tail->next = c;
	else
		l->head = c;
	l->tail = c;
}

/* Take c out of l. */
static void list_unlink(struct conn_list *l, struct prom_conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		l->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		l->tail = c->prev;
	c->prev = c->next = NULL;
}

/* The list holding entries in state s (NULL for CS_CLOSING: closing entries are in none). */
static struct conn_list *list_of(struct prom_conns *t, enum conn_state s)
{
	switch (s) {
	case CS_WAITING:
		return &t->waiting;
	case CS_BUSY:
		return &t->busy;
	case CS_FREE:
		return &t->free;
	default:
		return NULL;
	}
}

/* Move c to state s from now_ns (the tail of its new list). */
static void move(struct prom_conns *t, struct prom_conn *c, enum conn_state s, uint64_t now_ns)
{
	struct conn_list *from = list_of(t, c->state), *to = list_of(t, s);

	if (from)
		list_unlink(from, c);
	if ((c->state == CS_WAITING || c->state == CS_BUSY) && !(s == CS_WAITING || s == CS_BUSY))
		t->live--;
	else if (!(c->state == CS_WAITING || c->state == CS_BUSY) &&
		 (s == CS_WAITING || s == CS_BUSY))
		t->live++;
	c->state = s;
	c->since_ns = now_ns;
	if (to)
		list_push(to, c);
}

/* Shut connection c down: libmicrohttpd reads its end at the next event and closes it. */
static void evict(struct prom_conns *t, struct prom_conn *c, uint64_t *counter)
{
	shutdown(c->fd, SHUT_RDWR);
	move(t, c, CS_CLOSING, c->since_ns);
	(*counter)++;
}

/* Create the table. */
struct prom_conns *prom_conns__new(unsigned int max, unsigned int slack, uint64_t head_ns,
				   uint64_t send_ns)
{
	unsigned int n = max + slack;
	struct prom_conns *t;

	if (!max) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t) + (size_t)n * sizeof(t->e[0]));
	if (!t)
		return NULL;
	t->max = max;
	t->head_ns = head_ns;
	t->send_ns = send_ns;
	for (unsigned int i = 0; i < n; i++) {
		t->e[i].fd = -1;
		t->e[i].state = CS_FREE;
		list_push(&t->free, &t->e[i]);
	}
	return t;
}

/* Free the table. */
void prom_conns__free(struct prom_conns *t) { free(t); }

/* Close the connections whose deadline passed. */
void prom_conns__sweep(struct prom_conns *t, uint64_t now_ns)
{
	struct prom_conn *c;

	while ((c = t->waiting.head) && now_ns - c->since_ns >= t->head_ns)
		evict(t, c, &t->st.evicted_deadline);
	while ((c = t->busy.head) && now_ns - c->since_ns >= t->send_ns)
		evict(t, c, &t->st.evicted_deadline);
}

/* Enter a new connection, making room first. */
struct prom_conn *prom_conns__start(struct prom_conns *t, int fd, uint64_t now_ns)
{
	struct prom_conn *c = t->free.head;

	prom_conns__sweep(t, now_ns);
	if (!c)
		return NULL;
	if (t->live >= t->max) {
		struct prom_conn *old = t->waiting.head ? t->waiting.head : t->busy.head;

		evict(t, old, &t->st.evicted_full);
	}
	c->fd = fd;
	move(t, c, CS_WAITING, now_ns);
	t->st.open++;
	if (t->st.open > t->st.peak)
		t->st.peak = t->st.open;
	return c;
}

/* Its request head is complete. */
void prom_conns__busy(struct prom_conns *t, struct prom_conn *c, uint64_t now_ns)
{
	if (c && c->state == CS_WAITING)
		move(t, c, CS_BUSY, now_ns);
	prom_conns__sweep(t, now_ns);
}

/* Its response was sent or abandoned. */
void prom_conns__waiting(struct prom_conns *t, struct prom_conn *c, uint64_t now_ns)
{
	if (c && c->state == CS_BUSY)
		move(t, c, CS_WAITING, now_ns);
}

/* libmicrohttpd closed it. */
void prom_conns__closed(struct prom_conns *t, struct prom_conn *c)
{
	if (!c || c->state == CS_FREE)
		return;
	move(t, c, CS_FREE, 0);
	c->fd = -1;
	t->st.open--;
}

/* The table's figures. */
struct prom_conns_stats prom_conns__stats(const struct prom_conns *t) { return t->st; }
