#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/doc-check.sh - make check's documentation stage (a few seconds):
#   kernel-doc  scripts/kernel-doc -Wall -none of linux-source-6.12 on
#               every .c and .h of drivers/net/mrc/ and include/: no
#               warning (a comment that opens with slash-star-star is
#               kernel-doc and must be complete and match the code)
#   docutils    every Documentation/**/*.rst parses with docutils at
#               halt_level 2: a warning (broken table, bad indentation,
#               unknown role, unmatched markup) fails.  The kernel's
#               Sphinx adds roles and directives docutils lacks; those
#               Documentation/ may use are registered as no-ops below, so
#               they pass but their content is not checked.
# Prints TAP; exits non-zero if a check failed.

set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=0
fails=0

result() {	# result ok|fail DESC [LOG]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | head -40 | sed 's/^/#   /'
		fails=$((fails + 1))
	fi
}

echo "TAP version 13"
if src=$("$top/tools/linux-src"); then
	files=$(git ls-files 'drivers/net/mrc/*.[ch]' 'include/*.[ch]' 2>/dev/null ||
		find drivers/net/mrc include -name '*.[ch]' ! -name '*.mod.c')
	# shellcheck disable=SC2086 # a list of paths without blanks
	log=$("$src/scripts/kernel-doc" -Wall -none $files 2>&1)
	count=$(echo "$files" | wc -w)
	if [ -z "$log" ]; then
		result ok "kernel-doc -Wall: $count files of drivers/net/mrc and include, no warning"
	else
		result fail "kernel-doc -Wall: $count files of drivers/net/mrc and include, no warning" "$log"
	fi
else
	result fail "kernel-doc: linux-source-6.12 (make setup)"
fi

rsts=$(find Documentation -name '*.rst' | sort)
# shellcheck disable=SC2086
log=$(python3 - $rsts <<'EOF' 2>&1
import io
import sys

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles


# Sphinx-only roles: the text stays, unchecked.
def noop_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []


for r in ("ref", "doc", "manpage", "file", "kbd", "term", "abbr", "numref",
          "envvar", "option", "command", "program", "samp",
          "c:func", "c:type", "c:macro", "c:struct", "c:union", "c:enum",
          "c:member", "c:var", "c:data", "c:expr", "c:texpr"):
    roles.register_local_role(r, noop_role)


# Sphinx-only directives: content and options accepted, not rendered.
class Noop(Directive):
    has_content = True
    optional_arguments = 10
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        return []


# option_spec None would reject options: accept any option.
class AnyOptions(dict):
    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged


Noop.option_spec = AnyOptions()
for d in ("toctree", "kernel-doc", "kernel-feat", "kernel-abi", "only",
          "highlight", "literalinclude", "index", "glossary", "seealso",
          "versionadded", "versionchanged", "deprecated", "tabularcolumns",
          "flat-table", "c:function", "c:struct", "c:union", "c:enum",
          "c:type", "c:macro", "c:member", "c:var", "c:namespace"):
    directives.register_directive(d, Noop)

bad = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        publish_doctree(text, source_path=path, settings_overrides={
            "halt_level": 2, "report_level": 2, "warning_stream": io.StringIO(),
            "file_insertion_enabled": False, "raw_enabled": False})
    except Exception as e:  # docutils.utils.SystemMessage at halt_level
        print(e)
        bad += 1
sys.exit(bad > 0)
EOF
)
rc=$?
if [ $rc = 0 ]; then
	result ok "docutils: $(echo "$rsts" | wc -w) rst files of Documentation/ parse without a warning"
else
	result fail "docutils: every rst file of Documentation/ parses without a warning" "$log"
fi
echo "1..$n"
exit $((fails > 0))
