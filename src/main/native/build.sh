#!/bin/sh
# Builds the Panlite native helper into <classes>/native/<os>-<arch>/ so that it lands in the jar.
#
#   sh build.sh <classes-dir> <os.name> <os.arch>
#
# os.name and os.arch are the JVM's system properties (Maven passes its own); they are normalised
# exactly as dev.panlite.ffi.NativeHelper normalises them at run time, so the library is found
# under the name Java looks for. The C compiler is $CC (default: cc), flags $CFLAGS are appended.
#
# This script never fails the build: without a working compiler it prints one WARNING line, removes
# any stale library from an earlier build, leaves the reason in NOT-BUILT.txt where the library
# would be, and exits 0; the jar then uses the pure-Java fallback.
set -u

out_root=${1:?usage: build.sh <classes-dir> <os.name> <os.arch>}
os_name=${2:?os.name missing}
os_arch=${3:?os.arch missing}
here=$(cd "$(dirname "$0")" && pwd)
src="$here/panlite_helper.c"
cc=${CC:-cc}

lower() { printf '%s' "$1" | tr '[:upper:]' '[:lower:]'; }

# --- keep in step with NativeHelper.os() / NativeHelper.arch() / NativeHelper.libraryName()
os=$(lower "$os_name")
case "$os" in
    linux*) os=linux ;;
    mac*|darwin*) os=macos ;;
    windows*) os=windows ;;
    freebsd*) os=freebsd ;;
    *) os=$(printf '%s' "$os" | tr -cd 'a-z0-9') ;;
esac
arch=$(lower "$os_arch")
case "$arch" in
    amd64|x86_64|x86-64|x64) arch=x86_64 ;;
    aarch64|arm64) arch=aarch64 ;;
    x86|i386|i486|i586|i686) arch=x86 ;;
    *) arch=$(printf '%s' "$arch" | tr -cd 'a-z0-9_') ;;
esac
case "$os" in
    macos) lib=libpanlite_helper.dylib ;;
    windows) lib=panlite_helper.dll ;;
    *) lib=libpanlite_helper.so ;;
esac
# ---

dir="$out_root/native/$os-$arch"
target="$dir/$lib"

# Without a library, NOT-BUILT.txt in its place says why (NativeHelper reports it at run time).
warn() {
    echo "WARNING: panlite native helper not built ($1); the jar will use plain downcalls for fused calls" >&2
    rm -f "$target"
    printf '%s\n' "$1" > "$dir/NOT-BUILT.txt" 2>/dev/null
    exit 0
}

mkdir -p "$dir" || warn "cannot create $dir"

# Up to date: nothing to do.
if [ -f "$target" ] && [ ! -f "$dir/NOT-BUILT.txt" ] && [ "$target" -nt "$src" ] && [ "$target" -nt "$0" ]; then
    exit 0
fi

command -v "$cc" >/dev/null 2>&1 || [ -x "$cc" ] || warn "no C compiler: '$cc' not found; set CC"

flags="-O2 -fPIC -Wall -Wextra -fvisibility=hidden"
case "$os" in
    macos)
        # Compile for the JVM's architecture (an x86_64 JVM under Rosetta on an arm64 Mac).
        case "$arch" in aarch64) march=arm64 ;; *) march=$arch ;; esac
        flags="$flags -dynamiclib -arch $march" ;;
    *) flags="$flags -shared" ;;
esac

tmp="$target.tmp.$$"
# shellcheck disable=SC2086 # flags are words on purpose
if "$cc" $flags ${CFLAGS:-} -o "$tmp" "$src"; then
    mv -f "$tmp" "$target" || { rm -f "$tmp"; warn "cannot write $target"; }
    rm -f "$dir/NOT-BUILT.txt"
    echo "panlite native helper: built $target"
else
    rm -f "$tmp"
    warn "'$cc' failed to compile $src"
fi
