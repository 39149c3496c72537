"""The state of the combat board and the stray-shot screen (issue 4): who is chosen, each
person's fields, the pickers' text, the scene, and the edits that change them.

Everything a screen shows lives in its form and its address, so it works without
JavaScript: :class:`PeopleForm` reads it from either and writes it back as query
parameters. Nothing here rules: the services and the rules core do.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import request
from flask_babel import gettext

from larp.models import Character
from larp.rules.challenge import POTENCE_TRAIT
from larp.rules.damage import armory
from larp.db import as_id
from larp.rules.explain import N_, Phrase
from larp.rules.mass_challenge import MAX_PER_RANGE
from larp.rules.order import celerity_note
from larp.services import ServiceError, read_json
from larp.rules.scene import RangeBand, SideScene
from larp.rules.senses import sense_table
from larp.services.characters import (
    character_states,
    find_characters,
    get_character,
    normalise_code,
    person_of,
    weapon_for_range,
)
from larp.services.challenges import check_can_act
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.services.mass_challenge import default_lead
from larp.services.scenes import held_sight, side_scene
from larp.web.inputs import yes
from larp.web.tap_settings import remember_settings
from larp.web.scene_memory import recent
from larp.web.stored_scenes import current_scene

THROWS = (("rock", "Rock"), ("paper", "Paper"), ("scissors", "Scissors"))
RANGES = (("hand_to_hand", "Hand to hand"), ("ranged", "Ranged"))
COUNTERS = (("defend", "Only defends"), ("strike", "Strikes back bare-handed"), ("bite", "Bites back"),
            ("weapon", "Strikes back with a weapon"))
#: One person's part of the scene (:mod:`larp.services.scenes`): his own darkness, armor, sight powers off.
PERSON_SCENE_TEXT = ("darkness", "armor", "armor_left")
PERSON_SCENE_FLAGS = ("sight_off", "shroud")
ROW_TEXT = ("range", "weapon", "bid", "throw") + PERSON_SCENE_TEXT
ROW_FLAGS = ("relent", "bite", "nostrength", "prowess", "celerity", "headshot", "fullauto", "bomb") + PERSON_SCENE_FLAGS
TARGET_TEXT = ("bid", "throw", "counter", "weapon") + PERSON_SCENE_TEXT
TARGET_FLAGS = ("celerity", "prowess", "bomb") + PERSON_SCENE_FLAGS
BYSTANDER_TEXT = ("throw", "firer_throw", "bid") + PERSON_SCENE_TEXT
BYSTANDER_FLAGS = ("saw", "excluded") + PERSON_SCENE_FLAGS
FIRER_TEXT = ("weapon", "throw", "bid", "darkness")
FIRER_FLAGS = ("single", "careful_aim", "close_range", "sight_off", "shroud", "deliberate_spray")
#: The whole scene: its darkness, the range and the sense the challenges depend on (kept in the screen's form
#: and address).
SCENE_TEXT = ("darkness", "range", "sense")
DARKNESS = (("none", "Light"), ("partial", "Partial dark"), ("total", "Total dark"))
#: The longest Trait name a sheet holds (``Trait.name``): a bid typed longer names no Trait.
LONGEST_TRAIT = 80
#: The longest character name (``Character.name``): a picker's text longer than that finds nobody.
LONGEST_NAME = 120


def sense_choices() -> list[tuple[str, str]]:
    """The senses a challenge may depend on, as a screen offers them (``data/senses.toml``; LotNR Acute Sense)."""
    return [(key, key.capitalize()) for key in sense_table().senses]


def _choices(base: str, in_row: bool) -> frozenset[str] | int:
    """What a screen's value called ``base`` (``range``, ``darkness``, ``throw``...) may be: its
    choices, or the most characters of a typed text (a bid is a Trait name)."""
    if base == "range":
        return frozenset(k for k, _ in RANGES) if in_row else frozenset(band.value for band in RangeBand)
    if base == "darkness":
        return frozenset(k for k, _ in DARKNESS)
    if base == "sense":
        return frozenset(sense_table().senses)
    if base == "throw":
        return frozenset(k for k, _ in THROWS) | {"bomb", "random"}
    if base == "counter":
        return frozenset(k for k, _ in COUNTERS)
    if base == "weapon":
        return frozenset(armory("live").weapons)
    if base == "armor":
        return frozenset(armory("live").armor) | {"none"}
    if base == "armor_left":
        return frozenset(str(n) for n in range(100))
    return LONGEST_TRAIT  # a bid


def refusal(name: str, base: str, value: str, in_row: bool) -> str | None:
    """Why the value ``value`` of the screen's field ``name`` cannot go into the screen's address (it
    is not one of its choices, or longer than any Trait), or ``None`` when it can (issue 28 item 5)."""
    allowed = _choices(base, in_row)
    if isinstance(allowed, int):
        return None if len(value) <= allowed else f"“{name}” is longer than any Trait ({allowed} characters)."
    if value in allowed:
        return None
    shown = ", ".join(sorted(allowed)) if len(allowed) <= 12 else "the choices on the screen"
    return f"“{name}” is not one of this screen's choices ({shown})."


def _getlist(values: Mapping[str, Any], key: str) -> list[str]:
    if hasattr(values, "getlist"):
        return values.getlist(key)
    value = values.get(key)
    return value if isinstance(value, list) else ([] if value in (None, "") else [value])


def _id(value: Any) -> int | None:
    return as_id(value)


def _json(values: Mapping[str, Any], key: str) -> dict[str, list[dict]]:
    try:
        data = read_json(values.get(key) or "{}", key, label="The fight in progress")
    except ServiceError:
        raise ServiceError("The fight in progress could not be read; resolve it again.", field=key) from None
    if not isinstance(data, dict) or not all(isinstance(v, list) and all(isinstance(t, dict) for t in v)
                                             for v in data.values()):
        raise ServiceError("The fight in progress could not be read; resolve it again.", field=key)
    return data


@dataclass
class PeopleForm:
    """A screen's state: the chosen characters, their per-row fields, the pickers' text.

    ``picks`` are single characters (``target``; ``firer``), ``fields`` the
    scalar inputs (``target_throw``...), ``rows`` the listed people in order,
    each a dict of its fields with ``id``.
    """

    prefix: str
    row_text: tuple[str, ...]
    row_flags: tuple[str, ...]
    picks: dict[str, int | None] = field(default_factory=dict)
    queries: dict[str, str] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    add_q: str = ""
    injures: str = ""
    tests: dict[str, list[dict]] = field(default_factory=dict)

    @classmethod
    def read(cls, values: Mapping[str, Any], prefix: str, picks: tuple[str, ...], text: tuple[str, ...],
             flags: tuple[str, ...], row_text: tuple[str, ...], row_flags: tuple[str, ...], *,
             strict: bool = True) -> PeopleForm:
        """The state a form or query describes.

        Every value that goes back into the screen's address (:meth:`query`) is checked against its
        choices (:func:`refusal`; issue 28 item 5: a 70,000-character ``range`` became a 70 kB
        ``Location`` header). A picker's text longer than any name is left out of the address
        (:meth:`query`; it finds nobody).

        Args:
            strict: refuse a value that is not one of its choices (a form); otherwise leave it out,
                and leave out a fight in progress that cannot be read (an address, or the screen
                drawn again around a refusal).

        Raises:
            ServiceError: 422 naming the field of a value that is not one of its choices, or of a
                fight in progress (``tests_json``) that cannot be read (only when ``strict``).
        """
        people_form = cls(prefix, row_text, row_flags)

        def checked(name: str, base: str, value: str, in_row: bool) -> str:
            why = refusal(name, base, value, in_row) if value else None
            if why is None:
                return value
            if strict:
                raise ServiceError(why + " Choose again on the screen.", field=name)
            return ""

        for name in picks:
            picked = _id(values.get(name))
            # One character is one party: an address naming him twice (hand-made or stale: the firer as the target)
            # leaves the later pick open, as the pickers never offer him twice (new user 10); a form so sent is
            # refused with its reason by the screen's own check.
            twice = not strict and picked in people_form.picks.values()
            people_form.picks[name] = None if twice else picked
            people_form.queries[name] = (values.get(f"{name}_q") or "").strip()
        scene_keys = {key for key in text if key in SCENE_TEXT}
        for key in text:
            base = key if key in scene_keys else key.split("_", 1)[1] if key.startswith(("target_", "firer_")) else key
            people_form.fields[key] = checked(key, base, (values.get(key) or "").strip(), False)
        for key in flags:
            people_form.fields[key] = "on" if yes(values, key) else ""
        # An address's target is no attacker of his own (a form naming him both is refused, with its reason).
        seen = set() if strict else {cid for cid in people_form.picks.values() if cid is not None}
        for raw in _getlist(values, prefix):
            cid = _id(raw)
            if cid is None or cid in seen:
                continue
            seen.add(cid)
            row: dict[str, Any] = {"id": cid}
            for key in row_text:
                name = f"{prefix}{cid}_{key}"
                row[key] = checked(name, key.removeprefix("firer_"), (values.get(name) or "").strip(), True)
            for key in row_flags:
                row[key] = yes(values, f"{prefix}{cid}_{key}")
            people_form.rows.append(row)
        people_form.add_q = (values.get("add_q") or "").strip()
        people_form.injures = (values.get("injures") or "").strip()
        try:
            people_form.tests = _json(values, "tests_json") if values.get("tests_json") else {}
        except ServiceError:
            if strict:
                raise
            people_form.tests = {}
        return people_form

    def ids(self) -> list[int]:
        """The listed people's ids, in order."""
        return [row["id"] for row in self.rows]

    def query(self, **extra: Any) -> dict[str, Any]:
        """The state as query parameters (for the address bar and redirects)."""
        out: dict[str, Any] = {}
        for name, cid in self.picks.items():
            if cid is not None:
                out[name] = cid
            elif self.queries.get(name) and len(self.queries[name]) <= LONGEST_NAME:
                out[f"{name}_q"] = self.queries[name]  # longer finds nobody: never in the address
        out.update({k: v for k, v in self.fields.items() if v})
        out[self.prefix] = self.ids()
        for row in self.rows:
            for key in self.row_text:
                if row.get(key):
                    out[f"{self.prefix}{row['id']}_{key}"] = row[key]
            for key in self.row_flags:
                if row.get(key):
                    out[f"{self.prefix}{row['id']}_{key}"] = "on"
        out.update({k: v for k, v in extra.items() if v not in (None, "")})
        return out

    def clear_round(self, keys: tuple[str, ...], row_keys: tuple[str, ...]) -> None:
        """Forget the signs and choices of the round just recorded (the people stay)."""
        for key in keys:
            self.fields[key] = ""
        for row in self.rows:
            for key in row_keys:
                row[key] = "" if key in self.row_text else False
        self.tests, self.injures = {}, ""


