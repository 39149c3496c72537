"""Rulings that match the books (issue 16) on the screens and the APIs: what the challenge screen and the
stored flow can now say (a Mental bid for a firearm, the narrator's call for the situation, the narrator's
overbid in a static challenge, the Bomb announced, the surprise second challenge), and the same ruling on
the bystanders screen, the stored API and the stateless API for a spray and for free bystander tests."""

from __future__ import annotations

from larp.models import Character, Ruling, TraitLoss
from tests.web.test_challenge_web import post, script_in_progress


def cid(name: str) -> int:
    return Character.get(Character.name == name).id


def fields(challenger: str, defender: str | None, **extra) -> dict:
    out = dict(challenger=cid(challenger), category="physical", kind="contested", action="strike",
               defender_action="defend")
    if defender:
        out["defender"] = cid(defender)
    out.update(extra)
    return out


def record_as_it_stands(client, form: dict, response) -> None:
    """When the side behind could still retest after the call, the narrator records the challenge as it stands."""
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:500]
    script = script_in_progress(response.get_data(as_text=True))
    if script is not None:
        assert client.post("/challenge", data={**form, "step": "record", "tests_json": script}).status_code == 303


def losses(name: str) -> list[tuple[str, str]]:
    return sorted((t.category, t.name) for t in TraitLoss.select().where(TraitLoss.character == cid(name)))


# ----- 14. What the stored flow and the screen can say ---------------------------------------------------------


def test_14_a_shooter_bids_a_mental_trait_on_the_screen(client, auth, dbconn):
    """Issue 16 item 14; LotNR Bidding Weapon Traits (met-reference 1.1): a shooter may bid Mental Traits: Ruth
    (Firearms) is offered her Mental Traits beside her Physical ones, bids Observant with a pistol, loses, and
    loses a Mental Trait; the stored API says the same with bid_category."""
    auth.login()
    page = client.get(f"/challenge?challenger={cid('Ruth Calder')}&defender={cid('Konrad Vale')}").get_data(as_text=True)
    assert "Shooting: or bid a Mental Trait" in page and 'value="mental:Observant"' in page
    post(client, **fields("Ruth Calder", "Konrad Vale", challenger_bid="mental:Observant", defender_bid="Quick",
                          challenger_weapon="pistol", action="weapon", challenger_throw="rock",
                          defender_throw="paper"))
    ruling = Ruling.get()
    assert ruling.inputs["challenger"]["bid_category"] == "mental"
    assert losses("Ruth Calder") == [("mental", "Observant")]
    stored = client.post("/api/v1/challenges", json={
        "category": "physical", "action": "weapon",
        "challenger": {"character_id": cid("Ruth Calder"), "bid": "Rational", "bid_category": "mental",
                       "weapon": "pistol"},
        "defender": {"character_id": cid("Konrad Vale"), "bid": "Quick"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]})
    assert stored.status_code == 201, stored.get_json()
    assert ("mental", "Rational") in losses("Ruth Calder")


def test_14_the_narrators_call_for_the_situation(client, auth, dbconn):
    """Issue 16 item 14; LotNR Bonus Traits (met-reference 1.3): the narrator adds bonus or penalty Traits for the
    situation, counted in ties, never bid: +2 for Vivienne on the screen, -1 through the stored API."""
    auth.login()
    vivienne = Character.get(Character.name == "Vivienne Ashcombe")
    post(client, **fields("Vivienne Ashcombe", "Konrad Vale", challenger_bid="Quick", defender_bid="Brawny",
                          challenger_throw="rock", defender_throw="rock", challenger_situation="2"))
    ruling = Ruling.get()
    physical = ruling.inputs["challenger"]["traits"]
    assert ruling.outcome["totals"]["challenger"] == physical + 2
    assert ruling.inputs["challenger"]["situation"] == 2
    assert any("+2 the narrator's call for the situation" in s["text"] for s in ruling.steps)
    stored = client.post("/api/v1/challenges", json={
        "category": "physical",
        "challenger": {"character_id": vivienne.id, "bid": "Nimble", "situation": -1},
        "defender": {"character_id": cid("Konrad Vale"), "bid": "Tough"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]})
    assert stored.status_code == 201, stored.get_json()
    assert stored.get_json()["ruling"]["totals"]["challenger"] == physical - 1 - 1  # Quick lost, then -1


