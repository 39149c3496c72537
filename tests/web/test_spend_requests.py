"""Issue 33 item 2: experience spends with approval, through the services, on both engines.

Asked, approved (the sheet changes, the experience is spent, History and the Experience log, one
transaction), refused, change asked, withdrawn, undone (refused while a later purchase needs it);
nobody approves his own request; two organisers approving at once spend once.

Runs on the demo chronicle: Vivienne Ashcombe (Toreador) holds Celerity's two Basic powers and Auspex's
Heightened Senses."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest

from larp.db import db
from larp.models import Character, ExperienceEntry, Ruling, SpendRequest, User
from larp.services import ServiceError
from larp.services.accounts import create_user
from larp.services.chronicles import get_chronicle
from larp.services.experience import experience_log, record_experience
from larp.services.sheet_store import sheet_of
from larp.services import spend_requests as spends

RAPIDITY = {"kind": "power", "discipline": "Celerity", "name": "Rapidity"}


def user(name: str, role: str = "organiser") -> User:
    found = User.get_or_none(User.username == name)
    return found or create_user(name, name.title(), role, "correct horse")


@pytest.fixture
def ctx(app):
    """A request context and a connection; Vivienne with 10 experience earned."""
    with app.test_request_context(), db.connection_context():
        chronicle = get_chronicle()
        vivienne = Character.get(Character.name == "Vivienne Ashcombe")
        record_experience(chronicle, None, vivienne.id, "earned", "10", "test award")
        yield chronicle, vivienne


def powers(character) -> set[str]:
    return {p.power for p in sheet_of(Character.get_by_id(character.id)).powers}


def test_ask_approve_spends_once_in_history_and_log(ctx):
    """An approval raises the sheet, spends 6 (Intermediate, in-clan), logs it on the same ruling,
    and the request names that ruling; a second approval is refused (409)."""
    chronicle, vivienne = ctx
    before = experience_log(vivienne).unspent
    asked, priced = spends.ask_spend(chronicle, user("asker"), vivienne.id, RAPIDITY, "for the chase")
    assert priced.cost == 6 and priced.unspent_after == before - 6 and asked.state == "asked"
    approved = spends.approve_request(chronicle, user("boss"), asked.id)
    assert approved.state == "approved" and approved.answered_by_name == "Boss"
    assert "Rapidity" in powers(vivienne)
    assert experience_log(vivienne).unspent == before - 6
    line = ExperienceEntry.get(ExperienceEntry.ruling == approved.ruling_id)
    assert line.kind == "spent" and line.amount == 6 and f"request #{asked.id}" in line.what
    record = Ruling.get_by_id(approved.ruling_id)
    assert record.kind == "sheet"
    assert [s["rule"] for s in record.steps][-2:] == ["Chronicle setting xp_power_intermediate", "LotNR Experience"]
    assert "6 experience spent" in record.steps[-1]["text"]
    with pytest.raises(ServiceError) as refused:
        spends.approve_request(chronicle, user("boss2"), asked.id)
    assert refused.value.status == 409 and "Boss" in refused.value.message
    assert experience_log(vivienne).unspent == before - 6


def test_refused_at_once_with_why(ctx):
    """Unaffordable and prerequisite-missing requests are refused when asked; nothing is stored."""
    chronicle, vivienne = ctx
    with pytest.raises(ServiceError) as missing:
        spends.ask_spend(chronicle, user("asker"), vivienne.id,
                         {"kind": "power", "discipline": "Dominate", "name": "Forgetful Mind"})
    assert "needs a Basic power of Dominate first" in missing.value.message
    with pytest.raises(ServiceError) as poor:
        spends.ask_spend(chronicle, user("asker"), vivienne.id,
                         {"kind": "power", "discipline": "Celerity", "name": "Fleetness"})
    assert "needs an Intermediate power of Celerity first" in poor.value.message
    record_experience(chronicle, None, vivienne.id, "spent", experience_log(vivienne).unspent, "all of it")
    with pytest.raises(ServiceError) as broke:
        spends.ask_spend(chronicle, user("asker"), vivienne.id, RAPIDITY)
    assert "costs 6 experience" in broke.value.message and "0 unspent" in broke.value.message
    assert SpendRequest.select().count() == 0


def test_nobody_approves_his_own_request(ctx):
    chronicle, vivienne = ctx
    boss = user("boss")
    asked, _ = spends.ask_spend(chronicle, boss, vivienne.id, RAPIDITY)
    with pytest.raises(ServiceError) as own:
        spends.approve_request(chronicle, boss, asked.id)
    assert own.value.status == 403 and "own request" in own.value.message
    assert spends.approve_request(chronicle, user("other"), asked.id).state == "approved"


def test_refuse_change_and_withdraw(ctx):
    chronicle, vivienne = ctx
    asker = user("asker")
    one, _ = spends.ask_spend(chronicle, asker, vivienne.id, RAPIDITY)
    with pytest.raises(ServiceError):
        spends.answer_request(chronicle, user("boss"), one.id, "refused", "  ")
    refused = spends.answer_request(chronicle, user("boss"), one.id, "refused", "Not this month.")
    assert refused.state == "refused" and refused.answer == "Not this month."
    two, _ = spends.ask_spend(chronicle, asker, vivienne.id, {"kind": "ability", "name": "Occult"})
    assert spends.answer_request(chronicle, user("boss"), two.id, "change_asked", "Which lore?").state == "change_asked"
    assert spends.withdraw_request(chronicle, asker, two.id).state == "withdrawn"
    with pytest.raises(ServiceError) as late:
        spends.approve_request(chronicle, user("boss"), two.id)
    assert late.value.status == 409
    assert "Rapidity" not in powers(vivienne)


def test_undo_refused_while_a_later_purchase_needs_it(ctx):
    """Celerity 3 then Celerity 4: undoing 3 is refused naming 4; undoing 4 then 3 gives both back
    with the experience refunded."""
    chronicle, vivienne = ctx
    boss, asker = user("boss"), user("asker")
    start = experience_log(vivienne).unspent
    three, _ = spends.ask_spend(chronicle, asker, vivienne.id, RAPIDITY)
    spends.approve_request(chronicle, boss, three.id)
    record_experience(chronicle, None, vivienne.id, "earned", "6", "more")
    four, _ = spends.ask_spend(chronicle, asker, vivienne.id,
                               {"kind": "power", "discipline": "Celerity", "name": "Legerity"})
    spends.approve_request(chronicle, boss, four.id)
    with pytest.raises(ServiceError) as needed:
        spends.undo_approval(chronicle, boss, three.id)
    assert needed.value.status == 409 and f"request #{four.id}" in needed.value.message
    assert spends.undo_approval(chronicle, boss, four.id).state == "undone"
    undone = spends.undo_approval(chronicle, boss, three.id)
    assert undone.state == "undone" and undone.undo_ruling_id
    assert not {"Rapidity", "Legerity"} & powers(vivienne)
    assert experience_log(vivienne).unspent == start + 6
    refund = ExperienceEntry.get(ExperienceEntry.ruling == undone.undo_ruling_id)
    assert refund.kind == "refunded" and refund.amount == 6


def test_two_organisers_approving_at_once_spend_once(app):
    """Three organisers approve the same request at the same moment (three threads, three
    connections): one approval, one line spent, the others told it was approved (409)."""
    with app.test_request_context(), db.connection_context():
        chronicle = get_chronicle()
        vivienne = Character.get(Character.name == "Vivienne Ashcombe")
        record_experience(chronicle, None, vivienne.id, "earned", "10", "test award")
        asked, _ = spends.ask_spend(chronicle, user("asker"), vivienne.id, RAPIDITY)
        bosses = [user(f"boss{n}").id for n in range(3)]
        unspent = experience_log(vivienne).unspent
    start = threading.Barrier(3)
    outcomes, errors = [], []

    def tap(boss_id):
        try:
            with app.test_request_context(), db.connection_context():
                start.wait(timeout=10)
                spends.approve_request(get_chronicle(), User.get_by_id(boss_id), asked.id)
                outcomes.append("approved")
        except ServiceError as exc:
            outcomes.append(exc.status)
        except BaseException as exc:  # noqa: BLE001 - any other failure fails the test
            errors.append(exc)

    threads = [threading.Thread(target=tap, args=(b,)) for b in bosses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert sorted(map(str, outcomes)) == ["409", "409", "approved"]
    with db.connection_context():
        vivienne = Character.get(Character.name == "Vivienne Ashcombe")
        assert ExperienceEntry.select().where(ExperienceEntry.what.contains(f"request #{asked.id}")).count() == 1
        assert experience_log(vivienne).unspent == unspent - 6
        assert [p.power for p in sheet_of(vivienne).powers].count("Rapidity") == 1


def test_the_conditional_update_is_the_check(ctx):
    """Without the state in its WHERE the second approval would spend again: the claim is what
    refuses it (a request read as "asked" before another approval committed)."""
    chronicle, vivienne = ctx
    asked, _ = spends.ask_spend(chronicle, user("asker"), vivienne.id, RAPIDITY)
    stale = SpendRequest.get_by_id(asked.id)
    spends.approve_request(chronicle, user("boss"), asked.id)
    with pytest.raises(ServiceError) as second:
        spends._claim(stale, ("asked",), state="approved")
    assert second.value.status == 409
    assert Decimal(SpendRequest.get_by_id(asked.id).cost) == 6


def test_an_approval_sends_the_webhook_event_in_its_transaction(ctx):
    """The event experience_approved is queued by the approval (once), naming what and how much."""
    from larp.models import WebhookEvent
    from larp.services.webhooks import create_webhook

    chronicle, vivienne = ctx
    create_webhook(chronicle, None, {"name": "Staff", "url": "https://discord.com/api/webhooks/1/TOKEN",
                                     "events": ["experience_approved"]})
    asked, _ = spends.ask_spend(chronicle, user("asker"), vivienne.id, RAPIDITY)
    spends.approve_request(chronicle, user("boss"), asked.id)
    events = list(WebhookEvent.select().where(WebhookEvent.kind == "experience_approved"))
    assert len(events) == 1 and "Rapidity" in str(events[0].payload) and "6" in str(events[0].payload)


def test_a_catalogue_merit_costs_its_traits(ctx):
    """A Merit of data/merits_flaws.toml is priced by its own cost in Traits (Ambidextrous: 1); a cost
    outside its range is refused naming the field."""
    from larp.catalogues import merit_flaw

    chronicle, vivienne = ctx
    ambidextrous = merit_flaw("merit", "ambidextrous")
    asked, priced = spends.ask_spend(chronicle, user("asker"), vivienne.id, {"kind": "merit", "name": "ambidextrous"})
    assert priced.cost == ambidextrous.cost and asked.request["key"] == "ambidextrous"
    with pytest.raises(ServiceError) as wrong:
        spends.ask_spend(chronicle, user("asker"), vivienne.id, {"kind": "merit", "key": "ambidextrous", "traits": 7})
    assert wrong.value.field == "traits"


def test_an_approval_undone_in_history_is_marked_undone_without_a_second_refund(ctx):
    """Undoing the approval's ruling from History gives the sheet and the experience back; the queue's
    undo then only marks the request undone (no second refund)."""
    from larp.services.history import undo_ruling

    chronicle, vivienne = ctx
    start = experience_log(vivienne).unspent
    asked, _ = spends.ask_spend(chronicle, user("asker"), vivienne.id, RAPIDITY)
    approved = spends.approve_request(chronicle, user("boss"), asked.id)
    undo_ruling(chronicle, user("boss"), approved.ruling_id)
    assert experience_log(vivienne).unspent == start and "Rapidity" not in powers(vivienne)
    marked = spends.undo_approval(chronicle, user("boss"), asked.id)
    assert marked.state == "undone" and "History" in marked.answer
    assert experience_log(vivienne).unspent == start
