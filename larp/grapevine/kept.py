"""What a Grapevine record holds that the sheet has no place for: kept on the character, never dropped.

The reader puts it in ``GrapevineCharacter.kept``, the import stores it as the character's
``imported_unused`` (a JSON object), the character page shows it, ``larp export`` carries it and
the Grapevine export writes it back. No rule reads it. Its keys, each present only when it holds
something:

- ``element``: ``"vampire"`` or ``"mortal"``, the element a ghoul was read from;
- ``attributes``: the record's attributes with no place on the sheet (sire, coterie, aura, id,
  narrator, npc, status, startdate, physicalmax, the temporary Virtues, truefaith, association,
  a ghoul's generation, anything unknown), as written, in file order;
- ``lists``: per list, its entries with no place on the sheet (every entry of Status, Influences,
  Bonds, Miscellaneous, Rituals, Locations, a mortal's Humanity, any list Grapevine users made up;
  the equipment that is no weapon or armor; powers without a level; true Numina), each entry's
  attributes as written;
- ``originals``: per list and entry, what the file wrote where the sheet would write something
  else (``{"Physical": {"Quick": {"note": ["dex", null]}}}``: the file's ``note="dex"``, the sheet's
  none): written back instead while the sheet still gives the same (see :func:`entry_as_written`);
- ``repeated``: per list, a name the file lists more than once, its entries as the file wrote them
  and as the sheet gives them (``{"Derangements": {"Phobia": {"file": [{"name": "Phobia", "note":
  "spiders"}, {...}], "sheet": [...]}}}``): written back as the file had them while the sheet still
  gives the same, so two entries of one name stay two, each with its note and value (issue 27);
- ``order``: per list, the file's order of its entries where the export would write another (a name
  for an entry on the sheet, "" for the next kept one: :func:`arranged`);
- ``absent``: the core values the file left out (``willpower``, ``blood``, ``path``, ``pathtraits``,
  ``humanity``, the ``Health Levels`` list), each with what the export would write instead: left out
  while the sheet still says that, never written as a fact of the file;
- ``version``: the character's version right after the import: while it is unchanged, the export
  writes the file's ``lastmodified`` (kept with the attributes) instead of the time larp last
  changed him;
- ``list_attributes``: a list's attributes where they are not Grapevine's usual ones;
- ``list_order``: the file's order of lists, where it is not Grapevine's usual one;
- ``health_states``: the health chart's closing states, where they are not the usual one;
- ``boons``: each ``{"attributes": {...}, "description": "..."}``;
- ``biography``: its text;
- ``elements``: any other element of the record, as XML text.
"""

from __future__ import annotations

import json
from typing import Any

from larp.grapevine.format import ENTRY_ATTRIBUTE_ORDER
from larp.rules.explain import N_, Phrase

#: The most characters the kept data of one character may take as JSON (a biography of 20,000
#: characters and a few hundred entries fit many times over).
KEPT_MAX_CHARS = 400_000
#: The most characters of one kept text (a biography, a boon's description): as the character's notes.
TEXT_MAX_CHARS = 20_000

KEYS = ("element", "attributes", "lists", "originals", "repeated", "order", "absent", "list_attributes",
        "list_order", "health_states", "boons", "biography", "elements", "version")

_LABELS = {
    "sire": N_("Sire"), "coterie": N_("Coterie"), "aura": N_("Aura"), "id": N_("Grapevine id"),
    "narrator": N_("Narrator"), "npc": N_("NPC"), "status": N_("Grapevine status"), "startdate": N_("Start date"),
    "physicalmax": N_("Physical maximum"), "tempconscience": N_("Temporary Conscience"),
    "tempselfcontrol": N_("Temporary Self-Control"), "tempcourage": N_("Temporary Courage"),
    "truefaith": N_("True Faith"), "association": N_("Association"), "generation": N_("Generation (as written)"),
    "motivation": N_("Motivation"), "temppathtraits": N_("Temporary Path"), "temphumanity": N_("Temporary Humanity"),
    "lastmodified": N_("Last modified in Grapevine"),
}


