"""The documented production environment (README, "Deploying"), for tests that start real processes."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What a host sets (README): DEBUG stays unset; the rest is the host's own.
PRODUCTION = {"ALLOWED_HOSTS": "club.example.org,127.0.0.1,localhost", "HTTPS": "1"}
# The variables of the test run itself that must not leak into a "production" process.
OURS = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "HTTPS",
    "DJANGO_SETTINGS_MODULE",
    "REDIS_URL",
    "REDIS_PREFIX",
    "RQ_KEY_PREFIX",
    "CSRF_TRUSTED_ORIGINS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by the browser tests for Playwright
}


def production_env(**extra: str) -> dict[str, str]:
    """The process environment of a production server: this one's, less the test settings, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k not in OURS}
    env.update(PRODUCTION, SECRET_KEY=secrets.token_urlsafe(50), **extra)
    return {k: v for k, v in env.items() if v is not None}


def manage(*args: str, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=check,
        timeout=300,
    )  # fmt: skip
