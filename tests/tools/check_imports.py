#!/usr/bin/env python3
"""The import graph of the benchmark harness (bench/, without its results/ and studies/): every Python module,
every import between them (function-local ones too), and what the harness promises of it (issue 83):

  - no cycle;
  - no import that points back up: to a module in a folder above the importer's, or, inside the package
    bench/awave_bench/, to a layer listed after the importer's in its LAYERS (awave_bench/__init__.py);
    nothing imports a script (a module outside the package);
  - no file edits sys.path.

    check_imports.py [ROOT]          the figures, and exit 1 naming each broken promise (ROOT: bench/)
    check_imports.py --plant         builds a small tree with one of each fault and exits 0 if all are caught
"""
import ast
import os
import sys
import tempfile

EXCLUDED = ("results", "studies")
PACKAGE = "awave_bench"


def modules(root):
    """{dotted name relative to root: path} of every .py file under root, but the excluded folders."""
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not (folder == root and d in EXCLUDED) and d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), root)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = os.path.join(folder, f)
    return out


def _package_of(name, path):
    return name if path.endswith("__init__.py") else name.rpartition(".")[0]


def imports(name, path, known):
    """[(imported module, line)] of one module, resolved as Python 3 resolves them: an absolute name against the root
    (bench/, where the scripts are and what PYTHONPATH names), and for a script outside the package its own folder
    first (its sys.path[0]); a relative name against its package. (None, line, why) for what the graph cannot follow or
    must not have: a sys.path edit, however sys or its path is named, and an import by a computed name."""
    tree = ast.parse(open(path).read(), path)
    package = _package_of(name, path)
    in_package = name.split(".")[0] == PACKAGE
    bases = [""] if in_package else ([package] if package else []) + [""]
    out = []

    def resolve(dotted):
        for base in bases:
            full = f"{base}.{dotted}" if base else dotted
            if full in known:
                return full
        return None

    sys_names, path_names = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            sys_names |= {a.asname or a.name for a in node.names if a.name == "sys"}
        elif isinstance(node, ast.ImportFrom) and node.module == "sys" and not node.level:
            path_names |= {a.asname or a.name for a in node.names if a.name == "path"}

    def is_sys_path(e):
        return (isinstance(e, ast.Attribute) and e.attr == "path" and isinstance(e.value, ast.Name)
                and e.value.id in sys_names) or (isinstance(e, ast.Name) and e.id in path_names)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = resolve(alias.name)
                if target:
                    out.append((target, node.lineno, None))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = resolve(node.module) if node.module else None
            if base is None and not node.level:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                if sub in known:
                    out.append((sub, node.lineno, None))
                elif base in known:
                    out.append((base, node.lineno, None))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_sys_path(node.func.value) \
                and node.func.attr in ("insert", "append", "extend", "remove", "pop", "clear", "__setitem__"):
            out.append((None, node.lineno, "edits sys.path"))
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if is_sys_path(t) or (isinstance(t, ast.Subscript) and is_sys_path(t.value)):
                    out.append((None, node.lineno, "edits sys.path"))
        elif isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if called in ("import_module", "__import__", "spec_from_file_location"):
                out.append((None, node.lineno, "imports by a computed name (the graph cannot follow it)"))
    return sorted(set(out), key=lambda e: (e[1], e[0] or "", e[2] or ""))


