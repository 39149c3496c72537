"""Experience spends with approval (issue 33 item 2): a player asks, an organiser approves, refuses
or asks for a change, and an approval can be undone while nothing bought after it needs it.

Every price, prerequisite and refusal is the rules core's (:func:`larp.rules.experience_purchase.
price_request`), on the character's sheet and his experience totals as the log runs them
(:func:`larp.services.experience.experience_log`: fractions and Grapevine's "set" lines included).
An approval is one transaction: the request is claimed, the sheet changes and the experience is
spent as one ruling of kind "sheet" (History and the Experience log, a new edition of the printed
sheet), and the webhook event is queued.

Check-then-write, on both engines: a request changes state only by a conditional
``UPDATE spendrequest SET state=... WHERE id=? AND state IN (...)`` whose row count is checked
(:func:`_claim`). Two organisers approving the same request at once: on PostgreSQL the second UPDATE
waits on the first's row lock and, once it commits, re-reads the row (READ COMMITTED), finds the state
no longer "asked" and changes 0 rows; on SQLite ``BEGIN IMMEDIATE`` makes the second transaction wait
for the first to end, then its UPDATE changes 0 rows. Either way the second is refused (409) and the
experience is spent once. The character is locked first (``lock_characters``), so the price is
checked against the totals the write will change.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any, Iterable

from flask_babel import gettext

from larp.catalogues import merit_flaw, merits_flaws
from larp.db import as_id, db
from larp.i18n import N_, said_as
from larp.models import Character, Chronicle, ExperienceEntry, Ruling, SpendRequest, User, utcnow
from larp.rules.experience import points_text
from larp.rules.experience_costs import cost_table
from larp.rules.experience_purchase import (PurchaseError, PurchaseRequest, Pricing, depends_on, price_request,
                                            reverse_change)
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.services.characters import get_character
from larp.services.chronicles import chronicle_settings, open_game_session
from larp.services.experience import experience_log
from larp.services.players import own_character, players_of
from larp.services.records import lock_characters, refuse_if_recorded
from larp.services.sheet_store import sheet_of
from larp.services.sheets import edit_character
from larp.tables import discipline_table
from larp.webhooks.outbox import announce_experience_approved

#: The longest note a player sends with a request, and the longest answer, in characters.
NOTE_MAX = 500
#: The states a request can be answered in, and the words a person reads for each state.
STATE_LABELS = {"asked": N_("Waiting for an organiser"), "approved": N_("Approved"), "refused": N_("Refused"),
                "change_asked": N_("Change asked"), "withdrawn": N_("Withdrawn"), "undone": N_("Approval undone")}


def _note(text: Any, field: str, label: str, required: bool = False) -> str:
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise ServiceError(Phrase.message(N_("%(label)s must be text."), label=Phrase.message(label)), field=field)
    text = text.strip()
    if required and not text:
        raise ServiceError(gettext("%(label)s: say why (the player reads it).", label=label), field=field)
    if len(text) > NOTE_MAX:
        raise ServiceError(Phrase.message(N_("%(label)s: at most %(NOTE_MAX)s characters (%(n)s given)."),
                                          label=Phrase.message(label), NOTE_MAX=NOTE_MAX, n=len(text)), field=field)
    return text


def read_request(data: Any) -> PurchaseRequest:
    """What the player asks for, from a form or a JSON body (``kind``, ``name``, ``category``,
    ``discipline``, ``level``, ``tier``, ``traits``, ``key``). A Merit of the catalogue
    (data/merits_flaws.toml, by ``key`` or by name) takes its name, id and cost in Traits from it (a
    Merit of a range: the cost chosen, within the range).

    Raises:
        ServiceError: 422 naming the field at fault.
    """
    try:
        request = PurchaseRequest.from_dict(dict(data) if hasattr(data, "keys") else data)
    except PurchaseError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    if request.kind != "merit":
        return request
    listed = merit_flaw("merit", request.key) if request.key else next(
        (m for m in merits_flaws().values() if m.kind == "merit" and m.name.lower() == request.name.lower()), None)
    if listed is None:
        return request  # a custom Merit: its cost in Traits as given
    traits = request.traits or listed.cost
    if not listed.cost <= traits <= listed.max_cost:
        raise ServiceError(Phrase.message(N_("%(name)s costs %(cost)s to %(max_cost)s Traits (LotNR Merits and "
                                             "Flaws)."), name=listed.name, cost=listed.cost, max_cost=listed.max_cost),
                           field="traits")
    return replace(request, name=listed.name, key=listed.key, traits=traits)


def price(chronicle: Chronicle, character: Character, request: PurchaseRequest) -> Pricing:
    """``request`` priced for ``character`` now: his stored sheet, his experience totals and the
    chronicle's cost table (data/settings/experience_costs.toml and its overrides)."""
    log = experience_log(character)
    return price_request(sheet_of(character), log.earned, log.unspent, request,
                         cost_table(chronicle_settings(chronicle)))


