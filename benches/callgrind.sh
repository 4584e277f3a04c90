#!/usr/bin/env bash
# Instruction counts of the workloads of benches/callgrind.rs, per unit of work: a lookup, a
# template expanded, a match, or a URI byte for the adversarial shapes (at 10,000 separators).
# Each is the count of a run of n less that of a run of 0, so that set-up does not count.
# Counts do not move with the machine's load, so two builds compare in any order.
#
#   cargo bench -p rfc6570-benches --bench callgrind --no-run
#   benches/callgrind.sh target/release/deps/callgrind-<hash> > counts.txt
set -euo pipefail
bin=$1
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
        awk '/Collected/ {print $4}'
}
measure() { # workload, runs, units a run
    local with without
    with=$(count "$1" "$2")
    without=$(count "$1" 0)
    awk -v w="$with" -v o="$without" -v n="$2" -v u="$3" -v name="$1" \
        'BEGIN { printf "%-28s %9.1f\n", name, (w - o) / (n * u) }'
}
for w in github-bare github-bare-matchit github-read github-read-matchit github github-matchit; do
    measure "$w" 200 130
done
for w in github-miss github-miss-matchit static static-matchit; do
    measure "$w" 2000 1
done
measure expand 200 64
for op in simple reserved fragment label path path_param query query_continuation repeated; do
    measure "op-$op" 2000 1
done
for shape in reserved3_slashes reserved3_match simple3_match simple3_dashes prefix_xs \
    prefix3_xs explode_commas explode_slashes repeated_segments repeated_dots map_keys; do
    measure "limit-$shape" 3 10000
done
