"""The report: screen, page, plots, evidence, sections."""
