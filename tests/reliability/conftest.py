"""Fixtures of the reliability suite (tests/reliability/README.md)."""

from e2e.e2e_util import isolate_from_user_aws_config

isolate_from_user_aws_config()
