"""The test suite's settings: production's (DEBUG off), with a key and host names of its own."""

import os
import tempfile

os.environ.setdefault("SECRET_KEY", "tests-only-key-never-used-by-a-site-" + "x" * 32)
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

from .settings import *  # noqa: E402,F403

# No `collectstatic` before the tests: the static files are found where they are, unhashed.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
# The printed PDFs out of the project folder (tests that count files give each its own folder).
STORAGES["pdfs"] = {
    "BACKEND": "django.core.files.storage.FileSystemStorage",
    "OPTIONS": {"location": os.path.join(tempfile.gettempdir(), "clubavond-test-pdfs")},
}

# Jobs run at once, in the test's own transaction; tests/deploy runs real workers on a database of their own.
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
JOBS_HEARTBEAT_SECONDS = 0

# WhiteNoise serves STATIC_ROOT only when it exists: the tests find the files in the apps instead.
WHITENOISE_USE_FINDERS = True
if not STATIC_ROOT.is_dir():  # noqa: F405
    STATIC_ROOT = None

# Every version of a page rendered when first asked for: tests change a competition and read its page at
# once. The tests of the throttle (tests/tournaments/test_render_throttle.py) switch it on.
PAGE_RENDER_SECONDS = 0
