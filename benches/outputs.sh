#!/usr/bin/env bash
# Everything a speed change must leave as it was, captured to compare two builds with `diff -r`:
# every file written, the NDJSON reports and the printed diagnostics (paths and timings left out)
# of `kifu convert` over ../shared/corpus, samples and sgf-tests (to SGF and JSON, -v), over the
# corpus with --no-repair, and over three large collections (the real ai_yenw games, 8.7 MB and
# 26 MB, and a generated 20 MB one) to SGF with -j 1 and -j 2 and to NDJSON.
# Usage: benches/outputs.sh OUTDIR [KIFU]    (KIFU: the binary; default target/release/kifu)
#   git stash; cargo build --release; benches/outputs.sh /tmp/before
#   git stash pop; cargo build --release; benches/outputs.sh /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared="$here/../shared"
[ -d "$shared/corpus" ] || { echo "no $shared; nothing to capture"; exit 0; }
out=${1:?usage: benches/outputs.sh OUTDIR [KIFU]}
kifu=$(readlink -f "${2:-$here/target/release/kifu}")
rm -rf "$out" && mkdir -p "$out" && out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The large inputs, made the same way each time.
find "$shared/corpus/ai_yenw" -type f -iname '*.sgf' -print0 | LC_ALL=C sort -z | LC_ALL=C xargs -0 awk 1 >"$work/yenw.sgf"
cat "$work/yenw.sgf" "$work/yenw.sgf" "$work/yenw.sgf" >"$work/yenw3.sgf"
cargo build --release --quiet --examples --manifest-path "$here/Cargo.toml"
"$here/target/release/examples/generate" 20 "$work/generated.sgf" >/dev/null
strip() { sed -e "s#$shared#S#g" -e "s#$out#O#g" -e "s#$work#W#g" -e 's/"elapsed[^,}]*[,]*//g' \
  -e 's/"seconds[^,}]*[,]*//g' -e 's/[0-9.]* s\b/T s/g' -e 's/([0-9]* files\/s)/(N files\/s)/'; }
for set in corpus samples sgf-tests; do
  for to in sgf json; do
    "$kifu" convert -r "$shared/$set" -O "$out/$set-$to" -t "$to" -v -j 2 --report "$out/$set-$to.report" \
      2>"$out/$set-$to.err"
    echo "exit $?" >>"$out/$set-$to.err"
  done
done
"$kifu" convert -r "$shared/corpus" -O "$out/corpus-norepair" -t sgf --no-repair -v -j 2 \
  --report "$out/corpus-norepair.report" 2>"$out/corpus-norepair.err"
for name in yenw yenw3 generated; do
  for j in 1 2; do
    "$kifu" convert "$work/$name.sgf" -t sgf -o "$out/$name-j$j.sgf" -v -j "$j" 2>"$out/$name-j$j.err"
    echo "exit $?" >>"$out/$name-j$j.err"
  done
  "$kifu" convert "$work/$name.sgf" -t ndjson -o "$out/$name.ndjson" -v 2>"$out/$name-ndjson.err"
done
for f in "$out"/*.report "$out"/*.err; do strip <"$f" >"$f.tmp" && mv "$f.tmp" "$f"; done
echo "captured into $out ($(du -sh "$out" | cut -f1))"
