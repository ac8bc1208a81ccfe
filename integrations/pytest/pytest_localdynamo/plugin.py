"""pytest plugin (entry point `pytest11`): a localdynamo for the test session,
a database of its own for each pytest-xdist worker, reset before each test.

Who starts the server:
* under pytest-xdist (-n N), the controller, once, when it sets up the first
  worker; the workers get its address through xdist's workerinput;
* without xdist, the test process itself, on first use;
* nobody, when --localdynamo-url / $LOCALDYNAMO_URL / localdynamo_url names
  a running server (which needs --per-key-databases for per-worker isolation).
"""

import os
import uuid

import pytest

from . import hooks
from .admin import AdminError
from .database import RESET_MODES, LocalDynamoDatabase
from .environment import EnvironmentPatch, install_endpoint_shim, session_environment
from .profile_report import DEFAULT_PREFIX, profile_at_end, report_prefix, reset_profile
from .profile_rules import RuleError, parse_rules
from .server import LocalDynamoServer, ServerError, find_binary, packaged_binary
from .tables import load_tables

ISOLATION_MODES = ("worker", "shared")

# The fixtures whose use makes a test a localdynamo test when autouse is off.
_OUR_FIXTURES = ("localdynamo", "localdynamo_url", "dynamodb_client", "dynamodb_resource",
                 "dynamodb_streams_client")

_STATE = pytest.StashKey()


