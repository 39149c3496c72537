"""Webhooks (issue 35) through the app: events written in the transaction of what caused them,
delivered by the worker (run here in the test's thread, on a clock the test moves) in order per
webhook, retried, rate-limited, given up, stopped; the settings page's section and the API."""

from __future__ import annotations

import json
import logging
import re
from datetime import timedelta

import pytest

from larp.db import db
from larp.models import Character, Ruling, Webhook, WebhookDelivery, WebhookEvent, utcnow
from larp.services.records import record_ruling
from larp.services.webhooks import create_webhook, update_webhook
from larp.webhooks.outbox import claim, claim_jobs, emit, heads
from larp.webhooks.worker import DeliveryWorker
from tests.support import AuthActions, make_test_app
from tests.web.webhook_receiver import Receiver, Reply, first_arrivals

#: Short waits, so a test moves its clock by seconds, not hours.
FAST = {"WEBHOOK_RETRY_SECONDS": 5.0, "WEBHOOK_RETRY_MAX_SECONDS": 20.0, "WEBHOOK_LEASE_SECONDS": 60.0,
        "WEBHOOK_TIMEOUT_SECONDS": 2.0}
ALL_STAFF = ["ruling_recorded", "ruling_undone", "torpor", "final_death", "game_session"]


class Clock:
    """The worker's clock: the real one, moved ahead by the test (never behind the real one, which
    stamps the events: on a busy machine making the rulings may take seconds)."""

    def __init__(self):
        self.ahead = timedelta(0)

    def __call__(self):
        return utcnow() + self.ahead

    def move(self, seconds: float) -> None:
        self.ahead += timedelta(seconds=seconds)


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


@pytest.fixture
def app(tmp_path):
    app = make_test_app(tmp_path, **FAST)
    yield app
    if not db.is_closed():
        db.close()


@pytest.fixture
def organiser(client):
    AuthActions(client).login("org", "organiser")
    return client


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def worker(app, clock):
    return DeliveryWorker(app.config, now=clock)


def chronicle():
    from larp.models import Chronicle

    return Chronicle.get()


def hook(receiver, path="/hook", events=ALL_STAFF, privacy="staff", fmt="json", name=None):
    """A webhook of the demo chronicle posting to ``receiver``'s ``path`` (local network allowed)."""
    made, secret = create_webhook(chronicle(), None, {"name": name or path, "url": receiver.url(path), "events": events,
                                                      "privacy": privacy, "format": fmt, "local_network": True},
                                  site_url="http://larp.test")
    return made


def character(name: str) -> Character:
    return Character.get(Character.name == name)


def damage(client, name: str, levels: int = 1, kind: str = "bashing") -> dict:
    """A ruling through the API (as a narrator's tap would): damage to the character ``name``."""
    with db.connection_context():
        cid = character(name).id
    reply = client.post(f"/api/v1/characters/{cid}/damage", json={"damage_type": kind, "levels": levels})
    assert reply.status_code == 201, reply.json
    return reply.json


def drain(worker, clock, rounds: int = 40, step: float = 5.0) -> None:
    """Run the worker until nothing is left to send, moving the clock ``step`` seconds a round."""
    with db.connection_context():
        for _ in range(rounds):
            worker.run_once()
            if not WebhookDelivery.select().where(WebhookDelivery.state == "pending").exists():
                return
            clock.move(step)


# --- Written with what caused them -----------------------------------------------------------------

def test_no_webhook_no_event(dbconn):
    """A chronicle without a webhook writes nothing (one read per ruling, no row)."""
    record_ruling(chronicle(), None, "damage", "x", [], [])
    assert WebhookEvent.select().count() == 0 and WebhookDelivery.select().count() == 0


def test_an_event_is_rolled_back_with_what_caused_it(dbconn, receiver):
    """The outbox row is in the use case's transaction: a ruling rolled back leaves no event, one
    committed leaves one delivery per webhook that wants it."""
    hook(receiver, "/a")
    hook(receiver, "/b", events=["final_death"])

    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        with db.atomic():
            record_ruling(chronicle(), None, "damage", "rolled back", [], [])
            assert WebhookDelivery.select().count() == 1  # written inside the transaction
            raise Boom
    assert WebhookEvent.select().count() == 0 and WebhookDelivery.select().count() == 0
    with db.atomic():
        record_ruling(chronicle(), None, "challenge", "kept", [], [])
    assert [d.webhook.name for d in WebhookDelivery.select()] == ["/a"]  # /b asked only for Final Death
    record_ruling(chronicle(), None, "sheet", "a sheet edit is no ruling of the night", [], [])
    assert WebhookEvent.select().count() == 1


