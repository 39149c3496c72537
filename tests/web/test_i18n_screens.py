"""The organisers' and players' screens in the readers' languages (issue 36 items 1 and 5, wave 5): the
record, Organise, settings, check-in, the players' pages, spends, between-game actions, the sheet editor,
between game sessions, the tabletop screens, imports, webhooks and printed sheets. Each rendered in the
pseudo-locale leaves no English word bare (tests/i18n_support.py) but the words from the data.

What stays English by design is allowed by name: the rules core's step texts and summaries (the issue
note: not message ids yet), the sheet's own words and the names of people and chronicles.
"""

from __future__ import annotations

import re

from larp.db import db
from larp.models import Character, Ruling, RulingCharacter
from tests.i18n_support import PSEUDO_HEADERS, assert_translated, bare_english, visible_text
from tests.support import AuthActions
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the app in the pseudo-locale (a fixture)


#: The pseudo-locale formats dates as English does (Babel knows no en_XA): the months' names are allowed.
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
          "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def main_of(response) -> str:
    """The page's main region, with its JSON dumps (data, not words) taken out."""
    html = response.get_data(as_text=True)
    main = re.search(r'<main id="main">.*</main>', html, re.S).group(0)
    return re.sub(r'<pre class="json">.*?</pre>', "", main, flags=re.S)


def assert_main_translated(response, allow=()) -> None:
    """Fail naming every bare English word of the page's main region."""
    assert response.status_code == 200, response.status_code
    left = bare_english(main_of(response), allow=list(allow) + ["larp"] + MONTHS)
    assert not left, f"English left bare: {sorted(set(left))}"


def ruling_words(ruling: Ruling) -> list[str]:
    """What the rules core wrote of ``ruling`` (English until its steps are message ids) and the names in it."""
    words = [ruling.summary or "", ruling.narrator_label or ""]
    words += [f"{step.get('text', '')} {step.get('rule', '')} {step.get('setting') or ''}" for step in ruling.steps or []]
    words += [link.character.name for link in RulingCharacter.select().where(RulingCharacter.ruling == ruling)]
    return words


