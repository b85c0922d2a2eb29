#!/usr/bin/env bash
# kifu's conversion speed and peak memory on one large input against the floor, in one run:
# a memchr bracket scan of the same file (examples/bracket_scan) is 1x (docs/benchmarks.md).
# Usage: benches/speed.sh            (real games: those of ../shared/corpus/ai_yenw,
#                                    concatenated in path order and repeated to 105 MB;
#                                    without ../shared, a generated 100 MB collection)
#        KIFU_BENCH_GENERATED=1 ...  the generated collection (examples/generate) instead
#        KIFU_BENCH_FILE=big.sgf benches/speed.sh
#        KIFU_BENCH_BIG=1 ...        also a generated 1 GB input (written to /dev/null, then deleted)
#        KIFU_BENCH_BATCH=1 ...      also benches/batch.sh 1 (batch over ../shared/corpus vs cat)
#        KIFU_BENCH_OUT=/dev/shm ... conversion outputs written there (in memory), not to the disk:
#                                    the JSON outputs are 4-5 times the input, and writing them
#                                    to this machine's disk moves their times by up to 2x
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x /usr/bin/time ]; then
  echo "speed.sh needs GNU time for peak memory: apt-get install -y time" >&2
  exit 1
fi
cargo build --release --quiet --bins --examples --manifest-path "$here/Cargo.toml"
kifu="$here/target/release/kifu"
ex="$here/target/release/examples"
work=$(mktemp -d /tmp/kifu-speed.XXXXXX)
out=$(mktemp -d -p "${KIFU_BENCH_OUT:-/tmp}" kifu-speed-out.XXXXXX)
trap 'rm -rf "$work" "$out"' EXIT
file=${KIFU_BENCH_FILE:-}
yenw="$here/../shared/corpus/ai_yenw"
if [ -z "$file" ] && [ -z "${KIFU_BENCH_GENERATED:-}" ] && [ -d "$yenw" ]; then
  # Real games, as they come from the servers and AI matches (Fox komi x100, kanji ranks, late
  # FF/CA, ...: most need repairs): each file followed by a line end, in byte order of the paths.
  file="$work/ai_yenw.sgf"
  find "$yenw" -type f -iname '*.sgf' -print0 | LC_ALL=C sort -z | LC_ALL=C xargs -0 awk 1 >"$work/once.sgf"
  while [ "$(stat -c %s "$file" 2>/dev/null || echo 0)" -lt 100000000 ]; do cat "$work/once.sgf" >>"$file"; done
  rm -f "$work/once.sgf"
elif [ -z "$file" ]; then
  file="$work/games.sgf"
  "$ex/generate" 100 "$file"
fi
size=$(stat -c %s "$file")
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $file ($((size / 1000000)) MB)"
echo "outputs in: $out"
# run LABEL CMD...: wall seconds, peak RSS (KiB) and CPU seconds (user + system) into $secs /
# $kib / $cpu; prints one table row. The CPU column stays meaningful on a loaded machine (where
# other processes stretch wall times), the wall column shows what -j gains.
scan=
run() {
  local label=$1
  shift
  if ! /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
    echo "$label: FAILED"; tail -3 "$work/err"; secs=0; kib=0; cpu=0; return
  fi
  local user sys
  read -r secs kib user sys <"$work/time"
  cpu=$(echo "$user + $sys" | bc -l)
  if [ -z "$scan" ]; then scan=$secs; scan_cpu=$cpu; fi
  printf '| %-44s | %7.2f s | %6.1fx | %6.2f s | %6.1fx | %6.0f MiB |\n' "$label" "$secs" \
    "$(echo "$secs / $scan" | bc -l)" "$cpu" "$(echo "$cpu / ($scan_cpu + 0.005)" | bc -l)" "$(echo "$kib / 1024" | bc -l)"
}
table() {
  echo '| command | wall | vs scan | CPU | vs scan | peak RSS |'
  echo '|---|---|---|---|---|---|'
}
table
run "memchr [ ] scan (floor)" "$ex/bracket_scan" "$file"
run "read_model (collection API)" "$ex/read_model" "$file"
model=$secs
run "convert -f sgf -t sgf -j 2" "$kifu" convert -q "$file" -f sgf -t sgf -j 2 -o "$out/o.sgf"
sgf2=$secs
run "convert -f sgf -t sgf -j 1" "$kifu" convert -q "$file" -f sgf -t sgf -j 1 -o "$out/o1.sgf"
rm -f "$out/o1.sgf"
run "convert -f sgf -t ndjson" "$kifu" convert -q "$file" -t ndjson -o "$out/o.ndjson"
nd=$secs
run "convert -f sgf -t json" "$kifu" convert -q "$file" -t json -o "$out/o.json"
js=$secs
rm -f "$out/o.json"
run "convert -f ndjson -t sgf" "$kifu" convert -q "$out/o.ndjson" -f ndjson -t sgf -o "$out/back.sgf"
rm -f "$out/o.sgf" "$out/back.sgf"
# The same conversions written to /dev/null, and a copy of the NDJSON into the output folder:
# what kifu spends apart from the kernel storing an output several times the input's size.
run "convert -t sgf -j 2 -o /dev/null" "$kifu" convert -q "$file" -f sgf -t sgf -j 2 -o /dev/null
sgf_null=$secs
run "convert -t ndjson -o /dev/null" "$kifu" convert -q "$file" -t ndjson -o /dev/null
nd_null=$secs
run "convert -t json -o /dev/null" "$kifu" convert -q "$file" -t json -o /dev/null
js_null=$secs
run "cp of the NDJSON output (kernel storing it)" cp "$out/o.ndjson" "$out/copy.ndjson"
rm -f "$out/copy.ndjson"
printf 'read_model: %.0f MB/s; SGF->NDJSON / SGF->SGF: %.2f; SGF->JSON / SGF->SGF: %.2f\n' \
  "$(echo "$size / 1000000 / $model" | bc -l)" "$(echo "$nd / $sgf2" | bc -l)" "$(echo "$js / $sgf2" | bc -l)"