def test_14_the_narrator_may_overbid_in_a_static_challenge_on_the_screen(client, auth, dbconn):
    """Issue 16 item 14; LotNR Static Challenges (met-reference 1.5: "the Narrator can overbid too"): Ruth wins a
    static Mental challenge against 10 Traits; the screen offers the narrator's overbid (10 is at least twice
    her 5); the new test goes to the narrator, so she fails and loses her bid."""
    auth.login()
    form = fields("Ruth Calder", None, kind="static", category="mental", action="other", difficulty="10",
                  challenger_bid="Shrewd", challenger_throw="paper", defender_throw="rock")
    body = client.post("/challenge", data={**form, "step": "resolve"}).get_data(as_text=True)
    assert "Narrator overbids" in body and Ruling.select().count() == 0
    record_as_it_stands(client, form, client.post("/challenge", data={
        **form, "step": "call", "tests_json": script_in_progress(body), "next_by": "defender",
        "next_source": "overbid", "next_challenger_throw": "rock", "next_defender_throw": "paper"}))
    ruling = Ruling.get()
    assert ruling.outcome["outcome"] == "failure"
    assert [t["call"] for t in ruling.inputs["tests"]] == ["test", "overbid"]
    assert losses("Ruth Calder") == [("mental", "Shrewd")]


# ----- 11. The Bomb exists only when announced before the challenge ---------------------------------------------


def test_11_the_bomb_is_announced_with_a_tap_and_the_record_says_so(client, auth, dbconn):
    """Issue 16 item 11; LotNR Vigor (met-reference 1.2: "You must state before the Physical Challenge that you can
    use it"): Teodor's side shows "Bomb announced"; an unannounced Bomb is refused (422, nothing written); once
    announced it stands, and the record says it was announced. The stateless API takes bomb_announced."""
    auth.login()
    page = client.get(f"/challenge?challenger={cid('Teodor Brandt')}&defender={cid('Vivienne Ashcombe')}").get_data(as_text=True)
    assert 'name="challenger_bomb_announced"' in page and "Bomb announced" in page
    base = fields("Teodor Brandt", "Vivienne Ashcombe", challenger_bid="Brawny", defender_bid="Quick",
                  challenger_throw="bomb", defender_throw="paper")
    refused = post(client, **base)
    assert refused.status_code == 422 and "not announced before the challenge" in refused.get_data(as_text=True)
    assert Ruling.select().count() == 0
    post(client, **base, challenger_bomb_announced="on")
    ruling = Ruling.get()
    assert ruling.outcome["outcome"] == "challenger" and ruling.inputs["challenger"]["bomb_announced"] is True
    assert any("Teodor Brandt announces before the challenge" in s["text"] for s in ruling.steps)
    stateless = client.post("/api/v1/challenges/rule", json={
        "category": "physical",
        "challenger": {"name": "Teodor", "traits": 11, "bid": ["Brawny"], "powers": ["vigor"], "bomb_announced": True},
        "defender": {"name": "Vivienne", "traits": 8, "bid": ["Quick"]},
        "tests": [{"call": "test", "challenger_throw": "bomb", "defender_throw": "paper"}]})
    assert stateless.status_code == 200 and stateless.get_json()["ruling"]["outcome"] == "challenger"


# ----- 12. Surprise: the second challenge -------------------------------------------------------------------------


def test_12_the_screen_offers_the_second_challenge_after_a_lost_surprise(client, auth, dbconn):
    """Issue 16 item 12; LotNR Surprise (met-reference 3.1): Konrad surprised Pim and lost the test; the screen
    offers a second challenge risking another Trait; Konrad wins it and Pim takes the blow."""
    auth.login()
    form = fields("Konrad Vale", "Pim Halloran", challenger_bid="Brawny", defender_bid="Quick",
                  challenger_throw="rock", defender_throw="paper", surprised="on")
    body = client.post("/challenge", data={**form, "step": "resolve"}).get_data(as_text=True)
    assert 'value="second_challenge"' in body
    record_as_it_stands(client, form, client.post("/challenge", data={
        **form, "step": "call", "tests_json": script_in_progress(body), "next_by": "challenger",
        "next_source": "second_challenge", "next_trait": "Tough", "next_challenger_throw": "paper",
        "next_defender_throw": "rock"}))
    ruling = Ruling.get()
    assert [t["call"] for t in ruling.inputs["tests"]] == ["test", "second_challenge"]
    assert ruling.outcome["outcome"] == "challenger"
    assert Character.get_by_id(cid("Pim Halloran")).damage_bashing == 1
    assert ("physical", "Brawny") in losses("Konrad Vale")


# ----- 6, 8: the same ruling on the bystanders screen and both APIs ------------------------------------------------


