#!/bin/sh
# Builds the SQLite engine bundled in the jar: the official amalgamation (sqlite3.c of the crates.io
# package libsqlite3-sys, fetched by cargo with the checksum pinned in sqlite/Cargo.lock) compiled
# with sqlite/options.txt, panlite_helper.c and sqlite-vec (sqlite-vec.c of the crates.io package
# sqlite-vec, pinned the same way), in one translation unit (bundled.c), into one shared library,
# <classes-dir>/native/<platform>/libsqlite3.so (.dylib, sqlite3.dll).
#
#   sh build-sqlite.sh <classes-dir> <os.name> <os.arch> <build-dir>
#
# <build-dir> receives the vendored crates (sqlite-vendor/; the tests read its sqlite3.h). Compiling
# sqlite3.c takes about a minute, so the library is cached in $PANLITE_BUILD_CACHE (default
# ~/.cache/panlite-build), keyed by the hash of the sources, the options, the compiler's version and
# the platform: a rebuild with nothing changed copies it from there.
#
# Environment: CC (default cc; may be several words, e.g. "zig cc -target aarch64-linux-gnu.2.17"),
# CFLAGS and LDFLAGS appended, PANLITE_PLATFORM to build for another platform than this machine's
# (release.sh), PANLITE_SQLITE=none or CC=none for a jar without the engine.
#
# Like build.sh this never fails the build: without cargo, without the network and the crate in
# cargo's cache, or without a compiler, it prints one WARNING line, leaves the reason in
# SQLITE-NOT-BUILT.txt where the library would be, and exits 0; the jar then uses the system SQLite.
set -u

out_root=${1:?usage: build-sqlite.sh <classes-dir> <os.name> <os.arch> <build-dir>}
os_name=${2:?os.name missing}
os_arch=${3:?os.arch missing}
build_dir=${4:?build-dir missing}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}

# The SQLite version the pinned crate carries (sqlite/Cargo.toml says how to move to another).
SQLITE_VERSION=3.54.1
# The sqlite-vec version its pinned crate carries (sqlite-vec.h's SQLITE_VEC_VERSION, without the v).
SQLITE_VEC_VERSION=0.1.9

. "$here/platform.sh"
panlite_output "$out_root" "$os_name" "$os_arch" sqlite3 SQLITE-NOT-BUILT.txt "bundled SQLite" \
    "the jar will use the system SQLite"
if [ "${PANLITE_SQLITE:-}" = none ] || [ "$cc" = none ]; then
    warn "turned off by PANLITE_SQLITE=none or CC=none"
fi

sha256() {
    if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@" | cut -c1-64; else shasum -a 256 "$@" | cut -c1-64; fi
}

# --- fetch: cargo vendor, unless an earlier build already vendored the same locked crates
manifest="$here/sqlite/Cargo.toml"
lock="$here/sqlite/Cargo.lock"
vendor="$build_dir/sqlite-vendor"
crate="$vendor/libsqlite3-sys"
vec_crate="$vendor/sqlite-vec"
locked_checksum() { sed -n "/^name = \"$1\"/,/^checksum/s/^checksum = \"\\([0-9a-f]*\\)\"/\\1/p" "$lock"; }
locked=$(locked_checksum libsqlite3-sys)
[ -n "$locked" ] || warn "no libsqlite3-sys checksum in $lock"
vec_locked=$(locked_checksum sqlite-vec)
[ -n "$vec_locked" ] || warn "no sqlite-vec checksum in $lock"
vendored() {
    grep -q "\"package\":\"$locked\"" "$crate/.cargo-checksum.json" 2>/dev/null \
        && grep -q "\"package\":\"$vec_locked\"" "$vec_crate/.cargo-checksum.json" 2>/dev/null
}
if ! vendored; then
    command -v cargo >/dev/null 2>&1 || warn "cargo not found: it fetches the SQLite source from crates.io (install Rust's cargo)"
    rm -rf "$vendor"
    # --locked: exactly the crate and checksum of Cargo.lock; --offline retries from cargo's cache.
    if ! cargo vendor --quiet --locked --manifest-path "$manifest" "$vendor" >/dev/null 2>"$build_dir/cargo-vendor.log" \
        && ! cargo vendor --quiet --locked --offline --manifest-path "$manifest" "$vendor" >/dev/null 2>>"$build_dir/cargo-vendor.log"; then
        warn "cargo vendor failed (offline, no crate in cargo's cache?): $(grep -m 1 'error' "$build_dir/cargo-vendor.log")"
    fi
    vendored || warn "the vendored libsqlite3-sys and sqlite-vec are not those pinned in Cargo.lock ($locked, $vec_locked)"
fi

