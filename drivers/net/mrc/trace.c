// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - instantiates the tracepoints declared in trace.h.
 */
#include <linux/types.h>

/* What the events read, outside CREATE_TRACE_POINTS: no kernel header's
 * events are instantiated here.
 */
#include "sock.h"

#define CREATE_TRACE_POINTS
#include "trace.h"
