#!/bin/bash -eu
# SPDX-License-Identifier: Apache-2.0
# ClusterFuzzLite entry point: the OSS-Fuzz build script, unchanged.
exec "$SRC/ibwire/fuzz/oss-fuzz/build.sh"
