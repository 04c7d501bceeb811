#!/bin/bash -eu
# ClusterFuzzLite entry point: the OSS-Fuzz build script, unchanged.
exec "$SRC/ibwire/fuzz/oss-fuzz/build.sh"
