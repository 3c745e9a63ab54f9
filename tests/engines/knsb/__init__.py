"""The KNSB Swiss systems (seeds 000, 001, 002): dutch-1998, knsb-wp, knsb-rating and their tables."""
