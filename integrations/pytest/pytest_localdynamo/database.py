"""One worker's database on the server, and putting it back before tests.

With `--per-key-databases` localdynamo keeps a database per access key and
region, named "<access key>/<region>".  Each worker signs its requests with
its own access key, so workers writing the same keys at once never meet.

The database is prepared once per worker: emptied (or given the preloaded
models), then the tables file's tables and data and the seed hook's writes,
then saved as a named snapshot.  Restoring that snapshot (about a
millisecond for small seeds) is the reset before each test or module.  When
nothing is seeded beyond the server's preloaded models, the reset is the
per-database reset instead, which loads the models again.
"""

import os
import re

import boto3
import botocore.session
from botocore.config import Config

from .admin import AdminClient
from .tables import create_tables

SECRET_KEY = "localdynamo"

RESET_MODES = ("test", "module", "session")

# The admin API takes the name in the URL path, as it is (no percent-decoding).
_SNAPSHOT_NAME = re.compile(r"[A-Za-z0-9._-]{1,200}")


def _isolated_botocore_session():
    """A botocore session that reads neither $AWS_PROFILE nor the developer's
    config file: a profile named there that does not exist would make every
    client creation fail, and its settings are not this server's."""
    return botocore.session.Session(session_vars={
        "profile": (None, None, None, None),
        "config_file": (None, None, os.devnull, None),
    })


class LocalDynamoDatabase:
    """What the `localdynamo` fixture gives a test.

    url, namespace, access_key, region: where this worker's data lives.
    client(), resource(), streams_client(): boto3 objects signed with the
    worker's key; region="eu-west-1" reaches the worker's database in one of
    the run's other regions (localdynamo_regions: global tables' replicas).
    snapshot(name) / restore(name): named snapshots of the worker's database
    (names are per worker).  reset(): back to the seed, the other regions
    emptied.  settle_replication(): applies every pending replicated write.
    """

    def __init__(self, url, access_key, region, snapshot_prefix, shared=False, regions=()):
        self.url = url
        self.access_key = access_key
        self.secret_key = SECRET_KEY
        self.region = region
        # None: the server keeps one database for every key (the shared mode),
        # and the admin calls address all of it.
        self.namespace = None if shared else "{}/{}".format(access_key, region)
        # More regions of the worker's own (per-key databases only).
        self.regions = [] if shared else [r for r in regions if r != region]
        self.admin = AdminClient(url)
        self._snapshot_prefix = snapshot_prefix
        self._seed_snapshot = None
        self._reset_models = True
        self._taken = set()
        self._last_module = None
        self._session = boto3.session.Session(aws_access_key_id=access_key,
                                              aws_secret_access_key=SECRET_KEY,
                                              region_name=region,
                                              botocore_session=_isolated_botocore_session())

    # -- boto3 -------------------------------------------------------------

    def client(self, service_name="dynamodb", region=None, **kwargs):
        if region is not None:
            kwargs.setdefault("region_name", region)
        kwargs.setdefault("endpoint_url", self.url)
        kwargs.setdefault("config", Config(retries={"max_attempts": 3}))
        return self._session.client(service_name, **kwargs)

    def streams_client(self, **kwargs):
        return self.client("dynamodbstreams", **kwargs)

    def resource(self, region=None, **kwargs):
        if region is not None:
            kwargs.setdefault("region_name", region)
        kwargs.setdefault("endpoint_url", self.url)
        kwargs.setdefault("config", Config(retries={"max_attempts": 3}))
        return self._session.resource("dynamodb", **kwargs)

    # -- preparing and resetting -------------------------------------------

    def prepare(self, tables, models, seed_hook):
        """Bring the database to its starting state and remember how to get
        back to it.  tables: entries of the tables file (or None); models:
        whether the preloaded models belong in it; seed_hook: the
        pytest_localdynamo_seed hook caller, or None when nobody implements it."""
        client = self.client()
        # A database is created, and given the models, on its first request;
        # make that happen now so that the reset below has the last word.
        client.list_tables(Limit=1)
        self._reset_models = models
        self.admin.reset(self._reset_namespace(), models=models)
        self._reset_other_regions()
        if not tables and seed_hook is None:
            return  # reset() is the per-database reset
        if tables:
            create_tables(client, self.resource(), tables)
        if seed_hook is not None:
            seed_hook(localdynamo=self)
        self._seed_snapshot = self._snapshot_prefix + "seed"
        self.admin.snapshot(self._seed_snapshot, self.namespace)
        self._taken.add(self._seed_snapshot)

    @property
    def seed_snapshot(self):
        return self._seed_snapshot

    def adopt(self, seed_snapshot, models):
        """Take over a database another process prepared (the xdist
        controller, in shared mode): reset to its snapshot, which this
        process does not own."""
        self._seed_snapshot = seed_snapshot
        self._reset_models = models

    def reset(self):
        """Put the database back to how prepare() left it."""
        self._reset_other_regions()
        if self._seed_snapshot:
            return self.admin.restore(self._seed_snapshot, self.namespace)
        return self.admin.reset(self._reset_namespace(), models=self._reset_models)

    def namespace_of(self, region):
        """The worker's database in `region`, as the admin API names it."""
        return self.namespace if region == self.region else "{}/{}".format(self.access_key, region)

    def settle_replication(self):
        """Applies every replicated write still pending, in every region (what
        a test awaits instead of the replication delay): {"Applied": n}."""
        return self.admin.call("POST", "/replication/settle", {})

    def _reset_other_regions(self):
        # Each starts empty (or with the models), whatever a test made there.
        for region in self.regions:
            self.client(region=region).list_tables(Limit=1)
            self.admin.reset(self.namespace_of(region), models=self._reset_models)

    def before_test(self, module, mode):
        """Reset when the mode says so: before every test, before the first
        test of each module (as this worker meets them), or never."""
        if mode == "test" or (mode == "module" and module != self._last_module):
            self.reset()
        self._last_module = module

    def _reset_namespace(self):
        # The shared database is namespace "" for the per-database reset; a
        # whole reset (None) would also reload models regardless of `models`.
        return "" if self.namespace is None else self.namespace

    # -- named snapshots for tests -----------------------------------------

    def snapshot(self, name):
        """Save this worker's database as `name` (replacing an earlier one)."""
        full = self._full_name(name)
        answer = self.admin.snapshot(full, self.namespace)
        self._taken.add(full)
        return answer

    def restore(self, name):
        """Put this worker's database back to snapshot `name`."""
        return self.admin.restore(self._full_name(name), self.namespace)

    def delete_snapshot(self, name):
        full = self._full_name(name)
        self._taken.discard(full)
        return self.admin.delete_snapshot(full)

    def _full_name(self, name):
        if not isinstance(name, str) or not _SNAPSHOT_NAME.fullmatch(name):
            raise ValueError("snapshot names are 1 to 200 letters, digits, '.', '_' or '-': "
                             "{!r}".format(name))
        return self._snapshot_prefix + name

    def close(self):
        """Drop the snapshots this worker took (they live in the server's
        memory, which matters when the server outlives the run)."""
        for name in sorted(self._taken):
            try:
                self.admin.delete_snapshot(name)
            except Exception:  # the server may already be gone; nothing to keep
                pass
        self._taken.clear()
