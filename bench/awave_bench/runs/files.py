"""The files of a results folder, loose or packed: every reader of bench/results goes through here.

bench/pack_results.py packs a call's small files, one JSON Lines file a kind:
    runs.jsonl   one line a JSON file:  {"file": "cuda_512x512x512.json", "record": <its JSON>}
    logs.jsonl   one line a text file:  {"file": "time-512-r1.txt", "text": "<its text>"}
(a .json file that is not JSON is kept as text: loading it fails as before). A packed file's path stays
folder/NAME: glob lists it, load and read_text open it, on disk or packed; of a loose and a packed file of
one name, the loose one is read (pack_results.py refuses to pack it over a different record).
"""
import fnmatch
import glob as _glob
import io
import json
import os

RUNS = "runs.jsonl"
LOGS = "logs.jsonl"
PACKS = (RUNS, LOGS)

_cache = {}  # pack path -> ((mtime_ns, size), {name: line})


def _pack(folder, pack):
    """{name: the line's text} of a folder's pack (parsed once while the file is unchanged)."""
    path = os.path.join(folder, pack)
    try:
        st = os.stat(path)
    except OSError:
        return {}
    stamp = (st.st_mtime_ns, st.st_size)
    if _cache.get(path, (None,))[0] != stamp:
        lines = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    lines[json.loads(line)["file"]] = line
        _cache[path] = (stamp, lines)
    return _cache[path][1]


def packed(folder):
    """{name: (pack, line)} of the files a folder holds packed."""
    return {name: (pack, line) for pack in PACKS for name, line in _pack(folder, pack).items()}


def names(folder):
    """The sorted names of a folder's files, loose and packed (the packs themselves not among them)."""
    try:
        loose = {n for n in os.listdir(folder) if n not in PACKS and os.path.isfile(os.path.join(folder, n))}
    except OSError:
        return []
    return sorted(loose | set(packed(folder)))


def glob(folder, pattern):
    """Sorted paths folder/NAME of the files matching pattern; pattern's folder part (as glob.glob reads it)
    picks subfolders, its last part the files in them."""
    head, tail = os.path.split(pattern)
    folders = sorted(_glob.glob(os.path.join(folder, head))) if head else [folder]
    return sorted(os.path.join(d, n) for d in folders for n in names(d) if fnmatch.fnmatchcase(n, tail))


def walk(top, pattern):
    """glob(folder, pattern) over top and every folder under it."""
    return [p for d, _, _ in sorted(os.walk(top)) for p in glob(d, pattern)]


def exists(path):
    return os.path.isfile(path) or os.path.basename(path) in packed(os.path.dirname(path))


def _entry(path):
    folder, name = os.path.split(path)
    if name in PACKS or os.path.isfile(path):
        return None
    if name not in packed(folder):
        raise FileNotFoundError(f"{path}: no such file, loose or packed")
    return json.loads(packed(folder)[name][1])


def read_text(path):
    """A file's text, its line ends read as open() reads them (a packed JSON file as one line of JSON)."""
    entry = _entry(path)
    if entry is None:
        with open(path, errors="replace") as f:
            return f.read()
    text = entry["text"] if "text" in entry else json.dumps(entry["record"])
    return text.replace("\r\n", "\n").replace("\r", "\n")


def lines(path):
    """A file's lines, each with its end, as iterating over the open file gives them."""
    return io.StringIO(read_text(path)).readlines()


def load(path):
    """A JSON file's content (ValueError where its text is not JSON, as json.load)."""
    entry = _entry(path)
    if entry is None:
        with open(path) as f:
            return json.load(f)
    return entry["record"] if "record" in entry else json.loads(entry["text"])
