"""Competitions: their rows, the one adapter to the engines (`tournaments.adapter`), standings and pages."""
