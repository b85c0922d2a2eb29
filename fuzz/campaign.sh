#!/bin/sh
# A fuzzing campaign over every target, one after the other, SECONDS each (default 120), from
# the seed corpus (fuzz/build_corpus.sh) with each format's dictionary; needs the nightly
# toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Known open findings of other owners'
# writers can be skipped with KIFU_FUZZ_IGNORE (see fuzz/src/oracle.rs). Prints libFuzzer's
# final statistics per target; crashes land in fuzz/artifacts/<target>/, the full log in
# fuzz/artifacts/<target>.log.
#   fuzz/campaign.sh 600                 (TARGETS="sgf gib" fuzz/campaign.sh 60 for some)
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")"
secs=${1:-120}
[ -d fuzz/corpus ] || fuzz/build_corpus.sh
mkdir -p fuzz/artifacts
for t in ${TARGETS:-roundtrip sgf json ndjson gib ngf ugf sniff}; do
    case $t in
        roundtrip|sniff|sgf) dict=sgf ;;
        ndjson) dict=json ;;
        *) dict=$t ;;
    esac
    echo "== $t ($secs s, dict $dict)"
    cargo +nightly fuzz run -O "$t" "fuzz/corpus/$t" -- -dict="fuzz/dict/$dict.dict" \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 2>&1 |
        tee "fuzz/artifacts/$t.log" | grep -E "stat::number_of_executed_units|stat::new_units_added|panicked|SUMMARY|Finding|rule|detail|writer"
done
