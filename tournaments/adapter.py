"""The one adapter between the pages and the engines: every state change of every competition kind.

Swiss systems, round robins, Keizer, knockout, Gladiator and team events are paired, re-paired, given
results and further games, published, finished and undone here: load the engine state, call the engine
through the registry (`pairing.engines.registry`), save in one transaction, so a failed action leaves
nothing behind. Entries, absences and settings go through here as well. Every action first passes
`_changed`, the one hook for a state change: it locks the competition's row and raises its version (and
is where an audit row belongs). The views call these functions and write no model themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.history import BOARD_ACTIONS, action_name, author, moment
from audit.log import boards, record, values
from audit.models import AuditEntry
from clubs.models import Club, Member
from pairing.engines import notes, registry
from pairing.engines.state import EngineError, NoValidPairing, Pairing, TournamentState

from . import gladiator, groups, knockout, prizes, services, trf_io, versioning
from .models import Bye, Competition, ForbiddenPair, Game, Participant, PrizeTable, Result, Round
from .notes import render_note
from .services import check_decided
from .state import BYE_KINDS, ENGINE_TO_BYE, CompetitionData, forbidden_pairs

# Sent inside the transaction of every state change: competition (the locked row), action, user.
state_changed = Signal()


class StaleAction(ValidationError):
    """The page the action came from is out of date (a double click, another TD): nothing was changed."""


def _changed(competition: Competition | int, action: str, user, read=None) -> Competition:
    """The one hook every state change of a competition passes, first thing inside its transaction.

    Raises the competition's version (`tournaments.versioning`), so its cached pages are renewed when
    the transaction commits; the statement locks the competition's row, so two actions on one
    competition run one after the other and the second sees what the first did. Then reads the row
    afresh, with its club, and tells the `state_changed` receivers. Returns the locked row. `read`:
    a function returning it (reading it with the row the action is about, in one query).
    """
    pk = getattr(competition, "pk", competition)  # an instance or its primary key
    versioning.bump(pk)
    if read is None:
        locked = Competition.objects.select_for_update(of=("self",)).select_related("club").get(pk=pk)
    else:
        locked = read()
    state_changed.send(sender=Competition, competition=locked, action=action, user=user)
    return locked


def settings_values(competition: Competition) -> dict:
    """A competition's settings as the audit log keeps them, before and after a change."""
    return values(competition, "name", "slug", "system", "settings", "rounds", "gladiator", "late_entry_points",
                  "season", "previous", "tiebreaks", "time_control")  # fmt: skip


def member_values(member: Member) -> dict:
    return values(member, "first_name", "last_name", "sex", "birth_date", "title", "fide_id", "fide_rating",
                  "federation", "national_id", "national_rating", "is_guest")  # fmt: skip


def next_round_number(competition: Competition) -> int:
    return competition.round_set.next_number()


@dataclass
class PlannedRound:
    """A round computed but not yet saved: the engine's pairing of the state it was computed from."""

    number: int
    state: TournamentState
    pairing: Pairing


def plan_next_round(competition: Competition, data: CompetitionData | None = None) -> PlannedRound:
    """Compute the next round's pairing without writing anything (a worker may do this outside any
    transaction); ValidationError when the round cannot be paired, naming why. `data`: the competition
    as loaded already (`CompetitionData.load`), else it is loaded here; one load whatever the field."""
    if competition.engine.bracket:  # matches of several games: tournaments.knockout
        raise ValidationError(_("A knockout is drawn match by match."))
    data = data or CompetitionData.load(competition)
    number = _next_number(data)
    planned = competition.planned_rounds()
    if planned and number > planned:
        raise ValidationError(_("All %(n)s rounds have been paired.") % {"n": planned})
    if len(data.participants) < 2:
        raise ValidationError(_("Enter at least two players before pairing."))
    previous = next((r for r in data.rounds if r.number == number - 1), None)
    if previous and any(g.round_id == previous.pk and g.result == Result.PENDING for g in data.games):
        raise ValidationError(_("Round %(n)s still has games without a result.") % {"n": previous.number})
    if previous and previous.status == Round.Status.DRAFT:
        raise ValidationError(_("Publish round %(n)s first.") % {"n": previous.number})
    if previous and competition.gladiator:  # every encounter needs its winner (seed 004 §4.9.8)
        check_decided(competition, previous.number)
    state = _state(competition, number, data)
    try:
        pairing = registry.pair(state, competition.system)
    except NoValidPairing as error:
        raise ValidationError(_("No valid pairing exists: %(why)s") % {"why": render_note(error.note)}) from error
    except EngineError as error:
        raise ValidationError(render_note(error.note)) from error
    return PlannedRound(number, state, pairing)