def test_each_event_comes_from_its_use_case(organiser, receiver, worker, clock):
    """A damage ruling, its undo, a vampire's torpor, a Final Death and a new game session each send
    their event, with the documented fields (staff level)."""
    with db.connection_context():
        hook(receiver, "/all")
    first = damage(organiser, "Teodor Brandt")
    assert organiser.post(f"/api/v1/rulings/{first['ruling_id']}/undo", json={}).status_code in (200, 201)
    damage(organiser, "Teodor Brandt", levels=10, kind="lethal")  # past Incapacitated: torpor
    damage(organiser, "Lys Moreau", levels=20, kind="aggravated")  # Final Death
    reply = organiser.post("/api/v1/game-sessions", json={"date": utcnow().date().isoformat(), "closing": 1})
    assert reply.status_code == 201, reply.json
    drain(worker, clock)
    got = [r.json for r in receiver.on("/all")]
    kinds = [g["event"] for g in got]
    assert kinds == ["ruling_recorded", "ruling_undone", "ruling_recorded", "torpor", "ruling_recorded",
                     "final_death", "game_session"]
    recorded, undone, _, torpor, _, death, session = got
    assert recorded["ruling"]["id"] == first["ruling_id"] and recorded["ruling"]["kind"] == "damage"
    assert recorded["ruling"]["url"] == f"http://larp.test/chronicles/1/rulings/{first['ruling_id']}"
    assert recorded["ruling"]["steps"] and recorded["ruling"]["characters"][0]["name"] == "Teodor Brandt"
    assert undone["undone_ruling"]["id"] == first["ruling_id"] and undone["ruling"]["kind"] == "undo"
    assert torpor["character"]["name"] == "Teodor Brandt" and torpor["cause"] == "wounds" and torpor["length"]
    assert death["character"]["name"] == "Lys Moreau" and death["condition"] == "final_death"
    assert session["closed"]["number"] == 1 and session["opened"]["number"] == 2 and session["ruling"]["url"]
    assert all(g["chronicle"]["name"] == "Nights of Ashford (demo)" and g["test"] is False for g in got)
    assert len({g["event_id"] for g in got}) == len(got)


def test_a_ruling_completed_later_in_its_transaction_is_sent_whole(organiser, receiver, worker, clock):
    """A recorded torpor gets its steps after record_ruling wrote the event: the event is sent with
    the ruling as it was committed (taken again at the first delivery)."""
    with db.connection_context():
        hook(receiver, "/torpor", events=["ruling_recorded"])
        cid = character("Aldous Whitmore").id
    reply = organiser.post(f"/api/v1/characters/{cid}/torpor", json={"cause": "voluntary"})
    assert reply.status_code == 201, reply.json
    drain(worker, clock)
    (sent,) = [r.json for r in receiver.on("/torpor")]
    assert sent["ruling"]["kind"] == "torpor" and sent["ruling"]["steps"] == reply.json["steps"] != []


# --- Delivered: in order, retried, rate-limited, given up, stopped ------------------------------------

def test_failures_and_a_429_are_retried_and_every_event_arrives_in_order(organiser, receiver, worker, clock):
    """The local receiver fails, answers 429 with retry_after, then succeeds: every event arrives, in
    the order of the rulings; the 429 is waited out and is not counted as a failure."""
    with db.connection_context():
        hook(receiver, "/order", events=["ruling_recorded"])
    receiver.script("/order", Reply(500), Reply(503), Reply(429, {"retry_after": 30, "global": False}))
    ids = [damage(organiser, "Konrad Vale")["ruling_id"] for _ in range(4)]
    with db.connection_context():
        worker.run_once()  # 500: the next try in 5 s
        worker.run_once()  # not yet: waiting for the back-off
        assert len(receiver.on("/order")) == 1
        clock.move(5)
        worker.run_once()  # 503: the next try in 10 s
        clock.move(10)
        worker.run_once()  # 429: wait 30 s
        delivery = WebhookDelivery.select().order_by(WebhookDelivery.id).first()
        assert delivery.attempts == 2 and delivery.state == "pending"  # the 429 is no failure
        clock.move(20)
        assert worker.run_once() == 0  # 10 s of retry_after still to wait
    drain(worker, clock, step=5)
    got = receiver.on("/order")
    assert [r.json["ruling"]["id"] for r in got] == [ids[0]] * 4 + ids[1:]
    assert receiver.overlap == 1
    with db.connection_context():
        assert {d.state for d in WebhookDelivery.select()} == {"delivered"}


