"""A competition's final-standings settings: its tie-break list, its prize table, and the prize list.

The maths is pure (`pairing.engines.tiebreaks`, `pairing.engines.prizes`); this module reads the
settings, checks what the TD typed, and feeds the standings to the prize distribution; the settings are
written by `pairing.services.set_tiebreaks` and `save_prize_table`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.widgets import PickerMixin
from pairing.engines import prizes, tiebreaks
from pairing.engines.state import InvalidInput
from pairing.engines.tiebreaks.teams import TEAM_CATALOGUE, parse_team

from . import standings
from .models import Competition, Participant, PrizeTable
from .state import CompetitionData

# ------------------------------------------------------------------------------------------ tie-breaks


def default_codes(system: str, teams: bool = False) -> list[str]:
    """The system's regulation (pairing.engines.tiebreaks.DEFAULTS, or TEAM_DEFAULTS for a team event),
    points aside."""
    if teams:
        return tiebreaks.default_team_tiebreaks(system)
    return [code for code in tiebreaks.default_tiebreaks(system) if code != "PTS"]


def competition_defaults(competition: Competition) -> list[str]:
    """The competition's regulation: the team list of a team event (C.07 art. 11-13), else its system's."""
    return default_codes(competition.system, competition.engine.teams)


def parse_codes(text: str, teams: bool = False) -> list[str]:
    """Codes separated by commas, spaces or new lines, each checked against the catalogue (the team
    catalogue, `pairing.engines.tiebreaks.teams`, for a team event).

    A leading PTS is dropped (points always come first). ValidationError names every bad code.
    """
    found: list[str] = []
    errors: list[str] = []
    for raw in re.split(r"[,;\s]+", text.strip()):
        if not raw:
            continue
        try:
            spec = parse_team(raw) if teams else tiebreaks.parse(raw)
        except InvalidInput as error:
            if "modifier" in str(error):
                errors.append(_("“%(code)s”: this modifier is not allowed for this tie-break.") % {"code": raw})
            else:
                errors.append(_("“%(code)s” is not a tie-break of the catalogue.") % {"code": raw})
            continue
        if spec.acronym == "PTS":
            if found:
                errors.append(_("Points (PTS) always come first; leave them out of the list."))
            continue
        if spec.code in found:
            errors.append(_("“%(code)s” is in the list twice.") % {"code": raw})
            continue
        found.append(spec.code)
    if errors:
        raise ValidationError(errors)
    return found


def last_paired_round(competition: Competition) -> int:
    """0 before round 1 is paired: until then the list may change freely."""
    return competition.round_set.last_number()


def tiebreaks_locked(competition: Competition) -> bool:
    return last_paired_round(competition) > 0


def unrated_rule(competition: Competition) -> tiebreaks.Unrated:
    """The competition's rule for unrated opponents (C.07 art. 10)."""
    return tiebreaks.Unrated(competition.unrated_opponents, competition.unrated_rating or 0)


