#!/bin/sh
# Builds a variant of the bundled SQLite with SQLite's blocking locks (-DSQLITE_ENABLE_SETLK_TIMEOUT),
# for the experiment on blocking locks against the write gate's window (issue 18, docs/experiments/041).
# Same sources, options and helper as the bundled engine (src/main/native/build-sqlite.sh),
# one more define; cached by that script under PANLITE_BUILD_CACHE (~/.cache/panlite-build), never in
# the repository. Prints the library's path on stdout; fails (exit 1, reason on stderr) when it cannot
# be built. Use it with ./bench --contention --sqlite "$(sh tools/build-sqlite-setlk.sh)".
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${PANLITE_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/panlite-build}
out="$cache/setlk"
mkdir -p "$out/classes" "$out/build"
CFLAGS="${CFLAGS:-} -DSQLITE_ENABLE_SETLK_TIMEOUT" sh "$root/src/main/native/build-sqlite.sh" \
    "$out/classes" "$(uname -s)" "$(uname -m)" "$out/build" >&2
lib=$(find "$out/classes/native" -name 'libsqlite3.*' -o -name 'sqlite3.dll' | head -n 1)
[ -n "$lib" ] || { echo "build-sqlite-setlk: no library built (see $out/classes/native)" >&2; exit 1; }
echo "$lib"
