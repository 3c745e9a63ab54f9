"""Input limits in one place: every importer and form checks values against the model's own limits here
before anything is saved, so a bad value is refused with its line and field instead of failing in the
database (lengths, integer ranges, finite numbers, no NUL characters), and every CSV export goes through
`csv_writer`, which neutralises formula-like cells.

Importers call `check_instance` (an unsaved model instance) or `check_value` (one field's value) and
raise or collect `InputError`, whose text names where the value came from: `t.trf:14: rating …`.
"""

from __future__ import annotations

import csv
import math
import re
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.translation import gettext as _

WHOLE_NUMBER = re.compile(r"[0-9]+")
# Spreadsheets read a cell starting with one of these as a formula (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class InputError(ValueError):
    """A value that may not be saved: `where` (file:line, or a form field), the field and the problem."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


def is_whole_number(text: str) -> bool:
    """ASCII digits only: `str.isdigit` also accepts "²" and other digits `int` refuses or reads otherwise."""
    return bool(WHOLE_NUMBER.fullmatch(text))


def upload_limit(kind: str) -> int:
    """The largest upload, in bytes, of `kind` ("trf", "members" or "rating-list"), from the settings."""
    return settings.UPLOAD_MAX_BYTES[kind]


def check_upload_size(upload, kind: str) -> None:
    """Refuse an uploaded file larger than the limit of its kind (a form's `ValidationError`)."""
    from django import forms

    limit = upload_limit(kind)
    if upload is not None and upload.size > limit:
        raise forms.ValidationError(
            _("The file is %(size)s MB; at most %(limit)s MB is accepted.")
            % {"size": f"{upload.size / 1_000_000:.1f}", "limit": f"{limit / 1_000_000:g}"}
        )


def _label(field: models.Field) -> str:
    return str(field.verbose_name)


def text_problem(value: str, max_length: int | None) -> str | None:
    """Why a text cannot be stored: a NUL character (PostgreSQL refuses it) or more than `max_length`."""
    if "\x00" in value:
        return _("contains a NUL character")
    if max_length is not None and len(value) > max_length:
        return _("is %(length)s characters long; at most %(max)s are allowed") % {
            "length": len(value), "max": max_length,
        }  # fmt: skip
    return None


def _json_problem(value) -> str | None:
    """NUL characters and numbers that are not finite: PostgreSQL's jsonb and JSON itself refuse them."""
    if isinstance(value, str):
        return text_problem(value, None)
    if isinstance(value, float) and not math.isfinite(value):
        return _("“%(value)s” is not a finite number") % {"value": value}
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return None
    return next((problem for item in items if (problem := _json_problem(item))), None)


def field_problem(field: models.Field, value) -> str | None:
    """Why `value` cannot be stored in `field`, or None."""
    if value is None:
        return None
    if isinstance(field, (models.CharField, models.TextField)):
        return text_problem(str(value), field.max_length)
    if isinstance(field, models.JSONField):
        return _json_problem(value)
    if isinstance(field, models.DecimalField):
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            return _("“%(value)s” is not a number") % {"value": value}
        if not number.is_finite():
            return _("“%(value)s” is not a finite number") % {"value": value}
        limit = Decimal(10) ** (field.max_digits - field.decimal_places)
        if abs(number) >= limit or number != number.quantize(Decimal(1).scaleb(-field.decimal_places)):
            return _("%(value)s is out of range (below %(limit)s, %(places)s decimals)") % {
                "value": value, "limit": limit, "places": field.decimal_places,
            }  # fmt: skip
        return None
    if isinstance(field, models.FloatField):
        if not math.isfinite(float(value)):
            return _("“%(value)s” is not a finite number") % {"value": value}
        return None
    if isinstance(field, models.IntegerField) and not isinstance(field, models.AutoField):
        low, high = integer_range(field)
        if (low is not None and value < low) or (high is not None and value > high):
            return _("%(value)s is out of range (%(low)s to %(high)s)") % {"value": value, "low": low, "high": high}
    return None


def check_value(model: type[models.Model], name: str, value, where: str = "") -> None:
    """Raise InputError when `value` does not fit the field `name` of `model`."""
    field = model._meta.get_field(name)
    if problem := field_problem(field, value):
        raise InputError(where, f"{_label(field)} {problem}")


def instance_problems(instance: models.Model, exclude: tuple[str, ...] = ()) -> list[str]:
    """Every field of an unsaved instance that the database would refuse, as "field problem"."""
    problems = []
    for field in instance._meta.concrete_fields:
        if field.primary_key or field.is_relation or field.name in exclude:
            continue
        if problem := field_problem(field, getattr(instance, field.attname)):
            problems.append(f"{_label(field)} {problem}")
    return problems


def check_instance(instance: models.Model, where: str = "", exclude: tuple[str, ...] = ()) -> None:
    """Raise InputError naming the first field of `instance` the database would refuse."""
    if problems := instance_problems(instance, exclude):
        raise InputError(where, problems[0])


def whole_number(text: str, what: str, where: str = "") -> int | None:
    """A field's text as a whole number (None when empty); InputError: `rating "18²2" is not a number`."""
    text = text.strip()
    if not text:
        return None
    if not is_whole_number(text):
        raise InputError(where, _("%(field)s “%(value)s” is not a number") % {"field": what, "value": text})
    return int(text)


def key_number(text: str) -> int | None:
    """A number given in a query string or form as a row's key: None unless it is one the database can hold."""
    if not is_whole_number(text):
        return None
    value = int(text)
    _low, high = BaseDatabaseOperations.integer_field_ranges["BigIntegerField"]
    return value if value <= high else None


def integer_range(field: models.Field) -> tuple[int | None, int | None]:
    """The portable range of an integer model field (PostgreSQL's; SQLite would store anything)."""
    return BaseDatabaseOperations.integer_field_ranges.get(field.get_internal_type(), (None, None))


class ModelLimitsMixin:
    """For ModelForms: each integer field limited to its model field's portable range, on every database."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        from django import forms
        from django.core.validators import MaxValueValidator, MinValueValidator

        for name, form_field in self.fields.items():
            model_field = next((f for f in self._meta.model._meta.concrete_fields if f.name == name), None)
            if not isinstance(form_field, forms.IntegerField) or not isinstance(model_field, models.IntegerField):
                continue
            low, high = integer_range(model_field)
            if low is not None:
                form_field.validators.append(MinValueValidator(low))
            if high is not None:
                form_field.validators.append(MaxValueValidator(high))


# --------------------------------------------------------------------------------------------- CSV out


def safe_cell(value):
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class _SafeWriter:
    def __init__(self, writer) -> None:
        self._writer = writer

    def writerow(self, row) -> None:
        self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(target, **kwargs) -> _SafeWriter:
    """`csv.writer` for every CSV export: cells that start like a formula are written as text."""
    return _SafeWriter(csv.writer(target, **kwargs))
