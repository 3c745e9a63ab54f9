"""Pairing: the pure engines (`pairing.engines`), the command line, and the TD's pairing pages."""