def visible_character(chronicle: Chronicle, user: User | None, character_id: Any) -> Character:
    """The character ``user`` may ask for: an organiser any of the chronicle's; anyone else (a
    player, a narrator who also plays) only one linked to him (:func:`larp.services.players.
    own_character`: 404 otherwise, saying nothing of whether it exists).

    Raises:
        ServiceError: 404 unknown, or not his.
    """
    if user is None or user.role == "organiser":
        return get_character(chronicle, character_id)
    return own_character(user, character_id)


def ask_spend(chronicle: Chronicle, user: User | None, character_id: Any, data: Any,
              note: Any = "", for_player: Any = None) -> tuple[SpendRequest, Pricing]:
    """A player (or an organiser on his behalf) asks to spend experience on ``character_id``.

    ``for_player`` (an organiser only): the name of a player without an account who asked at the
    table; the request is then his (any organiser may approve it), written down by ``user``.

    A request the character cannot afford now, or whose prerequisite is missing, is refused at
    once with why (nothing is stored); so is one asked already and waiting (409), and one that the
    experience left after the requests waiting would not pay for (409).

    Raises:
        ServiceError: 404 not a character the user may ask for; 422 a malformed request or a note
            over :data:`NOTE_MAX` characters, or one refused by the rules (the message says why,
            field ``kind``); 409 the same purchase waiting already, or not enough left after the requests
            waiting.
    """
    request = read_request(data)
    note = _note(note, "note", N_("The note"))
    player = _note(for_player, "for_player", N_("The player's name"))[:60]
    if player and user is not None and user.role != "organiser":
        raise ServiceError(Phrase.message(N_("Only an organiser writes down a "
                                             "request for a player.")), field="for_player", status=403)
    asker = None if player else user
    name = (f"{player} (written down by {user.display_name})" if user else player) if player else (
        user.display_name if user else "")
    with db.atomic():
        character = visible_character(chronicle, user, character_id)
        # Check-then-write: the character's row is locked first (FOR NO KEY UPDATE on PostgreSQL; SQLite's
        # BEGIN IMMEDIATE already serialises), so two asks at once see each other's request.
        lock_characters([character.id])
        priced = price(chronicle, character, request)
        if not priced.allowed:
            raise ServiceError(Phrase.message(N_("%(what)s: %(reasons)s"),
                                              what=priced.what, reasons=priced.reasons()), field="kind")
        waiting = list(SpendRequest.select().where((SpendRequest.character == character.id)
                                                   & (SpendRequest.state == "asked")))
        same = next((w for w in waiting if w.what == priced.what), None)
        if same is not None:
            raise ServiceError(Phrase.message(N_("%(what)s is asked already (request #%(id)s), waiting for an organiser."),
                                              what=priced.what, id=str(same.id)),
                               field="kind", status=409)
        held = sum((Decimal(str(w.cost)) for w in waiting), Decimal(0))
        if held and priced.unspent - held < priced.cost:
            raise ServiceError(
                Phrase.counted(len(waiting), "%(what)s costs %(cost)s; %(name)s has %(unspent)s unspent, of which %(held)s "
                               "is asked already by %(n)s request waiting for an organiser: not enough for this one too.",
                               "%(what)s costs %(cost)s; %(name)s has %(unspent)s unspent, of which %(held)s is asked "
                               "already by %(n)s requests waiting for an organiser: not enough for this one too.",
                               what=priced.what, cost=points_text(priced.cost), name=character.name,
                               unspent=points_text(priced.unspent), held=points_text(held)),
                field="kind", status=409)
        spend = SpendRequest.create(chronicle=chronicle, character=character, asked_by=asker,
                                    asked_by_name=name[:120], request=request.to_dict(),
                                    what=priced.what[:300], what_said=said_data(priced.what, 300), cost=priced.cost,
                                    note=note)
        return spend, priced


