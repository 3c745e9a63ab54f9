"""PDFs: the same HTML as the pages, rendered by WeasyPrint with the print stylesheet.

A PDF printed by a worker (a large competition's, `tournaments.printed`) takes the lean stylesheet of large
tables (css/print.css: a fixed table layout, few simple rules), which WeasyPrint lays out several times
faster; the others take the site's stylesheet with its print section."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


def render_pdf(request, template: str, context: dict, filename: str, stylesheet: str = "") -> HttpResponse:
    """`template` printed as a PDF, with the competition pages' stylesheet and `stylesheet` (a static file)
    after it, when given."""
    from weasyprint import CSS, HTML

    report = getattr(request, "pdf_report", None) or (lambda fraction: None)  # a worker's progress
    html = render_to_string(template, {**context, "pdf": True}, request=request)
    report(0.3)
    names = [stylesheet_for(request)] + ([stylesheet] if stylesheet else [])
    css = [CSS(filename=finders.find(name)) for name in names]
    document = HTML(string=html, base_url=request.build_absolute_uri("/")).render(stylesheets=css)
    report(0.8)
    pdf = document.write_pdf()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def stylesheet_for(request) -> str:
    """The stylesheet of a PDF: the lean one for the large tables a worker prints."""
    return "css/print.css" if getattr(request, "printing", False) else "css/clubavond.css"


def qr_code(url: str) -> SafeString:
    """A QR code of `url` as inline SVG (segno), for the printed pairing list."""
    import segno

    return mark_safe(segno.make(url, micro=False, error="m").svg_inline(scale=3, border=2, dark="#000"))
