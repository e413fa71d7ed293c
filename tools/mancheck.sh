#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/mancheck.sh [PAGE...] - the man pages (Documentation/*.[1-8] by
# default) format without a single groff warning (man --warnings: unknown
# macros, bad escapes, lines that cannot be broken...) at 80 columns, and
# each page's name and section match its .TH line.  Runs in "make style".

set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$top"/Documentation/*.[1-8]
fail=0
for page in "$@"; do
	name=${page##*/}
	th=$(sed -n 's/^\.TH \([^ ]*\) \([^ ]*\).*/\1.\2/p' "$page" | head -1)
	if [ "${th,,}" != "${name,,}" ]; then
		echo "$name: .TH says ${th:-nothing}" >&2
		fail=1
	fi
	out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
	if [ -n "$out" ]; then
		printf '%s:\n%s\n' "$name" "$out" >&2
		fail=1
	fi
done
[ $fail = 0 ] && echo "man pages: no groff warnings ($#)"
exit $fail
