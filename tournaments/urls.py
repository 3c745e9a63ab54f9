from django.urls import path

from . import views

c = "<slug:club>/<slug:competition>/"
urlpatterns = [
    path("<slug:club>/new/", views.new_competition, name="new_competition"),
    path("<slug:club>/import-trf/", views.import_trf, name="import_trf"),
    path(c, views.standings_page, name="standings"),
    path(c + "round/", views.pairings, name="pairings_latest"),
    path(c + "round/<int:number>/", views.pairings, name="pairings"),
    path(c + "crosstable/", views.crosstable_page, name="crosstable"),
    path(c + "player/<int:number>/", views.player_card, name="player"),
    path(c + "notice/", views.notice, name="notice"),
    path(c + "manage/", views.manage, name="manage"),
    path(c + "manage/players/", views.add_participants, name="add_participants"),
    path(c + "manage/guest/", views.add_guest, name="add_guest"),
    path(c + "manage/player/<int:number>/withdraw/", views.withdraw, name="withdraw"),
    path(c + "manage/player/<int:number>/absence/", views.set_absence, name="set_absence"),
    path(c + "manage/undo/", views.undo_round, name="undo_round"),
    path(c + "manage/history/", views.results_history, name="results_history"),
    path(c + "manage/export.trf", views.export_trf, name="export_trf"),
    path(c + "manage/round/<int:number>/", views.manage_round, name="manage_round"),
    path(c + "manage/round/<int:number>/results/", views.enter_result, {"board": 0}, name="enter_results"),
    path(c + "manage/round/<int:number>/result/<int:board>/", views.enter_result, name="enter_result"),
    path(c + "manage/round/<int:number>/publish/", views.publish_round, name="publish_round"),
    path(c + "manage/round/<int:number>/finish/", views.finish_round, name="finish_round"),
    path(
        c + "manage/round/<int:number>/club-match/<int:start_number>/",
        views.club_match_result,
        name="club_match_result",
    ),
]
