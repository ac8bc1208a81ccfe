"""The web console's HTTP side: browsers asking for GET / get the page,
every other client keeps the health answer; the page's files come from the
binary under /_localdynamo/console/; --no-console turns it off. (What the
console does is tested in a real browser: tests/browser.)"""

import urllib.error
import urllib.request

import pytest

from .server_util import run_server

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def get(url, accept=None, method="GET"):
    request = urllib.request.Request(url, method=method)
    if accept:
        request.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


@pytest.fixture
def own_server(external_endpoint):
    if external_endpoint:
        pytest.skip("starts its own server")


def test_a_browser_gets_the_console_page(server_url, own_server):
    status, headers, body = get(server_url + "/", BROWSER_ACCEPT)
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert '<script type="module" src="/_localdynamo/console/app.js">' in body


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_other_clients_keep_the_health_answer(server_url, accept):
    status, headers, body = get(server_url + "/", accept)
    assert status == 200
    assert headers["Content-Type"] == "text/plain"
    assert body.startswith("healthy: ")


@pytest.mark.parametrize("name,content_type", [
    ("app.js", "text/javascript; charset=utf-8"),
    ("api.js", "text/javascript; charset=utf-8"),
    ("console.css", "text/css; charset=utf-8"),
    ("index.html", "text/html; charset=utf-8"),
])
def test_the_console_files_are_served_by_the_binary(server_url, own_server, name, content_type):
    status, headers, body = get(server_url + "/_localdynamo/console/" + name)
    assert status == 200
    assert headers["Content-Type"] == content_type
    assert len(body) > 100


def test_no_external_resources_are_referenced(server_url, own_server):
    for name in ("index.html", "app.js", "api.js", "clock.js", "editor.js", "items.js",
                 "streams.js", "tables.js", "util.js", "console.css"):
        body = get(server_url + "/_localdynamo/console/" + name)[2]
        assert "http://" not in body and "https://" not in body, name
        assert "@import" not in body and "url(" not in body, name


def test_unknown_console_files_and_other_methods(server_url, own_server):
    assert get(server_url + "/_localdynamo/console/nothing.js")[0] == 404
    assert get(server_url + "/_localdynamo/console/../clock")[0] == 404
    assert get(server_url + "/_localdynamo/console/app.js", method="DELETE")[0] == 405


def test_no_console_turns_it_off(own_server):
    with run_server("--in-memory", "--no-console") as server:
        status, headers, body = get(server.url + "/", BROWSER_ACCEPT)
        assert status == 200 and body.startswith("healthy: ")
        assert get(server.url + "/_localdynamo/console/app.js")[0] == 404
        # The admin API stays on.
        assert get(server.url + "/_localdynamo/clock")[0] == 200
