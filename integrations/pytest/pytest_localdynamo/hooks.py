"""The plugin's own hook, for conftest.py files."""


def pytest_localdynamo_seed(localdynamo):
    """Write the data every test starts from, once per worker.

    Called after the tables file's tables (and their "data") exist in this
    worker's database and before the plugin takes the snapshot that is
    restored before each test (or module).  `localdynamo` is the worker's
    LocalDynamoDatabase: use localdynamo.client() / localdynamo.resource().
    """
