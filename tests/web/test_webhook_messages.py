"""What a webhook is sent, and how (issue 35), without a database: Discord's format within its
documented limits, the signature, the privacy levels, the answers' meaning, and the address
checks made at every delivery (against a local receiver, with a stand-in resolver)."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import time

import pytest

from larp.webhooks.discord import LIMITS, discord_message, embed_length, escape, is_discord_url, length, limit_problems
from larp.webhooks.kinds import ENVELOPE, EVENTS, NEVER_SENT, PUBLIC, STAFF, shaped
from larp.webhooks.messages import (DELIVERED, FAILED, RATE_LIMITED, RETRY, SIGNATURE_HEADER, STOPPED, _SAMPLES,
                                    build_request, classify, json_body, mask_url, sends_as, sign)
from larp.webhooks.sending import Answer, AddressRefused, address_refusal, parse_target, post, resolve
from tests.servers import free_port
from tests.web.webhook_receiver import Receiver, Reply


def event(kind: str, **fields) -> dict:
    """A staff-level event of ``kind`` as the outbox writes it (envelope and the sample's fields)."""
    return {"event_id": "6f1c2c1e-0000-4000-8000-000000000001", "event": kind, "occurred_at": "2026-12-05T21:14:03Z",
            "chronicle": {"id": 1, "name": "Nights of Ashford"}, "privacy": "staff", "test": False,
            **_SAMPLES[kind], **fields}


def huge_ruling(steps: int = 300, text: str = "A step that says a great deal *in markdown* [x](y) ") -> dict:
    names = ["Konrad " + "Vale" * 60, "@everyone", "[Click](http://evil.example)", "Teodor 🧛" * 20]
    return {"id": 12, "kind": "mass_combat", "summary": "**Outcome** " + "the long outcome line " * 300,
            "created_at": "2026-12-05T21:14:03Z", "narrator": "N" * 200, "game_session": 3, "undone_at": None,
            "characters": [{"id": i, "name": n, "role": "attacker"} for i, n in enumerate(names)],
            "url": "http://larp.example/chronicles/1/rulings/12", "inputs": {"many": "x" * 5000},
            "outcome": {"more": "y" * 5000},
            "steps": [{"text": f"{i}: " + text * 40, "rule": "002 \"Mass Combat\" " * 20} for i in range(steps)]}


# --- Discord ------------------------------------------------------------------------------------

def test_a_huge_ruling_fits_every_discord_limit():
    """stack-notes 8.2: title 256, description 4,096, footer 2,048, all embeds 6,000 (counted as
    Discord may count them: an emoji is two); steps cut whole, then how many more the record holds."""
    message = discord_message(event("ruling_recorded", ruling=huge_ruling()), "C" * 120)
    assert limit_problems(message) == []
    embed = message["embeds"][0]
    assert length(embed["title"]) <= LIMITS["title"] and length(embed["description"]) <= LIMITS["description"]
    assert embed_length(embed) <= LIMITS["total"]
    shown = [line for line in embed["description"].split("\n") if line.startswith("• ")]
    more = embed["description"].rsplit("\n", 1)[-1]
    assert more.startswith("… ") and more.endswith(" more steps in the record.")
    assert len(shown) + int(more.split()[1]) == 300  # every step is shown or counted
    assert embed["url"] == "http://larp.example/chronicles/1/rulings/12"
    assert message["allowed_mentions"] == {"parse": []}  # "@everyone" in a name pings nobody


def test_the_limit_check_itself_finds_each_excess():
    """The check above is not vacuous: each documented limit, broken by one, is reported."""
    ok = {"embeds": [{"title": "t", "description": "d", "footer": {"text": "f"}}]}
    assert limit_problems(ok) == []
    assert limit_problems({"content": "x" * 2001})
    assert limit_problems({"embeds": [{"title": "x" * 257}]})
    assert limit_problems({"embeds": [{"description": "x" * 4097}]})
    assert limit_problems({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    assert limit_problems({"embeds": [{"footer": {"text": "x" * 2049}}]})
    assert limit_problems({"embeds": [{"title": "x" * 200, "description": "x" * 4000}, {"description": "x" * 1801}]})
    assert limit_problems({"embeds": [{"title": "🧛" * 129}]})  # 258 in UTF-16


@pytest.mark.parametrize("kind", list(EVENTS))
@pytest.mark.parametrize("level", [STAFF, PUBLIC])
def test_every_event_at_every_level_makes_a_discord_message_within_limits(kind, level):
    """Each kind of event, at each level it is sent at, with names far past any limit: one embed,
    a title, within every limit."""
    body = shaped(event(kind), level)
    if body is None:
        assert EVENTS[kind].public is None and level == PUBLIC
        return
    body = json.loads(json.dumps(body).replace("Konrad Vale", "Konrad " + "Vale" * 300))
    message = discord_message(body, "Nights of Ashford")
    assert limit_problems(message) == []
    assert message["embeds"][0]["title"]


def test_names_cannot_make_links_or_headings_in_discord():
    """A name typed as markdown shows as typed: its brackets, stars and hashes are escaped."""
    ruling = dict(huge_ruling(steps=1), summary="[Click](http://evil.example) # Heading *bold*")
    description = discord_message(event("ruling_recorded", ruling=ruling), "C")["embeds"][0]["description"]
    assert "\\[Click\\]\\(http\\://evil.example\\)" in description and "\\# Heading \\*bold\\*" in description
    assert escape("a_b") == "a\\_b"


def test_a_discord_url_gets_discords_format_and_another_the_signed_json():
    """"auto": Discord's format for https://discord.com/api/webhooks/<id>/<token> (and its other hosts)."""
    assert sends_as("auto", "https://discord.com/api/webhooks/123456/abc-DEF_ghi") == "discord"
    assert sends_as("auto", "https://canary.discordapp.com/api/v10/webhooks/1/x") == "discord"
    assert sends_as("auto", "https://discord.com.evil.example/api/webhooks/1/x") == "json"
    assert sends_as("auto", "https://bot.example/hook") == "json"
    assert sends_as("discord", "http://192.168.1.20:5000/hook") == "discord"
    assert is_discord_url("DISCORD.COM", "/api/webhooks/1/t") and not is_discord_url("discord.com", "/api/users/1")


# --- Signed JSON ----------------------------------------------------------------------------------

def test_the_signature_is_the_hmac_of_the_exact_body():
    """A receiver that computes HMAC-SHA256 over the bytes it got with the secret shown once finds the
    header's value; another secret or one changed byte does not."""
    body, headers = build_request(event("ruling_recorded"), format_="json", secret="s3cret", chronicle_name="C")
    assert headers[SIGNATURE_HEADER] == "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
    assert headers["X-Larp-Event-Id"] == json.loads(body)["event_id"]
    assert not hmac.compare_digest(headers[SIGNATURE_HEADER], sign("other", body))
    assert not hmac.compare_digest(headers[SIGNATURE_HEADER], sign("s3cret", body.replace(b"Konrad", b"Konrae")))
    discord_body, discord_headers = build_request(event("ruling_recorded"), format_="discord", secret="s", chronicle_name="C")
    assert SIGNATURE_HEADER not in discord_headers and "embeds" in json.loads(discord_body)


def test_a_body_too_big_is_sent_without_the_rulings_details():
    """The body is bounded: a ruling too big loses inputs, outcome and steps, says so, keeps its address."""
    big = event("ruling_recorded", ruling=huge_ruling(steps=2000))
    body = json_body(big, max_bytes=64 * 1024)
    data = json.loads(body)
    assert len(body) <= 64 * 1024 and data["truncated"] is True
    assert data["ruling"]["url"] and "steps" not in data["ruling"] and "outcome" not in data["ruling"]
    assert "truncated" not in json.loads(json_body(event("ruling_recorded")))


# --- Privacy levels ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", list(EVENTS))
def test_each_level_carries_exactly_the_documented_fields(kind):
    """The documentation (kinds.EVENTS, the README's table) is what is sent: the envelope and the
    kind's fields at that level, no more; a public webhook gets nothing of a staff-only event."""
    payload = event(kind)
    staff = shaped(payload, STAFF)
    assert set(staff) == set(ENVELOPE) | set(EVENTS[kind].staff)
    public = shaped(payload, PUBLIC)
    if EVENTS[kind].public is None:
        assert public is None
        return
    assert set(public) == set(ENVELOPE) | set(EVENTS[kind].public) and public["privacy"] == "public"
    text = json.dumps(public)
    for private in ("summary", "player_name", "steps", "checked_in_by", "\"id\": 0"):
        assert private not in text


def test_narrator_notes_and_contact_details_are_never_sent():
    """Staff: everything but narrator notes and players' contact details, wherever they hide."""
    ruling = dict(huge_ruling(steps=1), inputs={"sheet": {"narrator_notes": "secret plot", "player_contact": "555-0199",
                                                          "nested": [{"contact": "mail@example.org", "ok": 1}]}})
    text = json.dumps(shaped(event("ruling_recorded", ruling=ruling), STAFF))
    assert "secret plot" not in text and "555-0199" not in text and "mail@example.org" not in text
    assert '"ok": 1' in text
    assert NEVER_SENT >= {"narrator_notes", "player_contact"}


# --- Answers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, state, wait", [
    (Answer(204, "No Content"), DELIVERED, 0),
    (Answer(200, "OK", body=b'{"id": "1"}'), DELIVERED, 0),
    (Answer(429, "Too Many Requests", body=b'{"retry_after": 1.5, "global": false}'), RATE_LIMITED, 1.5),
    (Answer(429, "Too Many Requests", headers={"retry-after": "7"}), RATE_LIMITED, 7),
    (Answer(404, "Not Found", body=b'{"message": "Unknown Webhook", "code": 10015}'), STOPPED, 0),
    (Answer(401, "Unauthorized"), STOPPED, 0),
    (Answer(301, "Moved Permanently", headers={"location": "http://elsewhere/"}), STOPPED, 0),
    (Answer(400, "Bad Request", body=b'{"embeds": ["0"]}'), FAILED, 0),
    (Answer(500, "Internal Server Error"), RETRY, 0),
    (Answer(503, "Service Unavailable"), RETRY, 0),
    (Answer(None, error="No answer within 5 s."), RETRY, 0),
])
def test_what_each_answer_means(answer, state, wait):
    """Discord's 429 with retry_after is a wait, not a failure; a 404 (deleted webhook) or a
    redirect stops it; a refused body fails that event only; anything else is tried again."""
    outcome = classify(answer)
    assert (outcome.state, outcome.wait) == (state, wait)
    assert (outcome.error == "") == (state == DELIVERED)


def test_a_masked_url_never_shows_the_discord_token():
    url = "https://discord.com/api/webhooks/112233445566/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    masked = mask_url(url)
    assert masked.startswith("https://discord.com/") and "112233445566" not in masked and "AbCdEf" not in masked


# --- Addresses ----------------------------------------------------------------------------------

@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.5", "169.254.10.1", "::1",
                                     "fe80::1", "fc00::5", "::ffff:127.0.0.1", "100.64.0.1"])
