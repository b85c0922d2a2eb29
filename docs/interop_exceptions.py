#!/usr/bin/env python3
"""Applies docs/interop-peer-bugs.tsv (kifu's own list of peer bugs, in the interop kit's
format) to the kifu-attributable disagreements of an interop run, and prints what is left.

    python3 docs/interop_exceptions.py /tmp/interop-legacy/disagreements.jsonl

Uses the kit's rule reader (../shared/interop/tools/exceptions.py) as it is; kifu holds no copy.
"""
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.environ.get("KIFU_INTEROP_KIT", os.path.join(HERE, "..", "..", "shared", "interop"))
sys.path.insert(0, os.path.join(KIT, "tools"))
import exceptions as X  # noqa: E402  (the kit's module)

CHARSETS = {"utf-8": "utf-8", "cp949": "cp949", "gb18030": "gb18030", "shift_jis": "cp932"}


class Context:
    """What the rules' out/utf8/in keys read: kifu's output and input files."""

    def out_text(self, d, how=None):
        data = open(d["out"], "rb").read()
        if how == "utf8":
            return data.decode("utf-8", errors="ignore")
        return data.decode(CHARSETS.get(d.get("enc"), "utf-8"), errors="replace")

    def in_text(self, d):
        return open(d["input"], "rb").read().decode("utf-8", errors="replace")

    def src_field(self, d, field):
        raise SystemExit(f"src.{field}: not supported here; use out/src conditions")


def main(path):
    rules = X.load(os.path.join(HERE, "interop-peer-bugs.tsv"))
    ctx = Context()
    left, taken = collections.Counter(), collections.Counter()
    outputs = set()
    for line in open(path, encoding="utf-8"):
        d = json.loads(line)
        if d.get("class") != "kifu":
            continue
        rule = next((r for r in rules if d["peer"] != "kifu" and r.matches(d, ctx)), None)
        key = (d["format"], d["peer"], d["field"], d["cat"])
        if rule:
            taken[rule.lineno] += 1
        else:
            left[key] += 1
            outputs.add(d["out"])
    for lineno, n in sorted(taken.items()):
        print(f"row at line {lineno}: {n} disagreements")
    for key, n in left.most_common():
        print(f"left: {n} {' · '.join(key)}")
    print(f"after interop-peer-bugs.tsv: {sum(left.values())} kifu-attributable disagreements in {len(outputs)} outputs")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/interop-legacy/disagreements.jsonl")
