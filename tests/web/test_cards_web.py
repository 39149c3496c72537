"""Character cards (issue 6): the print sheet, the card token, the player's and narrator's views."""

from __future__ import annotations

import re

import numpy as np
import pytest
import zxingcpp

from larp.models import AbilitySpend, Character, ChronicleSetting, GameSession, TraitLoss
from larp.services.cards import UNKNOWN_CARD, card_url, qr_svg

DEMO_NAMES = [
    "Aldous Whitmore", "Ines Castellano", "Konrad Vale", "Lys Moreau", "Marcus Hale", "Pim Halloran",
    "Ruth Calder", "Sister Agathe", "Teodor Brandt", "Vivienne Ashcombe",
]
SQUARE = re.compile(r"M(\d+),(\d+)H(\d+)V(\d+)H\d+z")


def decode_svg(svg: str) -> str:
    """Rasterise one of the sheet's inline QR codes (qrcode's path of unit squares) and decode it
    with zxing-cpp, as a camera would: 8 pixels a module, black on white."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    modules = np.full((size, size), 255, dtype=np.uint8)
    path = re.search(r' d="([^"]+)"', svg).group(1)
    for x, y, x2, y2 in SQUARE.findall(path):
        modules[int(y):int(y2), int(x):int(x2)] = 0
    pixels = np.ascontiguousarray(np.kron(modules, np.ones((8, 8), dtype=np.uint8)))
    codes = zxingcpp.read_barcodes(pixels, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(codes) == 1
    return codes[0].text


def cards_on(html: str) -> list[tuple[str, str | None]]:
    """(name, decoded QR text or None) for each card on a sheet, in print order."""
    found = []
    for article in re.findall(r'<article class="card">(.*?)</article>', html, re.S):
        name = re.search(r'<h2 class="card-name">([^<]+)</h2>', article).group(1)
        svg = re.search(r"<svg.*?</svg>", article, re.S)
        found.append((name, decode_svg(svg.group(0)) if svg else None))
    return found


@pytest.fixture
def organiser(client, auth):
    auth.login("org", "organiser")
    return client


def by_name(name: str) -> Character:
    return Character.get(Character.name == name)


def test_every_code_on_the_sheet_opens_its_own_characters_player_view(app, organiser, dbconn):
    """Done-when: the QR codes on the printed sheet decode to <base>/C/<token>, and following each
    (without logging in) gives that very character's player view."""
    response = organiser.get("/cards/sheet?all=1")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.count('class="sheet-page paper-a4"') == 2  # eight cards a page
    cards = cards_on(html)
    assert [name for name, _ in cards] == DEMO_NAMES
    anonymous = app.test_client()
    for name, text in cards:
        assert text == f"HTTP://LOCALHOST/C/{by_name(name).card_token}"
        view = anonymous.get(text.removeprefix("HTTP://LOCALHOST"))
        page = view.get_data(as_text=True)
        assert view.status_code == 200
        assert f"<h1>{name}</h1>" in page
        assert [other for other in DEMO_NAMES if other != name and other in page] == []


def test_sheet_markup_has_no_duplicate_ids_and_shows_the_short_codes(organiser, dbconn):
    """stack-notes 3.1 gotcha 2: qrcode's id="qr-path" is stripped; each card shows the code to type."""
    html = organiser.get("/cards/sheet?all=1&paper=letter").get_data(as_text=True)
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert "qr-path" not in html
    assert html.count('class="sheet-page paper-letter"') == 2
    for character in Character.select():
        assert f"<strong>{character.short_code}</strong>" in html
    assert not set("01OIL") & set("".join(c.short_code for c in Character.select()))


def test_ticked_cards_only(organiser, dbconn):
    """Printing the ticked characters prints those and no others, in name order."""
    ids = [by_name("Vivienne Ashcombe").id, by_name("Konrad Vale").id]
    html = organiser.get("/cards/sheet", query_string={"character": ids}).get_data(as_text=True)
    assert [name for name, _ in cards_on(html)] == ["Konrad Vale", "Vivienne Ashcombe"]
    assert "2 cards on 1 page of A4" in html


