#!/bin/sh
# The fault sweeps with Panlite and with the incumbent (xerial sqlite-jdbc) side by side, for the
# experiment page docs/experiments/080-faults-side-by-side.md: every point of every setting, on the
# bundled engine (the incumbent bundles the same SQLite). Writes target-side/faults/side-by-side.md.
# The incumbent's jar comes from the local Maven repository (the jmh/ build resolves it; set
# MAVEN_REPOSITORY if yours is not ~/.m2/repository), or INCUMBENT_JAR names another. Extra arguments go to Maven (e.g. -Dpanlite.faults.stride=5).
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n 's:.*<xerial.version>\(.*\)</xerial.version>.*:\1:p' jmh/pom.xml)
jar=${INCUMBENT_JAR:-${MAVEN_REPOSITORY:-$HOME/.m2/repository}/org/xerial/sqlite-jdbc/$version/sqlite-jdbc-$version.jar}
[ -f "$jar" ] || { echo "no incumbent jar at $jar: build jmh/ once (./bench) or set INCUMBENT_JAR" >&2; exit 1; }
exec mvn -o test -DbuildDir=target-side -Dinvoker.skip=true -Dtest=FaultSideBySideTest \
    -Dsurefire.failIfNoSpecifiedTests=false -Dpanlite.faults.incumbent="$jar" \
    -Dpanlite.faults.childSeconds=7200 "$@"
