"""Background jobs (a large TRF import, a rating list, a large pairing): their rows, runner and page."""
