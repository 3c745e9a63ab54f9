"""The site's addresses: health, admin, the accounts (login, languages), then each app's pages."""

from django.contrib import admin
from django.urls import include, path

from config.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("season.urls")),
    path("", include("entries.urls")),
    path("", include("clubs.urls")),
    path("", include("teams.urls")),
    path("", include("tournaments.urls")),
    path("", include("pairing.urls")),
    path("", include("ratings.urls")),
    path("", include("jobs.urls")),
]

handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
