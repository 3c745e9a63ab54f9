"""The browser for the end-to-end tests: Debian's Chromium driven by Playwright.

Skipped when no Chromium is installed, except in CI (CLUBAVOND_REQUIRE_BROWSER=1), where it must run.
"""

import os
import shutil

import pytest

CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip


@pytest.fixture(scope="module")
def browser():
    executable = shutil.which("chromium")
    if not executable:
        if os.environ.get("CLUBAVOND_REQUIRE_BROWSER"):
            pytest.fail("Chromium is required for the browser tests (apt-get install chromium)")
        pytest.skip("Chromium is not installed")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()