def _next_number(data: CompetitionData) -> int:
    """`next_round_number`, read from the loaded rounds."""
    return max((r.number for r in data.rounds if r.is_paired), default=0) + 1


def _state(competition: Competition, number: int, data: CompetitionData | None = None) -> TournamentState:
    """The engine's input for pairing round `number`: the rounds before it and the byes asked for it."""
    data = data or CompetitionData.load(competition)
    state = data.state(upto_round=number - 1, round_to_pair=number)
    if competition.engine.forbidden_pairs:  # the settings page says when the system cannot honour them
        state.forbidden = forbidden_pairs(competition)
    start_of = {p.id: p.start_number for p in data.participants}
    for bye in data.byes:
        if bye.round.number == number:
            state.requested_byes[start_of[bye.participant_id]] = BYE_KINDS[bye.kind]
    return state


@versioning.one_action
def save_planned_round(competition: Competition, plan: PlannedRound, user) -> Round:
    """Save a planned round as a draft. When the competition changed since the plan was computed (a
    result corrected, a player added), the round is paired again from the new state, here."""
    return _save_planned_round(_changed(competition, "pair", user), plan, user)


def _save_planned_round(
    competition: Competition, plan: PlannedRound, user, data: CompetitionData | None = None
) -> Round:
    """Save `plan`. `data`: the competition loaded under its lock, when `plan` was computed from it (no need
    to compute it again); without it the competition is loaded and the plan checked against it."""
    if data is None:
        data = CompetitionData.load(competition)
        if _next_number(data) != plan.number or _state(competition, plan.number, data) != plan.state:
            plan = plan_next_round(competition, data)
    number = plan.number
    previous = next((r for r in data.rounds if r.number == number - 1), None)
    if previous and previous.status == Round.Status.PUBLISHED:
        record(user, "finish", previous, {"status": previous.status}, {"status": Round.Status.FINISHED})
        previous.status = Round.Status.FINISHED
        previous.save(update_fields=["status"])
    explanation = [notes.to_json(note) for note in plan.pairing.explanation]
    rnd = next((r for r in data.rounds if r.number == number), None)
    fields = {"explanation": explanation, "paired_at": timezone.now(), "status": Round.Status.DRAFT}
    if rnd is None:  # the usual case: no absence was asked for the round, it has no row yet
        rnd = Round.objects.create(competition=competition, number=number, **fields)
    else:  # the row holding the absences asked for the round
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        for name, value in fields.items():
            setattr(rnd, name, value)
        rnd.save()
    rnd.competition = competition
    games, byes = save_pairing(rnd, plan.pairing, data.participants, skip_byes=set(plan.state.requested_byes))
    by_id = data.by_id
    byes += [b for b in data.byes if b.round_id == rnd.pk]
    for bye in byes:
        bye.participant = by_id[bye.participant_id]
    record(user, "pair", rnd, None, boards(rnd, games, byes))
    return rnd


@versioning.one_action
def pair_next_round(competition: Competition, user, expected: int | None = None) -> Round:
    """Pair the next round with the competition's system and save it as a draft.

    `expected`: the round number the TD's page offered to pair; when another action paired it
    first (a double click), `StaleAction` says so and nothing changes.
    """
    competition = _changed(competition, "pair", user)
    if competition.engine.bracket:  # matches of several games: tournaments.knockout
        number = knockout.Cup.load(competition).next_round_number() or next_round_number(competition)
        if expected is not None and expected != number:
            raise StaleAction(_("Round %(n)s is already paired.") % {"n": expected}, code="stale")
        return knockout.pair_round(competition, user)
    data = CompetitionData.load(competition)
    if expected is not None and expected != _next_number(data):
        raise StaleAction(_("Round %(n)s is already paired.") % {"n": expected}, code="stale")
    return _save_planned_round(competition, plan_next_round(competition, data), user, data)


