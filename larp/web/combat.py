"""The narrator's combat board (issue 4): mass combat on a tablet, and the bystanders of a missed shot.

Everything a screen shows lives in its form and its address, like the
challenge screen, so it works without JavaScript: every button posts the
whole form. Adding, removing and ordering people only changes the screen:
htmx gets the new form (and the address to show), a plain browser is
redirected (303) to it. Resolving rules on the fight without writing; when a
pair's loser may still retest, or the target may choose whom he injures, the
result so far is shown with those choices; otherwise, or on "Record as it
stands", ONE ruling is recorded.
"""

from __future__ import annotations

import secrets

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, current_app, g, redirect, request, url_for

from larp.db import as_id
from larp.htmx import is_partial, render, replace_url
from larp.models import Character, Ruling
from larp.rules.challenge import POTENCE_TRAIT
from larp.rules.damage import armory
from larp.rules.mass_combat import MAX_PER_RANGE
from larp.services import ServiceError
from larp.services.characters import (
    character_state,
    find_characters,
    get_character,
    normalise_code,
)
from larp.services.chronicles import (
    chronicle_settings,
    get_chronicle,
    open_game_session,
)
from larp.services.firing_into_groups import (
    BystanderRequest,
    StrayRequest,
    preview_stray_shot,
    run_stray_shot,
)
from larp.services.mass_combat import (
    Board,
    FighterRequest,
    MassRequest,
    default_lead,
    flag,
    preview_mass_combat,
    run_mass_combat,
)
from larp.web.auth import role_required

bp = Blueprint("combat", __name__)

THROWS = (("rock", "Rock"), ("paper", "Paper"), ("scissors", "Scissors"))
RANGES = (("hand_to_hand", "Hand to hand"), ("ranged", "Ranged"))
COUNTERS = (("defend", "Only defends"), ("strike", "Strikes back bare-handed"), ("bite", "Bites back"),
            ("weapon", "Strikes back with a weapon"))
ROW_TEXT = ("range", "weapon", "bid", "throw")
ROW_FLAGS = ("relent", "bite", "nostrength", "prowess", "celerity", "headshot")
TARGET_TEXT = ("bid", "throw", "counter", "weapon")
TARGET_FLAGS = ("celerity", "prowess")
BYSTANDER_TEXT = ("throw", "firer_throw", "bid")
BYSTANDER_FLAGS = ("saw", "excluded")
FIRER_TEXT = ("weapon", "throw", "bid")
FIRER_FLAGS = ("single", "careful_aim", "close_range")


def _getlist(values: Mapping[str, Any], key: str) -> list[str]:
    if hasattr(values, "getlist"):
        return values.getlist(key)
    value = values.get(key)
    return value if isinstance(value, list) else ([] if value in (None, "") else [value])


def _id(value: Any) -> int | None:
    return as_id(value)


def _json(values: Mapping[str, Any], key: str) -> dict[str, list[dict]]:
    try:
        data = json.loads(values.get(key) or "{}")
    except ValueError:
        raise ServiceError("The fight in progress could not be read; resolve it again.", field=key) from None
    if not isinstance(data, dict) or not all(isinstance(v, list) and all(isinstance(t, dict) for t in v)
                                             for v in data.values()):
        raise ServiceError("The fight in progress could not be read; resolve it again.", field=key)
    return data


