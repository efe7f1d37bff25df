"""Where things are: the checkout (TOP), bench/ (BENCH) and its results (RESULTS)."""
import os

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BENCH = os.path.join(TOP, "bench")
RESULTS = os.path.join(BENCH, "results")