def record_a_challenge(client, challenger: int, defender: int) -> None:
    """A contested Physical strike won by ``challenger``, recorded (as it stands when a retest could follow)."""
    import html

    fields = dict(challenger=challenger, defender=defender, category="physical", challenger_bid="Quick",
                  defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors", action="strike")
    response = client.post("/challenge", data=fields)
    found = re.search(r"name=\"tests_json\" value='([^']*)'", response.get_data(as_text=True))
    if found:
        client.post("/challenge", data={**fields, "step": "record", "tests_json": html.unescape(found.group(1))})


def test_the_record_leaves_no_english_bare(pseudo_app):
    """A contested challenge recorded, then the record's list and the ruling's own page."""
    client = pseudo_app.test_client()
    AuthActions(client).login("nar", "narrator")
    with pseudo_app.app_context(), db.connection_context():
        viv, kon = (Character.get(Character.name == name).id for name in ("Vivienne Ashcombe", "Konrad Vale"))
    record_a_challenge(client, viv, kon)
    with pseudo_app.app_context(), db.connection_context():
        ruling = Ruling.select().order_by(Ruling.id.desc()).get()
        allowed = ruling_words(ruling) + ["Quick", "Brawny", "Nar"]
        ruling_id = ruling.id
    assert_main_translated(client.get("/rulings", headers=PSEUDO_HEADERS), allowed)
    assert_main_translated(client.get(f"/rulings/{ruling_id}", headers=PSEUDO_HEADERS), allowed)
    missing = client.get("/rulings/999999", headers=PSEUDO_HEADERS)
    assert missing.status_code == 404
    assert not bare_english(main_of(missing), allow=["larp"])


def test_the_record_reads_in_portuguese_and_spanish(client, auth, dbconn):
    auth.login("boss", "organiser")
    page = client.get("/rulings", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "Registro de decisões" in page
    page = client.get("/rulings", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Registro de resoluciones" in page


def test_organise_leaves_no_english_bare(pseudo_app):
    """The hub (tiles, the demo's removal refused without its box ticked), the import of an export (a refusal
    too), and naming the empty chronicle that replaces the demo."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        from larp.services.chronicles import get_chronicle

        chronicle = get_chronicle().name
    names = [chronicle, "Discord", "Grapevine", "XML", "QR", "JSON", "Boss"]
    assert_main_translated(client.get("/organise", headers=PSEUDO_HEADERS), names)
    refused = client.post("/organise/remove-demo", data={}, headers=PSEUDO_HEADERS)
    assert refused.status_code == 422
    assert not bare_english(main_of(refused), allow=names + ["larp"])
    assert_main_translated(client.get("/organise/import", headers=PSEUDO_HEADERS), names + ["larp", "export"])
    no_file = client.post("/organise/import", data={}, headers=PSEUDO_HEADERS)
    assert no_file.status_code == 422
    assert not bare_english(main_of(no_file), allow=names + ["larp", "export", "json"])
    removed = client.post("/organise/remove-demo", data={"confirm": "yes"}, headers=PSEUDO_HEADERS,
                          follow_redirects=True)
    assert_main_translated(removed, names)
    unnamed = client.post(removed.request.path, data={"name": ""}, headers=PSEUDO_HEADERS)
    assert unnamed.status_code == 422
    assert not bare_english(main_of(unnamed), allow=["larp"])


def settings_words() -> list[str]:
    """The settings' own words from data/settings (labels, help, choices, sources: English data, see the
    issue note) and the webhook events' keys and JSON fields (the API's words, larp/webhooks/kinds.py)."""
    from larp.rules.settings import setting_definitions
    from larp.webhooks.kinds import EVENTS, field_table

    words = []
    for d in setting_definitions().values():
        words += [d.label, d.help, d.source, str(d.default), d.describe(d.default), d.key]
        words += [label for _value, label in d.choices]
    words += list(EVENTS)  # the events' keys (the API's words)
    words += [f"{staff} {public if public != 'not sent' else ''}" for _key, _label, staff, public in field_table()]
    return words


def test_the_settings_page_and_webhooks_leave_no_english_bare(pseudo_app):
    """The settings page's own words (the families, the darkness table, defaults and sources), a refused
    value, and the webhooks: one made (its secret shown once), its own page."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        allowed = settings_words() + ["Discord", "JSON", "URL", "HMAC", "SHA", "Staff channel",
                                      "https://discord.com/api/webhooks/"]  # the address's placeholder
    assert_main_translated(client.get("/settings", headers=PSEUDO_HEADERS), allowed)
    refused = client.post("/settings", data={"overbid_ratio": "many"}, headers=PSEUDO_HEADERS)
    assert refused.status_code == 422
    made = client.post("/settings/webhooks", headers=PSEUDO_HEADERS, data={
        "name": "Staff channel", "url": "https://discord.com/api/webhooks/1/abc", "events": ["ruling_recorded"],
        "privacy": "staff", "format": "auto"})
    assert made.status_code == 200, made.status_code
    html = main_of(made)
    secret = re.search(r'<code class="link-text">([^<]*)</code>', html).group(1)
    masked = re.findall(r'<code class="link-text">([^<]*)</code>', html)
    assert_main_translated(made, allowed + [secret] + masked)
    hook = re.search(r'/settings/webhooks/(\d+)"', made.get_data(as_text=True)).group(1)
    page = client.get(f"/settings/webhooks/{hook}", headers=PSEUDO_HEADERS)
    assert_main_translated(page, allowed + re.findall(r'<code class="link-text">([^<]*)</code>', main_of(page)))


