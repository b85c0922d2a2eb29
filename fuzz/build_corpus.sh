#!/bin/sh
# Builds the seed corpus of every fuzz target from the repository's own fixtures (never from
# ../shared): fuzz/corpus/<target>/<fixture file>. The JSON and NDJSON seeds are made by kifu
# itself from the SGF fixtures, so every format has seeds. Run from anywhere:
#   fuzz/build_corpus.sh [KIFU_BINARY]     (default: target/release/kifu, built if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
kifu=${1:-$root/target/release/kifu}
[ -x "$kifu" ] || (cd "$root" && cargo build --release --quiet)
out=$here/corpus
rm -rf "$out"
for t in sgf gib ngf ugf json ndjson sniff roundtrip; do mkdir -p "$out/$t"; done
seed() { # seed TARGET FILE
    cp "$2" "$out/$1/$(echo "$2" | sed "s|$root/fixtures/||; s|/|-|g")"
}
for f in $(find "$root/fixtures" -type f | sort); do
    case "$f" in
        *.expected*|*README*) continue ;;
        *.sgf) seed sgf "$f" ;;
        *.gib) seed gib "$f" ;;
        *.ngf) seed ngf "$f" ;;
        *.ugf|*.ugi) seed ugf "$f" ;;
        *.json) seed json "$f" ;;
        *) continue ;;
    esac
    seed sniff "$f"
    seed roundtrip "$f"
done
# JSON and NDJSON seeds converted from the SGF fixtures (kifu's own output).
for f in "$root"/fixtures/sgf/*.sgf "$root"/fixtures/check/*.sgf; do
    case "$f" in *.expected*) continue ;; esac
    name=$(basename "$f" .sgf)
    "$kifu" convert -q -t json "$f" > "$out/json/$name.json" 2>/dev/null || rm -f "$out/json/$name.json"
    "$kifu" convert -q -t ndjson "$f" > "$out/ndjson/$name.ndjson" 2>/dev/null || rm -f "$out/ndjson/$name.ndjson"
done
for t in sgf gib ngf ugf json ndjson sniff roundtrip; do
    printf '%s: %s seeds\n' "$t" "$(ls "$out/$t" | wc -l)"
done
