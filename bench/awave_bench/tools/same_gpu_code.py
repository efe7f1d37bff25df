#!/usr/bin/env python3
"""Whether two builds carry the same GPU code: their device-code ELF sections, byte for byte.

    python3 bench/same_gpu_code.py [--host] A B   exit 0 the same, 2 they differ, 1 cannot tell (not ELF, no GPU code)

A and B: two executables or object files, or two build trees, whose object files under src/ are paired by path
(a line for each that holds GPU code; compare_trees says how an object in one build only is judged). --host: each
line also says whether that object's host code (.text, .rodata, .data sections) is the same; the exit status is
the GPU code's. The sections: `.nv_fatbin` (nvcc's fatbinary: every kernel's SASS and PTX)
and `.llvm.offloading` (clang's offload images). It shows that runs made with one commit's binary measured another
commit's GPU code (`results/build-machine-2026-11-28/gpu-code-557d8ff`). nvcc's `-lineinfo` puts the sources'
paths and file times in the fatbinary: build both at one path, their sources' times set alike.
"""
import os
import hashlib
import struct
import sys

GPU_SECTIONS = (".nv_fatbin", ".llvm.offloading")
SHT_NOBITS = 8


def elf_sections(path):
    """{name: bytes} of a 64-bit little-endian ELF file's sections; ValueError if it is not one."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{path} is not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shnum == 0 or shstrndx >= shnum:  # 0: none, or more than 65,279 (the count elsewhere): not awave's
        raise ValueError(f"{path}: no section table this tool reads ({shnum} sections)")
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]
    sections = {}
    for name_off, kind, _flags, _addr, offset, size in headers:
        end = data.index(b"\0", names_at + name_off)
        name = data[names_at + name_off:end].decode()
        sections[name] = b"" if kind == SHT_NOBITS else data[offset:offset + size]
    return sections


def describe(blob):
    return f"{len(blob)} bytes, sha256 {hashlib.sha256(blob).hexdigest()[:12]}"


def describe_code(code):
    """'.nv_fatbin 1984 bytes, sha256 ...' for each section of a gpu_code."""
    return "; ".join(f"{n} {describe(c)}" for n, c in sorted(code.items()))


def gpu_code(sections):
    """{section: bytes} of a file's GPU code, from its elf_sections; {} for host code only."""
    return {n: b for n, b in sections.items() if n in GPU_SECTIONS}


def compare_code(a, b, code):
    """(exit status, one line) for the GPU code of files A and B (code: theirs, gpu_code each): 0 the same, 2 it
    differs, 1 neither holds any."""
    if not code[0] and not code[1]:
        return 1, f"same_gpu_code: cannot tell: neither {a} nor {b} holds GPU code ({', '.join(GPU_SECTIONS)})"
    differ = []
    for name in sorted(set(code[0]) | set(code[1])):
        x, y = code[0].get(name), code[1].get(name)
        if x is None or y is None:
            differ.append(f"{name} only in {a if y is None else b}")
        elif x != y:
            first = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            differ.append(f"{name} {describe(x)} against {describe(y)}, first at byte {first}")
    if differ:
        return 2, f"GPU code DIFFERS between {a} and {b}: " + "; ".join(differ)
    return 0, f"same GPU code in {a} and {b}: {describe_code(code[0])}"


def compare(a, b):
    """(exit status, one line): 0 the same GPU code, 2 it differs, 1 cannot tell."""
    try:
        code = [gpu_code(elf_sections(p)) for p in (a, b)]
    except (OSError, ValueError, struct.error) as e:
        return 1, f"same_gpu_code: cannot tell: {e}"
    return compare_code(a, b, code)


def host_code_said(sections_a, sections_b):
    """Whether two object files' host code sections (from elf_sections) are byte for byte the same, in words."""
    code = [{n: c for n, c in s.items() if n.startswith((".text", ".rodata", ".data"))}
            for s in (sections_a, sections_b)]
    differ = sorted(n for n in set(code[0]) | set(code[1]) if code[0].get(n) != code[1].get(n))
    if not differ:
        return f"host code same ({len(code[0])} sections)"
    return f"host code DIFFERS in {len(differ)} of {len(set(code[0]) | set(code[1]))} sections (first {differ[0]})"


def compare_trees(a, b, host=False):
    """(exit status, lines): each object file under A/src and B/src with GPU code, paired by path. An object in
    one build only is a difference unless its GPU code is byte for byte a paired object's (e.g. the code every
    Kokkos translation unit carries): then it adds no GPU code. host: each paired line says host_code_said."""
    found = []
    for top in (a, b):
        src = os.path.join(top, "src")
        found.append({os.path.relpath(os.path.join(d, f), src) for d, _, files in os.walk(src)
                      for f in files if f.endswith(".o")})
    try:  # each object read once; one that cannot be read is "cannot tell", never skipped
        sections = [{rel: elf_sections(os.path.join(top, "src", rel)) for rel in names}
                    for top, names in ((a, found[0]), (b, found[1]))]
    except (OSError, ValueError, struct.error) as e:
        return 1, [f"same_gpu_code: cannot tell: {e}"]
    lines, counts, paired_code = [], {"same": 0, "differ": 0, "one build only": 0}, {}
    for rel in sorted(found[0] & found[1]):
        code = [gpu_code(s[rel]) for s in sections]
        status, line = compare_code(os.path.join(a, "src", rel), os.path.join(b, "src", rel), code)
        if status == 1:
            continue  # no GPU code in either (host code only)
        said = "; " + host_code_said(sections[0][rel], sections[1][rel]) if host else ""
        lines.append(f"{'same' if status == 0 else 'DIFFERS'}: src/{rel}: {line.split(': ', 1)[1]}{said}")
        counts["same" if status == 0 else "differ"] += 1
        if status == 0:
            paired_code.setdefault(tuple(sorted(code[0].items())), "src/" + rel)
    for rel in sorted(found[0] ^ found[1]):
        top, mine = (a, sections[0]) if rel in found[0] else (b, sections[1])
        code = gpu_code(mine[rel])
        if not code:
            continue
        twin = paired_code.get(tuple(sorted(code.items())))
        if twin:
            lines.append(f"adds no GPU code: src/{rel}, only in {top}: its GPU code is {twin}'s, in both builds")
        else:
            lines.append(f"only in {top}: src/{rel}: {describe_code(code)}")
            counts["one build only"] += 1
    if counts["same"] + counts["differ"] == 0:
        return 1, [f"same_gpu_code: cannot tell: no object file with GPU code under {a}/src and {b}/src"]
    lines.append(f"{a} against {b}: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + " (objects with GPU code)")
    return (0 if counts["differ"] + counts["one build only"] == 0 else 2), lines


def main(argv):
    host = argv[:1] == ["--host"]
    argv = argv[1:] if host else argv
    if len(argv) != 2 or any(p.startswith("-") for p in argv):
        print("usage: same_gpu_code.py [--host] A B  (exit 0 the same, 2 they differ, 1 cannot tell)", file=sys.stderr)
        return 1
    if all(os.path.isdir(p) for p in argv):
        status, lines = compare_trees(*argv, host=host)
    else:
        status, line = compare(*argv)
        lines = [line]
    print("\n".join(lines), file=sys.stderr if status == 1 else sys.stdout)
    return status