def save_pairing(
    rnd: Round, pairing: Pairing, participants: list[Participant], skip_byes: set[int]
) -> tuple[list[Game], list[Bye]]:
    """Write an engine's boards and byes into `rnd`, refusing a pairing that books a player twice; returns
    the games and byes written (two statements, whatever the field)."""
    by_start = {p.start_number: p for p in participants}
    seen: set[int] = set()
    for number in [n for b in pairing.boards for n in (b.white, b.black)] + [b.player for b in pairing.byes]:
        if number not in by_start:
            raise ValidationError(_("Start number %(n)s is not in this competition.") % {"n": number})
        if number in seen:
            raise ValidationError(
                _("%(name)s is paired twice in round %(round)s.") % {"name": by_start[number].name, "round": rnd.number}
            )
        seen.add(number)
    withdrawn = {
        p.start_number for p in participants if p.withdrawn_after is not None and p.withdrawn_after < rnd.number
    }
    games = []
    for board_number, board in enumerate(pairing.boards, start=1):
        result = Result.PENDING
        if board.white in withdrawn and board.black in withdrawn:
            result = Result.DOUBLE_FORFEIT
        elif board.black in withdrawn:
            result = Result.WHITE_FORFEIT_WIN
        elif board.white in withdrawn:
            result = Result.BLACK_FORFEIT_WIN
        white, black = by_start[board.white], by_start[board.black]
        # Gladiator: each board is an encounter, numbered like a knockout match (tournaments.gladiator).
        match = board_number if rnd.competition.gladiator else None
        games.append(Game(round=rnd, board=board_number, white=white, black=black, result=result, match=match))
    Game.objects.bulk_create(games)
    byes = Bye.objects.bulk_create(
        Bye(round=rnd, participant=by_start[bye.player], kind=ENGINE_TO_BYE[bye.kind], points=bye.points)
        for bye in pairing.byes
        if bye.player not in skip_byes
    )
    return games, byes


@dataclass(frozen=True)
class RuleBreak:
    rule: str
    message: str


# The rules a hand-made board may break, as the audit log names an override of them.
RULE_NAMES = {
    "withdrawn": gettext_lazy("a withdrawn player"),
    "absent": gettext_lazy("a player marked absent"),
    "rematch": gettext_lazy("two players meet only once"),
    "forbidden": gettext_lazy("a forbidden pair"),
}


def check_board(rnd: Round, white: Participant, black: Participant) -> list[RuleBreak]:
    """Absolute rules a hand-made board may break (those an override may set aside)."""
    breaks = []
    if white.withdrawn_after is not None and white.withdrawn_after < rnd.number:
        breaks.append(RuleBreak("withdrawn", _("%(name)s has withdrawn.") % {"name": white.name}))
    if black.withdrawn_after is not None and black.withdrawn_after < rnd.number:
        breaks.append(RuleBreak("withdrawn", _("%(name)s has withdrawn.") % {"name": black.name}))
    absent = set(rnd.byes.exclude(kind=Bye.Kind.PAIRING_BYE).values_list("participant_id", flat=True))
    for p in (white, black):
        if p.id in absent:
            breaks.append(RuleBreak("absent", _("%(name)s is marked absent this round.") % {"name": p.name}))
    met = Game.objects.filter(round__competition=rnd.competition, round__number__lt=rnd.number).filter(
        white__in=[white, black], black__in=[white, black]
    )
    if met.over_the_board().exists():
        breaks.append(
            RuleBreak(
                "rematch",
                _("%(a)s and %(b)s have already played each other (two players meet only once).")
                % {"a": white.name, "b": black.name},
            )
        )
    numbers = {white.start_number, black.start_number}
    bans = forbidden_pairs(rnd.competition) if rnd.competition.engine.forbidden_pairs else []
    if any(numbers <= set(ban.players) and ban.applies(rnd.number) for ban in bans):
        breaks.append(
            RuleBreak(
                "forbidden",
                _("%(a)s and %(b)s must not meet in this round (a forbidden pair).")
                % {"a": white.name, "b": black.name},
            )
        )
    return breaks


def _locked_round(rnd: Round, override: bool) -> list[Game]:
    if rnd.status != Round.Status.DRAFT and not override:
        raise ValidationError(_("Round %(n)s is published: changing it needs the override.") % {"n": rnd.number})
    return list(rnd.games.select_for_update().select_related("white__member", "black__member"))


