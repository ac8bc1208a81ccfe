"""pytest-localdynamo: pytest fixtures for a localdynamo server, with a
database per pytest-xdist worker (see README.md)."""

from .database import LocalDynamoDatabase

__all__ = ["LocalDynamoDatabase"]
__version__ = "0.1.0"