def test_addresses_that_are_not_public_need_the_local_network_ticked(address):
    """Loopback, private, link-local and shared addresses: refused unless "Local network" is ticked."""
    assert address_refusal(address, local_network=False) is not None
    assert address_refusal(address, local_network=True) is None


@pytest.mark.parametrize("address", ["169.254.169.254", "fd00:ec2::254", "100.100.100.200", "::ffff:169.254.169.254",
                                     "0.0.0.0", "224.0.0.1", "ff02::1"])
def test_metadata_multicast_and_unspecified_addresses_are_always_refused(address):
    assert address_refusal(address, local_network=True) is not None


def test_public_addresses_are_taken():
    assert address_refusal("8.8.8.8", False) is None and address_refusal("2001:4860:4860::8888", False) is None


@pytest.mark.parametrize("url", ["ftp://example.org/hook", "file:///etc/passwd", "javascript:alert(1)",
                                 "https://user:pw@example.org/hook", "https:///nohost", "example.org/hook",
                                 "https://exa mple.org/", "http://example.org:99999/"])
def test_only_whole_http_and_https_urls_are_taken(url):
    with pytest.raises(AddressRefused):
        parse_target(url)


def stub(*addresses: str):
    """A resolver that answers ``addresses`` (in turn, one list a call, the last one repeated)."""
    answers = [a if isinstance(a, list) else [a] for a in addresses]
    calls = []

    def resolver(host, port, type=0):
        calls.append(host)
        chosen = answers[min(len(calls) - 1, len(answers) - 1)]
        family = lambda a: socket.AF_INET6 if ":" in a else socket.AF_INET  # noqa: E731
        return [(family(a), socket.SOCK_STREAM, 6, "", (a, port)) for a in chosen]

    resolver.calls = calls
    return resolver


