"""Tie-breaks (FIDE C.07 and the seeds' rankings): hand-computed cases, point systems and another program's values."""
