"""The sheet editor's forms: which fields each section shows, and reading a posted section.

A section's inputs are named by the sheet's own dotted paths (``traits.physical.0.count``,
``abilities.2.level``, ``weapons.1.note``), so a problem found by the sheet's validator
(:mod:`larp.sheet_checks`) is shown next to the input it names. Each section ends with a
blank row, so adding is typing into it and saving, with or without JavaScript. A row's
``remove`` box drops it. Reading a form never fails: what was typed is kept as typed,
for the validator to judge and for the form to show again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from larp.i18n import N_
from larp.rules.health import extra_levels
from larp.rules.numbers import NumberError, whole_number
from larp.sheet_entries import CATEGORIES

#: Each section of the editor and the sheet fields it shows (and saves).
SECTIONS: dict[str, tuple[str, ...]] = {
    "identity": ("name", "player_name", "creature", "clan", "sect", "title", "generation", "blood_max",
                 "blood_per_turn", "morality_name", "morality_rating", "virtues", "willpower_permanent", "nature",
                 "demeanor", "scene_extra", "player_contact", "health_levels"),
    "traits": ("traits", "negative_traits"),
    "abilities": ("abilities", "specialisations"),
    "powers": ("powers",),
    "qualities": ("backgrounds", "merits", "flaws", "derangements"),
    "equipment": ("weapons", "armor"),
    "notes": ("notes", "narrator_notes"),
    "tabletop": ("tabletop",),
}
TITLES = {  # marked: the pages show them in the reader's language
    "identity": N_("Identity"), "traits": N_("Traits"), "abilities": N_("Abilities"), "powers": N_("Disciplines"),
    "qualities": N_("Backgrounds, Merits and Flaws"), "equipment": N_("Equipment"), "notes": N_("Notes"),
    "tabletop": N_("Tabletop ratings"),
}
#: Sections where buying something may be logged as experience spent.
XP_SECTIONS = ("traits", "abilities", "powers", "qualities")
#: How many of one adjective a tap on its chip adds at most.
MOST_PER_TAP = 5


@dataclass
class SectionForm:
    """A posted section read: ``data``, the sheet fields as typed (rows removed or left blank
    are not in it; what a chip or an "Add" added is at the end of its list). A refused save
    shows ``data`` again, so the validator's paths name its rows. ``added`` says what a chip
    or an "Add" added."""

    data: dict[str, Any]
    added: str = ""


def _rows(form: Mapping[str, Any], prefix: str) -> list[tuple[int, dict[str, Any]]]:
    """The rows ``prefix.N.key`` of the form, by N, each as {key: value} (lists for repeated keys)."""
    rows: dict[int, dict[str, Any]] = {}
    getlist = getattr(form, "getlist", None)
    for name in form:
        if not name.startswith(prefix + "."):
            continue
        rest = name[len(prefix) + 1:]
        index, _, key = rest.partition(".")
        try:
            row = whole_number(index, name, low=0, high=500)
        except NumberError:
            continue
        values = getlist(name) if getlist else [form[name]]
        rows.setdefault(row, {})[key] = values if key in ("specials", "covers") else values[-1]
    return sorted(rows.items())


def health_track_levels(choice: Any) -> list[str] | None:
    """The sheet's ``health_levels`` for the editor's "Health track" choice: "extra", the extras'
    four levels (000 "Optional Rule: Extras": Hurt, Maimed, Incapacitated, then dead); "chronicle",
    none of its own (the chronicle's track); anything else (a track imported from a Grapevine file
    kept as it is, or no choice sent): ``None``, the levels stay as they are."""
    if choice == "extra":
        return list(extra_levels())
    if choice == "chronicle":
        return []
    return None


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _ticked(row: Mapping[str, Any], key: str) -> bool:
    return str(row.get(key, "")).lower() in ("1", "on", "yes", "true")


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def read_section(section: str, form: Mapping[str, Any]) -> SectionForm:
    """Read the posted ``section`` into sheet fields (as :meth:`larp.sheet.CharacterSheet.from_dict`
    reads them), without judging them.

    Raises:
        KeyError: an unknown section.
    """
    keys = SECTIONS[section]
    out = SectionForm({})
    if section in ("identity", "notes"):
        for key in keys:
            if key == "virtues":
                out.data["virtues"] = {name[len("virtues."):]: form[name].strip() for name in form
                                       if name.startswith("virtues.") and not _blank(form[name])}
            elif key == "scene_extra":
                out.data["scene_extra"] = _ticked(form, "scene_extra")
            elif key == "health_levels":
                track = health_track_levels(form.get("health_track"))
                if track is not None:
                    out.data["health_levels"] = track
            elif key in ("generation", "blood_max", "blood_per_turn"):
                value = _text(form.get(key, ""))
                out.data[key] = value or (None if key == "generation" else 0)
            else:
                out.data[key] = form.get(key, "")
        return out
    if section == "traits":
        _read_traits(form, out)
    elif section == "abilities":
        abilities: dict[str, Any] = {}
        specialisations: dict[str, Any] = {}
        for _, row in _rows(form, "abilities"):
            name = _text(row.get("name"))
            if not name or _ticked(row, "remove"):
                continue
            abilities[name] = _text(row.get("level")) or "1"
            if _text(row.get("specialisations")):
                specialisations[name] = [s.strip() for s in row["specialisations"].split(",") if s.strip()]
        picked = _text(form.get("abilities.add"))
        if picked:  # a chip of the books' Abilities (issue 31 item 6): added at level 1, or one level more
            held = next((n for n in abilities if n.lower() == picked.lower()), None)
            if held is None:
                abilities[picked] = "1"
                out.added = f"{picked} 1"
            elif str(abilities[held]).isdigit():
                abilities[held] = str(int(abilities[held]) + 1)
                out.added = f"{held} {abilities[held]}"
        out.data.update(abilities=abilities, specialisations=specialisations)
    elif section == "powers":
        powers = _list(form, "powers", out, lambda row: not _blank(row.get("power")), lambda row: {
            "discipline": _text(row.get("discipline")), "power": _text(row.get("power")),
            "level": _text(row.get("level")) or None, "custom": _ticked(row, "custom")})
        picked = _text(form.get("powers.add"))
        if picked and "|" in picked:
            discipline, _, power = picked.partition("|")
            powers.append({"discipline": discipline, "power": power, "level": None, "custom": False})
            out.added = f"{discipline}: {power}"
        out.data["powers"] = powers
    elif section == "qualities":
        backgrounds: dict[str, Any] = {}
        for _, row in _rows(form, "backgrounds"):
            name = _text(row.get("name"))
            if name and not _ticked(row, "remove"):
                backgrounds[name] = _text(row.get("rating")) or "1"
        out.data["backgrounds"] = backgrounds
        for kind in ("merits", "flaws"):
            entries = _list(form, kind, out, lambda row: not _blank(row.get("name")) or not _blank(row.get("key")),
                            lambda row: {"key": _text(row.get("key")), "name": _text(row.get("name")),
                                         "cost": _text(row.get("cost")) or None, "note": _text(row.get("note"))})
            picked = _text(form.get(f"{kind}.add"))
            if picked:
                entries.append({"key": picked, "name": "", "cost": _text(form.get(f"{kind}.add_cost")) or None,
                                "note": _text(form.get(f"{kind}.add_note"))})
            out.data[kind] = entries
        out.data["derangements"] = [_text(row.get("name")) for _, row in _rows(form, "derangements")
                                    if _text(row.get("name")) and not _ticked(row, "remove")]
    elif section == "equipment":
        for kind in ("weapons", "armor"):
            entries = _list(form, kind, out, lambda row: not _blank(row.get("name")) or not _blank(row.get("key")),
                            lambda row, kind=kind: _gear(kind, row))
            picked = _text(form.get(f"{kind}.add"))
            if picked:
                entries.append({"key": picked, "note": ""})
            out.data[kind] = entries
    elif section == "tabletop":
        out.data["tabletop"] = {name[len("tabletop."):]: form[name].strip() for name in form
                                if name.startswith("tabletop.") and not _blank(form[name])}
    return out


def _list(form: Mapping[str, Any], prefix: str, out: SectionForm, keep, build) -> list[dict[str, Any]]:
    """The rows ``prefix.N...`` that ``keep`` and are not removed, built by ``build``, in form order."""
    return [build(row) for _, row in _rows(form, prefix) if not _ticked(row, "remove") and keep(row)]


def _gear(kind: str, row: Mapping[str, Any]) -> dict[str, Any]:
    if _text(row.get("key")):
        return {"key": _text(row.get("key")), "note": _text(row.get("note"))}
    negative = [t.strip() for t in _text(row.get("negative_traits")).split(",") if t.strip()]
    if kind == "weapons":
        return {"name": _text(row.get("name")), "bonus_traits": _text(row.get("bonus_traits")) or "0",
                "damage": _text(row.get("damage")) or "1", "damage_type": _text(row.get("damage_type")) or "bashing",
                "kind": _text(row.get("kind")) or "blade", "specials": [s for s in row.get("specials", []) if s],
                "negative_traits": negative, "note": _text(row.get("note"))}
    return {"name": _text(row.get("name")), "rating": _text(row.get("rating")) or "1",
            "covers": [c for c in row.get("covers", []) if c], "negative_traits": negative,
            "note": _text(row.get("note"))}


def _read_traits(form: Mapping[str, Any], out: SectionForm) -> None:
    """Traits per category with their counts; a tapped chip (``pick``) adds its adjective with
    the chosen count (``add_count``), and the validator merges it into one the sheet already has."""
    count = _text(form.get("add_count")) or "1"
    pick = _text(form.get("pick"))
    for attr in ("traits", "negative_traits"):
        groups: dict[str, list[dict[str, Any]]] = {}
        for category in CATEGORIES:
            prefix = f"{attr}.{category}"
            groups[category] = _list(form, prefix, out, lambda row: not _blank(row.get("name")),
                                     lambda row: {"name": _text(row.get("name")),
                                                  "count": _text(row.get("count")) or "1"})
        out.data[attr] = groups
    added = []
    if pick and ":" in pick:
        where, _, name = pick.partition(":")
        if name:
            added.append((where, name))
    for attr in ("traits", "negative_traits"):
        for category in CATEGORIES:
            where = f"{attr}.{category}"
            typed = _text(form.get(f"custom.{where}"))
            if typed:  # a typed adjective is added by any button of the form (Enter included)
                added.append((where, typed))
    for where, name in added:
        attr, _, category = where.partition(".")
        if attr in ("traits", "negative_traits") and category in CATEGORIES:
            entries = out.data[attr][category]
            entries.append({"name": name, "count": count})
            out.added = ", ".join(filter(None, [out.added, f"{name} ×{count}" if count != "1" else name]))
