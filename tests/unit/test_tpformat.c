// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_tpformat.c - reading a tracepoint's key fields from tracefs format text.
 */
#include <errno.h>

#include "collect/tpformat.h"
#include "test.h"

/* A format file with every kind of field: common ones, an integer, a pointer, an array, a
 * __data_loc string and a signed 8-byte value. */
static const char fmt[] =
	"name: demo\n"
	"ID: 1234\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:const void * skbaddr;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:long ret;\toffset:48;\tsize:8;\tsigned:1;\n"
	"\tfield:u8 flags;\toffset:56;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static void test_fields(void)
{
	struct tp_field f;
	char avail[256];

	ASSERT_EQ(tpformat__parse(fmt, "pid", &f, avail, sizeof(avail)), 0, "pid found");
	ASSERT_EQ(f.off, 24, "pid offset");
	ASSERT_EQ(f.size, 4, "pid size");
	ASSERT_TRUE(f.is_signed, "pid signed");
	ASSERT_STREQ(avail,
		     "pid, skbaddr, ret, flags, common_type, common_flags, common_preempt_count, "
		     "common_pid",
		     "integer fields listed, common ones last");
	ASSERT_EQ(tpformat__parse(fmt, "skbaddr", &f, avail, sizeof(avail)), 0, "pointer key");
	ASSERT_EQ(f.off, 32, "pointer offset");
	ASSERT_EQ(f.size, 8, "pointer size");
	ASSERT_EQ(tpformat__parse(fmt, "ret", &f, avail, sizeof(avail)), 0, "ret found");
	ASSERT_TRUE(f.is_signed && f.size == 8 && f.off == 48, "ret layout");
	ASSERT_EQ(tpformat__parse(fmt, "flags", &f, avail, sizeof(avail)), 0, "u8 found");
	ASSERT_TRUE(!f.is_signed && f.size == 1 && f.off == 56, "u8 layout");
	ASSERT_EQ(tpformat__parse(fmt, "common_pid", &f, avail, sizeof(avail)), 0, "common");
	ASSERT_EQ(f.off, 4, "common_pid offset");
}

static void test_refused(void)
{
	struct tp_field f;
	char avail[32];

	ASSERT_EQ(tpformat__parse(fmt, "comm", &f, avail, sizeof(avail)), -EINVAL, "array");
	ASSERT_EQ(tpformat__parse(fmt, "name", &f, avail, sizeof(avail)), -EINVAL, "data_loc");
	ASSERT_EQ(tpformat__parse(fmt, "nope", &f, avail, sizeof(avail)), -ENOENT, "unknown");
	ASSERT_EQ(tpformat__parse(fmt, "common", &f, avail, sizeof(avail)), -ENOENT, "prefix");
	ASSERT_EQ(strlen(avail), sizeof(avail) - 1, "a short list buffer is cut, not overrun");
	ASSERT_EQ(tpformat__parse("", "pid", &f, avail, sizeof(avail)), -ENOENT, "empty");
	ASSERT_STREQ(avail, "", "no fields");
}

int main(void)
{
	test__suite = "tpformat";
	RUN_TEST(test_fields);
	RUN_TEST(test_refused);
	printf("tpformat: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
