#!/usr/bin/env bash
# SGF -> Parquet against SGF -> NDJSON on one large input, in one run: wall and CPU seconds and
# peak memory of each (formats/parquet.md: bounded memory, at least half NDJSON's speed).
# Usage: benches/parquet.sh           (the real games of benches/speed.sh: ../shared/corpus/ai_yenw
#                                      concatenated in path order and repeated to 105 MB)
#        KIFU_BENCH_FILE=big.sgf benches/parquet.sh
#        KIFU_BENCH_OUT=/dev/shm ...  outputs written there (in memory), not to the disk
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x /usr/bin/time ]; then
  echo "parquet.sh needs GNU time for peak memory: apt-get install -y time" >&2
  exit 1
fi
cargo build --release --quiet --bin kifu --manifest-path "$here/Cargo.toml"
kifu="$here/target/release/kifu"
work=$(mktemp -d /tmp/kifu-parquet.XXXXXX)
out=$(mktemp -d -p "${KIFU_BENCH_OUT:-/tmp}" kifu-parquet-out.XXXXXX)
trap 'rm -rf "$work" "$out"' EXIT
file=${KIFU_BENCH_FILE:-}
yenw="$here/../shared/corpus/ai_yenw"
if [ -z "$file" ]; then
  if [ ! -d "$yenw" ]; then
    echo "parquet.sh needs ../shared/corpus/ai_yenw, or KIFU_BENCH_FILE" >&2
    exit 1
  fi
  file="$work/ai_yenw.sgf"
  find "$yenw" -type f -iname '*.sgf' -print0 | LC_ALL=C sort -z | LC_ALL=C xargs -0 awk 1 >"$work/once.sgf"
  while [ "$(stat -c %s "$file" 2>/dev/null || echo 0)" -lt 100000000 ]; do cat "$work/once.sgf" >>"$file"; done
  rm -f "$work/once.sgf"
fi
echo "$(nproc) cores; input: $file ($(($(stat -c %s "$file") / 1000000)) MB)"
echo '| command | wall | CPU | peak RSS | output |'
echo '|---|---|---|---|---|'
run() {
  local label=$1 target=$2
  shift 2
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { echo "$label: FAILED"; tail -3 "$work/err"; exit 1; }
  read -r secs kib user sys <"$work/time"
  cpu=$(echo "$user + $sys" | bc -l)
  printf '| %-32s | %6.2f s | %6.2f s | %4.0f MiB | %4d MB |\n' "$label" "$secs" "$cpu" "$(echo "$kib / 1024" | bc -l)" \
    "$(($(stat -c %s "$target") / 1000000))"
}
run "convert -t ndjson" "$out/o.ndjson" "$kifu" convert -q "$file" -o "$out/o.ndjson"
nd=$secs nd_cpu=$cpu
rm -f "$out/o.ndjson"
run "convert -o games.parquet" "$out/o.parquet" "$kifu" convert -q "$file" -o "$out/o.parquet"
pq=$secs pq_cpu=$cpu pq_kib=$kib
printf 'Parquet speed / NDJSON speed: %.2f (wall), %.2f (CPU); Parquet peak RSS %.0f MiB\n' \
  "$(echo "$nd / $pq" | bc -l)" "$(echo "$nd_cpu / $pq_cpu" | bc -l)" "$(echo "$pq_kib / 1024" | bc -l)"
