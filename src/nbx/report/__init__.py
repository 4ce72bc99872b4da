"""Markdown reports: our results beside the papers' published numbers."""
