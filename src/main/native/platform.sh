# Sourced by build.sh and build-sqlite.sh: the platform directory and library file names, normalised
# exactly as dev.panlite.ffi.NativeFiles normalises them at run time (keep the two in step), so a
# library lands where Java looks for it.
#
#   panlite_platform <os.name> <os.arch>   prints e.g. linux-x86_64, linux-aarch64-musl, macos-aarch64
#   panlite_libname <platform> <base>      prints lib<base>.so, lib<base>.dylib or <base>.dll
#   panlite_output <classes-dir> <os.name> <os.arch> <base> <note> <what> <fallback>
#       sets platform, lib, dir, target (<classes-dir>/native/<platform>/<lib>) and creates dir;
#       afterwards `warn REASON` prints "WARNING: <what> not built for <platform> (REASON); <fallback>",
#       removes the library, leaves REASON in dir/<note> (the driver reports it) and exits 0.

panlite_lower() { printf '%s' "$1" | tr '[:upper:]' '[:lower:]'; }

# musl or glibc: the C library of this machine, from the dynamic loader that is installed (an
# Alpine system has /lib/ld-musl-<arch>.so.1 and no glibc loader). Not `ldd --version` text.
panlite_host_is_musl() {
    for loader in /lib/ld-musl-*.so.1; do
        [ -e "$loader" ] || continue
        for glibc in /lib64/ld-linux-*.so.2 /lib/ld-linux-*.so.* /lib/*-linux-gnu/ld-linux-*.so.*; do
            [ -e "$glibc" ] && return 1
        done
        return 0
    done
    return 1
}

panlite_platform() {
    _os=$(panlite_lower "$1")
    case "$_os" in
        linux*) _os=linux ;;
        mac*|darwin*) _os=macos ;;
        windows*) _os=windows ;;
        freebsd*) _os=freebsd ;;
        *) _os=$(printf '%s' "$_os" | tr -cd 'a-z0-9') ;;
    esac
    _arch=$(panlite_lower "$2")
    case "$_arch" in
        amd64|x86_64|x86-64|x64) _arch=x86_64 ;;
        aarch64|arm64) _arch=aarch64 ;;
        x86|i386|i486|i586|i686) _arch=x86 ;;
        *) _arch=$(printf '%s' "$_arch" | tr -cd 'a-z0-9_') ;;
    esac
    _suffix=
    if [ "$_os" = linux ] && panlite_host_is_musl; then
        _suffix=-musl
    fi
    printf '%s-%s%s\n' "$_os" "$_arch" "$_suffix"
}

panlite_libname() {
    case "$1" in
        macos-*) printf 'lib%s.dylib\n' "$2" ;;
        windows-*) printf '%s.dll\n' "$2" ;;
        *) printf 'lib%s.so\n' "$2" ;;
    esac
}

panlite_output() {
    platform=${PANLITE_PLATFORM:-$(panlite_platform "$2" "$3")}
    lib=$(panlite_libname "$platform" "$4")
    dir="$1/native/$platform"
    target="$dir/$lib"
    _note=$5
    _what=$6
    _fallback=$7
    mkdir -p "$dir" || warn "cannot create $dir"
}

warn() {
    echo "WARNING: $_what not built for $platform ($1); $_fallback" >&2
    rm -f "$target"
    printf '%s\n' "$1" > "$dir/$_note" 2>/dev/null
    exit 0
}
