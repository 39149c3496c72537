"""The narrator's tabletop combat screen (issue 9): initiative, declarations, actions, damage.

Every step is a form post to a service (one transaction): htmx gets the combat
panel back; a plain post is redirected (303) to the screen. A refused step
answers the panel with the message where the narrator is looking and a 4xx
status, and changes nothing. The turn lives in the database, so a reload
loses nothing.
"""

from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint, current_app, g, redirect, request, url_for
from flask_babel import gettext, lazy_gettext as _l
from larp.i18n import said

from larp.armory_messages import gear as said_name
from larp.htmx import is_partial, render
from larp.models import Character
from larp.rules.blood import DRAIN_PER_TURN
from larp.rules.explain import Phrase, RulesError, N_
from larp.rules.health import tabletop_view
from larp.rules.settings import setting_definitions
from larp.rules.tabletop.combat import DICE_KEYS, Circumstances
from larp.rules.tabletop.turn import CONDITIONS, Declaration, MAX_ACTIONS, MAX_FIGHTERS
from larp.services import ServiceError, read_number
from larp.services import tabletop as service
from larp.services import tabletop_taps as taps
from larp.services.tabletop_fighters import gear_choices
from larp.services.chronicles import chronicle_settings, get_chronicle
from larp.web import inputs
from larp.web.auth import role_required

bp = Blueprint("tabletop", __name__)

#: Rolls shown first in the "dice rolled at the table" inputs; the others open on demand.
MAIN_ROLLS = ("attack", "defense", "damage", "soak")
ROLL_LABELS = {
    "attack": _l("Attack"), "abort": _l("Willpower to abort"), "defense": _l("Defense"), "damage": _l("Damage"),
    "soak": _l("Soak"), "knockdown": _l("Target stays up (Dex + Athletics)"), "rise": _l("Target gets up"),
    "knockdown_attacker": _l("Attacker stays up"), "rise_attacker": _l("Attacker gets up"),
    "riposte_damage": _l("Parry damage to the attacker"), "riposte_soak": _l("Attacker's soak of it"),
    "blindside": _l("Target spots the blindside (Wits + Perception)"),
}


def _int_field(form, name: str, default: int | None, low: int, high: int) -> int | None:
    return inputs.whole(form, name, default, low=low, high=high)


def _dice_field(form, name: str) -> list[int] | None:
    return inputs.dice(form, f"dice-{name}", field=f"dice.{name}", most=None, faces=None, label="The dice")


def _dice(form) -> dict[str, list[int]]:
    return {k: v for k in DICE_KEYS if (v := _dice_field(form, k)) is not None}


def _rng(form):
    """The app's random source, unless the narrator enters every die rolled at the table."""
    return None if form.get("dice_mode") == "table" else current_app.config["RANDOM_SOURCE"]()


def _error_place(row, error: ServiceError | None) -> str | None:
    """Where the refusal is shown: next to the form that was sent ("phase", "gear", "start") or on top."""
    if error is None:
        return None
    field = error.field or ""
    if field.startswith("ambush."):
        return "ambush"
    if field.endswith(".weapon") and field != "attacker.weapon" or field.endswith(".armor"):
        return "gear"
    if field in ("combat", "phase"):
        return "top"
    if field in ("heal", "fighter"):
        return "heal"
    if field == "blood" or field.startswith("raise-"):
        return "blood"
    if field in ("drink", "yards", "aim_target", "target_pace", "scope", "schedule", "turns", "reload", "dodge",
                 "dodge_attackers", "clinch"):
        return "tap"
    return "start" if row is None else "phase"


