// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal streaming JSON writer.
 *
 * Strings are written as UTF-8; bytes that are not part of a valid UTF-8
 * sequence (interface names may hold any byte) are written as \u00XX, so
 * the output is always valid JSON.
 */
#include <stdlib.h>

#include "json.h"

void json_init(struct json_writer *jw, FILE *out, bool pretty)
{
	jw->out = out;
	jw->pretty = pretty;
	jw->depth = 0;
	jw->after_key = false;
}

static void json_indent(struct json_writer *jw, int depth)
{
	fputc('\n', jw->out);
	while (depth-- > 0)
		fputs("    ", jw->out);
}

/* separator and indentation before a value or a key */
static void json_sep(struct json_writer *jw)
{
	if (jw->after_key) {
		jw->after_key = false;
		return;
	}
	if (jw->depth == 0)
		return;
	if (!jw->empty[jw->depth - 1])
		fputc(',', jw->out);
	jw->empty[jw->depth - 1] = false;
	if (jw->pretty)
		json_indent(jw, jw->depth);
}

/* a value is complete; a complete top-level value ends the line */
static void json_done(struct json_writer *jw)
{
	if (jw->depth == 0)
		fputc('\n', jw->out);
}

static void json_open(struct json_writer *jw, char c)
{
	if (jw->depth >= JSON_MAX_DEPTH)
		abort();
	json_sep(jw);
	fputc(c, jw->out);
	jw->empty[jw->depth++] = true;
}

static void json_close(struct json_writer *jw, char c)
{
	if (jw->depth <= 0)
		abort();
	jw->depth--;
	if (jw->pretty && !jw->empty[jw->depth])
		json_indent(jw, jw->depth);
	fputc(c, jw->out);
	json_done(jw);
}

void json_obj_open(struct json_writer *jw)
{
	json_open(jw, '{');
}

void json_obj_close(struct json_writer *jw)
{
	json_close(jw, '}');
}

void json_arr_open(struct json_writer *jw)
{
	json_open(jw, '[');
}

void json_arr_close(struct json_writer *jw)
{
	json_close(jw, ']');
}

void json_key(struct json_writer *jw, const char *key)
{
	json_sep(jw);
	json_write_string(jw->out, key);
	fputs(jw->pretty ? ": " : ":", jw->out);
	jw->after_key = true;
}

void json_str(struct json_writer *jw, const char *s)
{
	json_sep(jw);
	json_write_string(jw->out, s);
	json_done(jw);
}

void json_u64(struct json_writer *jw, __u64 val)
{
	json_sep(jw);
	fprintf(jw->out, "%llu", (unsigned long long)val);
	json_done(jw);
}

void json_bool(struct json_writer *jw, bool val)
{
	json_sep(jw);
	fputs(val ? "true" : "false", jw->out);
	json_done(jw);
}

/* length of the valid UTF-8 sequence at s, 0 if there is none */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int c = s[0];
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if (c == 0xe0 && s[1] < 0xa0)
		return 0;
	if (c == 0xed && s[1] >= 0xa0)
		return 0;
	if (c == 0xf0 && s[1] < 0x90)
		return 0;
	if (c == 0xf4 && s[1] >= 0x90)
		return 0;
	return len;
}

void json_write_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;

	fputc('"', out);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*s < 0x20) {
				fprintf(out, "\\u%04x", *s);
				break;
			}
			len = utf8_len(s);
			if (!len) {
				fprintf(out, "\\u%04x", *s);
				break;
			}
			fwrite(s, 1, len, out);
			s += len - 1;
		}
		s++;
	}
	fputc('"', out);
}