class TiebreakForm(forms.Form):
    codes = forms.CharField(
        label=gettext_lazy("tie-breaks, in order"),
        required=False,
        widget=forms.TextInput(attrs={"size": 60, "list": "tiebreak-codes", "autocomplete": "off"}),
        help_text=gettext_lazy("Codes separated by commas, e.g. BH/C1, BH, SB, DE. Empty: the system's regulation."),
    )
    override = forms.BooleanField(
        label=gettext_lazy("Override: change the tie-breaks although round 1 has been paired"), required=False
    )
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)  # `pairing.services.seen`

    unrated_opponents = forms.ChoiceField(
        label=gettext_lazy("unrated players in ARO, TPR, PTP, APRO, APPO and RTNG"),
        choices=Competition.UnratedOpponents.choices,
        required=False,  # not given: unchanged
        help_text=gettext_lazy(
            "C.07 art. 10: the regulations may give unrated players a rating; without one RTNG is not used "
            "while unrated players take part."
        ),
    )
    unrated_rating = forms.IntegerField(
        label=gettext_lazy("rating of unrated players"), required=False, min_value=1, max_value=3999
    )

    def __init__(self, *args, teams: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        if teams:  # a team event: the team tie-breaks, which use no ratings
            del self.fields["unrated_opponents"], self.fields["unrated_rating"]
            self.fields["codes"].help_text = gettext_lazy(
                "Codes separated by commas, e.g. MPVGP, EDE, EMGSB. Empty: the system's regulation."
            )

    def clean_codes(self) -> list[str]:
        return parse_codes(self.cleaned_data["codes"], self.teams)

    def clean(self):
        data = super().clean()
        if data.get("unrated_opponents") == Competition.UnratedOpponents.RATING and not data.get("unrated_rating"):
            self.add_error("unrated_rating", _("Give the rating at which unrated opponents count."))
        return data


# The catalogue's names (pairing.engines.tiebreaks.CATALOGUE) in the page's language.
NAMES = {
    "PTS": gettext_lazy("Points"),
    "DE": gettext_lazy("Direct encounter"),
    "DE1": gettext_lazy("Direct encounter, only for first place"),
    "WIN": gettext_lazy("Number of wins (with or without playing)"),
    "WON": gettext_lazy("Number of games won"),
    "BPG": gettext_lazy("Games played with black"),
    "BWG": gettext_lazy("Games won with black"),
    "PS": gettext_lazy("Progressive score"),
    "REP": gettext_lazy("Rounds elected to play"),
    "BH": gettext_lazy("Buchholz"),
    "AOB": gettext_lazy("Average of opponents' Buchholz"),
    "FB": gettext_lazy("Fore Buchholz"),
    "SB": gettext_lazy("Sonneborn-Berger"),
    "KS": gettext_lazy("Koya system"),
    "ARO": gettext_lazy("Average rating of opponents"),
    "TPR": gettext_lazy("Tournament performance rating"),
    "PTP": gettext_lazy("Perfect tournament performance"),
    "APRO": gettext_lazy("Average performance rating of opponents"),
    "APPO": gettext_lazy("Average perfect performance of opponents"),
    "RTNG": gettext_lazy("Own rating"),
    "STD": gettext_lazy("Standard points"),
    "TPN": gettext_lazy("Pairing number"),
    "WP": gettext_lazy("Weerstandspunten"),
    "WSB": gettext_lazy("Sonneborn-Berger, unplayed rounds a draw against oneself"),
    "KORR": gettext_lazy("Almindelig korrektion"),
    "MKORR": gettext_lazy("Middelkorrektion"),
    "GRT": gettext_lazy("Average rating of opponents (exact)"),
    "LOT": gettext_lazy("Lot"),
}


def column_title(code: str) -> str:
    """A standings column's name in words, for its header's title and the key: "SB" -> "Sonneborn-Berger",
    "BH/C1" -> "Buchholz (BH/C1)"; a column of the system's own (the Gladiator ranking) is already words."""
    try:
        spec = tiebreaks.parse(code)
    except InvalidInput:
        return code
    name = str(NAMES.get(spec.acronym, tiebreaks.CATALOGUE[spec.acronym][0]))
    return name if spec.code == spec.acronym else f"{name} ({spec.code})"


# The team catalogue's names (pairing.engines.tiebreaks.teams.TEAM_CATALOGUE; C.07 art. 11-13).
TEAM_NAMES = {
    "PTS": gettext_lazy("Primary score"),
    "MPTS": gettext_lazy("Match points"),
    "GPTS": gettext_lazy("Game points"),
    "MPVGP": gettext_lazy("Match points versus game points: the secondary score"),
    "DE": gettext_lazy("Direct encounter on the primary score"),
    "EDE": gettext_lazy("Extended direct encounter"),
    "EDEC": gettext_lazy("Extended direct encounter, then board count"),
    "EDET": gettext_lazy("Extended direct encounter, then top-board results"),
    "EDEB": gettext_lazy("Extended direct encounter, then bottom-board elimination"),
    "EDEBT": gettext_lazy("Extended direct encounter, then board count and top-board results"),
    "EDEBB": gettext_lazy("Extended direct encounter, then board count and bottom-board elimination"),
    "BH": gettext_lazy("Buchholz"),
    "ESB": gettext_lazy("Extended Sonneborn-Berger"),
    "EMMSB": gettext_lazy("Extended Sonneborn-Berger: opponents' match points x match points scored"),
    "EMGSB": gettext_lazy("Extended Sonneborn-Berger: opponents' match points x game points scored"),
    "EGMSB": gettext_lazy("Extended Sonneborn-Berger: opponents' game points x match points scored"),
    "EGGSB": gettext_lazy("Extended Sonneborn-Berger: opponents' game points x game points scored"),
    "SSSC": gettext_lazy("Score and schedule strength combination"),
    "BC": gettext_lazy("Board count"),
    "TBR": gettext_lazy("Top-board results"),
    "BBE": gettext_lazy("Bottom-board elimination"),
    "TPN": gettext_lazy("Team pairing number"),
}


def tiebreak_name(code: str) -> str:
    spec = tiebreaks.parse(code)
    return str(NAMES.get(spec.acronym, spec.name))


def team_tiebreak_name(code: str) -> str:
    head = code.split("/")[0].split(":")[0].upper()
    return str(TEAM_NAMES.get(head, parse_team(code).name))


def catalogue(teams: bool = False) -> list[tuple[str, str, str]]:
    """(acronym, name, modifiers) for the page's table: the individual catalogue or the team one."""
    if teams:
        return [
            (code, str(TEAM_NAMES.get(code, name)), " ".join(_team_modifiers(variants, mods)))
            for code, (name, variants, mods) in TEAM_CATALOGUE.items()
        ]
    return [
        (code, str(NAMES.get(code, name)), " ".join("/" + m for m in mods))
        for code, (name, mods) in tiebreaks.CATALOGUE.items()
    ]


def _team_modifiers(variants: str, mods: str) -> list[str]:
    shown = {"S": [":MP", ":GP"], "E": [":MM", ":MG", ":GM", ":GG"]}.get(variants, [])
    return shown + ["/" + m + ("n" if m in "CMK" else "") for m in mods]


# ------------------------------------------------------------------------------------------ prize table

# ASCII digits, at most 9 before the decimals (an amount) or 6 (a rating or an age): `\d` would also take
# other scripts' digits, and a number of thousands of digits is no prize.
_ITEM = re.compile(r"^(?P<amount>[0-9]{1,9}(?:[.,][0-9]{1,2})?(?![0-9]))?\s*\+?\s*(?P<label>.*)$")
_RANGE = re.compile(r"^(?P<low>[0-9]{1,6})?\s*(?P<dash>-)?\s*(?P<high>[0-9]{1,6})?$")
GROUP_KINDS = {
    "rating": "rating",
    "age": "age",
    "women": "women",
    "strength": "strength",
}


def parse_prize_items(text: str) -> list[list[str]]:
    """`100, 60, 40 + cup, book` -> [["100", ""], ["60", ""], ["40", "cup"], ["0", "book"]]."""
    items = []
    for raw in text.split(","):
        raw = raw.strip()
        if not raw:
            continue
        match = _ITEM.match(raw)
        if match is None or (not match["amount"] and raw[:1].isdigit()):
            raise ValidationError(_("“%(item)s” is not a prize.") % {"item": raw})
        amount = (match["amount"] or "0").replace(",", ".")
        items.append([amount, match["label"].strip()])
    return items


def format_prize_items(items: list[list[str]]) -> str:
    parts = []
    for amount, label in items:
        cash = Decimal(amount) != 0
        parts.append(" + ".join(p for p in (amount if cash else "", label) if p) or "0")
    return ", ".join(parts)


def parse_groups(text: str) -> list[dict]:
    """One group a line: `name; kind; range; prizes`, e.g. `Under 1800; rating; -1799; 50, 25`.

    Kinds: rating (a rating range), age (an age range in full years: `-15`, `65-`), women, strength
    (a Keizer strength group number). ValidationError names the line.
    """
    groups = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split(";")]
        if len(parts) != 4 or not parts[0]:
            raise ValidationError(
                _("Line %(n)s: write name; kind; range; prizes (e.g. Under 1800; rating; -1799; 50, 25).")
                % {"n": number}
            )
        name, kind, span, prize_text = parts
        if kind.lower() not in GROUP_KINDS:
            raise ValidationError(
                _("Line %(n)s: “%(kind)s” is not a kind of prize group (rating, age, women, strength).")
                % {"n": number, "kind": kind}
            )
        match = _RANGE.match(span)
        if match is None:
            raise ValidationError(_("Line %(n)s: “%(range)s” is not a range such as 1500-1799, -15 or 65-.") % {
                "n": number, "range": span})  # fmt: skip
        low = int(match["low"]) if match["low"] else None
        high = int(match["high"]) if match["high"] else None
        if match["low"] and not match["dash"]:
            high = low  # a single number: a strength group, or one exact value
        group = {"name": name, "kind": GROUP_KINDS[kind.lower()], "low": low, "high": high,
                 "prizes": parse_prize_items(prize_text)}  # fmt: skip
        try:
            _rule(group)
        except InvalidInput as error:
            raise ValidationError(_("Line %(n)s: %(error)s") % {"n": number, "error": error}) from error
        groups.append(group)
    return groups


