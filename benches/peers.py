#!/usr/bin/env python3
"""kifu against the other SGF readers, in one run, on the same files (docs/benchmarks.md).

    python3 benches/peers.py                 # ../shared/corpus and the 105 MB real collection
    python3 benches/peers.py --mb 10         # a smaller collection (the Python peers are slow)
    python3 benches/peers.py --env ~/.cache/kifu-peers   # keep the installed peers for next time

Inputs: every SGF file under ../shared/corpus (10,251 small files), and one large collection:
the games of ../shared/corpus/ai_yenw (8.8 MB) concatenated in path order and repeated to at
least --mb megabytes, as benches/speed.sh builds it.

Readers, each reading those files itself: kifu's command (`kifu convert`, SGF out, nothing
written for the corpus: --dry-run; to /dev/null for the collection), kifu's library and the
sgf-parse crate (examples/peers.rs, one thread each), kifu's Python package (read_many / read),
sgfmill 1.1.1, pysgf 1.0.0 (the parser KaTrain 1.20 reads SGF with), @sabaki/sgf 3.4.7 (Node).
Floors: `cat` of the same files, and for the collection a memchr scan of its brackets.
A third table replays every main line of the corpus to board positions (NumPy int8 planes):
kifu.load_positions against sgfmill's boards.Board.play (with the planes, and the replay alone).
A fourth writes Parquet, one row per game (formats/parquet.md): the kifu command (`-o
x.parquet`) and kifu.read_table + pyarrow.parquet.write_table, on the corpus and the collection,
beside the command's NDJSON of the same inputs; no peer writes Parquet, so it has no peer rows.

Everything the peers need is installed into --env (default: a temporary folder, removed at the
end): a venv with sgfmill, pysgf, NumPy, pyarrow, maturin and kifu's wheel built from python/, and a Node folder
with @sabaki/sgf. Nothing is installed into the repository. A tool that cannot be installed
(no node, no network) is left out of the table with a note.

Times: processes (cat, the kifu command, examples/peers) are timed whole, wall clock and CPU
(user + system of the process and its children); the Python and Node readers time their own
reading loop (interpreter start-up and imports left out), wall clock and the CPU of the process
(NumPy's BLAS on one thread: its idle threads spin after the import, on no reader's work).
Each row is the best of --runs runs (default 3), or one run when the first took over 5 s.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERSIONS = {"sgfmill": "1.1.1", "pysgf": "1.0.0", "@sabaki/sgf": "3.4.7"}
SLOW = 5.0  # seconds: a row whose first run takes longer runs once

# ----------------------------------------------------------------------------------- readers
# Run by the venv's Python as `peers.py --driver TOOL MODE INPUT [OUTPUT]`; MODE is `list` (INPUT:
# a file of paths, one a line) or `collection` (INPUT: one SGF file); OUTPUT: the file a writer
# writes. Prints "WALL CPU GAMES FAILED".


def drive(tool, mode, source, output=None):
    # NumPy's BLAS starts a thread a core that spins for a while after the import: CPU no reader
    # spends (none multiplies matrices), left out of every row.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    paths = Path(source).read_text().splitlines() if mode == "list" else [source]
    games = failed = 0
    if tool in ("kifu-positions", "kifu-positions-1"):
        # Every game's main line as board planes (int8, one per move and one at the start), by
        # kifu's board in Rust: kifu.load_positions (illegal moves are warnings, not shown here).
        import warnings

        import kifu

        warnings.simplefilter("ignore", kifu.KifuWarning)
        threads = 1 if tool.endswith("-1") else None
        # The files kifu refuses, counted before the timed loop (skip_errors leaves them out).
        failed = sum(1 for r in kifu.read_many(paths) if not isinstance(r, kifu.Collection))
        wall, cpu = time.perf_counter(), time.process_time()
        games = len(kifu.load_positions(paths, threads=threads, skip_errors=True))
    elif tool == "kifu-game-positions":
        # The same planes game by game, as a loop over files would make them: kifu.read, then
        # game.positions() for each game (one thread).
        import warnings

        import kifu

        warnings.simplefilter("ignore", kifu.KifuWarning)
        wall, cpu = time.perf_counter(), time.process_time()
        for p in paths:
            try:
                collection = kifu.read(p)
            except (kifu.ReadError, OSError):
                failed += 1
                continue
            for game in collection:
                game.positions()
                games += 1
    elif tool in ("kifu-parquet", "kifu-parquet-1"):
        # One row per game, built in Rust (kifu.read_table, a pyarrow.Table) and written by pyarrow
        # to the Parquet file OUTPUT (pyarrow's defaults: Snappy).
        import pyarrow.parquet as pq

        import kifu

        threads = 1 if tool.endswith("-1") else None
        wall, cpu = time.perf_counter(), time.process_time()
        table = kifu.read_table(paths, threads=threads, skip_errors=True)
        pq.write_table(table, output)
        games = table.num_rows
    elif tool.startswith("kifu"):
        import kifu

        threads = 1 if tool == "kifu-1" else None
        wall, cpu = time.perf_counter(), time.process_time()
        if mode == "list":
            for r in kifu.read_many(paths, threads=threads):
                if isinstance(r, kifu.Collection):
                    games += len(r)
                else:
                    failed += 1
        else:
            games = len(kifu.read(source))
    elif tool == "sgfmill":
        from sgfmill import sgf, sgf_grammar

        wall, cpu = time.perf_counter(), time.process_time()
        if mode == "list":
            for p in paths:
                try:
                    sgf.Sgf_game.from_bytes(Path(p).read_bytes())
                    games += 1
                except ValueError:
                    failed += 1
        else:
            # sgfmill's way to read a collection: the coarse trees, then a game of each.
            for c in sgf_grammar.parse_sgf_collection(Path(source).read_bytes()):
                try:
                    sgf.Sgf_game.from_coarse_game_tree(c)
                    games += 1
                except ValueError:
                    failed += 1
    elif tool == "pysgf":
        from pysgf import GoGame

        wall, cpu = time.perf_counter(), time.process_time()
        if mode == "list":
            for p in paths:
                try:
                    GoGame.from_file(p)  # what KaTrain's "load SGF" calls
                    games += 1
                except Exception:  # noqa: BLE001 (pysgf raises several kinds on bad input)
                    failed += 1
        else:
            # pysgf reads the first game of a text only: each game is given on its own (cut at
            # the game starts the collection was built with, SOURCE.starts), decoded as pysgf
            # decodes these files (UTF-8, errors ignored).
            data = Path(source).read_bytes()
            starts = [int(n) for n in Path(source + ".starts").read_text().split()] + [len(data)]
            for a, b in zip(starts, starts[1:]):
                try:
                    GoGame.from_string(data[a:b].decode("utf-8", errors="ignore"))
                    games += 1
                except Exception:  # noqa: BLE001
                    failed += 1
    elif tool == "sgfmill-play":
        # sgfmill's replay alone, without the planes: boards.Board.play on every move (what the
        # planes cost in Python is the difference from the row above).
        from sgfmill import sgf, sgf_moves

        wall, cpu = time.perf_counter(), time.process_time()
        for p in paths:
            try:
                board, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(Path(p).read_bytes()))
            except ValueError:
                failed += 1
                continue
            for colour, move in plays:
                if move is not None:
                    try:
                        board.play(move[0], move[1], colour)
                    except ValueError:
                        pass
            games += 1
    elif tool == "sgfmill-positions":
        # The same planes with sgfmill: its setup and moves, replayed with boards.Board.play
        # (captures; an occupied point raises ValueError: that move is skipped), each position
        # copied into a NumPy int8 plane.
        import numpy as np
        from sgfmill import sgf, sgf_moves

        wall, cpu = time.perf_counter(), time.process_time()
        for p in paths:
            try:
                board, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(Path(p).read_bytes()))
            except ValueError:
                failed += 1
                continue
            planes = np.zeros((len(plays) + 1, board.side, board.side), dtype=np.int8)
            for k in range(len(plays) + 1):
                plane = planes[k]
                for colour, (row, col) in board.list_occupied_points():
                    plane[row, col] = 1 if colour == "b" else -1
                if k < len(plays):
                    colour, move = plays[k]
                    if move is not None:
                        try:
                            board.play(move[0], move[1], colour)
                        except ValueError:
                            pass
            games += 1
    else:
        raise SystemExit(f"unknown reader {tool}")
    print(f"{time.perf_counter() - wall:.4f} {time.process_time() - cpu:.4f} {games} {failed}")


SABAKI = r"""
const sgf = require('@sabaki/sgf'), fs = require('fs');
const [mode, source] = process.argv.slice(2);
const paths = mode === 'list' ? fs.readFileSync(source, 'utf8').split('\n').filter(Boolean) : [source];
let games = 0, failed = 0;
const t = process.hrtime.bigint(), c = process.cpuUsage();
for (const p of paths) {
  try { games += sgf.parseFile(p).length; } catch (e) { failed += 1; }
}
const wall = Number(process.hrtime.bigint() - t) / 1e9, u = process.cpuUsage(c);
console.log(`${wall.toFixed(4)} ${((u.user + u.system) / 1e6).toFixed(4)} ${games} ${failed}`);
"""

# ----------------------------------------------------------------------------------- set-up


def say(msg):
    print(msg, file=sys.stderr, flush=True)


def run_quiet(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **kw)


def build_kifu():
    say("building kifu (release) and examples/peers, examples/bracket_scan ...")
    for cmd in (
        ["cargo", "build", "--release", "--quiet"],
        ["cargo", "build", "--release", "--quiet", "-p", "kifu", "--example", "peers", "--example", "bracket_scan"],
    ):
        r = run_quiet(cmd, cwd=ROOT)
        if r.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{r.stderr}")
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release"
    return target / "kifu", target / "examples"


def python_env(env):
    """The venv's Python with the peers and kifu's wheel, or None (with a note)."""
    venv = env / "venv"
    py = venv / "bin" / "python"
    if not py.exists():
        say(f"creating {venv} ...")
        if run_quiet([sys.executable, "-m", "venv", str(venv)]).returncode != 0:
            say("note: no venv: the Python readers are left out")
            return None
    pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    want = [f"sgfmill=={VERSIONS['sgfmill']}", f"pysgf=={VERSIONS['pysgf']}", "maturin", "numpy", "pyarrow"]
    r = run_quiet(pip + want)
    if r.returncode != 0:
        say(f"note: pip install {' '.join(want)} failed; the Python readers are left out:\n{r.stderr}")
        return None
    say("building kifu's wheel (release) ...")
    wheels = env / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    r = run_quiet(
        [str(venv / "bin" / "maturin"), "build", "--release", "--locked", "-m", "python/Cargo.toml"]
        + ["-i", str(py), "--out", str(wheels), "--quiet"],
        cwd=ROOT,
    )
    if r.returncode != 0:
        raise SystemExit(f"maturin build failed:\n{r.stderr}")
    r = run_quiet(pip + ["--force-reinstall", "--no-deps", *map(str, wheels.glob("kifu-*.whl"))])
    if r.returncode != 0:
        raise SystemExit(f"installing kifu's wheel failed:\n{r.stderr}")
    return py


def node_env(env):
    """(node, folder with @sabaki/sgf and the reader script), or None (with a note)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        say("note: node or npm is missing: @sabaki/sgf is left out")
        return None
    folder = env / "node"
    folder.mkdir(exist_ok=True)
    if not (folder / "package.json").exists():
        (folder / "package.json").write_text('{"private": true}\n')
    r = run_quiet(
        [npm, "install", "--silent", "--no-audit", "--no-fund", f"@sabaki/sgf@{VERSIONS['@sabaki/sgf']}"], cwd=folder
    )
    if r.returncode != 0:
        say(f"note: npm install @sabaki/sgf failed; it is left out:\n{r.stderr}")
        return None
    (folder / "read.js").write_text(SABAKI)
    return node, folder