@versioning.one_action
def exchange_players(
    rnd: Round, a: Participant, b: Participant, user, override: bool = False, based_on: int | None = None
) -> None:
    """Two players trade places (board and colour); with a bye, the other takes the bye.

    Every player stays on exactly one board. Absolute rules the new boards
    would break (rematch, forbidden pair, absentee, withdrawn player) refuse the change with
    the rule named unless the TD confirms the override, which is recorded. A
    published round changes only with the override. `based_on`: what the TD's page showed of the boards
    (`boards_seen`); when they changed since, StaleAction says what changed, by whom and when.
    """
    _changed(rnd.competition, "exchange", user)
    _check_boards(rnd, based_on)
    if a == b:
        raise ValidationError(_("Choose two different players."))
    games = _locked_round(rnd, override)
    touched = [g for g in games if {g.white_id, g.black_id} & {a.id, b.id}]
    if any(g.result for g in touched):
        raise ValidationError(_("A game with a result cannot be re-paired."))
    swap = {a.id: b, b.id: a}
    for g in touched:
        g.white = swap.get(g.white_id, g.white)
        g.black = swap.get(g.black_id, g.black)
        if g.white_id == g.black_id:
            raise ValidationError(_("A player cannot play himself."))
    breaks = [rule for g in touched for rule in check_board(rnd, g.white, g.black)]
    if breaks and not override:
        raise ValidationError([ValidationError(br.message, code="rule") for br in breaks])
    byes = list(rnd.byes.filter(participant__in=[a, b], kind=Bye.Kind.PAIRING_BYE))
    for bye in byes:
        bye.participant = swap[bye.participant_id]
    before = boards(rnd)
    # Clear the boards first so the players' moves never look like a double booking.
    Game.objects.filter(pk__in=[g.pk for g in touched]).delete()
    for g in touched:
        g.pk = None
        g.save()
    Bye.objects.filter(pk__in=[bye.pk for bye in byes]).delete()
    for bye in byes:
        bye.pk = None
        bye.save()
    params = {"players": [a.start_number, b.start_number]} | _overridden(breaks)
    record(user, "exchange-players", rnd, before, boards(rnd), params=params)


@versioning.one_action
def swap_colours(rnd: Round, game: Game, user, override: bool = False, based_on: int | None = None) -> None:
    """A board's colours swapped; `based_on` as for `exchange_players`."""
    _changed(rnd.competition, "swap-colours", user)
    _check_boards(rnd, based_on)
    _locked_round(rnd, override)
    if game.result:
        raise ValidationError(_("A game with a result cannot be re-paired."))
    before = boards(rnd)
    game.white, game.black = game.black, game.white
    game.save(update_fields=["white", "black"])
    record(user, "swap-colours", rnd, before, boards(rnd), params={"board": game.board})


def _check_boards(rnd: Round, based_on: int | None) -> None:
    """Refuse a change of boards the TD's page did not show (`based_on`: its `boards_seen`; None: not known)."""
    if based_on is None:
        return
    latest = _board_entries(rnd).first()
    if (latest.pk if latest else 0) == based_on:
        return
    if latest is None:
        raise StaleAction(_("Round %(n)s is not the round your page showed.") % {"n": rnd.number}, code="stale")
    values = {"n": rnd.number, "what": action_name(latest), "who": author(latest), "when": moment(latest.at)}
    raise StaleAction(
        _(
            "Round %(n)s changed after your page was shown (%(what)s, by %(who)s at %(when)s): nothing was "
            "changed. Check the boards, then try again."
        )
        % values,
        code="stale",
    )


def _overridden(breaks: list[RuleBreak]) -> dict[str, list[str]]:
    """The audit log's parameter naming the rules an override set aside (codes of `RULE_NAMES`)."""
    return {"override": list(dict.fromkeys(br.rule for br in breaks))} if breaks else {}


# Results and the games a match or an encounter needs ------------------------------------------------


