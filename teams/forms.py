"""The forms of a team league's TD pages: the league and its rules, a team, a roster, the schedule, a
match's line-ups and results."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member
from pairing.engines import kinds
from pairing.engines.state import InvalidInput
from tournaments.models import Result

from .models import League, Team

RESERVED_LEAGUE_SLUGS = {"new"}


class LeagueForm(forms.Form):
    """A new league: its name and short name, the rules of its matches and its tie-breaks."""

    name = forms.CharField(label=_("name"), max_length=120)
    slug = forms.SlugField(label=_("short name"), max_length=50)
    format = forms.ChoiceField(
        label=_("format"), initial="league", required=False,
        choices=[("league", _("league: a round robin of matches")), ("cup", _("cup: a knockout of matches"))],
    )  # fmt: skip
    cup_tie = forms.ChoiceField(
        label=_("a level cup match is decided by"), initial="boards", required=False,
        choices=[("boards", _("the board count (strike the lowest board until one team is ahead), then the decider")),
                 ("decider", _("the decider"))],
    )  # fmt: skip
    cup_decider = forms.ChoiceField(
        label=_("the decider of a cup match"), initial="lot", required=False,
        choices=[("lot", _("a lot drawn by the TD")), ("blitz", _("a blitz decider, its winner entered by the TD"))],
    )  # fmt: skip
    boards = forms.IntegerField(label=_("boards per match"), min_value=1, max_value=20)
    cycles = forms.TypedChoiceField(
        label=_("schedule"), coerce=int, initial=1,
        choices=[(1, _("single round robin")), (2, _("double round robin"))],
    )  # fmt: skip
    match_win = forms.DecimalField(label=_("match points for a win"), initial=2, max_digits=4, decimal_places=1)
    match_draw = forms.DecimalField(label=_("match points for a draw"), initial=1, max_digits=4, decimal_places=1)
    match_loss = forms.DecimalField(label=_("match points for a loss"), initial=0, max_digits=4, decimal_places=1)
    primary = forms.ChoiceField(
        label=_("ranked by"), choices=[("MP", _("match points, then board points")),
                                       ("BP", _("board points, then match points"))],
    )  # fmt: skip
    home_white = forms.ChoiceField(
        label=_("home team has White on"), choices=[("odd", _("the odd boards")), ("even", _("the even boards"))]
    )
    play_up = forms.IntegerField(
        label=_("a reserve plays up at most (teams)"), min_value=-1, max_value=20,
        help_text=_("-1: as far up as he likes; 0: no reserves from lower teams"),
    )  # fmt: skip
    max_reserves = forms.IntegerField(
        label=_("reserves per match at most"), min_value=0, max_value=20, initial=0, help_text=_("0: no limit")
    )
    tiebreaks = forms.CharField(
        label=_("tie-breaks"), required=False, initial="EDE", max_length=200,
        help_text=_("team tie-break codes, separated by commas, e.g. EDE, EMGSB, BC"),
    )  # fmt: skip

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.kind = kinds.get(kinds.TEAM_LEAGUE)
        for name, value in self.kind.defaults.items():  # the kind's defaults, not the form's own
            if name in self.fields:
                self.fields[name].initial = value

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_LEAGUE_SLUGS or League.objects.filter(club=self.club, slug=slug).exists():
            raise forms.ValidationError(_("“%(slug)s” is taken; choose another short name.") % {"slug": slug})
        return slug

    def clean(self) -> dict:
        data = super().clean()
        if not self.errors:
            try:  # the kind's checks, the one place a league's settings are checked
                self.kind.settings(self.rule_settings())
            except InvalidInput as error:
                raise forms.ValidationError(
                    _("The league's settings are not valid: %(reason)s") % {"reason": error}
                ) from None
        return data

    def rule_settings(self) -> dict:
        """The league's settings from the cleaned form (`LeagueRules` reads them; the league's writer
        checks them again)."""
        data = self.cleaned_data
        given = {name: data[name] for name in ("boards", "cycles", "primary", "home_white", "play_up", "max_reserves")}
        given |= {name: data[name] or self.kind.defaults[name] for name in ("format", "cup_tie", "cup_decider")}
        return given | {name: float(data[name]) for name in ("match_win", "match_draw", "match_loss")}

    def tiebreak_codes(self) -> list[str]:
        return [code.strip() for code in self.cleaned_data["tiebreaks"].split(",") if code.strip()]


class BasedOn(forms.Form):
    """What the page showed (`pairing.services.leagues.league_seen`, `match_seen`), posted back with it."""

    based_on = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)


class TeamForm(BasedOn):
    """A team: its club (any club of the site), its name and its place among the club's teams."""

    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.all())
    name = forms.CharField(label=_("name"), max_length=120)
    rank = forms.IntegerField(label=_("team of the club"), min_value=1, max_value=30, initial=1)
    captain = forms.ModelChoiceField(
        label=_("captain"), required=False, queryset=Member.objects.exclude(user=None).select_related("club"),
        help_text=_("a member of the team's club with an account: he enters its line-ups and results"),
    )  # fmt: skip


