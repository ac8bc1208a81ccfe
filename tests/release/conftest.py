"""The release tests run through tests/e2e's helpers (scripts/release-test.sh
puts tests/ on PYTHONPATH)."""

from e2e.e2e_util import isolate_from_user_aws_config

isolate_from_user_aws_config()
