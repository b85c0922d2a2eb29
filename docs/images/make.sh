#!/bin/sh
# Draws the README's diagram images from the authored fixtures: `sh docs/images/make.sh`.
set -eu
cd "$(dirname "$0")/../.."
kifu() { cargo run --quiet --release -- "$@"; }
kifu diagram fixtures/diagram/markup.sgf --width 320 --force -o docs/images/markup.png
kifu diagram fixtures/diagram/ko.sgf --figures 9 --comments --width 320 --force -o docs/images/ko-figure.png
