"""The project's settings, root URLs and WSGI entry: the top layer, it knows every app."""
