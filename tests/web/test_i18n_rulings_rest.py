"""The rest of the rulings in the reader's language (issue 36 item 1): healing between game sessions (a vampire's
aggravated damage, a mortal's healing by time, medical care), waking from torpor, Undo, the door's check-in and
its attendance experience, experience purchases, Aegis, the combat board's result so far and the participants'
labels. Each ruling is recorded, then read on its page (/rulings/<id>) with ``Accept-Language: pt-BR``: the
summary and the steps in Portuguese, no English word of the kind left (names and Traits are the chronicle's); then
with ``en``: exactly the English the record stores, as before.

Requests are made outside any app context (Flask-Babel keeps a request's locale on its app context, which an outer
one would share); the database is read through ``db.connection_context()``.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from larp.db import db
from larp.models import Character, Ruling
from tests.i18n_support import PSEUDO_HEADERS
from tests.support import AuthActions
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the pseudo-locale app fixture
from tests.web.test_i18n_rulings_more import english_left, ruling_words

PT = {"Accept-Language": "pt-BR"}
EN = {"Accept-Language": "en"}
#: Names (and the sheets' words) the demo chronicle's rulings may show in any language.
NAMES = ["Konrad", "Vale", "Teodor", "Brandt", "Lys", "Moreau", "Pim", "Halloran", "Ruth", "Calder", "Aldous",
         "Whitmore", "Marcus", "Hale", "Ines", "Castellano", "Vivienne", "Ashcombe", "UTC"]


def stored(app, ruling_id: int | None = None, kind: str | None = None) -> Ruling:
    """A recorded ruling, by id or the latest of ``kind``, read in a connection of its own."""
    with db.connection_context():
        if ruling_id is not None:
            return Ruling.get_by_id(ruling_id)
        return Ruling.select().where(Ruling.kind == kind).order_by(Ruling.id.desc()).get()


def character_id(name: str) -> int:
    """The stored character called ``name``'s id."""
    with db.connection_context():
        return Character.get(Character.name == name).id


def read_in_portuguese(client, ruling: Ruling, english: str) -> tuple[str, list[str]]:
    """The ruling's page in pt-BR: its summary and steps, none with a word of ``english`` (a regex of the kind's
    English words), and the same page in English exactly as stored."""
    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    left = [text for text in [summary, *steps] if re.search(english, text)]
    assert not left, left
    en_summary, en_steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=EN).get_data(as_text=True))
    assert en_summary == ruling.summary and en_steps == [step["text"] for step in ruling.steps]
    return summary, steps


@pytest.fixture
def downtime(app):
    """The demo chronicle a fortnight after game session 1 (larp.services.demo.apply_downtime_demo)."""
    from larp.services.chronicles import get_chronicle
    from larp.services.demo import apply_downtime_demo

    with db.connection_context():
        apply_downtime_demo(get_chronicle(), date.today())
    return app


def organiser(app):
    """A test client logged in as the organiser "boss"."""
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    return client


def test_aggravated_healing_between_sessions_and_its_undo_read_in_portuguese(downtime):
    """002 "Damage and Healing": Aldous heals an aggravated level over a night for three blood points and a
    Willpower; the Undo puts him back; both in Portuguese."""
    client = organiser(downtime)
    aldous = character_id("Aldous Whitmore")
    assert client.post(f"/board/characters/{aldous}/heal", data={"levels": "1"}).status_code == 303
    healing = stored(downtime, kind="healing")
    assert healing.summary == "Aldous Whitmore heals 1 aggravated level between game sessions"
    summary, steps = read_in_portuguese(client, healing, r"\b(heals?|aggravated|levels?|nights?|rest|blood|points?|"
                                                         r"Willpower|between|game|sessions?|stay|plan)\b")
    assert summary == "Aldous Whitmore cura 1 nível agravado entre as sessões de jogo", summary
    assert steps == ["14 noites de descanso entre as sessões de jogo; Aldous Whitmore tem 2 níveis agravados, 4 pontos "
                     "de sangue e 7 de Força de Vontade.",
                     "Aldous Whitmore cura 1 nível agravado em 1 noite por 3 pontos de sangue e 1 de Força de Vontade.",
                     "Ainda sem cura: 1 nível agravado (o plano não cura mais)."], steps
    response = client.post(f"/characters/{aldous}/undo", data={"ruling": healing.id, "confirm": "yes"})
    assert response.status_code in (200, 303)
    undo = stored(downtime, kind="undo")
    assert undo.summary == f"Undo of #{healing.id}: Aldous Whitmore heals 1 aggravated level between game sessions"
    summary, steps = read_in_portuguese(client, undo, r"\b(Undo|of|put|back|before|ruling|aggravated|blood|"
                                                      r"Willpower|no|state|restore)\b")
    assert summary == (f"Desfeita a decisão nº\u00a0{healing.id}: Aldous Whitmore cura 1 nível agravado entre as sessões "
                       f"de jogo"), summary
    assert steps == [f"Aldous Whitmore volta a estar como antes da decisão nº\u00a0{healing.id}: agravado 1 → 2; Força de "
                     f"Vontade 6 → 7; sangue 1 → 4."], steps