def _context(row, error: ServiceError | None = None, form=None, dice_request=None) -> dict[str, Any]:
    chronicle = get_chronicle()
    settings = chronicle_settings(chronicle)
    context: dict[str, Any] = {
        "chronicle": chronicle, "error": error, "form": form or {}, "dice_request": dice_request,
        "error_place": _error_place(row, error),
        "profile_label": said(setting_definitions()["tabletop_profile"].describe(settings["tabletop_profile"])),
        "multiple_label": Phrase.term(settings.label("tabletop_multiple_actions")),
        "multiple_model": settings["tabletop_multiple_actions"],
        "max_fighters": MAX_FIGHTERS, "max_actions": MAX_ACTIONS,
    }
    if row is not None:
        try:
            loaded = service.load(chronicle, row)
        except ServiceError as exc:  # it cannot go on (one of its fighters is gone): start another
            context["error"] = ServiceError(Phrase.message(N_("The combat in progress cannot go on (%(message)s). "
                                                              "Start a new one: it takes its place."),
                                                           message=exc.message), field="combat", status=exc.status)
            context["error_place"], row = "start", None
    if row is None:
        context["characters"] = list(Character.select().where(
            (Character.chronicle == chronicle) & Character.retired_at.is_null()).order_by(Character.name))
        context["row"] = None
        return context
    combat = loaded.combat
    able = loaded.able()
    slot = combat.next_slot(able)
    order = [e.key for e in combat.initiative] + [k for k in combat.fighters if k not in
                                                   {e.key for e in combat.initiative}]
    entries = {e.key: e for e in combat.initiative}
    cards = []
    for key in order:
        f = loaded.fighters[key]
        view = tabletop_view(f.track)
        holds = [gettext("held by %(name)s (%(maneuver)s)", name=combat.name(h.holder), maneuver=_hold_name(loaded.profile, h.maneuver))
                 for h in combat.held_by(key)]
        holding = [gettext("holds %(name)s", name=combat.name(h.target)) for h in combat.holds if h.holder == key]
        cards.append({
            "key": key, "fighter": f, "character": loaded.characters[key], "view": view,
            "entry": entries.get(key), "out": key in combat.out,
            "declaration": combat.declarations.get(key), "actions_left": combat.actions_left(key),
            "offense_left": combat.offense_left(key), "defense": combat.defense_options(key, loaded.profile),
            "notes": [gettext(c) for c in combat.conditions_of(key)] + holds + holding, "gear": (row.gear or {}).get(key) or {},
            "current": slot is not None and slot.who == key, "able": key in able,
        })
    actor = (form or {}).get("attacker") or (slot.who if slot else None)
    waiting = combat.waiting(able)
    if actor not in ([slot.who] if slot else []) + waiting:
        actor = slot.who if slot else None
    declaration = combat.declarations.get(actor) if actor else None
    kissed = taps.kissed(row, actor)
    actor_slot = None
    if actor:
        try:
            actor_slot = combat.action_slot(actor)
        except RulesError:
            actor_slot = None
    context.update({
        "actor_slot": actor_slot,
        "row": row, "combat": combat, "loaded": loaded, "cards": cards, "slot": slot, "waiting": waiting,
        "actor": actor, "actor_declaration": declaration, "profile": loaded.profile,
        "attacks": loaded.profile.of_kind("close", "ranged"), "defenses": loaded.profile.of_kind("defensive"),
        "gear_choices": gear_choices(), "rulings": service.last_rulings(row),
        "declaring": [e for e in reversed(combat.initiative) if e.key not in combat.out],
        "celerity": {k: f.discipline("Celerity") for k, f in loaded.fighters.items()},
        "dice_keys": DICE_KEYS, "main_rolls": MAIN_ROLLS, "roll_labels": ROLL_LABELS,
        "held": bool(actor and combat.held_by(actor)), "conditions_help": CONDITIONS,
        "fixed_initiative": loaded.settings["tabletop_initiative"] == "fixed",
        "ambush_dice": taps.ambush_dice(row, combat, actor),
        "kissed": kissed,
        # How much the drink form may ask (LotNR "Blood"): the room in the drinker's pool, unless the chronicle
        # lets him drain past a full pool; the rules core drinks what fits and says so either way.
        "drink_room": (None if not kissed or loaded.settings["drain_past_full_pool"] else
                       max(0, loaded.characters[actor].blood_max - loaded.characters[actor].blood_current)),
        "drain_per_turn": DRAIN_PER_TURN,
        "rounds": taps.rounds_left(loaded, actor) if actor else None,
        "dodges": dict(combat.carried.dodges),
        "clinched": bool(actor and profile_has_mutual_clinch(loaded.profile)
                         and any(h.maneuver == "clinch" and actor in (h.holder, h.target) for h in combat.holds)),
    })
    return context


