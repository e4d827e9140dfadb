#!/bin/sh
# Checks that the release build is reproducible: builds it twice, each from an empty build
# directory (target-repro-1, target-repro-2), and compares every artifact byte for byte. Part of the
# release (docs/releasing.md); run from anywhere:
#
#   sh src/release/check-reproducible.sh [--fresh-native]
#
# The native libraries come from the build cache (~/.cache/panlite-build) in both builds unless
# --fresh-native gives the second build an empty cache, so zig compiles every platform again (about
# a minute per platform on a quiet machine): then the natives are compared too. Prints the SHA-256 of
# every artifact; exits 1 on the first difference.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
module="$root"
fresh=${1:-}
for n in 1 2; do
    rm -rf "$module/target-repro-$n"
    if [ "$n" = 2 ] && [ "$fresh" = --fresh-native ]; then
        cache=$(mktemp -d)
        echo "reproducible: build $n, compiling every native library again (cache $cache)"
        (cd "$root" && PANLITE_BUILD_CACHE="$cache" mvn -q -Prelease package -DskipTests -DskipITs \
            -DbuildDir=target-repro-$n)
    else
        echo "reproducible: build $n"
        (cd "$root" && mvn -q -Prelease package -DskipTests -DskipITs -DbuildDir=target-repro-$n)
    fi
done
status=0
count=0
for a in "$module"/target-repro-1/*.jar "$module"/target-repro-1/*-cyclonedx.json "$module"/target-repro-1/*-cyclonedx.xml; do
    [ -f "$a" ] || continue
    name=$(basename "$a")
    b="$module/target-repro-2/$name"
    count=$((count + 1))
    if cmp -s "$a" "$b"; then
        echo "same      $(sha256sum "$a" | cut -c1-64)  $name"
    else
        echo "DIFFERENT $name" >&2
        status=1
    fi
done
[ "$count" -gt 0 ] || { echo "reproducible: no artifacts built" >&2; exit 1; }
[ "$status" = 0 ] && echo "reproducible: $count artifacts identical in both builds"
exit $status