def test_a_name_is_checked_on_the_address_it_resolves_to():
    """A public-looking name that resolves to a private address is refused; with several addresses the
    first that may be posted to is the one used."""
    target = parse_target("https://hooks.example/x")
    with pytest.raises(AddressRefused, match="private address"):
        resolve(target, False, stub("10.0.0.7"))
    assert resolve(target, False, stub(["10.0.0.7", "93.184.216.34"])) == "93.184.216.34"


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


def test_the_connection_goes_to_the_address_that_was_checked(receiver):
    """DNS rebinding cannot redirect a delivery: the host is resolved once, the address checked, and
    the connection made to that address (the name still sent as Host). A name no real DNS knows
    reaches the local receiver because the checked address is used, not a second lookup."""
    resolver = stub("127.0.0.1")
    answer = post(f"http://hooks.invalid:{receiver.port}/rebind", b"{}", {"Content-Type": "application/json"},
                  local_network=True, resolver=resolver)
    assert answer.status == 204 and answer.address == "127.0.0.1"
    assert resolver.calls == ["hooks.invalid"]
    assert receiver.on("/rebind")[0].headers["Host"] == f"hooks.invalid:{receiver.port}"


def test_the_address_is_checked_again_at_every_delivery(receiver):
    """A name that resolved to an allowed address at one delivery and to loopback at the next is
    refused at the next, before any connection."""
    resolver = stub("127.0.0.1", "127.0.0.1")
    first = post(f"http://hooks.invalid:{receiver.port}/again", b"{}", {}, local_network=True, resolver=resolver)
    second = post(f"http://hooks.invalid:{receiver.port}/again", b"{}", {}, local_network=False, resolver=resolver)
    assert first.status == 204 and second.status is None and "loopback" in second.error
    assert len(receiver.on("/again")) == 1 and resolver.calls == ["hooks.invalid", "hooks.invalid"]


