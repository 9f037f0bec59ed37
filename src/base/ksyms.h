/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ksyms.h - the one reader of /proc/kallsyms ("ffffffff81000000 T name\t[module]" lines):
 * line by line through a callback (for a few names: the vhost chain's functions), or every
 * text symbol loaded and sorted by address (to name the targets of a program's calls).
 *
 * The file has 100k+ lines and takes ~1 s to read under emulation: lines are split by hand
 * (no sscanf) and nothing is allocated per line.
 *
 * Thread use: any (a struct ksyms is read-only once loaded).
 */
#ifndef LAT_KSYMS_H
#define LAT_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the kernel lists its symbols. */
#define KSYMS_PATH "/proc/kallsyms"

/* One line of the file (the strings live until the callback returns). */
struct ksym {
	uint64_t addr;      /* 0 for every symbol where kptr_restrict hides addresses */
	char type;          /* 't'/'T' text, 'd'/'D' data, ... */
	const char *name;
	const char *module; /* without its brackets; NULL for vmlinux */
};

/* Call fn(ctx, sym) for each symbol line of path (KSYMS_PATH or a copy); a line that is not
 * "ADDR TYPE NAME[\t[MODULE]]" is skipped. A non-zero return from fn stops the walk and is
 * returned. Returns 0, fn's value, or -errno when path cannot be opened. */
int ksyms__each(const char *path, int (*fn)(void *ctx, const struct ksym *sym), void *ctx);

/* The text symbols ('t'/'T') of path, sorted by address; NULL with errno set on failure. */
struct ksyms *ksyms__load(const char *path);
/* Free the symbols (NULL is a no-op). */
void ksyms__free(struct ksyms *ks);
/* How many text symbols were loaded. */
size_t ksyms__count(const struct ksyms *ks);
/* The name of the text symbol at exactly addr, or NULL. */
const char *ksyms__name_at(const struct ksyms *ks, uint64_t addr);
/* The address of the first text symbol called name (0 when there is none). */
uint64_t ksyms__addr(const struct ksyms *ks, const char *name);
/* True when the file gave no addresses (all 0: kernel.kptr_restrict, or not root). */
bool ksyms__hidden(const struct ksyms *ks);

#endif /* LAT_KSYMS_H */