def test_the_check_in_desk_leaves_no_english_bare(pseudo_app):
    """The desk, a refused empty scan, a name typed (the candidates), a check-in, a second scan of the same
    character, tonight's roster and an undo. A door's refusal and marks come from the rules core (English)."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        from larp.services.chronicles import get_chronicle, open_game_session

        session = open_game_session(get_chronicle())
        characters = list(Character.select())
        allowed = [w for c in characters for w in (c.name, c.player_name or "", c.clan or "", c.short_code or "")]
        viv = Character.get(Character.name == "Vivienne Ashcombe")
    allowed += ["Boss", "first game", "Attended"]  # the door's marks (rules core)
    assert session is not None
    assert_main_translated(client.get("/checkin", headers=PSEUDO_HEADERS), allowed)
    empty = client.post("/checkin", data={"q": "", "session": session.number}, headers=PSEUDO_HEADERS)
    assert not bare_english(main_of(empty), allow=allowed + ["larp"] + MONTHS)
    found = client.post("/checkin", data={"q": "Viv", "session": session.number}, headers=PSEUDO_HEADERS)
    with pseudo_app.app_context(), db.connection_context():
        allowed += [r.summary for r in Ruling.select()]  # the desk's log: the record's summaries (English, stored)
    assert_main_translated(found, allowed)
    done = client.post("/checkin", data={"character": viv.id, "session": session.number, "how": "name"},
                       headers=PSEUDO_HEADERS)
    with pseudo_app.app_context(), db.connection_context():
        allowed += [r.summary for r in Ruling.select()]  # the desk's log: the record's summaries (English, stored)
    assert_main_translated(done, allowed)
    again = client.post("/checkin", data={"character": viv.id, "session": session.number, "how": "name"},
                        headers=PSEUDO_HEADERS)
    assert_main_translated(again, allowed)
    assert_main_translated(client.get("/checkin/roster", headers=PSEUDO_HEADERS), allowed)
    undone = client.post(f"/checkin/{viv.id}/undo", data={"session": session.number}, headers=PSEUDO_HEADERS)
    with pseudo_app.app_context(), db.connection_context():
        allowed += [r.summary for r in Ruling.select()]
    assert_main_translated(undone, allowed)


def character_words(character: Character) -> list[str]:
    """What a page may show of ``character`` as the chronicle wrote it (his sheet's words, his people)."""
    from larp.models import Ability, Background, MeritFlaw, Power, Trait

    words = [character.name, character.player_name or "", character.clan or "", character.chronicle.name,
             character.morality_name or "", character.nature or "", character.demeanor or "", character.sect or "",
             character.title or "", character.short_code or "", character.notes or "", character.narrator_notes or "",
             character.player_contact or ""]
    words += [t.name for t in Trait.select().where(Trait.character == character)]
    words += [f"{a.name} {' '.join(a.specialisations or [])}" for a in Ability.select().where(Ability.character == character)]
    words += [f"{p.discipline} {p.name} {p.level}" for p in Power.select().where(Power.character == character)]
    words += [b.name for b in Background.select().where(Background.character == character)]
    words += [f"{m.name} {m.note or ''}" for m in MeritFlaw.select().where(MeritFlaw.character == character)]
    words += list((character.virtues or {}).keys()) + list(character.derangements or [])
    from larp.rules.armory import armory

    live = armory("live")
    words += [item.name for item in list(live.weapons.values()) + list(live.armor.values())]
    return words


def test_the_players_pages_and_the_players_panel_leave_no_english_bare(pseudo_app):
    """An organiser's players page (an invitation and a claim code issued, a refused link), the players
    panel of the character page; the player's home, his character's page (header, sheet, experience,
    rulings, card) and the claim page with a wrong code."""
    from tests.support import make_player

    with pseudo_app.app_context(), db.connection_context():
        character = Character.get(Character.name == "Vivienne Ashcombe")
        allowed = character_words(character) + ["Boss", "QR"]
        cid, token = character.id, character.card_token
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    invited = client.post(f"/characters/{cid}/players/invite", data={"username": "anna", "display_name": "Anna"},
                          headers=PSEUDO_HEADERS)
    page = client.get(f"/characters/{cid}/players", headers=PSEUDO_HEADERS)
    assert_main_translated(page, allowed + ["Anna", "anna"] + re.findall(r'<code class="link-text">([^<]*)</code>',
                                                                        invited.get_data(as_text=True)))
    code = client.post(f"/characters/{cid}/players/claim-code", headers=PSEUDO_HEADERS, follow_redirects=True)
    assert_main_translated(code, allowed + ["Anna", "anna"] + re.findall(r'<p class="claim-code"><code>([^<]*)</code>',
                                                                       code.get_data(as_text=True)))
    refused = client.post(f"/characters/{cid}/players/link", data={"username": "nobody"}, headers=PSEUDO_HEADERS)
    assert refused.status_code == 404
    assert not bare_english(main_of(refused), allow=allowed + ["Anna", "anna", "nobody", "larp"])
    sheet = client.get(f"/characters/{cid}", headers=PSEUDO_HEADERS)
    assert_translated(sheet, allow=allowed + ["Anna", "anna"], within="players")

    make_player(pseudo_app, character, "pat", display_name="Pat")
    player = pseudo_app.test_client()
    AuthActions(player).login("pat", "player")
    assert_main_translated(player.get("/my", headers=PSEUDO_HEADERS), allowed + ["Pat", "API"])
    own = player.get(f"/my/characters/{cid}", headers=PSEUDO_HEADERS)
    assert own.status_code == 200
    for region in ("whole-sheet", "experience", "player-rulings", "my-card"):
        assert_translated(own, allow=allowed + ["Pat", "QR"] + SOURCES, within=region)
    head = re.search(r'<header class="player-head panel">.*?</header>', own.get_data(as_text=True), re.S).group(0)
    assert not bare_english(head, allow=allowed + ["Pat"])

    stranger = pseudo_app.test_client()
    claim = stranger.get(f"/c/{token}/claim", headers=PSEUDO_HEADERS)
    assert claim.status_code == 200
    assert_translated(claim, allow=allowed + ["larp"])
    wrong = stranger.post(f"/c/{token}/claim", data={"code": "WRONG", "username": "zed", "password": "long enough pw"},
                          headers=PSEUDO_HEADERS)
    assert wrong.status_code == 422
    assert_translated(wrong, allow=allowed + ["larp", "WRONG", "zed"])


#: Rule sources pages cite by their English titles (the books' own names, as the record keeps them).
SOURCES = ['000 "Applying Damage"', 'LotNR "Blood"', '000 "Final Death"', "Dark Epics", "Grapevine", "XP"]


def test_the_experience_spends_leave_no_english_bare(pseudo_app):
    """The player's section (a price shown, asked, a second one asked), the organisers' queue, an approval and
    a refusal without a reason. What is bought (``what``: the rules' words) and the sheet's names are allowed;
    the suggestions (the rules' words for each next purchase) are left out."""
    from larp.models import SpendRequest
    from larp.services.chronicles import get_chronicle
    from larp.services.experience import record_experience
    from tests.support import make_player

    rapidity = {"kind": "power", "discipline": "Celerity", "name": "Rapidity"}
    with pseudo_app.test_request_context(), db.connection_context():
        character = Character.get(Character.name == "Vivienne Ashcombe")
        record_experience(get_chronicle(), None, character.id, "earned", "20", "test award")
        allowed = character_words(character) + ["XP", "Boss", "Pat", "Celerity", "Rapidity", "in-clan", "Intermediate"]
        cid = character.id
    make_player(pseudo_app, character, "pat", display_name="Pat")
    player = pseudo_app.test_client()
    AuthActions(player).login("pat", "player")

    def section(response):
        html = response.get_data(as_text=True)
        assert "⟦" in visible_text(html, "spend-section") + visible_text(html, "spend-queue")  # the region is there
        return re.sub(r'<ul class="spend-suggestions">.*?</ul>', "", html, flags=re.S)

    priced = player.get(f"/my/characters/{cid}/spend", query_string=rapidity, headers=PSEUDO_HEADERS)
    assert not bare_english(section(priced), allow=allowed, within="spend-section")
    player.post(f"/my/characters/{cid}/spend", data={**rapidity, "note": "for the chase"})
    asked = player.post(f"/my/characters/{cid}/spend", data={"kind": "willpower"}, headers={**PSEUDO_HEADERS, "HX-Request": "true"})
    with pseudo_app.app_context(), db.connection_context():
        allowed += [s.what for s in SpendRequest.select()] + ["for the chase"]
        first, second = [s.id for s in SpendRequest.select().order_by(SpendRequest.id)]
    assert not bare_english(section(asked), allow=allowed, within="spend-section")
    organiser = pseudo_app.test_client()
    AuthActions(organiser).login("boss", "organiser")
    assert_main_translated(organiser.get("/spends", headers=PSEUDO_HEADERS), allowed)
    approved = organiser.post(f"/spends/{first}/approve", headers={**PSEUDO_HEADERS, "HX-Request": "true"})
    assert not bare_english(section(approved), allow=allowed, within="spend-queue")
    no_reason = organiser.post(f"/spends/{second}/refuse", data={"reason": ""}, headers={**PSEUDO_HEADERS, "HX-Request": "true"})
    assert no_reason.status_code == 422
    assert not bare_english(section(no_reason), allow=allowed, within="spend-queue")
    mine = player.get(f"/my/characters/{cid}/spend", headers=PSEUDO_HEADERS)
    assert not bare_english(section(mine), allow=allowed, within="spend-section")


def test_between_game_actions_leave_no_english_bare(pseudo_app):
    """The player's section (one written, an empty one refused), the organisers' screen (the action, an answer
    refused empty, one saved), the player reading the answer, and the organisers' screen of no game session."""
    from datetime import date, timedelta

    from larp.models import BetweenGameAction, GameSession
    from tests.support import make_player

    with pseudo_app.app_context(), db.connection_context():
        GameSession.update(date=date.today() + timedelta(days=7)).execute()
        konrad = Character.get(Character.name == "Konrad Vale")
        allowed = character_words(konrad) + ["Pat", "Boss", "I hunt the docks", "Go carefully"]
    make_player(pseudo_app, konrad, "pat", display_name="Pat")
    player = pseudo_app.test_client()
    AuthActions(player).login("pat", "player")
    hx = {**PSEUDO_HEADERS, "HX-Request": "true", "HX-Target": "between-game-actions"}
    written = player.post(f"/my/characters/{konrad.id}/actions", data={"text": "I hunt the docks"}, headers=hx)
    assert "⟦" in visible_text(written.get_data(as_text=True), "between-game-actions")
    assert not bare_english(written.get_data(as_text=True), allow=allowed + MONTHS, within="between-game-actions")
    empty = player.post(f"/my/characters/{konrad.id}/actions", data={"text": ""}, headers=hx)
    assert empty.status_code == 422
    assert not bare_english(empty.get_data(as_text=True), allow=allowed + MONTHS, within="between-game-actions")
    organiser = pseudo_app.test_client()
    AuthActions(organiser).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        action = BetweenGameAction.get()
        names = [c.name for c in Character.select()] + [c.player_name or "" for c in Character.select()]
    assert_main_translated(organiser.get("/between-game-actions", headers=PSEUDO_HEADERS), allowed + names)
    refused = organiser.post(f"/between-game-actions/{action.id}/answer", data={"answer": "", "version": action.version},
                             headers={**PSEUDO_HEADERS, "HX-Request": "true"})
    assert refused.status_code == 422
    assert not bare_english(refused.get_data(as_text=True), allow=allowed + MONTHS, within=f"action-{action.id}")
    answered = organiser.post(f"/between-game-actions/{action.id}/answer",
                              data={"answer": "Go carefully", "version": action.version}, headers=PSEUDO_HEADERS,
                              follow_redirects=True)
    assert_main_translated(answered, allowed + names)
    page = player.get(f"/my/characters/{konrad.id}", headers=PSEUDO_HEADERS)
    assert_translated(page, allow=allowed + MONTHS, within="between-game-actions")
    head = re.search(r'<header class="player-head panel">.*?</header>', page.get_data(as_text=True), re.S).group(0)
    assert not bare_english(head, allow=allowed)



#: What the sheet editor shows from the books' lists and the sheet (issue 36 item 3: the pickers offer the English
#: lists; a sheet's names stay as the chronicle wrote them): taken out of the page before it is read.
SHEET_DATA = [r'<datalist\b.*?</datalist>', r'<div class="chips pick-chips.*?</div>', r'<option\b[^>]*>[^<]*</option>',
              r'<span class="trait-name">.*?</span>', r'<span class="grow power-name">.*?</span>',
              r'<p class="gear-name">.*?</p>', r'<summary>[^<⟦]*<small class="hint">\(\d+\)</small></summary>',
              r'<span class="grow"><strong>[^<]*</strong></span>', r'<legend>[^<⟦]*<small>',
              r'<label>(?:Courage|Conscience|Self-Control|Conviction|Instinct)[^<]*<input[^>]*>', r'<span>[^<⟦]*</span></label>']


def sheet_page(response) -> str:
    """The sheet editor's page without what comes from the books' lists and the sheet."""
    html = main_of(response)
    for pattern in SHEET_DATA:
        html = re.sub(pattern, "", html, flags=re.S)
    return html


def test_the_sheet_editor_and_the_new_character_form_leave_no_english_bare(pseudo_app):
    """The new-character form (and a refused one), the whole sheet editor of a character with everything, a
    section saved and a section refused."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        character = Character.get(Character.name == "Vivienne Ashcombe")
        allowed = character_words(character) + ["Boss", "LotNR", "XP", "met-reference"]
        cid = character.id
    new = client.get("/characters/new", headers=PSEUDO_HEADERS)
    assert not (left := sorted(set(bare_english(sheet_page(new), allow=allowed + ["larp"])))), left
    refused = client.post("/characters/new", data={"name": ""}, headers=PSEUDO_HEADERS)
    assert refused.status_code == 422
    assert not (left := sorted(set(bare_english(sheet_page(refused), allow=allowed + ["larp"])))), left
    page = client.get(f"/characters/{cid}/edit", headers=PSEUDO_HEADERS)
    assert page.status_code == 200
    assert not (left := sorted(set(bare_english(sheet_page(page), allow=allowed + ["larp"] + MONTHS)))), left
    section = client.post(f"/characters/{cid}/sheet/identity", data={"name": "", "creature": "vampire"},
                          headers={**PSEUDO_HEADERS, "HX-Request": "true"})
    assert section.status_code in (409, 422), section.status_code
    html = section.get_data(as_text=True)
    for pattern in SHEET_DATA:
        html = re.sub(pattern, "", html, flags=re.S)
    assert "⟦" in visible_text(html, "identity")
    assert not (left := sorted(set(bare_english(html, allow=allowed, within="identity")))), left


def test_between_game_sessions_leave_no_english_bare(pseudo_app):
    """The organisers' board (the next game, torpor, healing, mortals, everyone, attendance), a refused close
    (the box not ticked), and a character's history after a challenge, with its undo refused unticked. The
    rules' words the board quotes (a ruling's steps, a torpor's length, a state, the settings' labels) are allowed."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        viv, kon = (Character.get(Character.name == name) for name in ("Vivienne Ashcombe", "Konrad Vale"))
        allowed = [w for c in Character.select() for w in character_words(c)] + settings_words() + ["Boss", "JSON", "XP"]
    record_a_challenge(client, viv.id, kon.id)
    assert_main_translated(client.get("/board", headers=PSEUDO_HEADERS), allowed)
    with pseudo_app.app_context(), db.connection_context():
        from larp.services.chronicles import get_chronicle, open_game_session

        number = open_game_session(get_chronicle()).number
    refused = client.post("/board/next-session", data={"closing": number, "date": "2099-01-01"}, headers=PSEUDO_HEADERS)
    assert refused.status_code == 422
    assert not bare_english(main_of(refused), allow=allowed + MONTHS)
    with pseudo_app.app_context(), db.connection_context():
        allowed += [w for r in Ruling.select() for w in ruling_words(r)]
        last = Ruling.select().order_by(Ruling.id.desc()).get().id

    def history_of(response) -> str:  # what changed, in the record's words ("blood 4 → 3"), is left out
        return re.sub(r'<p class="timeline-changes">.*?</p>', "", main_of(response), flags=re.S)

    history = client.get(f"/characters/{kon.id}/history", headers=PSEUDO_HEADERS)
    assert history.status_code == 200
    assert not (left := sorted(set(bare_english(history_of(history), allow=allowed + MONTHS)))), left
    unticked = client.post(f"/characters/{kon.id}/undo", data={"ruling": last}, headers=PSEUDO_HEADERS)
    assert unticked.status_code == 422, unticked.status_code
    assert not (left := sorted(set(bare_english(history_of(unticked), allow=allowed + MONTHS)))), left