def test_a_failing_webhook_delays_only_itself(organiser, receiver, worker, clock):
    with db.connection_context():
        hook(receiver, "/down", events=["ruling_recorded"])
        hook(receiver, "/up", events=["ruling_recorded"])
    receiver.script("/down", *[Reply(500)] * 50)
    ids = [damage(organiser, "Konrad Vale")["ruling_id"] for _ in range(3)]
    with db.connection_context():
        for _ in range(3):
            worker.run_once()
    assert [r.json["ruling"]["id"] for r in receiver.on("/up")] == ids
    assert {r.json["ruling"]["id"] for r in receiver.on("/down")} == {ids[0]}  # its head, retried


def test_a_delivery_failing_for_a_day_is_given_up_and_the_later_events_go_on(organiser, receiver, worker, clock):
    """Back-off for a day, then failed with its last error on the settings page; the next event is sent."""
    with db.connection_context():
        hook(receiver, "/day", events=["ruling_recorded"])
    receiver.script("/day", *[Reply(502, b"bad gateway")] * 200)
    first = damage(organiser, "Konrad Vale")["ruling_id"]
    with db.connection_context():
        worker.run_once()
        clock.move(86400)
        worker.run_once()
        failed = WebhookDelivery.select().where(WebhookDelivery.state == "failed").get()
        assert failed.attempts == 2 and "502" in failed.last_error
    receiver.script("/day")  # nothing more scripted after the failures left: but clear them
    receiver._scripts["/day"].clear()
    second = damage(organiser, "Konrad Vale")["ruling_id"]
    drain(worker, clock)
    assert receiver.on("/day")[-1].json["ruling"]["id"] == second != first
    page = organiser.get("/settings").get_data(as_text=True)
    assert "1 event not delivered" in page and "502 Bad Gateway" in page


def test_a_404_stops_the_webhook_until_it_is_resumed(organiser, receiver, worker, clock):
    """A deleted Discord webhook answers 404: it stops (no retry, nothing more queued), the settings
    page says so; resumed with its address, the events it still had go out."""
    with db.connection_context():
        made = hook(receiver, "/gone", events=["ruling_recorded"])
    receiver.script("/gone", Reply(404, {"message": "Unknown Webhook", "code": 10015}))
    damage(organiser, "Konrad Vale")
    damage(organiser, "Konrad Vale")
    with db.connection_context():
        worker.run_once()
        clock.move(60)
        assert worker.run_once() == 0
        stopped = Webhook.get_by_id(made.id)
        assert not stopped.enabled and "404" in stopped.stopped_reason
    damage(organiser, "Konrad Vale")  # not queued while stopped
    page = organiser.get("/settings").get_data(as_text=True)
    assert "Stopped:" in page and "Unknown Webhook" in page
    with db.connection_context():
        assert WebhookDelivery.select().count() == 2
        update_webhook(chronicle(), None, made.id, {"enabled": True})
    drain(worker, clock)
    assert len(receiver.on("/gone")) == 2  # the 404'd one failed for good; the second went


def test_a_webhook_made_public_never_gets_the_staff_events_it_had_waiting(organiser, receiver, worker, clock):
    with db.connection_context():
        made = hook(receiver, "/pub", events=["ruling_recorded", "final_death"])
    damage(organiser, "Konrad Vale")
    with db.connection_context():
        update_webhook(chronicle(), None, made.id, {"privacy": "public", "events": ["final_death"]})
    drain(worker, clock)
    assert receiver.on("/pub") == []
    with db.connection_context():
        assert WebhookDelivery.get().state == "dropped"


