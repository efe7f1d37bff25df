"""The command-line tools that bench/*.py start."""