def get_request(chronicle: Chronicle, request_id: Any, user: User | None = None) -> SpendRequest:
    """Request ``request_id`` of ``chronicle``; for a player only one of his own characters'.

    Raises:
        ServiceError: 404 no such request (or not his).
    """
    rid = as_id(request_id)
    found = SpendRequest.get_or_none((SpendRequest.id == rid) & (SpendRequest.chronicle == chronicle)) \
        if rid is not None else None
    if found is not None and user is not None and user.role == "player":
        try:
            visible_character(chronicle, user, found.character_id)
        except ServiceError:
            found = None
    if found is None:
        raise ServiceError(gettext("There is no such request."), field="request", status=404)
    return found


def _claim(spend: SpendRequest, from_states: Iterable[str], **values: Any) -> None:
    """Move ``spend`` to new ``values`` (its state among them) only if it is still in one of
    ``from_states``: ``UPDATE ... WHERE id=? AND state IN (...)`` and a row-count check (the module
    docstring says why this is safe on both engines).

    Raises:
        ServiceError: 409 it was answered meanwhile (by whom, and how).
    """
    states = tuple(from_states)
    changed = SpendRequest.update(**values).where((SpendRequest.id == spend.id)
                                                  & (SpendRequest.state.in_(states))).execute()
    if changed != 1:
        now = SpendRequest.get_by_id(spend.id)
        said = N_("Request #%(id)s changed meanwhile: it is now “%(state)s” (by %(who)s).") if now.answered_by_name \
            else N_("Request #%(id)s changed meanwhile: it is now “%(state)s”.")
        raise ServiceError(Phrase.message(said, id=str(spend.id), state=Phrase.message(STATE_LABELS[now.state]),
                                          who=now.answered_by_name or ""), field="request", status=409)


def _organiser(user: User | None) -> None:
    if user is not None and user.role != "organiser":
        raise ServiceError(gettext("Only an organiser answers a request to spend experience."), status=403)


def approve_request(chronicle: Chronicle, organiser: User | None, request_id: Any) -> SpendRequest:
    """Approve a request: in one transaction the request is claimed, the sheet changes and the
    experience is spent (a ruling of kind "sheet": History, the Experience log, a new edition of the
    printed sheet), and the webhook event ``experience_approved`` is queued. Nobody approves his own
    request (an organiser who asked needs another organiser).

    Raises:
        ServiceError: 403 not an organiser, or his own request; 404 no such request; 409 no longer
            asked (another organiser answered it first), or the rules refuse it now (why: the
            character spent the experience meanwhile, a prerequisite is gone).
    """
    _organiser(organiser)
    with db.atomic():
        refuse_if_recorded()  # an API call's Idempotency-Key recorded already: 409 naming its ruling
        spend = get_request(chronicle, request_id)
        if organiser is not None and (spend.asked_by_id == organiser.id or organiser.id in {
                u.id for u in players_of(spend.character)}):
            raise ServiceError(gettext("Nobody approves his own request, nor one for a character he plays: another "
                                       "organiser approves it."), field="request", status=403)
        lock_characters([spend.character_id])
        character = Character.get_by_id(spend.character_id)
        request = PurchaseRequest.from_dict(spend.request)
        priced = price(chronicle, character, request)
        if spend.state == "asked" and not priced.allowed:
            raise ServiceError(Phrase.message(N_("%(what)s cannot be approved now: %(reasons)s"),
                                              what=priced.what, reasons=priced.reasons()), field="request",
                               status=409)
        before = sheet_of(character).to_dict()
        _claim(spend, ("asked",), state="approved", answered_by=organiser, answered_at=utcnow(), answer="",
               answered_by_name=organiser.display_name if organiser else "", cost=priced.cost,
               what=priced.what[:300], what_said=said_data(priced.what, 300), bought=priced.change,
               before={k: before[k] for k in priced.change})
        _, record = edit_character(chronicle, organiser, character.id, priced.change, xp_spent=priced.cost,
                                   xp_what=_request_what(priced.what, spend.id))
        # The record says why it costs what it costs (the price's steps, each naming its setting), in the
        # same transaction: one ruling, its steps the sheet's changes, the price, the experience spent.
        Ruling.update(steps=list(record.steps[:-1]) + list(priced.steps[:-1]) + list(record.steps[-1:])).where(
            Ruling.id == record.id).execute()
        SpendRequest.update(ruling=record).where(SpendRequest.id == spend.id).execute()
        announce_experience_approved(character, priced.cost, priced.what, open_game_session(chronicle), organiser,
                                     record)
        return SpendRequest.get_by_id(spend.id)


