#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A deliberately broken test for tools/harness-selftest.sh (in no test
# list): the plan 1..2, then three passing cases numbered in order;
# selftests/run.sh must count that as a failure.

echo "1..2"
echo "ok 1 first"
echo "ok 2 second"
echo "ok 3 one more than planned"
