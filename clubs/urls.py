"""The club pages' addresses: the home page, a club, its members and their import."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("<slug:club>/", views.club, name="club"),
    path("<slug:club>/language/", views.club_language, name="club_language"),
    path("<slug:club>/members/", views.members, name="members"),
    path("<slug:club>/members/import/", views.import_members, name="import_members"),
    path("<slug:club>/history/", views.club_history, name="club_history"),
]
