/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of objects as text or JSON through one set of calls.
 *
 * Each call names the JSON key (jkey) and the text label (tkey) of a field;
 * a NULL jkey prints the field in text only, a NULL tkey in JSON only, an
 * empty tkey prints the bare value in text.  Text fields are written as
 * " tkey value" after the object's head ("name:"), so lines never end with
 * a space.  print_line() starts an indented continuation line (text) and is
 * ignored in JSON; in one-line mode (monitor) the text of continuation
 * lines is dropped.
 */
#ifndef MRCCTL_PRINT_H
#define MRCCTL_PRINT_H

#include <stdbool.h>
#include <libmnl/libmnl.h>
#include <linux/types.h>

void print_init(bool json, bool pretty, bool oneline);
bool print_json(void);

/* a JSON array of objects (show commands); "[]" if empty and ok */
void print_list_begin(void);
void print_list_end(bool ok);

/* one object: text ends its last line, JSON closes it */
void print_obj_begin(void);
void print_obj_end(void);

/* JSON-only structure; jkey NULL inside an array */
void print_nest_begin(const char *jkey);
void print_nest_end(void);
void print_arr_begin(const char *jkey);
void print_arr_end(void);
void print_elem_str(const char *val);

/* text-only: new line, indented, starting with label */
void print_line(const char *label);

/* "[event] " / "event": */
void print_event(const char *event);
/* "name:" / "ifname": of a netdevice, see print_ifname() */
void print_head(const struct nlattr *name, const struct nlattr *ifindex);
/* text-only "head:" of an object that is not a netdevice */
void print_head_str(const char *head);

void print_str(const char *jkey, const char *tkey, const char *val);
void print_u64(const char *jkey, const char *tkey, __u64 val);
/* JSON true/false; text " tkey" if val (a flag), nothing otherwise */
void print_bool(const char *jkey, const char *tkey, bool val);
/* names[val] if val < n, else the number */
void print_enum(const char *jkey, const char *tkey, const char *const *names,
		unsigned int n, __u32 val);
/*
 * A netdevice's name: the name attribute if there is one, else what
 * if_indextoname() says of the ifindex attribute; if neither gives a name,
 * text shows the ifindex and JSON omits the key.
 */
void print_ifname(const char *jkey, const char *tkey, const struct nlattr *name,
		  const struct nlattr *ifindex);

/* flush stdout; -1 (error printed) if output failed */
int print_flush(void);

#endif /* MRCCTL_PRINT_H */