@dataclass
class Roster:
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
             flags: tuple[str, ...], row_text: tuple[str, ...], row_flags: tuple[str, ...]) -> Roster:
        """The state a form or query describes."""
        roster = cls(prefix, row_text, row_flags)
        for name in picks:
            roster.picks[name] = _id(values.get(name))
            roster.queries[name] = (values.get(f"{name}_q") or "").strip()
        for key in text:
            roster.fields[key] = (values.get(key) or "").strip()
        for key in flags:
            roster.fields[key] = "on" if flag(values.get(key)) else ""
        seen = set()
        for raw in _getlist(values, prefix):
            cid = _id(raw)
            if cid is None or cid in seen:
                continue
            seen.add(cid)
            row: dict[str, Any] = {"id": cid}
            for key in row_text:
                row[key] = (values.get(f"{prefix}{cid}_{key}") or "").strip()
            for key in row_flags:
                row[key] = flag(values.get(f"{prefix}{cid}_{key}"))
            roster.rows.append(row)
        roster.add_q = (values.get("add_q") or "").strip()
        roster.injures = (values.get("injures") or "").strip()
        roster.tests = _json(values, "tests_json") if values.get("tests_json") else {}
        return roster

    def ids(self) -> list[int]:
        """The listed people's ids, in order."""
        return [row["id"] for row in self.rows]

    def query(self, **extra: Any) -> dict[str, Any]:
        """The state as query parameters (for the address bar and redirects)."""
        out: dict[str, Any] = {}
        for name, cid in self.picks.items():
            if cid is not None:
                out[name] = cid
            elif self.queries.get(name):
                out[f"{name}_q"] = self.queries[name]
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
    """
    tokens = [t for t in re.split(r"[\s,;]+", text) if t]
    if 1 < len(tokens) <= 2 * MAX_PER_RANGE:  # more codes than a board can take are not looked up one by one
        found = [Character.get_or_none((Character.chronicle == chronicle)
                                       & (Character.short_code == normalise_code(t))) for t in tokens]
        if all(found):
            return found, True
    return find_characters(chronicle, text), False


class EditError(ServiceError):
    """An edit of the screen that cannot be made (nothing changes)."""


def _add(roster: Roster, chronicle, cids: list[int], defaults: dict[str, Any], blocked: dict[int, str],
         limit: tuple[str, int] | None = None) -> None:
    for cid in cids:
        character = Character.get_or_none((Character.id == cid) & (Character.chronicle == chronicle))
        if character is None:
            raise EditError("There is no such character in this chronicle.", field="add_q")
        if cid in blocked:
            raise EditError(blocked[cid].format(name=character.name), field="add_q")
        if cid in roster.ids():
            raise EditError(f"{character.name} is already on the list.", field="add_q")
        if limit is not None:
            key, most = limit
            kind = defaults.get(key) or "hand_to_hand"
            same = [r for r in roster.rows if (r.get(key) or "hand_to_hand") == kind]
            if len(same) >= most:
                what = "hand to hand" if kind == "hand_to_hand" else "with ranged weapons"
                raise EditError(f"At most {most} characters can engage one target {what} (002 \"Mass Combat\"): "
                                f"{character.name} would be the {most + 1}th. Resolve that attack in another challenge.",
                                field="add_q")
        row = {"id": cid, **{k: "" for k in roster.row_text}, **{k: False for k in roster.row_flags}}
        row.update(defaults)
        roster.rows.append(row)


def _edit(roster: Roster, chronicle, step: str, pickers: tuple[str, ...], blocked: dict[int, str],
          add_limit: bool) -> dict[str, Any]:
    """Apply one edit ``step`` to ``roster``; returns what the screen should show (search results)."""
    kind, _, arg = step.partition(":")
    shown: dict[str, Any] = {}
    if kind == "enter":
        open_pick = next((p for p in pickers if roster.picks.get(p) is None and roster.queries.get(p)), None)
        if roster.add_q:
            kind, arg = "add", "hand_to_hand"
        elif open_pick:
            kind, arg = "find", open_pick
        else:
            return shown
    if kind == "find" and arg in pickers:
        text = roster.queries.get(arg, "")
        found = find_characters(chronicle, text) if text else []
        if len(found) == 1:
            kind, arg = "set", f"{arg}:{found[0].id}"
        elif not found:
            raise EditError(f"No character matches “{text}”." if text else "Type a name or card code.",
                            field=f"{arg}_q")
        else:
            shown[f"{arg}_results"] = found
            return shown
    if kind == "set":
        name, _, cid = arg.partition(":")
        if name in pickers and _id(cid) is not None:
            character = get_character(chronicle, cid, f"{name}_q")
            if character.id in roster.ids():
                raise EditError(f"{character.name} is already on the list below: remove him there first.",
                                field=f"{name}_q")
            roster.picks[name] = character.id
            roster.queries[name] = ""
            shown["focus_add"] = True
        return shown
    if kind == "clear" and arg in pickers:
        roster.picks[arg] = None
        return shown
    if kind in ("add", "pick"):
        if kind == "pick":
            cid, _, arg = arg.partition(":")
            cids = [_id(cid)] if _id(cid) is not None else []
        else:
            if not roster.add_q:
                raise EditError("Type a name or a card code (several codes at once, separated by spaces).",
                                field="add_q")
            found, all_codes = _matches(chronicle, roster.add_q)
            if not found:
                raise EditError(f"No character matches “{roster.add_q}”.", field="add_q")
            if len(found) > 1 and not all_codes:
                shown["add_results"], shown["add_range"] = found, arg
                return shown
            cids = [c.id for c in found]
        defaults = {"range": "ranged"} if add_limit and arg == "ranged" else {}
        _add(roster, chronicle, cids, defaults, blocked, ("range", MAX_PER_RANGE) if add_limit else None)
        roster.add_q = ""
        shown["focus_add"] = True
        return shown
    cid = _id(arg)
    index = next((i for i, r in enumerate(roster.rows) if r["id"] == cid), None)
    if index is None:
        return shown
    if kind == "remove":
        roster.rows.pop(index)
        roster.tests.pop(str(cid), None)
    elif kind == "up" and index > 0:
        roster.rows[index - 1], roster.rows[index] = roster.rows[index], roster.rows[index - 1]
    elif kind == "down" and index < len(roster.rows) - 1:
        roster.rows[index + 1], roster.rows[index] = roster.rows[index], roster.rows[index + 1]
    return shown


def _states(roster: Roster, chronicle, game_session, settings) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    picks = {}
    for name, cid in roster.picks.items():
        if cid is not None:
            try:
                picks[name] = character_state(get_character(chronicle, cid, name), game_session, settings)
            except ServiceError:
                roster.picks[name] = None
    rows = []
    for row in list(roster.rows):
        character = Character.get_or_none((Character.id == row["id"]) & (Character.chronicle == chronicle))
        if character is None:
            roster.rows.remove(row)
            continue
        rows.append({"row": row, "state": character_state(character, game_session, settings)})
    return picks, rows


def extras(state) -> dict[str, Any]:
    """What the screen offers one character, from what the tool knows about him."""
    powers = {name.lower() for held in state.powers.values() for _lvl, name in held}
    return {
        "bomb": "vigor" in powers or "rapidity" in powers,
        "intensity": "intensity" in powers,
        "prowess": state.discipline_level("Potence") >= 1,
        "celerity": state.discipline_level("Celerity"),
        "lead": default_lead(state, "physical"),
        "vampire": state.character.creature == "vampire",
    }


def _error_row(error: ServiceError | None, roster: Roster, list_key: str) -> int | None:
    if error is None or not error.field:
        return None
    match = re.match(rf"{list_key}\[(\d+)\]", error.field)
    if match and int(match.group(1)) < len(roster.rows):
        return roster.rows[int(match.group(1))]["id"]
    return None


def _base_context(roster: Roster, **extra: Any) -> dict[str, Any]:
    chronicle = get_chronicle()
    settings = chronicle_settings(chronicle)
    game_session = open_game_session(chronicle)
    picks, rows = _states(roster, chronicle, game_session, settings)
    weapons = armory("live").weapons
    return {
        "chronicle": chronicle, "game_session": game_session, "roster": roster, "picks": picks, "rows": rows,
        "extras": extras, "throws": THROWS, "ranges": RANGES, "counters": COUNTERS,
        "melee_weapons": {k: w for k, w in weapons.items() if w.melee},
        "ranged_weapons": {k: w for k, w in weapons.items() if not w.melee},
        "guns": {k: w for k, w in weapons.items() if not w.melee},
        "potence_trait": POTENCE_TRAIT, "max_per_range": MAX_PER_RANGE, "error": None, "shown": {},
        "preview": None, "outcome": None, "recorded": None, "error_row": None,
        # A fight in progress or refused keeps its form's one-time token; a new fight gets a new one.
        "request_token": (request.form.get("request_token") if request.method == "POST" and not extra.get("recorded")
                          and request.form.get("request_token") else secrets.token_urlsafe(16)),
        **extra,
    }


def _respond(full: str, partial: str, status: int = 200, url: str | None = None, **context: Any):
    response = render(full, partial, status=status, **context)
    if url and is_partial():
        replace_url(response, url)
    return response


# ----- the combat board ------------------------------------------------------

TARGET_PICK = ("target",)
TARGET_FIELDS = tuple(f"target_{k}" for k in TARGET_TEXT)
TARGET_FLAG_FIELDS = tuple(f"target_{k}" for k in TARGET_FLAGS)


def _board_roster(values: Mapping[str, Any]) -> Roster:
    return Roster.read(values, "a", TARGET_PICK, TARGET_FIELDS, TARGET_FLAG_FIELDS, ROW_TEXT, ROW_FLAGS)


def _mass_request(roster: Roster) -> MassRequest:
    if roster.picks.get("target") is None:
        raise ServiceError("Choose the target first.", field="target_q")
    if not roster.rows:
        raise ServiceError("Add the attackers (name or card code).", field="add_q")
    f = roster.fields
    target = FighterRequest(roster.picks["target"], bid=f.get("target_bid", ""), throw=f.get("target_throw", ""),
                            weapon=f.get("target_weapon", "") if f.get("target_counter") == "weapon" else "",
                            counter=f.get("target_counter") or "defend",
                            celerity_active=bool(f.get("target_celerity")),
                            lethal_by_prowess=bool(f.get("target_prowess")))
    attackers = tuple(FighterRequest(
        r["id"], bid=r["bid"], throw=r["throw"], range=r["range"] or "hand_to_hand", weapon=r["weapon"],
        bite=r["bite"], lethal_by_prowess=r["prowess"], head_shot=r["headshot"], strength=not r["nostrength"],
        relented=r["relent"], celerity_active=r["celerity"], tests=tuple(roster.tests.get(str(r["id"]), [])))
        for r in roster.rows)
    injures = (roster.injures,) if roster.injures else ()
    return MassRequest(target=target, attackers=attackers, injures=injures)


def _retests_chosen(values: Mapping[str, Any], roster: Roster, names: tuple[str, str]) -> None:
    """Add each retest the narrator chose on the result so far to its pair's tests."""
    added = False
    for row in roster.rows:
        cid = row["id"]
        choice = (values.get(f"r{cid}_source") or "").strip()
        if not choice:
            continue
        by, _, source = choice.partition("|")
        first, second = (values.get(f"r{cid}_{names[0]}") or "").strip(), (values.get(f"r{cid}_{names[1]}") or "").strip()
        if not first or not second:
            raise ServiceError("Choose both signs for the retest.", field=f"r{cid}_source")
        roster.tests.setdefault(str(cid), []).append({"call": "retest", "by": by, "source": source,
                                                      "challenger_throw": first, "defender_throw": second})
        added = True
    if not added:
        raise ServiceError("Choose a retest and its signs, or record the fight as it stands.", field="retest")


