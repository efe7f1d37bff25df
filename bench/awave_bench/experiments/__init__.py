"""The experiments the report shows (registry)."""
