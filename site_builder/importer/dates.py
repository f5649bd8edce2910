"""Dates in the forms Jekyll, Hugo and Quarto read, as the ISO 8601 this site reads.

Jekyll hands a date that YAML did not already read to Ruby's ``Time.parse``, which
takes nearly anything a person writes: ``18 Oct 2020``, ``Oct 18, 2020``,
``18-08-2019`` (day first, with dashes or dots), ``10/18/2020`` (month first, with
slashes), ``2020-10-18 10:00:00 +0100``. Hugo takes RFC 3339, RFC 1123/822 (``Mon, 02
Jan 2006 15:04:05 MST``), Go's ``UnixDate`` and ``RubyDate`` and ``January 2, 2006``;
Quarto takes ISO and the written forms. A date must name its day: ``March, 2020`` is
no date (a parser that filled in the missing day would make one up).
"""

from __future__ import annotations

import datetime as dt
import re

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
# The zone names Ruby's Time.parse and Go's time package know without a zone database.
ZONES = {
    **{"utc": 0, "gmt": 0, "z": 0, "ut": 0, "est": -300, "edt": -240, "cst": -360},
    **{"cdt": -300, "mst": -420, "mdt": -360, "pst": -480, "pdt": -420, "cet": 60},
    **{"cest": 120, "bst": 60, "ist": 330, "jst": 540, "eet": 120, "eest": 180},
}
WEEKDAY = re.compile(
    r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\b\.?,?", re.I
)
CLOCK = re.compile(
    r"(?:\bat\s+|T)?(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*([ap]\.?m\.?)?"
    r"|(?:\bat\s+)?\b(\d{1,2})\s*([ap]\.?m\.?)(?![a-z])",
    re.I,
)
# Right after the time: an offset, or a zone's name (one this table lacks is dropped).
ZONE = re.compile(r"^\s*(Z|[+-]\d{2}(?::?\d{2})?|[A-Z]{3,5}|UTC|GMT)(?![\w:])", re.I)
NUMERIC = (
    (re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$"), "ymd"),
    (re.compile(r"^(\d{4})(\d{2})(\d{2})$"), "ymd"),
    (re.compile(r"^(\d{1,2})[-.](\d{1,2})[-.](\d{4})$"), "dmy"),  # Ruby: 18-08-2019
    (re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$"), "mdy"),  # Ruby, Quarto: 10/18/2020
)
WORDS = re.compile(r"[a-z]+|\d+", re.I)


def parse(value: str) -> str | None:
    """``value`` as ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM:SS[+HH:MM]``, or None."""
    rest = WEEKDAY.sub(" ", value.strip())
    rest = re.sub(r"(?<=\d)(?:st|nd|rd|th)\b", "", rest)
    clock, before, after = _clock(rest)
    zone = None
    found = ZONE.match(after) if clock is not None else None
    if found and found.group(1).lower() in MONTHS:
        found = None  # "10:00 May 4"
    if found:
        name = found.group(1)
        zone = _zone(name) if name.lower() in ZONES or not name.isalpha() else None
        after = after[found.end() :]
        if not name.isalpha():  # Go's "-0700 MST": the offset, then its name
            after = re.sub(r"^\s*\(?[A-Z]{3,5}\)?(?!\w)", "", after)
    rest = f"{before} {after}" if clock is not None else rest
    day = _day(" ".join(rest.replace(",", " ").split()))
    if day is None:
        return None
    if clock is None:
        return day.isoformat()
    stamp = f"{day.isoformat()}T{clock}"
    return stamp + (zone or "")


def _clock(text: str) -> tuple[str | None, str, str]:
    """The time of day as ``HH:MM:SS`` (or None), and the text before and after it."""
    match = CLOCK.search(text)
    if match is None:
        return None, text, ""
    if match.group(1) is not None:
        hour, minute, second = int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
        meridiem = match.group(4)
    else:
        hour, minute, second, meridiem = int(match.group(5)), 0, 0, match.group(6)
    if meridiem:
        if not 1 <= hour <= 12:
            return None, text, ""
        hour = hour % 12 + (12 if meridiem.lower().startswith("p") else 0)
    if hour > 23 or minute > 59 or second > 60:
        return None, text, ""
    clock = f"{hour:02d}:{minute:02d}:{min(second, 59):02d}"
    return clock, text[: match.start()], text[match.end() :]


def _zone(name: str) -> str:
    if name.lower() in ZONES:
        minutes = ZONES[name.lower()]
    else:
        digits = name[1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:4] or 0)
        minutes = -minutes if name[0] == "-" else minutes
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _day(text: str) -> dt.date | None:
    for pattern, order in NUMERIC:
        match = pattern.match(text)
        if match:
            parts = dict(zip(order, (int(g) for g in match.groups()), strict=True))
            if order == "dmy" and parts["m"] > 12:  # ``11-24-2021``: no month 24, month first
                parts["m"], parts["d"] = parts["d"], parts["m"]
            return _date(parts["y"], parts["m"], parts["d"])
    words = WORDS.findall(text)
    if len(words) != 3 or len(words) != len(text.split()):
        return None
    months = [w for w in words if w.lower() in MONTHS]
    numbers = [w for w in words if w.isdigit()]
    if len(months) != 1 or len(numbers) != 2:
        return None
    month = MONTHS[months[0].lower()]
    first, second = numbers
    if words.index(months[0]) == 2:  # "2006 18 Oct"? nobody writes it
        return None
    if len(first) == 4:  # 2020 Oct 18
        return _date(int(first), month, int(second))
    if len(second) not in (2, 4):
        return None
    year = int(second) + (2000 if len(second) == 2 else 0)  # Go's "02 Jan 06"
    return _date(year, month, int(first))


def _date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None
