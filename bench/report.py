#!/usr/bin/env python3
"""Starts awave_bench.render.report: the portability report from the committed result files.

    python3 bench/report.py [-o OUT_DIR]                                    (bench/report/report.md)
    python3 bench/report.py --study STUDY_DIR [--study ...] -o OUT_DIR     (bench/study.sh's report)
"""
import os
import sys

try:
    import matplotlib  # noqa: F401
except ImportError:  # a pyenv/venv python ahead of Debian's on PATH: use Debian's
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

from awave_bench.render.report import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