def test_public_and_staff_webhooks_get_their_own_level(organiser, receiver, worker, clock):
    """One Final Death, two webhooks: the staff one gets the ruling behind it, the public one only the name."""
    with db.connection_context():
        hook(receiver, "/staff", events=["final_death"])
        hook(receiver, "/public", events=["final_death"], privacy="public")
    damage(organiser, "Lys Moreau", levels=20, kind="aggravated")
    drain(worker, clock)
    staff, public = receiver.on("/staff")[0].json, receiver.on("/public")[0].json
    assert staff["event_id"] == public["event_id"]
    assert staff["ruling"]["summary"] and staff["character"]["id"]
    assert public == {"event_id": staff["event_id"], "event": "final_death", "occurred_at": staff["occurred_at"],
                      "chronicle": staff["chronicle"], "privacy": "public", "test": False,
                      "character": {"name": "Lys Moreau"}, "condition": "final_death", "game_session": 1}


def test_one_worker_claims_a_delivery_and_another_takes_it_over_after_its_lease(organiser, receiver, app, clock):
    """Two workers on one database: the head is claimed by one; the other gets nothing of that webhook
    (not even the next event: the order holds) until the first's lease runs out (its process died);
    then it takes it over, and the first's late answer is ignored."""
    with db.connection_context():
        hook(receiver, "/lease", events=["ruling_recorded"])
    damage(organiser, "Konrad Vale")
    damage(organiser, "Konrad Vale")
    one, two = DeliveryWorker(app.config, now=clock), DeliveryWorker(app.config, now=clock)
    with db.connection_context():
        (job,) = claim_jobs(one.name, clock(), one.policy)
        assert claim_jobs(two.name, clock(), two.policy) == []
        head = WebhookDelivery.get_by_id(job.delivery_id)
        assert not claim(head, two.name, clock(), two.policy)  # the UPDATE itself refuses a live claim
        second = WebhookDelivery.select().where(WebhookDelivery.id != head.id).get()
        assert [d.id for d in heads(clock())] == [] and second.state == "pending"  # not a head while the first waits
        clock.move(one.policy.lease + 1)
        (taken,) = claim_jobs(two.name, clock(), two.policy)
        assert taken.delivery_id == job.delivery_id
        assert one.record(job, one.send(job)) == "pending"  # too late: not its claim any more
        assert two.record(taken, two.send(taken)) == "delivered"
    drain(two, clock)
    assert [r.event_id for r in receiver.on("/lease")][0] == job.event_id
    assert len(first_arrivals(receiver.on("/lease"))) == 2


def test_the_worker_logs_never_hold_the_url(organiser, receiver, worker, clock, caplog):
    with db.connection_context():
        hook(receiver, "/api/webhooks/1/SECRETTOKEN", events=["ruling_recorded"], name="Staff")
    receiver.script("/api/webhooks/1/SECRETTOKEN", Reply(500))
    damage(organiser, "Konrad Vale")
    with caplog.at_level(logging.WARNING, logger="larp.webhooks"), db.connection_context():
        worker.run_once()
    assert "500" in caplog.text and "SECRETTOKEN" not in caplog.text


# --- The settings page ------------------------------------------------------------------------------

def test_the_settings_page_makes_a_webhook_and_shows_its_secret_once(organiser, receiver):
    url = "https://discord.com/api/webhooks/112233445566/TopSecretDiscordToken_abc"
    reply = organiser.post("/settings/webhooks", data={
        "name": "Staff channel", "url": url, "events": ["ruling_recorded", "final_death"], "privacy": "staff",
        "format": "auto", "local_network": "off", "request_token": "tok-1"})
    page = reply.get_data(as_text=True)
    assert reply.status_code == 200 and "Webhook “Staff channel” added." in page
    secret = re.search(r'<code class="link-text">([A-Za-z0-9_-]{40,})</code>', page).group(1)
    with db.connection_context():
        made = Webhook.get()
        assert made.secret == secret and made.url == url and made.site_url == "http://localhost"
        record = Ruling.get(Ruling.kind == "webhook_made")
        assert "TopSecret" not in json.dumps([record.summary, record.inputs, record.outcome, record.steps])
    for path in ("/settings", f"/settings/webhooks/{made.id}", "/rulings", "/api/v1/webhooks"):
        shown = organiser.get(path).get_data(as_text=True)
        assert "TopSecretDiscordToken" not in shown and secret not in shown, path
    assert "https://discord.com/…/••••_abc" in organiser.get("/settings").get_data(as_text=True)
    again = organiser.post("/settings/webhooks", data={"name": "Staff channel", "url": url, "events": ["final_death"],
                                                       "request_token": "tok-1"})
    assert again.status_code == 409 and "already made" in again.get_data(as_text=True)
    assert secret not in again.get_data(as_text=True)


