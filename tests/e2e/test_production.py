"""The production server (gunicorn, DEBUG off, static files collected) in a real browser: the stylesheet
applies, htmx and the site's script work, and the Content-Security-Policy is never violated."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.server]


def test_pages_work_under_the_content_security_policy(browser, http_server):
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda message: message.type in ("error", "warning") and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("response", lambda answer: answer.status >= 400 and problems.append(f"{answer.status} {answer.url}"))
    try:
        page.goto(http_server + "/de-pion/")
        assert page.evaluate("getComputedStyle(document.querySelector('header.site')).display") == "flex"
        # (no wait_for_function: it evaluates strings, which this very policy forbids)
        assert page.evaluate("typeof window.htmx") == "object"
        links = page.eval_on_selector_all(
            "main a[href^='/de-pion/']", "links => links.map(a => a.getAttribute('href'))"
        )
        competitions = [href for href in links if re.fullmatch(r"/de-pion/[a-z0-9-]+/", href)]
        explained = None
        for href in competitions:
            page.goto(http_server + href)
            if page.locator("a[hx-get*='/tiebreak/']").count():
                explained = href
                break
        assert explained, "no standings with tie-break explanations in the demo"

        # htmx: the explanation comes into the row, the page stays
        link = page.locator("a[hx-get*='/tiebreak/']").first
        target = link.evaluate("a => a.closest('[hx-target]').getAttribute('hx-target')")  # the row's, inherited
        link.click()
        page.wait_for_selector(f"{target}:not(:empty)")
        assert page.url == http_server + explained

        # the site's own script: choosing a language submits the switcher's form
        page.select_option("select[name=language]", "nl")
        page.wait_for_selector("html[lang=nl]")
        page.select_option("select[name=language]", "en")
        page.wait_for_selector("html[lang=en]")
    finally:
        page.close()
    assert problems == []