def _hold_name(profile, maneuver: str) -> str:
    """The maneuver ``maneuver`` (a key: "bear_hug") by which someone is held, lower-case, in the reader's language."""
    m = profile.maneuvers.get(maneuver)
    return said_name(m.name.lower()) if m is not None else maneuver.replace("_", " ")


def profile_has_mutual_clinch(profile) -> bool:
    """Whether the profile's clinch is 004's, in which both crush each other."""
    clinch_ = profile.maneuvers.get("clinch")
    return bool(clinch_ and clinch_.has("mutual"))


def _answer(row, error: ServiceError | None = None, form=None, dice_request=None):
    """The panel for htmx, the page otherwise; an error keeps the form and its 4xx status."""
    if error is None and not is_partial():
        return redirect(url_for("tabletop.screen"), code=303)
    status = error.status if error is not None else 200
    context = _context(row, error, form, dice_request)
    return render("tabletop/page.html", "tabletop/_combat.html", status=status, **context)


def _current_row():
    return service.open_combat(get_chronicle(), g.user)


@bp.route("/tabletop", methods=["GET"])
@role_required("organiser", "narrator")
def screen():
    """The tabletop screen: start a combat, or run the one in progress."""
    row = _current_row()
    context = _context(row, form=request.args)
    return render("tabletop/page.html", "tabletop/_combat.html", **context)


@bp.route("/tabletop/start", methods=["POST"])
@role_required("organiser", "narrator")
def start():
    """Start a combat between the chosen characters (2 to 6)."""
    try:
        service.start_combat(get_chronicle(), g.user, request.form.getlist("characters"))
    except ServiceError as exc:
        return _answer(_current_row(), exc, request.form)
    return _answer(_current_row())


def _step(action):
    """Run ``action(chronicle, user, combat_id, version)`` and answer the panel."""
    form = request.form
    combat_id = request.view_args["combat_id"]
    try:
        action(get_chronicle(), g.user, combat_id, form.get("version"))
    except service.DiceRequest as exc:
        return _answer(_current_row(), exc, form, dice_request=exc)
    except ServiceError as exc:
        return _answer(_current_row(), exc, form)
    return _answer(_current_row())


def _combat_step(name: str):
    """Make ``run(form, chronicle, user, combat_id, version)`` the step POST /tabletop/<combat_id>/<name> of the
    combat in progress (organisers and narrators), run and answered by :func:`_step`; the route takes
    ``run``'s name and docstring."""
    def register(run):
        @role_required("organiser", "narrator")
        @functools.wraps(run)
        def view(combat_id: int):
            form = request.form
            return _step(lambda c, u, i, v: run(form, c, u, i, v))
        bp.add_url_rule(f"/tabletop/<int:combat_id>/{name}", view_func=view, methods=["POST"])
        return view
    return register


@_combat_step("gear")
def gear(form, c, u, i, v):
    """Change the fighters' weapons and armor."""
    keys = [k.split("-", 1)[0] for k in form if k.endswith("-weapon")]
    chosen = {k: {part: form.get(f"{k}-{part}") for part in ("weapon", "armor", "helmet", "shield")} for k in keys}
    service.change_gear(c, u, i, v, chosen)


@_combat_step("initiative")
def initiative(form, c, u, i, v):
    """Roll initiative for everyone (dice entered at the table where given)."""
    dice = {}
    for name in form:
        if name.startswith("die-") and form.get(name, "").strip():
            dice[name[4:]] = inputs.whole(form, name, low=1, high=10, label="An initiative die")
    rng = current_app.config["RANDOM_SOURCE"]()
    willpower = [name[len("willpower-"):] for name in form if name.startswith("willpower-") and form.get(name)]
    service.roll_combat_initiative(c, u, i, v, dice, rng, willpower)