def test_a_mortals_healing_and_medical_care_read_in_portuguese(downtime):
    """000 "Mortal's Healing Times": Marcus (a ghoul) is ticked treated, then heals his bashing in an hour and his
    lethal levels in days over the fortnight, each level's time in Portuguese."""
    client = organiser(downtime)
    marcus = character_id("Marcus Hale")
    assert client.post(f"/board/characters/{marcus}/treated", data={"medical_care": "on"}).status_code in (200, 303)
    treated = stored(downtime, kind="treatment")
    summary, steps = read_in_portuguese(client, treated, r"\b(is|under|medical|care|treated|untreated|lethal|wounds|"
                                                         r"past|heal|worsen|table)\b")
    assert assert_one_of(summary, ["Marcus Hale está sob cuidados médicos", "Marcus Hale está sem tratamento"])
    assert client.post(f"/board/characters/{marcus}/heal", data={}).status_code == 303
    healing = stored(downtime, kind="healing")
    assert healing.summary.startswith("In 97 hours (of ")
    summary, steps = read_in_portuguese(client, healing, r"\b(heals?|hours?|days?|of|available|has|healed|levels?|"
                                                         r"every|now|bashing|lethal|Bruised|Hurt|Healthy|in)\b")
    assert steps == ["Ferido (contusão) se cura em uma hora.", "Machucado (letal) se cura em três dias.",
                     "Escoriado (letal) se cura em um dia.",
                     "Em 97 horas (de 336 disponíveis) Marcus Hale curou 3 níveis, todos os níveis: agora está "
                     "no nível Saudável."], steps
    assert summary == "Em 97 horas (de 336 disponíveis) Marcus Hale curou 3 níveis, todos os níveis: agora está no nível Saudável"


def assert_one_of(text: str, choices: list[str]) -> bool:
    """``text`` is one of ``choices`` (named in the failure)."""
    assert text in choices, text
    return True


def test_waking_from_torpor_reads_in_portuguese(downtime):
    """met-reference T20: Pim tries to wake a week after his wounds, a static Mental challenge won (Rock beats
    Scissors); the summary counts the nights tried, in Portuguese."""
    client = organiser(downtime)
    pim = character_id("Pim Halloran")
    response = client.post(f"/board/characters/{pim}/wake", data={
        "first_night": date.today().isoformat(), "player_throw": "rock", "narrator_throw": "scissors"})
    assert response.status_code == 303
    wake = stored(downtime, kind="wake")
    assert wake.summary == "Pim Halloran rises from torpor (1 night tried)"
    assert all(step.get("said") for step in wake.steps), wake.steps
    summary, steps = read_in_portuguese(client, wake, r"\b(rises|stays|from|nights?|tried|wake|blood|point|"
                                                      r"challenge|wins?|against|Rock|Scissors)\b")
    assert summary == "Pim Halloran desperta do torpor (1 noite de tentativa)", summary


