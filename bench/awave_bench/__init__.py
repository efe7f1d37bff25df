"""awave's benchmark harness, one package in layers; a module imports from its own layer or those before it in
LAYERS, never from a later one (tests/tools/check_imports.py holds it to that, and to no cycle):

  catalog      what the project is made of: its paths, the backend folders' implementations (src/*/backend.json)
               and the toolchains (cmake/toolchains/*/toolchain.json)
  runs         the run files: reading them (files), one run record and its schema (record), a study's table of runs
               (study), and the device tools' outputs the report reads (energy, ncu, sass)
  metrics      efficiency and PP (pp), the tie rule and the verdicts' wording (verdicts)
  experiments  the registry: each experiment the report shows, its results folders and the section that shows it
  render       the report: the first screen (screen), the first page (page), its plots and evidence, the sections,
               and the whole report (report)
  tools        the command-line tools bench/*.py start (the sweep, lines of code, code divergence, ...)

The scripts in bench/ are launchers: each imports one module here and calls its main.
"""
LAYERS = ("catalog", "runs", "metrics", "experiments", "render", "tools")
