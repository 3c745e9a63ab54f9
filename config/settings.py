"""Clubavond settings: one module, read from the environment (README, "Deploying").

DEBUG          "1" turns the development mode on (`make run` does); off unless set
SECRET_KEY     required when DEBUG is off (50 random characters or more)
ALLOWED_HOSTS  comma-separated host names; required when DEBUG is off
HTTPS          "1" for a site served over TLS (usually by a reverse proxy that sets X-Forwarded-Proto):
               HSTS, secure cookies, redirect to https, the proxy header trusted
DATABASE_URL   database (default: SQLite in the project folder); clubs deploy on PostgreSQL
SQLITE_BUSY_SECONDS  on SQLite, how long a transaction waits for the write lock (20)
REDIS_URL      a Redis server (redis://host:6379/0): the cache, the sessions' cache and the job queue (RQ);
               without it: cache in each process's memory, sessions and jobs in the database
CACHE_MAX_MEGABYTES  without Redis: the most each process keeps of cached pages in memory (64)
PAGE_RENDER_SECONDS  a competition's public pages are rendered at most once per this many seconds by all
               web processes; meanwhile the newest earlier copy is served (1; 0: no limit)
LIVE_DATA_PLAYERS  each web process keeps the public data of the competitions asked for last, as many as hold
               this many players together (some 11 KB a player), so that a result entered since is put in
               without reading the competition again (10000)
REDIS_PREFIX   the prefix of this site's keys in Redis (cache "clubavond", jobs RQ's "rq"), for several
               sites on one Redis database
JOBS_STALE_SECONDS  a running job whose worker gave no sign of life for this long is run again (60)
JOBS_TIME_LIMIT_SECONDS  a job's work (reading an upload, a large pairing) stops with a message after this long (900)
PAIRING_JOB_MIN_PLAYERS  a competition of at least this many players is paired by a worker (500)
PDF_JOB_MIN_PLAYERS  the PDFs of a competition of at least this many players are made by a worker (300)
PDF_LINES_MIN_PLAYERS  from this many players on, the printed standings, crosstable and pairing list are lines
               of text in a fixed-width font, which print several times faster than tables (300)
PDF_ROOT       the folder of those PDFs (media/printed in the project folder); shared by web servers and workers
ADMINS         comma-separated addresses ("Name <a@b.org>, c@d.org") that get every server error by e-mail
EMAIL_HOST     the SMTP server for every e-mail (password reset, invitations, errors to ADMINS); without it
               e-mails are printed on stdout (the console backend). EMAIL_PORT, EMAIL_HOST_USER,
               EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL, DEFAULT_FROM_EMAIL, SERVER_EMAIL
TRUSTED_PROXIES  how many reverse proxies in front of the site append to X-Forwarded-For (0): the client's
               address for login throttling (accounts.client_ip)
LOGIN_FAILURE_LIMIT, LOGIN_COOLOFF_MINUTES  wrong passwords for one user name from one address before
               the login is locked (5), and for how long (15)
PASSWORD_RESET_LIMIT_PER_ADDRESS, PASSWORD_RESET_LIMIT_PER_CLIENT  password reset mails asked for one
               e-mail address (3), and from one client address (10), in an hour
ENTRY_LIMIT_PER_CLIENT, ENTRY_LIMIT_PER_ADDRESS  online entries sent from one client address (20), and for
               one e-mail address (3), in an hour
SITE_URL       the site's address for links in mail and calendar feeds sent outside a request
               (http://127.0.0.1:8000)
"""

import os
import re
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "")
if not DEBUG:
    missing = [name for name, value in (("SECRET_KEY", SECRET_KEY), ("ALLOWED_HOSTS", ALLOWED_HOSTS)) if not value]
    if missing:
        raise ImproperlyConfigured(
            f"DEBUG is off, so {' and '.join(missing)} must be set in the environment "
            "(or set DEBUG=1 for a local development run); see README, Deploying."
        )
SECRET_KEY = SECRET_KEY or "insecure-local-development-key"  # only reached with DEBUG on
ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "testserver"]

