"""The competition pages' addresses, by page family (`tournaments.views`)."""

from django.urls import path

from .views import gladiator, knockout, manage, prizes, public, rounds, trf

c = "<slug:club>/<slug:competition>/"
urlpatterns = [
    path("<slug:club>/new/", manage.new_competition, name="new_competition"),
    path("<slug:club>/import-trf/", trf.import_trf, name="import_trf"),
    path(c, public.standings_page, name="standings"),
    path(c + "round/", public.pairings, name="pairings_latest"),
    path(c + "round/<int:number>/", public.pairings, name="pairings"),
    path(c + "crosstable/", public.crosstable_page, name="crosstable"),
    path(c + "live/", public.live_board, name="live_board"),
    path(c + "player/<int:number>/", public.player_card, name="player"),
    path(c + "manage/", manage.manage, name="manage"),
    path(c + "manage/settings/", manage.system_settings, name="system_settings"),
    path(c + "manage/forbidden/", manage.add_forbidden_pair, name="add_forbidden_pair"),
    path(c + "manage/forbidden/<int:pk>/delete/", manage.delete_forbidden_pair, name="delete_forbidden_pair"),
    path(c + "manage/players/", manage.add_participants, name="add_participants"),
    path(c + "manage/guest/", manage.add_guest, name="add_guest"),
    path(c + "manage/player/<int:number>/withdraw/", manage.withdraw, name="withdraw"),
    path(c + "manage/player/<int:number>/absence/", manage.set_absence, name="set_absence"),
    path(c + "manage/undo/", manage.undo_round, name="undo_round"),
    path(c + "manage/history/", manage.results_history, name="results_history"),
    path(c + "manage/log/", manage.competition_history, name="competition_history"),
    path(c + "manage/export.trf", trf.export_trf, name="export_trf"),
    path(c + "manage/export.json", trf.export_json, name="export_json"),
    path(c + "manage/round/<int:number>/", rounds.manage_round, name="manage_round"),
    path(c + "manage/round/<int:number>/results/", rounds.enter_result, {"board": 0}, name="enter_results"),
    path(c + "manage/round/<int:number>/result/<int:board>/", rounds.enter_result, name="enter_result"),
    path(c + "manage/round/<int:number>/publish/", rounds.publish_round, name="publish_round"),
    path(c + "manage/round/<int:number>/finish/", rounds.finish_round, name="finish_round"),
    path(
        c + "manage/round/<int:number>/club-match/<int:start_number>/",
        rounds.club_match_result,
        name="club_match_result",
    ),
    path(c + "bracket/", knockout.bracket_page, name="bracket"),
    path(c + "manage/cup/", knockout.cup_page, name="cup"),
    path(c + "manage/cup/format/", knockout.cup_format, name="cup_format"),
    path(c + "manage/cup/pair/", knockout.cup_pair, name="cup_pair"),
    path(c + "manage/cup/<int:number>/publish/", knockout.cup_publish, name="cup_publish"),
    path(c + "manage/cup/<int:number>/next-games/", knockout.cup_next_games, name="cup_next_games"),
    path(c + "manage/cup/<int:number>/results/", knockout.cup_result, {"board": 0}, name="cup_results"),
    path(c + "manage/cup/<int:number>/result/<int:board>/", knockout.cup_result, name="cup_result"),
    path(c + "manage/groups/", knockout.split_groups, name="split_groups"),
    path(c + "manage/teams/", knockout.team_settings, name="team_settings"),
    path(c + "prizes/", prizes.prize_list_page, name="prize_list"),
    path(c + "player/<int:number>/tiebreak/<int:index>/", prizes.tiebreak_explanation, name="tiebreak_explanation"),
    path(c + "manage/tiebreaks/", prizes.tiebreak_settings, name="tiebreak_settings"),
    path(c + "manage/prizes/", prizes.prize_settings, name="prize_settings"),
    path(
        c + "manage/round/<int:number>/encounter/<int:match>/next/",
        gladiator.next_game,
        name="gladiator_next_game",
    ),
]
