"""Every engine module that declares notes, imported: `notes.TEMPLATES` is then complete.

The web app imports this to render stored explanations of any system; a test checks that no module
declaring a note is missing here.
"""

from . import (  # noqa: F401 (imported for their note declarations)
    checks,
    dansk,
    dubov,
    dutch,
    dutch1998,
    keizer,
    knockout,
    knsb_rating,
    knsb_wp,
    monrad,
    olympiad_system,
    roundrobin,
    tiebreaks,
    withdrawal,
)
from .notes import TEMPLATES

__all__ = ["TEMPLATES"]