# Behind TLS (HTTPS=1): the proxy terminates TLS and says so in X-Forwarded-Proto, which it must set
# itself (overwriting any such header from the client).
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # the load balancer asks over plain HTTP
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"  # the site's 403 page, in the visitor's language
# The language cookie, like the session's and the CSRF token's: sent over TLS only behind TLS, never
# with another site's requests, out of reach of scripts (the language is switched by a form post).
LANGUAGE_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "template_partials",
    "axes",
    "accounts",
    "audit",
    "clubs",
    "tournaments",
    "teams",
    "pairing",
    "ratings",
    "jobs",
    "season",
    "entries",
    "demo",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "config.request_id.RequestIdMiddleware",
    "config.private_pages.PrivatePagesMiddleware",  # `private, no-store` on every page not named public
    "django.middleware.security.SecurityMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "clubs.languages.ClubLanguageMiddleware",  # a club's language for visitors who chose none
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into the lockout page
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "tournaments.caching.csrf_placeholder",  # after Django's csrf: cached pages (tournaments.caching)
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has one writer at a time, and the job worker polls its queue beside the web server. A
    # transaction that reads first and writes later cannot wait for the write lock (SQLite answers
    # "database is locked" at once), so every transaction takes it when it begins (IMMEDIATE) and waits
    # up to SQLITE_BUSY_SECONDS for it; in WAL mode readers never wait for the writer, nor it for them.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": float(os.environ.get("SQLITE_BUSY_SECONDS", 20)),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("nl", _("Dutch")), ("da", _("Danish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
USE_TZ = True

# Static files (htmx included: django-htmx ships it) are served by WhiteNoise: with DEBUG off from
# STATIC_ROOT (`collectstatic`, which `make serve` runs), compressed, under hashed names with far-future
# cache headers.
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # The large PDFs made by the workers (tournaments.printed); web servers and workers must share it.
    "pdfs": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": os.environ.get("PDF_ROOT", BASE_DIR / "media" / "printed")},
    },
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Content-Security-Policy: only this site's own scripts, styles and images; no inline code anywhere
# (behaviour lives in static/js). WeasyPrint renders PDFs from the HTML on the server, not affected.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Permissions-Policy (django-permissions-policy): the site asks the browser for no device or API, so
# every one that a page could ask for is off, for the site and for anything it might be framed in. Only
# features that Chromium recognises are named: an unknown one is an error in the browser's console.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer", "autoplay", "browsing-topics", "camera",
        "display-capture", "encrypted-media", "fullscreen", "gamepad", "geolocation", "gyroscope", "hid",
        "idle-detection", "interest-cohort", "local-fonts", "magnetometer", "microphone", "midi", "payment",
        "picture-in-picture", "publickey-credentials-get", "screen-wake-lock", "serial", "usb",
        "xr-spatial-tracking",
    )
}  # fmt: skip

# Web processes keep no state of their own. Without REDIS_URL: sessions in the database, a cache in
# each process's memory, jobs queued in the database. With REDIS_URL: cache and sessions in Redis
# (sessions also in the database), jobs queued in Redis through RQ. `manage.py worker` runs the jobs.
REDIS_URL = os.environ.get("REDIS_URL", "")
# Several sites (or test runs) on one Redis database: each names its keys with a prefix of its own, the
# cache's and the job queue's (RQ reads RQ_KEY_PREFIX when the apps load it, after these settings).
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "")
if REDIS_PREFIX and not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", REDIS_PREFIX):
    raise ImproperlyConfigured(f"REDIS_PREFIX may hold letters, digits, '_', '.' and '-' only, not {REDIS_PREFIX!r}.")
