#!/usr/bin/env python3
"""Convert an archive of Go game records to Parquet on a Dask cluster of processes.

    python dask_to_parquet.py ARCHIVE OUT                 # a local cluster: one worker process a core
    python dask_to_parquet.py ARCHIVE OUT --workers 4     # four worker processes
    python dask_to_parquet.py ARCHIVE OUT --scheduler tcp://scheduler:8786   # a running cluster

ARCHIVE is a folder of records (SGF, GIB, NGF, UGF/UGI, kifu's JSON and NDJSON, found by their
extension, in every subfolder). Its paths are split into partitions of about the same number of
bytes; each worker reads a partition with `kifu.read_table` (one row per game, the schema of
formats/parquet.md) and writes it to OUT/part-NNNNN.parquet with pyarrow. What comes back to the
client is a small summary per partition, never the games. A file kifu cannot read is left out and
named with its error on stderr (exit status 1).

On a real cluster the workers need kifu and pyarrow installed (`pip install 'kifu[arrow]'`), and
ARCHIVE and OUT must be paths every worker sees (a shared file system). The functions below are
sent to the workers by pickle (Dask's cloudpickle): nothing else of this file has to be there.

`read_partition` is the other way: the games themselves come back to the client as pickled
`kifu.Collection`s (or the `ReadError` of a file kifu cannot read), equal to reading in-process.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any, Sequence, TypedDict, Union

import kifu

# The extensions kifu reads a record from (kifu.Format's, formats/*.md).
EXTENSIONS = frozenset({".sgf", ".gib", ".ngf", ".ugf", ".ugi", ".json", ".ndjson"})

Result = Union[kifu.Collection, kifu.ReadError, OSError]


class Part(TypedDict):
    """What a worker reports of one partition."""

    index: int
    file: str
    inputs: int
    rows: int
    bytes: int
    pid: int
    refused: list[str]


def record_paths(archive: Union[str, os.PathLike[str]]) -> list[str]:
    """Every file under ARCHIVE with a record's extension, sorted (so partitions are repeatable)."""
    root = Path(archive)
    if root.is_file():
        return [str(root)]
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such folder")
    return sorted(str(p) for p in root.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS)


def partitions(paths: Sequence[str], count: int) -> list[list[str]]:
    """PATHS in order, cut into at most COUNT runs of about the same number of bytes (none empty)."""
    sizes = [os.path.getsize(p) for p in paths]
    total, filled = sum(sizes), 0
    parts: list[list[str]] = []
    current: list[str] = []
    for path, size in zip(paths, sizes):
        current.append(path)
        filled += size
        if filled * count >= total * (len(parts) + 1) and len(parts) < count - 1:
            parts.append(current)
            current = []
    if current:
        parts.append(current)
    return parts


def write_partition(index: int, paths: Sequence[str], out: str) -> Part:
    """On a worker: the games of PATHS as one Parquet file OUT/part-INDEX.parquet.

    A file kifu cannot read is left out of the table and named, with its error, in the summary's
    `refused`. The Parquet file is written beside its final name and renamed into place, so a
    partition run again (a worker lost, the task retried) never leaves half a file."""
    import pyarrow.parquet as pq

    table = kifu.read_table(list(paths), threads=1, skip_errors=True)
    # The files without a row: refused (read again, alone, for the error) or holding no game.
    have = set(table.column("file").to_pylist())
    refused = []
    for p in paths:
        if p not in have:
            try:
                kifu.read(p)
            except (kifu.ReadError, OSError) as e:
                refused.append(str(e))
    dest = Path(out) / f"part-{index:05d}.parquet"
    temp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    pq.write_table(table, temp)
    os.replace(temp, dest)
    return Part(index=index, file=str(dest), inputs=len(paths), rows=table.num_rows,
                bytes=dest.stat().st_size, pid=os.getpid(), refused=refused)


def read_partition(paths: Sequence[str]) -> list[Result]:
    """On a worker: one result per path (kifu.read_many on one thread: the cluster gives the
    parallelism). The collections travel back to the client by pickle."""
    return kifu.read_many(list(paths), threads=1)


def to_parquet(client: Any, parts: Sequence[Sequence[str]], out: Union[str, os.PathLike[str]]) -> list[Part]:
    """Every partition written by the cluster behind CLIENT; the summaries in partition order."""
    Path(out).mkdir(parents=True, exist_ok=True)
    futures = client.map(write_partition, range(len(parts)), parts, [str(out)] * len(parts), pure=False)
    done: list[Part] = client.gather(futures)
    return done


def read_on_cluster(client: Any, parts: Sequence[Sequence[str]]) -> list[Result]:
    """Every path's result, read by the cluster behind CLIENT, in the order of the partitions."""
    futures = client.map(read_partition, parts, pure=False)
    return [r for part in client.gather(futures) for r in part]


def main(argv: Sequence[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archive", help="a folder of game records")
    ap.add_argument("out", help="the folder for the Parquet files (created)")
    ap.add_argument("--scheduler", help="the address of a running Dask scheduler (default: a local cluster)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local worker processes")
    ap.add_argument("--partitions", type=int, help="default: four a worker")
    args = ap.parse_args(argv)

    paths = record_paths(args.archive)
    if not paths:
        print(f"{args.archive}: no game records", file=sys.stderr)
        return 1

    from dask.distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        if args.scheduler:
            client = stack.enter_context(Client(args.scheduler))
        else:
            cluster = stack.enter_context(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True))
            client = stack.enter_context(Client(cluster))
        workers = len(client.scheduler_info()["workers"])
        parts = partitions(paths, args.partitions or 4 * max(workers, 1))
        done = to_parquet(client, parts, args.out)
    rows = sum(p["rows"] for p in done)
    refused = [e for p in done for e in p["refused"]]
    for e in refused:
        print(f"refused: {e}", file=sys.stderr)
    print(f"{len(paths)} files ({len(refused)} refused), {rows} games -> {len(done)} Parquet files in "
          f"{args.out} ({workers} workers; {len({p['pid'] for p in done})} processes wrote)")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