def test_6_and_8_a_spray_and_free_tests_rule_alike_on_every_path(client, auth, dbconn):
    """Issue 16 items 6 and 8; met-reference T24 and 002 "Firing Guns into Groups of People": Marcus's shotgun
    sprays Lys and Pim past twenty feet from the bystanders screen and through the stored API: each takes the
    card's 2 levels (bashing, vampires) on the track, no Mass-Trauma level, and loses no Trait; with a pistol at
    the same people the tests cost Marcus nothing."""
    auth.login()
    marcus, konrad, lys, pim = (cid(n) for n in ("Marcus Hale", "Konrad Vale", "Lys Moreau", "Pim Halloran"))
    stored = client.post("/api/v1/firing-into-groups", json={
        "firer": {"character_id": marcus, "weapon": "shotgun", "throw": "rock"}, "target_id": konrad, "range": "far",
        "bystanders": [{"character_id": lys, "throw": "scissors"}, {"character_id": pim, "throw": "scissors"}]})
    assert stored.status_code == 201, stored.get_json()
    ruling = stored.get_json()["ruling"]
    assert ruling["fire"] == "group"
    assert [h["taken"] for h in ruling["hits"]] == [[["bashing", 2]], [["bashing", 2]]]
    assert [Character.get_by_id(i).damage_bashing for i in (lys, pim)] == [2, 2]
    assert losses("Lys Moreau") == [] and losses("Pim Halloran") == []
    before = losses("Marcus Hale")
    screen = client.post("/combat/bystanders", data={
        "firer": marcus, "target": konrad, "b": [lys, pim], "firer_weapon": "pistol", "step": "record",
        f"b{lys}_throw": "paper", f"b{lys}_firer_throw": "rock", f"b{pim}_throw": "paper", f"b{pim}_firer_throw": "rock"})
    assert screen.status_code == 303
    assert losses("Marcus Hale") == before  # two tests, no Trait risked


# ----- 5, 13: read from the sheet through the stored flow ------------------------------------------------------


def test_13_and_5_ambidextrous_two_weapon_and_concentration_are_read_from_the_sheet(client, auth, dbconn):
    """Issue 16 items 13 and 5; LotNR off hand (met-reference 3.8) and 002 "Darkness" (data/darkness.toml): the
    sheet editor stores Merits by catalogue key and Ability specialisations; the stored flow reads them: an
    off-hand strike risks one Trait with Ambidextrous (three without), two with Two-Weapon (Florentine); in
    partial darkness Concentration takes the penalty off the tie count (issue 30 item 3: LotNR Concentration,
    "you suffer none of the penalty", the default of darkness_merits; it was one Trait before)."""
    from larp.models import Ability, MeritFlaw

    auth.login()
    konrad, pim = cid("Konrad Vale"), cid("Pim Halloran")

    def bid_risked(lead: str) -> list[str]:
        response = client.post("/api/v1/challenges", json={
            "category": "physical",
            "challenger": {"character_id": konrad, "bid": lead, "off_hand": True},
            "defender": {"character_id": pim, "bid": "Quick"},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]})
        assert response.status_code == 201, response.get_json()
        return response.get_json()["ruling"]["traits_lost"]["challenger"]

    assert len(bid_risked("Brawny")) == 3
    MeritFlaw.create(character=konrad, kind="merit", key="ambidextrous", name="Ambidextrous", cost=1)
    assert len(bid_risked("Tough")) == 1
    MeritFlaw.delete().where(MeritFlaw.character == konrad).execute()
    Ability.update(specialisations=["Two-Weapon (Florentine)"]).where(
        (Ability.character == konrad) & (Ability.name == "Melee")).execute()
    assert len(bid_risked("Quick")) == 2

    def tie_count(lead: str, against: str) -> int:
        response = client.post("/api/v1/challenges", json={
            "category": "physical", "darkness": "partial",
            "challenger": {"character_id": konrad, "bid": lead},
            "defender": {"character_id": cid(against), "bid": "Quick"},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]})
        assert response.status_code == 201, response.get_json()
        traits = Ruling.get_by_id(response.get_json()["ruling_id"]).inputs["challenger"]["traits"]
        return response.get_json()["ruling"]["totals"]["challenger"] - traits  # what darkness took off

    assert tie_count("Wiry", "Vivienne Ashcombe") == -2
    MeritFlaw.create(character=konrad, kind="merit", key="concentration", name="Concentration", cost=1)
    assert tie_count("Stalwart", "Lys Moreau") == 0
