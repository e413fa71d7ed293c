// SPDX-License-Identifier: GPL-2.0
/*
 * Output of objects as text or JSON, see print.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "json.h"
#include "print.h"

enum list_state {
	LIST_NONE,
	LIST_PENDING,	/* "[" not written yet */
	LIST_OPEN,
};

static struct {
	struct json_writer jw;
	bool json;
	bool oneline;
	bool suppress;	/* text of the current line is dropped */
	enum list_state list;
} pr;

void print_init(bool json, bool pretty, bool oneline)
{
	memset(&pr, 0, sizeof(pr));
	json_init(&pr.jw, stdout, pretty);
	pr.json = json;
	pr.oneline = oneline;
}

bool print_json(void)
{
	return pr.json;
}

static bool print_text(void)
{
	return !pr.json && !pr.suppress;
}

void print_list_begin(void)
{
	pr.list = LIST_PENDING;
}

void print_list_end(bool ok)
{
	if (pr.json) {
		if (pr.list == LIST_PENDING && ok)
			json_arr_open(&pr.jw);
		if (pr.list == LIST_OPEN || (pr.list == LIST_PENDING && ok))
			json_arr_close(&pr.jw);
	}
	pr.list = LIST_NONE;
}

void print_obj_begin(void)
{
	pr.suppress = false;
	if (!pr.json)
		return;
	if (pr.list == LIST_PENDING) {
		json_arr_open(&pr.jw);
		pr.list = LIST_OPEN;
	}
	json_obj_open(&pr.jw);
}

void print_obj_end(void)
{
	if (pr.json)
		json_obj_close(&pr.jw);
	else
		putchar('\n');
	pr.suppress = false;
}

void print_nest_begin(const char *jkey)
{
	if (!pr.json)
		return;
	if (jkey)
		json_key(&pr.jw, jkey);
	json_obj_open(&pr.jw);
}

void print_nest_end(void)
{
	if (pr.json)
		json_obj_close(&pr.jw);
}

void print_arr_begin(const char *jkey)
{
	if (!pr.json)
		return;
	if (jkey)
		json_key(&pr.jw, jkey);
	json_arr_open(&pr.jw);
}

void print_arr_end(void)
{
	if (pr.json)
		json_arr_close(&pr.jw);
}

void print_elem_str(const char *val)
{
	if (pr.json)
		json_str(&pr.jw, val);
}

void print_line(const char *label)
{
	if (pr.json)
		return;
	if (pr.oneline)
		pr.suppress = true;
	if (print_text())
		printf("\n    %s", label);
}

void print_event(const char *event)
{
	if (pr.json) {
		json_key(&pr.jw, "event");
		json_str(&pr.jw, event);
	} else if (print_text()) {
		printf("[%s] ", event);
	}
}

static const char *ifname_of(const struct nlattr *name,
			     const struct nlattr *ifindex, char *buf)
{
	if (name)
		return mnl_attr_get_str(name);
	if (ifindex && if_indextoname(mnl_attr_get_u32(ifindex), buf))
		return buf;
	return NULL;
}

void print_head(const struct nlattr *name, const struct nlattr *ifindex)
{
	char buf[IF_NAMESIZE];
	const char *s = ifname_of(name, ifindex, buf);

	if (pr.json) {
		if (s) {
			json_key(&pr.jw, "ifname");
			json_str(&pr.jw, s);
		}
	} else if (print_text()) {
		if (s)
			printf("%s:", s);
		else if (ifindex)
			printf("%u:", mnl_attr_get_u32(ifindex));
		else
			printf("?:");
	}
}

void print_head_str(const char *head)
{
	if (print_text())
		printf("%s:", head);
}

void print_str(const char *jkey, const char *tkey, const char *val)
{
	if (pr.json) {
		if (jkey) {
			json_key(&pr.jw, jkey);
			json_str(&pr.jw, val);
		}
	} else if (tkey && print_text()) {
		if (*tkey)
			printf(" %s %s", tkey, val);
		else
			printf(" %s", val);
	}
}

void print_u64(const char *jkey, const char *tkey, __u64 val)
{
	if (pr.json) {
		if (jkey) {
			json_key(&pr.jw, jkey);
			json_u64(&pr.jw, val);
		}
	} else if (tkey && print_text()) {
		if (*tkey)
			printf(" %s %llu", tkey, (unsigned long long)val);
		else
			printf(" %llu", (unsigned long long)val);
	}
}

void print_bool(const char *jkey, const char *tkey, bool val)
{
	if (pr.json) {
		if (jkey) {
			json_key(&pr.jw, jkey);
			json_bool(&pr.jw, val);
		}
	} else if (tkey && *tkey && val && print_text()) {
		printf(" %s", tkey);
	}
}

void print_enum(const char *jkey, const char *tkey, const char *const *names,
		unsigned int n, __u32 val)
{
	if (val < n && names[val])
		print_str(jkey, tkey, names[val]);
	else
		print_u64(jkey, tkey, val);
}

void print_ifname(const char *jkey, const char *tkey, const struct nlattr *name,
		  const struct nlattr *ifindex)
{
	char buf[IF_NAMESIZE];
	const char *s = ifname_of(name, ifindex, buf);

	if (s)
		print_str(jkey, tkey, s);
	else if (ifindex)
		print_u64(NULL, tkey, mnl_attr_get_u32(ifindex));
}

int print_flush(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "Error: cannot write output: %s.\n",
			strerror(errno));
		return -1;
	}
	return 0;
}
