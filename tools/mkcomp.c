// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mkcomp.c - print lattop's bash or zsh completion script, made from the option table that
 * also drives getopt_long and --help (cli/opts.c), so the three cannot drift apart. Run at
 * build time (make completions); nothing it prints is committed.
 *
 * Usage: mkcomp bash|zsh
 */
#include <stdio.h>
#include <string.h>

#include "base/themefind.h"
#include "model/model.h"
#include "cli/opts.h"

/* What a value is completed from, by the value's name in the table. */
enum val_kind {
	VAL_NONE = 0, /* typed by the user (numbers, lists, addresses) */
	VAL_FILE,
	VAL_MODE,
	VAL_FMT,
	VAL_THEME,
	VAL_DEV,
};

/* The kind of an option's value, from its name in --help. */
static enum val_kind val_kind(const struct opt_def *d)
{
	if (!d->arg)
		return VAL_NONE;
	if (!strcmp(d->arg, "MODE"))
		return VAL_MODE;
	if (!strcmp(d->arg, "FMT"))
		return VAL_FMT;
	if (!strcmp(d->arg, "NAME|PATH"))
		return VAL_THEME;
	if (!strcmp(d->arg, "DEV"))
		return VAL_DEV;
	if (!strncmp(d->arg, "FILE", 4))
		return VAL_FILE;
	return VAL_NONE;
}

/* Print the words of a value kind that has a fixed list (modes, formats), space-separated. */
static void fixed_words(FILE *f, enum val_kind k)
{
	if (k == VAL_MODE)
		for (int m = 0; m < MODE__COUNT; m++)
			fprintf(f, "%s%s", m ? " " : "", model__mode_name((enum lat_mode)m));
	else if (k == VAL_FMT)
		fputs("text csv json trace", f); /* o_output's names in opts.c */
}

/* Print the bash case labels of the options whose value is of kind k ("-m|--mode"); returns
 * how many options matched. */
static int bash_labels(FILE *f, const struct opt_def *t, size_t n, enum val_kind k, bool any)
{
	int count = 0;

	for (size_t i = 0; i < n; i++) {
		if (!t[i].arg || (!any && val_kind(&t[i]) != k))
			continue;
		if (t[i].letter)
			fprintf(f, "%s-%c", count++ ? "|" : "", t[i].letter);
		fprintf(f, "%s--%s", count++ ? "|" : "", t[i].name);
	}
	return count;
}

/* Print one bash case branch for value kind k with its completion command. */
static void bash_branch(FILE *f, const struct opt_def *t, size_t n, enum val_kind k)
{
	char buf[1024];
	FILE *m = fmemopen(buf, sizeof(buf), "w");

	if (!m || !bash_labels(m, t, n, k, false)) {
		if (m)
			fclose(m);
		return;
	}
	fclose(m);
	fprintf(f, "\t%s)\n\t\t", buf);
	if (k == VAL_FILE) {
		fputs("compopt -o filenames 2>/dev/null\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))",
		      f);
	} else if (k == VAL_THEME) {
		fprintf(f,
			"compopt -o filenames 2>/dev/null\n\t\tCOMPREPLY=($(compgen -W \"$(cd "
			"'%s' 2>/dev/null && ls -- *.json 2>/dev/null | sed 's/\\.json$//')\" -- "
			"\"$cur\") $(compgen -f -- \"$cur\"))",
			theme__dir());
	} else if (k == VAL_DEV) {
		fputs("COMPREPLY=($(compgen -W \"$(ls /sys/class/net 2>/dev/null)\" -- \"$cur\"))",
		      f);
	} else {
		fputs("COMPREPLY=($(compgen -W '", f);
		fixed_words(f, k);
		fputs("' -- \"$cur\"))", f);
	}
	fputs("\n\t\treturn\n\t\t;;\n", f);
}

/* Print the bash script: values after the options that take one, option names otherwise. */
static void print_bash(FILE *f, const struct opt_def *t, size_t n)
{
	static const enum val_kind kinds[] = {VAL_FILE, VAL_MODE, VAL_FMT, VAL_THEME, VAL_DEV};

	fputs("# bash completion for lattop(8): made from lattop's option table at build time.\n"
	      "_lattop()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tcase $prev in\n",
	      f);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		bash_branch(f, t, n, kinds[i]);
	/* Any other option with a value: the user types it. */
	fputs("\t", f);
	bash_labels(f, t, n, VAL_NONE, true);
	fputs(")\n\t\treturn\n\t\t;;\n\tesac\n\tCOMPREPLY=($(compgen -W '", f);
	for (size_t i = 0; i < n; i++) {
		if (t[i].letter)
			fprintf(f, "-%c ", t[i].letter);
		fprintf(f, "--%s%s", t[i].name, i + 1 < n ? " " : "");
	}
	fputs("' -- \"$cur\"))\n}\ncomplete -F _lattop lattop\n", f);
}

/* Print text up to the first of the characters in stop (or its end) for zsh, with the
 * characters _arguments treats as syntax escaped (quotes and backslashes left out), without
 * trailing spaces or punctuation. */
static void zsh_text(FILE *f, const char *text, const char *stop)
{
	size_t n = strcspn(text, stop);

	while (n && strchr(" ,;:", text[n - 1]))
		n--;
	for (size_t i = 0; i < n; i++) {
		if (strchr("[]:", text[i]))
			fputc('\\', f); /* _arguments reads these escaped as themselves */
		if (!strchr("'\\", text[i]))
			fputc(text[i], f);
	}
}

/* Print one _arguments spec of the zsh script. */
static void zsh_spec(FILE *f, const struct opt_def *d)
{
	enum val_kind k = val_kind(d);

	if (d->letter)
		fprintf(f, "\t'(-%c --%s)'{-%c,--%s}'[", d->letter, d->name, d->letter, d->name);
	else
		fprintf(f, "\t'--%s[", d->name);
	zsh_text(f, d->help, "\n(");
	fputc(']', f);
	if (d->arg) {
		fputc(':', f);
		zsh_text(f, d->arg, "");
		fputc(':', f);
		if (k == VAL_FILE || k == VAL_THEME)
			fputs("_files", f);
		else if (k == VAL_DEV)
			fputs("_net_interfaces", f);
		else if (k == VAL_MODE || k == VAL_FMT) {
			fputc('(', f);
			fixed_words(f, k);
			fputc(')', f);
		} else
			fputs(" ", f);
	}
	fputs("' \\\n", f);
}

/* Print the zsh script: one _arguments call over the table. */
static void print_zsh(FILE *f, const struct opt_def *t, size_t n)
{
	fputs("#compdef lattop\n"
	      "# zsh completion for lattop(8): made from lattop's option table at build time.\n"
	      "_arguments -s \\\n",
	      f);
	for (size_t i = 0; i < n; i++)
		zsh_spec(f, &t[i]);
	fputs("\t&& return 0\nreturn 1\n", f);
}

int main(int argc, char **argv)
{
	size_t n;
	const struct opt_def *t = opts__table(&n);

	if (argc == 2 && !strcmp(argv[1], "bash"))
		print_bash(stdout, t, n);
	else if (argc == 2 && !strcmp(argv[1], "zsh"))
		print_zsh(stdout, t, n);
	else {
		fprintf(stderr, "usage: mkcomp bash|zsh\n");
		return 2;
	}
	return fflush(stdout) ? 1 : 0;
}
