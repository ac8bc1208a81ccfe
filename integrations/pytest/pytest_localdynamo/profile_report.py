"""The end of a run: the run's access profile (GET /_localdynamo/profile,
docs/profile.md) written as localdynamo-profile.json and .html, and the
user's rules checked against it.  Called at the session's finish (in the
xdist controller, after every worker ended) before the server stops; the
messages it returns fail the run."""

import json
import os
import urllib.parse
from pathlib import Path

from .admin import AdminClient, AdminError
from .profile_html import render_html
from .profile_rules import check_rules, figure
from .profile_summary import run_only, summarize

DEFAULT_PREFIX = "localdynamo-profile"
_OFF = ("", "0", "off", "false", "no", "none")


def report_prefix(setting, directory):
    """Where the two files go, <prefix>.json and <prefix>.html (relative to
    `directory`, the run's working directory); None: not written.
    $LOCALDYNAMO_PROFILE_REPORT wins over `setting`."""
    given = os.environ.get("LOCALDYNAMO_PROFILE_REPORT", setting)
    if given is None or str(given).strip().lower() in _OFF:
        return None
    given = str(given)
    for suffix in (".json", ".html"):
        if given.endswith(suffix):
            given = given[:-len(suffix)]
    return Path(directory, given)


def reset_profile(url, namespace=None):
    """Start the profile afresh (for one database: its seed written), so that
    the report counts the tests' requests.  A server without the profile
    (older, or --no-profile) has nothing to reset."""
    query = "" if namespace is None else "?namespace=" + urllib.parse.quote(namespace, safe="")
    try:
        AdminClient(url).call("DELETE", "/profile" + query)
    except (AdminError, OSError):
        pass


def profile_at_end(url, region, prefix, rules, includes, write):
    """The broken rules' messages ([]: every rule kept).  `includes(namespace)`:
    whether a database is this run's; `write(line)`: where the summary line
    goes."""
    if prefix is None and not rules:
        return []
    try:
        answer = AdminClient(url).call(
            "GET", "/profile?region=" + urllib.parse.quote(region, safe=""))
    except (AdminError, OSError) as e:
        why = "localdynamo profile: the server gave no profile ({})".format(e)
        if rules:
            return [why + "; the rules cannot be checked"]
        write(why + "; no report written")
        return []
    summary = summarize(answer, includes)
    outcome = check_rules(rules, summary)
    if prefix is not None:
        prefix.parent.mkdir(parents=True, exist_ok=True)
        json_path = prefix.with_name(prefix.name + ".json")
        json_path.write_text(json.dumps(run_only(answer, includes), indent=2) + "\n",
                             encoding="utf-8")
        prefix.with_name(prefix.name + ".html").write_text(render_html(summary, outcome),
                                                           encoding="utf-8")
        totals = summary["totals"]
        shown = os.path.relpath(prefix)  # inside the working directory; else in full
        if shown.startswith(".."):
            shown = str(prefix)
        write("localdynamo profile: {} requests, {} read and {} write units, cost {} {}: "
              "{}.{{json,html}}".format(
                  figure(totals["requests"]), figure(totals["readUnits"]),
                  figure(totals["writeUnits"]), figure(totals["cost"]),
                  summary["prices"].get("Currency", "USD"), shown))
    broken = [message for _, messages in outcome for message in messages]
    if rules and not broken:
        write("localdynamo profile: {} rules kept".format(len(rules)))
    return broken
