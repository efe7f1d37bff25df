#!/usr/bin/env python3
"""Starts awave_bench.tools.catalog (what it does and how to call it: its docstring)."""
import sys

from awave_bench.tools.catalog import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
