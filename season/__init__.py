"""The season calendar: club nights, rounds planned on them, iCalendar feeds, members signing off."""
