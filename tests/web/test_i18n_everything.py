"""Nothing left behind (issue 36 item 5): every page of the app, as each role sees it, the API's refusals
and the rulings a night records, rendered in the pseudo-locale ``en_XA``, leave no English word bare.

The pages are the app's own list (every GET address of its URL map, but static files, the API's JSON, the
downloads and the card's bare redirect), so a page added later is walked too: an address this test cannot
fill fails it (add its example to :data:`EXAMPLES`). The words a page may show untranslated are the
chronicle's and the users' own (names, Traits, notes, the sheet as the chronicle wrote it: issue 36 item 3),
the rule sources a ruling cites by the books' English titles, and each language's own name.

Each kind of ruling is also held to phrases when it is written: tests/web/conftest.py's
``every_ruling_in_phrases`` fails any web test whose ruling has an English-only summary or step.
"""

from __future__ import annotations

import re

import pytest
from babel import Locale

from larp.db import db
from larp.i18n import LANGUAGE_NAMES
from larp.models import (Ability, ApiToken, Background, BetweenGameAction, Character, Chronicle, Equipment,
                         ExperienceEntry, MeritFlaw, Power, Ruling, SpendRequest, StoredScene, Trait, User, Webhook)
from tests.i18n_support import PSEUDO_HEADERS, bare_english
from tests.support import AuthActions, make_player, make_test_app

#: What a page may show as written: the columns the chronicle's people fill in.
OWN_WORDS = {
    Character: ("name", "player_name", "clan", "sect", "title", "morality_name", "notes", "narrator_notes",
                "player_contact", "short_code", "card_token", "nature", "demeanor"),
    Trait: ("name",), Ability: ("name",), Power: ("discipline", "name"), Background: ("name",),
    MeritFlaw: ("name", "note"), Equipment: ("name", "note"), Chronicle: ("name",),
    User: ("username", "display_name"), ApiToken: ("name",), StoredScene: ("name",),
    SpendRequest: ("what", "note", "answer"), BetweenGameAction: ("text", "answer", "author_name"),
    Webhook: ("name", "url"), ExperienceEntry: ("what",),
}

#: Addresses not walked, and why.
NOT_PAGES = (
    "/static/",  # files
    "/api/",  # JSON: its refusals are checked below
    "/board/export", "/admin/chronicles/<int:chronicle_id>/export",  # downloads (JSON, Grapevine files)
    ".gex",
)


def own_words() -> list[str]:
    """Every word the chronicle's people wrote, and the sources rulings cite."""
    words = [str(value) for model, columns in OWN_WORDS.items()
             for row in model.select() for value in (getattr(row, c) for c in columns) if value]
    for ruling in Ruling.select():
        words += [step.get("rule") or "" for step in ruling.steps]
    # The app's own address, shown where the printed cards will lead (http://localhost in tests).
    return words + list(LANGUAGE_NAMES.values()) + ["larp", "http://localhost"] + CALENDAR


#: The calendar's names in English: Babel writes a date in the reader's locale (issue 36 item 4), and the
#: pseudo-locale has none of its own (tests/web/test_i18n.py checks the dates in Portuguese and Spanish).
CALENDAR = [name for width in ("abbreviated", "wide") for names in (Locale("en").months["format"][width],
            Locale("en").days["format"][width]) for name in names.values()]


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """The demo chronicle in the pseudo-locale after a few rulings, a player with a character, and the
    ids to fill every address with."""
    app = make_test_app(tmp_path_factory.mktemp("everything"), PSEUDO_LOCALE=True)
    with app.app_context(), db.connection_context():
        characters = list(Character.select().where(Character.card_token.is_null(False)).order_by(Character.id))
    mine = characters[0]
    make_player(app, mine, "pl", display_name="Pl")
    organiser = app.test_client()
    AuthActions(organiser).login("boss", "organiser")
    with app.test_request_context(), db.connection_context():  # experience to spend: two requests, one approved
        from larp.services.chronicles import get_chronicle
        from larp.services.experience import record_experience

        record_experience(get_chronicle(), None, mine.id, "earned", "30", "a night of intrigue")
    player = app.test_client()
    AuthActions(player).login("pl", "player")
    for wish in ({"kind": "willpower"}, {"kind": "morality"}):
        assert player.post(f"/my/characters/{mine.id}/spend", data=wish).status_code == 303
    with app.app_context(), db.connection_context():
        first = SpendRequest.select().order_by(SpendRequest.id).first().id
    assert organiser.post(f"/spends/{first}/approve").status_code == 303
    ids = {c.name: c.id for c in characters}
    for path, form in (
            ("/characters/{Lys Moreau}/damage", {"damage_type": "lethal", "levels": "1"}),
            ("/characters/{Lys Moreau}/heal", {"kind": "lethal", "levels": "1"}),
            # room in her pool first: a full pool drinks nothing (LotNR generation table)
            ("/characters/{Vivienne Ashcombe}/act", {"action": "blood", "blood": "2", "reason": "discipline"}),
            ("/characters/{Vivienne Ashcombe}/feed-on", {"victim": "{Ruth Calder}", "blood": "1"}),
            ("/characters/{Pim Halloran}/act", {"action": "blood", "blood": "1", "reason": "rising"})):
        fill = {name: str(number) for name, number in ids.items()}
        address = re.sub(r"\{([^}]+)\}", lambda m: fill[m.group(1)], path)
        values = {key: re.sub(r"\{([^}]+)\}", lambda m: fill[m.group(1)], value) for key, value in form.items()}
        assert organiser.post(address, data=values).status_code in (200, 303)
    with app.app_context(), db.connection_context():
        rulings = [r.id for r in Ruling.select().order_by(Ruling.id)]
        webhook = Webhook.select().first()
        spend = SpendRequest.select().first()
        allowed = own_words()
    examples = {
        "character_id": mine.id, "ruling_id": rulings[-1] if rulings else 1, "chronicle_id": mine.chronicle_id,
        "webhook_id": webhook.id if webhook else 1, "request_id": spend.id if spend else 1,
        "token": mine.card_token, "edition": "1",
    }
    return app, examples, allowed, rulings