@pytest.mark.parametrize("query, message", [
    ("", "No character is ticked: tick the characters whose cards to print, or print all cards."),
    ("character=abc", "Choose characters from the list."),
    ("character=99999", "Some of the ticked characters are not in this chronicle."),
])
def test_printing_for_no_characters_says_so(organiser, dbconn, query, message):
    """Bad input: nothing (or nothing real) chosen gets a clear message on the card list, 422."""
    response = organiser.get(f"/cards/sheet?{query}")
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f'<p class="error-box" role="alert" id="print-error">{message}</p>' in html
    assert "<svg" not in html


def test_a_revoked_card_is_printed_with_a_note_and_shows_no_card(organiser, dbconn):
    """Revoked = NULL token: the list says "card revoked"; the sheet prints the card without a code."""
    lys = by_name("Lys Moreau")
    response = organiser.post(f"/cards/{lys.id}/revoke")
    assert response.status_code == 303
    assert by_name("Lys Moreau").card_token is None
    listing = organiser.get("/cards").get_data(as_text=True)
    row = re.search(rf'<li class="card-row no-card" id="card-row-{lys.id}">(.*?)</li>', listing, re.S).group(1)
    assert "card revoked" in row and "Issue a card" in row and "Revoke" not in row
    assert "card is revoked: it opens nothing now" in listing
    cards = dict(cards_on(organiser.get("/cards/sheet?all=1").get_data(as_text=True)))
    assert cards["Lys Moreau"] is None
    assert sum(text is not None for text in cards.values()) == 9


def test_a_rotated_token_no_longer_works_and_the_new_one_does(app, organiser, dbconn):
    """Done-when: after rotation the old card's URL is a 404 and the new one opens the character."""
    konrad = by_name("Konrad Vale")
    old = konrad.card_token
    anonymous = app.test_client()
    assert anonymous.get(f"/c/{old}").status_code == 200
    response = organiser.post(f"/cards/{konrad.id}/rotate", headers={"HX-Request": "true"})
    fragment = response.get_data(as_text=True)
    assert response.status_code == 200
    assert fragment.startswith(f'<li class="card-row" id="card-row-{konrad.id}">')
    assert "Konrad Vale has a new card link: print the new card" in fragment
    new = by_name("Konrad Vale").card_token
    assert new != old and re.fullmatch(r"[A-Z2-7]{32}", new)
    assert anonymous.get(f"/c/{old}").status_code == 404
    assert "<h1>Konrad Vale</h1>" in anonymous.get(f"/C/{new}").get_data(as_text=True)
    assert "<h1>Konrad Vale</h1>" in anonymous.get(f"/c/{new.lower()}").get_data(as_text=True)


def test_unknown_malformed_and_revoked_tokens_are_the_same_plain_404(app, organiser, dbconn):
    """A card link that opens nothing reveals nothing: one body for every reason."""
    ruth = by_name("Ruth Calder")
    revoked = ruth.card_token
    organiser.post(f"/cards/{ruth.id}/revoke")
    anonymous = app.test_client()
    bodies = set()
    for token in (revoked, "A" * 32, "short", "0" * 32, "B" * 33, "%3Cscript%3E", revoked.lower()):
        response = anonymous.get(f"/c/{token}")
        assert response.status_code == 404
        assert response.headers["Cache-Control"] == "no-store"
        assert "Set-Cookie" not in response.headers
        bodies.add(response.get_data())
    assert len(bodies) == 1
    body = bodies.pop().decode()
    assert UNKNOWN_CARD in body and "Ruth" not in body and "revoked" not in body.lower()


