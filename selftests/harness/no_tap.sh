#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A deliberately broken test for tools/harness-selftest.sh (in no test
# list): it exits 0 and prints no TAP; selftests/run.sh must count it as
# a failure ("reported no results").

echo "this program checked nothing"
exit 0
