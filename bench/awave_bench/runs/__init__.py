"""The run files and what the report reads of them."""