def pytest_addhooks(pluginmanager):
    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser):
    group = parser.getgroup("localdynamo")
    group.addoption("--localdynamo-bin", dest="localdynamo_bin", default=None,
                    help="localdynamo binary to start (else $LOCALDYNAMO_BIN, the "
                         "localdynamo_bin ini value, the localdynamo package's binary, "
                         "or localdynamo on PATH)")
    group.addoption("--localdynamo-url", dest="localdynamo_url", default=None,
                    help="use this running localdynamo instead of starting one "
                         "(else $LOCALDYNAMO_URL or the localdynamo_url ini value)")
    group.addoption("--localdynamo-reset", dest="localdynamo_reset", default=None,
                    choices=RESET_MODES,
                    help="when each worker's database goes back to its seed: before "
                         "every test (default), before each module, or never")
    group.addoption("--localdynamo-isolation", dest="localdynamo_isolation", default=None,
                    choices=ISOLATION_MODES,
                    help="worker: a database per xdist worker (default); shared: one "
                         "database for all, safe only in a serial run")
    group.addoption("--localdynamo-profile-report", dest="localdynamo_profile_report",
                    default=None, metavar="PATH",
                    help="where the run's access profile is written at its end, as PATH.json "
                         "and PATH.html (default localdynamo-profile); off: not written")
    group.addoption("--localdynamo-rule", dest="localdynamo_rules", action="append", default=[],
                    metavar="RULE",
                    help="a rule the run's access profile must keep, else the run fails: "
                         "noScan:TABLE, maxFilterWaste:0.5[:TABLE], maxCost:0.01[:TABLE] "
                         "(repeatable)")
    parser.addini("localdynamo_bin", "localdynamo binary to start", default="")
    parser.addini("localdynamo_url", "a running localdynamo to use instead", default="")
    parser.addini("localdynamo_tables",
                  "JSON or .py file of CreateTable inputs (with optional \"data\" items) "
                  "each worker's database starts with; relative to the ini file",
                  default="")
    parser.addini("localdynamo_models",
                  "auto|true|false: whether databases hold the preloaded models "
                  "(auto: only when no localdynamo_tables is given)", default="auto")
    parser.addini("localdynamo_args", "extra arguments for the started server",
                  type="args", default=[])
    parser.addini("localdynamo_region", "region of the workers' clients", default="us-east-1")
    parser.addini("localdynamo_regions",
                  "more regions each worker's tests use (global tables' replicas), "
                  "each a database of the worker's own", type="args", default=[])
    parser.addini("localdynamo_reset", "test|module|session (default test)", default="test")
    parser.addini("localdynamo_isolation", "worker|shared (default worker)", default="worker")
    parser.addini("localdynamo_autouse",
                  "every test gets the environment and the reset, not only those "
                  "using a localdynamo fixture or marker", type="bool", default=True)
    parser.addini("localdynamo_profile_report",
                  "where the run's access profile is written (PATH.json, PATH.html), relative "
                  "to the working directory; off: not written", default=DEFAULT_PREFIX)
    parser.addini("localdynamo_profile_rules",
                  "rules the run's access profile must keep, one a line: noScan:TABLE, "
                  "maxFilterWaste:0.5[:TABLE], maxCost:0.01[:TABLE]", type="linelist", default=[])


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "localdynamo(reset=None): a test using localdynamo (needed when "
        "localdynamo_autouse is false); reset='test'|'module'|'session' overrides "
        "when its database is reset")
    install_endpoint_shim()
    config.stash[_STATE] = SessionState(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist controller: start the one server (first worker) and tell each
    worker where it is."""
    state = node.config.stash[_STATE]
    node.workerinput["localdynamo_url"] = state.url()
    node.workerinput["localdynamo_own"] = state.server is not None
    node.workerinput["localdynamo_run"] = state.run_id
    if state.isolation == "shared":
        node.workerinput["localdynamo_prepared"] = state.prepare_shared()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    state = session.config.stash[_STATE]
    state.close_database()  # the xdist controller's, in shared mode
    write = _line_writer(session.config)
    broken = state.profile_at_end(write)
    for message in broken:
        write(message, red=True)
    if broken and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    problem = state.stop_server()
    if problem:
        write(problem, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _line_writer(config):
    """Writes a line of its own, after the progress dots and percentage
    (which under xdist the terminal reporter does not track)."""
    writer = config.get_terminal_writer()

    def write(line, **markup):
        if writer.width_of_current_line:
            writer.line()
        writer.line(line, **markup)
    return write


def pytest_report_header(config):
    state = config.stash[_STATE]
    return "localdynamo: {}, isolation {}, reset {}".format(
        state.external_url or state.binary_description(), state.isolation, state.reset_mode)


class SessionState:
    """What one pytest process knows about localdynamo."""

    def __init__(self, config):
        self.config = config
        # What the xdist controller told this worker ({} when not a worker).
        self._workerinput = getattr(config, "workerinput", None) or {}
        self.worker = self._workerinput.get("workerid", "main")
        self.run_id = self._workerinput.get("localdynamo_run") or uuid.uuid4().hex[:8]
        self.external_url = (config.getoption("localdynamo_url")
                             or os.environ.get("LOCALDYNAMO_URL")
                             or config.getini("localdynamo_url")
                             or self._workerinput.get("localdynamo_url") or None)
        # Whether the URL handed down by the controller is a server it started.
        self._own_url = bool(self._workerinput.get("localdynamo_own"))
        self.isolation = _choice(config.getoption("localdynamo_isolation")
                                 or config.getini("localdynamo_isolation"),
                                 ISOLATION_MODES, "localdynamo_isolation")
        self.reset_mode = _choice(config.getoption("localdynamo_reset")
                                  or config.getini("localdynamo_reset"),
                                  RESET_MODES, "localdynamo_reset")
        self.autouse = config.getini("localdynamo_autouse")
        tables = config.getini("localdynamo_tables")
        base = config.inipath.parent if config.inipath else config.rootpath
        self.tables_path = (base / tables) if tables else None
        models = config.getini("localdynamo_models").strip().lower()
        if models not in ("auto", "true", "false"):
            raise pytest.UsageError("localdynamo_models must be auto, true or false")
        self.models = (not self.tables_path) if models == "auto" else models == "true"
        self.profile_report = (config.getoption("localdynamo_profile_report")
                               or config.getini("localdynamo_profile_report"))
        try:
            self.profile_rules = parse_rules(config.getini("localdynamo_profile_rules")
                                             + config.getoption("localdynamo_rules"))
        except RuleError as e:
            raise pytest.UsageError(str(e)) from None
        self.server = None
        self.database = None
        self._environment = None

    # -- the server --------------------------------------------------------

    def configured_binary(self):
        """The binary the options name, or None (then: the localdynamo
        package's, else PATH). A relative
        ini value is relative to the ini file."""
        given = self.config.getoption("localdynamo_bin") or os.environ.get("LOCALDYNAMO_BIN")
        if given:
            return given
        from_ini = self.config.getini("localdynamo_bin")
        if from_ini and self.config.inipath and not os.path.isabs(from_ini):
            return str(self.config.inipath.parent / from_ini)
        return from_ini or None

    def binary_description(self):
        return self.configured_binary() or packaged_binary() or "localdynamo on PATH"

    def url(self):
        if self.external_url:
            return self.external_url.rstrip("/")
        if self.server is None:
            args = ["--in-memory"]
            if self.isolation == "worker":
                args.append("--per-key-databases")
            if not self.models:
                args.append("--no-models")
            args += self.config.getini("localdynamo_args")
            try:
                binary = find_binary(self.configured_binary())
                self.server = LocalDynamoServer(binary, args).start()
            except ServerError as e:
                # Nothing can run without it: stop the session with the reason.
                pytest.exit(str(e), returncode=pytest.ExitCode.USAGE_ERROR)
        return self.server.url

    def stop_server(self):
        """Stop the server this process started; a message if it did not
        stop cleanly."""
        if self.server is None:
            return None
        server, self.server = self.server, None
        code = server.stop()
        if code != 0:
            return "localdynamo exited with code {} after SIGTERM\n{}".format(
                code, server.log_tail())
        server.remove_log()
        return None

    # -- the access profile -------------------------------------------------

    def _run_includes(self):
        """Whether a database (its namespace) is this run's: all of them on a
        server this run started; else those its keys name (and, in shared
        mode, the server's one shared database)."""
        if self.server is not None:
            return lambda namespace: True
        prefix = "pytest-{}-".format(self.run_id)
        shared = self.isolation == "shared"
        return lambda namespace: namespace.startswith(prefix) or (shared and namespace == "")

    def profile_at_end(self, write):
        """The report and the rules, once per run: in the process that holds
        the run's server (the xdist controller, or the only process), when
        there was one.  Returns the broken rules' messages."""
        if self._workerinput or (self.server is None and not self.external_url):
            return []
        try:
            given = []
            for rules in self.config.hook.pytest_localdynamo_profile_rules(config=self.config):
                # One rule alone counts as a list of one.
                given += [rules] if isinstance(rules, (dict, str)) else list(rules or [])
            rules = self.profile_rules + parse_rules(given)
            return profile_at_end(
                self.url(), self.config.getini("localdynamo_region"),
                report_prefix(self.profile_report, self.config.invocation_params.dir),
                rules, self._run_includes(), write)
        except Exception as e:  # the server still has to stop; the run fails with the reason
            return [str(e) if isinstance(e, RuleError)
                    else "localdynamo profile: {}: {}".format(type(e).__name__, e)]

    def _reset_profile_after_seed(self, database):
        # The report counts the tests' requests, not the seed's; a server
        # other runs share keeps their profile (shared mode: left as is).
        if database.namespace is not None:
            reset_profile(database.url, database.namespace)
        elif self.server is not None:
            reset_profile(database.url)

    # -- this worker's database --------------------------------------------

    def open_database(self):
        """This process's database, prepared (or, in shared mode under xdist,
        adopted from the controller, which prepared the one database)."""
        if self.database is None:
            database = self._new_database()
            prepared = self._workerinput.get("localdynamo_prepared")
            if prepared is not None:
                database.adopt(prepared["snapshot"], self.models)
            else:
                self._prepare(database)
            self.database = database
        return self.database

    def open_for_tests(self):
        """open_database(), and the environment pointing plain boto3 at it."""
        database = self.open_database()
        if self._environment is None:
            self._environment = EnvironmentPatch(session_environment(
                database.url, database.access_key, database.secret_key, database.region))
            self._environment.apply()
        return database

    def prepare_shared(self):
        """xdist controller, shared mode: seed the one database once, before
        any worker runs; the workers then only restore it."""
        database = self.open_database()
        return {"snapshot": database.seed_snapshot}

    def _new_database(self):
        url = self.url()
        # Keys are per run when the server is not this run's own, so that two
        # runs against one server do not share databases.
        # In shared mode everyone uses one key, so that a server with
        # --per-key-databases is shared too.
        own = self.server is not None or self._own_url
        name = "SHARED" if self.isolation == "shared" else self.worker.upper()
        worker = name if own else "{}-{}".format(self.run_id, name)
        return LocalDynamoDatabase(
            url, access_key="pytest-" + worker, region=self.config.getini("localdynamo_region"),
            snapshot_prefix="pytest-{}-{}-".format(self.run_id, self.worker),
            shared=self.isolation == "shared", regions=self.config.getini("localdynamo_regions"))

    def _prepare(self, database):
        tables = load_tables(self.tables_path) if self.tables_path else None
        seed = self.config.hook.pytest_localdynamo_seed
        try:
            database.prepare(tables, self.models, seed if seed.get_hookimpls() else None)
            self._reset_profile_after_seed(database)
        except AdminError as e:
            if e.status == 404 and "/snapshots" in str(e):
                raise pytest.UsageError(
                    "this localdynamo has no named snapshots (/_localdynamo/snapshots); "
                    "use a newer build: {}".format(e)) from None
            raise

    def close_database(self):
        if self._environment is not None:
            self._environment.undo()
            self._environment = None
        if self.database is not None:
            self.database.close()
            self.database = None

    def reset_mode_for(self, item):
        marker = item.get_closest_marker("localdynamo")
        mode = marker.kwargs.get("reset") if marker else None
        return _choice(mode, RESET_MODES, "@pytest.mark.localdynamo(reset=...)") \
            if mode else self.reset_mode

    def applies_to(self, item):
        return (self.autouse or item.get_closest_marker("localdynamo") is not None
                or any(name in _OUR_FIXTURES for name in getattr(item, "fixturenames", ())))


def _choice(value, allowed, what):
    value = str(value).strip().lower()
    if value not in allowed:
        raise pytest.UsageError("{} must be one of {}, not {!r}".format(
            what, ", ".join(allowed), value))
    return value


# --------------------------------------------------------------------------
# Fixtures
# --------------------------------------------------------------------------

@pytest.fixture(scope="session")
def localdynamo_url(pytestconfig):
    """The endpoint URL of the server in use."""
    return pytestconfig.stash[_STATE].url()


@pytest.fixture(scope="session")
def localdynamo(pytestconfig):
    """This worker's database (LocalDynamoDatabase), prepared and seeded;
    the environment points plain boto3 clients at it while the session runs."""
    state = pytestconfig.stash[_STATE]
    database = state.open_for_tests()
    yield database
    state.close_database()


@pytest.fixture(scope="session")
def dynamodb_client(localdynamo):
    """A boto3 DynamoDB client for this worker's database."""
    return localdynamo.client()


@pytest.fixture(scope="session")
def dynamodb_resource(localdynamo):
    """A boto3 DynamoDB service resource for this worker's database."""
    return localdynamo.resource()


@pytest.fixture(scope="session")
def dynamodb_streams_client(localdynamo):
    """A boto3 DynamoDB Streams client for this worker's database."""
    return localdynamo.streams_client()


@pytest.fixture(autouse=True)
def _localdynamo_before_test(request):
    state = request.config.stash[_STATE]
    if state.applies_to(request.node):
        database = request.getfixturevalue("localdynamo")
        module = getattr(request.node, "module", None)
        database.before_test(module.__name__ if module else str(request.node.path),
                             state.reset_mode_for(request.node))
    yield
