"""Where a chat webhook may point, and how a message fits each chat: no database, no network.

Every address here is a literal IP or a name of /etc/hosts, so resolving it never
leaves the machine; each refusal says why, in the reader's language.
"""

from __future__ import annotations

import pytest
from flask import Flask

from vpsleuth.notices import chat
from vpsleuth.services import webhooks
from vpsleuth.services.errors import Invalid

REFUSED = {
    # not https, or not a plain address
    "http://8.8.8.8/hook": "must start with https://",
    "ftp://8.8.8.8/hook": "must start with https://",
    "//8.8.8.8/hook": "must start with https://",
    "javascript:alert(1)": "must start with https://",
    "https://user:secret@8.8.8.8/hook": "user name or password",
    "https://@8.8.8.8/hook": "user name or password",
    "https:///hook": "no host name",
    "https://8.8.8.8:0/hook": "port that is not a number",
    "https://8.8.8.8:99999/hook": "port that is not a number",
    "https://8.8.8.8/a hook": "spaces or control characters",
    "https://8.8.8.8/\x00": "spaces or control characters",
    "https://ünïcode.example/hook": "in ASCII",
    "https://8.8.8.8/" + "a" * 2000: "longer than 2000 characters",
    # this machine, however it is written
    "https://127.0.0.1/hook": "loopback",
    "https://127.1.2.3/hook": "loopback",
    "https://localhost/hook": "loopback",
    "https://2130706433/hook": "loopback",  # decimal
    "https://0177.0.0.1/hook": "loopback",  # octal
    "https://0x7f.0.0.1/hook": "loopback",  # hexadecimal
    "https://127.1/hook": "loopback",  # short form
    "https://[::1]/hook": "loopback",
    "https://[::ffff:127.0.0.1]/hook": "loopback",  # IPv4-mapped
    "https://[2002:7f00:1::]/hook": "loopback",  # 6to4 of 127.0.0.1
    "https://0.0.0.0/hook": "unspecified",
    "https://0/hook": "unspecified",
    "https://[::]/hook": "unspecified",
    # the operator's networks
    "https://10.0.0.5/hook": "private network",
    "https://172.16.3.4/hook": "private network",
    "https://192.168.1.10:8443/hook": "private network",
    "https://[fd00::1]/hook": "private network",
    "https://[::ffff:192.168.0.1]/hook": "private network",
    "https://169.254.169.254/latest/meta-data": "link-local",  # a cloud's metadata service
    "https://[fe80::1]/hook": "link-local",
    "https://224.0.0.1/hook": "multicast",
    "https://[ff02::1]/hook": "multicast",
    "https://240.0.0.1/hook": "reserved",
    "https://100.64.0.1/hook": "not an address on the public internet",  # carrier NAT
}


@pytest.fixture(scope="module")
def app():
    """Only the settings: checking an address needs no database."""
    app = Flask(__name__)
    app.config["WEBHOOK_ALLOW_LOOPBACK"] = False
    return app


@pytest.mark.parametrize("url", REFUSED)
def test_an_address_off_the_public_internet_or_not_https_is_refused_saying_why(app, url):
    with app.app_context(), pytest.raises(Invalid) as refused:
        webhooks.check_address(url)
    assert REFUSED[url] in refused.value.text("en")


def test_a_public_https_address_is_taken_and_the_connection_pinned_to_it(app):
    with app.app_context():
        target = webhooks.check_address("https://8.8.8.8:8443/api/webhooks/1/abc?wait=true")
    assert target == webhooks.Target("https", "8.8.8.8", 8443, "8.8.8.8",
                                     "/api/webhooks/1/abc?wait=true")


def test_the_tests_loopback_allowance_lets_in_http_127_0_0_1_with_a_port_only(app):
    with app.app_context():
        app.config["WEBHOOK_ALLOW_LOOPBACK"] = True
        try:
            assert webhooks.check_address("http://127.0.0.1:8080/hook").address == "127.0.0.1"
            for still in ("http://127.0.0.1/hook", "http://localhost:8080/hook",
                          "https://[::1]:8080/hook", "http://10.0.0.5:8080/hook",
                          "http://u:p@127.0.0.1:8080/hook", "http://127.0.0.2:8080/hook"):
                with pytest.raises(Invalid):
                    webhooks.check_address(still)
        finally:
            app.config["WEBHOOK_ALLOW_LOOPBACK"] = False


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "führt zu 10.0.0.5, einer Adresse in einem privaten Netz"),
    ("es", "lleva a 10.0.0.5, una dirección de una red privada"),
])
def test_a_refusal_is_said_in_the_readers_language(app, lang, words):
    with app.app_context(), pytest.raises(Invalid) as refused:
        webhooks.check_address("https://10.0.0.5/hook")
    assert words in refused.value.text(lang)


def test_an_unknown_chat_format_is_refused():
    with pytest.raises(Invalid) as refused:
        webhooks.check_format("teams")
    assert "discord, slack, mattermost, matrix" in refused.value.text("en")


def test_the_saved_address_is_shown_masked():
    shown = webhooks.masked("https://discord.com/api/webhooks/123456/very-secret-token-x9Z4")
    assert shown == "https://discord.com/…x9Z4" and "secret" not in shown


def test_a_long_message_stays_within_discords_2000_characters_and_keeps_its_link():
    rows = tuple(f"{n}. Player number {n}: {n} points" for n in range(1, 400))
    message = chat.Message("Big game: the report of round 3 is out",
                           (chat.Section("Standings after round 3", rows),),
                           ("The report", "https://vpsleuth.example/games/1/rounds/3"))
    body = chat.body(message, "discord")
    assert len(body["content"]) <= 2000
    assert body["content"].endswith("<https://vpsleuth.example/games/1/rounds/3>")
    assert "…" in body["content"] and "Player number 1" in body["content"]
    assert len(chat.body(message, "slack")["text"]) <= 4000
    assert chat.body(message, "matrix")["html"].endswith(
        '<a href="https://vpsleuth.example/games/1/rounds/3">The report</a></p>')