printf 'to /dev/null: SGF->NDJSON / SGF->SGF: %.2f; SGF->JSON / SGF->SGF: %.2f\n' \
  "$(echo "$nd_null / $sgf_null" | bc -l)" "$(echo "$js_null / $sgf_null" | bc -l)"
# Many small games in one collection (read whole: under 16 MiB): work quadratic in the number of
# games shows here as a ratio far above the large collection's.
small="$work/small.sgf"
"$ex/generate" --games 20000 "$small"
echo "20,000 small games: $(($(stat -c %s "$small") / 1000000)) MB"
scan=
table
run "memchr [ ] scan (floor), 20,000 games" "$ex/bracket_scan" "$small"
run "read_model, 20,000 games" "$ex/read_model" "$small"
run "convert -t sgf, 20,000 games" "$kifu" convert -q "$small" -t sgf -o "$out/s.sgf"
run "convert -t ndjson, 20,000 games" "$kifu" convert -q "$small" -t ndjson -o "$out/s.ndjson"
# check exits 1 on errors and 3 on warnings (the generated games replay random moves, some onto
# occupied points): those count as done.
run "check, 20,000 games" sh -c '"$0" check -q "$1" >/dev/null; r=$?; [ $r -eq 0 ] || [ $r -eq 1 ] || [ $r -eq 3 ]' \
  "$kifu" "$small"
rm -f "$small" "$out/s.sgf" "$out/s.ndjson"
if [ -n "${KIFU_BENCH_BIG:-}" ]; then
  big="$work/big.sgf"
  for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$file"; done >"$big"
  echo "1 GB input: $(($(stat -c %s "$big") / 1000000)) MB"
  scan=
  table
  run "memchr [ ] scan (floor), 1 GB" "$ex/bracket_scan" "$big"
  run "convert -t sgf -o /dev/null, 1 GB" "$kifu" convert -q "$big" -t sgf -o /dev/null
  run "convert -t ndjson -o /dev/null, 1 GB" "$kifu" convert -q "$big" -t ndjson -o /dev/null
  run "ndjson stdin -> sgf -o /dev/null, 1 GB" sh -c "'$kifu' convert -q '$big' -t ndjson | /usr/bin/time -f '%e %M' -o '$work/nd' '$kifu' convert -q - -f ndjson -t sgf -o /dev/null"
  read -r s k <"$work/nd"
  printf '  (the ndjson -> sgf side alone: %.2f s, %.0f MiB)\n' "$s" "$(echo "$k / 1024" | bc -l)"
  rm -f "$big"
fi
if [ -n "${KIFU_BENCH_BATCH:-}" ]; then
  "$here/benches/batch.sh" 1
fi
