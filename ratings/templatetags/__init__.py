"""Template filters and tags for rating figures."""