def _board_outcome(board: Board | None, recorded: Ruling | None) -> dict[str, Any] | None:
    if board is not None:
        data = board.ruling.to_dict()
    elif recorded is not None and recorded.kind == "mass_combat":
        data = recorded.outcome
    else:
        return None
    return {**data, "by_name": {p["attacker"]: p for p in data["pairs"]}}


@bp.route("/combat", methods=["GET"])
@role_required("organiser", "narrator")
def board():
    """The combat board.

    Query: ``target`` (a character id) or ``target_q``; ``a`` (attacker ids, in
    order) with each attacker's ``a<id>_range``, ``a<id>_weapon``, ``a<id>_bid``,
    ``a<id>_throw`` and flags; the target's ``target_throw``, ``target_counter``...;
    ``ruling`` (a recorded mass challenge to show).
    """
    roster = _board_roster(request.args)
    recorded = None
    if request.args.get("ruling"):
        recorded = Ruling.get_or_none(Ruling.id == as_id(request.args.get("ruling")))
    context = _base_context(roster, recorded=recorded, outcome=_board_outcome(None, recorded))
    if roster.picks.get("target") is None and roster.queries.get("target"):
        context["shown"] = {"target_results": find_characters(context["chronicle"], roster.queries["target"])}
    return render("combat/board.html", "combat/board.html", **context)


