"""Temporal values with nanosecond precision: Date, LocalTime, Time, LocalDateTime, DateTime and
Duration, with openCypher/Neo4j construction, selection, truncation, arithmetic, accessors and
ISO 8601 text.

Python's ``datetime`` stops at microseconds, and Cypher needs nanoseconds, so a time of day is
an integer count of nanoseconds and only the calendar (``datetime.date``) is borrowed from the
standard library. Time zones are fixed offsets (seconds) or IANA names resolved with
:mod:`zoneinfo`; a named zone keeps its name, and its offset is recomputed whenever the local
date or time changes, as ``java.time.ZonedDateTime`` does.

A duration keeps months, days and nanoseconds apart (one month is not a fixed number of days,
nor one day a fixed number of seconds). Fractional components cascade downwards through the
average month (30.436875 days, 2,629,746 s) and the 86,400 s day; exact rational arithmetic
keeps the cascade free of rounding errors.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..errors import EvaluationError

__all__ = [
    "TEMPORAL_TYPES",
    "Date",
    "DateTime",
    "Duration",
    "LocalDateTime",
    "LocalTime",
    "Time",
    "accessor",
    "add_duration",
    "construct",
    "duration_between",
    "truncate",
]

NANOS_PER_SECOND = 1_000_000_000
NANOS_PER_DAY = 86_400 * NANOS_PER_SECOND
SECONDS_PER_AVG_MONTH = 2_629_746  # 365.2425 days / 12
_EPOCH_ORDINAL = _dt.date(1970, 1, 1).toordinal()


def _arg_error(message: str, detail: str = "InvalidArgumentValue") -> EvaluationError:
    return EvaluationError(message, category="ArgumentError", detail=detail)


def _type_error(message: str) -> EvaluationError:
    return EvaluationError(message, category="TypeError", detail="InvalidArgumentType")


# ---------------------------------------------------------------------------------------------
# zones
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _zoneinfo(name: str) -> Any:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise _arg_error(f"unknown time zone {name!r}") from None


_OFFSET = re.compile(r"([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?")


def _parse_offset(text: str) -> int:
    if text in ("Z", "z"):
        return 0
    m = _OFFSET.fullmatch(text)
    if not m:
        raise _arg_error(f"invalid time zone offset {text!r}")
    sign = -1 if m.group(1) == "-" else 1
    hours, minutes, seconds = int(m.group(2)), int(m.group(3) or 0), int(m.group(4) or 0)
    if hours > 18 or minutes > 59 or seconds > 59:
        raise _arg_error(f"invalid time zone offset {text!r}")
    return sign * (hours * 3600 + minutes * 60 + seconds)


@dataclass(frozen=True, slots=True)
class Zone:
    """A time zone: a fixed ``offset`` in seconds, or an IANA ``name``."""

    offset: int = 0
    name: str | None = None

    @staticmethod
    def parse(text: str) -> Zone:
        if text and (text[0] in "+-" or text in ("Z", "z")):
            return Zone(_parse_offset(text))
        _zoneinfo(text)
        return Zone(0, text)

    def offset_at_local(self, date: _dt.date, nanos: int) -> int:
        """The offset this zone has at a local date and time."""
        if self.name is None:
            return self.offset
        secs = nanos // NANOS_PER_SECOND
        local = _dt.datetime(
            date.year, date.month, date.day, secs // 3600, secs // 60 % 60, secs % 60
        )
        off = local.replace(tzinfo=_zoneinfo(self.name)).utcoffset()
        return int(off.total_seconds()) if off is not None else 0

    def offset_at_instant(self, epoch_seconds: int) -> int:
        if self.name is None:
            return self.offset
        try:
            instant = _dt.datetime.fromtimestamp(epoch_seconds, tz=_zoneinfo(self.name))
        except (OverflowError, ValueError, OSError):
            raise _arg_error("instant out of the supported range", "NumberOutOfRange") from None
        off = instant.utcoffset()
        return int(off.total_seconds()) if off is not None else 0


UTC = Zone(0)


def _format_offset(offset: int) -> str:
    if offset == 0:
        return "Z"
    sign = "-" if offset < 0 else "+"
    a = abs(offset)
    text = f"{sign}{a // 3600:02d}:{a // 60 % 60:02d}"
    return text + (f":{a % 60:02d}" if a % 60 else "")


# ---------------------------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------------------------


def _format_date(d: _dt.date) -> str:
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}"


def _format_time(nanos: int) -> str:
    secs, frac = divmod(nanos, NANOS_PER_SECOND)
    text = f"{secs // 3600:02d}:{secs // 60 % 60:02d}"
    if secs % 60 == 0 and frac == 0:
        return text
    text += f":{secs % 60:02d}"
    if frac:
        digits = f"{frac:09d}"
        # java.time prints the fraction in groups of three digits
        while digits.endswith("000"):
            digits = digits[:-3]
        text += "." + digits
    return text


@dataclass(frozen=True, slots=True)
class Date:
    date: _dt.date

    def __str__(self) -> str:
        return _format_date(self.date)


@dataclass(frozen=True, slots=True)
class LocalTime:
    nanos: int  # of the day

    def __str__(self) -> str:
        return _format_time(self.nanos)


@dataclass(frozen=True, slots=True)
class Time:
    nanos: int  # local time of the day
    offset: int  # seconds east of UTC

    def utc_nanos(self) -> int:
        return self.nanos - self.offset * NANOS_PER_SECOND

    def __str__(self) -> str:
        return _format_time(self.nanos) + _format_offset(self.offset)


@dataclass(frozen=True, slots=True)
class LocalDateTime:
    date: _dt.date
    nanos: int

    def __str__(self) -> str:
        return f"{_format_date(self.date)}T{_format_time(self.nanos)}"


@dataclass(frozen=True, slots=True)
class DateTime:
    date: _dt.date  # local date
    nanos: int  # local time of the day
    offset: int
    zone: str | None = None  # IANA name, when the zone is named

    def epoch_nanos(self) -> int:
        days = self.date.toordinal() - _EPOCH_ORDINAL
        return days * NANOS_PER_DAY + self.nanos - self.offset * NANOS_PER_SECOND

    def zone_value(self) -> Zone:
        return Zone(self.offset, self.zone)

    def __str__(self) -> str:
        text = f"{_format_date(self.date)}T{_format_time(self.nanos)}{_format_offset(self.offset)}"
        return text + (f"[{self.zone}]" if self.zone else "")


@dataclass(frozen=True, slots=True)
class Duration:
    """``months`` and ``days`` as given; ``nanos`` holds seconds and fractions together."""

    months: int
    days: int
    nanos: int

    @property
    def seconds(self) -> int:
        """Whole seconds, truncated toward zero (the sign of the fraction follows)."""
        return _trunc_div(self.nanos, NANOS_PER_SECOND)

    @property
    def nano_of_second(self) -> int:
        return self.nanos - self.seconds * NANOS_PER_SECOND

    def __str__(self) -> str:
        if not (self.months or self.days or self.nanos):
            return "PT0S"
        out = ["P"]
        years, months = _trunc_div(self.months, 12), _trunc_rem(self.months, 12)
        if years:
            out.append(f"{years}Y")
        if months:
            out.append(f"{months}M")
        if self.days:
            out.append(f"{self.days}D")
        if self.nanos:
            out.append("T")
            sign = "-" if self.nanos < 0 else ""
            secs, frac = divmod(abs(self.nanos), NANOS_PER_SECOND)
            hours, minutes, seconds = secs // 3600, secs // 60 % 60, secs % 60
            if hours:
                out.append(f"{sign}{hours}H")
            if minutes:
                out.append(f"{sign}{minutes}M")
            if seconds or frac:
                text = f"{sign}{seconds}"
                if frac:
                    text += "." + f"{frac:09d}".rstrip("0")
                out.append(text + "S")
        return "".join(out)


TEMPORAL_TYPES = (Date, LocalTime, Time, LocalDateTime, DateTime, Duration)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _trunc_rem(a: int, b: int) -> int:
    return a - b * _trunc_div(a, b)


# ---------------------------------------------------------------------------------------------
# calendar helpers
# ---------------------------------------------------------------------------------------------


def _make_date(year: int, month: int, day: int) -> _dt.date:
    try:
        return _dt.date(year, month, day)
    except (ValueError, OverflowError):
        raise _arg_error(f"invalid date {year}-{month}-{day}") from None


def _days_in_month(year: int, month: int) -> int:
    if month == 12:
        return 31
    return (_dt.date(year, month + 1, 1) - _dt.date(year, month, 1)).days


def _plus_months(d: _dt.date, months: int) -> _dt.date:
    total = d.year * 12 + (d.month - 1) + months
    year, month = divmod(total, 12)
    month += 1
    if not 1 <= year <= 9999:
        raise _arg_error("date out of the supported range (years 1 to 9999)", "NumberOutOfRange")
    return _dt.date(year, month, min(d.day, _days_in_month(year, month)))


def _plus_days(d: _dt.date, days: int) -> _dt.date:
    try:
        return d + _dt.timedelta(days=days)
    except OverflowError:
        raise _arg_error(
            "date out of the supported range (years 1 to 9999)", "NumberOutOfRange"
        ) from None


def _quarter(d: _dt.date) -> int:
    return (d.month - 1) // 3 + 1


def _quarter_start(year: int, quarter: int) -> _dt.date:
    return _make_date(year, (quarter - 1) * 3 + 1, 1)


def _day_of_quarter(d: _dt.date) -> int:
    return (d - _quarter_start(d.year, _quarter(d))).days + 1


def _week_date(week_year: int, week: int, day_of_week: int) -> _dt.date:
    try:
        return _dt.date.fromisocalendar(week_year, week, day_of_week)
    except ValueError:
        raise _arg_error(f"invalid week date {week_year}-W{week}-{day_of_week}") from None


# ---------------------------------------------------------------------------------------------
# the parts every temporal value is made of
# ---------------------------------------------------------------------------------------------


def _date_of(value: Any) -> _dt.date | None:
    if isinstance(value, Date):
        return value.date
    if isinstance(value, (LocalDateTime, DateTime)):
        return value.date
    return None


def _time_of(value: Any) -> int | None:
    if isinstance(value, (LocalTime, Time, LocalDateTime, DateTime)):
        return value.nanos
    return None


def _zone_of(value: Any) -> Zone | None:
    if isinstance(value, Time):
        return Zone(value.offset)
    if isinstance(value, DateTime):
        return value.zone_value()
    return None


def _datetime_in_zone(date: _dt.date, nanos: int, zone: Zone) -> DateTime:
    return DateTime(date, nanos, zone.offset_at_local(date, nanos), zone.name)


def _from_epoch_nanos(epoch_nanos: int, zone: Zone) -> DateTime:
    epoch_seconds = epoch_nanos // NANOS_PER_SECOND
    offset = zone.offset_at_instant(epoch_seconds)
    local = epoch_nanos + offset * NANOS_PER_SECOND
    days, nanos = divmod(local, NANOS_PER_DAY)
    try:
        date = _dt.date.fromordinal(days + _EPOCH_ORDINAL)
    except (ValueError, OverflowError):
        raise _arg_error("instant out of the supported range", "NumberOutOfRange") from None
    return DateTime(date, nanos, offset, zone.name)


def _convert_zone(value: DateTime, zone: Zone) -> DateTime:
    return _from_epoch_nanos(value.epoch_nanos(), zone)


# ---------------------------------------------------------------------------------------------
# construction from maps
# ---------------------------------------------------------------------------------------------

_DATE_FIELDS = (
    "year",
    "month",
    "day",
    "week",
    "dayOfWeek",
    "ordinalDay",
    "quarter",
    "dayOfQuarter",
)
_TIME_FIELDS = ("hour", "minute", "second", "millisecond", "microsecond", "nanosecond")
_FIELD_RANGE = {
    "month": (1, 12),
    "day": (1, 31),
    "week": (1, 53),
    "dayOfWeek": (1, 7),
    "ordinalDay": (1, 366),
    "quarter": (1, 4),
    "dayOfQuarter": (1, 92),
    "hour": (0, 23),
    "minute": (0, 59),
    "second": (0, 59),
    "millisecond": (0, 999),
    "microsecond": (0, 999_999),
    "nanosecond": (0, 999_999_999),
}
_KNOWN_KEYS = frozenset(
    _DATE_FIELDS
    + _TIME_FIELDS
    + ("date", "time", "datetime", "timezone", "epochSeconds", "epochMillis")
)


def _int_field(fields: dict[str, Any], key: str) -> int | None:
    if key not in fields:
        return None
    v = fields[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise _type_error(f"temporal field {key} must be an integer, not {v!r}")
    lo_hi = _FIELD_RANGE.get(key)
    if lo_hi and not lo_hi[0] <= v <= lo_hi[1]:
        raise _arg_error(f"temporal field {key} out of range: {v}", "NumberOutOfRange")
    return v


def _build_date(fields: dict[str, Any], base: _dt.date | None) -> _dt.date:
    """A date from calendar fields, overriding ``base`` where one is selected (``{date: d, …}``)."""
    year = _int_field(fields, "year")
    if any(k in fields for k in ("week", "dayOfWeek")):
        if base is not None:
            by, bw, bd = base.isocalendar()
        else:
            by, bw, bd = (year if year is not None else 1970), 1, 1
        week_year = year if year is not None else by
        week = _int_field(fields, "week") or bw
        dow = _int_field(fields, "dayOfWeek") or bd
        return _week_date(week_year, week, dow)
    if "ordinalDay" in fields:
        y = year if year is not None else (base.year if base else 1970)
        ordinal = _int_field(fields, "ordinalDay") or 1
        result = _plus_days(_make_date(y, 1, 1), ordinal - 1)
        if result.year != y:
            raise _arg_error(f"ordinal day {ordinal} out of range for {y}", "NumberOutOfRange")
        return result
    if any(k in fields for k in ("quarter", "dayOfQuarter")):
        y = year if year is not None else (base.year if base else 1970)
        q = _int_field(fields, "quarter") or (_quarter(base) if base else 1)
        start = _quarter_start(y, q)
        length = (_quarter_start(y, q + 1) if q < 4 else _make_date(y + 1, 1, 1)) - start
        doq = _int_field(fields, "dayOfQuarter")
        if doq is None:
            doq = min(_day_of_quarter(base), length.days) if base else 1
        elif doq > length.days:
            raise _arg_error(f"day of quarter {doq} out of range", "NumberOutOfRange")
        return _plus_days(start, doq - 1)
    if base is None:
        if year is None:
            raise _arg_error("a date needs at least a year")
        month = _int_field(fields, "month")
        day = _int_field(fields, "day")
        if day is not None and month is None:
            raise _arg_error("a day needs a month")
        return _make_date(year, month or 1, day or 1)
    y = year if year is not None else base.year
    month = _int_field(fields, "month") or base.month
    day = _int_field(fields, "day")
    if day is None:
        day = min(base.day, _days_in_month(y, month))
    return _make_date(y, month, day)


def _build_time(fields: dict[str, Any], base: int | None) -> int:
    """Nanoseconds of the day from clock fields, overriding ``base`` where one is selected."""
    hour = _int_field(fields, "hour")
    minute = _int_field(fields, "minute")
    second = _int_field(fields, "second")
    ms = _int_field(fields, "millisecond")
    us = _int_field(fields, "microsecond")
    ns = _int_field(fields, "nanosecond")
    if base is None:
        if (minute is not None and hour is None) or (second is not None and minute is None):
            raise _arg_error("a time field needs the larger fields before it")
        base = 0
    if ms is not None and us is not None and us > 999:
        raise _arg_error("microsecond out of range with millisecond", "NumberOutOfRange")
    if (ms is not None or us is not None) and ns is not None and ns > 999:
        raise _arg_error("nanosecond out of range with a larger fraction", "NumberOutOfRange")
    secs, frac = divmod(base, NANOS_PER_SECOND)
    h = hour if hour is not None else secs // 3600
    m = minute if minute is not None else secs // 60 % 60
    s = second if second is not None else secs % 60
    if ms is not None:
        frac = ms * 1_000_000 + (us or 0) * 1_000 + (ns or 0)
    elif us is not None:
        # a microsecond below 1000 keeps the selected millisecond; a larger one replaces it
        kept = frac // 1_000_000 * 1_000_000 if us < 1_000 else 0
        frac = kept + us * 1_000 + (ns or 0)
    elif ns is not None:
        kept = frac // 1_000 * 1_000 if ns < 1_000 else 0
        frac = kept + ns
    return (h * 3600 + m * 60 + s) * NANOS_PER_SECOND + frac


def _selected(fields: dict[str, Any], key: str) -> Any:
    value = fields.get(key)
    if value is not None and not isinstance(value, TEMPORAL_TYPES):
        raise _type_error(f"{key}: expected a temporal value, not {value!r}")
    return value


def _zone_field(fields: dict[str, Any], default: Zone) -> tuple[Zone, bool]:
    if "timezone" in fields:
        tz = fields["timezone"]
        if not isinstance(tz, str):
            raise _type_error(f"timezone must be a string, not {tz!r}")
        return Zone.parse(tz), True
    return default, False


def _from_map(kind: str, fields: dict[str, Any], default_zone: Zone) -> Any:
    unknown = set(fields) - _KNOWN_KEYS
    if unknown:
        raise _arg_error(f"unknown temporal field(s): {', '.join(sorted(unknown))}")
    date_src = _selected(fields, "date")
    time_src = _selected(fields, "time")
    dt_src = _selected(fields, "datetime")
    if dt_src is not None:
        date_src = date_src if date_src is not None else dt_src
        time_src = time_src if time_src is not None else dt_src
    if kind == "date":
        base = _date_of(date_src) if date_src is not None else None
        if date_src is not None and base is None:
            raise _type_error(f"cannot select a date from {date_src}")
        return Date(_build_date(fields, base))
    if kind in ("localtime", "time"):
        base_t = _time_of(time_src) if time_src is not None else None
        if time_src is not None and base_t is None:
            raise _type_error(f"cannot select a time from {time_src}")
        nanos = _build_time(fields, base_t)
        if kind == "localtime":
            return LocalTime(nanos)
        src_zone = _zone_of(time_src) if time_src is not None else None
        zone, explicit = _zone_field(fields, default_zone)
        if src_zone is not None and explicit:
            # the same instant seen from another zone
            utc = nanos - _offset_of(time_src) * NANOS_PER_SECOND
            on = _date_of(time_src) or _dt.date.today()
            offset = zone.offset_at_local(on, nanos) if zone.name else zone.offset
            return Time((utc + offset * NANOS_PER_SECOND) % NANOS_PER_DAY, offset)
        if src_zone is not None:
            return Time(nanos, _offset_of(time_src))
        offset = zone.offset_at_local(_dt.date.today(), nanos) if zone.name else zone.offset
        return Time(nanos, offset)
    # localdatetime / datetime
    if "epochSeconds" in fields or "epochMillis" in fields:
        if kind != "datetime":
            raise _arg_error("epochSeconds/epochMillis only build a datetime")
        epoch = 0
        if "epochSeconds" in fields:
            epoch += _epoch_part(fields["epochSeconds"], NANOS_PER_SECOND)
        if "epochMillis" in fields:
            epoch += _epoch_part(fields["epochMillis"], 1_000_000)
        epoch += _int_field(fields, "nanosecond") or 0
        zone, _ = _zone_field(fields, default_zone)
        return _from_epoch_nanos(epoch, zone)
    base_d = _date_of(date_src) if date_src is not None else None
    if date_src is not None and base_d is None:
        raise _type_error(f"cannot select a date from {date_src}")
    base_t = _time_of(time_src) if time_src is not None else None
    if time_src is not None and base_t is None:
        raise _type_error(f"cannot select a time from {time_src}")
    date = _build_date({k: v for k, v in fields.items() if k in _DATE_FIELDS}, base_d)
    nanos = _build_time({k: v for k, v in fields.items() if k in _TIME_FIELDS}, base_t)
    if kind == "localdatetime":
        return LocalDateTime(date, nanos)
    src_zone = _zone_of(time_src) if time_src is not None else None
    zone, explicit = _zone_field(fields, default_zone)
    if src_zone is not None:
        here = _datetime_in_zone(date, nanos, src_zone)
        return _convert_zone(here, zone) if explicit else here
    return _datetime_in_zone(date, nanos, zone)


def _offset_of(value: Any) -> int:
    if isinstance(value, (Time, DateTime)):
        return value.offset
    return 0


def _epoch_part(value: Any, scale: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _type_error(f"epoch field must be a number, not {value!r}")
    return int(Fraction(value) * scale)


# ---------------------------------------------------------------------------------------------
# durations
# ---------------------------------------------------------------------------------------------

_DURATION_UNITS: dict[str, tuple[str, Fraction]] = {
    "years": ("months", Fraction(12)),
    "quarters": ("months", Fraction(3)),
    "months": ("months", Fraction(1)),
    "weeks": ("days", Fraction(7)),
    "days": ("days", Fraction(1)),
    "hours": ("seconds", Fraction(3600)),
    "minutes": ("seconds", Fraction(60)),
    "seconds": ("seconds", Fraction(1)),
    "milliseconds": ("nanos", Fraction(1_000_000)),
    "microseconds": ("nanos", Fraction(1_000)),
    "nanoseconds": ("nanos", Fraction(1)),
}


def approximate(months: Fraction, days: Fraction, seconds: Fraction, nanos: Fraction) -> Duration:
    """A duration from possibly fractional components: each fraction moves to the next smaller
    unit (a month is the average Gregorian month), then whole units are kept (toward zero)."""
    whole_months = int(months)
    days += (months - whole_months) * SECONDS_PER_AVG_MONTH / 86_400
    whole_days = int(days)
    seconds += (days - whole_days) * 86_400
    whole_seconds = int(seconds)
    nanos += (seconds - whole_seconds) * NANOS_PER_SECOND
    return Duration(whole_months, whole_days, whole_seconds * NANOS_PER_SECOND + int(nanos))


def duration_from_map(fields: dict[str, Any]) -> Duration:
    parts = {
        "months": Fraction(0),
        "days": Fraction(0),
        "seconds": Fraction(0),
        "nanos": Fraction(0),
    }
    for key, value in fields.items():
        unit = _DURATION_UNITS.get(key)
        if unit is None:
            raise _arg_error(f"unknown duration field {key!r}")
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _type_error(f"duration field {key} must be a number, not {value!r}")
        parts[unit[0]] += Fraction(value) * unit[1]
    return approximate(parts["months"], parts["days"], parts["seconds"], parts["nanos"])


def scale_duration(d: Duration, factor: Fraction) -> Duration:
    return approximate(
        Fraction(d.months) * factor,
        Fraction(d.days) * factor,
        Fraction(d.nanos, NANOS_PER_SECOND) * factor,
        Fraction(0),
    )


def negate_duration(d: Duration) -> Duration:
    return Duration(-d.months, -d.days, -d.nanos)


def add_durations(a: Duration, b: Duration) -> Duration:
    return Duration(a.months + b.months, a.days + b.days, a.nanos + b.nanos)


def add_duration(value: Any, d: Duration) -> Any:
    """``value + d`` for a date, time or datetime: months first (clamping the day of the month),
    then days, then the clock part (only whole days of it for a date)."""
    if isinstance(value, Date):
        days = d.days + _trunc_div(d.seconds, 86_400)
        return Date(_plus_days(_plus_months(value.date, d.months), days))
    if isinstance(value, LocalTime):
        return LocalTime((value.nanos + d.nanos) % NANOS_PER_DAY)
    if isinstance(value, Time):
        return Time((value.nanos + d.nanos) % NANOS_PER_DAY, value.offset)
    if isinstance(value, LocalDateTime):
        date = _plus_days(_plus_months(value.date, d.months), d.days)
        carry, nanos = divmod(value.nanos + d.nanos, NANOS_PER_DAY)
        return LocalDateTime(_plus_days(date, carry), nanos)
    if isinstance(value, DateTime):
        date = _plus_days(_plus_months(value.date, d.months), d.days)
        moved = _datetime_in_zone(date, value.nanos, value.zone_value())
        return _from_epoch_nanos(moved.epoch_nanos() + d.nanos, value.zone_value())
    raise _type_error(f"cannot add a duration to {value!r}")


_DURATION_TEXT = re.compile(
    r"([+-])?P(?:([+-]?[\d.,]+)Y)?(?:([+-]?[\d.,]+)M)?(?:([+-]?[\d.,]+)W)?(?:([+-]?[\d.,]+)D)?"
    r"(?:T(?:([+-]?[\d.,]+)H)?(?:([+-]?[\d.,]+)M)?(?:([+-]?[\d.,]+)S)?)?",
    re.IGNORECASE,
)


def _parse_duration(text: str) -> Duration:
    m = _DURATION_TEXT.fullmatch(text)
    if m and any(m.group(i) for i in range(2, 9)) and not text.upper().endswith("T"):
        sign = -1 if m.group(1) == "-" else 1
        names = ("years", "months", "weeks", "days", "hours", "minutes", "seconds")
        fields: dict[str, Any] = {}
        for i, name in enumerate(names, 2):
            if m.group(i):
                fields[name] = Fraction(m.group(i).replace(",", "."))
        parts = {"months": Fraction(0), "days": Fraction(0), "seconds": Fraction(0)}
        for name, value in fields.items():
            unit, scale = _DURATION_UNITS[name]
            parts[unit] += value * scale * sign
        return approximate(parts["months"], parts["days"], parts["seconds"], Fraction(0))
    if text[:1] in "Pp" and len(text) > 1:
        # alternative format: P<local datetime>, e.g. P2012-02-02T14:37:21.545
        try:
            ldt = _parse_local_datetime(text[1:])
        except EvaluationError:
            ldt = None
        if ldt is not None:
            d, nanos = ldt
            return Duration(d.year * 12 + d.month, d.day, nanos)
    raise _arg_error(f"invalid duration text {text!r}")


# ---------------------------------------------------------------------------------------------
# ISO 8601 text
# ---------------------------------------------------------------------------------------------

_DATE_TEXT = re.compile(
    r"(?P<year>[+-]\d{4,9}|\d{4})(?:"
    r"-?W(?P<week>\d{2})(?:-?(?P<dow>\d))?"
    r"|-(?P<ordinal>\d{3})|(?P<ordinal2>\d{3})"
    r"|-(?P<month>\d{2})(?:-(?P<day>\d{2}))?"
    r"|(?P<month2>\d{2})(?P<day2>\d{2})"
    r")?"
)
_TIME_TEXT = re.compile(
    r"(?P<hour>\d{2})(?::?(?P<minute>\d{2})(?::?(?P<second>\d{2})(?:[.,](?P<frac>\d{1,9}))?)?)?"
)
_ZONE_TEXT = re.compile(r"(?P<offset>Z|z|[+-]\d{2}(?::?\d{2})?)?(?:\[(?P<name>[^\]]+)\])?")


def _parse_date_text(text: str) -> _dt.date:
    m = _DATE_TEXT.fullmatch(text)
    if not m:
        raise _arg_error(f"invalid date text {text!r}")
    year = int(m.group("year"))
    if m.group("week"):
        return _week_date(year, int(m.group("week")), int(m.group("dow") or 1))
    ordinal = m.group("ordinal") or m.group("ordinal2")
    if ordinal:
        return _plus_days(_make_date(year, 1, 1), int(ordinal) - 1)
    month = m.group("month") or m.group("month2")
    day = m.group("day") or m.group("day2")
    return _make_date(year, int(month or 1), int(day or 1))


def _parse_time_text(text: str) -> int:
    m = _TIME_TEXT.fullmatch(text)
    if not m:
        raise _arg_error(f"invalid time text {text!r}")
    h, mi, s = int(m.group("hour")), int(m.group("minute") or 0), int(m.group("second") or 0)
    if h > 23 or mi > 59 or s > 59:
        raise _arg_error(f"invalid time text {text!r}")
    frac = int((m.group("frac") or "").ljust(9, "0") or 0)
    return (h * 3600 + mi * 60 + s) * NANOS_PER_SECOND + frac


def _split_zone(text: str) -> tuple[str, Zone | None]:
    """Split ``12:00+01:00[Europe/Stockholm]`` into the clock text and its zone."""
    m = re.search(r"(Z|z|[+-]\d{2}(?::?\d{2})?)?(\[[^\]]+\])?$", text)
    if not m or not m.group(0):
        return text, None
    zm = _ZONE_TEXT.fullmatch(m.group(0))
    assert zm is not None
    if zm.group("name"):
        zone = Zone.parse(zm.group("name"))
    else:
        zone = Zone(_parse_offset(zm.group("offset")))
    return text[: m.start()], zone


def _parse_local_datetime(text: str) -> tuple[_dt.date, int]:
    date_text, sep, time_text = text.partition("T")
    if not sep:
        date_text, sep, time_text = text.partition("t")
    date = _parse_date_text(date_text)
    return date, _parse_time_text(time_text) if sep else 0


def parse_temporal(kind: str, text: str, default_zone: Zone = UTC) -> Any:
    """The value ``kind('text')`` denotes (``kind`` as in :class:`gqlir.ir.TemporalKind`)."""
    text = text.strip()
    if kind == "duration":
        return _parse_duration(text)
    if kind == "date":
        return Date(_parse_date_text(text))
    if kind == "localtime":
        return LocalTime(_parse_time_text(text))
    if kind == "time":
        clock, zone = _split_zone(text)
        nanos = _parse_time_text(clock)
        zone = zone or default_zone
        return Time(
            nanos, zone.offset_at_local(_dt.date.today(), nanos) if zone.name else zone.offset
        )
    if kind == "localdatetime":
        date, nanos = _parse_local_datetime(text)
        return LocalDateTime(date, nanos)
    if kind == "datetime":
        clock, zone = _split_zone(text)
        date, nanos = _parse_local_datetime(clock)
        return _datetime_in_zone(date, nanos, zone or default_zone)
    raise _arg_error(f"unknown temporal type {kind}")


# ---------------------------------------------------------------------------------------------
# the temporal functions: date(x), datetime(x) ...
# ---------------------------------------------------------------------------------------------


def construct(kind: str, arg: Any, now: DateTime, default_zone: Zone = UTC) -> Any:
    """``kind(arg)``: from a map of fields, a string, another temporal value, or (``arg`` is the
    marker ``...``) the current statement time ``now``."""
    if arg is ...:
        return _convert_now(kind, now, default_zone)
    if arg is None:
        return None
    if kind == "duration":
        if isinstance(arg, dict):
            return duration_from_map(arg)
        if isinstance(arg, str):
            return _parse_duration(arg)
        if isinstance(arg, Duration):
            return arg
        raise _type_error(f"duration() takes a map or a string, not {arg!r}")
    if isinstance(arg, str):
        return parse_temporal(kind, arg, default_zone)
    if isinstance(arg, dict):
        if (
            "timezone" in arg
            and len(arg) == 1
            and kind in ("date", "localtime", "localdatetime", "time", "datetime")
        ):
            return _convert_now(kind, now, Zone.parse(arg["timezone"]))
        return _from_map(kind, arg, default_zone)
    if isinstance(arg, TEMPORAL_TYPES):
        return _from_map(kind, _selection_map(kind, arg), default_zone)
    raise _type_error(f"{kind}() takes a map, a string or a temporal value, not {arg!r}")


def _selection_map(kind: str, value: Any) -> dict[str, Any]:
    if kind == "date":
        return {"date": value}
    if kind in ("localtime", "time"):
        return {"time": value}
    if isinstance(value, (LocalDateTime, DateTime)):
        return {"datetime": value}
    if isinstance(value, Date):
        return {"date": value}
    return {"time": value}


def _convert_now(kind: str, now: DateTime, zone: Zone) -> Any:
    here = _convert_zone(now, zone)
    if kind == "date":
        return Date(here.date)
    if kind == "localtime":
        return LocalTime(here.nanos)
    if kind == "time":
        return Time(here.nanos, here.offset)
    if kind == "localdatetime":
        return LocalDateTime(here.date, here.nanos)
    return here


def now_utc(clock: _dt.datetime | None = None) -> DateTime:
    """The current instant as a UTC DateTime (``clock`` for reproducible runs)."""
    moment = clock or _dt.datetime.now(_dt.UTC)
    moment = moment.astimezone(_dt.UTC)
    nanos = (moment.hour * 3600 + moment.minute * 60 + moment.second) * NANOS_PER_SECOND
    return DateTime(moment.date(), nanos + moment.microsecond * 1000, 0)


# ---------------------------------------------------------------------------------------------
# truncation
# ---------------------------------------------------------------------------------------------

_DATE_UNITS = (
    "millennium",
    "century",
    "decade",
    "year",
    "weekYear",
    "quarter",
    "month",
    "week",
    "day",
)
_TIME_UNITS = ("hour", "minute", "second", "millisecond", "microsecond")
_TIME_UNIT_NANOS = {
    "day": NANOS_PER_DAY,
    "hour": 3600 * NANOS_PER_SECOND,
    "minute": 60 * NANOS_PER_SECOND,
    "second": NANOS_PER_SECOND,
    "millisecond": 1_000_000,
    "microsecond": 1_000,
}


def _truncate_date(d: _dt.date, unit: str) -> _dt.date:
    if unit == "millennium":
        return _make_date(max(1, d.year // 1000 * 1000), 1, 1)
    if unit == "century":
        return _make_date(max(1, d.year // 100 * 100), 1, 1)
    if unit == "decade":
        return _make_date(max(1, d.year // 10 * 10), 1, 1)
    if unit == "year":
        return _make_date(d.year, 1, 1)
    if unit == "weekYear":
        return _week_date(d.isocalendar()[0], 1, 1)
    if unit == "quarter":
        return _quarter_start(d.year, _quarter(d))
    if unit == "month":
        return _make_date(d.year, d.month, 1)
    if unit == "week":
        return _plus_days(d, -(d.isoweekday() - 1))
    return d


def truncate(
    kind: str, unit: str, value: Any, fields: dict[str, Any] | None, default_zone: Zone = UTC
) -> Any:
    """``kind.truncate(unit, value, fields)``: ``value`` cut down to the start of ``unit``, then
    the fields of the map set, as if selected with ``kind({…: truncated, …fields})``."""
    if value is None:
        return None
    if not isinstance(unit, str):
        raise _type_error(f"truncation unit must be a string, not {unit!r}")
    if unit not in _DATE_UNITS and unit not in _TIME_UNITS:
        raise _arg_error(f"unknown truncation unit {unit!r}")
    fields = dict(fields or {})
    date = _date_of(value)
    nanos = _time_of(value)
    if kind in ("date", "datetime", "localdatetime") and date is None:
        raise _type_error(f"{kind}.truncate needs a value with a date, not {value}")
    if kind in ("localtime", "time") and nanos is None:
        raise _type_error(f"{kind}.truncate needs a value with a time, not {value}")
    if kind in ("localtime", "time") and unit in _DATE_UNITS and unit != "day":
        raise _arg_error(f"cannot truncate a time to {unit}")
    if kind == "date" and unit in _TIME_UNITS:
        raise _arg_error(f"cannot truncate a date to {unit}")
    if date is not None and unit in _DATE_UNITS:
        date = _truncate_date(date, unit)
        nanos = 0
    elif nanos is not None:
        step = _TIME_UNIT_NANOS[unit]
        nanos = nanos // step * step
    zone = _zone_of(value)
    if kind == "date":
        assert date is not None  # a date kind without a date is refused above
        return _from_map("date", {"date": Date(date), **fields}, default_zone)
    if kind == "localtime":
        return _from_map("localtime", {"time": LocalTime(nanos or 0), **fields}, default_zone)
    if kind == "time":
        # the truncated clock keeps its local reading; a timezone field replaces the zone
        if zone is not None and "timezone" not in fields:
            offset = zone.offset_at_local(date or _dt.date.today(), nanos or 0)
            fields["timezone"] = _format_offset(offset)
        return _from_map("time", {"time": LocalTime(nanos or 0), **fields}, default_zone)
    assert date is not None  # localdatetime and datetime are left, refused above without a date
    base_ldt = LocalDateTime(date, nanos or 0)
    if kind == "localdatetime":
        return _from_map("localdatetime", {"datetime": base_ldt, **fields}, default_zone)
    if zone is not None and "timezone" not in fields:
        fields["timezone"] = zone.name or _format_offset(zone.offset)
    return _from_map("datetime", {"datetime": base_ldt, **fields}, default_zone)


# ---------------------------------------------------------------------------------------------
# accessors
# ---------------------------------------------------------------------------------------------


def accessor(value: Any, key: str) -> Any:
    """``value.key`` for a temporal value; raises for a key the type does not have."""
    if isinstance(value, Duration):
        return _duration_accessor(value, key)
    date = _date_of(value)
    if date is not None:
        iso = date.isocalendar()
        got = {
            "year": date.year,
            "quarter": _quarter(date),
            "month": date.month,
            "week": iso[1],
            "weekYear": iso[0],
            "day": date.day,
            "ordinalDay": date.timetuple().tm_yday,
            "weekDay": iso[2],
            "dayOfWeek": iso[2],
            "dayOfQuarter": _day_of_quarter(date),
        }.get(key)
        if got is not None:
            return got
    nanos = _time_of(value)
    if nanos is not None:
        secs, frac = divmod(nanos, NANOS_PER_SECOND)
        got = {
            "hour": secs // 3600,
            "minute": secs // 60 % 60,
            "second": secs % 60,
            "millisecond": frac // 1_000_000,
            "microsecond": frac // 1_000,
            "nanosecond": frac,
        }.get(key)
        if got is not None:
            return got
    if isinstance(value, (Time, DateTime)):
        if key == "timezone":
            return (
                value.zone
                if isinstance(value, DateTime) and value.zone
                else _format_offset(value.offset)
            )
        if key == "offset":
            return _format_offset(value.offset)
        if key == "offsetMinutes":
            return value.offset // 60
        if key == "offsetSeconds":
            return value.offset
    if isinstance(value, DateTime):
        epoch = value.epoch_nanos()
        if key == "epochSeconds":
            return epoch // NANOS_PER_SECOND
        if key == "epochMillis":
            return epoch // 1_000_000
    raise EvaluationError(
        f"{type(value).__name__} has no component {key!r}",
        category="ArgumentError",
        detail="InvalidArgumentValue",
    )


def _duration_accessor(d: Duration, key: str) -> int:
    seconds = d.seconds
    nano = d.nano_of_second
    table = {
        "years": _trunc_div(d.months, 12),
        "quarters": _trunc_div(d.months, 3),
        "months": d.months,
        "weeks": _trunc_div(d.days, 7),
        "days": d.days,
        "hours": _trunc_div(seconds, 3600),
        "minutes": _trunc_div(seconds, 60),
        "seconds": seconds,
        "milliseconds": _trunc_div(d.nanos, 1_000_000),
        "microseconds": _trunc_div(d.nanos, 1_000),
        "nanoseconds": d.nanos,
        "quartersOfYear": _trunc_div(_trunc_rem(d.months, 12), 3),
        "monthsOfQuarter": _trunc_rem(d.months, 3),
        "monthsOfYear": _trunc_rem(d.months, 12),
        "daysOfWeek": _trunc_rem(d.days, 7),
        "minutesOfHour": _trunc_rem(_trunc_div(seconds, 60), 60),
        "secondsOfMinute": _trunc_rem(seconds, 60),
        "millisecondsOfSecond": _trunc_div(nano, 1_000_000),
        "microsecondsOfSecond": _trunc_div(nano, 1_000),
        "nanosecondsOfSecond": nano,
    }
    if key not in table:
        raise EvaluationError(
            f"Duration has no component {key!r}",
            category="ArgumentError",
            detail="InvalidArgumentValue",
        )
    return table[key]


# ---------------------------------------------------------------------------------------------
# comparison and durations between instants
# ---------------------------------------------------------------------------------------------


def sort_key(value: Any) -> tuple:
    """A key that orders values of one temporal type chronologically (durations by their
    components, which is only an order for ORDER BY, not a comparison)."""
    if isinstance(value, Date):
        return (value.date.toordinal(),)
    if isinstance(value, LocalTime):
        return (value.nanos,)
    if isinstance(value, Time):
        return (value.utc_nanos(), value.offset)
    if isinstance(value, LocalDateTime):
        return (value.date.toordinal(), value.nanos)
    if isinstance(value, DateTime):
        return (value.epoch_nanos(), value.offset, value.zone or "")
    if isinstance(value, Duration):
        return (value.months, value.days, value.nanos)
    raise TypeError(value)


def compare(a: Any, b: Any) -> int | None:
    """-1/0/1 for two temporal values of one comparable type, else None (durations never)."""
    if type(a) is not type(b) or isinstance(a, Duration):
        return None
    ka, kb = sort_key(a)[0:2], sort_key(b)[0:2]
    if isinstance(a, (Time, DateTime)):
        ka, kb = ka[:1], kb[:1]
    return (ka > kb) - (ka < kb)


def equal(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, Duration):
        return (a.months, a.days, a.nanos) == (b.months, b.days, b.nanos)
    return compare(a, b) == 0


def _to_local(value: Any) -> tuple[_dt.date | None, int | None, Zone | None]:
    return _date_of(value), _time_of(value), _zone_of(value)


def duration_between(a: Any, b: Any, unit: str | None = None) -> Duration | None:
    """``duration.between(a, b)`` (``unit`` None) or ``duration.inMonths/inDays/inSeconds``."""
    if a is None or b is None:
        return None
    if (
        not isinstance(a, TEMPORAL_TYPES)
        or not isinstance(b, TEMPORAL_TYPES)
        or isinstance(a, Duration)
        or isinstance(b, Duration)
    ):
        raise _type_error("duration.between takes two temporal instants")
    da, ta, za = _to_local(a)
    db, tb, zb = _to_local(b)
    if za is not None and zb is not None and da is not None and db is not None:
        b_dt = _convert_zone(DateTime(db, tb or 0, zb.offset_at_local(db, tb or 0), zb.name), za)
        db, tb = b_dt.date, b_dt.nanos
    elif za is not None and zb is not None and ta is not None and tb is not None:
        tb = tb - (_offset_of(b) - _offset_of(a)) * NANOS_PER_SECOND
    if da is None or db is None:
        nanos = (tb or 0) - (ta or 0)
        if unit in ("months", "days"):
            return Duration(0, 0, 0)
        return Duration(0, 0, nanos)
    ta, tb = ta or 0, tb or 0
    if unit == "seconds":
        return Duration(0, 0, (db.toordinal() - da.toordinal()) * NANOS_PER_DAY + tb - ta)
    total_days = db.toordinal() - da.toordinal()
    if unit == "days":
        days = total_days
        if days > 0 and tb < ta:
            days -= 1
        elif days < 0 and tb > ta:
            days += 1
        return Duration(0, days, 0)
    months = (db.year - da.year) * 12 + (db.month - da.month)
    # step back when the end is before the start within the last month
    if months > 0 and (db.day, tb) < (da.day, ta):
        months -= 1
    elif months < 0 and (db.day, tb) > (da.day, ta):
        months += 1
    if unit == "months":
        return Duration(months, 0, 0)
    anchor = _plus_months(da, months)
    days = db.toordinal() - anchor.toordinal()
    nanos = tb - ta
    if days > 0 and nanos < 0:
        days -= 1
        nanos += NANOS_PER_DAY
    elif days < 0 and nanos > 0:
        days += 1
        nanos -= NANOS_PER_DAY
    return Duration(months, days, nanos)
