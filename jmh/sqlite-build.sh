#!/usr/bin/env bash
# Builds SQLite as a shared library, for `./bench --sqlite PATH`: Panlite on the same SQLite version
# as the incumbent bundles, so a ratio compares drivers and not engines.
#
#   jmh/sqlite-build.sh [better-sqlite3-version]     (default 13.2.0, which ships SQLite 3.54.1)
#
# The SQLite amalgamation (sqlite3.c) comes from the npm package better-sqlite3, which ships it in
# deps/sqlite3/; `npm pack` fetches it from the npm registry. It is compiled with options close to
# the incumbent's build (thread-safe, column metadata, memory statistics off). Prints the path of
# the library built under jmh/target/sqlite/.
set -euo pipefail
version="${1:-13.2.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/target/sqlite"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
command -v npm >/dev/null || { echo "sqlite-build: npm not found (it fetches the SQLite source from the npm registry)" >&2; exit 1; }
command -v "${CC:-cc}" >/dev/null || { echo "sqlite-build: no C compiler (${CC:-cc})" >&2; exit 1; }
(cd "$work" && npm pack --silent "better-sqlite3@$version" >/dev/null && tar xzf better-sqlite3-*.tgz)
src="$work/package/deps/sqlite3/sqlite3.c"
[[ -f "$src" ]] || { echo "sqlite-build: better-sqlite3@$version has no deps/sqlite3/sqlite3.c" >&2; exit 1; }
sqlite_version="$(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$src" | head -1)"
lib="$out/libsqlite3-$sqlite_version.so"
[[ "$(uname -s)" == Darwin ]] && lib="$out/libsqlite3-$sqlite_version.dylib"
"${CC:-cc}" -O2 -fPIC -shared -o "$lib" "$src" -lpthread -lm \
    -DSQLITE_THREADSAFE=1 -DSQLITE_DEFAULT_MEMSTATUS=0 -DSQLITE_ENABLE_COLUMN_METADATA \
    -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DHAVE_USLEEP
echo "$lib"