@pytest.mark.parametrize("form, field, words", [
    ({"name": "", "url": "https://example.org/h", "events": ["final_death"]}, "name", "name of 1 to 60"),
    ({"name": "x", "url": "ftp://example.org/h", "events": ["final_death"]}, "url", "Only http"),
    ({"name": "x", "url": "http://192.168.1.9/h", "events": ["final_death"], "local_network": "off"}, "url",
     "private address"),
    ({"name": "x", "url": "https://example.org/h", "events": []}, "events", "at least one"),
    ({"name": "x", "url": "https://example.org/h", "events": ["ruling_recorded"], "privacy": "public"}, "events",
     "A public webhook"),
    ({"name": "x", "url": "https://example.org/h", "events": ["final_death"], "privacy": "secret"}, "privacy",
     "privacy level"),
])
def test_a_refused_webhook_says_why_and_makes_nothing(organiser, form, field, words):
    reply = organiser.post("/settings/webhooks", data=form)
    assert reply.status_code == 422 and words in reply.get_data(as_text=True)
    with db.connection_context():
        assert Webhook.select().count() == 0


def test_change_test_new_secret_and_delete_from_the_page(organiser, receiver):
    with db.connection_context():
        made = hook(receiver, "/page", events=["final_death"], fmt="auto")
    page = organiser.get(f"/settings/webhooks/{made.id}").get_data(as_text=True)
    assert "Webhook “/page”" in page and receiver.url("/page") not in page
    saved = organiser.post(f"/settings/webhooks/{made.id}", data={
        "name": "Players", "url": "", "events": ["final_death", "game_session"], "privacy": "public",
        "format": "json", "local_network": "on", "enabled": "on"})
    assert saved.status_code == 303
    with db.connection_context():
        changed = Webhook.get_by_id(made.id)
        assert (changed.name, changed.privacy, changed.events, changed.url) == (
            "Players", "public", ["final_death", "game_session"], receiver.url("/page"))
    tested = organiser.post(f"/settings/webhooks/{made.id}/test").get_data(as_text=True)
    assert "answered <strong>204" in tested and "it works" in tested
    sample = receiver.on("/page")[-1].json
    assert sample["test"] is True and sample["event"] == "final_death" and sample["privacy"] == "public"
    fresh = organiser.post(f"/settings/webhooks/{made.id}/secret").get_data(as_text=True)
    assert "new signing secret" in fresh
    with db.connection_context():
        assert Webhook.get_by_id(made.id).secret in fresh
    gone = organiser.post(f"/settings/webhooks/{made.id}/delete")
    assert gone.status_code == 303
    with db.connection_context():
        assert Webhook.select().count() == 0 and Ruling.get(Ruling.kind == "webhook_deleted")


def test_the_test_button_shows_a_refusal(organiser, receiver):
    with db.connection_context():
        made = hook(receiver, "/refused", events=["final_death"])
        Webhook.update(local_network=False).where(Webhook.id == made.id).execute()
    page = organiser.post(f"/settings/webhooks/{made.id}/test").get_data(as_text=True)
    assert "loopback" in page and receiver.on("/refused") == []


def test_webhooks_are_the_organisers_and_their_chronicles(client, auth, receiver):
    with db.connection_context():
        made = hook(receiver, "/mine", events=["final_death"])
    auth.login("narrator1", "narrator")
    for method, path in (("get", "/settings"), ("post", "/settings/webhooks"), ("get", f"/settings/webhooks/{made.id}"),
                         ("post", f"/settings/webhooks/{made.id}/test"), ("post", f"/settings/webhooks/{made.id}/delete")):
        assert getattr(client, method)(path).status_code == 403, path
    assert client.get("/api/v1/webhooks").status_code == 403
    auth.logout()
    auth.login("org", "organiser")
    assert client.get("/settings/webhooks/99999").status_code == 404


# --- The API ------------------------------------------------------------------------------------

