"""Template tags of the competition pages (notes in the reader's language)."""
