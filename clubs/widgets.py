"""The browser's own date and time pickers, whatever the page's language.

An `<input type="date">` takes and gives its value as `YYYY-MM-DD` only, an `<input type="time">` as
`HH:MM` (HTML, "date state" and "time state"); the browser shows it in the reader's locale. Django's
inputs write their value in the active language's format (`21-01-2027` in Dutch, `21.01.2027` in Danish),
which the browser refuses: the field shows empty and a required one blocks the form. These widgets always
write ISO values; Django reads ISO values in every language, so nothing changes on the way back.
"""

from __future__ import annotations

from django import forms

ISO_DATE = "%Y-%m-%d"
ISO_TIME = "%H:%M"


class DateInput(forms.DateInput):
    """A date picker whose value is `YYYY-MM-DD` in every language."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format=ISO_DATE)


class TimeInput(forms.TimeInput):
    """A time picker whose value is `HH:MM` in every language."""

    input_type = "time"

    def __init__(self, attrs=None):
        super().__init__(attrs, format=ISO_TIME)


class PickerMixin:
    """Every date field of the form gets the date picker, every time field the time picker (the attributes a
    form gave its widget, a size or a class, are kept)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.DateField):
                self._use(field, DateInput)
            elif isinstance(field, forms.TimeField):
                self._use(field, TimeInput)

    @staticmethod
    def _use(field: forms.Field, widget_class: type[forms.Widget]) -> None:
        if isinstance(field.widget, widget_class):
            return
        attrs = {name: value for name, value in field.widget.attrs.items() if name != "type"}
        widget = widget_class(attrs)
        widget.is_required = field.required
        widget.is_localized = False
        field.widget = widget
