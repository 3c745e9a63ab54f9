"""Every article traced to its tests (docs/conformance.md), and the ratchet of covered articles.

The markers are read from the test sources by `conformance.trace`; conformance/covered.txt lists the
articles that had a test. An article that loses its last test fails here; so does a marker naming no
article of the catalogue, a test named for an article marked "not applicable", and a stale
docs/conformance.md (`make conformance` writes it).
"""

from conformance.articles import ARTICLES, article_of
from conformance.trace import DOC, covered_list, render, trace


def test_every_marker_names_an_article_of_the_catalogue():
    _by_article, unknown = trace()
    assert unknown == []


def test_no_covered_article_loses_its_last_test():
    by_article, _unknown = trace()
    covered = covered_list()
    assert covered, "conformance/covered.txt is empty or missing"
    lost = [article for article in covered if article not in by_article]
    assert lost == [], f"articles that lost their last test: {lost}"


def test_the_ratchet_lists_only_articles_of_the_catalogue():
    assert [a for a in covered_list() if article_of(a) != a] == []


def test_no_test_checks_an_article_said_not_to_apply():
    by_article, _unknown = trace()
    assert [a for a in by_article if ARTICLES[a].not_applicable] == []


def test_the_conformance_document_is_up_to_date():
    by_article, _unknown = trace()
    assert DOC.read_text(encoding="utf-8") == render(by_article), "run `make conformance`"