def answer_request(chronicle: Chronicle, organiser: User | None, request_id: Any, state: str,
                   reason: Any) -> SpendRequest:
    """Refuse a request (``state`` "refused") or ask the player for a change ("change_asked"), with
    the reason the player reads.

    Raises:
        ServiceError: 403 not an organiser; 404 no such request; 409 no longer asked; 422 no reason.
    """
    _organiser(organiser)
    if state not in ("refused", "change_asked"):
        raise ServiceError(gettext("Refuse the request or ask for a change."), field="state")
    reason = _note(reason, "reason", gettext("The reason"), required=True)
    with db.atomic():
        spend = get_request(chronicle, request_id)
        _claim(spend, ("asked",), state=state, answer=reason, answered_by=organiser, answered_at=utcnow(),
               answered_by_name=organiser.display_name if organiser else "")
        return SpendRequest.get_by_id(spend.id)


def withdraw_request(chronicle: Chronicle, user: User | None, request_id: Any) -> SpendRequest:
    """The player withdraws his request while it waits (asked, or a change asked).

    Raises:
        ServiceError: 404 no such request of his; 403 another's request; 409 already answered.
    """
    with db.atomic():
        spend = get_request(chronicle, request_id, user)
        if user is not None and user.role != "organiser" and spend.asked_by_id != user.id:
            raise ServiceError(gettext("Only the player who asked withdraws a request."), field="request", status=403)
        _claim(spend, ("asked", "change_asked"), state="withdrawn", answered_at=utcnow())
        return SpendRequest.get_by_id(spend.id)