def test_a_check_in_its_undo_and_the_attendance_experience_read_in_portuguese(app):
    """Issue 32: Konrad checked in at the door by name, the check-in undone, checked in again and given his
    attendance experience: each record in Portuguese."""
    client = organiser(app)
    konrad = character_id("Konrad Vale")
    assert client.post("/checkin", data={"character": konrad}).status_code in (200, 303)
    check_in = stored(app, kind="check_in")
    assert re.fullmatch(r"Konrad Vale checked in for Game session 1 \([\d-]+\)", check_in.summary), check_in.summary
    summary, steps = read_in_portuguese(client, check_in, r"\b(checked|in|for|Game|session|at|the|door|by|name)\b")
    assert re.fullmatch(r"Credenciamento de Konrad Vale para a Sessão de jogo 1 \(\d\d/\d\d/\d{4}\)", summary), summary
    assert re.fullmatch(r"Credenciamento de Konrad Vale na porta pelo nome para a Sessão de jogo 1 \(\d\d/\d\d/\d{4}\)\.", steps[0]), steps
    assert client.post(f"/checkin/{konrad}/undo", data={}).status_code in (200, 303)
    undone = stored(app, kind="check_in_undone")
    summary, steps = read_in_portuguese(client, undone, r"\b(check-in|for|Game|session|undone|at|was|mistake)\b")
    assert re.fullmatch(r"O credenciamento de Konrad Vale às \d\d:\d\d UTC foi um engano: desfeito\.", steps[0]), steps
    assert client.post("/checkin", data={"character": konrad}).status_code in (200, 303)
    assert client.post("/checkin/award", data={}).status_code in (200, 303)
    earned = stored(app, kind="experience")
    assert earned.summary == "Konrad Vale earned 1 experience: attending game session 1"
    summary, steps = read_in_portuguese(client, earned, r"\b(earned|experience|for|attending|game|session)\b")
    assert summary == "Konrad Vale ganhou 1 de experiência: presença na sessão de jogo 1", summary
    assert steps == ["Konrad Vale ganhou 1 de experiência por comparecer à sessão de jogo 1."], steps
    # The log's line too, on the sheet editor (new user 12 saw "+1 attending game session 1" in Portuguese: the
    # line's phrase was never stored, so it could only be said as written).
    editor = client.get(f"/characters/{konrad}/edit", headers=PT).get_data(as_text=True)
    assert "presença na sessão de jogo 1" in editor and "attending game session" not in editor


def test_the_rest_leaves_no_english_bare_in_the_pseudo_locale(pseudo_app):  # noqa: F811 - the fixture
    """The pseudo-locale: a check-in, its undo and the healing of a mortal leave no English word bare on their
    record pages (names allowed)."""
    from larp.services.chronicles import get_chronicle
    from larp.services.demo import apply_downtime_demo

    with db.connection_context():
        apply_downtime_demo(get_chronicle(), date.today())
    client = organiser(pseudo_app)
    konrad, marcus = character_id("Konrad Vale"), character_id("Marcus Hale")
    client.post("/checkin", data={"character": konrad})
    client.post(f"/checkin/{konrad}/undo", data={})
    client.post(f"/board/characters/{marcus}/heal", data={})
    for kind in ("check_in", "check_in_undone", "healing"):
        ruling = stored(pseudo_app, kind=kind)
        summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PSEUDO_HEADERS).get_data(as_text=True))
        summary = re.sub(r"<[^>]+>", "", summary)  # an undone ruling's tag, itself translated
        assert steps and not english_left([summary, *steps], NAMES), (kind, summary, steps)


def test_the_combat_boards_result_so_far_and_its_participants_read_in_portuguese(app):
    """002 "Mass Combat": Konrad (Rock) against Vivienne (Paper) and Lys (Scissors); Vivienne wins, so Konrad may
    retest: the result so far, read aloud before it is recorded, is Portuguese; once recorded, the ruling's page
    names the attackers' part in Portuguese ("Atacante, corpo a corpo"), in English as before."""
    client = app.test_client()
    AuthActions(client).login()
    konrad, viv, lys = (character_id(name) for name in ("Konrad Vale", "Vivienne Ashcombe", "Lys Moreau"))
    data = {"target": konrad, "a": [viv, lys], "target_throw": "rock", f"a{viv}_throw": "paper",
            f"a{lys}_throw": "scissors", "step": "resolve"}
    body = client.post("/combat", data=data, headers={"HX-Request": "true", **PT}).get_data(as_text=True)
    so_far = re.search(r'<h2 class="ruling-summary">(.*?)</h2>', body, re.S).group(1)
    assert so_far.startswith("Até agora: Konrad Vale contra 2: Vivienne Ashcombe vence; Lys Moreau perde"), so_far
    assert not re.search(r"\b(against|wins|loses|hit|is)\b", so_far), so_far
    response = client.post("/combat", data={**data, "step": "record"}, headers=PT)
    assert response.status_code in (200, 303)
    ruling = stored(app, kind="mass_combat")
    page = client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True)
    assert "<dt>Atacante, corpo a corpo</dt>" in page and "Attacker" not in page
    assert "<dt>Attacker, hand to hand</dt>" in client.get(f"/rulings/{ruling.id}", headers=EN).get_data(as_text=True)


