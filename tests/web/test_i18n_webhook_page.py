"""A webhook's own settings page (/settings/webhooks/<id>, issue 35) in the reader's language (issue 36
items 1 and 5): in the pseudo-locale no English word is left bare, and it reads in Portuguese, the
reason a stopped webhook was stopped included (kept in English in the record, as the API gives it).

The words allowed are the page's data: the webhook's and the chronicle's names, the user's, the
address's start (a placeholder), the receiver's status line and what it answered."""

from __future__ import annotations

from larp.db import db
from larp.models import Chronicle, Webhook
from larp.services.records import record_ruling
from larp.services.webhooks import create_webhook
from larp.webhooks.messages import classify, stopped_reason_parts
from larp.webhooks.sending import Answer
from tests.i18n_support import PSEUDO_HEADERS, assert_translated
from tests.support import AuthActions
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the pseudo-locale app fixture

PORTUGUESE = {"Accept-Language": "pt-BR"}
#: What a receiver answers when its webhook was deleted (Discord's words).
GONE_ANSWER = Answer(404, "Not Found", {}, b'{"message": "Unknown Webhook", "code": 10015}')


def make_hooks(app) -> tuple[int, int, list[str]]:
    """A signed-JSON webhook with an event waiting, and a Discord one stopped by a 404; their ids and
    the data words their page may show."""
    with app.app_context(), db.connection_context():
        chronicle = Chronicle.get()
        waiting, _ = create_webhook(chronicle, None, {"name": "Bridge", "url": "http://127.0.0.1:9/hook",
                                                      "events": ["ruling_recorded"], "format": "json",
                                                      "local_network": True}, site_url="http://larp.test")
        stopped, _ = create_webhook(chronicle, None, {"name": "Herald", "url": "https://discord.com/api/webhooks/1/x",
                                                      "events": ["game_session"], "format": "discord"},
                                    site_url="http://larp.test")
        record_ruling(chronicle, None, "damage", "A test ruling", [], [])
        Webhook.update(enabled=False, stopped_reason=classify(GONE_ANSWER).error).where(
            Webhook.id == stopped.id).execute()
        allowed = ["Bridge", "Herald", chronicle.name, "Boss", "larp", "http", "https", "discord.com",
                   "HTTP 404 Not Found", '{"message": "Unknown Webhook", "code": 10015}']
        return waiting.id, stopped.id, allowed


def test_the_webhook_page_leaves_no_english_bare(pseudo_app):
    waiting, stopped, allowed = make_hooks(pseudo_app)
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    for hook_id in (waiting, stopped):
        page = client.get(f"/settings/webhooks/{hook_id}", headers=PSEUDO_HEADERS)
        assert page.status_code == 200
        assert_translated(page, allow=allowed)


def test_the_webhook_page_reads_in_portuguese(app):
    waiting, stopped, _ = make_hooks(app)
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    html = client.get(f"/settings/webhooks/{waiting}", headers=PORTUGUESE).get_data(as_text=True)
    assert "JSON assinado · 1 esperando · 0 entregue · 0 não entregue" in html
    assert "Segredo de assinatura" in html and "Signing secret" not in html
    html = client.get(f"/settings/webhooks/{stopped}", headers=PORTUGUESE).get_data(as_text=True)
    assert ("Parado: HTTP 404 Not Found: o webhook foi apagado ou o endereço dele está errado (no Discord: crie "
            "um novo e cole o URL dele). A resposta foi: {&#34;message&#34;: &#34;Unknown Webhook&#34;, "
            "&#34;code&#34;: 10015}") in html
    english = client.get(f"/settings/webhooks/{stopped}").get_data(as_text=True)
    assert "Stopped: HTTP 404 Not Found: the webhook was deleted or its address is wrong" in english


def test_a_stop_reason_in_other_words_is_shown_as_it_is():
    """A reason written by an earlier version (or cut short) is not one of the messages: shown as stored."""
    assert stopped_reason_parts("HTTP 404 Not Found: gone") is None
    redirected = classify(Answer(301, "Moved Permanently", {}, b"")).error
    assert stopped_reason_parts(redirected) == [
        ("%(said)s: it answered with a redirect, which is never followed. Paste the address it now lives at.",
         {"said": "HTTP 301 Moved Permanently"})]