def _matches(chronicle, text: str) -> tuple[list[Character], bool]:
    """Characters for the text typed in an add box: several card codes at once, or one name.

    Returns the matches and whether the text was a list of codes (then every one is added).

    Raises:
        EditError: 404 some of several card codes open a character and the others none (and the text is no
            name): nothing is added, and the message names only the codes that match no one (new-user test 12),
            the box keeping the good ones as typed.
    """
    tokens = [t for t in re.split(r"[\s,;]+", text) if t]
    if 1 < len(tokens) <= 2 * MAX_PER_RANGE:  # more codes than a board can take are not looked up one by one
        found = [Character.get_or_none((Character.chronicle == chronicle)
                                       & (Character.short_code == normalise_code(t))) for t in tokens]
        if all(found):
            return found, True
        if any(found):
            by_name = find_characters(chronicle, text, tonight=True)
            if by_name:
                return by_name, False
            bad = [t for t, c in zip(tokens, found) if c is None]
            raise EditError(Phrase.message(N_("No character has the card code %(codes)s: nothing was added. Fix it or "
                                              "take it out; the other codes are kept in the box.") if len(bad) == 1
                                           else N_("No character has the card codes %(codes)s: nothing was added. Fix "
                                                   "them or take them out; the other codes are kept in the box."),
                                           codes=", ".join(f"“{t}”" for t in bad)), field="add_q", status=404)
    return find_characters(chronicle, text, tonight=True), False


