"""localdynamo's admin API (/_localdynamo/...), the calls the plugin makes:
reset one database, take, restore, list and delete named snapshots.

Plain urllib: the admin API is unsigned JSON over HTTP, and the plugin should
not depend on more than boto3 and pytest.
"""

import json
import os
import urllib.error
import urllib.parse
import urllib.request

ADMIN_PREFIX = "/_localdynamo"
TIMEOUT_S = 60


class AdminError(RuntimeError):
    """An admin call answered with an error (DynamoDB-style JSON)."""

    def __init__(self, status, error_type, message, path):
        super().__init__("{} {} {}: {}".format(path, status, error_type, message))
        self.status = status
        self.error_type = error_type
        self.message = message


class AdminClient:
    """`token`: the server's --admin-token, sent as a bearer token (default
    $LOCALDYNAMO_ADMIN_TOKEN, which a server the plugin starts inherits)."""

    def __init__(self, url, token=None):
        self.url = url.rstrip("/")
        self.token = token if token is not None else os.environ.get("LOCALDYNAMO_ADMIN_TOKEN", "")

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        request = urllib.request.Request(self.url + ADMIN_PREFIX + path, data=data, method=method,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                raw = response.read()
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                answer = json.loads(raw)
            except ValueError:
                answer = {}
            error_type = str(answer.get("__type", "")).rpartition("#")[2]
            message = answer.get("message") or answer.get("Message") or raw.decode("utf-8", "replace")
            raise AdminError(e.code, error_type, message, path) from None
        return json.loads(raw) if raw.strip() else {}

    def reset(self, namespace=None, models=True):
        """Empty one database (namespace) and load the preloaded models into
        it again, or only empty it (models=False). namespace=None resets every
        database."""
        body = {}
        if namespace is not None:
            body["Namespace"] = namespace
            if not models:
                body["Models"] = False
        return self.call("POST", "/reset", body)

    def snapshot(self, name, namespace=None):
        """Save one database (or, with namespace=None, all of them) as `name`,
        replacing a snapshot of that name."""
        body = {"Name": name}
        if namespace is not None:
            body["Namespace"] = namespace
        return self.call("POST", "/snapshots", body)

    def restore(self, name, namespace=None):
        """Put snapshot `name` back: into where it came from, or (a
        one-database snapshot) into `namespace`."""
        body = {} if namespace is None else {"Namespace": namespace}
        return self.call("POST", "/snapshots/{}/restore".format(_quote(name)), body)

    def snapshots(self):
        return self.call("GET", "/snapshots").get("Snapshots", [])

    def delete_snapshot(self, name):
        return self.call("DELETE", "/snapshots/{}".format(_quote(name)))


def _quote(name):
    return urllib.parse.quote(name, safe="")