def undo_approval(chronicle: Chronicle, organiser: User | None, request_id: Any) -> SpendRequest:
    """Undo an approval: the sheet gets back what the approval changed and the experience is
    refunded, as one ruling of kind "sheet" with a "refunded" line in the Experience log.

    Refused with why while a purchase approved after it needs it (a power of the same Discipline or
    path, a Ritual of it, a further level of the same rating), or when the sheet changed since in a
    field the approval wrote (change it by hand then). An approval whose ruling was undone in History
    (the sheet and the experience are back already) is only marked undone.

    Raises:
        ServiceError: 403 not an organiser; 404 no such request; 409 not approved, needed by a later
            purchase, or the sheet changed since.
    """
    _organiser(organiser)
    with db.atomic():
        refuse_if_recorded()  # an API call's Idempotency-Key recorded already: 409 naming its ruling
        spend = get_request(chronicle, request_id)
        lock_characters([spend.character_id])
        if spend.state != "approved":
            raise ServiceError(Phrase.message(N_("Request #%(id)s is “%(state)s”: only an approval is undone."),
                                              id=str(spend.id), state=Phrase.message(STATE_LABELS[spend.state])),
                               field="request", status=409)
        if spend.ruling is not None and spend.ruling.undone_at is not None:
            # Its ruling was undone from History (the sheet and the spent line are back already): the
            # request only says so now.
            _claim(spend, ("approved",), state="undone", answered_by=organiser, answered_at=utcnow(),
                   answered_by_name=organiser.display_name if organiser else "",
                   answer=f"Approval undone in History (ruling #{spend.ruling_id}).")
            return SpendRequest.get_by_id(spend.id)
        request = PurchaseRequest.from_dict(spend.request)
        later = [s for s in SpendRequest.select().where(
            (SpendRequest.character == spend.character_id) & (SpendRequest.state == "approved")
            & (SpendRequest.id != spend.id)) if (s.answered_at, s.id) > (spend.answered_at, spend.id)
            and not (s.ruling is not None and s.ruling.undone_at is not None)
            and depends_on(PurchaseRequest.from_dict(s.request), request)]
        if later:
            raise ServiceError(Phrase.message(N_("%(what)s cannot be undone: %(later)s. Undo that first."),
                                              what=spend.what, later=[Phrase.message(
                                                  N_("request #%(id)s (%(what)s) was bought after it and needs it"),
                                                  id=str(s.id), what=s.what) for s in later]),
                               field="request", status=409)
        character = Character.get_by_id(spend.character_id)
        fields, why = reverse_change(sheet_of(character), request, spend.bought, spend.before)
        if why:
            raise ServiceError(Phrase.message(N_("%(what)s cannot be undone: %(why)s"),
                                              what=spend.what, why=why), field="request", status=409)
        _claim(spend, ("approved",), state="undone", answered_by=organiser, answered_at=utcnow(),
               answered_by_name=organiser.display_name if organiser else "", answer="Approval undone.")
        _, record = edit_character(chronicle, organiser, character.id, fields)
        if spend.cost:
            undone = Phrase.message(N_("Undo of request #%(id)s: %(what)s"), id=str(spend.id),
                                    what=Phrase(spend.what_said) if spend.what_said else spend.what)
            ExperienceEntry.create(character=character, game_session=open_game_session(chronicle), ruling=record,
                                   user=organiser, kind="refunded", amount=Decimal(spend.cost),
                                   what=undone[:200], what_said=said_data(undone, 200))
        SpendRequest.update(undo_ruling=record).where(SpendRequest.id == spend.id).execute()
        return SpendRequest.get_by_id(spend.id)


def said_data(words: Any, most: int) -> dict | None:
    """The phrase data of ``words`` to keep beside their English (a request's ``what_said``, an experience line's),
    so that they read in whoever's language opens them (issue 36); ``None`` for plain words or words longer than
    the column's ``most`` characters (cut, they are kept as English)."""
    return words.data() if isinstance(words, Phrase) and len(words) <= most else None


def _request_what(what: str, request_id: int) -> str:
    """"<what> (request #<id>)", the experience log's words for an approved request (at most 200 characters), a
    phrase the record says in the reader's language when it fits."""
    said = Phrase.message(N_("%(what)s (request #%(id)s)"), what=what, id=request_id)
    return said if len(said) <= 200 else said[:200]


def suggestions(chronicle: Chronicle, character: Character, most: int = 8) -> list[tuple[PurchaseRequest, Pricing]]:
    """What ``character`` can buy next in one tap, priced and allowed now: the next power listed
    (data/disciplines.toml) in each Discipline or path he holds, then Willpower and Humanity or Path,
    but what he has asked already and still waits for an organiser (it would be refused as asked twice).
    At most ``most``."""
    waiting = {what for (what,) in SpendRequest.select(SpendRequest.what).where(
        (SpendRequest.character == character.id) & (SpendRequest.state == "asked")).tuples()}
    sheet = sheet_of(character)
    log = experience_log(character)
    table = cost_table(chronicle_settings(chronicle))
    wanted: list[PurchaseRequest] = []
    for (discipline, path), row in discipline_table().items():
        prefix = f"{path}: " if path else ""
        held = {p.power.lower() for p in sheet.powers if p.discipline.lower() == discipline.lower()}
        names = [f"{prefix}{name}" for name, _level in sorted(row.levels.items(), key=lambda kv: kv[1])]
        if not any(n.lower() in held for n in names):
            continue
        following = next((n for n in names if n.lower() not in held), None)
        if following:
            wanted.append(PurchaseRequest("power", following, discipline=discipline))
    wanted += [PurchaseRequest("willpower"), PurchaseRequest("morality")]
    out = []
    for item in wanted:
        priced = price_request(sheet, log.earned, log.unspent, item, table)
        if priced.allowed and priced.what not in waiting:
            out.append((item, priced))
    return out[:most]


