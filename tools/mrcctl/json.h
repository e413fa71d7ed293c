/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal streaming JSON writer: objects, arrays, strings, unsigned
 * integers, booleans.  Compact ({"a":1,"b":[]}) or pretty (4-space
 * indent).  A newline follows every complete top-level value.
 */
#ifndef MRCCTL_JSON_H
#define MRCCTL_JSON_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

#define JSON_MAX_DEPTH	16

struct json_writer {
	FILE *out;
	bool pretty;
	int depth;
	/* a key was written, its value comes next */
	bool after_key;
	/* per open container: nothing written in it yet */
	bool empty[JSON_MAX_DEPTH];
};

void json_init(struct json_writer *jw, FILE *out, bool pretty);
void json_obj_open(struct json_writer *jw);
void json_obj_close(struct json_writer *jw);
void json_arr_open(struct json_writer *jw);
void json_arr_close(struct json_writer *jw);
void json_key(struct json_writer *jw, const char *key);
void json_str(struct json_writer *jw, const char *s);
void json_u64(struct json_writer *jw, __u64 val);
void json_bool(struct json_writer *jw, bool val);
/* writes s as a JSON string literal, quotes included */
void json_write_string(FILE *out, const char *s);

#endif /* MRCCTL_JSON_H */