@bp.route("/combat", methods=["POST"])
@role_required("organiser", "narrator")
def board_post():
    """Edit the board (``step`` ``enter``, ``find:target``, ``set:target:<id>``, ``add:<range>``,
    ``pick:<id>:<range>``, ``remove:<id>``...) or resolve the fight (``resolve``, ``retest``,
    ``record``). Bad input shows its message where the narrator looks and changes nothing."""
    form = request.form
    step = (form.get("step") or "resolve").strip()
    chronicle = get_chronicle()
    try:
        roster = _board_roster(form)
    except ServiceError as exc:
        roster = _board_roster({k: v for k, v in form.items() if k != "tests_json"})
        return _respond("combat/board.html", "combat/_board.html", status=exc.status,
                        **_base_context(roster, error=exc))
    if step not in ("resolve", "retest", "record"):
        blocked = {roster.picks["target"]: "{name} is the target and cannot also attack himself."} \
            if roster.picks.get("target") else {}
        try:
            shown = _edit(roster, chronicle, step, TARGET_PICK, blocked, add_limit=True)
        except ServiceError as exc:
            context = _base_context(roster, error=exc, error_row=None)
            return _respond("combat/board.html", "combat/_board.html", status=exc.status, **context)
        url = url_for("combat.board", **roster.query())
        if not is_partial() and not shown.get("add_results") and not shown.get("target_results"):
            return redirect(url, code=303)
        return _respond("combat/board.html", "combat/_board.html", url=url, **_base_context(roster, shown=shown))
    rng = current_app.config["RANDOM_SOURCE"]()
    preview = None
    if step == "resolve":  # a fresh start: the retests and choices of an earlier try are dropped
        roster.tests, roster.injures = {}, ""
    try:
        if step == "retest":
            _retests_chosen(form, roster, ("a_throw", "d_throw"))
        mass_request = _mass_request(roster)
        if step != "record":
            preview = preview_mass_combat(chronicle, mass_request, rng)
            _keep_drawn(roster, preview.throws, preview)
            mass_request = _mass_request(roster)
        if preview is None or not preview.needs_decision:
            result = run_mass_combat(chronicle, g.user, mass_request, rng, form.get("request_token"))
        else:
            result = None
    except ServiceError as exc:
        context = _base_context(roster, error=exc, error_row=_error_row(exc, roster, "attackers"))
        return _respond("combat/board.html", "combat/_board.html", status=exc.status, **context)
    if result is None:
        context = _base_context(roster, preview=preview, outcome=_board_outcome(preview, None))
        return _respond("combat/board.html", "combat/_board.html", **context)
    roster.clear_round(("target_throw",), ("throw", "relent"))
    url = url_for("combat.board", **roster.query(ruling=result.record.id))
    if not is_partial():
        return redirect(url, code=303)
    context = _base_context(roster, recorded=result.record, outcome=_board_outcome(None, result.record))
    return _respond("combat/board.html", "combat/_board.html", url=url, **context)


