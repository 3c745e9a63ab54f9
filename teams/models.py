"""A team league's rows: the league and its organiser, the teams and their rosters, the matches, each
team's line-up for a match and the boards' results.

The rules of play (boards, match points, colours, play-up limit) are the league's `settings`, read by
`pairing.engines.league.LeagueRules`; the schedule, the match results and the table are computed by
that engine. Every write goes through `pairing.services.leagues` (one lock, one version bump, one audit
entry per action).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member, Season
from pairing.engines import kinds
from pairing.engines.league import LeagueRules
from tournaments.models import KIND_NAMES, Result


class League(models.Model):
    """A team competition between clubs' teams, directed by its organiser club's TDs (a club, or the
    club that runs a regional league's administration)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues", verbose_name=_("organiser"))
    season = models.ForeignKey(Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="leagues")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"))
    settings = models.JSONField(_("league settings"), default=dict, blank=True)
    tiebreaks = models.JSONField(_("tiebreaks"), default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Raised once per action (`pairing.services.leagues`): the key of the league's cached pages.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    changed_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("team league")
        verbose_name_plural = _("team leagues")
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="league_slug_per_club")]

    def __str__(self) -> str:
        return self.name

    @property
    def kind(self) -> kinds.CompetitionKind:
        """The league's kind of competition (`pairing.engines.kinds`): its settings' defaults and checks."""
        return kinds.get(kinds.TEAM_LEAGUE)

    @property
    def kind_name(self) -> str:
        return str(KIND_NAMES.get(self.kind.id, self.kind.name))

    @property
    def rules(self) -> LeagueRules:
        return kinds.league_rules(self.settings)