def test_imports_and_exports_leave_no_english_bare(pseudo_app):
    """The Grapevine upload page and a refused empty upload; the preview of a real Grapevine file (its own
    words: the report is the console's, see the note, so only the page's words are read); the Grapevine export
    pages; the chronicle export's import page (Organise's test reads it too)."""
    from io import BytesIO

    from tests.support import SHARED

    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        viv = Character.get(Character.name == "Vivienne Ashcombe")
        chronicle = viv.chronicle.name
    allowed = ["Grapevine", "XML", "gex", "gv3", "Windows", "Inactive", chronicle, viv.name]
    assert_main_translated(client.get("/import", headers=PSEUDO_HEADERS), allowed)
    empty = client.post("/import", data={}, headers=PSEUDO_HEADERS)
    assert empty.status_code == 422
    assert not bare_english(main_of(empty), allow=allowed + ["larp"])
    data = (SHARED / "real-data" / "grapevine" / "one_of_each.gex").read_bytes()
    uploaded = client.post("/import", data={"file": (BytesIO(data), "one_of_each.gex")},
                           content_type="multipart/form-data", headers=PSEUDO_HEADERS)
    assert uploaded.status_code == 303
    preview = client.get(uploaded.headers["Location"], headers=PSEUDO_HEADERS)
    html = main_of(preview)
    for region in (r'<ul class="import-lines">.*?</ul>\s*<div', r'<p class="hint">[^<⟦]*\. ⟦', r'<p class="warn">.*?</p>'):
        html = re.sub(region, "<div", html, flags=re.S)
    assert not (left := sorted(set(bare_english(html, allow=allowed + ["one_of_each", "cp", "utf", "UTF"] + [str(n) for n in range(10)])))), left
    board_export = client.get("/board/grapevine", headers=PSEUDO_HEADERS)
    missing = re.findall(r'<ul class="record-list">(.*?)</ul>', board_export.get_data(as_text=True), re.S)
    assert_main_translated(board_export, allowed + missing)
    one = client.get(f"/characters/{viv.id}/grapevine", headers=PSEUDO_HEADERS)
    assert_main_translated(one, allowed + re.findall(r'<ul class="record-list">(.*?)</ul>', one.get_data(as_text=True), re.S))