class EditError(ServiceError):
    """An edit of the screen that cannot be made (nothing changes)."""


def _add(people_form: PeopleForm, chronicle, cids: list[int], defaults: dict[str, Any], blocked: dict[int, str],
         limit: tuple[str, int] | None = None) -> None:
    for cid in cids:
        character = Character.get_or_none((Character.id == cid) & (Character.chronicle == chronicle))
        if character is None:
            raise EditError(Phrase.message(N_("There is no such character in this chronicle.")), field="add_q")
        if cid in blocked:
            raise EditError(blocked[cid].format(name=character.name), field="add_q")
        if cid in people_form.ids():
            raise EditError(Phrase.message(N_("%(name)s is already on the list."), name=character.name), field="add_q")
        if limit is not None:
            key, most = limit
            kind = defaults.get(key) or "hand_to_hand"
            same = [r for r in people_form.rows if (r.get(key) or "hand_to_hand") == kind]
            if len(same) >= most:
                said = N_('At most %(most)s characters can engage one target hand to hand (002 "Mass Combat"): %(name)s '
                          "would be the %(n)sth. Resolve that attack in another challenge.") if kind == "hand_to_hand" \
                    else N_('At most %(most)s characters can engage one target with ranged weapons (002 "Mass Combat"): '
                            "%(name)s would be the %(n)sth. Resolve that attack in another challenge.")
                raise EditError(Phrase.message(said, most=most, name=character.name, n=most + 1),
                                field="add_q")
        row = {"id": cid, **{k: "" for k in people_form.row_text}, **{k: False for k in people_form.row_flags}}
        row.update(defaults)
        if "weapon" in row and "range" in row:  # the combat board: his weapon for that range, when he has one
            row["weapon"] = weapon_for_range(character, row["range"] == "ranged")
        people_form.rows.append(row)


