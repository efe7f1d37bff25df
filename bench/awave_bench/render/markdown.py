"""Markdown the report's parts share: number formats and table heads."""


def fmt_su(x):
    return f"{x:.2e}"


def table_head(w, columns):
    """A Markdown table's header row and its separator, one column each."""
    w("| " + " | ".join(columns) + " |")
    w("|---" * len(columns) + "|")