def queue(chronicle: Chronicle, states: Iterable[str] = ("asked",)) -> list[SpendRequest]:
    """The chronicle's requests in ``states``, oldest first (the organisers' queue)."""
    return list(SpendRequest.select().where((SpendRequest.chronicle == chronicle)
                                            & (SpendRequest.state.in_(tuple(states))))
                .order_by(SpendRequest.asked_at, SpendRequest.id))


def recent_answers(chronicle: Chronicle, limit: int = 20) -> list[SpendRequest]:
    """The chronicle's latest answered requests, newest first (to undo an approval)."""
    return list(SpendRequest.select().where((SpendRequest.chronicle == chronicle)
                                            & (SpendRequest.state != "asked"))
                .order_by(SpendRequest.answered_at.desc(nulls="LAST"), SpendRequest.id.desc()).limit(limit))


def pending_count(chronicle: Chronicle) -> int:
    """How many requests wait for an organiser (the top bar's count, read by
    :func:`larp.services.players.pending_counts`)."""
    return SpendRequest.select().where((SpendRequest.chronicle == chronicle)
                                       & (SpendRequest.state == "asked")).count()


#: A request's state as a player's notice reads it (:data:`larp.services.players.NOTICE_STATES`).
NOTICE_OF_STATE = {"asked": "waiting", "approved": "approved", "refused": "refused", "change_asked": "changes",
                   "undone": "answered"}


def player_notices(character: Character, most: int = 5) -> list[tuple[str, str]]:
    """``character``'s latest requests as notices, newest first: (text, state) (read by
    :func:`larp.services.players.player_notices` for the badge on his page and his card page);
    withdrawn ones are left out."""
    out = []
    for spend in requests_of(character):
        if spend.state == "withdrawn":
            continue
        what = said_as(spend.what, spend.what_said)  # in the reader's language, as his page says it
        text = f"{what}: {gettext(STATE_LABELS[spend.state]).lower()}" + (f" ({spend.answer})" if spend.answer else "")
        out.append((text, NOTICE_OF_STATE[spend.state]))
    return out[:most]


def waiting_cost(character: Character) -> tuple[int, Decimal]:
    """How many of ``character``'s requests wait for an organiser, and the experience they ask for in all (the
    sheet editor says so beside the unspent points, so a spend logged there does not take what a waiting request
    counts on)."""
    waiting = list(SpendRequest.select(SpendRequest.cost).where((SpendRequest.character == character.id)
                                                                & (SpendRequest.state == "asked")))
    return len(waiting), sum((Decimal(str(w.cost)) for w in waiting), Decimal(0))


def requests_of(character: Character) -> list[SpendRequest]:
    """``character``'s requests, newest first (his page)."""
    return list(SpendRequest.select().where(SpendRequest.character == character)
                .order_by(SpendRequest.asked_at.desc(), SpendRequest.id.desc()))


def request_json(spend: SpendRequest) -> dict[str, Any]:
    """A request as the API answers it (amounts as decimal text, times in ISO 8601 UTC)."""
    return {"id": spend.id, "character": {"id": spend.character_id, "name": spend.character.name},
            "request": spend.request, "what": spend.what, "cost": str(Decimal(spend.cost).normalize()),
            "note": spend.note, "state": spend.state, "answer": spend.answer, "asked_by": spend.asked_by_name,
            "answered_by": spend.answered_by_name,
            "asked_at": spend.asked_at.isoformat() if spend.asked_at else None,
            "answered_at": spend.answered_at.isoformat() if spend.answered_at else None,
            "ruling": spend.ruling_id, "undo_ruling": spend.undo_ruling_id}
