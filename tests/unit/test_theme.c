// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_theme.c - theme files: known keys override, unknown keys are warned and ignored,
 * missing keys fall back, bad JSON and bad values name the file and the key.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "ui/tui/theme.h"
#include "test.h"

static void test_default_names_every_slot(void)
{
	struct theme t;

	theme__default(&t);
	ASSERT_STREQ(t.name, "default", "name");
	for (int i = 0; i < TH__COUNT; i++)
		ASSERT_TRUE(strcmp(theme__slot_name(i), "?") != 0, "slot has a key");
	ASSERT_TRUE(!theme__is_mono(&t), "default has colours");
	theme__mono(&t);
	ASSERT_TRUE(theme__is_mono(&t), "mono has none");
}

static void test_known_keys(void)
{
	struct theme t, d;
	char msg[256];
	int err;

	theme__default(&d);
	err = theme__parse(&t,
			   "{\"name\": \"x\", \"colors\": {\"header\": {\"fg\": \"bright-red\", "
			   "\"bg\": 17, \"attrs\": [\"underline\", \"bold\"]}, "
			   "\"dim\": {\"fg\": \"white\"}}}",
			   "x.json", msg, sizeof(msg));
	ASSERT_OK(err, "parse");
	ASSERT_STREQ(msg, "", "no warning");
	ASSERT_STREQ(t.name, "x", "name");
	ASSERT_EQ(t.c[TH_HEADER].fg, 9, "bright-red");
	ASSERT_EQ(t.c[TH_HEADER].bg, 17, "number");
	ASSERT_EQ(t.c[TH_HEADER].attrs, THEME_UNDERLINE | THEME_BOLD, "attrs");
	ASSERT_EQ(t.c[TH_DIM].fg, 7, "white");
	/* Missing keys keep the default: dim's bg and attrs, and the other slots. */
	ASSERT_EQ(t.c[TH_DIM].bg, d.c[TH_DIM].bg, "dim bg from default");
	ASSERT_EQ(t.c[TH_DIM].attrs, d.c[TH_DIM].attrs, "dim attrs from default");
	ASSERT_EQ(t.c[TH_TITLE].fg, d.c[TH_TITLE].fg, "title from default");
	ASSERT_EQ(t.c[TH_SELECT].bg, d.c[TH_SELECT].bg, "selection from default");
}

static void test_unknown_keys(void)
{
	struct theme t;
	char msg[256];
	int err;

	err = theme__parse(&t, "{\"colors\": {\"headr\": {\"fg\": \"red\"}, \"bar\": {\"fg\": "
			       "\"red\", \"blink\": true}}, \"extra\": 1}",
			   "u.json", msg, sizeof(msg));
	ASSERT_OK(err, "unknown keys are not an error");
	ASSERT_EQ(t.c[TH_BAR].fg, 1, "known key still applied");
	ASSERT_TRUE(strstr(msg, "u.json") != NULL, "warning names the file");
	ASSERT_TRUE(strstr(msg, "'colors.headr'") != NULL, "warning names the first key");
	ASSERT_TRUE(strstr(msg, "2 more") != NULL, "warning counts the others");
	err = theme__parse(&t, "{\"colors\": {}, \"comment\": \"hi\"}", "c.json", msg, sizeof(msg));
	ASSERT_OK(err, "one unknown key");
	ASSERT_STREQ(msg, "theme c.json: unknown key 'comment' ignored", "one warning");
}