def layer_of(name, layers):
    """A package module's layer index; None outside the package (a script: above every layer)."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    if len(parts) == 1:
        return -1  # the package's __init__: declares the layers, imports nothing of them
    return layers.index(parts[1]) if parts[1] in layers else len(layers)


def read_layers(known):
    path = known.get(PACKAGE)
    if not path:
        return []
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "LAYERS" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return []


def check(root):
    """(figures, [problems]) of the graph under root."""
    known = modules(root)
    layers = read_layers(known)
    edges, problems = {}, []
    for name, path in known.items():
        edges[name] = set()
        for target, line, why in imports(name, path, known):
            where = f"{os.path.relpath(path, root)}:{line}"
            if target is None:
                problems.append(f"{where}: {why}")
                continue
            if target == name:
                continue
            edges[name].add(target)
            src_folder, dst_folder = _package_of(name, path), _package_of(target, known[target])
            src_layer, dst_layer = layer_of(name, layers), layer_of(target, layers)
            above = dst_folder != src_folder and (src_folder + ".").startswith(dst_folder + ".") if dst_folder \
                else bool(src_folder)
            if src_layer is not None and dst_layer is None:
                problems.append(f"{where}: imports the script {target}")
            elif above and not (src_layer is None and dst_layer is not None) and target != PACKAGE:
                problems.append(f"{where}: imports {target}, from a folder above its own")
            elif src_layer is not None and dst_layer is not None and dst_layer > src_layer >= 0:
                problems.append(f"{where}: imports {target}, a layer above its own ({layers[src_layer]} < "
                                f"{layers[dst_layer] if dst_layer < len(layers) else '?'})")
    cycles = strongly_connected(edges)
    for c in cycles:
        problems.append("cycle: " + " -> ".join(sorted(c)))
    levels = graph_levels(edges)
    figures = {"modules": len(known), "imports": sum(len(v) for v in edges.values()),
               "levels": max(levels.values(), default=0), "cycles": len(cycles),
               "upward": sum(" above " in p or "the script" in p for p in problems),
               "computed_imports": sum("computed name" in p for p in problems),
               "sys_path_edits": sum("sys.path" in p for p in problems)}
    return figures, problems


def strongly_connected(edges):
    """The graph's cycles: its strongly connected components of two or more modules (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def graph_levels(edges):
    """{module: its level}: 1 for a module that imports none of the others, else 1 + its highest import's (a cycle's
    modules share one level)."""
    comp_of = {}
    for i, c in enumerate(strongly_connected(edges)):
        for v in c:
            comp_of[v] = i
    memo = {}

    def level(v, seen=()):
        if v in memo:
            return memo[v]
        deps = [w for w in edges.get(v, ()) if comp_of.get(w, w) != comp_of.get(v, v) or w == v]
        deps = [w for w in deps if w != v and w not in seen]
        memo[v] = 1 + max((level(w, seen + (v,)) for w in deps), default=0)
        return memo[v]

    return {v: level(v) for v in edges}


def plant():
    """A tree with a cycle, an import up a folder, a layer upside down, a package importing a script and a
    sys.path edit; each must be reported."""
    with tempfile.TemporaryDirectory() as root:
        files = {
            "awave_bench/__init__.py": 'LAYERS = ("runs", "render")\n',
            "awave_bench/runs/__init__.py": "",
            "awave_bench/runs/a.py": "from awave_bench.render import page\n",   # a layer above
            "awave_bench/render/__init__.py": "",
            "awave_bench/render/page.py": "from . import other\n",
            "awave_bench/render/other.py": "import awave_bench.render.page\n",   # cycle page <-> other
            "awave_bench/render/tool.py": "import report\n",                     # a script
            "awave_bench/render/report.py": "",
            "awave_bench/render/clash.py": "import report\n",  # Python 3: the script, not render.report beside it
            "awave_bench/render/computed.py": "import importlib\nimportlib.import_module('report')\n",
            "lib/aliased.py": "import sys as s\nfrom sys import path as p\ns.path.append('.')\np.insert(0, '.')\n",
            "lib/sub/x.py": "import top\n",                                      # up a folder
            "top.py": "import sys\nsys.path.insert(0, '.')\n",                   # a path edit
            "report.py": "from awave_bench.runs import a\n",
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        _, problems = check(root)
        wanted = ["a layer above", "cycle: awave_bench.render.other -> awave_bench.render.page",
                  "render/tool.py:1: imports the script report", "render/clash.py:1: imports the script report",
                  "computed.py:2: imports by a computed name", "from a folder above", "top.py:2: edits sys.path",
                  "aliased.py:3: edits sys.path", "aliased.py:4: edits sys.path"]
        missed = [w for w in wanted if not any(w in p for p in problems)]
        if missed or len(problems) != len(wanted):
            print("check_imports --plant: expected exactly", wanted, "got", problems)
            return 1
        print("check_imports --plant: every planted fault caught")
        return 0


def main(argv):
    if argv[:1] == ["--plant"]:
        return plant()
    root = argv[0] if argv else os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "bench")
    figures, problems = check(root)
    print("bench/ import graph: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in figures.items()))
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
