"""The site's addresses: health, languages, admin, login, then each app's pages."""

from django.contrib import admin
from django.urls import include, path

from config.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("season.urls")),
    path("", include("entries.urls")),
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("pairing.urls")),
    path("", include("ratings.urls")),
    path("", include("jobs.urls")),
]
