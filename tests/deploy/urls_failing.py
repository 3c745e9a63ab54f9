"""The site's URLs plus one view that fails, to see what a server error leaves behind."""

from django.urls import path

from config.urls import urlpatterns as site


def failing(request):
    raise ZeroDivisionError("a bug in a view")


urlpatterns = [path("failing/", failing), *site]