@_combat_step("declare")
def declare(form, c, u, i, v):
    """Take the declarations of every fighter (slowest first) and start the actions."""
    declarations = {}
    for key in form.getlist("fighter"):
        declarations[key] = Declaration(
            actions=_int_field(form, f"{key}-actions", 1, 1, MAX_ACTIONS),
            celerity=_int_field(form, f"{key}-celerity", 0, 0, 10),
            defenses=_int_field(form, f"{key}-defenses", 0, 0, 20),
            full_defense=form.get(f"{key}-full_defense") == "on",
            delay=form.get(f"{key}-delay") == "on",
            maneuver=form.get(f"{key}-maneuver") or None,
            target=form.get(f"{key}-target") or None,
            split_dice=_int_field(form, f"{key}-split_dice", None, 0, 60),
            shares=_shares(form, f"{key}-shares"),
        )
    service.declare_actions(c, u, i, v, declarations)


def _shares(form, name: str) -> tuple[int, ...]:
    """The dice given to each action ("4 2"), for the V20 pool split freely; empty: none given.

    Raises:
        ServiceError: 422 naming the field for anything but whole numbers.
    """
    raw = (form.get(name) or "").replace(",", " ").replace("/", " ").split()
    if len(raw) > 6:
        raise ServiceError(Phrase.message(N_("Give each action's dice, at "
                                             "most six actions, e.g. 4 2.")), field=name.replace("-", ".", 1))
    return tuple(read_number(part, name.replace("-", ".", 1), low=0, high=60, required=True, label="Each share")
                 for part in raw)


def _circumstances(form) -> Circumstances:
    side = form.get("side", "front")
    return Circumstances(
        range=form.get("range") or "short",
        cover=form.get("cover") or None,
        attacker_cover=form.get("attacker_cover") or None,
        target_size=form.get("target_size") or None,
        called_shot=form.get("called_shot") or None,
        stake=form.get("stake") == "on",
        flank=side == "flank", rear=side == "rear",
        blindside_spotted=form.get("blindside_spotted") == "on",
        opponents=_int_field(form, "opponents", 1, 1, 20),
        blind=form.get("blind") == "on",
        target_blinded=form.get("target_blinded") == "on",
        target_immobilized=form.get("target_immobilized") == "on",
        aim_turns=_int_field(form, "aim_turns", 0, 0, 10),
        scope=form.get("scope") == "on",
        off_hand=form.get("off_hand") == "on",
        strafe_targets=_int_field(form, "strafe_targets", 1, 1, 10),
        strafe_extra=_int_field(form, "strafe_extra", 0, 0, 10),
        clip_half_full=form.get("clip_low") != "on",
        ambush_dice=_int_field(form, "ambush_dice", 0, 0, 30),
        extra_dice=_int_field(form, "extra_dice", 0, -20, 20),
        extra_difficulty=_int_field(form, "extra_difficulty", 0, -8, 8),
        difficulty=_int_field(form, "difficulty", None, -99, 99),
        moved_yards=_int_field(form, "moved_yards", 0, 0, 500),
        inside_reach=form.get("inside_reach") == "on",
        aimed_part=form.get("aimed_part") or None,
        shield_side=form.get("shield_side") == "on",
        source=form.get("source") or "other",
    )


@_combat_step("attack")
def attack(form, c, u, i, v):
    """Resolve the acting fighter's attack, its defense, damage and soak."""
    defense = form.get("defense") or None
    how = form.get("defense_how") or "kept"
    order = service.AttackOrder(
        attacker=form.get("attacker", ""), target=form.get("target", ""), maneuver=form.get("maneuver", ""),
        circumstances=_circumstances(form), defense=defense,
        abort=None if how == "kept" or not defense else how,
        attackers=_int_field(form, "attackers", 1, 1, 20),
        dodge_modifiers=tuple(form.getlist("dodge_modifiers")),
        with_shield=form.get("with_shield") == "on",
        shared=_int_field(form, "shared_dodge", None, 0, 30),
    )
    service.resolve_combat_attack(c, u, i, v, order, _dice(form), _rng(form))


@_combat_step("other")
def other(form, c, u, i, v):
    """The acting fighter does something else (the narrator rules it); the order moves on."""
    service.other_action(c, u, i, v, form.get("attacker"), form.get("note", ""))