def test_loopback_is_refused_without_the_local_network_and_nothing_is_sent(receiver):
    answer = post(receiver.url("/nope"), b"{}", {}, local_network=False)
    assert answer.status is None and "loopback" in answer.error and "Local network" in answer.error
    assert receiver.on("/nope") == []


def test_a_redirect_is_not_followed(receiver):
    receiver.script("/moved", Reply(302, headers={"Location": receiver.url("/elsewhere")}))
    answer = post(receiver.url("/moved"), b"{}", {}, local_network=True)
    assert answer.status == 302 and classify(answer).state == STOPPED
    assert receiver.on("/elsewhere") == []


def test_a_slow_receiver_is_given_up_on_after_the_timeout(receiver):
    receiver.script("/slow", Reply(204, hang=3))
    start = time.monotonic()
    answer = post(receiver.url("/slow"), b"{}", {}, local_network=True, timeout=0.3)
    assert answer.status is None and "within 0.3 s" in answer.error
    assert time.monotonic() - start < 2


def test_the_answer_is_read_only_up_to_its_bound(receiver):
    receiver.script("/big", Reply(200, body=b"x" * 1_000_000))
    answer = post(receiver.url("/big"), b"{}", {}, local_network=True, max_answer=4096)
    assert answer.status == 200 and len(answer.body) == 4096


def test_an_error_message_never_holds_the_urls_secret_part(receiver):
    """A webhook URL's path is its secret: no refusal or network error names it."""
    secret_path = "/api/webhooks/1/TOPSECRETTOKEN"
    closed = free_port()  # nobody listens there: the connection is refused
    for answer in (post(f"http://127.0.0.1:{closed}{secret_path}", b"{}", {}, local_network=True, timeout=0.5),
                   post(f"http://127.0.0.1:{receiver.port}{secret_path}", b"{}", {}, local_network=False),
                   post(f"https://name.invalid{secret_path}", b"{}", {}, local_network=False, resolver=stub("10.0.0.1"))):
        assert answer.error and "TOPSECRETTOKEN" not in answer.error
