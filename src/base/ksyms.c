// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ksyms.c - the one reader of /proc/kallsyms (see ksyms.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ksyms.h"

/* A loaded text symbol: its name is at names + off (offsets survive the arena's growth). */
struct ksyms_ent {
	uint64_t addr;
	size_t off;
};

struct ksyms {
	struct ksyms_ent *e; /* sorted by address */
	size_t n, cap;
	char *names; /* every name, NUL-terminated, back to back */
	size_t names_len, names_cap;
};

/* Split one line ("ADDR TYPE NAME[\t[MODULE]]\n", cut in place) into sym; false when it is
 * not such a line. */
static bool parse_line(char *line, struct ksym *sym)
{
	char *sp = strchr(line, ' '), *name, *end, *mod;

	if (!sp || sp == line || sp - line > 16 ||
	    strspn(line, "0123456789abcdefABCDEF") != (size_t)(sp - line) || !sp[1] || sp[2] != ' ')
		return false;
	name = sp + 3;
	end = name + strcspn(name, " \t\n");
	if (end == name)
		return false;
	mod = end;
	if (*mod == '\t' && mod[1] == '[') {
		mod += 2;
		mod[strcspn(mod, "]\n")] = '\0';
	} else {
		mod = NULL;
	}
	*end = '\0';
	sym->addr = strtoull(line, NULL, 16);
	sym->type = sp[1];
	sym->name = name;
	sym->module = mod;
	return true;
}

/* Walk the symbol lines of path. */
int ksyms__each(const char *path, int (*fn)(void *ctx, const struct ksym *sym), void *ctx)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		struct ksym sym;

		if (parse_line(line, &sym))
			ret = fn(ctx, &sym);
	}
	fclose(f);
	return ret;
}

/* ksyms__each callback of ksyms__load: keep a text symbol. */
static int keep_text(void *ctx, const struct ksym *sym)
{
	struct ksyms *ks = ctx;
	size_t l = strlen(sym->name) + 1;

	if (sym->type != 't' && sym->type != 'T')
		return 0;
	if (ks->n == ks->cap) {
		size_t ncap = ks->cap ? ks->cap * 2 : 65536;
		struct ksyms_ent *ne = realloc(ks->e, ncap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		ks->e = ne;
		ks->cap = ncap;
	}
	if (ks->names_len + l > ks->names_cap) {
		size_t ncap = ks->names_cap ? ks->names_cap * 2 : 1 << 20;
		char *nn;

		while (ncap < ks->names_len + l)
			ncap *= 2;
		nn = realloc(ks->names, ncap);
		if (!nn)
			return -ENOMEM;
		ks->names = nn;
		ks->names_cap = ncap;
	}
	memcpy(ks->names + ks->names_len, sym->name, l);
	ks->e[ks->n++] = (struct ksyms_ent){ .addr = sym->addr, .off = ks->names_len };
	ks->names_len += l;
	return 0;
}

/* qsort comparison of symbols by address (ties by position in the file, for a stable
 * order). */
static int by_addr(const void *a, const void *b)
{
	const struct ksyms_ent *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return (x->off > y->off) - (x->off < y->off);
}

/* Load and sort the text symbols. */
struct ksyms *ksyms__load(const char *path)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	int e;

	if (!ks)
		return NULL;
	e = ksyms__each(path, keep_text, ks);
	if (e) {
		ksyms__free(ks);
		errno = -e;
		return NULL;
	}
	qsort(ks->e, ks->n, sizeof(*ks->e), by_addr);
	return ks;
}

/* Free the symbols. */
void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->e);
	free(ks->names);
	free(ks);
}

/* How many text symbols. */
size_t ksyms__count(const struct ksyms *ks)
{
	return ks->n;
}

/* The symbol at exactly addr: binary search for the first at or above it. */
const char *ksyms__name_at(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->e[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ks->n && ks->e[lo].addr == addr ? ks->names + ks->e[lo].off : NULL;
}

/* The address of a symbol by name (a linear scan: asked once or twice per load). */
uint64_t ksyms__addr(const struct ksyms *ks, const char *name)
{
	const struct ksyms_ent *best = NULL;

	for (size_t i = 0; i < ks->n; i++)
		if (!strcmp(ks->names + ks->e[i].off, name) && (!best || ks->e[i].off < best->off))
			best = &ks->e[i];
	return best ? best->addr : 0;
}

/* All addresses 0 (sorted, so the last is the largest). */
bool ksyms__hidden(const struct ksyms *ks)
{
	return !ks->n || !ks->e[ks->n - 1].addr;
}