class Team(models.Model):
    """A club's team in a league. `rank`: its place among the club's teams in the league (1 the first
    team), which decides how far a reserve plays up; `number`: its number in the schedule (the Berger
    table), given when the schedule is made; in a cup its lot number, which fixes its place in the bracket
    (`pairing.engines.team_cup`)."""

    # The foreign keys that may point at another club's rows: a club's backup carries the leagues it
    # organises, and the restore finds those rows on the site it restores to (`tournaments.backup`), or
    # keeps their name in the field named here when they are not there ("": the reference is dropped).
    OUTSIDE_REFERENCES = {"club": "club_name", "captain": ""}

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="teams")
    # None: a team restored from a backup whose club is not on this site; `club_name` names it.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, null=True, blank=True, related_name="league_teams")
    club_name = models.CharField(_("club not on this site"), max_length=120, blank=True, default="")
    name = models.CharField(_("name"), max_length=120)
    rank = models.PositiveSmallIntegerField(_("team of the club"), default=1)
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)
    captain = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="captained", verbose_name=_("captain")
    )

    class Meta:
        ordering = ["number", "club__name", "rank"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="team_name_per_league"),
            models.UniqueConstraint(fields=["league", "club", "rank"], name="team_rank_per_club"),
            models.UniqueConstraint(fields=["league", "number"], name="team_number_per_league"),
            models.CheckConstraint(
                condition=models.Q(club__isnull=False) | ~models.Q(club_name=""), name="team_club_or_its_name"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def club_label(self) -> str:
        """The team's club: its name, or the name kept for a club not on this site."""
        return self.club.name if self.club_id is not None else self.club_name


class TeamPlayer(models.Model):
    """A member on a team's roster: the regulars in board order, then the team's listed reserves."""

    OUTSIDE_REFERENCES = {"member": "name"}  # as `Team.OUTSIDE_REFERENCES`

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    # None: a player restored from a backup who is no member on this site; `name` names him.
    member = models.ForeignKey(Member, on_delete=models.PROTECT, null=True, blank=True, related_name="team_places")
    name = models.CharField(_("player not on this site"), max_length=120, blank=True, default="")
    position = models.PositiveSmallIntegerField(_("position"))
    reserve = models.BooleanField(_("reserve"), default=False)

    class Meta:
        ordering = ["reserve", "position"]
        verbose_name = _("team player")
        verbose_name_plural = _("team players")
        constraints = [
            models.UniqueConstraint(fields=["team", "member"], name="once_per_roster"),
            models.CheckConstraint(
                condition=models.Q(member__isnull=False) | ~models.Q(name=""), name="team_player_member_or_name"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.position}. {self.label}"

    @property
    def label(self) -> str:
        """The player's full name (the member's, or the name kept for a player not on this site)."""
        return self.member.full_name if self.member_id is not None else self.name


class Match(models.Model):
    """A match of the schedule: round, home team, away team and the date it is played; each captain's
    confirmation of its result (both confirmed: the result is locked, only the organiser's TD changes it),
    or the side whose captain disputes it (the organiser's TD settles it). In a cup `round` is the round of
    the bracket, and a level match's winner by the TD's lot or blitz decider is `decider`."""

    class Side(models.TextChoices):
        HOME = "home", _("home team")
        AWAY = "away", _("away team")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField(_("round"))
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_matches", verbose_name=_("home team"))
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_matches", verbose_name=_("away team"))
    date = models.DateField(_("date"), null=True, blank=True)
    home_confirmed = models.BooleanField(_("confirmed by the home captain"), default=False)
    away_confirmed = models.BooleanField(_("confirmed by the away captain"), default=False)
    disputed = models.CharField(_("disputed by"), max_length=4, choices=Side.choices, blank=True, default="")
    # A cup's level match: the side the TD's lot or blitz decider sends through (`pairing.engines.team_cup`).
    decider = models.CharField(_("decider won by"), max_length=4, choices=Side.choices, blank=True, default="")

    class Meta:
        ordering = ["round", "pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [models.UniqueConstraint(fields=["league", "home", "away", "round"], name="one_match")]

    def __str__(self) -> str:
        return f"{self.round}. {self.home} – {self.away}"

    @property
    def locked(self) -> bool:
        """Both captains confirmed the result (or the TD settled it): the captains change it no more."""
        return self.home_confirmed and self.away_confirmed


class Lineup(models.Model):
    """A team's line-up for a match, as its captain (or a TD) entered it; the players are on the
    match's boards (`BoardResult.home_player`, `away_player`)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="lineups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="lineups")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [models.UniqueConstraint(fields=["match", "team"], name="one_lineup_per_team")]

    def __str__(self) -> str:
        return f"{self.match}: {self.team}"


class BoardResult(models.Model):
    """One board of a match: the home and the away team's player (None: the board left empty) and the
    result as White-Black (`tournaments.models.Result`); who has White follows the league's setting.
    A player restored from a backup who is no member on this site is kept by name (`home_name`,
    `away_name`, the player None): his board is not empty."""

    OUTSIDE_REFERENCES = {"home_player": "home_name", "away_player": "away_name"}  # as `Team`'s

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="boards")
    board = models.PositiveSmallIntegerField(_("board"))
    home_player = models.ForeignKey(Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    away_player = models.ForeignKey(Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    home_name = models.CharField(_("home player not on this site"), max_length=120, blank=True, default="")
    away_name = models.CharField(_("away player not on this site"), max_length=120, blank=True, default="")
    result = models.CharField(_("result"), max_length=4, choices=Result.choices, blank=True, default="")

    class Meta:
        ordering = ["board"]
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = [models.UniqueConstraint(fields=["match", "board"], name="one_row_per_board")]

    def __str__(self) -> str:
        return f"{self.match} {self.board}"

    @property
    def home_fielded(self) -> bool:
        """The home team has a player on this board (a member, or a player kept by name)."""
        return self.home_player_id is not None or bool(self.home_name)

    @property
    def away_fielded(self) -> bool:
        return self.away_player_id is not None or bool(self.away_name)

    @property
    def home_label(self) -> str:
        """The home player's full name ("" for an empty board)."""
        return self.home_player.full_name if self.home_player_id is not None else self.home_name

    @property
    def away_label(self) -> str:
        return self.away_player.full_name if self.away_player_id is not None else self.away_name
