#!/usr/bin/env bash
# Batch diagrams against batch conversion over ../shared/corpus: the final position of every game
# drawn to SVG (`kifu diagram -r -O`), and the same files converted to SGF (`kifu convert -r -O`),
# through the same batch engine. Prints wall and CPU (user + system) seconds of both and their
# ratios (the goal: within 2x). On a shared machine the wall times swing with the disk; the CPU
# ratio is the steadier figure.
# Usage: benches/diagram.sh [ROUNDS] [KIND]   (KIND: svg (default), png or text; builds release)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus="$here/../shared/corpus"
[ -d "$corpus" ] || { echo "no $corpus; nothing to measure"; exit 0; }
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
kifu="$here/target/release/kifu"
kind=${2:-svg}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=$(find "$corpus" -type f -name '*.[sS][gG][fF]' | wc -l)
# "WALL CPU" seconds of a command.
t() { /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >/dev/null 2>&1 || true; tail -1 "$work/time" | awk '{print $1, $2 + $3}'; }
for round in $(seq "${1:-3}"); do
  read -r sgf_wall sgf_cpu < <(t "$kifu" convert -r "$corpus" -O "$work/sgf$round" -q)
  read -r dia_wall dia_cpu < <(t "$kifu" diagram -r "$corpus" -O "$work/dia$round" -t "$kind" -q)
  drawn=$(find "$work/dia$round" -type f | wc -l)
  printf 'round %s: %s files  convert to sgf %.2fs (cpu %.2fs)  diagram to %s %.2fs (cpu %.2fs, %s drawn)  ratio wall %.2f cpu %.2f\n' \
    "$round" "$files" "$sgf_wall" "$sgf_cpu" "$kind" "$dia_wall" "$dia_cpu" "$drawn" \
    "$(echo "$dia_wall / $sgf_wall" | bc -l)" "$(echo "$dia_cpu / $sgf_cpu" | bc -l)"
  rm -rf "${work:?}"/sgf* "${work:?}"/dia*
done
