"""PDFs: the same HTML as the pages, rendered by WeasyPrint with the print stylesheet.

A PDF printed by a worker (a large competition's, `tournaments.printed`) takes the lean stylesheet of large
tables (css/print.css: a fixed table layout, few simple rules), which WeasyPrint lays out several times
faster; the others take the site's stylesheet with its print section.

From settings.PDF_LINES_MIN_PLAYERS players on, the standings, crosstable and pairing list are printed from
templates of their own (`templates/tournaments/print/`), each row one line of text in a fixed-width font
(`tournaments.templatetags.print_lines`, css/print-lines.css): a table of 3000 rows takes WeasyPrint about
half a minute, the same rows as lines a few seconds."""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

LINES_STYLESHEET = "css/print-lines.css"


def line_format(competition) -> bool:
    """Whether the competition's large lists are printed as lines of text (settings.PDF_LINES_MIN_PLAYERS)."""
    return competition.participants.count() >= settings.PDF_LINES_MIN_PLAYERS


def render_pdf(
    request, template: str, context: dict, filename: str, stylesheet: str = "", lines: bool = False
) -> HttpResponse:
    """`template` printed as a PDF, with the competition pages' stylesheet and `stylesheet` (a static file)
    after it, when given; `lines`: a template of the line format, with its stylesheet alone."""
    from weasyprint import CSS, HTML

    report = getattr(request, "pdf_report", None) or (lambda fraction: None)  # a worker's progress
    html = render_to_string(template, {**context, "pdf": True}, request=request)
    report(0.3)
    names = [LINES_STYLESHEET] if lines else [stylesheet_for(request)] + ([stylesheet] if stylesheet else [])
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
