"""The narrator's challenge screen and its service (issue 2): persistence and bad input."""

from __future__ import annotations

import re
from datetime import date

import pytest

from larp.models import Character, GameSession, Ruling, RulingCharacter, TraitLoss, utcnow


def ids(*names):
    return [Character.get(Character.name == n).id for n in names]


def snapshot():
    """Everything a challenge may change, to prove that bad input changes nothing."""
    return (
        Ruling.select().count(),
        TraitLoss.select().count(),
        RulingCharacter.select().count(),
        sorted((c.id, c.version, c.damage_bashing, c.damage_lethal, c.damage_aggravated) for c in Character.select()),
    )


def script_in_progress(body: str) -> str | None:
    """The hidden script of a challenge in progress, if the response shows one."""
    import html
    import re

    match = re.search(r"name=\"tests_json\" value='([^']*)'", body)
    return html.unescape(match.group(1)) if match else None


def post(client, htmx=False, record=True, **fields):
    """Resolve a challenge; when the side behind could still retest, record it as it stands."""
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post("/challenge", data=fields, headers=headers)
    script = script_in_progress(response.get_data(as_text=True)) if record else None
    if script is not None:
        response = client.post("/challenge", data={**fields, "step": "record", "tests_json": script},
                               headers=headers)
    return response


@pytest.fixture
def pair(dbconn):
    viv, kon = ids("Vivienne Ashcombe", "Konrad Vale")
    return viv, kon


def test_screen_requires_login(client):
    response = client.get("/challenge")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_single_search_match_is_chosen(client, auth, pair):
    """Searching by name or by card code picks the character when exactly one matches."""
    auth.login()
    viv, kon = pair
    code = Character.get_by_id(kon).short_code
    page = client.get(f"/challenge?challenger_q=vivienne&defender_q={code.lower()}").get_data(as_text=True)
    assert f'name="challenger" value="{viv}"' in page
    assert f'name="defender" value="{kon}"' in page
    assert 'name="challenger_bid" value="Quick"' in page