def test_the_api_keeps_webhooks_with_one_time_keys(organiser, receiver):
    body = {"name": "Bot", "url": receiver.url("/api"), "events": ["ruling_recorded", "torpor"], "format": "json",
            "local_network": True}
    made = organiser.post("/api/v1/webhooks", json=body, headers={"Idempotency-Key": "k1"})
    assert made.status_code == 201, made.json
    webhook, secret = made.json["webhook"], made.json["secret"]
    assert webhook["url"] == f"http://127.0.0.1:{receiver.port}/…/••••" and webhook["status"] == "ok"
    repeat = organiser.post("/api/v1/webhooks", json=body, headers={"Idempotency-Key": "k1"})
    assert repeat.status_code == 409 and repeat.json["ruling_id"] == made.json["ruling_id"]
    assert "secret" not in repeat.json
    listed = organiser.get("/api/v1/webhooks").json["webhooks"]
    assert [w["name"] for w in listed] == ["Bot"] and secret not in json.dumps(listed)
    changed = organiser.patch(f"/api/v1/webhooks/{webhook['id']}", json={"enabled": False, "name": "Bot 2"})
    assert changed.status_code == 200 and changed.json["webhook"]["status"] == "paused"
    assert organiser.patch(f"/api/v1/webhooks/{webhook['id']}", json={"privacy": "public"}).status_code == 422
    tested = organiser.post(f"/api/v1/webhooks/{webhook['id']}/test", json={})
    assert tested.status_code == 200 and tested.json["ok"] and tested.json["status"] == 204
    signature = receiver.on("/api")[-1].headers["X-Larp-Signature-256"]
    import hashlib
    import hmac

    assert signature == "sha256=" + hmac.new(secret.encode(), receiver.on("/api")[-1].body, hashlib.sha256).hexdigest()
    rotated = organiser.post(f"/api/v1/webhooks/{webhook['id']}/secret", json={})
    assert rotated.status_code == 200 and rotated.json["secret"] != secret
    deleted = organiser.delete(f"/api/v1/webhooks/{webhook['id']}", headers={"Content-Type": "application/json"})
    assert deleted.status_code == 200 and deleted.json["deleted"] == webhook["id"]
    assert organiser.get(f"/api/v1/webhooks/{webhook['id']}").status_code == 404


def test_the_chronicle_export_carries_no_webhook(organiser, receiver):
    """A webhook's URL and secret are secrets: `larp export` (and the board's download) leaves webhooks out."""
    with db.connection_context():
        made = hook(receiver, "/export/SECRETPATH", events=["ruling_recorded"], name="Staff")
    damage(organiser, "Konrad Vale")
    exported = organiser.get("/board/export").get_data(as_text=True)
    assert "SECRETPATH" not in exported and made.secret not in exported and "webhook\"" not in exported


def test_emit_refuses_an_unknown_event(dbconn):
    with pytest.raises(ValueError):
        emit(chronicle().id, "coffee_break", {})


def test_the_readme_lists_every_events_fields_at_each_level():
    """The README's table is the code's (larp.webhooks.kinds.field_table)."""
    from pathlib import Path

    from larp.webhooks.kinds import field_table

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for key, label, staff, public in field_table():
        assert f"| {label} (`{key}`) | {staff} | {public} |" in readme, key


def test_hostile_values_in_the_webhook_forms_never_make_a_server_error_nor_a_half_change(organiser, receiver):
    """Issue 19's form fuzz reaches the new-webhook form from the settings page; a webhook's own page
    exists only once one is made, so its forms are fuzzed here: every field hostile in turn (the
    fuzz's own values), as a browser sends them; no 5xx, and a refusal changes nothing."""
    from urllib.parse import quote_from_bytes

    from tests.web.test_form_fuzz import HOSTILE

    with db.connection_context():
        made = hook(receiver, "/fuzz", events=["final_death"])
    good = {b"name": b"Fuzzed", b"url": b"", b"events": b"final_death", b"privacy": b"staff", b"format": b"json",
            b"local_network": b"on", b"enabled": b"on"}

    def stored():
        with db.connection_context():
            return dict(Webhook.get_by_id(made.id).__data__)

    for field in good:
        for value in HOSTILE:
            before = stored()
            body = "&".join(f"{quote_from_bytes(k)}={quote_from_bytes(value if k == field else v)}"
                            for k, v in good.items())
            reply = organiser.post(f"/settings/webhooks/{made.id}", data=body.encode(),
                                   content_type="application/x-www-form-urlencoded")
            assert reply.status_code < 500, (field, value[:40])
            if reply.status_code >= 400:
                assert stored() == before, (field, value[:40])
    for action in ("test", "secret"):
        assert organiser.post(f"/settings/webhooks/{made.id}/{action}", data={"request_token": "\x00"}).status_code < 500