def edit(people_form: PeopleForm, chronicle, step: str, pickers: tuple[str, ...], blocked: dict[int, str],
          add_limit: bool) -> dict[str, Any]:
    """Apply one edit ``step`` to ``people_form``; returns what the screen should show (search results)."""
    kind, _, arg = step.partition(":")
    shown: dict[str, Any] = {}
    if kind == "enter":
        open_pick = next((p for p in pickers if people_form.picks.get(p) is None and people_form.queries.get(p)), None)
        if people_form.add_q:
            kind, arg = "add", "hand_to_hand"
        elif open_pick:
            kind, arg = "find", open_pick
        else:
            return shown
    if kind == "find" and arg in pickers:
        text = people_form.queries.get(arg, "")
        found = find_characters(chronicle, text, tonight=True) if text else []
        if len(found) == 1:
            kind, arg = "set", f"{arg}:{found[0].id}"
        elif not found:
            raise EditError(Phrase.message(N_("No character matches “%(query)s”."), query=text) if text
                            else Phrase.message(N_("Type a name or card code.")),
                            field=f"{arg}_q")
        else:
            shown[f"{arg}_results"] = found
            return shown
    if kind == "set":
        name, _, cid = arg.partition(":")
        if name in pickers and _id(cid) is not None:
            character = get_character(chronicle, cid, f"{name}_q")
            if character.id in people_form.ids():
                raise EditError(Phrase.message(N_("%(name)s is already on the list below: remove him there first."),
                                               name=character.name),
                                field=f"{name}_q")
            people_form.picks[name] = character.id
            people_form.queries[name] = ""
            if name == "firer" and not people_form.fields.get("firer_weapon"):  # the stray shot: his gun, if he has one
                people_form.fields["firer_weapon"] = weapon_for_range(character, True)
            shown["focus_add"] = True
        return shown
    if kind == "clear" and arg in pickers:
        people_form.picks[arg] = None
        return shown
    if kind in ("add", "pick"):
        if kind == "pick":
            listed, _, arg = arg.partition(":")  # one id, or several ("All of them attack")
            cids = [i for i in (_id(cid) for cid in listed.split(",")) if i is not None]
        else:
            if not people_form.add_q:
                raise EditError(Phrase.message(N_("Type a name or a card code (several codes at once, separated by "
                                                  "spaces).")),
                                field="add_q")
            found, all_codes = _matches(chronicle, people_form.add_q)
            if not found:
                raise EditError(Phrase.message(N_("No character matches “%(add_q)s”."),
                                               add_q=people_form.add_q), field="add_q")
            if len(found) > 1 and not all_codes:
                shown["add_results"], shown["add_range"] = found, arg
                return shown
            cids = [c.id for c in found]
        defaults = {"range": "ranged"} if add_limit and arg == "ranged" else {}
        _add(people_form, chronicle, cids, defaults, blocked, ("range", MAX_PER_RANGE) if add_limit else None)
        people_form.add_q = ""
        shown["focus_add"] = True
        return shown
    cid = _id(arg)
    index = next((i for i, r in enumerate(people_form.rows) if r["id"] == cid), None)
    if index is None:
        return shown
    if kind == "remove":
        people_form.rows.pop(index)
        people_form.tests.pop(str(cid), None)
    elif kind == "up" and index > 0:
        people_form.rows[index - 1], people_form.rows[index] = people_form.rows[index], people_form.rows[index - 1]
    elif kind == "down" and index < len(people_form.rows) - 1:
        people_form.rows[index + 1], people_form.rows[index] = people_form.rows[index], people_form.rows[index + 1]
    return shown


