"""The rounds of every competition kind: planned, paired and saved, boards exchanged and colours swapped,
results and the further games of a match or an encounter, published, finished and undone.

Swiss systems, round robins, Keizer, knockout, Gladiator and team events pass here: load the engine state,
call the engine through the registry (`pairing.engines.registry`), save in one transaction, so a failed action
leaves nothing behind. Every action first passes the guard (`guard.changed`): the competition's row lock, its
one version bump, and the check of what the TD's page showed."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.history import BOARD_ACTIONS, action_name, author, moment
from audit.log import boards, record
from audit.models import AuditEntry
from pairing.engines import notes, registry
from pairing.engines.state import EngineError, NoValidPairing, Pairing, TournamentState
from tournaments import versioning
from tournaments.knockout import Cup
from tournaments.models import Bye, Competition, Game, Participant, Result, Round
from tournaments.notes import render_note
from tournaments.state import BYE_KINDS, ENGINE_TO_BYE, CompetitionData, forbidden_pairs

from . import cups, gladiator, records
from .guard import StaleAction, board_entries, boards_seen, changed, next_round_number
from .records import check_decided


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
    if competition.engine.bracket:  # matches of several games: pairing.services.cups
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
    return _save_planned_round(changed(competition, "pair", user), plan, user)


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
    competition = changed(competition, "pair", user)
    if competition.engine.bracket:  # matches of several games: pairing.services.cups
        number = Cup.load(competition).next_round_number() or next_round_number(competition)
        if expected is not None and expected != number:
            raise StaleAction(_("Round %(n)s is already paired.") % {"n": expected}, code="stale")
        return cups.pair_round(competition, user)
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
    changed(rnd.competition, "exchange", user)
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
    changed(rnd.competition, "swap-colours", user)
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
    latest = board_entries(rnd).first()
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

    competition = changed(game.round.competition_id, "result", user, read=locked, result=True)
    fresh = read[0]
    shown = fresh.result
    try:
        if competition.engine.bracket:
            saved = cups.set_game_result(fresh, result, user, based_on=based_on)
        elif competition.gladiator:
            saved = gladiator.set_game_result(fresh, result, user, override=override, based_on=based_on)
        else:
            saved = records.set_result(fresh, result, user, override=override, based_on=based_on, locked=True)
    except BaseException:
        game.result = shown  # the caller's copy shows what the board holds
        raise
    game.result = saved.result
    return saved


@versioning.one_action
def add_next_games(rnd: Round, user, match: int | None = None, based_on: int | None = None) -> list[Game]:
    """The next game of every open knockout match (or of `match`), or of Gladiator encounter `match`;
    `based_on` is what the TD's page showed of the boards (`boards_seen`), checked as for an exchange."""
    competition = changed(rnd.competition, "add-games", user)
    _check_boards(rnd, based_on)
    if competition.engine.bracket:
        return cups.add_next_games(rnd, user, match)
    if match is None:
        raise ValidationError(_("Choose the encounter that needs a game."))
    return [gladiator.add_next_game(rnd, match, user)]


@versioning.one_action
def set_club_match_result(bye: Bye, text: str, user, shown: Decimal | None = None) -> None:
    """A club-match game's result (1, = or 0). `shown` is the points the TD's page showed (None: not known),
    checked as a board's result is: points another TD entered meanwhile are not typed over."""
    changed(bye.round.competition, "club-match-result", user)
    if shown is not None:
        _check_club_match(bye, text, shown)
    records.set_club_match_result(bye, text, user)


def _check_club_match(bye: Bye, text: str, shown: Decimal) -> None:
    bye.refresh_from_db(fields=["points"])
    typed = records.CLUB_MATCH_POINTS.get(text.strip())
    if bye.points in (shown, typed):
        return
    latest = AuditEntry.objects.filter(competition_id=bye.round.competition_id, action="club-match-result",
                                       object_type="bye", object_id=str(bye.pk)).order_by("-id").first()  # fmt: skip
    theirs = {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}.get(bye.points, str(bye.points))
    values = {"theirs": theirs, "yours": text.strip() or "–"}
    if latest is None:
        raise records.ResultConflict(
            _("Meanwhile the result became %(theirs)s; you typed %(yours)s. Type yours again to replace it.") % values,
            code="conflict",
        )
    values |= {"who": author(latest), "when": moment(latest.at)}
    raise records.ResultConflict(
        _("Meanwhile %(who)s entered %(theirs)s (at %(when)s); you typed %(yours)s. Type yours again to replace it.")
        % values,
        code="conflict",
    )


@versioning.one_action
def publish(rnd: Round, user, based_on: int | None = None) -> None:
    """Publish a paired round. The round is read again under the competition's lock, never trusted from
    the caller. `based_on` is what the TD's page showed of its boards (`boards_seen`): when they changed
    since (undone and paired again, players exchanged: another TD, another tab), StaleAction says what
    changed, by whom and when, and nothing is published."""
    changed(rnd.competition, "publish", user)
    fresh = Round.objects.select_related("competition").get(pk=rnd.pk)
    if based_on is not None:
        latest = board_entries(fresh).first()
        if (latest.pk if latest else 0) != based_on:
            raise _stale_boards(fresh, latest)
    records.publish(fresh, user)
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
    changed(rnd.competition, "finish", user)
    fresh = Round.objects.select_related("competition").get(pk=rnd.pk)
    if fresh.status == Round.Status.FINISHED:
        closed = AuditEntry.objects.filter(competition_id=fresh.competition_id, round_number=fresh.number)
        closed = closed.filter(action="finish").order_by("-id").first()
        if closed is None:
            raise StaleAction(_("Round %(n)s is closed already.") % {"n": fresh.number}, code="stale")
        values = {"n": fresh.number, "who": author(closed), "when": moment(closed.at)}
        raise StaleAction(_("Round %(n)s was closed meanwhile, by %(who)s at %(when)s.") % values, code="stale")
    records.finish(fresh, user)
    rnd.status = fresh.status  # the caller's copy shows what was saved


@versioning.one_action
def undo_last_round(competition: Competition, user, expected: int | None = None, based_on: int | None = None) -> int:
    """Remove the last paired round. `expected` is the round the TD's page offered to undo and `based_on` what
    it showed of its boards (`boards_seen`): when another round became the last one (a double click, another
    TD) or the boards changed since, StaleAction says what changed, by whom and when, and nothing is undone."""
    competition = changed(competition, "undo-round", user)
    if expected is not None:
        last = competition.round_set.last_paired()
        if last is None or last.number != expected:
            raise _stale_undo(expected, _competition_board_entries(competition).first(), moved=True)
        if based_on is not None and boards_seen(last) != based_on:
            raise _stale_undo(expected, board_entries(last).first(), moved=False)
    return records.undo_last_round(competition, user)


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