def test_challenger_win_is_applied_and_recorded(client, auth, pair):
    """A won strike: the defender loses the bid Trait for the session and takes one level of
    bashing (002 "Damage and Healing"); the ruling is recorded with inputs and explanation."""
    auth.login()
    viv, kon = pair
    response = post(client, challenger=viv, defender=kon, category="physical", challenger_bid="Quick",
                    defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors", action="strike")
    assert response.status_code == 303
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert f"ruling={ruling.id}" in response.headers["Location"]
    assert ruling.kind == "challenge"
    assert ruling.narrator.username == "narrator1"
    assert ruling.inputs["challenger"]["bid"] == ["Quick"]
    assert ruling.inputs["defender"]["throw"] == "scissors"
    assert ruling.outcome["outcome"] == "challenger"
    assert any("bashing" in step["text"] for step in ruling.steps)
    assert all(step["rule"] for step in ruling.steps)
    losses = list(TraitLoss.select())
    assert [(l.character.id, l.name, l.category, l.ruling.id) for l in losses] == [(kon, "Brawny", "physical", ruling.id)]
    konrad = Character.get_by_id(kon)
    assert (konrad.damage_bashing, konrad.damage_lethal, konrad.damage_aggravated) == (1, 0, 0)
    assert konrad.version == 2
    assert {(rc.character.id, rc.role) for rc in ruling.participants} == {(viv, "challenger"), (kon, "defender")}
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert ruling.summary in page
    assert "Brawny <small>(1 lost)</small>" in page  # one of Konrad's two Brawny left


def test_htmx_post_returns_the_ruling_and_refreshed_sides(client, auth, pair):
    auth.login()
    viv, kon = pair
    response = post(client, htmx=True, challenger=viv, defender=kon, category="physical", challenger_bid="Nimble",
                    defender_bid="Tough", challenger_throw="paper", defender_throw="scissors")
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in body
    assert "Konrad Vale wins" in body
    assert 'id="sides" class="sides" hx-swap-oob="true"' in body
    # Vivienne's Nimble is shown as lost and can no longer be chosen
    assert 'value="Nimble" required disabled' in body
    assert "HX-Request" in response.headers.get("Vary", "")


def test_tie_is_decided_by_trait_count(client, auth, pair, dbconn):
    """002 "Ties": Vivienne (5 Physical) ties Konrad (9): fewer Traits loses."""
    auth.login()
    viv, kon = pair
    post(client, challenger=viv, defender=kon, category="physical", challenger_bid="Lithe", defender_bid="Wiry",
         challenger_throw="rock", defender_throw="rock")
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.outcome["outcome"] == "defender"
    assert ruling.inputs["challenger"]["traits"] == 5
    assert ruling.inputs["defender"]["traits"] == 9
    assert [l.name for l in TraitLoss.select()] == ["Lithe"]


def test_draw_costs_both_bids(client, auth, dbconn):
    """002 "Ties": equal Traits is a draw and both lose their bid."""
    auth.login()
    lys, ruth = ids("Lys Moreau", "Ruth Calder")  # Mental: Lys 4, Ruth 5
    agathe = ids("Sister Agathe")[0]  # Mental 5
    post(client, challenger=ruth, defender=agathe, category="mental", challenger_bid="Rational",
         defender_bid="Cunning", challenger_throw="paper", defender_throw="paper")
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.outcome["outcome"] == "draw"
    assert sorted(l.name for l in TraitLoss.select()) == ["Cunning", "Rational"]
    assert Character.get_by_id(agathe).damage_bashing == 0


def test_lost_trait_is_lost_for_this_session_only(client, auth, pair):
    """LotNR: a lost Trait is gone for the rest of the game session and back in the next one.
    The loss stays in the record of the old session."""
    auth.login()
    viv, kon = pair
    post(client, challenger=viv, defender=kon, category="physical", challenger_bid="Graceful", defender_bid="Tough",
         challenger_throw="rock", defender_throw="paper")
    page = client.get(f"/challenge?challenger={viv}&defender={kon}").get_data(as_text=True)
    assert 'value="Graceful" required disabled' in page
    assert "Physical Traits left tonight: <strong class=\"trait-count\" data-side=\"challenger\">4</strong>" in page
    first = GameSession.get()
    first.closed_at = utcnow()
    first.save()
    GameSession.create(chronicle=first.chronicle, number=2, date=date(2026, 12, 13))
    page = client.get(f"/challenge?challenger={viv}&defender={kon}").get_data(as_text=True)
    assert 'value="Graceful" required disabled' not in page
    assert 'data-side="challenger">5</strong>' in page
    assert TraitLoss.get().game_session_id == first.id


def test_random_throw_is_drawn_from_the_injected_source_and_recorded(client, auth, pair):
    auth.login()
    viv, kon = pair
    post(client, challenger=viv, defender=kon, category="physical", challenger_bid="Quick", defender_bid="Rugged",
         challenger_throw="rock", defender_throw="random")
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    import random

    from larp.rules.challenge import random_throw

    expected = random_throw(random.Random(7)).value  # the test app's source is random.Random(7)
    assert ruling.inputs["defender"]["throw"] == expected
    assert ruling.inputs["defender"]["random_throw"] is True


@pytest.mark.parametrize(
    "change, status, message",
    [
        ({"defender": "99999"}, 404, "no such character"),
        ({"defender": "not-a-number"}, 404, "no such character"),
        ({"defender_bid": "Graceful"}, 422, "no Physical Trait called Graceful"),
        ({"challenger_throw": ""}, 422, "throw is missing"),
        ({"challenger_throw": "lizard"}, 422, "is not a throw"),
        ({"defender_throw": "bomb"}, 422, "Bomb"),
        ({"challenger_bid": ""}, 422, "Choose the Trait"),
        ({"category": "spiritual"}, 422, "Physical, Social or Mental"),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(client, auth, pair, change, status, message):
    auth.login()
    viv, kon = pair
    fields = dict(challenger=viv, defender=kon, category="physical", challenger_bid="Quick", defender_bid="Brawny",
                  challenger_throw="rock", defender_throw="scissors")
    fields.update(change)
    before = snapshot()
    for htmx in (False, True):
        response = post(client, htmx=htmx, **fields)
        assert response.status_code == status
        body = response.get_data(as_text=True)
        assert message in body
        assert "Nothing was changed" in body
    assert snapshot() == before


def test_a_character_cannot_challenge_itself(client, auth, pair):
    auth.login()
    viv, _ = pair
    before = snapshot()
    response = post(client, challenger=viv, defender=viv, category="physical", challenger_bid="Quick",
                    defender_bid="Nimble", challenger_throw="rock", defender_throw="paper")
    assert response.status_code == 422
    assert "cannot challenge themself" in response.get_data(as_text=True)
    assert snapshot() == before


def test_stale_form_after_trait_lost_elsewhere(client, auth, pair):
    """A form that went stale (the bid Trait was lost in another challenge meanwhile) gets a
    clear message and changes nothing."""
    auth.login()
    viv, kon = pair
    teodor = ids("Teodor Brandt")[0]
    # Vivienne loses Lithe to Teodor on another tablet...
    post(client, challenger=viv, defender=teodor, category="physical", challenger_bid="Lithe",
         defender_bid="Tough", challenger_throw="rock", defender_throw="paper")
    before = snapshot()
    # ...while this tablet still shows Lithe as available
    response = post(client, htmx=True, challenger=viv, defender=kon, category="physical", challenger_bid="Lithe",
                    defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors")
    assert response.status_code == 409
    body = response.get_data(as_text=True)
    assert "Vivienne Ashcombe has no Lithe left" in body
    assert 'value="Lithe" required disabled' in body  # the refreshed side shows it lost
    assert snapshot() == before


def test_no_open_game_session_is_refused(client, auth, pair):
    auth.login()
    viv, kon = pair
    GameSession.update(closed_at=utcnow()).execute()
    before = snapshot()
    response = post(client, challenger=viv, defender=kon, category="physical", challenger_bid="Quick",
                    defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors")
    assert response.status_code == 409
    assert "No game session is open" in response.get_data(as_text=True)
    assert snapshot() == before


def test_the_same_character_on_both_sides_is_told_on_the_side_just_picked(client, auth, pair):
    """Found by a new user: Vivienne could be picked on both sides and was refused ("cannot challenge
    themself") only after Resolve. The side just picked says so at once and Resolve waits; without
    JavaScript the defender's side says it."""
    auth.login()
    viv, _ = pair
    query = f"/challenge?category=physical&kind=contested&challenger={viv}&defender={viv}"
    for side, other in (("defender", "challenger"), ("challenger", "defender")):
        body = client.get(query, headers={"HX-Request": "true", "HX-Target": f"side-{side}"}).get_data(as_text=True)
        said = body[body.index(f'id="side-{side}"'):body.index("</section>")]
        assert f"Vivienne Ashcombe is already the {other}: a character cannot challenge themself." in said
        assert re.search(r'<button id="resolve-button"[^>]*disabled', body)
    page = client.get(query).get_data(as_text=True)
    defender = page[page.index('id="side-defender"'):]
    assert "cannot challenge themself" not in page[page.index('id="side-challenger"'):page.index('id="side-defender"')]
    assert "already the challenger: a character cannot challenge themself" in defender
