"""A team league's addresses: its public page, its organiser's TD pages and a captain's match card."""

from django.urls import path

from . import views

lg = "<slug:club>/leagues/<slug:league>/"
urlpatterns = [
    path("<slug:club>/leagues/new/", views.new_league, name="league_new"),
    path(lg, views.league_page, name="league"),
    path(lg + "manage/", views.manage_league, name="league_manage"),
    path(lg + "manage/roster/", views.set_roster, name="league_roster"),
    path(lg + "manage/schedule/", views.make_schedule, name="league_schedule"),
    path(lg + "manage/match/<int:pk>/", views.manage_match, name="league_match"),
    path(lg + "match/<int:pk>/captain/", views.captain_match, name="league_captain"),
]