def test_aegis_reads_in_portuguese(app):
    """met-reference T22 (Fortitude 5, Aegis): Aldous invokes Aegis after a killing turn, paying with three
    permanent Physical Traits; the summary, the cancelled damage and the Traits lost, in Portuguese."""
    client = organiser(app)
    aldous = character_id("Aldous Whitmore")  # Fortitude 5
    with db.connection_context():
        Character.update(damage_lethal=6).where(Character.id == aldous).execute()
    client.post(f"/characters/{aldous}/damage", data={"damage_type": "aggravated", "levels": "3"})
    first = stored(app, kind="damage")
    client.post(f"/characters/{aldous}/damage", data={"damage_type": "aggravated", "levels": "2"})
    response = client.post(f"/characters/{aldous}/aegis", data={"since": first.id, "payment": "physical_traits"})
    assert response.status_code == 303
    aegis = stored(app, kind="aegis")
    assert aegis.summary == ("Aldous Whitmore invokes Aegis: the damage of this turn is undone (3 permanent Physical "
                             "Traits).")
    summary, steps = read_in_portuguese(client, aegis, r"\b(invokes|Aegis|damage|turn|undone|permanent|Physical|"
                                                       r"Traits?|spends|cancelled|marked|start|takes|loses|sheet)\b")
    assert summary == ("Aldous Whitmore invoca a Égide: o dano deste turno é desfeito (3 Características Físicas "
                       "permanentes)."), summary
    assert steps[0] == ("Égide: Aldous Whitmore gasta 3 Características Físicas permanentes. Todo o dano sofrido neste "
                        "turno é cancelado (9 níveis marcados agora, 6 no início do turno) e Aldous Whitmore não sofre "
                        "dano pelo resto do turno."), steps
    assert steps[1].startswith("Aldous Whitmore perde ") and steps[1].endswith(" da ficha, permanentemente."), steps


def test_an_experience_purchase_reads_in_portuguese(app):
    """Issue 33 item 2: Vivienne earns 10 experience (the log's line), asks for Celerity: Rapidity (an
    Intermediate power, in-clan) and an organiser approves it: the approval's ruling (her sheet's change, the
    price and the experience spent) and the earned line read in Portuguese."""
    from larp.services.chronicles import get_chronicle
    from larp.services.experience import record_experience

    vivienne = character_id("Vivienne Ashcombe")
    with app.test_request_context(), db.connection_context():
        record_experience(get_chronicle(), None, vivienne, "earned", "10", "Elysium")
    asker = app.test_client()
    AuthActions(asker).login("asker", "organiser")
    assert asker.post(f"/my/characters/{vivienne}/spend", data={"kind": "power", "discipline": "Celerity",
                                                                "name": "Rapidity"}).status_code == 303
    client = organiser(app)
    with db.connection_context():
        from larp.models import SpendRequest
        request_id = SpendRequest.get().id
    assert client.post(f"/spends/{request_id}/approve").status_code == 303
    earned = stored(app, kind="experience")
    summary, steps = read_in_portuguese(client, earned, r"\b(earned|experience|on)\b")
    assert summary == "Vivienne Ashcombe ganhou 10 de experiência: Elysium", summary
    approval = stored(app, kind="sheet")
    assert approval.summary == "Vivienne Ashcombe's sheet: Power Celerity: Rapidity: — → level 3"
    summary, steps = read_in_portuguese(client, approval, r"\b(sheet|Power|level|is|an?|power|of|experience|spent|"
                                                          r"unspent|before|after|earned|request|in-clan|Intermediate)\b")
    assert summary == "Ficha de Vivienne Ashcombe: Poder Celerity: Rapidity: — → nível 3", summary
    assert steps == ["Poder Celerity: Rapidity: — → nível 3",
                     "Rapidity é um poder Intermediário de Celerity (nível 3): 6 de experiência.",
                     f"6 de experiência gastos: Celerity: Rapidity (Intermediário, do clã) (pedido nº\u00a0{request_id})."], \
        steps


