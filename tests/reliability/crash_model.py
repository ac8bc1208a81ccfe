"""What the crash-safety writers were told happened, and the checks that the
database after a SIGKILL and restart agrees with it.

Every key belongs to one writer, so a writer knows each of its items'
state; the one request a writer had in flight when the server died is
"pending": it may or may not have happened, but all of it or none of it.
Every item version carries a number unique to its writer, so each state
and each stream record can be told apart.
"""

import copy
import random
import threading

from botocore.exceptions import ClientError

LAYERS = "lambda-layers"  # the preloaded model: two GSIs, a stream, TTL on "ttl"
LEDGER = "crash-ledger"   # ours: a KEYS_ONLY GSI, a vector index and a stream, for cross-table transactions
LAYERS_GSIS = ("pckg-dplySts", "rgn-dplySts")
LEDGER_GSI = "owner-index"
LEDGER_VECTORS = "emb-index"  # EUCLIDEAN over "emb", searched per owner
REGIONS = ("us-east-1", "eu-west-1", "ap-south-1")
STATUSES = ("latest", "deprecated", "beta")
SERVICE_IDENTITY = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}


def ledger_vector_index():
    """The ledger's vector index, in CreateTable's JSON (Debian's boto3
    predates vector indexes: the table is created with a signed raw request)."""
    return {"IndexName": LEDGER_VECTORS, "VectorAttribute": {"AttributeName": "emb"},
            "Dimensions": 3, "DistanceFunction": "EUCLIDEAN",
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "SearchSchema": [{"AttributeName": "owner", "SearchSchemaElementType": "HASH"}]}


def ledger_embedding(version):
    """Each ledger version's vector: a function of its version number."""
    return [int(version) % 997, 1, int(version) % 7]


def ledger_create_request():
    return dict(
        TableName=LEDGER, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "owner", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{"IndexName": LEDGER_GSI,
                                 "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})


def key_of(table, item):
    if table == LAYERS:
        return (table, item["pk"]["S"], item["sk"]["S"])
    return (table, item["pk"]["S"])


def key_json(key):
    if key[0] == LAYERS:
        return {"pk": {"S": key[1]}, "sk": {"S": key[2]}}
    return {"pk": {"S": key[1]}}


class Model:
    """The acknowledged state of every key and the changes that led to it."""

    def __init__(self):
        self.lock = threading.Lock()
        self.items = {}     # key -> item (DynamoDB JSON) or None
        self.changes = {}   # key -> [(old, new, by_ttl)]
        self.pending = {}   # writer id -> [(key, new item or None)]
        self.acknowledged = 0

    def current(self, key):
        with self.lock:
            return copy.deepcopy(self.items.get(key))

    def apply(self, writes, by_ttl=False):
        with self.lock:
            for key, new in writes:
                old = self.items.get(key)
                self.items[key] = new
                self.changes.setdefault(key, []).append((old, new, by_ttl))
            self.acknowledged += len(writes)

    def live(self, table):
        return {k: v for k, v in self.items.items() if k[0] == table and v is not None}


class Writer(threading.Thread):
    """Issues conditional puts, updates, deletes, TTL'd puts and transactions
    on its own keys until the server dies or `stop` is set."""

    def __init__(self, wid, client, model, stop, keys, ttl_base, seed):
        super().__init__(daemon=True)
        self.wid, self.client, self.model, self.stop = wid, client, model, stop
        self.keys, self.ttl_base = keys, ttl_base
        self.rng = random.Random(seed)
        self.version = 0
        self.failure = None

    def next_version(self):
        self.version += 1
        return "{}{:09d}".format(self.wid + 1, self.version)  # no leading zero: canonical

    def layers_key(self):
        return (LAYERS, "w{}#{}".format(self.wid, self.rng.randrange(self.keys)), "v")

    def ledger_key(self):
        return (LEDGER, "w{}#{}".format(self.wid, self.rng.randrange(self.keys)))

    def new_item(self, key, with_ttl):
        item = key_json(key)
        item["ver"] = {"N": self.next_version()}
        if key[0] == LEDGER:
            item["owner"] = {"S": "w{}".format(self.wid)}
            item["emb"] = {"L": [{"N": str(x)} for x in ledger_embedding(item["ver"]["N"])]}
            return item
        n = int(key[1].split("#")[1])
        item["pckg"] = {"S": "p{}".format(n % 5)}
        item["rgn"] = {"S": self.rng.choice(REGIONS)}
        if self.rng.random() < 0.8:  # the rest are missing from both GSIs
            item["dplySts"] = {"S": self.rng.choice(STATUSES)}
        if with_ttl:
            # Always 5 past a multiple of ten: the checker's clock lands on
            # multiples of ten, so no expiry sits on the boundary.
            item["ttl"] = {"N": str(self.ttl_base + 10 * self.rng.randrange(6, 720) + 5)}
        return item

    @staticmethod
    def condition(old):
        if old is None:
            return {"ConditionExpression": "attribute_not_exists(pk)"}
        return {"ConditionExpression": "ver = :v", "ExpressionAttributeValues": {":v": old["ver"]}}

    def run(self):
        try:
            while not self.stop.is_set():
                self.one_operation()
        except ClientError as e:
            self.failure = "{}: {}".format(e.response["Error"].get("Code"), e)
        except Exception:  # the server died mid-request: the write stays pending
            return

    def send(self, writes, call):
        with self.model.lock:
            self.model.pending[self.wid] = writes
        call()
        self.model.apply(writes)
        with self.model.lock:
            del self.model.pending[self.wid]

    def one_operation(self):
        roll = self.rng.random()
        if roll < 0.2:
            return self.transaction()
        key = self.layers_key()
        old = self.model.current(key)
        if old is not None and roll < 0.45:
            return self.update(key, old)
        if old is not None and roll < 0.55:
            return self.send([(key, None)], lambda: self.client.delete_item(
                TableName=LAYERS, Key=key_json(key), **self.condition(old)))
        new = self.new_item(key, with_ttl=roll > 0.75)
        self.send([(key, new)], lambda: self.client.put_item(
            TableName=LAYERS, Item=new, **self.condition(old)))

    def update(self, key, old):
        new = copy.deepcopy(old)
        new["ver"] = {"N": self.next_version()}
        new["dplySts"] = {"S": self.rng.choice(STATUSES)}
        new["cnt"] = {"N": str(int(old.get("cnt", {"N": "0"})["N"]) + 1)}

        def call():
            answer = self.client.update_item(
                TableName=LAYERS, Key=key_json(key),
                UpdateExpression="SET ver = :n, dplySts = :s ADD cnt :one",
                ConditionExpression="ver = :v", ReturnValues="ALL_NEW",
                ExpressionAttributeValues={":n": new["ver"], ":s": new["dplySts"],
                                           ":one": {"N": "1"}, ":v": old["ver"]})
            assert answer["Attributes"] == new, (answer["Attributes"], new)
        self.send([(key, new)], call)

    def transaction(self):
        keys = {self.layers_key(), self.layers_key(), self.ledger_key()}
        tx = "tx-{}-{}".format(self.wid, self.version)
        writes, actions = [], []
        for key in sorted(keys):
            old = self.model.current(key)
            new = self.new_item(key, with_ttl=False)
            new["tx"] = {"S": tx}
            writes.append((key, new))
            actions.append({"Put": dict(TableName=key[0], Item=new, **self.condition(old))})
        self.send(writes, lambda: self.client.transact_write_items(TransactItems=actions))