#: Example values of an address's parts (the character's, the ruling's... filled from :func:`night`).
EXAMPLES = ("character_id", "ruling_id", "chronicle_id", "webhook_id", "request_id", "token", "edition")


def pages(app, examples) -> list[str]:
    """Every GET address of ``app`` to walk, its parts filled from ``examples``."""
    found = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or any(part in rule.rule for part in NOT_PAGES):
            continue
        missing = [name for name in rule.arguments if name not in examples]
        assert not missing, f"{rule.rule}: no example for {missing} (add it to EXAMPLES)"
        found.append(re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: str(examples[m.group(1)]), rule.rule))
    return sorted(set(found))


#: A rule's source as the app cites it, by the book's or the seed's own English title: ``002 “Order of
#: Challenges”``, ``000 "Final Death"``, ``LotNR "Blood"``, and a step's citation beside it (``<cite class="rule">``)
#: (issue 36: the titles keep their published names).
CITATION = re.compile(r'\b(?:\d{3}|LotNR|MET|seed \d{3}) (?:&#34;|&quot;|"|“)[^"“”&<]{2,60}(?:&#34;|&quot;|"|”)'
                      r'|(?<=<cite class="rule">)[^<]*(?=</cite>)|(?<=<small class="rule">)[^<]*(?=</small>)')


#: The sheet editor's pickers of the books' lists (Traits, Abilities, Disciplines and powers, Merits and Flaws): "the
#: pickers offer the English lists" (issue 36 item 3), as a sheet holds them; the labels around them are checked, their
#: chips, choices and groups are not.
PICKER = re.compile(r'(<div class="chips pick-chips[^"]*"[^>]*>).*?</div>'
                    r'|(<select name="(?:merits|flaws)\.add"[^>]*>).*?</select>'
                    r'|(<details class="more power-group"[^>]*>\s*<summary>).*?</summary>', re.S)


def left_on(client, address: str, allowed: list[str]) -> list[str]:
    response = client.get(address, headers=PSEUDO_HEADERS, follow_redirects=True)
    assert response.status_code < 500, f"{address}: {response.status_code}"
    if response.is_json:  # a screen script's answer: its words are checked with the API's below
        return []
    page = PICKER.sub(lambda m: "<div>" if m.group(1) else m.group(2) or m.group(3), CITATION.sub(" ", response.get_data(as_text=True)))
    return sorted(set(bare_english(page, allow=allowed)))


@pytest.mark.parametrize("who", ["organiser", "narrator", "player", "nobody"])
def test_every_page_leaves_no_english_bare(night, who):
    app, examples, allowed, _rulings = night
    client = app.test_client()
    if who == "organiser":
        AuthActions(client).login("boss", "organiser")
    elif who == "narrator":
        AuthActions(client).login("nar", "narrator")
    elif who == "player":
        AuthActions(client).login("pl", "player")
    left = {address: words for address in pages(app, examples)
            if (words := left_on(client, address, allowed + ["nar", "Nar", "pl", "Pl"]))}
    assert not left, f"English left bare as the {who} sees it:\n" + "\n".join(
        f"  {address}: {len(words)} words, {words[:12]}" for address, words in left.items())


def test_every_ruling_of_the_night_reads_without_english_bare(night):
    app, _examples, allowed, rulings = night
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    assert rulings, "the night recorded rulings"
    left = {ruling: words for ruling in rulings
            if (words := left_on(client, f"/rulings/{ruling}", allowed))}
    assert not left, f"English left bare on the rulings' pages: {left}"


@pytest.mark.parametrize("method, address, body", [
    ("GET", "/api/v1/characters/999999", None),
    ("GET", "/api/v1/rulings/999999", None),
    ("GET", "/rulings/by-token/NOSUCHTOKEN", None),
    ("POST", "/api/v1/characters/{character_id}/damage", {"damage_type": "fire", "levels": 1}),
    ("POST", "/api/v1/characters/{character_id}/damage", {"levels": "many"}),
    ("POST", "/api/v1/challenges/rule", {"challenger": {}}),
    ("POST", "/api/v1/mass-challenges/rule", {"target": 3}),
    ("POST", "/api/v1/firing-into-groups/rule", {}),
    ("POST", "/api/v1/characters", {"name": ""}),
    ("POST", "/api/v1/spend-requests/price", {"character": "{character_id}"}),
    ("POST", "/api/v1/tabletop/roll", {"dice": "lots"}),
    ("POST", "/api/v1/check-ins", {"character": 999999}),
])
def test_the_apis_refusals_leave_no_english_bare(night, method, address, body):
    app, examples, allowed, _rulings = night
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    if body:
        body = {key: value.format(**examples) if isinstance(value, str) else value for key, value in body.items()}
    response = client.open(address.format(**examples), method=method, json=body, headers=PSEUDO_HEADERS)
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)
    error = response.get_json()["error"]
    left = [word for word in re.findall(r"[A-Za-z]{2,}", re.sub(r"⟦[^⟧]*⟧", " ", error))
            if word not in {w for text in allowed for w in re.findall(r"[A-Za-z]{2,}", text)}]
    assert not left, f"{method} {address}: {error!r}"
