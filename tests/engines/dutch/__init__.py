"""The FIDE Dutch system (C.04.3): hand-made cases, the absolute-rule checker and the oracle corpus."""
