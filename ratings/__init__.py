"""Ratings: rating lists and their import, a competition's rating report; the pure maths in `ratings.maths`."""
