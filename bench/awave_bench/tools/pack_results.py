#!/usr/bin/env python3
"""Pack results folders: each folder's run files into runs.jsonl and its text logs into logs.jsonl
(bench/awave_bench/runs/files.py, which every reader of bench/results uses, reads both forms).

    python3 bench/pack_results.py [--dry-run] DIR ...     (every folder under each DIR; after a device call)

What stays a file: every file not .json/.txt/.log/.err (READMEs, tables, CSV, scripts, patches, plots), every
file a Markdown document of the repository names (the links keep working), text that is not UTF-8, and a kind of
which a folder has one file alone. A packed file is read back and compared before its original is removed. Exit 1,
in one line, where a file would overwrite a different one already packed under its name.
"""
import argparse
import json
import os
import re
import subprocess
import sys

from ..catalog.paths import RESULTS, TOP
from ..runs import files as runfiles
TEXT = (".txt", ".log", ".err")


def documents():
    """{path: text} of the repository's tracked Markdown files."""
    out = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "*.md"], capture_output=True, text=True, check=True)
    docs = {}
    for rel in filter(None, out.stdout.split("\0")):
        with open(os.path.join(TOP, rel), errors="replace") as f:
            docs[os.path.join(TOP, rel)] = f.read()
    return docs


def cited(path, docs, everything, root):
    """Whether a document names the file: a path of two or more of its last parts anywhere, or its name
    in the README of its folder or of a folder above it (inside root, bench/results)."""
    parts = os.path.relpath(path, root).split(os.sep)
    if any("/".join(parts[-k:]) in everything for k in range(2, len(parts) + 1)):
        return True
    name = re.compile(r"(?<![\w.-])" + re.escape(parts[-1]) + r"(?![\w-])")
    folder = os.path.dirname(path)
    while os.path.commonpath([folder, root]) == root:
        if name.search(docs.get(os.path.join(folder, "README.md"), "")):
            return True
        folder = os.path.dirname(folder)
    return False


def entry(path):
    """The pack line's content for a file: ("runs", record) for JSON, ("logs", text), or None (stays)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:  # the bytes as they are
            text = f.read()
    except UnicodeDecodeError:
        return None
    if path.endswith(".json"):
        try:
            return runfiles.RUNS, {"file": os.path.basename(path), "record": json.loads(text)}
        except ValueError:
            pass  # half a run's file: packed as text, and loading it fails as before
    return runfiles.LOGS, {"file": os.path.basename(path), "text": text}


def plan(folder, docs, everything, root):
    """{pack: {name: (path, line content)}} of what a folder's packing takes."""
    packs = {runfiles.RUNS: {}, runfiles.LOGS: {}}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name in runfiles.PACKS or not os.path.isfile(path) or not name.endswith((".json",) + TEXT):
            continue
        if cited(path, docs, everything, root):
            continue
        found = entry(path)
        if found:
            packs[found[0]][name] = (path, found[1])
    for pack, files in packs.items():  # one file of a kind alone gains nothing by packing
        if len(files) < 2 and not os.path.exists(os.path.join(folder, pack)):
            files.clear()
    return packs


def pack_folder(folder, docs, dry_run=False, root=RESULTS, say=lambda line: None):
    """Pack one folder, given the documents {path: text} that may name its files; the number of files it
    removed (say: told what each pack takes)."""
    everything = "\n".join(docs.values())
    removed = 0
    for pack, files in plan(folder, docs, everything, root).items():
        if not files:
            continue
        target = os.path.join(folder, pack)
        lines = {name: json.loads(line) for name, (kind, line) in runfiles.packed(folder).items() if kind == pack}
        for name, (path, content) in files.items():
            if name in lines and json.dumps(lines[name]) != json.dumps(content):
                raise ValueError(f"{path}: differs from the file of that name already in {target}")
            lines[name] = content
        say(f"{os.path.relpath(folder, TOP)}: {len(files)} files into {pack}")
        if dry_run:
            continue
        with open(target + ".tmp", "w", encoding="utf-8") as f:
            for name in sorted(lines):
                f.write(json.dumps(lines[name], ensure_ascii=False) + "\n")
        os.replace(target + ".tmp", target)
        stored = {name: line for name, (kind, line) in runfiles.packed(folder).items() if kind == pack}
        for name, (path, content) in files.items():
            if stored.get(name, "").rstrip("\n") != json.dumps(content, ensure_ascii=False):
                raise ValueError(f"{path}: reads back different from {target}")
            os.remove(path)
            removed += 1
    return removed


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="say what would be packed, change nothing")
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args(argv)
    docs = documents()
    removed = 0
    try:
        for top in args.dirs:
            if not os.path.isdir(top):
                raise ValueError(f"{top}: not a folder")
            for folder, _, _ in sorted(os.walk(os.path.abspath(top))):
                removed += pack_folder(folder, docs, args.dry_run, say=print)
    except ValueError as e:
        print(f"pack_results: {e}", file=sys.stderr)
        return 1
    print(f"{removed} files packed")
    return 0

