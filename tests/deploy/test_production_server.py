"""`make serve`'s gunicorn with DEBUG off and the HTTPS switch, on the demo club: static files, pages,
PDFs, headers, the request id."""

from __future__ import annotations

import gzip
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest

pytestmark = pytest.mark.server

BEHIND_TLS = {"X-Forwarded-Proto": "https"}


def fetch(url: str, **headers: str):
    request = urllib.request.Request(url, headers={**BEHIND_TLS, **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_css_and_htmx_are_served_compressed_with_far_future_caching(https_server):
    status, _headers, body = fetch(https_server + "/de-pion/")
    assert status == 200
    page = body.decode()
    assets = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', page)
    assert any(re.search(r"/css/clubavond\.[0-9a-f]{12}\.css$", a) for a in assets)
    assert any(re.search(r"/django_htmx/htmx-2\.min\.[0-9a-f]{12}\.js$", a) for a in assets)
    for asset in assets:
        status, headers, body = fetch(https_server + asset, **{"Accept-Encoding": "gzip"})
        assert status == 200, asset
        assert headers["Content-Encoding"] == "gzip", asset
        assert "max-age=315360000" in headers["Cache-Control"] and "immutable" in headers["Cache-Control"]
        text = gzip.decompress(body).decode()
        assert ("htmx" in text) if asset.endswith(".js") and "htmx" in asset else text


def test_pages_and_pdfs_answer_with_csp_hsts_and_a_request_id(https_server):
    pages = ["/", "/de-pion/", "/login/"]
    club = fetch(https_server + "/de-pion/")[2].decode()
    not_competitions = {"/de-pion/members/", "/de-pion/calendar/"}
    competitions = sorted(set(re.findall(r'href="(/de-pion/[a-z0-9-]+/)"', club)) - not_competitions)
    assert competitions
    for competition in competitions:
        pages += [competition, competition + "crosstable/", competition + "?format=pdf"]
    ids = set()
    for page in pages:
        status, headers, body = fetch(https_server + page)
        assert status == 200, page
        if page.endswith("format=pdf"):
            assert headers["Content-Type"] == "application/pdf" and body.startswith(b"%PDF")
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
        policy = {part.strip() for part in headers["Permissions-Policy"].split(",")}
        assert {"camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"} <= policy
        assert re.fullmatch(r"[0-9a-f]{32}", headers["X-Request-ID"])
        ids.add(headers["X-Request-ID"])
    assert len(ids) == len(pages)


def test_plain_http_is_redirected_to_https_and_cookies_are_secure(https_server):
    request = urllib.request.Request(https_server + "/de-pion/")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.build_opener(NoRedirect).open(request, timeout=30)
    assert answer.value.code == 301
    assert answer.value.headers["Location"].startswith("https://")
    _status, headers, _body = fetch(https_server + "/login/")
    assert "Secure" in headers["Set-Cookie"]


def test_an_unknown_page_is_a_plain_404_not_a_debug_page(https_server):
    status, headers, body = fetch(https_server + "/de-pion/no-such-competition/")
    assert status == 404
    assert b"Traceback" not in body and b"URLconf" not in body
    assert "Content-Security-Policy" in headers


def test_the_health_check_answers_over_plain_http(https_server):
    """A load balancer asks the server itself, without TLS: no redirect for /health/."""
    with urllib.request.urlopen(https_server + "/health/", timeout=30) as response:
        assert response.status == 200
        assert response.read() == b'{"status": "ok", "database": "ok", "cache": "ok"}'


def test_the_language_cookie_is_secure_same_site_and_out_of_the_scripts_reach(https_server):
    """Switching the language behind TLS: the cookie goes over TLS only, with this site's requests only,
    and no script reads it; the next page comes in the language chosen."""
    _status, headers, _body = fetch(https_server + "/login/")
    csrf = re.search(r"csrftoken=([A-Za-z0-9]+)", headers["Set-Cookie"]).group(1)
    origin = "https://" + https_server.split("://", 1)[1]
    form = urllib.parse.urlencode({"language": "nl", "next": "/de-pion/", "csrfmiddlewaretoken": csrf}).encode()
    request = urllib.request.Request(
        https_server + "/i18n/setlang/", data=form,
        headers={**BEHIND_TLS, "Cookie": f"csrftoken={csrf}", "Origin": origin, "Referer": origin + "/login/",
                 "Content-Type": "application/x-www-form-urlencoded"},
    )  # fmt: skip

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.build_opener(NoRedirect).open(request, timeout=30)
    assert answer.value.code == 302 and answer.value.headers["Location"] == "/de-pion/"
    cookie = next(c for c in answer.value.headers.get_all("Set-Cookie") if c.startswith("django_language="))
    attributes = {part.strip().split("=")[0].lower(): part.strip() for part in cookie.split(";")}
    assert attributes["django_language"] == "django_language=nl"
    assert "secure" in attributes and "httponly" in attributes and attributes["samesite"] == "SameSite=Lax"
    status, headers, _body = fetch(https_server + "/de-pion/", Cookie="django_language=nl")
    assert status == 200 and headers["Content-Language"] == "nl"