def test_darkness_reads_in_portuguese(app):
    """002 "Darkness"; the reductions table (met-reference 6.1): A fights in partial darkness with Heightened Senses
    on (one penalty Trait fewer); the API's steps, asked in Portuguese, say the darkness in Portuguese (the power's
    name and the setting's label in brackets aside), in English when not asked."""
    client = app.test_client()
    AuthActions(client).login()
    body = {"category": "physical", "scene": {"sides": {"A": {"darkness": "partial", "sight": {"heightened_senses": True}}}},
            "challenger": {"name": "A", "traits": 7, "bid": ["Quick"]},
            "defender": {"name": "B", "traits": 7, "bid": ["Brawny"]},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}
    english = [s["text"] for s in client.post("/api/v1/challenges/rule", json=body).get_json()["ruling"]["steps"]]
    assert any(re.fullmatch(r"A is in partial darkness \(natural darkness\): \d Traits down for ties and overbids, no "
                            r"extra Traits risked\.", s) for s in english), english
    assert "A is 1 Trait down for darkness." in english, english
    said = [s["text"] for s in client.post("/api/v1/challenges/rule", json=body, headers=PT).get_json()["ruling"]["steps"]]
    dark = [s for s in said if "escuridão" in s or "penumbra" in s]
    assert any(re.fullmatch(r"A está em escuridão parcial \(escuridão natural\): \d Características a menos em "
                            r"empates e sobrelances, sem Características extras em risco\.", s) for s in dark), dark
    assert "A fica com 1 Característica a menos pela escuridão." in dark, dark
    told = [re.sub(r"\([^()]*: [^()]*\)", "", step) for step in dark]  # a setting's "(label: value)" aside
    assert not any(re.search(r"\b(darkness|Traits?|down|ties|overbids|risked|removes|penalty)\b", s) for s in told), dark


def test_a_new_game_session_and_its_refresh_read_in_portuguese(downtime):
    """LotNR (met-reference 5.1): closing game session 2 and opening the next refreshes each character
    (Willpower, blood, Traits spent): the game session's ruling and a refresh read in Portuguese."""
    from datetime import timedelta

    client = organiser(downtime)
    response = client.post("/board/next-session", data={"date": (date.today() + timedelta(days=14)).isoformat()})
    assert response.status_code == 303
    opened = stored(downtime, kind="session")
    assert re.fullmatch(r"Game session 2 closed; Game session 3 \([\d-]+\) opened", opened.summary), opened.summary
    summary, steps = read_in_portuguese(client, opened, r"\b(Game|session|closed|opened|characters?|refreshed|"
                                                        r"Scene|extras|removed)\b")
    assert re.fullmatch(r"Sessão de jogo 2 fechada; Sessão de jogo 3 \(\d\d/\d\d/\d{4}\) aberta", summary), summary
    assert re.fullmatch(r"\d+ personage(m renovado|ns renovados)\.", steps[0]), steps
    refresh = stored(downtime, kind="refresh")
    summary, steps = read_in_portuguese(client, refresh, r"\b(refreshed|for|Game|session|Willpower|Blood|of|full|pool|"
                                                         r"starting|one|gets|back|spent|last|torpor|does|feed|stays)\b")
    assert re.fullmatch(r".+: renovação para a Sessão de jogo 3 \(\d\d/\d\d/\d{4}\)", summary), summary


