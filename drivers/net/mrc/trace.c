// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - instantiates the tracepoints declared in trace.h.
 */
#include <linux/types.h>

#define CREATE_TRACE_POINTS
#include "trace.h"
