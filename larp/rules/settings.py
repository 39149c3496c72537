"""Chronicle settings: the house rules a chronicle chooses where the books disagree.

Each setting is defined once, with its documented default, in a TOML file
under ``data/settings/`` (one file per rule family: ``challenge.toml``,
``damage.toml``, ...). A chronicle stores only its overrides; the rules core
receives a :class:`ChronicleSettings` (plain data) and names the setting in
any explanation step it decides.

A definition looks like::

    [overbid_ratio]
    label = "Overbid ratio"
    type = "float"            # bool | int | float | choice | text | url | date | timezone
    default = 2.0
    min = 1.0                 # optional, numbers only
    help = "The overbidder needs at least this many times the opponent's Traits."
    source = "LotNR Overbidding; met-reference 8.2 #3"
    # choice settings: choices = { per_source = "Once per source (LotNR)", ... }
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping
from urllib.parse import urlparse
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.numbers import MAX_DIGITS, decimal_number, whole_number
from larp.tables import TableError, data_file_names, load_toml

SETTING_TYPES = ("bool", "int", "float", "choice", "text", "url", "date", "timezone")


#: A number written in digits (a sign, a decimal point or comma): refused only for its length.
_DIGITS = re.compile(r"[+-]?[0-9]+([.,][0-9]+)?")


@dataclass(frozen=True)
class SettingDef:
    """The definition of one chronicle setting (from ``data/settings/*.toml``).

    Attributes:
        key: the setting's name, used in code, storage and explanations.
        family: the file it comes from (``challenge``, ``damage``, ...).
        label: a short name shown to organisers.
        type: one of ``SETTING_TYPES`` (a ``date`` is kept as ISO text, "" for none; a
            ``timezone`` is an IANA name such as ``Europe/London``, "" for the computer's own).
        default: the documented default value.
        help: one or two sentences on what it changes.
        source: where the default comes from (seed or met-reference section).
        choices: for ``choice`` settings, value to label, in display order.
        minimum, maximum: bounds for numeric settings, if any.
    """

    key: str
    family: str
    label: str
    type: str
    default: Any
    help: str
    source: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def coerce(self, raw: Any) -> Any:
        """Turn ``raw`` (form text, JSON value or stored value) into a valid value.

        Raises:
            RulesError: ``raw`` is not a valid value for this setting; the
                error's ``field`` is the setting key.
        """
        value: Any
        try:
            if self.type == "bool":
                if isinstance(raw, bool):
                    value = raw
                elif str(raw).strip().lower() in ("1", "true", "yes", "on"):
                    value = True
                elif str(raw).strip().lower() in ("0", "false", "no", "off", ""):
                    value = False
                else:
                    raise ValueError(raw)
            elif self.type == "int":
                value = whole_number(raw, self.key)
            elif self.type == "float":
                value = decimal_number(raw, self.key)
            elif self.type == "choice":
                value = str(raw).strip()
                if value not in dict(self.choices):
                    raise ValueError(raw)
            elif self.type == "date":
                value = str(raw).strip()
                if value:
                    value = date.fromisoformat(value).isoformat()
            elif self.type == "timezone":
                value = str(raw).strip()
                if value:
                    value = _time_zone_name(value)
            elif self.type == "url":
                value = str(raw).strip().rstrip("/")
                if len(value) > 120:  # a card's QR code must hold it (and a phone camera read it)
                    raise ValueError(raw)
                parsed = urlparse(value)
                if value and (parsed.scheme not in ("http", "https") or not parsed.netloc):
                    raise ValueError(raw)
            else:
                value = str(raw).strip()
        except (TypeError, ValueError):
            text = str(raw).strip()
            if (self.type in ("int", "float") and self.maximum is not None and _DIGITS.fullmatch(text)
                    and sum(ch.isdigit() for ch in text) > MAX_DIGITS):
                # digits, but too many of them (new user 12: twenty 9s were "not a whole number")
                raise RulesError(Phrase.message(N_("%(label)s must be at most %(high)s."), label=self.label,
                                                high=float(self.maximum)), field=self.key) from None
            not_a = {"int": N_("%(label)s: %(shown)s is not a whole number."),
                     "float": N_("%(label)s: %(shown)s is not a number."),
                     "bool": N_("%(label)s: %(shown)s is not a yes or no."),
                     "choice": N_("%(label)s: %(shown)s is not a choice (one of: %(choices)s)."),
                     "url": N_("%(label)s: %(shown)s is not a web address (a full address such as "
                               "http://192.168.1.20:8080, at most 120 characters)."),
                     "date": N_("%(label)s: %(shown)s is not a date (a date such as 2027-06-30, or empty)."),
                     "timezone": N_("%(label)s: %(shown)s is not a time zone (an IANA name such as Europe/London or "
                                    "America/New_York, or empty).")}.get(self.type, N_("%(label)s: %(shown)s is not a value."))
            shown = repr(raw) if len(repr(raw)) <= 60 else repr(raw)[:57] + "..."
            raise RulesError(Phrase.message(not_a, label=self.label, shown=shown,
                                            choices=", ".join(k for k, _ in self.choices)), field=self.key) from None
        if self.type in ("int", "float"):
            if self.minimum is not None and value < self.minimum:
                raise RulesError(Phrase.message(N_("%(label)s must be at least %(low)s."), label=self.label,
                                                low=float(self.minimum)), field=self.key)
            if self.maximum is not None and value > self.maximum:
                raise RulesError(Phrase.message(N_("%(label)s must be at most %(high)s."), label=self.label,
                                                high=float(self.maximum)), field=self.key)
        return value

    def describe(self, value: Any) -> str:
        """The value as an organiser reads it (a choice's label, yes/no...)."""
        if self.type == "choice":
            return dict(self.choices).get(value, str(value))
        if self.type == "bool":
            return "yes" if value else "no"
        return str(value)


def _time_zone_name(name: str) -> str:
    """``name`` if the IANA time zone database knows it (``zoneinfo``; the ``tzdata`` package on Windows).

    Raises:
        ValueError: no such time zone.
    """
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(name) from None
    return name


def _parse_definition(family: str, key: str, entry: dict[str, Any]) -> SettingDef:
    where = f"data/settings/{family}.toml [{key}]"
    if not isinstance(entry, dict):
        raise TableError(f"{where}: must be a table")
    kind = entry.get("type")
    if kind not in SETTING_TYPES:
        raise TableError(f"{where}: type must be one of {', '.join(SETTING_TYPES)}")
    for name in ("label", "help", "source"):
        if not isinstance(entry.get(name), str) or not entry[name].strip():
            raise TableError(f"{where}: missing '{name}'")
    if "default" not in entry:
        raise TableError(f"{where}: missing 'default'")
    choices = entry.get("choices", {})
    if kind == "choice" and (not isinstance(choices, dict) or not choices):
        raise TableError(f"{where}: a choice setting needs a 'choices' table")
    definition = SettingDef(
        key=key,
        family=family,
        label=entry["label"],
        type=kind,
        default=entry["default"],
        help=entry["help"],
        source=entry["source"],
        choices=tuple((str(k), str(v)) for k, v in choices.items()),
        minimum=entry.get("min"),
        maximum=entry.get("max"),
    )
    try:
        definition.coerce(definition.default)
    except RulesError as exc:
        raise TableError(f"{where}: default is invalid: {exc.message}") from None
    return definition


@lru_cache(maxsize=None)
def setting_definitions() -> Mapping[str, SettingDef]:
    """Every chronicle setting, keyed by name, from ``data/settings/*.toml``.

    Raises:
        TableError: a file is malformed, or two files define the same key.
    """
    definitions: dict[str, SettingDef] = {}
    for name in data_file_names("settings"):
        family = name.removesuffix(".toml")
        for key, entry in load_toml(f"settings/{name}").items():
            if key in definitions:
                raise TableError(
                    f"data/settings/{name} [{key}]: already defined in "
                    f"data/settings/{definitions[key].family}.toml"
                )
            definitions[key] = _parse_definition(family, key, entry)
    return MappingProxyType(definitions)


@dataclass(frozen=True)
class ChronicleSettings:
    """The settings in force for one chronicle: defaults plus its overrides.

    Read a value with ``settings["overbid_ratio"]``. Build one with
    :meth:`defaults` or :meth:`from_overrides`.
    """

    values: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        if key in self.values:
            return self.values[key]
        definitions = setting_definitions()
        if key not in definitions:
            raise KeyError(f"unknown chronicle setting {key!r}")
        return definitions[key].default

    def label(self, key: str) -> str:
        """The setting's label and current value, for explanation steps."""
        definition = setting_definitions()[key]
        return f"{definition.label}: {definition.describe(self[key])}"

    def to_dict(self) -> dict[str, Any]:
        """Every setting with its value in force (JSON-ready)."""
        return {key: self[key] for key in setting_definitions()}

    @classmethod
    def defaults(cls) -> "ChronicleSettings":
        """All settings at their documented defaults."""
        return cls({})

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, Any]) -> "ChronicleSettings":
        """Defaults with ``overrides`` applied, each validated.

        Raises:
            RulesError: an unknown key or an invalid value (``field`` names it).
        """
        definitions = setting_definitions()
        values: dict[str, Any] = {}
        for key, raw in overrides.items():
            if key not in definitions:
                raise RulesError(Phrase.message(N_("There is no chronicle setting called %(key)s."), key=repr(key)),
                                 field=key)
            values[key] = definitions[key].coerce(raw)
        return cls(MappingProxyType(values))