def test_check_in_and_approved_experience_have_their_event_ready(dbconn, receiver):
    """Issues 32 and 33 only call announce_check_in / announce_experience_approved in their
    transactions: the events, their fields at each level, already exist."""
    from larp.models import GameSession, User
    from larp.services.accounts import create_user
    from larp.webhooks.kinds import PUBLIC, STAFF, shaped
    from larp.webhooks.outbox import announce_check_in, announce_experience_approved

    hook(receiver, "/door", events=["check_in", "experience_approved"])
    organiser = create_user("door", "Door Keeper", "organiser", "correct horse")
    session = GameSession.get()
    selene = character("Vivienne Ashcombe")
    with db.atomic():
        door = announce_check_in(selene, session, organiser)
        spent = announce_experience_approved(selene, "2.5", "Dominate 2", session, User.get_by_id(organiser.id))
    assert door.payload["character"] == {"id": selene.id, "name": "Vivienne Ashcombe"}
    assert door.payload["player_name"] == "Dana Whitlock" and door.payload["checked_in_by"] == "Door Keeper"
    assert shaped(door.payload, PUBLIC)["character"] == {"name": "Vivienne Ashcombe"}
    assert "player_name" not in shaped(door.payload, PUBLIC)
    assert shaped(spent.payload, STAFF)["amount"] == "2.5" and shaped(spent.payload, PUBLIC) is None
    assert WebhookDelivery.select().count() == 2


def test_deleting_a_chronicle_takes_its_webhooks_and_events(dbconn, receiver):
    hook(receiver, "/gone-with-it", events=["ruling_recorded"])
    with db.atomic():
        record_ruling(chronicle(), None, "damage", "x", [], [])
    chronicle().delete_instance(recursive=True)
    assert (Webhook.select().count(), WebhookEvent.select().count(), WebhookDelivery.select().count()) == (0, 0, 0)


def test_an_event_that_cannot_be_made_into_a_message_fails_alone(organiser, receiver, worker, clock, monkeypatch):
    """A bug in making one event's message fails that event (its error on the settings page); the
    webhook's later events go on."""
    import larp.webhooks.outbox as outbox

    with db.connection_context():
        hook(receiver, "/bug", events=["ruling_recorded"])
    damage(organiser, "Konrad Vale")
    real = outbox.message_for
    monkeypatch.setattr(outbox, "message_for", lambda *a: 1 / 0)
    with db.connection_context():
        assert worker.run_once() == 0
    monkeypatch.setattr(outbox, "message_for", real)
    second = damage(organiser, "Konrad Vale")["ruling_id"]
    drain(worker, clock)
    assert [r.json["ruling"]["id"] for r in receiver.on("/bug")] == [second]
    assert "could not be made into a message (ZeroDivisionError)" in organiser.get("/settings").get_data(as_text=True)


def test_larp_serve_runs_its_worker_while_it_serves_and_stops_it_after(tmp_path, monkeypatch):
    """The worker lives as long as waitress serves (here a stand-in that looks for it, then returns):
    a `larp serve` run in-process (as some tests do) leaves no worker behind to take other tests' events."""
    import threading

    from click.testing import CliRunner

    from larp import serving
    from larp.cli import main
    from tests.support import fresh_database_url

    monkeypatch.setenv("LARP_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("LARP_DATABASE_URL", fresh_database_url(tmp_path))
    seen = []
    monkeypatch.setattr(serving, "serve", lambda app, **options: seen.append(
        [t.name for t in threading.enumerate() if t.name == "larp-webhooks" and t.is_alive()]))
    assert CliRunner().invoke(main, ["serve", "--port", "1"]).exit_code == 0
    assert seen == [["larp-webhooks"]]
    assert not [t for t in threading.enumerate() if t.name == "larp-webhooks" and t.is_alive()]
