#!/bin/sh
# Builds libSQL's C library for Panlite (issue 18, "other engines"): the crates.io crate libsql-ffi,
# pinned by version and by the checksum in tools/libsql/Cargo.lock, carries libSQL's amalgamation
# (bundled/src/sqlite3.c). cargo fetches the crate (checking that checksum), this script checks the
# .crate file against it once more, unpacks the amalgamation and compiles it with gcc into a shared
# library in a cache directory (never into the repository). Run the driver on it with
# -Dpanlite.sqlite.library=<the printed path>.
#
#   sh tools/install-libsql.sh            build if missing, print the path of libsql.so
#
# Its sqlite3.h and sqlite3ext.h are left beside it.
#
# Prints the library's path on stdout; on failure prints the reason on stderr and exits 1 (the
# Surefire execution that needs it is then skipped with that reason).
# Environment: PANLITE_BUILD_CACHE (default ~/.cache/panlite-build), CC (default cc), CARGO (default cargo).
set -eu

LIBSQL_FFI_VERSION=0.10.0
SQLITE_VERSION=3.47.0
LIBSQL_VERSION=0.2.3

# The options of the crate's build.rs (build_bundled, no features) that change what the library
# does, plus -O2 and those Panlite's own engine uses for the same reason. Kept as the crate has them:
# SQLITE_DEFAULT_FOREIGN_KEYS=1 (foreign keys on unless a connection turns them off) is libSQL's
# default, and a user of libSQL gets it. SQLITE_ENABLE_COLUMN_METADATA: ResultSetMetaData and
# DatabaseMetaData bind sqlite3_column_table_name and friends.
OPTIONS="-O2 -std=c11 -DSQLITE_CORE -DSQLITE_DEFAULT_FOREIGN_KEYS=1 -DSQLITE_ENABLE_API_ARMOR
-DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_FTS3
-DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_JSON1
-DSQLITE_ENABLE_LOAD_EXTENSION=1 -DSQLITE_ENABLE_MEMORY_MANAGEMENT -DSQLITE_ENABLE_RTREE
-DSQLITE_ENABLE_STAT4 -DSQLITE_SOUNDEX -DSQLITE_THREADSAFE=1 -DSQLITE_USE_URI -DHAVE_USLEEP=1
-D_POSIX_THREAD_SAFE_FUNCTIONS"

here=$(cd "$(dirname "$0")" && pwd)
cache=${PANLITE_BUILD_CACHE:-$HOME/.cache/panlite-build}
cc=${CC:-cc}
cargo=${CARGO:-cargo}
fail() { echo "install-libsql: $*" >&2; exit 1; }
sha256() {
    if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@" | cut -c1-64; else shasum -a 256 "$@" | cut -c1-64; fi
}

manifest="$here/libsql/Cargo.toml"
lock="$here/libsql/Cargo.lock"
locked=$(sed -n '/^name = "libsql-ffi"/,/^checksum/s/^checksum = "\([0-9a-f]*\)"/\1/p' "$lock")
[ -n "$locked" ] || fail "no libsql-ffi checksum in $lock"
command -v "$cc" >/dev/null 2>&1 || fail "no C compiler: '$cc' not found (install gcc, or set CC)"
compiler=$("$cc" --version 2>/dev/null | head -n 1)
# The cache key: the crate's checksum, the options and the compiler.
key=$(printf '%s\n' "$locked" "$OPTIONS" "$compiler" "$(uname -sm)" | sha256 - | cut -c1-16)
dir="$cache/libsql-$LIBSQL_FFI_VERSION-$key"
lib="$dir/libsql.so"

if [ -f "$lib" ] && [ -f "$dir/sqlite3.h" ] && [ -f "$dir/sqlite3ext.h" ]; then
    echo "$lib"
    exit 0
fi

# --- fetch: cargo downloads the locked crates into its own cache and checks their checksums
command -v "$cargo" >/dev/null 2>&1 || fail "cargo not found: it fetches libsql-ffi $LIBSQL_FFI_VERSION from crates.io (install Rust's cargo)"
mkdir -p "$cache" || fail "cannot create $cache"
log="$cache/libsql-fetch.log"
if ! "$cargo" fetch --locked --manifest-path "$manifest" >"$log" 2>&1 \
    && ! "$cargo" fetch --locked --offline --manifest-path "$manifest" >>"$log" 2>&1; then
    fail "cargo could not fetch libsql-ffi $LIBSQL_FFI_VERSION (offline, or crates.io unreachable, and not in cargo's cache): $(grep -m 1 -i error "$log")"
fi
cargo_home=${CARGO_HOME:-$HOME/.cargo}
crate=""
for f in "$cargo_home"/registry/cache/*/"libsql-ffi-$LIBSQL_FFI_VERSION.crate"; do
    [ -f "$f" ] && [ "$(sha256 "$f")" = "$locked" ] && crate=$f && break
done
[ -n "$crate" ] || fail "no libsql-ffi-$LIBSQL_FFI_VERSION.crate with checksum $locked under $cargo_home/registry/cache after cargo fetch"

# --- unpack the amalgamation and check its version
tmp="$dir.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
src="libsql-ffi-$LIBSQL_FFI_VERSION/bundled/src"
tar -xzf "$crate" -C "$tmp" "$src/sqlite3.c" "$src/sqlite3.h" "$src/sqlite3ext.h" || fail "cannot unpack $src from $crate"
header="$tmp/$src/sqlite3.h"
declared=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"/\1/p' "$header")
[ "$declared" = "$SQLITE_VERSION" ] || fail "sqlite3.h of libsql-ffi $LIBSQL_FFI_VERSION declares SQLite '$declared', expected $SQLITE_VERSION"
declared=$(sed -n 's/^#define LIBSQL_VERSION  *"\(.*\)"/\1/p' "$header")
[ "$declared" = "$LIBSQL_VERSION" ] || fail "sqlite3.h of libsql-ffi $LIBSQL_FFI_VERSION declares libSQL '$declared', expected $LIBSQL_VERSION"

# --- compile (a minute or two of CPU, once: the result is cached under its key)
echo "install-libsql: compiling libSQL $LIBSQL_VERSION (SQLite $SQLITE_VERSION) into $lib" >&2
# shellcheck disable=SC2086 # the options are words on purpose
"$cc" -shared -fPIC $OPTIONS -I"$tmp/$src" -o "$tmp/libsql.so" "$tmp/$src/sqlite3.c" -lm -ldl -lpthread \
    >"$tmp/build.log" 2>&1 || fail "'$cc' failed to compile libSQL's sqlite3.c: $(grep -m 1 -i error "$tmp/build.log")"
# the headers beside the library: the tests compile an extension against them and check the bindings
cp "$tmp/$src/sqlite3.h" "$tmp/$src/sqlite3ext.h" "$tmp/"
rm -rf "$tmp/libsql-ffi-$LIBSQL_FFI_VERSION"
rm -rf "$dir"
mv "$tmp" "$dir" || fail "cannot move the build into $dir"
trap - EXIT
echo "$lib"
