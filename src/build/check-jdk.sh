#!/bin/sh
# Runs before the toolchains plugin picks a JDK: when no JDK 22+ is installed where the plugin looks,
# stop with one line that says what to install (the plugin's own message only speaks of toolchains.xml).
# Arguments: the major version of the JDK running Maven, and the version Panlite needs.
running=${1:-0}
need=${2:-22}
[ "${running%%.*}" -ge "$need" ] 2>/dev/null && exit 0
for home in "${JAVA_HOME:-}" /usr/lib/jvm/* "$HOME"/.jdks/* "$HOME"/.sdkman/candidates/java/* \
            /Library/Java/JavaVirtualMachines/*/Contents/Home /opt/java/* /usr/java/*; do
    [ -n "$home" ] && [ -f "$home/release" ] || continue
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
    [ -n "$v" ] && [ "$v" -ge "$need" ] 2>/dev/null && exit 0
done
echo "Panlite needs a JDK $need or newer and none is installed where Maven looks (JAVA_HOME, /usr/lib/jvm, ~/.jdks, SDKMAN, /Library/Java): install one, e.g. Eclipse Temurin $need+ (adoptium.net), or set JAVA_HOME to it" >&2
exit 1