def entry_as_written(list_name: str, canonical: dict[str, str], kept: dict[str, Any]) -> dict[str, str]:
    """The entry to write for ``canonical`` (what the sheet gives): each attribute the file wrote
    otherwise, where the sheet still gives what it gave at import, is written as the file wrote it."""
    kept_attributes = (kept.get("originals") or {}).get(list_name, {}).get(canonical["name"])
    if not kept_attributes:
        return canonical
    out = dict(canonical)
    for attribute, (as_written, as_sheet) in kept_attributes.items():
        if canonical.get(attribute) == as_sheet:
            if as_written is None:
                out.pop(attribute, None)
            else:
                out[attribute] = as_written
    return _ordered(out)


def arranged(list_name: str, canonical: list[dict[str, str]], kept_entries: list[dict[str, str]],
             kept: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """The entries to write for a list: ``canonical`` (what the sheet gives) as the file wrote them
    (:func:`entry_as_written`; a repeated name's entries whole, while the sheet gives what it gave at
    import), then ``kept_entries`` (what the sheet has no place for), in the file's order where
    ``kept["order"]`` keeps one; entries made since the import come last. Each entry comes with the
    sheet's name for it ("" for a kept one)."""
    groups: dict[str, list[dict[str, str]]] = {}
    for item in canonical:
        groups.setdefault(item["name"], []).append(item)
    repeated = (kept.get("repeated") or {}).get(list_name) or {}
    queues: dict[str, list[tuple[str, dict[str, str]]]] = {}
    for name, items in groups.items():
        stored = repeated.get(name)
        if isinstance(stored, dict) and stored.get("sheet") == items and isinstance(stored.get("file"), list):
            queues[name] = [(name, dict(entry)) for entry in stored["file"]]
        else:
            queues[name] = [(name, entry_as_written(list_name, item, kept)) for item in items]
    rest = [("", dict(entry)) for entry in kept_entries]
    order = (kept.get("order") or {}).get(list_name)
    if not order:
        return [pair for queue in queues.values() for pair in queue] + rest
    out = []
    for token in order:
        queue = queues.get(token) if token else rest
        if queue:
            out.append(queue.pop(0))
    return out + [pair for queue in queues.values() for pair in queue] + rest


def originals_of(list_name: str, written: dict[str, str], canonical: dict[str, str]) -> dict[str, list]:
    """The attributes ``written`` (as the file has the entry) differs in from ``canonical`` (as the
    sheet gives it), each as ``[as written, as the sheet gives it]`` (``None`` for absent)."""
    out = {}
    for attribute in dict.fromkeys([*written, *canonical]):
        if written.get(attribute) != canonical.get(attribute):
            out[attribute] = [written.get(attribute), canonical.get(attribute)]
    return out


def _ordered(attributes: dict[str, str]) -> dict[str, str]:
    first = {k: attributes[k] for k in ENTRY_ATTRIBUTE_ORDER if k in attributes}
    return {**first, **{k: v for k, v in attributes.items() if k not in first}}


def describe(kept: dict[str, Any] | None) -> list[str]:
    """One line per kept item, for the import report and the character page ("Sire: Hardestadt",
    "Influences: Finance 3, Health 2", "Boons: Trivial Boon with Anna (owed), 7/17/2010: for HA")."""
    if not kept:
        return []
    lines = []
    for attribute, value in (kept.get("attributes") or {}).items():
        label = _LABELS.get(attribute)
        lines.append(Phrase.message(N_("%(label)s: %(value)s"), label=Phrase.message(label) if label else attribute,
                                    value=value))
    for list_name, entries in (kept.get("lists") or {}).items():
        lines.append(f"{list_name}: {', '.join(describe_entry(e) for e in entries)}")
    states = kept.get("health_states")
    if states is not None:
        lines.append(Phrase.message(N_("Health chart ends with: %(levels)s"), levels=list(states))
                     if states else Phrase.message(N_("Health chart ends with: nothing")))
    for boon in kept.get("boons") or []:
        attributes = boon.get("attributes") or {}
        boon_type, partner = attributes.get("type", Phrase.message(N_("boon"))), attributes.get("partner", "?")
        text = {"yes": Phrase.message(N_("Boon: %(boon)s with %(partner)s (owed to them)"), boon=boon_type, partner=partner),
                "no": Phrase.message(N_("Boon: %(boon)s with %(partner)s (they owe)"), boon=boon_type, partner=partner),
                }.get(attributes.get("owed", "")) or Phrase.message(N_("Boon: %(boon)s with %(partner)s"),
                                                                     boon=boon_type, partner=partner)
        if attributes.get("date"):
            text = Phrase.message(N_("%(boon)s, %(date)s"), boon=text, date=attributes["date"])
        if boon.get("description"):
            text = Phrase.message(N_("%(boon)s: %(description)s"), boon=text, description=boon["description"])
        lines.append(text)
    if kept.get("biography"):
        lines.append(Phrase.counted(len(kept["biography"]), "Biography (%(n)s character)", "Biography (%(n)s characters)"))
    if kept.get("elements"):
        lines.append(Phrase.message(N_("Other Grapevine elements: %(count)s"), count=len(kept["elements"])))
    for list_name, names in (kept.get("repeated") or {}).items():
        for name, stored in names.items():
            entries = stored.get("file") if isinstance(stored, dict) else None
            if isinstance(entries, list):
                lines.append(Phrase.message(N_("%(list)s, as Grapevine lists them: %(entries)s"), list=list_name,
                                            entries=", ".join(describe_entry(e) for e in entries if isinstance(e, dict))))
    written = sum(len(entries) for entries in (kept.get("originals") or {}).values())
    if written:
        lines.append(Phrase.counted(written, "%(n)s entry kept as Grapevine wrote it (names, notes, costs)",
                                    "%(n)s entries kept as Grapevine wrote them (names, notes, costs)"))
    return lines


def describe_entry(attributes: dict[str, str]) -> str:
    """``Finance (3)``, ``Clan Status: Brujah``, ``Feral Sniffing [Gangrel Beast Traits]``."""
    text = attributes.get("name", "") or "(no name)"
    if attributes.get("val") not in (None, "", "1"):
        text += f" ({attributes['val']})"
    if attributes.get("note"):
        text += f" [{attributes['note']}]"
    return text


def problems_with(kept: Any) -> list[str]:
    """What is wrong with ``kept`` as stored data (a chronicle export may hold anything): its shape
    (an object of the keys above, texts, lists and objects of texts), a text past
    :data:`TEXT_MAX_CHARS`, the whole past :data:`KEPT_MAX_CHARS`; empty when it can be stored."""
    if kept in (None, {}):
        return []
    if not isinstance(kept, dict):
        return ["the data kept from an import must be an object"]
    problems = [f"unknown key {key!r} in the data kept from an import" for key in kept if key not in KEYS]
    if "element" in kept and kept["element"] not in ("vampire", "mortal"):
        problems.append("the element kept from an import must be vampire or mortal")
    stack = [kept]
    while stack and not problems:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if not isinstance(key, str):
                    problems.append("the data kept from an import has a name that is not text")
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if len(item) > TEXT_MAX_CHARS:
                problems.append(f"a text kept from an import is {len(item)} characters long; at most "
                                f"{TEXT_MAX_CHARS} are kept")
        elif item is not None:
            problems.append("the data kept from an import holds something other than text")
    if not problems and len(json.dumps(kept, ensure_ascii=False)) > KEPT_MAX_CHARS:
        problems.append(f"the data kept from an import is longer than {KEPT_MAX_CHARS} characters")
    return problems