@versioning.one_action
def set_result(game: Game, result: str, user, override: bool = False, based_on: str | None = None) -> Game:
    """Enter or correct a result: a knockout match and a Gladiator encounter decide what they can take."""
    games = Game.objects.select_for_update(of=("self", "round", "round__competition"))
    games = games.select_related("round__competition__club", "white__member", "black__member")
    read: list[Game] = []  # the game, its round and competition, read in one query under the lock

    def locked() -> Competition:
        read.append(games.get(pk=game.pk))
        return read[0].round.competition

    competition = _changed(game.round.competition_id, "result", user, read=locked)
    fresh = read[0]
    shown = fresh.result
    try:
        if competition.engine.bracket:
            saved = knockout.set_game_result(fresh, result, user, based_on=based_on)
        elif competition.gladiator:
            saved = gladiator.set_game_result(fresh, result, user, override=override, based_on=based_on)
        else:
            saved = services.set_result(fresh, result, user, override=override, based_on=based_on, locked=True)
    except BaseException:
        game.result = shown  # the caller's copy shows what the board holds
        raise
    game.result = saved.result
    return saved


@versioning.one_action
def add_next_games(rnd: Round, user, match: int | None = None, based_on: int | None = None) -> list[Game]:
    """The next game of every open knockout match (or of `match`), or of Gladiator encounter `match`;
    `based_on` is what the TD's page showed of the boards (`boards_seen`), checked as for an exchange."""
    competition = _changed(rnd.competition, "add-games", user)
    _check_boards(rnd, based_on)
    if competition.engine.bracket:
        return knockout.add_next_games(rnd, user, match)
    if match is None:
        raise ValidationError(_("Choose the encounter that needs a game."))
    return [gladiator.add_next_game(rnd, match, user)]


@versioning.one_action
def set_club_match_result(bye: Bye, text: str, user) -> None:
    _changed(bye.round.competition, "club-match-result", user)
    services.set_club_match_result(bye, text, user)


# Publish, finish, undo ---------------------------------------------------------------------------


def boards_seen(rnd: Round) -> int:
    """What a page showing the boards of `rnd` is based on: the id of the audit log's latest entry that
    changed them (paired, exchanged, colours swapped, undone; 0 for none)."""
    return _board_entries(rnd).values_list("id", flat=True).first() or 0


def _board_entries(rnd: Round):
    entries = AuditEntry.objects.filter(competition_id=rnd.competition_id, round_number=rnd.number)
    return entries.filter(action__in=BOARD_ACTIONS).order_by("-id")


@versioning.one_action
def publish(rnd: Round, user, based_on: int | None = None) -> None:
    """Publish a paired round. The round is read again under the competition's lock, never trusted from
    the caller. `based_on` is what the TD's page showed of its boards (`boards_seen`): when they changed
    since (undone and paired again, players exchanged: another TD, another tab), StaleAction says what
    changed, by whom and when, and nothing is published."""
    _changed(rnd.competition, "publish", user)
    fresh = Round.objects.select_related("competition").get(pk=rnd.pk)
    if based_on is not None:
        latest = _board_entries(fresh).first()
        if (latest.pk if latest else 0) != based_on:
            raise _stale_boards(fresh, latest)
    services.publish(fresh, user)
    rnd.status, rnd.published_at = fresh.status, fresh.published_at  # the caller's copy shows what was saved


def _stale_boards(rnd: Round, latest: AuditEntry | None) -> StaleAction:
    if latest is None:  # the entry the page saw is not the latest, yet none is left: a page of another round
        return StaleAction(_("Round %(n)s is not the round your page showed.") % {"n": rnd.number}, code="stale")
    values = {"n": rnd.number, "what": action_name(latest), "who": author(latest), "when": moment(latest.at)}
    return StaleAction(
        _(
            "Round %(n)s changed after your page was shown (%(what)s, by %(who)s at %(when)s): nothing was "
            "published. Check the boards, then publish."
        )
        % values,
        code="stale",
    )


@versioning.one_action
def finish(rnd: Round, user) -> None:
    """Close a round. The round is read again under the competition's lock: one closed meanwhile (a double
    click, another TD) is not closed twice; StaleAction says who closed it and when."""
    _changed(rnd.competition, "finish", user)
    fresh = Round.objects.select_related("competition").get(pk=rnd.pk)
    if fresh.status == Round.Status.FINISHED:
        closed = AuditEntry.objects.filter(competition_id=fresh.competition_id, round_number=fresh.number)
        closed = closed.filter(action="finish").order_by("-id").first()
        if closed is None:
            raise StaleAction(_("Round %(n)s is closed already.") % {"n": fresh.number}, code="stale")
        values = {"n": fresh.number, "who": author(closed), "when": moment(closed.at)}
        raise StaleAction(_("Round %(n)s was closed meanwhile, by %(who)s at %(when)s.") % values, code="stale")
    services.finish(fresh, user)
    rnd.status = fresh.status  # the caller's copy shows what was saved


