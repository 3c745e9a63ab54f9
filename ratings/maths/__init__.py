"""Rating mathematics: DSU (seed 004 §4.5), FIDE and KNSB (reference/ratings.md), candidate results
(§26), norms and FIDE-rateable events (§4.7), player classes (§23). Pure Python, no Django."""
