#!/usr/bin/env bash
# Builds SQLite as a shared library, for `./bench --sqlite PATH`: Panlite on the same SQLite version
# as the incumbent bundles, so a ratio compares drivers and not engines.
#
#   jmh/sqlite-build.sh [--debug] [better-sqlite3-version]   (default 13.2.0, which ships SQLite 3.54.1)
#
# --debug builds libsqlite3-VERSION-debug.so instead: SQLite's own assertions and API misuse checks on
# (SQLITE_DEBUG, SQLITE_ENABLE_API_ARMOR), -O1 -g, with the modules the misuse fuzz uses (FTS3/4/5, R*Tree).
# For tests, not benchmarks: a failed assertion aborts the JVM with SQLite's message on stderr.
#   mvn -o test -Dtest=MisuseFuzzTest -Dpanlite.sqlite.library="$(jmh/sqlite-build.sh --debug | tail -1)"
#
# The SQLite amalgamation (sqlite3.c) comes from the npm package better-sqlite3, which ships it in
# deps/sqlite3/; `npm pack` fetches it from the npm registry. It is compiled with options close to
# the incumbent's build (thread-safe, column metadata, memory statistics off). Prints the path of
# the library built under jmh/target/sqlite/.
set -euo pipefail
debug=false
if [[ "${1:-}" == --debug ]]; then
  debug=true
  shift
fi
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
suffix=""
flags=(-O2)
if $debug; then
  suffix="-debug"
  flags=(-O1 -g -fno-omit-frame-pointer -DSQLITE_DEBUG -DSQLITE_ENABLE_API_ARMOR -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS
         -DSQLITE_ENABLE_FTS4)
fi
lib="$out/libsqlite3-$sqlite_version$suffix.so"
[[ "$(uname -s)" == Darwin ]] && lib="$out/libsqlite3-$sqlite_version$suffix.dylib"
"${CC:-cc}" "${flags[@]}" -fPIC -shared -o "$lib" "$src" -lpthread -lm \
    -DSQLITE_THREADSAFE=1 -DSQLITE_DEFAULT_MEMSTATUS=0 -DSQLITE_ENABLE_COLUMN_METADATA \
    -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DHAVE_USLEEP
echo "$lib"
