"""The production web server's settings (`make serve`); gunicorn reads this file from the project folder.

BIND             address to listen on (default 127.0.0.1:8000: a reverse proxy in front terminates TLS)
WEB_CONCURRENCY  worker processes (default 2; about 2 per processor core)
"""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", 2))
wsgi_app = "config.wsgi:application"
accesslog = "-"  # stdout; errors and the application's log go to stderr
errorlog = "-"
timeout = 30
graceful_timeout = 20
control_socket_disable = True  # no runtime control socket in the home folder (gunicorn 25.1+)
