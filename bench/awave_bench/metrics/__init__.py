"""The metrics: efficiency, PP, ranges, the tie rule and the verdicts."""
