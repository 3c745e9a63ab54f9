"""A competition's final-standings settings: its tie-break list, its prize table, and the prize list.

The maths is pure (`pairing.engines.tiebreaks`, `pairing.engines.prizes`); this module reads and
writes the settings, checks what the TD typed, and feeds the standings to the prize distribution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pairing.engines import prizes, tiebreaks
from pairing.engines.state import InvalidInput

from . import standings
from .models import Competition, Participant, PrizeTable, TDAction
from .state import CompetitionData

# ------------------------------------------------------------------------------------------ tie-breaks


def default_codes(system: str) -> list[str]:
    """The system's regulation (pairing.engines.tiebreaks.DEFAULTS), points aside."""
    return [code for code in tiebreaks.default_tiebreaks(system) if code != "PTS"]


def parse_codes(text: str) -> list[str]:
    """Codes separated by commas, spaces or new lines, each checked against the catalogue.

    A leading PTS is dropped (points always come first). ValidationError names every bad code.
    """
    found: list[str] = []
    errors: list[str] = []
    for raw in re.split(r"[,;\s]+", text.strip()):
        if not raw:
            continue
        try:
            spec = tiebreaks.parse(raw)
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


def tiebreaks_locked(competition: Competition) -> bool:
    """The list may change freely until round 1 is paired."""
    return competition.round_set.filter(paired_at__isnull=False).exists()


@transaction.atomic
def set_tiebreaks(competition: Competition, codes: list[str], user, override: bool = False) -> None:
    """Store the list (empty: the system's regulation); after round 1 only with an override, recorded."""
    new = [] if codes == default_codes(competition.system) else codes
    old = list(competition.tiebreaks or [])
    if new == old:
        return
    locked = tiebreaks_locked(competition)
    if locked and not override:
        raise ValidationError(
            _("Round 1 has been paired: the tie-breaks can only change with an explicit override, which is recorded.")
        )
    competition.tiebreaks = new
    competition.save(update_fields=["tiebreaks"])
    shown_old = ", ".join(old or default_codes(competition.system))
    shown_new = ", ".join(new or default_codes(competition.system))
    TDAction.objects.create(
        competition=competition,
        user=user,
        action="tiebreaks override" if locked else "tiebreaks",
        detail=f"{shown_old} -> {shown_new}",
    )


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

    def clean_codes(self) -> list[str]:
        return parse_codes(self.cleaned_data["codes"])


def catalogue() -> list[tuple[str, str, str]]:
    """(acronym, name, modifiers) for the page's table."""
    return [(code, name, " ".join("/" + m for m in mods)) for code, (name, mods) in tiebreaks.CATALOGUE.items()]


# What an explanation's rounds were (pairing.engines.tiebreaks.rules.unplayed_label), for the pages.
WHAT = {
    "game": gettext_lazy("game"),
    "forfeit win": gettext_lazy("forfeit win"),
    "forfeit loss": gettext_lazy("forfeit loss"),
    "forfeit draw": gettext_lazy("forfeit draw"),
    "forfeit counted as played": gettext_lazy("forfeit counted as played"),
    "pairing-allocated bye": gettext_lazy("pairing-allocated bye"),
    "full-point bye": gettext_lazy("full-point bye"),
    "half-point bye": gettext_lazy("half-point bye"),
    "zero-point bye": gettext_lazy("zero-point bye"),
    "absent": gettext_lazy("absent"),
    "club match": gettext_lazy("club match"),
}


# ------------------------------------------------------------------------------------------ prize table

_ITEM = re.compile(r"^(?P<amount>\d+(?:[.,]\d{1,2})?)?\s*\+?\s*(?P<label>.*)$")
_RANGE = re.compile(r"^(?P<low>\d+)?\s*(?P<dash>-)?\s*(?P<high>\d+)?$")
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
        assert match is not None  # the pattern matches every text
        amount = (match["amount"] or "0").replace(",", ".")
        try:
            Decimal(amount)
        except InvalidOperation as error:  # pragma: no cover - the pattern admits numbers only
            raise ValidationError(_("“%(item)s” is not a prize.") % {"item": raw}) from error
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


class PrizeTableForm(forms.ModelForm):
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

    class Meta:
        model = PrizeTable
        fields = ["sharing", "one_prize_each", "currency", "age_on"]
        widgets = {"age_on": forms.DateInput(attrs={"type": "date"})}

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
        if commit:
            table.save()
        return table


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
    if data.competition.system == "keizer":
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