def _members(text: str, club: Club) -> list[Member]:
    """The club's members named one per line (first and last name as the club lists them)."""
    by_name = {m.full_name.casefold(): m for m in Member.objects.filter(club=club)}
    found, unknown = [], []
    for line in (line.strip() for line in text.splitlines()):
        if not line:
            continue
        member = by_name.get(" ".join(line.split()).casefold())
        if member is None:
            unknown.append(line)
        else:
            found.append(member)
    if unknown:
        raise forms.ValidationError(
            _("Not members of %(club)s: %(names)s.") % {"club": club, "names": ", ".join(unknown)}
        )
    return found


class RosterForm(BasedOn):
    """A team's roster: the regulars in board order and the reserves, one member's name per line."""

    team = forms.ModelChoiceField(label=_("team"), queryset=Team.objects.none())
    regulars = forms.CharField(label=_("regulars, board 1 first"), widget=forms.Textarea(attrs={"rows": 8}))
    reserves = forms.CharField(label=_("reserves"), required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = league.teams.select_related("club")

    def clean(self) -> dict:
        data = super().clean()
        team = data.get("team")
        if team is not None:
            for name in ("regulars", "reserves"):
                try:
                    data[name] = _members(data.get(name) or "", team.club)
                except forms.ValidationError as error:
                    self.add_error(name, error)
        return data


class CaptainForm(BasedOn):
    """A team's captain: a member of the team's club (none: the team has no captain)."""

    captain = forms.ModelChoiceField(
        label=_("captain"), required=False, queryset=Member.objects.none(),
        help_text=_("a member of the team's club; with an account he enters its line-ups and results"),
    )  # fmt: skip

    def __init__(self, *args, team: Team, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["captain"].queryset = Member.objects.filter(club=team.club_id).order_by("last_name", "first_name")


class DisputeForm(BasedOn):
    """A captain's dispute of a match's result: what is wrong with it."""

    reason = forms.CharField(label=_("what is wrong"), max_length=500, widget=forms.Textarea(attrs={"rows": 3}))


class ScheduleForm(BasedOn):
    """The schedule's dates: the first round's date and the weeks between rounds (none: no dates yet)."""

    first_date = forms.DateField(
        label=_("first round on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    weeks = forms.IntegerField(label=_("weeks between rounds"), min_value=1, max_value=26, initial=4)


class DrawForm(BasedOn):
    """A cup round's draw: how round 1 is drawn (later rounds follow the bracket) and the round's date."""

    method = forms.ChoiceField(
        label=_("round 1 drawn"), initial="lot", required=False,
        choices=[("lot", _("by lot")), ("rating", _("seeded by team rating")),
                 ("order", _("seeded in the order the teams were added"))],
    )  # fmt: skip
    date = forms.DateField(label=_("played on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))


class DeciderForm(BasedOn):
    """The winner of a level cup match's decider (the TD's lot, or the blitz decider)."""

    side = forms.ChoiceField(label=_("won by"), required=False)

    def __init__(self, *args, match, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [("", "–"), ("home", match.home.name), ("away", match.away.name)]
        self.fields["side"].initial = match.decider


class LineupForm(BasedOn):
    """A team's line-up for a match: a member per board (none: the board left empty), chosen from the
    rosters of the club's teams in the league."""

    def __init__(self, *args, match, team: Team, boards: int, **kwargs) -> None:
        kwargs.setdefault("prefix", "home" if team.pk == match.home_id else "away")
        super().__init__(*args, **kwargs)
        self.team = team
        rostered = Member.objects.filter(
            team_places__team__league_id=team.league_id, team_places__team__club=team.club_id
        )
        rostered = rostered.distinct().order_by("last_name", "first_name")
        current = {b.board: (b.home_player if team.pk == match.home_id else b.away_player) for b in match.boards.all()}
        for number in range(1, boards + 1):
            field = forms.ModelChoiceField(label=_("board %(n)s") % {"n": number}, queryset=rostered, required=False)
            field.initial = current.get(number)
            self.fields[f"board_{number}"] = field

    def players(self) -> list[Member | None]:
        """The members board by board, board 1 first; trailing empty boards left off."""
        boards = sum(name.startswith("board_") for name in self.fields)
        found = [self.cleaned_data[f"board_{n}"] for n in range(1, boards + 1)]
        while found and found[-1] is None:
            found.pop()
        return found


class ResultsForm(BasedOn):
    """The results of a match's boards, as White-Black."""

    def __init__(self, *args, match, boards: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        current = {b.board: b.result for b in match.boards.all()}
        for number in range(1, boards + 1):
            self.fields[f"result_{number}"] = forms.ChoiceField(
                label=_("board %(n)s") % {"n": number}, choices=Result.choices, required=False,
                initial=current.get(number, ""),
            )  # fmt: skip

    def results(self) -> dict[int, str]:
        data = self.cleaned_data.items()
        return {int(name.split("_")[1]): value for name, value in data if name.startswith("result_")}
