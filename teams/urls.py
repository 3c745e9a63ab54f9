"""A team league's addresses: its public page, its organiser's TD pages and a captain's match card."""

from django.urls import path

from . import exports, views

lg = "<slug:club>/leagues/<slug:league>/"
urlpatterns = [
    path("<slug:club>/leagues/new/", views.new_league, name="league_new"),
    path("<slug:club>/leagues/import/", exports.import_league_page, name="league_import"),
    path(lg, views.league_page, name="league"),
    path(lg + "match/<int:pk>/", views.match_page, name="league_match_page"),
    path(lg + "team/<int:pk>/", views.team_page, name="league_team"),
    path(lg + "team/<int:pk>/captain/", views.team_captain, name="league_team_captain"),
    path(lg + "manage/", views.manage_league, name="league_manage"),
    path(lg + "manage/roster/", views.set_roster, name="league_roster"),
    path(lg + "manage/schedule/", views.make_schedule, name="league_schedule"),
    path(lg + "manage/draw/", views.draw_round, name="league_cup_draw"),
    path(lg + "manage/match/<int:pk>/", views.manage_match, name="league_match"),
    # printouts and files (`teams.exports`)
    path(lg + "table.pdf", exports.league_table_pdf, name="league_table_pdf"),
    path(lg + "round/<int:number>.pdf", exports.round_results_pdf, name="league_round_pdf"),
    path(lg + "match/<int:pk>.pdf", exports.match_card_pdf, name="league_match_pdf"),
    path(lg + "manage/export.trf", exports.league_trf, name="league_trf"),
    path(lg + "match/<int:pk>/captain/", views.captain_match, name="league_captain"),
]