static void test_bad_values(void)
{
	struct theme t, d;
	char msg[256];
	int err;

	theme__default(&d);
	err = theme__parse(&t, "{\"colors\": {\"bar\": {\"fg\": \"blue\"}, \"warning\": {\"fg\": "
			       "\"purplish\"}}}",
			   "b.json", msg, sizeof(msg));
	ASSERT_EQ(err, -EINVAL, "bad colour");
	ASSERT_STREQ(msg,
		     "theme b.json: bad value for key 'colors.warning.fg'; using the default theme",
		     "message names file and key");
	ASSERT_EQ(t.c[TH_BAR].fg, d.c[TH_BAR].fg, "whole theme falls back");
	err = theme__parse(&t, "{\"colors\": {\"title\": {\"bg\": 256}}}", "n.json", msg,
			   sizeof(msg));
	ASSERT_EQ(err, -EINVAL, "colour out of range");
	ASSERT_TRUE(strstr(msg, "'colors.title.bg'") != NULL, "names colors.title.bg");
	err = theme__parse(&t, "{\"colors\": {\"note\": {\"attrs\": [\"blinky\"]}}}", "a.json", msg,
			   sizeof(msg));
	ASSERT_EQ(err, -EINVAL, "bad attribute");
	ASSERT_TRUE(strstr(msg, "'colors.note.attrs'") != NULL, "names colors.note.attrs");
	err = theme__parse(&t, "{\"colors\": {\"dim\": \"blue\"}}", "s.json", msg, sizeof(msg));
	ASSERT_EQ(err, -EINVAL, "slot must be an object");
	ASSERT_TRUE(strstr(msg, "'colors.dim'") != NULL, "names colors.dim");
}

static void test_bad_json(void)
{
	struct theme t;
	char msg[256];
	int err;

	err = theme__parse(&t,
			   "{\n \"name\": \"j\",\n \"colors\": {\n  \"header\": {\"fg\": red}\n "
			   "}\n}",
			   "themes/j.json", msg, sizeof(msg));
	ASSERT_EQ(err, -EINVAL, "syntax error");
	ASSERT_STREQ(msg,
		     "theme themes/j.json: invalid JSON at line 4, after key 'fg'; using the "
		     "default theme",
		     "names file, line and key");
	ASSERT_STREQ(t.name, "default", "default theme");
	err = theme__parse(&t, "", "e.json", msg, sizeof(msg));
	ASSERT_EQ(err, -EINVAL, "empty file");
	ASSERT_TRUE(strstr(msg, "e.json: invalid JSON") != NULL, "empty names the file");
}

static void test_files(void)
{
	char path[256], msg[256];
	char names[16][64];
	struct theme t;
	int n;

	/* The bundled themes load without a message (tests run from the source tree). */
	ASSERT_OK(theme__find("light", path, sizeof(path)), "find light");
	ASSERT_STREQ(path, "themes/light.json", "local dir first");
	ASSERT_OK(theme__load(&t, path, msg, sizeof(msg)), "load light");
	ASSERT_STREQ(msg, "", "light is clean");
	ASSERT_STREQ(t.name, "light", "light name");
	ASSERT_OK(theme__find("themes/mono.json", path, sizeof(path)), "find by path");
	ASSERT_OK(theme__load(&t, path, msg, sizeof(msg)), "load mono");
	ASSERT_TRUE(theme__is_mono(&t), "mono file is mono");
	ASSERT_OK(theme__find("default", path, sizeof(path)), "find default");
	ASSERT_OK(theme__load(&t, path, msg, sizeof(msg)), "load default.json");
	ASSERT_STREQ(msg, "", "default.json is clean");
	ASSERT_EQ(theme__find("no-such-theme", path, sizeof(path)), -ENOENT, "missing name");
	ASSERT_EQ(theme__find("/nonexistent/x.json", path, sizeof(path)), -ENOENT, "missing path");
	ASSERT_EQ(theme__load(&t, "/nonexistent/x.json", msg, sizeof(msg)), -ENOENT,
		  "load missing");
	ASSERT_TRUE(strstr(msg, "/nonexistent/x.json") != NULL, "names the file");
	n = theme__list(names, 16);
	ASSERT_TRUE(n >= 3, "at least default, light, mono");
	ASSERT_STREQ(names[0], "default", "default first");
	for (int i = 1; i < n; i++)
		ASSERT_TRUE(strcmp(names[i], "default") != 0, "default listed once");
}

int main(void)
{
	test__suite = "theme";
	RUN_TEST(test_default_names_every_slot);
	RUN_TEST(test_known_keys);
	RUN_TEST(test_unknown_keys);
	RUN_TEST(test_bad_values);
	RUN_TEST(test_bad_json);
	RUN_TEST(test_files);
	printf("theme: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