@versioning.one_action
def undo_last_round(competition: Competition, user, expected: int | None = None, based_on: int | None = None) -> int:
    """Remove the last paired round. `expected` is the round the TD's page offered to undo and `based_on` what
    it showed of its boards (`boards_seen`): when another round became the last one (a double click, another
    TD) or the boards changed since, StaleAction says what changed, by whom and when, and nothing is undone."""
    competition = _changed(competition, "undo-round", user)
    if expected is not None:
        last = competition.round_set.last_paired()
        if last is None or last.number != expected:
            raise _stale_undo(expected, _competition_board_entries(competition).first(), moved=True)
        if based_on is not None and boards_seen(last) != based_on:
            raise _stale_undo(expected, _board_entries(last).first(), moved=False)
    return services.undo_last_round(competition, user)


def _competition_board_entries(competition: Competition):
    entries = AuditEntry.objects.filter(competition_id=competition.pk, action__in=BOARD_ACTIONS)
    return entries.order_by("-id")


def _stale_undo(number: int, latest: AuditEntry | None, moved: bool) -> StaleAction:
    """A refused undo: another round became the last paired one (`moved`) or the round's boards changed;
    `latest` is the audit entry that did it."""
    if latest is None:
        return StaleAction(_("Round %(n)s is not the round your page showed.") % {"n": number}, code="stale")
    values = {"n": number, "what": action_name(latest), "who": author(latest), "when": moment(latest.at)}
    if moved:
        text = _(
            "Round %(n)s is no longer the last paired round (%(what)s, by %(who)s at %(when)s): nothing was "
            "undone. Check the rounds, then undo again."
        )
    else:
        text = _(
            "Round %(n)s changed after your page was shown (%(what)s, by %(who)s at %(when)s): nothing was "
            "undone. Check the rounds, then undo again."
        )
    return StaleAction(text % values, code="stale")


# Competitions, entries, absences and settings ----------------------------------------------------

# What a settings, tie-break or entries page shows, by the audit log's actions that change it.
SETTINGS_ACTIONS = ("settings", "settings-override", "cup-format", "teams")
TIEBREAK_ACTIONS = ("tiebreaks", "tiebreaks-override", "unrated-opponents", "unrated-opponents-override")
ENTRY_ACTIONS = ("participant-add", "late-entry", "withdraw")
FORBIDDEN_ACTIONS = ("forbid-pair", "allow-pair")


def seen(competition: Competition, actions: tuple[str, ...]) -> int:
    """What a page showing a competition's settings, tie-breaks or entries is based on: the id of the audit
    log's latest entry among `actions` (`SETTINGS_ACTIONS`, `TIEBREAK_ACTIONS`, `ENTRY_ACTIONS`; 0 for none)."""
    entries = AuditEntry.objects.filter(competition_id=competition.pk, action__in=actions).order_by("-id")
    return entries.values_list("id", flat=True).first() or 0


def _check_seen(competition: Competition, actions: tuple[str, ...], based_on: int | None) -> None:
    """Refuse a change based on a page that no longer shows the competition as it is (a double click,
    another TD): StaleAction names what changed, by whom and when; None: not known, not checked."""
    if based_on is None:
        return
    latest = AuditEntry.objects.filter(competition_id=competition.pk, action__in=actions).order_by("-id").first()
    if (latest.pk if latest else 0) == based_on:
        return
    if latest is None:
        raise StaleAction(_("Your page showed another competition; reload the page."), code="stale")
    values = {"what": action_name(latest), "who": author(latest), "when": moment(latest.at)}
    raise StaleAction(
        _(
            "This changed after your page was shown (%(what)s, by %(who)s at %(when)s): nothing was saved. "
            "Check the page, then try again."
        )
        % values,
        code="stale",
    )


@versioning.one_action
def create_competition(competition: Competition, members: list[Member], user) -> Competition:
    """Save a new competition (a form's unsaved instance) with its first entries."""
    competition.save()
    _changed(competition, "create", user)
    record(user, "competition-create", competition, None, settings_values(competition))
    services.add_participants(competition, members, user)
    return competition


