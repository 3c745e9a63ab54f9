"""Secure by default: DEBUG off unless set, required settings named, the HTTPS switch, the CSP, no inline code."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.deploy.environment import ROOT, manage, production_env


def settings_error(env: dict[str, str]) -> str:
    result = manage("check", env=env, check=False)
    assert result.returncode != 0
    return result.stderr.strip().splitlines()[-1]


def test_debug_is_off_unless_set_and_the_missing_settings_are_named():
    env = production_env()
    del env["SECRET_KEY"], env["ALLOWED_HOSTS"]
    assert "SECRET_KEY and ALLOWED_HOSTS must be set" in settings_error(env)
    assert "so SECRET_KEY must be set" in settings_error({**env, "ALLOWED_HOSTS": "club.example.org"})
    assert "so ALLOWED_HOSTS must be set" in settings_error({**env, "SECRET_KEY": "k" * 60})
    # DEBUG=1 (what `make run` sets) needs neither
    assert manage("check", env={**env, "DEBUG": "1"}).returncode == 0


def test_check_deploy_is_clean_with_the_documented_environment():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env(), check=False)
    assert "System check identified no issues" in result.stdout, result.stdout + result.stderr


def test_check_deploy_warns_without_the_https_switch():
    """The switch is what turns HSTS, secure cookies and the redirect on."""
    result = manage("check", "--deploy", env=production_env(HTTPS="0"))
    warned = set(re.findall(r"security\.W\d+", result.stdout + result.stderr))
    assert {"security.W004", "security.W008", "security.W012", "security.W016"} <= warned


@pytest.mark.django_db
def test_every_response_carries_the_content_security_policy(client, club):
    for url in ["/", club.get_absolute_url(), "/no-such-club/", reverse("login")]:
        policy = client.get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "default-src 'self'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy


INLINE = [
    (re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler"),
    (re.compile(r"\sstyle\s*=|<style", re.I), "an inline style"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
    (re.compile(r"\shx-on", re.I), "an htmx inline handler"),
]


def test_no_template_holds_inline_code():
    templates = sorted((ROOT / "templates").rglob("*.html"))
    assert len(templates) > 30
    found = [
        f"{path.relative_to(ROOT)}: {what}"
        for path in templates
        for pattern, what in INLINE
        if pattern.search(path.read_text())
    ]
    assert found == []