def test_a_sheets_copies_retirement_and_card_read_in_portuguese(app):
    """Two copies of Konrad made as scene extras, Lys retired then back in play, Ruth's card revoked: each
    record in Portuguese, in English as stored."""
    client = organiser(app)
    konrad, lys, ruth = (character_id(name) for name in ("Konrad Vale", "Lys Moreau", "Ruth Calder"))
    assert client.post(f"/characters/{konrad}/copy", data={"name": "Thug", "count": "2", "scene_extra": "on"}
                       ).status_code in (200, 303)
    copies = stored(app, kind="created")
    assert copies.summary == "2 copies of Konrad Vale: Thug 1 to Thug 2 (scene extras)."
    summary, steps = read_in_portuguese(client, copies, r"\b(copies|copy|of|to|scene|extras|is|card|code)\b")
    assert summary == "2 cópias de Konrad Vale: Thug 1 a Thug 2 (figurantes de cena).", summary
    assert re.fullmatch(r"Thug 1 é uma cópia de Konrad Vale, código do cartão \w+\.", steps[0]), steps
    assert client.post(f"/characters/{lys}/retire", data={}).status_code in (200, 303)
    assert client.post(f"/characters/{lys}/retire", data={"restore": "on"}).status_code in (200, 303)
    for kind, said in (("retire", "Lys Moreau aposentado."), ("restore", "Lys Moreau de volta ao jogo.")):
        summary, steps = read_in_portuguese(client, stored(app, kind=kind), r"\b(retired|back|in|play|hidden|from|the)\b")
        assert summary == said, summary
    assert client.post(f"/cards/{ruth}/revoke", data={}).status_code in (200, 302, 303)
    revoked = stored(app, kind="card_revoked")
    summary, steps = read_in_portuguese(client, revoked, r"\b(card|revoked|the|printed|opens|nothing)\b")
    assert summary == "Ruth Calder: cartão revogado; o cartão impresso não abre mais nada", summary


def test_willpower_against_wounds_reads_in_portuguese(app):
    """LotNR Willpower (met-reference 2.1, 4.1): A, Wounded, spends a Willpower Trait to ignore his wound penalty; the
    stateless API says the step in Portuguese when asked, in English by default."""
    client = app.test_client()
    AuthActions(client).login()
    body = {"category": "physical", "challenger": {"name": "A", "traits": 6, "bid": ["Quick"], "health": "wounded",
                                                   "willpower": 1, "ignore_wounds": True},
            "defender": {"name": "B", "traits": 6, "bid": ["Brawny"]},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]}
    english = [s["text"] for s in client.post("/api/v1/challenges/rule", json=body).get_json()["ruling"]["steps"]]
    assert ("A spends a Willpower Trait: he ignores his wound penalties (Wounded) for this turn, up to and including "
            "Incapacitated.") in english, english
    said = [s["text"] for s in client.post("/api/v1/challenges/rule", json=body, headers=PT).get_json()["ruling"]["steps"]]
    assert ("A gasta uma Característica de Força de Vontade: ignora as penalidades de seus ferimentos (Ferido "
            "gravemente) neste turno, até Incapacitado inclusive.") in said, said


def test_a_webhooks_records_read_in_portuguese(app):
    """Issue 35: a webhook made, given a new secret and deleted: each record in Portuguese (its name and its
    events' names aside), in English as stored."""
    from larp.services.chronicles import get_chronicle
    from larp.services.webhooks import change_secret, create_webhook, delete_webhook

    with app.test_request_context(), db.connection_context():
        hook, _secret = create_webhook(get_chronicle(), None, {"name": "Mesa", "url": "http://192.168.1.9/hook", "local_network": True,
                                                               "events": ["ruling_recorded"]})
        change_secret(get_chronicle(), None, hook.id)
        delete_webhook(get_chronicle(), None, hook.id)
    client = organiser(app)
    made = stored(app, kind="webhook_made")
    summary, steps = read_in_portuguese(client, made, r"\b(made|Events|go|happen|order|address|secret|kept)\b")
    assert summary.startswith("Webhook “Mesa” criado ("), summary
    summary, steps = read_in_portuguese(client, stored(app, kind="webhook_secret"),
                                        r"\b(new|signing|secret|Deliveries|signed)\b")
    assert summary == "Webhook “Mesa”: novo segredo de assinatura", summary
    summary, steps = read_in_portuguese(client, stored(app, kind="webhook_deleted"), r"\b(deleted|events?|sent|went)\b")
    assert steps == ["0 evento ainda não enviado foi junto."], steps  # pt_BR: 0 takes the singular