def _keep_drawn(roster: Roster, throws: Mapping[int, str], preview: Board) -> None:
    """Random signs were drawn once: keep them for the rest of this fight."""
    if preview.target.character.id in throws:
        roster.fields["target_throw"] = throws[preview.target.character.id]
    for row in roster.rows:
        if row["id"] in throws:
            row["throw"] = throws[row["id"]]


# ----- the bystanders of a missed shot ---------------------------------------

STRAY_PICKS = ("firer", "target")
STRAY_FIELDS = tuple(f"firer_{k}" for k in FIRER_TEXT)
STRAY_FLAG_FIELDS = tuple(f"firer_{k}" for k in FIRER_FLAGS)


def _stray_roster(values: Mapping[str, Any]) -> Roster:
    return Roster.read(values, "b", STRAY_PICKS, STRAY_FIELDS, STRAY_FLAG_FIELDS, BYSTANDER_TEXT, BYSTANDER_FLAGS)


def _stray_request(roster: Roster) -> StrayRequest:
    if roster.picks.get("firer") is None:
        raise ServiceError("Choose the firer first.", field="firer_q")
    if roster.picks.get("target") is None:
        raise ServiceError("Choose the target the shot missed.", field="target_q")
    f = roster.fields
    firer = FighterRequest(roster.picks["firer"], bid=f.get("firer_bid", ""), throw=f.get("firer_throw", ""),
                           weapon=f.get("firer_weapon", ""))
    people = tuple(BystanderRequest(r["id"], throw=r["throw"], firer_throw=r["firer_throw"], saw_it_coming=r["saw"],
                                    excluded=r["excluded"], bid=r["bid"],
                                    tests=tuple(roster.tests.get(str(r["id"]), [])))
                   for r in roster.rows)
    return StrayRequest(firer=firer, target_id=roster.picks["target"], bystanders=people,
                        bursts=not f.get("firer_single"), careful_aim=bool(f.get("firer_careful_aim")),
                        close_range=bool(f.get("firer_close_range")))


def _stray_outcome(volley, recorded: Ruling | None) -> dict[str, Any] | None:
    if volley is not None:
        data = volley.ruling.to_dict()
    elif recorded is not None and recorded.kind == "firing_into_group":
        data = recorded.outcome
    else:
        return None
    return {**data, "by_name": {b["name"]: b for b in data["bystanders"]}}