@_combat_step("escape")
def escape(form, c, u, i, v):
    """The acting fighter, held, tries to break free."""
    dice = {k: d for k in ("escaper", "holder") if (d := _dice_field(form, k)) is not None}
    service.break_free(c, u, i, v, form.get("attacker"), dice, _rng(form))


@_combat_step("ambush")
def ambush(form, c, u, i, v):
    """One fighter ambushes another (000 "Ambush"; 004 "Ambush": with cover, Wits + Stealth to prepare)."""
    dice = {k: d for k in ("stealth", "alertness", "preparation") if (d := _dice_field(form, k)) is not None}
    taps.ambush(c, u, i, v, form.get("ambusher"), form.get("ambush_target"), form.get("cover") == "on",
                form.get("in_combat") == "on", dice, _rng(form))


@_combat_step("drink")
def drink(form, c, u, i, v):
    """After a Kiss, the acting vampire drains his victim's blood (000, 004 "Bite": the Kiss)."""
    taps.drink(c, u, i, v, form.get("attacker"), form.get("victim"), form.get("blood"))


@_combat_step("move")
def move(form, c, u, i, v):
    """The acting fighter moves as his action (000, 003, 004 "Movement")."""
    taps.move_fighter(c, u, i, v, form.get("attacker"), _int_field(form, "yards", None, 0, 200))


@_combat_step("aim")
def aim(form, c, u, i, v):
    """The acting fighter spends the turn aiming (000, 003 "Aiming")."""
    taps.aim_fighter(c, u, i, v, form.get("attacker"), form.get("aim_target"), form.get("scope_aim") == "on",
                     form.get("target_pace") or "walk")


@_combat_step("schedule")
def schedule(form, c, u, i, v):
    """Note an effect due at the end of this turn or later (004 "Extended and Delayed Effects")."""
    taps.schedule_effect(c, u, i, v, form.get("who"), form.get("text", ""), _int_field(form, "turns", 0, 0, 20))


@_combat_step("reload")
def reload(form, c, u, i, v):
    """The acting fighter reloads his weapon (000, 003 "Reloading")."""
    taps.reload_weapon(c, u, i, v, form.get("attacker"))


@_combat_step("blood")
def blood(form, c, u, i, v):
    """A vampire burns blood for Physical Attributes, reflexively (004 "Spend Blood")."""
    raises = {a: _int_field(form, f"raise-{a}", 0, 0, 10) for a in ("Strength", "Dexterity", "Stamina")}
    taps.burn_blood(c, u, i, v, form.get("fighter"), raises)


@_combat_step("dodge")
def dodge(form, c, u, i, v):
    """Dark Ages: one dodge roll whose successes are divided among several attackers (004 "Dodging")."""
    dice = {"dodge": d} if (d := _dice_field(form, "dodge")) is not None else {}
    taps.shared_dodge_roll(c, u, i, v, form.get("who"), _int_field(form, "dodge_attackers", 2, 2, 10),
                           form.getlist("dodge_modifiers"), dice, _rng(form))


@_combat_step("clinch")
def clinch(form, c, u, i, v):
    """A later turn of the Dark Ages clinch in which both crush each other (004 "Bear Hug/Clinch")."""
    dice = {k: d for k in ("grip_a", "grip_b", "damage_a", "damage_b", "soak_a", "soak_b")
            if (d := _dice_field(form, k)) is not None}
    taps.clinch_turn(c, u, i, v, form.get("attacker"), form.get("end") == "on", dice, _rng(form))


@_combat_step("heal")
def heal(form, c, u, i, v):
    """A vampire spends blood to heal, at the tabletop profile's rate (one blood point a level)."""
    taps.heal_fighter(c, u, i, v, form.get("fighter"), form.get("kind", ""), form.get("levels"))


@_combat_step("next")
def next_turn(form, c, u, i, v):
    """End the turn; the next starts with initiative."""
    service.next_combat_turn(c, u, i, v)


@_combat_step("end")
def end(form, c, u, i, v):
    """End the combat (damage stays on the tracks; the rulings stay in the record)."""
    service.end_combat(c, u, i, v)
