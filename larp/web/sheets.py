"""The sheet editor (issue 14): create a character, edit each part of the sheet, copy,
retire, restore, delete, scene extras and the experience log.

Thin views: read the form (:mod:`larp.web.sheet_forms`), call a use case of
:mod:`larp.services.sheets`, render. Every form works without JavaScript (a section's
save answers 303 back to the editor at that section); with htmx the section alone is
swapped. A refused save shows each message next to its field, keeps what was typed, and
saves nothing.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask import Blueprint, abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from markupsafe import Markup

from larp.catalogues import ability_catalogue, merits_flaws, sheet_lists, trait_lists
from larp.htmx import is_partial
from larp.i18n import said_if_phrase
from larp.models import Character, GameSession
from larp.rules.damage import ARMOR_COVERS, WEAPON_SPECIALS, armory
from larp.rules.health import DAMAGE_TYPES, extra_levels
from larp.rules.numbers import NumberError, whole_number
from larp.services import ServiceError, read_json
from larp.services.characters import get_character
from larp.services.chronicles import chronicle_settings, get_chronicle
from larp.services.sheet_merge import Rebased, rebase_form
from larp.services.sheet_store import sheet_of
from larp.services import sheet_words as words
from larp.services.experience import experience_log, record_experience, shown_points
from larp.services.spend_requests import waiting_cost
from larp.services.sheets import (
    NARRATOR_FIELDS,
    NEW_VAMPIRE_GENERATION,
    Change,
    StaleForm,
    adjudications,
    describe_changes,
    copy_character,
    delete_character,
    edit_character,
    new_character,
    remove_scene_extras,
    restore_character,
    retire_character,
)
from larp.sheet_entries import CATEGORIES, CREATURES, TABLETOP_ATTRIBUTES, WEAPON_KINDS
from larp.sheet_checks import FIELD_LABELS, SheetError, generations
from larp.tables import discipline_table, generation_row
from larp.web.auth import role_required
from larp.web.sheet_forms import SECTIONS, TITLES, XP_SECTIONS, read_section
from larp.web.screen_answer import shown_at

bp = Blueprint("sheets", __name__)


def _catalogues() -> dict[str, Any]:
    """What the editor offers to pick from (data files)."""
    powers = [(f"{row.name}" + (f": {row.path}" if row.path else ""),
               [(f"{row.name}|{row.path + ': ' if row.path else ''}{power}", f"{power} ({level})")
                for power, level in sorted(row.levels.items(), key=lambda item: item[1])])
              for (_, _), row in sorted(discipline_table().items())]
    return dict(trait_lists=trait_lists(), merits=[m for m in merits_flaws().values() if m.kind == "merit"],
                flaws=[m for m in merits_flaws().values() if m.kind == "flaw"], abilities=ability_catalogue(),
                lists=sheet_lists(), power_groups=powers, weapons=armory("live").weapons,
                armor_pieces=armory("live").armor, damage_types=DAMAGE_TYPES, weapon_kinds=WEAPON_KINDS,
                specials=WEAPON_SPECIALS, covers=ARMOR_COVERS, creatures=CREATURES, generations=generations(),
                categories=CATEGORIES, tabletop_attributes=TABLETOP_ATTRIBUTES, extra_levels=extra_levels())


def _may(section: str) -> bool:
    """Whether the user may change ``section`` (narrators: equipment and narrator notes, by setting)."""
    if g.user.role == "organiser":
        return True
    return section in ("equipment", "notes") and chronicle_settings(get_chronicle())["narrators_edit_equipment"]


def _token() -> str:
    return secrets.token_urlsafe(16)


def _suggested_tabletop(sheet: dict[str, Any]) -> dict[str, int]:
    """The live-to-tabletop conversion of a sheet's Traits, Abilities, Morality and Willpower (LotNR,
    approximate; met-reference 4.3), to pre-fill the tabletop ratings."""
    from larp.rules.conversion import live_to_tabletop

    counts = {c: sum(t["count"] for t in sheet["traits"].get(c, [])) for c in CATEGORIES}
    converted = live_to_tabletop(counts, None, sheet.get("morality_rating"), sheet.get("willpower_permanent"))
    out = dict(converted.attributes)
    if converted.willpower is not None:
        out["Willpower"] = converted.willpower
    if converted.morality is not None:
        out[sheet.get("morality_name") or "Humanity"] = converted.morality
    return out


def _section_context(character: Character, section: str, draft: dict[str, Any] | None = None,
                     error: ServiceError | SheetError | None = None, saved: str = "",
                     token: str | None = None) -> dict[str, Any]:
    """What one section's template needs: the values to show (``draft``: the stored sheet, or what
    was typed when a save was refused), the errors by input path, the stale changes, the token."""
    stored = sheet_of(character).to_dict()
    collided: list = []
    rebased = False
    if isinstance(error, StaleForm) and error.current:
        # Refused as stale: the form is rebuilt on the sheet the refusal read (under the write lock),
        # with this screen's edit on top where it does not collide, and ``seen`` is that sheet, so
        # "Save again" keeps the other screen's change (new-user test 12, finding 2).
        stored = error.current
        if draft is not None:
            seen_before = _posted_seen()
            merged = rebase_form(seen_before, {k: v for k, v in draft.items() if k in SECTIONS[section]}, stored)
            draft, collided = merged.data, _collisions(merged)
            rebased = True
    shown = dict(stored)
    if draft is not None:
        shown.update(draft)
    errors: dict[str, str] = {}
    if isinstance(error, SheetError):
        errors = error.by_field()
    elif error is not None and error.field:
        errors[error.field] = error.message
    row = generation_row(shown.get("generation")) if isinstance(shown.get("generation"), int) else None
    suggested = _suggested_tabletop(stored) if section == "tabletop" and not stored.get("tabletop") else None
    return dict(character=character, section=section, title=TITLES[section], sheet=shown, errors=errors,
                suggested=suggested,
                error=error, stale=error.changes if isinstance(error, StaleForm) else [], saved=saved,
                collided=collided, rebased=rebased,
                seen=json.dumps({k: stored.get(k) for k in SECTIONS[section]
                                 if g.user.role == "organiser" or k in NARRATOR_FIELDS}, sort_keys=True),
                request_token=token or _token(), may_edit=_may(section), xp=section in XP_SECTIONS,
                generation_row=row, narrator_only=g.user.role != "organiser", **_catalogues())


def _posted_seen() -> dict[str, Any]:
    """The ``seen`` values the refused form posted (what it showed), or nothing when unreadable."""
    try:
        seen = read_json(request.form.get("seen") or "{}", "seen", label="seen", status=422)
    except ServiceError:
        return {}
    return seen if isinstance(seen, dict) else {}


def _collisions(rebased: Rebased) -> list[Change]:
    """Where both screens changed the same entry: the stored value (in the form) → this screen's
    (not in the form), as :func:`describe_changes` words them."""
    try:
        return describe_changes({k: rebased.data[k] for k in rebased.collisions}, rebased.yours,
                                rebased.collisions)
    except (KeyError, TypeError, ValueError):  # a value typed past what the words can say: name the field
        return [Change(k, words.field_label(k, FIELD_LABELS.get(k)), "", "") for k in rebased.collisions]


@bp.route("/characters/new", methods=["GET", "POST"])
@role_required("organiser")
def create():
    """A new character from nothing: who it is (name, creature, clan, generation...); the rest
    of the sheet is edited next, section by section."""
    chronicle = get_chronicle()
    if request.method == "GET":
        # A new vampire is of the 13th generation unless the Generation Background lowers it (LotNR,
        # character creation): preselected, so no vampire is made with an empty blood pool unawares.
        return render_template("sheets/new.html", chronicle=chronicle, sheet={"creature": "vampire",
                               "morality_name": "Humanity", "generation": NEW_VAMPIRE_GENERATION},
                               errors={}, error=None, request_token=_token(), **_catalogues())
    form = read_section("identity", request.form)
    try:
        character, _ = new_character(chronicle, g.user, form.data, request_token=request.form.get("request_token"))
    except SheetError as exc:  # every problem by field (before ServiceError, which a sheet's refusal also is)
        return render_template("sheets/new.html", chronicle=chronicle, sheet=form.data, errors=exc.by_field(),
                               error=exc, request_token=request.form.get("request_token") or _token(),
                               **_catalogues()), 422
    except ServiceError as exc:
        errors = {exc.field: exc.message} if exc.field else {}
        return render_template("sheets/new.html", chronicle=chronicle, sheet=form.data, errors=errors, error=exc,
                               request_token=request.form.get("request_token") or _token(),
                               **_catalogues()), exc.status
    flash(gettext("%(name)s is created (card code %(code)s). Now the Traits, Abilities and the rest of the sheet.",
                  name=character.name, code=character.short_code))
    # The editor opens at its top, where the message saying so is (an anchor would scroll past it).
    return redirect(url_for("sheets.edit", character_id=character.id), code=303)


@bp.route("/characters/<int:character_id>/edit")
@role_required("organiser", "narrator")
def edit(character_id: int):
    """The sheet editor: every section of the sheet, each saved on its own."""
    chronicle = get_chronicle()
    character = _character(character_id)
    if not any(_may(name) for name in SECTIONS):
        abort(403)
    return _editor(chronicle, character, {}, keep=_kept_choices())


def _editor(chronicle, character: Character, contexts: dict[str, dict[str, Any]], status: int = 200,
            keep: dict[str, str] | None = None, xp_form: Any = None, xp_error: ServiceError | None = None):
    """The whole editor page; ``contexts`` replaces the sections that were just posted; ``xp_form`` and
    ``xp_error``: an experience line refused, kept as typed with its reason in the Experience section."""
    # Each section is rendered on its own (as htmx swaps it) and the page puts them together.
    sections = {name: Markup(render_template("sheets/_section.html", keep=keep or {},
                                             **(contexts.get(name) or _section_context(character, name))))
                for name in SECTIONS if _may(name)}
    return render_template("sheets/edit.html", chronicle=chronicle, character=character, sections=sections,
                           titles=TITLES, log=experience_log(character), rulings=adjudications(character),
                           game_sessions=list(GameSession.select().where(GameSession.chronicle == chronicle)
                                              .order_by(GameSession.number.desc())),
                           request_token=_token(), xp_form=xp_form or {}, xp_error=xp_error,
                           xp_reason=said_if_phrase(xp_error.message) if xp_error else "",
                           waiting=waiting_cost(character)), status


def _character(character_id: int) -> Character:
    try:
        return get_character(get_chronicle(), character_id)
    except ServiceError:
        abort(404)


@bp.route("/characters/<int:character_id>/sheet/<section>", methods=["POST"])
@role_required("organiser", "narrator")
def save_section(character_id: int, section: str):
    """Save one section of the sheet (one recorded change), or show why not, keeping what was typed."""
    if section not in SECTIONS:
        abort(404)
    chronicle = get_chronicle()
    character = _character(character_id)
    if not _may(section):
        abort(403)
    form = read_section(section, request.form)
    data = form.data
    if section == "notes" and g.user.role != "organiser":
        data = {k: v for k, v in data.items() if k in NARRATOR_FIELDS}
    token = request.form.get("request_token") or None
    try:
        # What the page showed of the sheet, for the stale check; the page writes it as JSON, and text
        # that is not (or nests too deep: issue 28 item 4) is refused naming it, changing nothing.
        seen = read_json(request.form.get("seen") or "{}", "seen", label="The “seen” field", status=422)
        character, record = edit_character(chronicle, g.user, character.id, data, seen=seen if isinstance(seen, dict)
                                           else None, xp_spent=request.form.get("xp_spent"), xp_what=request.form.get("xp_what", "")[:200],
                                           request_token=token)
    except (ServiceError, SheetError) as exc:
        status = exc.status if isinstance(exc, ServiceError) else 422
        context = _section_context(Character.get_by_id(character.id), section, draft=data, error=exc, token=token)
        if is_partial():  # the refusal heads the part: scrolled to, wherever the tap was (new user 13)
            return shown_at(make_response(render_template("sheets/_section.html", keep=_kept_choices(), **context),
                                          status), section)
        return _editor(chronicle, Character.get_by_id(character.id), {section: context}, status, keep=_kept_choices())
    if record:
        saved = gettext("Saved: %(what)s", what=record.summary.split(': ', 1)[-1])
    elif section == "traits":  # its chips save when tapped: the button then finds nothing new
        saved = gettext("Nothing new to save: each tap on a Trait was saved at once (see the history).")
    else:
        saved = gettext("Nothing changed.")
    if form.added and record:
        saved = gettext("Added %(what)s.", what=form.added) + " " + saved
    if is_partial():
        answer = make_response(render_template("sheets/_section.html", **_section_context(character, section, saved=saved),
                                               keep=_kept_choices())
                               + (render_template("sheets/_head.html", character=character, oob=True) if record else ""))
        # A Save button's "Saved" line heads the part: scrolled to (new user 13). A Trait chip's tap stays where
        # the narrator taps the next one.
        return shown_at(answer, section) if request.form.get("save") else answer
    flash(saved)
    return redirect(url_for("sheets.edit", character_id=character.id, **_kept_choices()) + f"#{section}", code=303)


def _kept_choices() -> dict[str, str]:
    """What the next tap on a Trait chip should find as it was: the count chosen and the list
    that was open (``add_count``, ``open``), so adjectives are added tap after tap."""
    kept = {}
    count = (request.values.get("add_count") or "").strip()
    try:
        if whole_number(count, "add_count", default=1, low=1) != 1:
            kept["add_count"] = count
    except NumberError:
        pass  # not a count: the chips start from 1 again
    pick = (request.values.get("pick") or request.values.get("open") or "").partition(":")[0]
    category = pick.partition(".")[2]
    if category in CATEGORIES:
        kept["open"] = category
    return kept


@bp.route("/characters/<int:character_id>/experience", methods=["POST"])
@role_required("organiser")
def experience(character_id: int):
    """Write a line of the experience log (earned or spent, on what, in which game session; a spend past
    the unspent points only with ``past_unspent`` ticked: :func:`larp.services.experience.record_experience`)."""
    chronicle = get_chronicle()
    character = _character(character_id)
    try:
        entry = record_experience(chronicle, g.user, character.id, request.form.get("kind", ""),
                                  request.form.get("amount"), request.form.get("what", ""),
                                  request.form.get("game_session"), past_unspent=bool(request.form.get("past_unspent")))
    except ServiceError as exc:
        # Said in the Experience section, with the line as typed (a new user typed a refused spend again into a
        # form that had come back empty and set to "Earned", and logged it as earned).
        return _editor(chronicle, character, {}, exc.status, xp_form=request.form, xp_error=exc)
    # Said inside the Experience section, above the new line, where the redirect to #experience lands
    # (the page's top, where other messages show, is out of view there).
    flash(gettext("Logged: %(points)s (%(what)s).", points=shown_points(entry.kind, entry.amount),
                  what=entry.what), "experience")
    return redirect(url_for("sheets.edit", character_id=character.id) + "#experience", code=303)


@bp.route("/characters/<int:character_id>/copy", methods=["POST"])
@role_required("organiser")
def copy(character_id: int):
    """Make copies of this character ("5 copies named Thug 1 to Thug 5"), optionally as scene extras and
    with the extras' four-level health track (000 "Optional Rule: Extras")."""
    chronicle = get_chronicle()
    character = _character(character_id)
    try:
        count = whole_number(request.form.get("count"), "count", default=1)
    except NumberError:
        count = 0
    try:
        copies = copy_character(chronicle, g.user, character.id, request.form.get("name", ""), count,
                                scene_extra=bool(request.form.get("scene_extra")),
                                extra_track=bool(request.form.get("extra_track")),
                                request_token=request.form.get("request_token") or None)
    except (ServiceError, SheetError) as exc:
        flash(gettext("No copy was made: %(reason)s", reason=said_if_phrase(exc.message)))
        return _editor(chronicle, character, {}, getattr(exc, "status", 422))
    flash(ngettext("Made %(num)s copy: %(names)s. Issue their cards on the card list when they need one.",
                   "Made %(num)s copies: %(names)s. Issue their cards on the card list when they need one.",
                   len(copies), names=", ".join(c.name for c in copies)))
    return redirect(url_for("characters.list_characters"), code=303)


