#!/usr/bin/env bash
# Two builds of decidekit, alternated in one run: `score` on 1,000,000 decisions and `bench` at
# 100,000 cases (--no-store and --store, --parallel 32, embedded server). Each line of the TSV is
# one process: wall, CPU (user + system) and peak RSS from /usr/bin/time, with the load average
# when it started. The order alternates (A B, then B A) so drift in the machine's load falls on both.
#
#   bench/same-run-versions.sh OLD_CHECKOUT NEW_CHECKOUT [OUT.tsv]
#
# Each checkout must be built (dist/cli/main.js). The data are generated once into the temp folder:
#   npx tsx -e "import('./bench/offline-data.ts').then(m => m.offlineDataFiles(1000000))"
#   npx tsx bench/make-scale-dataset.ts --cases 100000 --out /tmp/scale-100000.jsonl
set -uo pipefail
OLD=$1 NEW=$2 OUT=${3:-same-run.tsv}
D=${TMPDIR:-/tmp}/decidekit-bench-offline-1000000-v1
SCALE=${TMPDIR:-/tmp}/scale-100000.jsonl
T=$(mktemp -d)
printf 'what\tversion\trep\twall_s\tcpu_s\tpeak_mb\tload1\texit\n' > "$OUT"
one() { # what version-dir rep args...
  local what=$1 dir=$2 rep=$3 load
  shift 3
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S %M' -o "$T/time" node "$dir/dist/cli/main.js" "$@" > /dev/null 2> "$T/err"
  local code=$?
  read -r e u s m < "$T/time"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$what" "$dir" "$rep" "$e" "$(echo "$u + $s" | bc)" $((m / 1024)) "$load" "$code" >> "$OUT"
}
for rep in 1 2 3 4 5; do
  for dir in "$OLD" "$NEW" "$NEW" "$OLD"; do
    one score "$dir" "$rep" score --dataset "$D/dataset.jsonl" --results "$D/results.jsonl" --json
  done
done
for rep in 1 2 3; do
  for dir in "$OLD" "$NEW"; do one bench-no-store "$dir" "$rep" bench --dataset "$SCALE" --parallel 32 --no-store; done
  for dir in "$NEW" "$OLD"; do
    rm -f "$T"/store.sqlite*
    one bench-store "$dir" "$rep" bench --dataset "$SCALE" --parallel 32 --store "$T/store.sqlite"
  done
done
rm -rf "$T"
