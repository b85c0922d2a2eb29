#!/usr/bin/env bash
# Files per second of `kifu convert -r` over ../shared/corpus, against the I/O floors measured in
# the same run: `cat` of the same files (reading) and `cp -r` (creating the same files); and in
# the same rounds `kifu stats -r` and `kifu dedup -r` (which read every file and write nothing),
# with the number of duplicate groups.
# Usage: benches/batch.sh [ROUNDS]   (builds the release binary first)
# Outputs go to a temporary folder under KIFU_BENCH_OUT (default: the system's, e.g. /tmp); every
# round writes its own and all are deleted at the end, not between rounds: on ext4 without a
# journal, creating a file shortly (up to a few minutes) after thousands were deleted costs a scan
# of the recently deleted inodes, which made `cp -r` and kifu alike several times slower in the
# rounds after the first. The same holds after any large deletion on the machine: compare kifu
# with `cp -r` of the same run, or set KIFU_BENCH_OUT=/dev/shm to take file creation off the disk.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus="$here/../shared/corpus"
[ -d "$corpus" ] || { echo "no $corpus; nothing to measure"; exit 0; }
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
kifu="$here/target/release/kifu"
work=$(mktemp -d ${KIFU_BENCH_OUT:+-p "$KIFU_BENCH_OUT"})
trap 'rm -rf "$work"' EXIT
files=$(find "$corpus" -type f -name '*.[sS][gG][fF]' | wc -l)
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
for round in $(seq "${1:-3}"); do
  cat_s=$(t sh -c "find '$corpus' -type f -print0 | xargs -0 cat")
  cp_s=$(t cp -r "$corpus" "$work/cp$round")
  dry_s=$(t "$kifu" convert -r "$corpus" -O "$work/dry$round" --dry-run -q)
  run_s=$(t "$kifu" convert -r "$corpus" -O "$work/out$round" -q)
  printf 'round %s: %s files  cat %.2fs  cp -r %.2fs  kifu --dry-run %.2fs  kifu %.2fs (%.0f files/s, %.1fx cat, %.1fx cp -r)\n' \
    "$round" "$files" "$cat_s" "$cp_s" "$dry_s" "$run_s" "$(echo "$files / $run_s" | bc -l)" \
    "$(echo "$run_s / $cat_s" | bc -l)" "$(echo "$run_s / $cp_s" | bc -l)"
  stats_s=$(t "$kifu" stats -r "$corpus" -q)
  dedup_s=$(t "$kifu" dedup -r "$corpus" -q)
  printf 'round %s: kifu stats -r %.2fs (%.2fx convert)  kifu dedup -r %.2fs (%.2fx convert)\n' \
    "$round" "$stats_s" "$(echo "$stats_s / $run_s" | bc -l)" "$dedup_s" "$(echo "$dedup_s / $run_s" | bc -l)"
done
echo "duplicate groups: $("$kifu" dedup -r "$corpus" -q | wc -l)"
