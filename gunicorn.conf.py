"""The production web server's settings (`make serve`); gunicorn reads this file from the project folder.

BIND             address to listen on (default 127.0.0.1:8000: a reverse proxy in front terminates TLS)
WEB_CONCURRENCY  worker processes (default 2; about 2 per processor core)
ACCESS_LOG       1: a line per request on stdout (default off: the reverse proxy in front logs requests;
                 server errors are logged with their traceback either way)
"""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", 2))
wsgi_app = "config.wsgi:application"
accesslog = "-" if os.environ.get("ACCESS_LOG", "").lower() in ("1", "true", "yes", "on") else None
errorlog = "-"  # stderr, with the application's log
timeout = 30
graceful_timeout = 20
control_socket_disable = True  # no runtime control socket in the home folder (gunicorn 25.1+)


def post_worker_init(worker):
    """Prepare each worker before its first request: load the URL configuration and compile the
    project's templates (Django otherwise does both on first use, in the first visitors' time), then
    move all it loaded out of the garbage collector's way (gc.freeze): its full passes scan only what
    requests made since, and one falling in a render costs far less."""
    import gc
    from pathlib import Path

    from django.conf import settings
    from django.template import engines
    from django.urls import get_resolver

    get_resolver().resolve("/")
    engine = engines["django"]
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in Path(folder).rglob("*"):
            if path.is_file():
                engine.get_template(path.relative_to(folder).as_posix())
    gc.freeze()
