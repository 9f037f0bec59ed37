// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tui_cmp.c - placeholder */
#include "ui/compare.h"

int tui__run_compare(struct cmp_view *v, volatile sig_atomic_t *stop)
{
	(void)stop;
	return cmp_view__text(v, stdout);
}
