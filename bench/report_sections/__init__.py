"""The sections of the portability report, one module each (bench/report.py assembles them; the
first page and its evidence are bench/portability.py and bench/study_evidence.py)."""
