"""What the sample's tests start from, shared by conftest.py and the tests."""

import os

# tables.json puts 3 rows into `orders` and visits = 7 into `counters`; the
# seed hook in conftest.py adds SEEDED_ORDERS pending orders of USER#2.
SEEDED_ORDERS = 20
SEED_ROWS = 3 + SEEDED_ORDERS
SEED_PENDING = 1 + SEEDED_ORDERS
SEED_VISITS = 7
# Every item of every table: the orders rows and the one counter.
SEED_ITEMS = SEED_ROWS + 1
# How many times each module's same_keys writes the shared keys ($SAMPLE_ROUNDS:
# more work per test, for timing runs).
ROUNDS = int(os.environ.get("SAMPLE_ROUNDS", "60"))
