#!/bin/sh
# Builds the Panlite native helper into <classes>/native/<os>-<arch>/ so that it lands in the jar.
#
#   sh build.sh <classes-dir> <os.name> <os.arch>
#
# os.name and os.arch are the JVM's system properties (Maven passes its own); they are normalised
# exactly as dev.panlite.ffi.NativeHelper normalises them at run time, so the library is found
# under the name Java looks for (platform.sh). The C compiler is $CC (default: cc; may be several
# words), flags $CFLAGS are appended; PANLITE_PLATFORM names another platform to build for (release.sh).
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

. "$here/platform.sh"
# Without a library, NOT-BUILT.txt in its place says why (NativeHelper reports it at run time).
panlite_output "$out_root" "$os_name" "$os_arch" panlite_helper NOT-BUILT.txt "panlite native helper" \
    "the jar will use plain downcalls for fused calls"

# Up to date: nothing to do.
if [ -f "$target" ] && [ ! -f "$dir/NOT-BUILT.txt" ] && [ "$target" -nt "$src" ] && [ "$target" -nt "$0" ] && [ "$target" -nt "$here/platform.sh" ]; then
    exit 0
fi

first_word=${cc%% *}
command -v "$first_word" >/dev/null 2>&1 || [ -x "$first_word" ] || warn "no C compiler: '$first_word' not found; set CC"

flags="-O2 -fPIC -Wall -Wextra -fvisibility=hidden"
case "$platform" in
    macos-*)
        flags="$flags -dynamiclib -Wl,-install_name,@rpath/$lib" # not the build's path
        # Compile for the JVM's architecture (an x86_64 JVM under Rosetta on an arm64 Mac); a
        # cross build (PANLITE_PLATFORM) names its target in CC instead.
        if [ -z "${PANLITE_PLATFORM:-}" ]; then
            case "$platform" in *-aarch64) flags="$flags -arch arm64" ;; *) flags="$flags -arch x86_64" ;; esac
        fi ;;
    windows-*) flags="$flags -shared -s" ;; # no debug directory: its PDB path and timestamp differ per build
    *) flags="$flags -shared" ;;
esac

# compiled under its own name in a directory of its own: a DLL records its file name (and a name
# holding the process id would differ from build to build: not reproducible)
tmpdir="$dir/.tmp.$$"
mkdir -p "$tmpdir" || warn "cannot create $tmpdir"
tmp="$tmpdir/$lib"
# shellcheck disable=SC2086 # flags are words on purpose
if $cc $flags ${CFLAGS:-} -o "$tmp" "$src"; then
    mv -f "$tmp" "$target" || { rm -rf "$tmpdir"; warn "cannot write $target"; }
    rm -rf "$tmpdir" # with what a Windows link leaves beside the DLL (.pdb, .lib)
    rm -f "$dir/NOT-BUILT.txt"
    echo "panlite native helper: built $target"
else
    rm -rf "$tmpdir"
    warn "'$cc' failed to compile $src"
fi
