#!/bin/sh
# Every fault point of every workload (issue 29): the sweeps of FaultSweepTest with stride 1 and
# every journal mode and synchronous setting, in each of the suite's runs (bundled engine, system
# SQLite with and without the helper, libSQL). mvn verify runs a stride of them; this runs them all
# (about ten minutes per run on a laptop). Extra arguments go to Maven, e.g.
#   sh tools/fault-soak.sh -Dpanlite.faults.workloads=blob,vacuum
#   sh tools/fault-soak.sh -Dpanlite.faults.strict=true     # fail on the open defects too
# Findings are listed in the failure of FaultSweepTest; each child JVM's log stays in
# target-soak/faults/<run>/ when it crashed or hung.
set -eu
cd "$(dirname "$0")/.."
exec mvn -o test -DbuildDir=target-soak -Dinvoker.skip=true -Dtest=FaultSweepTest \
    -Dsurefire.failIfNoSpecifiedTests=false -Dpanlite.faults.stride=1 -Dpanlite.faults.configs=all \
    -Dpanlite.faults.childSeconds=7200 "$@"
