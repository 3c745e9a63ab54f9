"""PDFs: the same HTML as the pages, rendered by WeasyPrint with the print stylesheet."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string


def render_pdf(request, template: str, context: dict, filename: str) -> HttpResponse:
    from weasyprint import CSS, HTML

    html = render_to_string(template, {**context, "pdf": True}, request=request)
    stylesheet = CSS(filename=finders.find("css/clubavond.css"))
    pdf = HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf(stylesheets=[stylesheet])
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