def format_groups(groups: list[dict]) -> str:
    lines = []
    for g in groups:
        low, high = g.get("low"), g.get("high")
        if low is not None and low == high:
            span = str(low)
        elif low is None and high is None:
            span = ""
        else:
            span = f"{'' if low is None else low}-{'' if high is None else high}"
        lines.append(f"{g['name']}; {g['kind']}; {span}; {format_prize_items(g.get('prizes', []))}")
    return "\n".join(lines)


def _prize_list(items: list[list[str]]) -> tuple[prizes.Prize, ...]:
    return tuple(prizes.Prize(Decimal(amount), label) for amount, label in items)


def _rule(group: dict) -> prizes.GroupRule:
    return prizes.GroupRule(group["name"], group["kind"], _prize_list(group.get("prizes", [])), group.get("low"),
                            group.get("high"))  # fmt: skip


def sharing_of(competition: Competition, table: PrizeTable | None) -> str:
    return (table.sharing if table else "") or prizes.default_sharing(competition.system)


class PrizeTableForm(PickerMixin, forms.ModelForm):
    main_text = forms.CharField(
        label=gettext_lazy("prizes by place"),
        required=False,
        widget=forms.TextInput(attrs={"size": 60}),
        help_text=gettext_lazy("Separated by commas, first place first; text is an honour prize: 200, 100 + cup, 50"),
    )
    groups_text = forms.CharField(
        label=gettext_lazy("prize groups"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 70}),
        help_text=gettext_lazy(
            "One a line: name; kind; range; prizes. Kinds: rating (-1799, 1500-1799), age (-15, 65-), women, "
            "strength (a Keizer strength group: 1, 2, 3)."
        ),
    )

    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)  # `adapter.PRIZE_ACTIONS`

    class Meta:
        model = PrizeTable
        fields = ["sharing", "one_prize_each", "currency", "age_on"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and not self.is_bound:
            self.initial["main_text"] = format_prize_items(self.instance.main)
            self.initial["groups_text"] = format_groups(self.instance.groups)

    def clean_main_text(self) -> list[list[str]]:
        return parse_prize_items(self.cleaned_data["main_text"])

    def clean_groups_text(self) -> list[dict]:
        return parse_groups(self.cleaned_data["groups_text"])

    def save(self, commit: bool = True) -> PrizeTable:
        table = super().save(commit=False)
        table.main = self.cleaned_data["main_text"]
        table.groups = self.cleaned_data["groups_text"]
        return table  # saved by `pairing.services.save_prize_table`


# ------------------------------------------------------------------------------------------ prize list


@dataclass
class AwardLine:
    """One line of the prize list: a winner's name, never his private data."""

    category: str
    award: prizes.Award
    participant: Participant

    @property
    def places(self) -> str:
        a = self.award
        return str(a.place) if not a.shared else f"{a.first}-{a.last}"


@dataclass
class PrizeList:
    table: PrizeTable | None
    sharing: str
    lines: list[AwardLine]
    categories: list[str]
    final: bool

    @property
    def sharing_label(self) -> str:
        return str(dict(PrizeTable.Sharing.choices)[self.sharing])


def _placings(data: CompetitionData) -> tuple[list[prizes.Placing], dict[int, int]]:
    """The final order (qualifying players only for Keizer, seed 003 §1.5) and Keizer strength groups."""
    if data.competition.engine.own_standings:
        table, _rows = standings.keizer_standings(data)
        lines = table.published
        order = [prizes.Placing(line.player, line.total, line.rank) for line in lines]
        return order, {line.player: line.group for line in table.rows}
    _names, rows = standings.standings(data)
    return [prizes.Placing(r.participant.start_number, r.points, int(r.rank.split("-")[0])) for r in rows], {}


def _age_date(data: CompetitionData, table: PrizeTable | None) -> date:
    if table and table.age_on:
        return table.age_on
    paired = [r.paired_at for r in data.rounds if r.paired_at]
    return (min(paired) if paired else timezone.now()).date()


def prize_list(data: CompetitionData) -> PrizeList:
    """Who receives which prize, by the competition's prize table and regulation."""
    competition = data.competition
    table = PrizeTable.objects.filter(competition=competition).first()
    sharing = sharing_of(competition, table)
    final = competition.status == Competition.Status.FINISHED
    if table is None:
        return PrizeList(None, sharing, [], [], final)
    order, strength = _placings(data)
    by_start = {p.start_number: p for p in data.participants}
    on = _age_date(data, table)
    rules = [_rule(g) for g in table.groups]
    entrants = [
        prizes.Entrant(p.start_number, p.rating, p.member.sex, p.member.birth_date, strength.get(p.start_number))
        for p in data.participants
    ]
    groups = [(rule.prizes, {e.player for e in entrants if rule.admits(e, on)}) for rule in rules]
    result = prizes.distribute(order, _prize_list(table.main), groups, sharing, table.one_prize_each)
    categories = [_("Main prizes")] + [rule.name for rule in rules]
    lines = [AwardLine(categories[a.category], a, by_start[a.player]) for a in result.awards]
    return PrizeList(table, sharing, lines, categories, final)