def corpus_list(corpus, work):
    paths = sorted(str(p) for p in Path(corpus).rglob("*") if p.is_file() and p.suffix.lower() == ".sgf")
    listing = work / "corpus.txt"
    listing.write_text("".join(p + "\n" for p in paths))
    return paths, listing


def collection(yenw, megabytes, work):
    """The ai_yenw games, each file followed by a line end, in path order, repeated to at least
    the size (at least once); beside it, FILE.starts: the offset where each file's game starts."""
    files = [
        b if b.endswith(b"\n") else b + b"\n"
        for b in (p.read_bytes() for p in sorted(Path(yenw).rglob("*")) if p.is_file() and p.suffix.lower() == ".sgf")
    ]
    once = b"".join(files)
    path = work / "ai_yenw.sgf"
    reps = max(1, -(-int(megabytes * 1_000_000) // len(once)))
    starts, offset = [], 0
    with open(path, "wb") as f:
        for _ in range(reps):
            f.write(once)
            for b in files:
                starts.append(offset)
                offset += len(b)
    Path(str(path) + ".starts").write_text("".join(f"{n}\n" for n in starts))
    return path


# ----------------------------------------------------------------------------------- timing


def machine():
    """One line: the processor, the cores, kifu's commit (the load goes to stderr: it describes the
    run, not the result)."""
    cpu = "unknown processor"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    say(f"load average {os.getloadavg()[0]:.2f} at the start")
    return f"{cpu}, {os.cpu_count()} cores; kifu {commit.stdout.strip() or 'outside git'}"


def process(cmd, env=None):
    """(wall, CPU, stdout, exit code) of a whole process and its children."""
    wall = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - wall, usage.ru_utime + usage.ru_stime, out.decode(), code


def measure(row, runs):
    """Best (wall, CPU, games) of up to RUNS runs of ROW's command; None when it failed."""
    best = None
    for k in range(runs):
        if row.get("output"):  # a writer's output of the last run, removed (never compared)
            Path(row["output"]).unlink(missing_ok=True)
        wall, cpu, out, code = process(row["cmd"], row.get("env"))
        # kifu exits 1 when some inputs failed and 3 for warnings with --strict; anything else
        # (a crash, a usage error, a missing interpreter) leaves the row out.
        if code not in (0, 1, 3):
            say(f"note: {row['name']} exited with {code}; left out")
            return None
        if row.get("self_timed"):
            try:
                w, c, games, failed = out.split()[-4:]
                wall, cpu, games = float(w), float(c), f"{games} ({failed} refused)" if int(failed) else games
            except ValueError:
                say(f"note: {row['name']} printed no timing: {out[-300:]!r}")
                return None
        elif row.get("counted"):
            try:
                g, failed = out.split()[-2:]
                games = f"{g} ({failed} refused)" if int(failed) else g
            except ValueError:
                say(f"note: {row['name']} printed no count: {out[-300:]!r}")
                return None
        else:
            games = "–"
        if best is None or wall < best[0]:
            best = (wall, cpu, games)
        if k == 0 and wall > SLOW:
            break
    return best


def table(title, rows, runs):
    say(f"timing: {title}")
    results = []
    for row in rows:
        r = measure(row, runs)
        if r is not None:
            results.append((row, r))
            say(f"  {row['name']}: {r[0]:.2f} s wall, {r[1]:.2f} s CPU")
    ref = next((r for row, r in results if row.get("ref")), None)
    print(f"\n{title}\n")
    print("| reader | language | wall | CPU | wall ÷ kifu | CPU ÷ kifu | games read |")
    print("|---|---|---|---|---|---|---|")
    def sec(t):
        return f"{t:.3f} s" if t < 1 else f"{t:.2f} s"

    for row, (wall, cpu, games) in results:
        rw = f"{wall / ref[0]:.2f}×" if ref else "–"
        rc = f"{cpu / ref[1]:.2f}×" if ref and ref[1] > 0 else "–"
        print(f"| {row['name']} | {row['lang']} | {sec(wall)} | {sec(cpu)} | {rw} | {rc} | {games} |")
    # The same comparisons within one language: each peer against kifu's reader in it.
    by = {row["name"]: r for row, r in results}
    pairs = []
    for row, (wall, cpu, _) in results:
        base = by.get(row.get("vs", ""))
        if base:
            pairs.append(f"{row['name']} {wall / base[0]:.1f}× wall, {cpu / base[1]:.1f}× CPU")
    if pairs:
        print("\nAgainst kifu in the same language (Rust: the library, one thread; Python: "
              "kifu's package, all cores; JavaScript: the command): " + "; ".join(pairs) + ".")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        return drive(*sys.argv[2:6])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--mb", type=float, default=105, help="size of the large collection (default 105)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--env", help="install the peers here and keep them (default: a temporary folder)")
    ap.add_argument(
        "--skip",
        default="",
        help="readers to leave out, comma-separated: cat, scan, kifu, kifu-rust, sgf-parse, kifu-python, "
        "sgfmill, pysgf, sabaki; and tables: corpus, collection, positions, parquet (--skip "
        "corpus,collection,parquet runs the positions table alone)",
    )
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    corpus = Path(args.corpus)
    if not corpus.is_dir():
        raise SystemExit(f"no {corpus}: nothing to measure")

    # The command and the Rust examples serve every table but the positions one.
    kifu_bin, examples = build_kifu() if not {"corpus", "collection", "parquet"} <= skip else (None, None)
    temp = Path(tempfile.mkdtemp(prefix="kifu-peers."))
    env = Path(args.env).resolve() if args.env else temp / "env"
    env.mkdir(parents=True, exist_ok=True)
    try:
        py = python_env(env) if not {"kifu-python", "sgfmill", "pysgf"} <= skip else None
        node = node_env(env) if "sabaki" not in skip else None
        paths, listing = corpus_list(corpus, temp)
        wanted = {"collection", "parquet"} - skip
        big = collection(corpus / "ai_yenw", args.mb, temp) if wanted else None
        for p in paths + ([str(big)] if big else []):  # the page cache warm for every reader
            Path(p).read_bytes()
        one = dict(os.environ, RAYON_NUM_THREADS="1")
        me = str(Path(__file__).resolve())

        def row(key, name, lang, cmd, **more):
            return {"key": key, "name": name, "lang": lang, "cmd": cmd, **more}

        def rows(mode, source, kifu_cmd, kifu_label, floors):
            """The rows of one table; SOURCE: the readers' input arguments (--list FILE, or FILE)."""
            rust = "kifu library, one thread"
            r = floors + [
                row("kifu", kifu_label, "command", kifu_cmd, ref=True),
                row("kifu-rust", rust, "Rust", [str(examples / "peers"), "kifu", *source], counted=True, env=one),
                row("sgf-parse", "sgf-parse 4.2.8", "Rust", [str(examples / "peers"), "sgf-parse", *source],
                    counted=True, vs=rust),
            ]
            if py:
                drv, what = [str(py), me, "--driver"], ("read_many" if mode == "list" else "read")
                kp = f"kifu.{what}"
                r += [
                    row("kifu-python", kp, "Python", drv + ["kifu", mode, source[-1]], self_timed=True),
                    row("kifu-python", f"{kp}, one thread", "Python", drv + ["kifu-1", mode, source[-1]],
                        self_timed=True, env=one),
                    row("sgfmill", f"sgfmill {VERSIONS['sgfmill']}", "Python", drv + ["sgfmill", mode, source[-1]],
                        self_timed=True, vs=kp),
                    row("pysgf", f"pysgf {VERSIONS['pysgf']} (KaTrain)", "Python", drv + ["pysgf", mode, source[-1]],
                        self_timed=True, vs=kp),
                ]
            if node:
                js = [node[0], "--max-old-space-size=16384", str(node[1] / "read.js"), mode, source[-1]]
                r.append(row("sabaki", f"@sabaki/sgf {VERSIONS['@sabaki/sgf']}", "JavaScript", js,
                             self_timed=True, vs=kifu_label))
            return [x for x in r if x["key"] not in skip]

        size = sum(os.path.getsize(p) for p in paths) / 1e6
        print(machine())
        out = temp / "out"
        if "corpus" not in skip:
            table(
                f"{len(paths):,} SGF files of {corpus} ({size:.1f} MB)",
                rows(
                    "list",
                    ["--list", str(listing)],
                    [str(kifu_bin), "convert", "-q", "-r", str(corpus), "-O", str(out), "-t", "sgf", "--dry-run"],
                    "kifu convert -r --dry-run",
                    [row("cat", "cat (floor)", "–", ["sh", "-c", 'xargs -d "\\n" cat <"$0" >/dev/null', str(listing)])],
                ),
                args.runs,
            )
        if "collection" not in skip:
            table(
                f"one collection: the ai_yenw games repeated to {big.stat().st_size / 1e6:.0f} MB",
                rows(
                    "collection",
                    [str(big)],
                    [str(kifu_bin), "convert", "-q", str(big), "-f", "sgf", "-t", "sgf", "-o", "/dev/null"],
                    "kifu convert -t sgf -o /dev/null",
                    [
                        row("cat", "cat (floor)", "–", ["sh", "-c", 'cat "$0" >/dev/null', str(big)]),
                        row("scan", "memchr [ ] scan (floor)", "–", [str(examples / "bracket_scan"), str(big)]),
                    ],
                ),
                args.runs,
            )
        if py and "positions" not in skip:
            drv, kp = [str(py), me, "--driver"], "kifu.load_positions"
            positions = [
                row("kifu-python", kp, "Python", drv + ["kifu-positions", "list", str(listing)], self_timed=True,
                    ref=True),
                row("kifu-python", f"{kp}, one thread", "Python", drv + ["kifu-positions-1", "list", str(listing)],
                    self_timed=True, env=one),
                row("kifu-python", "kifu.read + game.positions(), file by file", "Python",
                    drv + ["kifu-game-positions", "list", str(listing)], self_timed=True, env=one),
                row("sgfmill", f"sgfmill {VERSIONS['sgfmill']} boards.Board.play", "Python",
                    drv + ["sgfmill-positions", "list", str(listing)], self_timed=True, vs=kp),
                row("sgfmill", f"sgfmill {VERSIONS['sgfmill']} boards.Board.play, no planes", "Python",
                    drv + ["sgfmill-play", "list", str(listing)], self_timed=True, vs=kp),
            ]
            table(
                f"replay to positions: every main line of the {len(paths):,} files as int8 board planes "
                "(one per move, and the start)",
                [x for x in positions if x["key"] not in skip],
                args.runs,
            )
        if "parquet" not in skip:
            # Outputs in memory where there is /dev/shm: the disk's speed is not kifu's.
            shm = Path("/dev/shm")
            outs = Path(tempfile.mkdtemp(prefix="kifu-peers-out.", dir=shm if shm.is_dir() else temp))
            try:
                for what, inputs, args_in, label in (
                    ("corpus", str(listing), ["-r", str(corpus)], f"the {len(paths):,} files of the corpus"),
                    ("collection", str(big), [str(big), "-f", "sgf"], f"the {big.stat().st_size / 1e6:.0f} MB collection"),
                ):
                    mode = "list" if what == "corpus" else "collection"
                    nd, pq_cmd, pq_py = outs / f"{what}.ndjson", outs / f"{what}.parquet", outs / f"{what}-py.parquet"
                    kifu_cmd = [str(kifu_bin), "convert", "-q", *args_in]
                    writers = [
                        row("kifu", "kifu convert -t ndjson (reference)", "command",
                            kifu_cmd + ["-t", "ndjson", *(["--merge", str(nd)] if mode == "list" else ["-o", str(nd)])],
                            ref=True, output=nd),
                        row("kifu", "kifu convert -o x.parquet", "command",
                            kifu_cmd + ["-t", "parquet", *(["--merge"] if mode == "list" else ["-o"]), str(pq_cmd)],
                            output=pq_cmd),
                    ]
                    if py:
                        drv = [str(py), me, "--driver"]
                        writers += [
                            row("kifu-python", "kifu.read_table + pyarrow.parquet.write_table", "Python",
                                drv + ["kifu-parquet", mode, inputs, str(pq_py)], self_timed=True, output=pq_py),
                            row("kifu-python", "the same, one thread", "Python",
                                drv + ["kifu-parquet-1", mode, inputs, str(pq_py)], self_timed=True, env=one,
                                output=pq_py),
                        ]
                    table(f"writing Parquet, one row per game: {label}", [x for x in writers if x["key"] not in skip],
                          args.runs)
                    for f in (nd, pq_cmd, pq_py):
                        f.unlink(missing_ok=True)
            finally:
                shutil.rmtree(outs, ignore_errors=True)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    main()