if REDIS_URL:
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                    "KEY_PREFIX": REDIS_PREFIX or "clubavond"},
    }  # fmt: skip
    if REDIS_PREFIX:
        os.environ.setdefault("RQ_KEY_PREFIX", f"{REDIS_PREFIX}:rq")
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"  # read from Redis, kept in the database
    RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 3600}}
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
else:
    # Each process's own memory: at most 300 entries and CACHE_MAX_MEGABYTES (64) of pickled pages in all.
    CACHES = {
        "default": {
            "BACKEND": "config.cache.BoundedLocMemCache",
            "OPTIONS": {"MAX_BYTES": int(os.environ.get("CACHE_MAX_MEGABYTES", 64)) * 1024 * 1024},
        }
    }
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# Each web process keeps the competitions' versions it read in its own memory, for PAGE_STAMP_SECONDS:
# answering "not modified" then asks neither the database nor Redis (tournaments.versioning).
CACHES["stamps"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "stamps",
    "OPTIONS": {"MAX_ENTRIES": 20_000},  # two small entries per competition a process has read
}
# Public pages are cached under their competition's version (tournaments.caching); a change makes a new
# key, so this only bounds how long unused copies stay.
PAGE_CACHE_SECONDS = int(os.environ.get("PAGE_CACHE_SECONDS", 60 * 60 * 24))
# How long a web process trusts a competition's version it read (the "stamps" cache above): a change
# forgets the writing process's copy at once; the other processes' copies live no longer than this.
PAGE_STAMP_SECONDS = int(os.environ.get("PAGE_STAMP_SECONDS", 1))
# A competition's public pages are rendered at most once per this many seconds by all web processes
# together (a marker in the cache); meanwhile a newer version is answered with the newest copy rendered
# before (tournaments.caching). 0: every version is rendered when first asked for.
PAGE_RENDER_SECONDS = float(os.environ.get("PAGE_RENDER_SECONDS", 1))
# The public data each web process keeps between versions, the results entered since put in (tournaments.live):
# the competitions asked for last, as many as hold this many players together (some 11 KB a player).
LIVE_DATA_PLAYERS = int(os.environ.get("LIVE_DATA_PLAYERS", 10_000))
JOBS_HEARTBEAT_SECONDS = float(os.environ.get("JOBS_HEARTBEAT_SECONDS", 5))
JOBS_STALE_SECONDS = float(os.environ.get("JOBS_STALE_SECONDS", 60))
# Work of one job (reading an upload, pairing) stops with a message after this long; nothing is saved.
JOBS_TIME_LIMIT_SECONDS = float(os.environ.get("JOBS_TIME_LIMIT_SECONDS", 900))
# A TRF file larger than this is imported by a worker; a smaller one at once.
TRF_INLINE_MAX_BYTES = 64 * 1024
# The largest upload of each kind (clubs.validation.check_upload_size refuses bigger files with a message).
# A full FIDE list is about 40 MB zipped and 250 MB as XML; TRF files and member lists are far smaller.
UPLOAD_MAX_BYTES = {
    "trf": int(os.environ.get("UPLOAD_MAX_TRF_BYTES", 20_000_000)),
    "members": int(os.environ.get("UPLOAD_MAX_MEMBERS_BYTES", 2_000_000)),
    "rating-list": int(os.environ.get("UPLOAD_MAX_RATING_LIST_BYTES", 500_000_000)),
}
# A competition of at least this many players is paired by a worker (the TD watches the job's page).
PAIRING_JOB_MIN_PLAYERS = int(os.environ.get("PAIRING_JOB_MIN_PLAYERS", 500))
# The PDFs (standings, crosstable, pairing list) of a competition of at least this many players are made
# by a worker, once per version, and served from the `pdfs` storage; smaller ones at once.
PDF_JOB_MIN_PLAYERS = int(os.environ.get("PDF_JOB_MIN_PLAYERS", 300))
PDF_LINES_MIN_PLAYERS = int(os.environ.get("PDF_LINES_MIN_PLAYERS", 300))

# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one user name from one
# address, that user name is locked from that address for LOGIN_COOLOFF_MINUTES; a club evening's shared
# network does not lock its other members out, and nobody elsewhere can lock the TD out. A good login resets
# the count. The address is REMOTE_ADDR, or behind TRUSTED_PROXIES proxies read from X-Forwarded-For.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", 0))
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", 15)))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.client_ip.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_VERBOSE = False

# An invitation (to become a club's TD, or to link an account to a member) is valid this many days from
# the moment it is made (accounts.models.Invitation).
INVITATION_DAYS = 7
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link is valid for a day
# Password reset mails (accounts.views.PasswordResetView), counted in the cache per e-mail address typed and
# per client address (accounts.client_ip) over an hour; one more is refused with a message. The mail is sent
# by the job worker, so the page answers alike whether or not an account has the address.
PASSWORD_RESET_LIMITS = {
    "address": int(os.environ.get("PASSWORD_RESET_LIMIT_PER_ADDRESS", 3)),
    "client": int(os.environ.get("PASSWORD_RESET_LIMIT_PER_CLIENT", 10)),
}
PASSWORD_RESET_WINDOW_SECONDS = 60 * 60
# Online entries (entries app): entries sent from one client address, and for one e-mail address, in an hour.
ENTRY_LIMITS = {
    "client": int(os.environ.get("ENTRY_LIMIT_PER_CLIENT", 20)),
    "email": int(os.environ.get("ENTRY_LIMIT_PER_ADDRESS", 3)),
}
ENTRY_WINDOW_SECONDS = 60 * 60

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Logging: everything to stderr, each line with its request id (config.request_id); a server error
# with its traceback. With ADMINS set, server errors also go to them by e-mail.
ADMINS = getaddresses(env_list("ADMINS", ""))
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "clubavond@localhost")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", SERVER_EMAIL)
# Every mail (password reset, invitations, pairings to members, errors to ADMINS) goes by SMTP when
# EMAIL_HOST is set, else to the console (the log).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend" if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend"
)  # fmt: skip
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 25))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
# The site's address in mails and calendar feeds sent outside a request.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "config.request_id.RequestIdFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_id"],
            "formatter": "line",
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        "django.request": {"handlers": ["stderr", "mail_admins"], "level": "WARNING", "propagate": False},
        "django.security": {"handlers": ["stderr", "mail_admins"], "level": "WARNING", "propagate": False},
        "jobs": {"handlers": ["stderr", "mail_admins"], "level": "INFO", "propagate": False},
        # Lockouts are warnings; every login's bookkeeping is not worth a line.
        "axes": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
    },
}