@versioning.one_action
def import_trf(club: Club, text: str, user, **fields) -> Competition:
    """A TRF file as a new competition (`tournaments.trf_io`); a malformed file saves nothing."""
    competition = trf_io.import_trf(club, text, user=user, **fields)
    _changed(competition, "import", user)
    return competition


@versioning.one_action
def add_participants(
    competition: Competition, members: list[Member], user, based_on: int | None = None
) -> list[Participant]:
    """Enter members; `based_on` is what the TD's page showed of the entries (`seen`, `ENTRY_ACTIONS`)."""
    competition = _changed(competition, "enter", user)
    _check_seen(competition, ENTRY_ACTIONS, based_on)
    return services.add_participants(competition, members, user)


@versioning.one_action
def add_guest(competition: Competition, guest: Member, user, based_on: int | None = None) -> Participant:
    """Save a guest (a form's unsaved member) as a member of the competition's club, and enter him;
    `based_on` as for `add_participants`."""
    competition = _changed(competition, "enter", user)
    _check_seen(competition, ENTRY_ACTIONS, based_on)
    guest.club = competition.club
    guest.is_guest = True
    guest.save()
    record(user, "member-add", guest, None, member_values(guest))
    return services.add_participant(competition, guest, user)


@versioning.one_action
def withdraw(participant: Participant, user, based_on: int | None = None) -> None:
    """Withdraw a player from the rounds to come; `based_on` as for `add_participants`."""
    competition = _changed(participant.competition, "withdraw", user)
    _check_seen(competition, ENTRY_ACTIONS, based_on)
    participant.refresh_from_db(fields=["withdrawn_after"])
    if participant.withdrawn_after is not None:
        raise ValidationError(_("%(name)s has withdrawn already.") % {"name": participant.name})
    services.withdraw(participant, user)


@versioning.one_action
def set_absence(
    competition: Competition,
    participant: Participant,
    kind: str | None,
    user,
    number: int | None = None,
    shown: str | None = None,
) -> int:
    """Record (kind None: clear) an absence or bye asked for the next round, or for a later round not yet
    paired (`number`); returns its number. The rows of later rounds wait for their pairing.

    `shown` is the presence the TD's page showed ("" present; None: not known), checked as a result is:
    when another entry changed it meanwhile to something else than `kind`, StaleAction names who and when
    and nothing is saved."""
    competition = _changed(competition, "absence", user)
    number = max(number or 0, next_round_number(competition))
    if shown is not None:
        _check_absence(competition, number, participant, kind or "", shown)
    services.set_absence(competition, number, participant, kind, user)
    return number


def _check_absence(competition: Competition, number: int, participant: Participant, kind: str, shown: str) -> None:
    bye = Bye.objects.filter(round__competition=competition, round__number=number, participant=participant).first()
    now = bye.kind if bye else ""
    if now in (shown, kind):
        return
    entries = AuditEntry.objects.filter(competition_id=competition.pk, round_number=number,
                                        action__in=("absence", "notice"), params__player=participant.name)  # fmt: skip
    latest = entries.order_by("-id").first()
    values = {"name": participant.name, "n": number, "who": author(latest) if latest else "–",
              "when": moment(latest.at) if latest else "–"}  # fmt: skip
    raise StaleAction(
        _(
            "The presence of %(name)s in round %(n)s changed after your page was shown (by %(who)s at "
            "%(when)s): nothing was saved. Check it, then try again."
        )
        % values,
        code="stale",
    )


@versioning.one_action
def save_settings(
    competition: Competition,
    settings: dict,
    user,
    override: bool = False,
    preset: str = "",
    gladiator: dict[str, int] | None = None,
    based_on: int | None = None,
) -> None:
    """The pairing system's settings (validated by the system when saved), recorded as a TD action;
    `gladiator` holds the Gladiator variation (`gladiator_ordinary_games`, `gladiator_replays`);
    `based_on` what the TD's page showed of the settings (`seen`, `SETTINGS_ACTIONS`)."""
    competition = _changed(competition, "settings", user)
    _check_seen(competition, SETTINGS_ACTIONS, based_on)
    before = settings_values(competition)
    competition.settings = settings
    for name, value in (gladiator or {}).items():
        setattr(competition, name, value)
    competition.full_clean(validate_unique=False, validate_constraints=False)
    competition.save()
    action = "settings-override" if override else "settings"
    params = {"preset": preset} if preset else None
    record(user, action, competition, before, settings_values(competition), params=params)


