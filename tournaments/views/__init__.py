"""Competition pages by family: public pages, the TD's pages, round pages, TRF files, prizes, knockout, Gladiator.

Thin views: look up with permission, call a service or the standings module, render.
htmx requests get the page's partial, plain requests the whole page.
"""
