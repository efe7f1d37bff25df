"""The one reading of a CMake file the catalog needs: the words of a `set(VARIABLE word ...)` line."""
import re


def set_words(path, variable):
    """[words] of the first `set(VARIABLE ...)` at a line's start in the CMake file at path; None where it has none."""
    with open(path) as f:
        m = re.search(r"^set\(%s ([^)]*)\)" % re.escape(variable), f.read(), re.M)
    return m.group(1).split() if m else None