@versioning.one_action
def set_time_control(competition: Competition, time_control: str, user) -> None:
    """The time control the FIDE rating report rates the games by (standard, rapid, blitz), recorded."""
    if time_control not in Competition.TimeControl.values:
        raise ValidationError(_("Unknown time control %(value)s.") % {"value": time_control})
    competition = _changed(competition, "time-control", user)
    before = settings_values(competition)
    competition.time_control = time_control
    competition.save()
    record(user, "time-control", competition, before, settings_values(competition))


@versioning.one_action
def forbid_pair(competition: Competition, pair: ForbiddenPair, user, based_on: int | None = None) -> ForbiddenPair:
    """Two participants who must not meet (the form has checked them); refused for a system that cannot
    honour it (round robin, knockout: the table or the draw fixes who meets whom). `based_on`: what the
    TD's page showed of the forbidden pairs (`seen`, `FORBIDDEN_ACTIONS`)."""
    competition = _changed(competition, "forbid-pair", user)
    _check_seen(competition, FORBIDDEN_ACTIONS, based_on)
    if not competition.engine.forbidden_pairs:
        raise ValidationError(_("%(system)s cannot honour forbidden pairs.") % {"system": competition.system_name})
    pair.competition = competition
    pair.created_by = user
    pair.save()
    record(user, "forbid-pair", pair, None, values(pair, "first", "second", "first_round", "last_round"))
    return pair


@versioning.one_action
def allow_pair(competition: Competition, pair: ForbiddenPair | None, user, based_on: int | None = None) -> None:
    """Lift a ban: the two may be paired against each other again; `based_on` as for `forbid_pair` (a
    pair lifted meanwhile, None here, is refused by it when known)."""
    competition = _changed(competition, "allow-pair", user)
    _check_seen(competition, FORBIDDEN_ACTIONS, based_on)
    if pair is None:
        raise ValidationError(_("This pair may meet already; reload the page."))
    record(user, "allow-pair", pair, values(pair, "first", "second", "first_round", "last_round"), None)
    pair.delete()


@versioning.one_action
def save_format(
    competition: Competition, settings: dict, user, fixed_message: str, based_on: int | None = None
) -> None:
    """Settings that hold only until round 1 is paired (a cup's match format, the teams of a team event);
    `based_on` as for `save_settings`."""
    competition = _changed(competition, "settings", user)
    _check_seen(competition, SETTINGS_ACTIONS, based_on)
    if competition.round_set.paired().exists():
        raise ValidationError(fixed_message)
    before = {"settings": dict(competition.settings)}
    competition.settings = {**competition.settings, **settings}
    competition.save(update_fields=["settings"])
    action = "cup-format" if competition.engine.bracket else "teams"
    record(user, action, competition, before, {"settings": competition.settings})


@versioning.one_action
def set_tiebreaks(
    competition: Competition,
    codes: list[str],
    user,
    override: bool = False,
    unrated: tuple[str, int | None] | None = None,
    based_on: int | None = None,
) -> None:
    """The tie-break list and, when given, the rule for unrated opponents (C.07 art. 10); `based_on` what the
    TD's page showed of them (`seen`, `TIEBREAK_ACTIONS`)."""
    competition = _changed(competition, "tiebreaks", user)
    _check_seen(competition, TIEBREAK_ACTIONS, based_on)
    prizes.set_tiebreaks(competition, codes, user, override)
    if unrated is not None:
        prizes.set_unrated(competition, unrated[0], unrated[1], user, override)


@versioning.one_action
def save_prize_table(table: PrizeTable, user) -> PrizeTable:
    """Save the prize table (a form's validated instance)."""
    _changed(table.competition, "prizes", user)
    fields = ("sharing", "one_prize_each", "currency", "age_on", "main", "groups")
    old = PrizeTable.objects.filter(pk=table.pk).first() if table.pk else None
    table.save()
    record(user, "prizes", table, values(old, *fields) if old else None, values(table, *fields))
    return table


@versioning.one_action
def split_into_groups(competition: Competition, size: int, user) -> list[Competition]:
    competition = _changed(competition, "split-groups", user)
    return groups.split_into_groups(competition, size, user)