@bp.route("/characters/<int:character_id>/retire", methods=["POST"])
@role_required("organiser")
def retire(character_id: int):
    """Retire the character (the player left) or, with ``restore``, bring him back."""
    chronicle = get_chronicle()
    character = _character(character_id)
    action = restore_character if request.form.get("restore") else retire_character
    try:
        character = action(chronicle, g.user, character.id)
    except ServiceError as exc:
        flash(said_if_phrase(exc.message))
        return redirect(url_for("sheets.edit", character_id=character.id), code=303)
    flash(gettext("%(name)s is retired: kept in the record, hidden from pickers, the board and the cards.",
                  name=character.name)
          if character.retired_at else gettext("%(name)s is back in play.", name=character.name))
    return redirect(url_for("sheets.edit", character_id=character.id), code=303)


@bp.route("/characters/<int:character_id>/delete", methods=["GET", "POST"])
@role_required("organiser")
def delete(character_id: int):
    """Delete the character: plainly confirmed when he has no rulings, else only with his name typed."""
    chronicle = get_chronicle()
    character = _character(character_id)
    error = None
    if request.method == "POST":
        try:
            name = delete_character(chronicle, g.user, character.id, request.form.get("confirm_name"),
                                    confirmed=bool(request.form.get("confirm")))
        except ServiceError as exc:
            error = exc
        else:
            flash(gettext("%(name)s is deleted.", name=name))
            return redirect(url_for("characters.list_characters"), code=303)
    return render_template("sheets/delete.html", chronicle=chronicle, character=character, error=error,
                           rulings=adjudications(character)), (error.status if error else 200)


@bp.route("/characters/extras/remove", methods=["POST"])
@role_required("organiser")
def remove_extras():
    """Remove every scene extra and the rulings only they were in (after the game session)."""
    chronicle = get_chronicle()
    try:
        removed = remove_scene_extras(chronicle, g.user, bool(request.form.get("confirm")))
    except ServiceError as exc:
        flash(gettext("Nothing was removed: %(reason)s", reason=said_if_phrase(exc.message)))
        return redirect(url_for("characters.list_characters"), code=303)
    flash(gettext("Removed %(count)s scene extras.", count=removed))
    return redirect(url_for("characters.list_characters"), code=303)

