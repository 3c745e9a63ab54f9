from django.urls import path

from . import gladiator_views, knockout_views, views

c = "<slug:club>/<slug:competition>/"
urlpatterns = [
    path("<slug:club>/new/", views.new_competition, name="new_competition"),
    path("<slug:club>/import-trf/", views.import_trf, name="import_trf"),
    path(c, views.standings_page, name="standings"),
    path(c + "round/", views.pairings, name="pairings_latest"),
    path(c + "round/<int:number>/", views.pairings, name="pairings"),
    path(c + "crosstable/", views.crosstable_page, name="crosstable"),
    path(c + "live/", views.live_board, name="live_board"),
    path(c + "player/<int:number>/", views.player_card, name="player"),
    path(c + "notice/", views.notice, name="notice"),
    path(c + "manage/", views.manage, name="manage"),
    path(c + "manage/settings/", views.system_settings, name="system_settings"),
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
    path(c + "bracket/", knockout_views.bracket_page, name="bracket"),
    path(c + "manage/cup/", knockout_views.cup_page, name="cup"),
    path(c + "manage/cup/format/", knockout_views.cup_format, name="cup_format"),
    path(c + "manage/cup/pair/", knockout_views.cup_pair, name="cup_pair"),
    path(c + "manage/cup/<int:number>/publish/", knockout_views.cup_publish, name="cup_publish"),
    path(c + "manage/cup/<int:number>/next-games/", knockout_views.cup_next_games, name="cup_next_games"),
    path(c + "manage/cup/<int:number>/results/", knockout_views.cup_result, {"board": 0}, name="cup_results"),
    path(c + "manage/cup/<int:number>/result/<int:board>/", knockout_views.cup_result, name="cup_result"),
    path(c + "manage/groups/", knockout_views.split_groups, name="split_groups"),
    path(c + "manage/teams/", knockout_views.team_settings, name="team_settings"),
]
urlpatterns += [
    path(c + "prizes/", views.prize_list_page, name="prize_list"),
    path(c + "player/<int:number>/tiebreak/<int:index>/", views.tiebreak_explanation, name="tiebreak_explanation"),
    path(c + "manage/tiebreaks/", views.tiebreak_settings, name="tiebreak_settings"),
    path(c + "manage/prizes/", views.prize_settings, name="prize_settings"),
]
urlpatterns += [
    path(
        c + "manage/round/<int:number>/encounter/<int:match>/next/",
        gladiator_views.next_game,
        name="gladiator_next_game",
    ),
]
