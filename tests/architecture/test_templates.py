"""Templates stay readable line by line: one tag or block per line, no line over 200 characters.

The rule, checked for every file under `templates/` and under any app's `templates/` folder:

1. No line is longer than 200 characters.
2. No line holds two blocks side by side: once a block's end tag closes on a line (`{% endif %}`,
   `{% endfor %}`, `{% endwith %}`, `{% endblock %}`, `{% endpartialdef %}`, ...), no block tag opens after
   it on the same line (`{% if %}`, `{% for %}`, `{% with %}`, `{% block %}`, ...; `BLOCK_TAGS`). So
   `{% if a %}x{% endif %}{% for b in c %}` is refused, while one block on its line is allowed, its
   branches (`{% else %}`, `{% empty %}`) and blocks nested in it included:
   `<td>{% if a %}{{ a }}{% else %}–{% endif %}</td>`.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 200
# The tags that open a block of the page (each closes with its `end` tag); a translated sentence
# (`{% blocktranslate %}`) is text, not a block of the page.
BLOCK_TAGS = {
    "autoescape", "block", "filter", "for", "if", "ifchanged", "language", "localize", "localtime", "partialdef",
    "spaceless", "timezone", "with",
}  # fmt: skip
TAG = re.compile(r"{%-?\s*(\w+)")


def template_files() -> list[Path]:
    skip = {".venv", "node_modules", "staticfiles", ".git"}
    return sorted(
        path
        for path in ROOT.rglob("*")
        if path.is_file() and "templates" in path.relative_to(ROOT).parts and not skip & set(path.parts)
    )


def side_by_side(line: str) -> bool:
    """Whether a block opens on `line` after another block closed on it (rule 2)."""
    closed = False
    for name in TAG.findall(line):
        if name.startswith("end") and name[3:] in BLOCK_TAGS:
            closed = True
        elif name in BLOCK_TAGS and closed:
            return True
    return False


def problems() -> list[str]:
    found = []
    for path in template_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            where = f"{path.relative_to(ROOT)}:{number}"
            if len(line) > LIMIT:
                found.append(f"{where}: {len(line)} characters")
            if side_by_side(line):
                found.append(f"{where}: two blocks side by side")
    return found


def test_the_rule_sees_what_it_refuses():
    assert side_by_side("{% if a %}x{% endif %}{% for b in c %}{{ b }}{% endfor %}")
    assert side_by_side("  {% endfor %}</ul>{% block extra %}")
    assert not side_by_side("<td>{% if a %}{{ a }}{% else %}–{% endif %}</td>")
    assert not side_by_side("{% for b in c %}{% if b %}{{ b }}{% endif %}{% endfor %}")
    assert not side_by_side("{% endif %}{% url 'x' %}{% translate 'y' %}")
    assert not side_by_side("{% blocktranslate %}a{% endblocktranslate %}{% if b %}b{% endif %}")
    assert template_files(), "no template found"


def test_templates_have_one_tag_or_block_per_line_and_no_long_lines():
    found = problems()
    assert not found, f"{len(found)} template lines break the rule:\n" + "\n".join(found)
