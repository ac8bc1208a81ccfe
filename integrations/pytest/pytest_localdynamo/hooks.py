"""The plugin's own hook, for conftest.py files."""


def pytest_localdynamo_seed(localdynamo):
    """Write the data every test starts from, once per worker.

    Called after the tables file's tables (and their "data") exist in this
    worker's database and before the plugin takes the snapshot that is
    restored before each test (or module).  `localdynamo` is the worker's
    LocalDynamoDatabase: use localdynamo.client() / localdynamo.resource().
    """


def pytest_localdynamo_profile_rules(config):
    """Return rules the run's access profile must keep, else the run fails:
    a list of {"noScan": "Orders"}, {"maxFilterWaste": 0.5, "table": "Orders"},
    {"maxCost": 0.01} (or their text forms, "noScan:Orders").  Called once, at
    the session's finish (in the xdist controller), beside the
    localdynamo_profile_rules ini lines and --localdynamo-rule options; every
    implementation's rules count.
    """