# --- check: the files are the ones the pinned crate lists, and the version is the expected one
src="$crate/sqlite3/sqlite3.c"
header="$crate/sqlite3/sqlite3.h"
vec_src="$vec_crate/sqlite-vec.c"
vec_header="$vec_crate/sqlite-vec.h"
# <crate> <file in it>: the file's sha256 is the one the vendored crate's checksum list gives it
check_listed() {
    listed=$(grep -o "\"$2\":\"[0-9a-f]*\"" "$1/.cargo-checksum.json" | sed 's/.*:"\([0-9a-f]*\)"/\1/')
    [ -n "$listed" ] && [ "$listed" = "$(sha256 "$1/$2")" ] || warn "$1/$2 does not match the crate's checksum list"
}
check_listed "$crate" sqlite3/sqlite3.c
check_listed "$crate" sqlite3/sqlite3.h
check_listed "$vec_crate" sqlite-vec.c
check_listed "$vec_crate" sqlite-vec.h
declared=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"/\1/p' "$header")
[ "$declared" = "$SQLITE_VERSION" ] || warn "sqlite3.h declares SQLite '$declared', expected $SQLITE_VERSION"
vec_declared=$(sed -n 's/^#define SQLITE_VEC_VERSION  *"v\(.*\)"/\1/p' "$vec_header")
[ "$vec_declared" = "$SQLITE_VEC_VERSION" ] || warn "sqlite-vec.h declares sqlite-vec '$vec_declared', expected $SQLITE_VEC_VERSION"

# --- options for this platform
options=$(sed -e 's/#.*//' "$here/sqlite/options.txt" | tr -s ' \n' '  ')
case "$platform" in
    # Windows has no localtime_r/gmtime_r (SQLite uses its own there); exports must be declared.
    # -s: no debug directory, whose PDB path and hash-based timestamp differ from build to build
    windows-*) flags="-shared -s" libs=""
               options="$(printf '%s' "$options" | sed 's/-DHAVE_LOCALTIME_R=1//; s/-DHAVE_GMTIME_R=1//')"
               options="$options -DSQLITE_API=__declspec(dllexport)" ;;
    # the install name is what a Mach-O library records as its own path: not the build's
    macos-*) flags="-dynamiclib -fPIC -Wl,-install_name,@rpath/$lib"; libs="-lm" ;;
    # -ldl and -lpthread: on glibc before 2.34 dlopen (load_extension) and threads live there.
    # -fno-semantic-interposition: calls between SQLite's own exported functions (and the helper's into
    # them) are direct and may be inlined, as no program replaces one function of this library.
    *) flags="-shared -fPIC -fno-semantic-interposition"; libs="-lm -ldl -lpthread" ;;
esac

# --- cache
first_word=${cc%% *}
command -v "$first_word" >/dev/null 2>&1 || [ -x "$first_word" ] || warn "no C compiler: '$first_word' not found; set CC"
# (in the build directory: zig cc leaves an empty a.o behind for --version)
compiler=$(cd "$build_dir" && $cc --version 2>/dev/null | head -n 1)
# The compiler command without its directory: the same zig in another build directory is the same compiler.
key=$(printf '%s\n' "$(sha256 "$src")" "$(sha256 "$vec_src")" "$(sha256 "$vec_header")" "$(sha256 "$here/panlite_helper.c")" \
    "$(sha256 "$here/bundled.c")" "$options" "$flags" "$libs" \
    "${CFLAGS:-}" "${LDFLAGS:-}" "${cc##*/}" "$compiler" "$platform" | sha256 - | cut -c1-24)
cache=${PANLITE_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/panlite-build}
cached="$cache/$key/$lib"

if [ ! -f "$cached" ]; then
    mkdir -p "$cache/$key" || warn "cannot create the build cache $cache"
    # compiled under its own name in a directory of its own: a DLL records its file name (and a
    # name holding the process id would differ from build to build)
    tmpdir="$cache/$key/.tmp.$$"
    mkdir -p "$tmpdir" || warn "cannot create $tmpdir"
    tmp="$tmpdir/$lib"
    echo "bundled SQLite $SQLITE_VERSION with sqlite-vec $SQLITE_VEC_VERSION for $platform: compiling sqlite3.c and sqlite-vec.c (about a minute; cached in $cache/$key)"
    # shellcheck disable=SC2086 # flags and options are words on purpose
    # (sqlite-vec's directory last: its own older sqlite3.h must not be the one found for SQLite's)
    if ! $cc $flags $options ${CFLAGS:-} -I"$crate/sqlite3" -I"$here" -I"$vec_crate" -o "$tmp" "$here/bundled.c" \
        $libs ${LDFLAGS:-} >"$build_dir/sqlite-build.log" 2>&1; then
        rm -rf "$tmpdir"
        warn "'$cc' failed to compile sqlite3.c and sqlite-vec.c: $(grep -m 1 -i error "$build_dir/sqlite-build.log")"
    fi
    mv -f "$tmp" "$cached" || { rm -rf "$tmpdir"; warn "cannot write $cached"; }
    rm -rf "$tmpdir" # with what a Windows link leaves beside the DLL (.pdb, .lib)
fi
if ! cmp -s "$cached" "$target"; then
    cp "$cached" "$target.tmp.$$" && mv -f "$target.tmp.$$" "$target" || { rm -f "$target.tmp.$$"; warn "cannot write $target"; }
    echo "bundled SQLite $SQLITE_VERSION: $target"
fi
rm -f "$dir/SQLITE-NOT-BUILT.txt"
