// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the JSON writer: escaping and layout.  "make test".
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"

static int failed;

static void check(const char *what, char *got, const char *want)
{
	if (strcmp(got, want)) {
		printf("not ok - %s\n  got:  %s\n  want: %s\n", what, got, want);
		failed = 1;
	} else {
		printf("ok - %s\n", what);
	}
	free(got);
}

static char *escape(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(1);
	json_write_string(f, s);
	fclose(f);
	return buf;
}

static char *document(bool pretty)
{
	struct json_writer jw;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(1);
	json_init(&jw, f, pretty);
	json_arr_open(&jw);
	json_obj_open(&jw);
	json_key(&jw, "ifname");
	json_str(&jw, "mrc0");
	json_key(&jw, "ifindex");
	json_u64(&jw, 18446744073709551615ULL);
	json_key(&jw, "rails");
	json_arr_open(&jw);
	json_arr_close(&jw);
	json_key(&jw, "ipv4");
	json_arr_open(&jw);
	json_str(&jw, "10.1.0.1");
	json_str(&jw, "10.1.0.2");
	json_arr_close(&jw);
	json_key(&jw, "stats");
	json_obj_open(&jw);
	json_obj_close(&jw);
	json_key(&jw, "orphan");
	json_bool(&jw, true);
	json_key(&jw, "up");
	json_bool(&jw, false);
	json_obj_close(&jw);
	json_arr_close(&jw);
	json_obj_open(&jw);
	json_obj_close(&jw);
	fclose(f);
	return buf;
}

int main(void)
{
	check("plain", escape("eth1"), "\"eth1\"");
	check("empty", escape(""), "\"\"");
	check("quote and backslash", escape("a\"b\\c"), "\"a\\\"b\\\\c\"");
	check("short escapes", escape("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
	check("other controls", escape("\x01\x1f\x7f"), "\"\\u0001\\u001f\x7f\"");
	check("slash kept", escape("a/b"), "\"a/b\"");
	check("utf-8 kept", escape("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
	      "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	check("stray continuation", escape("a\x80z"), "\"a\\u0080z\"");
	check("truncated sequence", escape("\xe2\x82"), "\"\\u00e2\\u0082\"");
	check("overlong", escape("\xc0\xaf"), "\"\\u00c0\\u00af\"");
	check("surrogate", escape("\xed\xa0\x80"),
	      "\"\\u00ed\\u00a0\\u0080\"");
	check("beyond U+10FFFF", escape("\xf4\x90\x80\x80"),
	      "\"\\u00f4\\u0090\\u0080\\u0080\"");
	check("compact document", document(false),
	      "[{\"ifname\":\"mrc0\",\"ifindex\":18446744073709551615,\"rails\":[],\"ipv4\":[\"10.1.0.1\",\"10.1.0.2\"],\"stats\":{},\"orphan\":true,\"up\":false}]\n{}\n");
	check("pretty document", document(true),
	      "[\n"
	      "    {\n"
	      "        \"ifname\": \"mrc0\",\n"
	      "        \"ifindex\": 18446744073709551615,\n"
	      "        \"rails\": [],\n"
	      "        \"ipv4\": [\n"
	      "            \"10.1.0.1\",\n"
	      "            \"10.1.0.2\"\n"
	      "        ],\n"
	      "        \"stats\": {},\n"
	      "        \"orphan\": true,\n"
	      "        \"up\": false\n"
	      "    }\n"
	      "]\n"
	      "{}\n");
	return failed;
}
