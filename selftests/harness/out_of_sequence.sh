#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A deliberately broken test for tools/harness-selftest.sh (in no test
# list): three passing cases and the plan 1..3, but numbered 1, 3, 2;
# selftests/run.sh must count that as a failure.

echo "1..3"
echo "ok 1 first"
echo "ok 3 third"
echo "ok 2 second"
