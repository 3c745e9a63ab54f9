"""Competitions: their rows, standings and pages; their rows are written by `pairing.services` alone."""