def _stray_context(roster: Roster, **extra: Any) -> dict[str, Any]:
    context = _base_context(roster, **extra)
    weapon = roster.fields.get("firer_weapon")
    card = context["guns"].get(weapon) if weapon else None
    automatic = bool(card and (card.has("Full-Auto") or card.has("Burst")))
    group = bool(card and ((card.has("Spray") and not automatic) or (automatic and not roster.fields.get("firer_single"))))
    context.update(card=card, automatic=automatic, group=group,
                   excluded=sum(1 for r in roster.rows if r.get("excluded")))
    return context


@bp.route("/combat/bystanders", methods=["GET"])
@role_required("organiser", "narrator")
def bystanders():
    """The bystanders of a missed shot: the firer, his gun, the target missed and the people
    near it, closest first (``b`` ids in order; ``b<id>_throw``, ``b<id>_firer_throw``...)."""
    roster = _stray_roster(request.args)
    recorded = None
    if request.args.get("ruling"):
        recorded = Ruling.get_or_none(Ruling.id == as_id(request.args.get("ruling")))
    context = _stray_context(roster, recorded=recorded, outcome=_stray_outcome(None, recorded))
    return render("combat/bystanders.html", "combat/bystanders.html", **context)


@bp.route("/combat/bystanders", methods=["POST"])
@role_required("organiser", "narrator")
def bystanders_post():
    """Edit the list (``add``, ``pick:<id>``, ``up:<id>``, ``down:<id>``, ``remove:<id>``, the
    pickers) or resolve the stray shot (``resolve``, ``retest``, ``record``)."""
    form = request.form
    step = (form.get("step") or "resolve").strip()
    chronicle = get_chronicle()
    try:
        roster = _stray_roster(form)
    except ServiceError as exc:
        roster = _stray_roster({k: v for k, v in form.items() if k != "tests_json"})
        return _respond("combat/bystanders.html", "combat/_bystanders.html", status=exc.status,
                        **_stray_context(roster, error=exc))
    if step not in ("resolve", "retest", "record"):
        blocked = {}
        if roster.picks.get("target"):
            blocked[roster.picks["target"]] = "{name} is the target, not a bystander."
        if roster.picks.get("firer"):
            blocked[roster.picks["firer"]] = "{name} fired the shot and cannot be a bystander to it."
        try:
            shown = _edit(roster, chronicle, step, STRAY_PICKS, blocked, add_limit=False)
        except ServiceError as exc:
            return _respond("combat/bystanders.html", "combat/_bystanders.html", status=exc.status,
                            **_stray_context(roster, error=exc))
        url = url_for("combat.bystanders", **roster.query())
        if not is_partial() and not shown.get("add_results") and not any(k.endswith("_results") for k in shown):
            return redirect(url, code=303)
        return _respond("combat/bystanders.html", "combat/_bystanders.html", url=url,
                        **_stray_context(roster, shown=shown))
    rng = current_app.config["RANDOM_SOURCE"]()
    volley = None
    if step == "resolve":
        roster.tests = {}
    try:
        if step == "retest":
            _retests_chosen(form, roster, ("f_throw", "b_throw"))
        stray_request = _stray_request(roster)
        if step != "record":
            volley = preview_stray_shot(chronicle, stray_request, rng)
            for row in roster.rows:
                drawn = volley.throws.get(str(row["id"]), {})
                row.update({k: v for k, v in drawn.items() if k in ("throw", "firer_throw")})
            if "firer" in volley.throws:
                roster.fields["firer_throw"] = volley.throws["firer"]["throw"]
            stray_request = _stray_request(roster)
        result = run_stray_shot(chronicle, g.user, stray_request, rng, form.get("request_token")) \
            if volley is None or not volley.needs_decision \
            else None
    except ServiceError as exc:
        context = _stray_context(roster, error=exc, error_row=_error_row(exc, roster, "bystanders"))
        return _respond("combat/bystanders.html", "combat/_bystanders.html", status=exc.status, **context)
    if result is None:
        context = _stray_context(roster, preview=volley, outcome=_stray_outcome(volley, None))
        return _respond("combat/bystanders.html", "combat/_bystanders.html", **context)
    roster.clear_round(("firer_throw",), ("throw", "firer_throw"))
    url = url_for("combat.bystanders", **roster.query(ruling=result.record.id))
    if not is_partial():
        return redirect(url, code=303)
    context = _stray_context(roster, recorded=result.record, outcome=_stray_outcome(None, result.record))
    return _respond("combat/bystanders.html", "combat/_bystanders.html", url=url, **context)
