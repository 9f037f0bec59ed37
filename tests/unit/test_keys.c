// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_keys.c - the TUI's key table: each label names exactly the keys its entry dispatches,
 * no key means two things in one kind of session, and every replay clock action has a key.
 * With --list: the table as "SCOPE NAME" lines (live, replay, both or compare; one per key name of a
 * label) for tests/host/t_docs.sh to compare with the man page's KEYS section.
 */
#include <curses.h>
#include <signal.h>
#include <stdlib.h>

#include "ui/tui/keys.h"
#include "test.h"

/* The curses key code of a key name as labels write it, -1 for an unknown name. */
static int code_of(const char *name)
{
	static const struct {
		const char *name;
		int code;
	} named[] = {
		{ "space", ' ' },	  { "Enter", '\n' },	 { "Tab", '\t' },
		{ "Up", KEY_UP },	  { "Down", KEY_DOWN },	 { "PgUp", KEY_PPAGE },
		{ "PgDn", KEY_NPAGE }, { "Home", KEY_HOME }, { "End", KEY_END },
	};

	if (!name[1])
		return (unsigned char)name[0];
	if (name[0] == 'F' && atoi(name + 1) > 0)
		return KEY_F(atoi(name + 1));
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(name, named[i].name))
			return named[i].code;
	return -1;
}

/* Each label is "KEY" or "KEY ALT" naming exactly the entry's key and alt. */
static void test_labels_name_the_keys(void)
{
	size_t n;
	const struct tui_key *k = tui__keys(&n);

	ASSERT_TRUE(n >= 30, "table read");
	for (size_t i = 0; i < n; i++) {
		char first[16] = "", second[16] = "", rest[16] = "";
		int words = sscanf(k[i].label, "%15s %15s %15s", first, second, rest);

		ASSERT_TRUE(words == 1 || words == 2, k[i].label);
		ASSERT_EQ(code_of(first), k[i].key, k[i].label);
		ASSERT_EQ(words == 2 ? code_of(second) : 0, k[i].alt, k[i].label);
		ASSERT_TRUE(k[i].help && k[i].help[0], "help text");
	}
}

/* Every entry does one thing: a handler or a replay action, and replay actions only in a
 * replay; each replay action has a key. */
static void test_handlers(void)
{
	size_t n;
	const struct tui_key *k = tui__keys(&n);
	int keys_of[RA_LAST + 1] = { 0 };

	for (size_t i = 0; i < n; i++) {
		ASSERT_TRUE(k[i].scope == KEY_LIVE || k[i].scope == KEY_REPLAY ||
				    k[i].scope == KEY_BOTH || k[i].scope == KEY_COMPARE,
			    k[i].label);
		ASSERT_TRUE(!k[i].fn != !k[i].act, k[i].label);
		if (k[i].act) {
			ASSERT_EQ(k[i].scope, KEY_REPLAY, k[i].label);
			keys_of[k[i].act]++;
		}
	}
	for (int a = RA_PAUSE; a <= RA_LAST; a++)
		ASSERT_EQ(keys_of[a], 1, "one key per replay action");
}

/* No key code is in two entries that share a kind of session: the dispatcher would never reach
 * the second one, while `?` would describe it. */
static void test_one_meaning(void)
{
	size_t n;
	const struct tui_key *k = tui__keys(&n);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++) {
			int a[2] = { k[i].key, k[i].alt }, b[2] = { k[j].key, k[j].alt };

			if (!(k[i].scope & k[j].scope))
				continue;
			for (int x = 0; x < 2; x++)
				for (int y = 0; y < 2; y++)
					if (a[x] && a[x] == b[y]) {
						printf("  '%s' and '%s' share a key\n", k[i].label,
						       k[j].label);
						ASSERT_TRUE(false, "one meaning per key and session");
					}
		}
}

/* Print the table as "SCOPE NAME" lines. */
static int list_keys(void)
{
	static const char *const scopes[] = { [KEY_LIVE] = "live", [KEY_REPLAY] = "replay",
					       [KEY_BOTH] = "both", [KEY_COMPARE] = "compare" };
	size_t n;
	const struct tui_key *k = tui__keys(&n);

	for (size_t i = 0; i < n; i++) {
		char first[16] = "", second[16] = "";
		int words = sscanf(k[i].label, "%15s %15s", first, second);

		printf("%s %s\n", scopes[k[i].scope], first);
		if (words == 2)
			printf("%s %s\n", scopes[k[i].scope], second);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list_keys();
	test__suite = "keys";
	RUN_TEST(test_labels_name_the_keys);
	RUN_TEST(test_handlers);
	RUN_TEST(test_one_meaning);
	printf("keys: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
