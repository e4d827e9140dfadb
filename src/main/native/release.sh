#!/bin/sh
# Builds the bundled SQLite and the separate helper for every release platform into
# <classes-dir>/native/<platform>/, with the zig C compiler of the PyPI package ziglang (pinned by
# hash in zig-requirements.txt; pip installs it into <build-dir>/zig). Run by `mvn -Prelease package`
# (see the README), or by hand:
#
#   sh release.sh <classes-dir> <build-dir>
#
# zig carries the C libraries and SDK stubs of every target, so one Linux x86_64 machine builds them
# all; Linux libraries are linked against glibc 2.17 (RHEL 7/8, Ubuntu 20.04 and newer all load them),
# macOS ones for macOS 11 and newer (zig's default would be the newest macOS), arm64 ad-hoc signed.
# Each platform is built by build-sqlite.sh and build.sh as on a developer machine (same cache), and
# a platform that fails says so in one WARNING line; the script exits non-zero if any failed.
set -u
out_root=${1:?usage: release.sh <classes-dir> <build-dir>}
build_dir=${2:?build-dir missing}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/platform.sh" # panlite_libname

zig_dir="$build_dir/zig"
if [ ! -d "$zig_dir/ziglang" ]; then
    echo "release: installing the zig C compiler (PyPI ziglang, hash-pinned) into $zig_dir"
    python3 -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
        --target "$zig_dir" -r "$here/zig-requirements.txt" || { echo "release: pip could not install ziglang" >&2; exit 1; }
fi
# zig-cc: the compiler as one command (its name, not its directory, goes into the build cache key)
zig="$zig_dir/zig-cc"
printf '#!/bin/sh\nPYTHONPATH="%s" exec python3 -m ziglang cc "$@"\n' "$zig_dir" > "$zig" && chmod +x "$zig"
# zig cc adds debug information unless told not to (it would make the library 5x larger)
export CFLAGS="${CFLAGS:-} -g0"

failed=""
# platform directory, zig target
for pair in linux-x86_64:x86_64-linux-gnu.2.17 linux-aarch64:aarch64-linux-gnu.2.17 \
            linux-x86_64-musl:x86_64-linux-musl linux-aarch64-musl:aarch64-linux-musl \
            windows-x86_64:x86_64-windows-gnu macos-x86_64:x86_64-macos.11.0 macos-aarch64:aarch64-macos.11.0; do
    platform=${pair%%:*}
    target=${pair#*:}
    echo "release: $platform (zig cc -target $target)"
    PANLITE_PLATFORM=$platform CC="$zig -target $target" sh "$here/build-sqlite.sh" "$out_root" - - "$build_dir"
    PANLITE_PLATFORM=$platform CC="$zig -target $target" sh "$here/build.sh" "$out_root" - -
    dir="$out_root/native/$platform"
    # A release never falls back to the system SQLite: the engine itself must be there, whatever
    # the build scripts wrote (a note, or nothing at all).
    if [ -f "$dir/SQLITE-NOT-BUILT.txt" ] || [ -f "$dir/NOT-BUILT.txt" ] \
        || [ ! -s "$dir/$(panlite_libname "$platform" sqlite3)" ]; then
        failed="$failed $platform"
    fi
done
if [ -n "$failed" ]; then
    echo "release: not built for:$failed (see the WARNING lines above)" >&2
    exit 1
fi
echo "release: every platform built into $out_root/native/"