def test_player_view_shows_tonight_and_nothing_else(app, client, dbconn):
    """The player's view: health, blood, Willpower, Traits left per category (lost ones as lost),
    Ability levels expended, the condition; no narrator notes, no record, no other character."""
    konrad = by_name("Konrad Vale")
    session = GameSession.get()
    TraitLoss.create(character=konrad, game_session=session, category="physical", name="Brawny", count=1)
    TraitLoss.create(character=konrad, game_session=session, category="physical", name="Quick", count=1)
    AbilitySpend.create(character=konrad, game_session=session, name="Brawl", levels=1)
    Character.update(damage_lethal=2, blood_current=9, willpower_current=3, condition="torpor",
                     narrator_notes="SECRET: the prince wants him gone").where(Character.id == konrad.id).execute()

    response = client.get(f"/c/{konrad.card_token}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<h1>Konrad Vale</h1>" in html
    assert "Physical <small>7 of 9 left</small>" in html
    assert 'Brawny ×2 <small>(1 lost)</small>' in html
    assert '<li class="lost">Quick <small>(lost)</small></li>' in html
    assert "Brawl 3 <small>(1 expended, 2 left)</small>" in html
    assert html.count('class="box lethal"') == 2
    assert "<strong>9</strong> of 14 blood points" in html
    assert "<strong>3</strong> of 5" in html
    assert "In torpor" in html
    assert "SECRET" not in html
    assert [name for name in DEMO_NAMES if name != "Konrad Vale" and name in html] == []
    for narrator_link in ('href="/characters', 'href="/challenge', 'href="/rulings', 'href="/cards', "<nav", "<form"):
        assert narrator_link not in html
    assert "Set-Cookie" not in response.headers  # nothing is stored for a player


def test_narrator_opening_a_card_gets_the_actions(client, auth, dbconn):
    """A logged-in narrator scanning a card: the character with Start a challenge and the
    character page (damage and healing), and the card-code box."""
    auth.login()
    viv = by_name("Vivienne Ashcombe")
    html = client.get(f"/C/{viv.card_token}").get_data(as_text=True)
    assert f'href="/challenge?challenger={viv.id}">Start a challenge</a>' in html
    assert f'href="/challenge?defender={viv.id}">Challenge as defender</a>' in html
    assert f'href="/characters/{viv.id}">Damage and healing</a>' in html
    assert 'action="/code"' in html
    assert "Traits left tonight" in html


def test_card_base_url_setting(organiser, dbconn):
    """card_base_url (data/settings/cards.toml, default empty = this page's address): a bad value
    is refused by the field and stores nothing; a good one is what the QR codes carry."""
    before = ChronicleSetting.select().count()
    response = organiser.post("/cards/base-url", data={"card_base_url": "larp.local"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'<p class="field-error" role="alert">Address printed on character cards: '
                     r"&#39;larp.local&#39; is not a web address \(a full address such as "
                     r"http://192.168.1.20:8080, at most 120 characters\).</p>", html)
    assert 'value="larp.local"' in html  # what was typed stays, to be corrected
    assert ChronicleSetting.select().count() == before

    assert organiser.post("/cards/base-url", data={"card_base_url": " http://192.168.1.20:8080/ "}).status_code == 303
    assert ChronicleSetting.get(ChronicleSetting.key == "card_base_url").value == "http://192.168.1.20:8080"
    sheet = organiser.get("/cards/sheet?all=1").get_data(as_text=True)
    viv = by_name("Vivienne Ashcombe")
    assert dict(cards_on(sheet))["Vivienne Ashcombe"] == f"HTTP://192.168.1.20:8080/C/{viv.card_token}"
    assert "Phones cannot reach" not in sheet

    organiser.post("/cards/base-url", data={"card_base_url": ""})
    assert ChronicleSetting.select().where(ChronicleSetting.key == "card_base_url").count() == 0
    assert "Phones cannot reach http://localhost" in organiser.get("/cards").get_data(as_text=True)


def test_card_url_is_upper_case_unless_the_base_has_a_path():
    """Upper case lets the QR code use alphanumeric mode; a path prefix is case-sensitive, so it stays."""
    assert card_url("http://192.168.1.20:8080", "abcd") == "HTTP://192.168.1.20:8080/C/ABCD"
    assert card_url("https://example.org/larp/", "ABCD") == "https://example.org/larp/C/ABCD"


def test_upper_case_url_makes_a_smaller_qr_code():
    """HTTP://HOST:PORT/C/<32 base32> fits QR version 4 at level Q; lower case would need version 5+."""
    url = "HTTP://192.168.100.200:8080/C/" + "A" * 32
    assert re.search(r'viewBox="0 0 41 41"', qr_svg(url))  # version 4: 33 modules + 2 x 4 quiet zone
    assert not re.search(r'viewBox="0 0 41 41"', qr_svg(url.lower()))
    assert decode_svg(qr_svg(url)) == url


def test_code_box_on_every_narrator_page_finds_the_character(app, client, auth, dbconn):
    """The short-code box is on every narrator screen (walked from the url map: every GET page
    a narrator can open), and a typed code (any case, with a dash) opens the character."""
    auth.login()
    viv = by_name("Vivienne Ashcombe")
    client.post("/challenge", data=dict(
        challenger=viv.id, defender=by_name("Konrad Vale").id, category="physical", challenger_bid="Quick",
        defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors", action="strike"))
    arguments = {"character_id": viv.id, "ruling_id": 1, "token": viv.card_token, "user_id": 1, "chronicle_id": 1,
                 "filename": "css/app.css", "edition": "E1",  # a printed sheet's code (issue 34)
                 "webhook_id": 1}
    pages = 0
    for rule in app.url_map.iter_rules():
        # cards.card_live is the card page's poll (a fragment, for players), not a page; by_token answers JSON;
        # the Grapevine downloads are files; challenges.fresh is the challenge screen's poll (204 or a
        # warning fragment)
        if "GET" not in rule.methods or rule.endpoint in ("static", "auth.login_link", "cards.card_live",
                                                          "rulings.by_token", "characters.export_grapevine_file",
                                                          "between_sessions.export_grapevine_file", "challenges.fresh") \
                or rule.rule.startswith(("/api/", "/admin/")):  # the administrators' pages are no narrator's
            continue
        unknown = set(rule.arguments) - set(arguments)
        assert not unknown, f"add a value for {unknown} of {rule.rule} to this test"
        path = app.url_map.bind("localhost").build(rule.endpoint, {a: arguments[a] for a in rule.arguments})
        response = client.get(path)
        if response.status_code == 403:  # organiser-only pages
            continue
        if response.status_code in (302, 303):
            response = client.get(response.headers["Location"])
        html = response.get_data(as_text=True)
        assert 'action="/code"' in html and 'name="code"' in html, rule.rule
        pages += 1
    assert pages >= 8
    code = viv.short_code
    response = client.get(f"/code?code={code[:3].lower()}-{code[3:].lower()}")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/characters/{viv.id}")


def test_a_double_tap_on_new_card_link_rotates_once(organiser, dbconn):
    """Issue 21 (issue 19's one-time form token): the card list's rotate form carries a request_token; the
    same form sent twice is a 409 naming the first ruling ("New card link" in the record, no token in
    it), and the card keeps the token of the first tap; so does a repeated revoke."""
    from larp.models import Ruling

    konrad = by_name("Konrad Vale")
    row = re.search(rf'<li class="card-row" id="card-row-{konrad.id}">(.*?)</li>',
                    organiser.get("/cards").get_data(as_text=True), re.S).group(1)
    tokens = re.findall(r'name="request_token" value="([^"]+)"', row)
    assert len(tokens) == 2 and tokens[0] != tokens[1]  # rotate and revoke, each its own
    form = {"request_token": tokens[0]}
    assert organiser.post(f"/cards/{konrad.id}/rotate", data=form).status_code == 303
    first = by_name("Konrad Vale").card_token
    rulings = Ruling.select().count()
    again = organiser.post(f"/cards/{konrad.id}/rotate", data=form, headers={"HX-Request": "true"})
    assert again.status_code == 409 and "already recorded as ruling" in again.get_data(as_text=True)
    assert by_name("Konrad Vale").card_token == first and Ruling.select().count() == rulings
    ruling = Ruling.get(Ruling.request_token == tokens[0])
    assert ruling.kind == "card_rotated" and first not in str(ruling.__data__)
    record = organiser.get("/rulings").get_data(as_text=True)
    assert f'<span class="kind">New card link</span> Konrad Vale: new card link issued' in record
    revoke = {"request_token": tokens[1]}
    assert organiser.post(f"/cards/{konrad.id}/revoke", data=revoke).status_code == 303
    assert organiser.post(f"/cards/{konrad.id}/revoke", data=revoke).status_code == 409
    assert Ruling.select().count() == rulings + 1
