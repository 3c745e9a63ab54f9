"""The large tables (standings, crosstable, boards) written by one tag per table (`tournaments.templatetags.tables`)
give the HTML the templates' loops gave, letter for letter; the standings ranked without explanations link
the same values. The loops are kept here as they were in the templates, as the oracle."""

import pytest
from django.template import Context, Template
from django.utils import translation

from tests.conftest import make_competition, play_round
from tournaments import standings
from tournaments.models import Participant
from tournaments.state import CompetitionData
from tournaments.views.common import _round_context

pytestmark = pytest.mark.django_db

OLD_STANDINGS = (
    "  {% translate 'how this value came about' as explain_title %}"
    "\n"
    "  {% player_cards competition as cards %}{% for row in rows %}{% with player_url=cards|card:row."
    'participant.start_number %}<tr{% if not pdf %} hx-target="#explain-{{ row.participant.start_numb'
    'er }}" hx-swap="innerHTML"{% endif %}><td>{{ row.rank }}</td><td>{{ row.participant.title }} <a '
    'href="{{ player_url }}">{{ row.participant.name }}</a>{% if row.participant.withdrawn %} <span c'
    'lass="muted">({% translate "withdrawn" %})</span>{% endif %}{% if not pdf %}<div id="explain-{{ '
    'row.participant.start_number }}" aria-live="polite"></div>{% endif %}</td><td class="num">{{ row'
    '.participant.rating|default:"" }}</td><td class="num strong">{{ row.points|points }}</td>{% for '
    "value, explanation in row|tiebreak_cells:player_url %}{% if forloop.counter0 not in hidden_colum"
    'ns %}<td class="num">{% if explanation and not pdf %}<a href="{{ explanation }}" hx-get="{{ expl'
    'anation }}" title="{{ explain_title }}">{{ value }}</a>{% else %}{{ value }}{% endif %}</td>{% e'
    "ndif %}{% endfor %}</tr>{% endwith %}"
    "\n"
    '  {% empty %}<tr><td colspan="4">{% translate "No players yet." %}</td></tr>{% endfor %}'
    "\n"
    "  </tbody>"
    "\n"
)
NEW_STANDINGS = (
    "  {% translate 'how this value came about' as explain_title %}\n"
    "  {% player_cards competition as cards %}{% standings_rows rows cards hidden_columns explain_title %}"
    '{% if not rows %}<tr><td colspan="4">{% translate "No players yet." %}</td></tr>{% endif %}\n'
    "  </tbody>\n"
)
OLD_CROSSTABLE = (
    '  <tbody>{% for number, row, cells in table %}<tr><td{% if row.rank != number|stringformat:"d" %'
    '} title="{% blocktranslate with rank=row.rank %}place {{ rank }} in the standings{% endblocktran'
    'slate %}"{% endif %}>{{ number }}</td><td>{{ row.participant.name }}</td>{% for cell in cells %}'
    '<td class="cell {{ cell.colour }}"{% if cell.title %} title="{{ cell.title }}"{% endif %}>{{ cel'
    'l.text }}</td>{% endfor %}<td class="num strong">{{ row.points|points }}</td></tr>{% endfor %}</'
    "tbody>"
    "\n"
)
NEW_CROSSTABLE = "  <tbody>{% crosstable_rows table %}</tbody>\n"
OLD_BOARDS = (
    "  {% player_cards competition as cards %}{% for g in games %}"
    "\n"
    '    <tr><td>{{ g.board }}{% if g.match and g.stage != "classical" %} <small class="muted">{{ g.g'
    "et_stage_display }}</small>{% endif %}</td>"
    "\n"
    '      <td>{{ g.white.title }} <a href="{{ cards|card:g.white.start_number }}">{{ g.white.name }}'
    '</a></td><td class="num">{{ g.white.rating|default:"" }}</td><td class="num">{{ g.white_score|po'
    "ints }}</td>"
    "\n"
    '      <td class="result">{% if g.result %}{{ g.result|result }}{% elif pdf %}<span class="box"><'
    "/span>{% else %}–{% endif %}</td>"
    "\n"
    '      <td>{{ g.black.title }} <a href="{{ cards|card:g.black.start_number }}">{{ g.black.name }}'
    '</a></td><td class="num">{{ g.black.rating|default:"" }}</td><td class="num">{{ g.black_score|po'
    "ints }}</td></tr>"
    "\n"
    "  {% endfor %}"
    "\n"
)
NEW_BOARDS = "  {% player_cards competition as cards %}{% board_rows games cards %}\n"


