#!/bin/sh
# Builds the fault-injecting VFS of the tests (src/test/native/faultvfs.c, issue 29) into
# <out-dir>/libfaultvfs.so (.dylib on macOS): test code, never in the driver's jar.
#
#   sh build-faultvfs.sh <out-dir> [<dir holding sqlite3ext.h> ...]
#
# The shim only needs SQLite's headers for its types (it calls the engine through the
# sqlite3_api_routines the engine hands it): the first directory given that holds sqlite3ext.h
# (the build passes the bundled engine's vendored headers), else /usr/include.
#
# Never fails the build: without a compiler or headers it prints the reason on stderr, leaves it
# in <out-dir>/NOT-BUILT.txt (the tests that need the shim skip with it) and exits 0.
# Environment: CC (default cc), CFLAGS appended.
set -u

out=${1:?usage: build-faultvfs.sh <out-dir> [<include-dir> ...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
src="$here/faultvfs.c"
cc=${CC:-cc}
case "$(uname -s 2>/dev/null)" in
    Darwin) lib=libfaultvfs.dylib; shared="-dynamiclib" ;;
    *) lib=libfaultvfs.so; shared="-shared" ;;
esac
mkdir -p "$out" || { echo "the fault-injecting VFS is not built: cannot create $out" >&2; exit 0; }
target="$out/$lib"

warn() {
    rm -f "$target"
    printf '%s\n' "$1" > "$out/NOT-BUILT.txt"
    echo "the fault-injecting VFS is not built ($1); the fault tests are skipped" >&2
    exit 0
}

include=
for dir in "$@" /usr/include; do
    if [ -f "$dir/sqlite3ext.h" ] && [ -f "$dir/sqlite3.h" ]; then
        include=$dir
        break
    fi
done
[ -n "$include" ] || warn "no sqlite3ext.h: build the bundled engine or install libsqlite3-dev"

# Up to date: nothing to do.
if [ -f "$target" ] && [ "$target" -nt "$src" ] && [ "$target" -nt "$0" ] && [ "$target" -nt "$include/sqlite3ext.h" ]; then
    exit 0
fi

first_word=${cc%% *}
command -v "$first_word" >/dev/null 2>&1 || [ -x "$first_word" ] || warn "no C compiler: '$first_word' not found; set CC"

tmp="$out/.tmp.$$.$lib"
# shellcheck disable=SC2086 # flags are words on purpose
if $cc -O1 -g -fPIC -Wall -Wextra -fvisibility=hidden $shared ${CFLAGS:-} -I"$include" -o "$tmp" "$src" -lpthread; then
    mv -f "$tmp" "$target" || warn "cannot write $target"
    rm -f "$out/NOT-BUILT.txt"
else
    rm -f "$tmp"
    warn "'$cc' failed to compile $src"
fi
