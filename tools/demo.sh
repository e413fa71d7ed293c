#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/demo.sh - "make demo": boot a VM on Debian's stock kernel, load the
# freshly built mrc.ko, build two hosts with 4 rails each and move data
# over all of them (tools/demo-guest.sh).  Output is kept in results/demo/.

set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

exec "$top/tools/vm/run" --results "$top/results/demo" -- "$top/tools/demo-guest.sh"
