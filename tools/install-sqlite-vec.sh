#!/bin/sh
# Fetches sqlite-vec's loadable extension for the tests and benchmarks (issue 30): the PyPI package
# sqlite-vec, whose wheels carry the official loadable build (vec0.so / vec0.dylib / vec0.dll), pinned
# by version (the one compiled into the bundled engine) and by the sha256 of each wheel. The wheel for
# this machine is downloaded with pip --require-hashes and the library extracted into a cache directory
# (never into the repository). Prints the path of the library on stdout; on failure prints the reason
# on stderr and exits 1 (the test or benchmark that needs it is then skipped with that reason).
#
#   sh tools/install-sqlite-vec.sh            fetch if missing, print the path of vec0.so (.dylib, .dll)
#
# Environment: PANLITE_BUILD_CACHE (default ~/.cache/panlite-build), PYTHON (default python3).
# Entry point of the library: sqlite3_vec_init (SQLite's default rule finds it from the name vec0).
set -eu

VERSION=0.1.9
# sha256 of every wheel of sqlite-vec 0.1.9 on PyPI (pip --require-hashes takes the one for this
# machine): macOS x86_64, macOS arm64, Linux aarch64 (glibc), Linux x86_64 (glibc), Windows x86_64.
# There is no wheel for musl Linux or Windows arm64: there the script fails with pip's reason.
HASHES="
--hash=sha256:1b62a7f0a060d9475575d4e599bbf94a13d85af896bc1ce86ee80d1b5b48e5fb
--hash=sha256:1d52e30513bae4cc9778ddbf6145610434081be4c3afe57cd877893bad9f6b6c
--hash=sha256:4e921e592f24a5f9a18f590b6ddd530eb637e2d474e3b1972f9bbeb773aa3cb9
--hash=sha256:1515727990b49e79bcaf75fdee2ffc7d461f8b66905013231251f1c8938e7786
--hash=sha256:4a28dc12fa4b53d7b1dced22da2488fade444e96b5d16fd2d698cd670675cf32
"

cache=${PANLITE_BUILD_CACHE:-$HOME/.cache/panlite-build}
dir="$cache/sqlite-vec-$VERSION"
tmp=""
fail() { echo "install-sqlite-vec: $*" >&2; [ -z "$tmp" ] || rm -rf "$tmp"; exit 1; }

# The cache holds the library and, next to it, the name of the wheel it came from (written last, so a
# half-done extraction is never taken for a finished one).
if [ -f "$dir/wheel" ]; then
    lib="$dir/$(sed -n 2p "$dir/wheel")"
    if [ -f "$lib" ]; then
        echo "$lib"
        exit 0
    fi
fi

python=${PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || fail "no $python to download sqlite-vec from PyPI (install Python 3)"
mkdir -p "$cache" || fail "cannot create the cache directory $cache"
tmp="$dir.tmp"
rm -rf "$tmp"
mkdir -p "$tmp" || fail "cannot create $tmp"
pip="$python -m pip"
if ! $pip --version >/dev/null 2>&1; then
    # A Python without pip (Debian's python3 without python3-pip): a throwaway venv brings its own.
    "$python" -m venv "$tmp/venv" >/dev/null 2>&1 || fail "$python has no pip and -m venv failed (Debian: apt-get install python3-venv)"
    pip="$tmp/venv/bin/python -m pip"
fi
printf 'sqlite-vec==%s %s\n' "$VERSION" "$(echo $HASHES)" >"$tmp/requirements.txt"
$pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
    -r "$tmp/requirements.txt" -d "$tmp/wheel" >"$tmp/pip.log" 2>&1 \
    || fail "pip could not download sqlite-vec $VERSION (offline, no wheel for this platform, or a wheel that does not match its pinned sha256): $(grep -m 1 '^ERROR' "$tmp/pip.log" || tail -n 1 "$tmp/pip.log")"
whl=$(ls "$tmp/wheel"/sqlite_vec-"$VERSION"-*.whl 2>/dev/null | head -n 1)
[ -n "$whl" ] || fail "pip downloaded no sqlite-vec $VERSION wheel into $tmp/wheel"
# The wheel is a zip; Python's zipfile extracts the one library it carries (unzip may be absent).
name=$("$python" - "$whl" "$tmp" <<'EOF'
import sys, zipfile, os
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    libs = [n for n in z.namelist()
            if n.startswith("sqlite_vec/vec0.") and n.rsplit(".", 1)[1] in ("so", "dylib", "dll")]
    if len(libs) != 1:
        sys.exit("expected one sqlite_vec/vec0.{so,dylib,dll} in the wheel, found %r" % libs)
    base = os.path.basename(libs[0])
    with z.open(libs[0]) as src, open(os.path.join(out, base), "wb") as dst:
        dst.write(src.read())
    print(base)
EOF
) || fail "could not extract the library from $(basename "$whl")"
printf '%s\n%s\n' "$(basename "$whl")" "$name" >"$tmp/wheel.name"
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/$name" "$dir/$name" || fail "could not move $name into $dir"
mv "$tmp/wheel.name" "$dir/wheel"
rm -rf "$tmp"
echo "$dir/$name"