def test_printed_sheets_leave_no_english_bare(pseudo_app):
    """The print list, a sheet's print page (the organiser's copy of a character with everything) and the
    mark-as-printed answer."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        characters = list(Character.select())
        allowed = [w for c in characters for w in character_words(c)] + ["QR", "US Letter", "A4", "Boss", "localhost"]
        viv = Character.get(Character.name == "Vivienne Ashcombe")
    assert_main_translated(client.get("/sheets", headers=PSEUDO_HEADERS), allowed)
    page = client.get(f"/sheets/print?character={viv.id}&narrator_notes=1", headers=PSEUDO_HEADERS)
    html = re.sub(r'<code>[^<]*</code>', "", main_of(page))
    # "http": the card address a test server has (localhost); "th": the English ordinal the pseudo-locale keeps
    # as a placeholder's value (pt_BR and es drop it: "13ª geração").
    assert not (left := sorted(set(bare_english(html, allow=allowed + MONTHS + ["http", "th"])))), left
    with pseudo_app.app_context(), db.connection_context():
        edition = Character.get_by_id(viv.id).sheet_edition
    from datetime import datetime, timezone

    marked = client.post("/sheets/printed", data={"printed": f"{viv.id}:{edition}",
                                                  "as_of": datetime.now(timezone.utc).replace(tzinfo=None).isoformat()},
                         headers=PSEUDO_HEADERS, follow_redirects=True)
    assert_main_translated(marked, allowed + MONTHS)


def test_the_delete_page_leaves_no_english_bare(pseudo_app):
    """A character's delete page, with rulings (after a challenge) and without."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        viv, kon = (Character.get(Character.name == name) for name in ("Vivienne Ashcombe", "Konrad Vale"))
        allowed = character_words(viv) + character_words(kon)
    assert_main_translated(client.get(f"/characters/{kon.id}/delete", headers=PSEUDO_HEADERS), allowed)
    record_a_challenge(client, viv.id, kon.id)
    assert_main_translated(client.get(f"/characters/{kon.id}/delete", headers=PSEUDO_HEADERS), allowed)


def test_an_empty_list_says_none_in_its_gender(client, auth, dbconn):
    """New user 12: a character with no Ability read "Habilidades: Ninguno" in Spanish (Habilidad is feminine;
    one "None" served every list). Each list now has its own: Traits "Ninguno"/"Nenhuma" (Rasgo, Característica),
    Abilities and Disciplines "Ninguna"/"Nenhuma"."""
    from larp.services.chronicles import get_chronicle
    from larp.services.sheets import new_character

    auth.login("boss", "organiser")
    with client.application.test_request_context():
        character, _ = new_character(get_chronicle(), None, {"name": "Nadie Todavía"})
    for language, word in (("es", "Ninguna"), ("pt-BR", "Nenhuma")):
        page = client.get(f"/characters/{character.id}", headers={"Accept-Language": language}).get_data(as_text=True)
        abilities = re.search(r">(Habilidades)<.*?</ul>", page, re.S).group(0)
        disciplines = re.search(r">(Disciplinas)<.*?</ul>", page, re.S).group(0)
        assert f'class="hint">{word}<' in abilities and f'class="hint">{word}<' in disciplines, language
