"""Holds a report to its first page and first screen:

    python3 bench/first_screen.py REPORT.md [STUDY_DIR ...]   exit 1 naming what the page lacks or the screen
                                                               gets wrong against the study's run files
"""
from ..runs import study
from . import page
from .screen import problems


def main(argv):
    """python3 bench/first_screen.py REPORT.md [STUDY_DIR ...]: exit 1 naming what its first page lacks and,
    given the study's folders, what its first screen gets wrong against their run files (the lines-of-code
    file the report reads, study.effort_files)."""
    with open(argv[0]) as f:
        text = f.read()
    missing = page.first_page_problems(text)
    for item in missing:
        print(f"{argv[0]}: the first page lacks {item!r}")
    loc = study.effort_files(argv[1:])[0]
    wrong = problems(text, argv[1:], loc) if argv[1:] else []
    for item in wrong:
        print(f"{argv[0]}: first screen: {item}")
    return 1 if missing or wrong else 0