def render(text: str, context: dict, language: str, pdf: bool) -> str:
    """A table's rows as the page's template writes them (its numbers unlocalized, as in the standings)."""
    template = Template("{% load i18n l10n clubavond tables %}{% localize off %}" + text + "{% endlocalize %}")
    with translation.override(language):
        return template.render(Context({**context, "pdf": pdf}))


@pytest.fixture
def swiss(club, td, members):
    """Nine players, four Dutch rounds: a pairing bye each round, draws, forfeits won and lost, shared
    places, a player who withdrew after round 3, one title."""
    from clubs.models import Member

    extra = Member.objects.create(club=club, first_name="Ann", last_name="O'Neil & Co <b>", national_rating=0)
    competition = make_competition(club, td, [*members, extra], system="dutch", rounds=5, slug="open")
    Participant.objects.filter(competition=competition, start_number=1).update(title="IM")
    for number, results in enumerate(
        [{1: "½-½", 2: "1-0R", 3: "0-1"}, {1: "1-0", 2: "½-½", 4: "0-1R"}, {1: "0-1", 3: "½-½", 4: "0-0R"}, {2: "0-1"}]
    ):
        if number == 3:
            Participant.objects.filter(competition=competition, start_number=9).update(withdrawn_after=3)
        play_round(competition, td, results)
    return competition


@pytest.mark.parametrize("language", ["en", "nl", "da"])
@pytest.mark.parametrize("pdf", [False, True])
def test_the_tables_rows_are_the_loops_rows(swiss, language, pdf):
    data = CompetitionData.load(swiss, public=True)
    names, full = standings.standings(data)
    _names, plain = standings.standings(data, explain=False)
    assert [(r.rank, r.participant, r.points, r.tiebreaks) for r in plain] == [
        (r.rank, r.participant, r.points, r.tiebreaks) for r in full
    ]
    context = {"competition": swiss, "rows": full, "hidden_columns": standings.unused_columns(names, full)}
    old = render(OLD_STANDINGS, context, language, pdf)
    assert "withdrawn" in old or language != "en"
    assert render(NEW_STANDINGS, context, language, pdf) == old
    assert render(NEW_STANDINGS, context | {"rows": plain}, language, pdf) == old  # links without explanations
    assert render(NEW_STANDINGS, context | {"rows": []}, language, pdf) == render(
        OLD_STANDINGS, context | {"rows": []}, language, pdf
    )
    with translation.override(language):
        table = {"table": standings.crosstable(CompetitionData.load(swiss, public=True))}
    assert "&amp;" in render(OLD_CROSSTABLE, table, language, pdf)
    assert render(NEW_CROSSTABLE, table, language, pdf) == render(OLD_CROSSTABLE, table, language, pdf)
    for rnd in data.rounds:
        boards = _round_context(CompetitionData.load(swiss, public=True), rnd)
        assert render(NEW_BOARDS, boards, language, pdf) == render(OLD_BOARDS, boards, language, pdf)


def test_a_rows_explanation_links_follow_its_explanations(swiss):
    """Ranked without explanations, a row marks as explained exactly the values that have an explanation
    in the full standings (every catalogue value; direct encounter only where it broke a tie)."""
    data = CompetitionData.load(swiss, public=True)
    _names, full = standings.standings(data)
    _names, plain = standings.standings(data, explain=False)
    for with_, without in zip(full, plain, strict=True):
        assert all(e is None for e in without.explanations) and with_.explained is None
        assert without.explained == [e is not None for e in with_.explanations]


def test_the_points_before_a_round_are_the_states(swiss):
    """The boards' points before the round, counted from the games and byes, are the state's scores."""
    data = CompetitionData.load(swiss, public=True)
    for number in range(len(data.rounds) + 1):
        state = data.state(upto_round=number)
        assert data.scores(number) == {p.id: state.player(p.start_number).score() for p in data.participants}
