"""The balance workbench: ``oakwood analyze`` plays (or reuses) games, measures them and writes a report."""
