"""The environment a test sees, so that a plain `boto3.client("dynamodb")` in
the code under test reaches this worker's database with no arguments.

AWS_ENDPOINT_URL_DYNAMODB is how current SDKs are pointed at another
endpoint.  botocore reads it from 1.31.57 on (boto3 1.28.57); older ones
(Debian bookworm ships 1.29) get a small shim that does the same for the two
DynamoDB services: a client created without endpoint_url takes it from the
variable.
"""

import os

import boto3
import botocore
import botocore.session

# Variables that would steer boto3 elsewhere: a profile (possibly one that does
# not exist here), a session token that belongs to other keys.
_REMOVED = ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
            "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE")

# botocore service name -> the suffix of its AWS_ENDPOINT_URL_<SERVICE> variable
# (the service id, upper case, spaces as underscores).
_ENDPOINT_VARIABLES = {"dynamodb": "DYNAMODB", "dynamodbstreams": "DYNAMODB_STREAMS"}


def session_environment(url, access_key, secret_key, region):
    """The variables to set; None means unset."""
    values = {name: None for name in _REMOVED}
    values.update({
        "AWS_ENDPOINT_URL_DYNAMODB": url,
        "AWS_ENDPOINT_URL_DYNAMODB_STREAMS": url,
        "AWS_ACCESS_KEY_ID": access_key,
        "AWS_SECRET_ACCESS_KEY": secret_key,
        "AWS_REGION": region,
        "AWS_DEFAULT_REGION": region,
        "AWS_EC2_METADATA_DISABLED": "true",
    })
    return values


class EnvironmentPatch:
    """Sets variables for the session and puts the old values back after it."""

    def __init__(self, values):
        self._values = values
        self._saved = None

    def apply(self):
        self._saved = {name: os.environ.get(name) for name in self._values}
        _assign(self._values)
        # boto3's default session caches the credentials it found first.
        boto3.DEFAULT_SESSION = None

    def undo(self):
        if self._saved is not None:
            _assign(self._saved)
            self._saved = None
            boto3.DEFAULT_SESSION = None


def _assign(values):
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def botocore_reads_endpoint_variables():
    version = tuple(int(p) if p.isdigit() else 0 for p in botocore.__version__.split(".")[:3])
    return version >= (1, 31, 57)


def install_endpoint_shim():
    """On botocore < 1.31.57, make Session.create_client honour
    AWS_ENDPOINT_URL_DYNAMODB(_STREAMS) and AWS_ENDPOINT_URL as later ones do
    (an explicit endpoint_url still wins; AWS_IGNORE_CONFIGURED_ENDPOINT_URLS
    turns it off).  Idempotent."""
    if botocore_reads_endpoint_variables():
        return
    original = botocore.session.Session.create_client
    if getattr(original, "_localdynamo_shim", False):
        return

    def create_client(self, service_name, *args, **kwargs):
        # endpoint_url is create_client's sixth parameter (fifth after the name).
        if kwargs.get("endpoint_url") is None and len(args) < 5:
            endpoint = configured_endpoint(service_name)
            if endpoint:
                kwargs["endpoint_url"] = endpoint
        return original(self, service_name, *args, **kwargs)

    create_client._localdynamo_shim = True
    create_client.__wrapped__ = original
    botocore.session.Session.create_client = create_client


def configured_endpoint(service_name):
    suffix = _ENDPOINT_VARIABLES.get(service_name)
    if suffix is None:
        return None
    if os.environ.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() == "true":
        return None
    return os.environ.get("AWS_ENDPOINT_URL_" + suffix) or os.environ.get("AWS_ENDPOINT_URL")
