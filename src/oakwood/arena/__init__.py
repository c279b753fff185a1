"""Matches, tournaments and statistics."""