def _states(people_form: PeopleForm, chronicle, game_session, settings,
            tapped: dict[int, Any] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The picks' and rows' characters as they stand tonight, in two queries whatever their number (the
    characters, then their sheet rows: :func:`larp.services.characters.character_states`), or none when
    the tap just loaded them all (``tapped``: its states after it, by id); a pick or row whose character is
    gone (or of another chronicle) is dropped from the form."""
    ids = {as_id(cid) for cid in people_form.picks.values() if cid is not None} | {
        as_id(row["id"]) for row in people_form.rows}
    ids.discard(None)
    if tapped is not None and ids <= tapped.keys():
        states = tapped  # the tap's own: loaded in its transaction, with what it wrote (no read again)
    else:
        found = list(Character.select().where(Character.id.in_(sorted(ids)) & (Character.chronicle == chronicle))) \
            if ids else []
        states = character_states(found, game_session, settings)
    picks = {}
    for name, cid in people_form.picks.items():
        if cid is not None:
            state = states.get(as_id(cid))
            if state is None:
                people_form.picks[name] = None
            else:
                picks[name] = state
    rows = []
    for row in list(people_form.rows):
        state = states.get(as_id(row["id"]))
        if state is None:
            people_form.rows.remove(row)
            continue
        rows.append({"row": row, "state": state})
    return picks, rows


def cannot_act(state, field: str) -> str | None:
    """Why the character of ``state`` cannot take part in the fight (unconscious, in torpor, Final Death,
    Incapacitated, staked: the rules core's own check and words), or None; the screens say it on his card
    as soon as he is chosen, as the challenge screen does, rather than only after Resolve."""
    try:
        check_can_act(state.character, state, field)
    except ServiceError as exc:
        return exc.message
    return None


def able_to_act(characters: list[Character], game_session, settings) -> tuple[list[Character], list[dict[str, str]]]:
    """``characters`` split into those who can take part in a fight and those who cannot, each of the latter as
    ``{"name", "why"}`` (the rules core's own check and words, :func:`cannot_act`: unconscious, in torpor, Final
    Death, Incapacitated, staked; LotNR Health, met-reference 4.1; 000 "Stake Through Heart"), their states read
    in one query (:func:`larp.services.characters.character_states`; none when there is no one)."""
    if not characters:
        return [], []
    states = character_states(characters, game_session, settings)
    able, left_out = [], []
    for character in characters:
        why = cannot_act(states[character.id], "in_scene")
        if why:
            left_out.append({"name": character.name, "why": why})
        else:
            able.append(character)
    return able, left_out


#: The core's words for what active Celerity adds (larp.rules.order.celerity_note), for the catalogues.
CELERITY_WORDS = (N_("extra actions"), N_("speed Bomb"))


def said_celerity_note(celerity: int) -> str:
    """:func:`larp.rules.order.celerity_note` in the reader's language."""
    return ", ".join(gettext(word) for word in celerity_note(celerity).split(", ") if word)


def extras(state) -> dict[str, Any]:
    """What the screen offers one character, from what the tool knows about him."""
    powers = {name.lower() for held in state.powers.values() for _lvl, name in held}
    return {
        "bomb": "vigor" in powers or "rapidity" in powers,
        "intensity": "intensity" in powers,
        "prowess": state.discipline_level("Potence") >= 1,
        "celerity": state.discipline_level("Celerity"),
        "celerity_note": said_celerity_note(state.discipline_level("Celerity")),  # what it adds, from the core
        "lead": default_lead(state, "physical"),
        "vampire": state.character.creature == "vampire",
        "sight": held_sight(person_of(state)),
        "armor_worn": [a.name for a in state.armor],
    }


def person_scene(values: Mapping[str, Any], prefix: str, weapon: str | None = None) -> SideScene:
    """One person's part of the scene from the screen's fields (``prefix`` ``target_``, or a row's
    own dict with no prefix): his darkness (a Shroud of Night when ``shroud``), armor, sight powers off.

    Raises:
        ServiceError: 422 naming the field of a malformed value.
    """
    def get(key: str) -> Any:
        if key == "darkness_source":
            return "shroud" if values.get(prefix + "shroud") else ""
        if key in PERSON_SCENE_TEXT or key == "sight_off":
            return values.get(prefix + key)
        return None

    return side_scene(get, prefix, weapon=weapon)


def scene_fields(people_form: "PeopleForm") -> dict[str, Any]:
    """The whole scene as the screen set it (``darkness``, ``range``)."""
    return {key: people_form.fields[key] for key in SCENE_TEXT if people_form.fields.get(key)}


def error_row(error: ServiceError | None, people_form: PeopleForm, list_key: str) -> int | None:
    """The id of the listed person an error's field names (``attackers[2].bid``), to show it on his row."""
    if error is None or not error.field:
        return None
    match = re.match(rf"{list_key}\[(\d+)\]", error.field)
    if match and int(match.group(1)) < len(people_form.rows):
        return people_form.rows[int(match.group(1))]["id"]
    return None


def base_context(people_form: PeopleForm, tap: Any = None, **extra: Any) -> dict[str, Any]:
    """What both screens show: the chosen people as they stand tonight, the armory, the scene's choices.

    ``tap``: the answer of the tap this request made (its ``settings``, ``game_session`` and ``after``, the
    people as they stand after it, :func:`larp.services.one_tap.states_after`): the screen is drawn from it,
    not read again (issue 29 item 6: at most 12 statements a tap). ``None``: read them.
    """
    chronicle = get_chronicle()
    if tap is not None and tap.settings is not None:
        settings, game_session = tap.settings, tap.game_session
        remember_settings(chronicle, settings)
    else:
        settings, game_session = chronicle_settings(chronicle), open_game_session(chronicle)
    picks, rows = _states(people_form, chronicle, game_session, settings, tap.after if tap is not None else None)
    for line in rows:
        line["cannot_act"] = cannot_act(line["state"], "row")
    weapons = armory("live").weapons
    picked = [state.character.id for state in picks.values()] + [line["state"].character.id for line in rows]
    in_scene = recent(exclude=picked)
    near = {c.id: c for c in Character.select().where(
        (Character.chronicle == chronicle) & Character.id.in_(in_scene) & Character.retired_at.is_null())} \
        if in_scene else {}
    able, left_out = able_to_act([near[i] for i in in_scene if i in near], game_session, settings)
    return {
        # The characters already in this scene who can take part, one tap away in the pickers (issue 18); those
        # the core's condition rules refuse (torpor, Final Death...) left out, and said in one line
        # (new-user test 12, finding 7).
        "in_scene": able, "in_scene_left_out": left_out,
        "chronicle": chronicle, "game_session": game_session, "people_form": people_form, "picks": picks, "rows": rows,
        "extras": extras, "throws": THROWS, "ranges": RANGES, "counters": COUNTERS,
        "melee_weapons": {k: w for k, w in weapons.items() if w.melee},
        "ranged_weapons": {k: w for k, w in weapons.items() if not w.melee},
        "guns": {k: w for k, w in weapons.items() if not w.melee},
        "potence_trait": POTENCE_TRAIT, "max_per_range": MAX_PER_RANGE, "error": None, "shown": {},
        "armors": armory("live").armor, "darkness_choices": DARKNESS,
        "range_choices": [(band.value, band.label.capitalize()) for band in RangeBand],
        "sense_choices": sense_choices(),
        "stored_scene": current_scene(),
        "preview": None, "outcome": None, "recorded": None, "error_row": None,
        # Who cannot take part, by pick (the screen says it for the picks that act: target, firer).
        "cannot_act": {name: cannot_act(state, name) for name, state in picks.items()},
        # A fight in progress or refused keeps its form's one-time token; a new fight gets a new one, and so does
        # the fight drawn again after its Undo (the Undo's record took the token: the same fight is a new one now).
        "request_token": (request.form.get("request_token") if request.method == "POST" and not extra.get("recorded")
                          and not extra.get("undone") and request.form.get("request_token")
                          else secrets.token_urlsafe(16)),
        **extra,
    }


def retests_chosen(values: Mapping[str, Any], people_form: PeopleForm, names: tuple[str, str]) -> None:
    """Add each retest the narrator chose on the result so far to its pair's tests; a choice sent
    incomplete (a retest without both signs, or none at all) raises before any is added, so the tests
    so far stay as they were.

    Raises:
        ServiceError: 422 naming the pair's retest field, or ``retest`` when none was chosen.
    """
    chosen: list[tuple[int, dict]] = []
    for row in people_form.rows:
        cid = row["id"]
        choice = (values.get(f"r{cid}_source") or "").strip()
        if not choice:
            continue
        by, _, source = choice.partition("|")
        first, second = (values.get(f"r{cid}_{names[0]}") or "").strip(), (values.get(f"r{cid}_{names[1]}") or "").strip()
        if not first or not second:
            raise ServiceError(Phrase.message(N_("Choose both signs for the retest.")), field=f"r{cid}_source")
        if source == "forced":  # the forced retest of total darkness (002 "Darkness")
            call = {"call": "forced_retest", "by": by, "challenger_throw": first, "defender_throw": second}
        else:
            call = {"call": "retest", "by": by, "source": source, "challenger_throw": first, "defender_throw": second}
        chosen.append((cid, call))
    if not chosen:
        raise ServiceError(Phrase.message(N_("Choose a retest and its signs, or record the "
                                             "fight as it stands.")), field="retest")
    for cid, call in chosen:
        people_form.tests.setdefault(str(cid), []).append(call)


def kept_retest_choices(values: Mapping[str, Any]) -> dict[str, str]:
    """The retest and signs the narrator chose on a result so far (``r<id>_source``, ``r<id>_<sign>``), to
    tick them again when the call came back incomplete."""
    return {k: v for k, v in values.items() if k.startswith("r") and "_" in k}
