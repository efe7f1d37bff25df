"""Loading a script that is not in a package (a device script, an experiment's summary) by its path, so that no
test edits sys.path: the harness package itself (bench/awave_bench) is on PYTHONPATH, as ctest sets it."""
import importlib.util
import os


def module_at(path):
    """The module of the Python file at path, loaded afresh under its file's name."""
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the checkout
