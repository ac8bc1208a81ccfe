"""The table and the ExecuteStatement helpers the PartiQL modules share
(test_partiql_statements, test_partiql_indexes,
test_partiql_batch_transactions)."""

import pytest

from .e2e_util import av

VE = "ValidationException"
NO_KEY = "Where clause does not contain a mandatory equality on all key attributes"
MALFORMED = "Statement wasn't well formed, can't be processed: "


@pytest.fixture(scope="module")
def rtbl(tables):
    """Hash key pk (S), range key sk (N)."""
    return tables(range_key=("sk", "N"), prefix="pql-r")


def execute(dynamodb, statement, *params, **kwargs):
    if params:
        kwargs["Parameters"] = [av(p) for p in params]
    return dynamodb.execute_statement(Statement=statement, **kwargs)
