"""The server's admin API (docs/admin-api.md): the test clock, the TTL
sweep and injected faults, which the scenarios drive instead of waiting on
the wall clock."""

import json
import urllib.request


class Admin:
    def __init__(self, url):
        self.base = url + "/_localdynamo/"

    def call(self, path, body=None, method=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data,
                                         method=method or ("POST" if data else "GET"),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            text = answer.read()
        return json.loads(text) if text.strip() else {}

    def freeze_clock(self):
        return self.call("clock", {"Freeze": True})

    def advance_clock(self, seconds):
        return self.call("clock", {"AdvanceSeconds": seconds})

    def now_millis(self):
        return self.call("clock")["NowMillis"]

    def real_time(self):
        return self.call("clock", {"Reset": True, "Freeze": False})

    def sweep(self):
        return self.call("sweep", {})

    def add_fault(self, rule):
        return self.call("faults", rule)

    def clear_faults(self):
        return self.call("faults", method="DELETE")
