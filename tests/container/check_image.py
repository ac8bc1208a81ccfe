#!/usr/bin/env python3
"""End-to-end test of the built localdynamo container image.

Run by scripts/container-test.sh once buildah has built the image. It runs the
image the way a container engine would — its entrypoint and command, as its
configured user, with its /data volume — through
`buildah run`, whose chroot isolation shares the host's network, and checks:

- the image's configuration: non-root user, port 8000, the /data volume, the
  HEALTHCHECK command, listening on 0.0.0.0, and its size;
- the server in the container answers boto3, and the preloaded models of
  fixtures/ are there (when the repository has model folders);
- its process runs as the unprivileged user, and the HEALTHCHECK command
  answers 0 while it serves and 1 once it is gone;
- data written in persistent mode lands in the /data volume, owned by that
  user, and survives a restart over the same volume, the second run started
  with a DynamoDB Local command line (`-jar DynamoDBLocal.jar -sharedDb
  -dbPath /data ...`);
- the image's /bin/sh (static busybox) runs the internal port checks of
  Testcontainers' default wait strategy, as Java and Go send them (one
  `/bin/sh -c`) and as Node sends them (each part apart), answering 0 for
  the server's port and non-zero for a closed one; and a stream trigger's
  "Command" runs in the image and receives its batch.

buildah mounts a directory of its own for an image's VOLUME, over any `-v`
bind at the same path, and keeps it with the container; so the restart is a
second `buildah run` of the same container, as `docker restart` would be.

Prints what it measured: image size, start to first answered request, and
the server's memory once started.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import boto3
from botocore.config import Config

REPO_ROOT = Path(__file__).resolve().parents[2]
MAX_IMAGE_BYTES = 40 * 1000 * 1000
START_DEADLINE_S = 30.0
FIXTURES_IN_IMAGE = "usr/share/localdynamo/fixtures"


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class Buildah:
    def __init__(self, driver):
        self.base = ["buildah", "--storage-driver", driver]

    def command(self, *args):
        return self.base + list(args)

    def __call__(self, *args):
        result = subprocess.run(self.command(*args), capture_output=True, text=True)
        check(result.returncode == 0,
              "buildah {} failed: {}".format(" ".join(args), result.stderr.strip()))
        return result.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants_named(root_pid, name):
    """Pids below root_pid (at any depth) whose command name is `name`."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path("/proc", entry, "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            parents[int(entry)] = (int(fields[1]), stat[stat.index("(") + 1:stat.rindex(")")])
    found = []
    for pid, (_, comm) in parents.items():
        ancestor = pid
        while ancestor in parents and ancestor != root_pid:
            ancestor = parents[ancestor][0]
        if ancestor == root_pid and comm == name and pid != root_pid:
            found.append(pid)
    return found


class Run:
    """One `buildah run` of a container of the image with the given arguments."""

    def __init__(self, buildah, container, argv, log_dir):
        self.buildah = buildah
        self.container = container
        self.log_path = Path(log_dir, "{}-{}.log".format(container, time.monotonic_ns()))
        with open(self.log_path, "wb") as log:
            self.started = time.monotonic()
            self.proc = subprocess.Popen(
                buildah.command("run", "--isolation", "chroot", container, "--", *argv),
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def log(self):
        return self.log_path.read_text(errors="replace")

    def wait_answering(self, url):
        """Seconds from `buildah run` to the first 200 answer of GET /."""
        while time.monotonic() - self.started < START_DEADLINE_S:
            check(self.proc.poll() is None,
                  "the container exited ({}):\n{}".format(self.proc.returncode, self.log()))
            try:
                with urllib.request.urlopen(url + "/", timeout=1) as answer:
                    if answer.status == 200:
                        return time.monotonic() - self.started
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.005)
        raise AssertionError("no answer within {} s:\n{}".format(START_DEADLINE_S, self.log()))

    def server_pid(self):
        pids = descendants_named(self.proc.pid, "localdynamo")
        check(len(pids) == 1, "expected one localdynamo process, found {}".format(pids))
        return pids[0]

    def server_uid(self):
        status = Path("/proc", str(self.server_pid()), "status").read_text()
        uid_line = next(line for line in status.splitlines() if line.startswith("Uid:"))
        return [int(u) for u in uid_line.split()[1:]]

    def resident_kb(self):
        status = Path("/proc", str(self.server_pid()), "status").read_text()
        return int(next(line for line in status.splitlines()
                        if line.startswith("VmRSS:")).split()[1])

    def check_data_in_volume(self, uid):
        """/data is a mount of its own (the volume), and the database files in
        it belong to the server's user."""
        pid = self.server_pid()
        mount_points = [line.split()[4] for line in
                        Path("/proc", str(pid), "mountinfo").read_text().splitlines()]
        check("/data" in mount_points, "/data is not a volume mount: {}".format(mount_points))
        data = Path("/proc", str(pid), "root", "data")
        check((data / "CURRENT").is_file(), "no database in the volume")
        owners = {p.stat().st_uid for p in data.rglob("*")} | {data.stat().st_uid}
        check(owners == {uid}, "files in the volume owned by {}".format(owners))

    def exec_in_image(self, *argv):
        """Runs a command in a second container of the same image."""
        other = self.buildah("from", "--pull-never", self.image_id())
        try:
            return subprocess.run(
                self.buildah.command("run", "--isolation", "chroot", other.strip(), "--", *argv),
                capture_output=True, text=True, timeout=60)
        finally:
            self.buildah("rm", other.strip())

    def image_id(self):
        info = json.loads(self.buildah("inspect", "--type", "container", self.container))
        return info["FromImageID"]

    def stop(self):
        """SIGTERM to the server, as `docker stop` sends it to the container's
        first process (buildah itself would pass on only a SIGKILL); answers
        the exit code."""
        os.kill(self.server_pid(), signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("the container ignored SIGTERM:\n" + self.log())
        return code

    def kill_if_running(self):
        if self.proc.poll() is None:
            # Killing buildah alone would leave the server it started running.
            for pid in descendants_named(self.proc.pid, "localdynamo"):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.proc.kill()
            self.proc.wait()


def image_config(buildah, image):
    info = json.loads(buildah("inspect", "--type", "image", image))
    return info["Docker"]["config"], info


def image_size(buildah, image):
    """Bytes, from buildah's "16.9 MB" (decimal units)."""
    images = json.loads(buildah("images", "--json", image))
    number, unit = images[0]["size"].split()
    scale = {"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9}[unit]
    return int(float(number) * scale)


def check_config(config, uid):
    check(config.get("User") == "{0}:{0}".format(uid), "User is {!r}".format(config.get("User")))
    check(not config["User"].startswith("0") and config["User"] != "root", "runs as root")
    check("8000/tcp" in (config.get("ExposedPorts") or {}), "8000 not exposed")
    check("/data" in (config.get("Volumes") or {}), "/data is not a volume")
    health = (config.get("Healthcheck") or {}).get("Test")
    check(health == ["CMD", "/usr/local/bin/localdynamo", "--healthcheck"],
          "HEALTHCHECK is {!r}".format(health))
    entrypoint = config.get("Entrypoint") or []
    check(entrypoint[entrypoint.index("--host") + 1] == "0.0.0.0", "does not listen on 0.0.0.0")


def fixture_tables():
    """TableName of every model folder's tables/*.json in the repository."""
    names = set()
    for path in REPO_ROOT.glob("fixtures/*/tables/*.json"):
        if not path.name.endswith(".ttl.json"):
            names.add(json.loads(path.read_text())["TableName"])
    return names


def client_for(url):
    return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                        aws_access_key_id="AKIDCONTAINER", aws_secret_access_key="x",
                        config=Config(retries={"max_attempts": 1}))


def all_tables(client):
    return set(client.get_paginator("list_tables").paginate().build_full_result()["TableNames"])


def check_fixtures_in_image(buildah, container):
    mount = Path(buildah("mount", container).strip())
    try:
        in_image = sorted(str(p.relative_to(mount / FIXTURES_IN_IMAGE))
                          for p in (mount / FIXTURES_IN_IMAGE).rglob("*"))
    finally:
        buildah("umount", container)
    in_repo = sorted(str(p.relative_to(REPO_ROOT / "fixtures"))
                     for p in (REPO_ROOT / "fixtures").rglob("*"))
    check(in_image == in_repo, "fixtures in the image differ: {} vs {}".format(in_image, in_repo))


def port_check_commands(port):
    """Testcontainers' internal port checks for `port`: Java's single
    command (Go's differs only in the hex padding and /bin/sh for bash), then
    Node's first, the one of its three (run apart, bound if any answers 0)
    this image answers: Debian's busybox `nc` has no -v or -z, and there is
    no bash, so `nc -vz …` and `/bin/bash -c '</dev/tcp/…'` always fail here,
    as Java's and Go's fall-backs after /proc/net/tcp do."""
    java = ("true &&  (cat /proc/net/tcp* | awk '{{print $2}}' | grep -i ':0*{hex}' || "
            "nc -vz -w 1 localhost {port} || "
            "/bin/bash -c '</dev/tcp/localhost/{port}')").format(hex="%x" % port, port=port)
    node = [["/bin/sh", "-c", "cat /proc/net/tcp* | awk '{print $2}' | grep -i :%04x" % port]]
    return [["/bin/sh", "-c", java]] + node


def check_shell_and_command_triggers(buildah, container, config, log_dir):
    """An in-memory run that allows command triggers: Testcontainers' port
    checks from a second container of the image, then a trigger whose
    Command (run by /bin/sh in the image) writes its batch to a file."""
    port = free_port()
    url = "http://127.0.0.1:{}".format(port)
    token = "check-image-token"
    argv = (config.get("Entrypoint") or []) + ["-inMemory", "--no-models", "-port", str(port),
                                                "--allow-command-triggers", "--admin-token", token]
    run = Run(buildah, container, argv, log_dir)
    try:
        run.wait_answering(url)
        # Now, before the trigger's command: a child of the server is named
        # like it between its fork and its exec.
        server_root = Path("/proc", str(run.server_pid()), "root")
        for command in port_check_commands(port):
            result = run.exec_in_image(*command)
            check(result.returncode == 0, "port check {!r} answered {}: {}{}".format(
                command[-1], result.returncode, result.stdout, result.stderr))
        closed = free_port()
        for command in port_check_commands(closed):
            result = run.exec_in_image(*command)
            check(result.returncode != 0, "port check {!r} found the closed port {}".format(
                command[-1], closed))
        client = client_for(url)
        client.create_table(TableName="shell-check",
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            BillingMode="PAY_PER_REQUEST",
                            StreamSpecification={"StreamEnabled": True,
                                                 "StreamViewType": "NEW_IMAGE"})
        trigger = {"Name": "to-file", "TableName": "shell-check",
                   "Command": "cat > /tmp/batch.json.part && mv /tmp/batch.json.part /tmp/batch.json",
                   "StartingPosition": "TRIM_HORIZON"}
        def add_trigger(headers):
            return urllib.request.Request(url + "/_localdynamo/triggers",
                                          data=json.dumps(trigger).encode(), method="POST",
                                          headers=dict({"Content-Type": "application/json"}, **headers))
        try:
            urllib.request.urlopen(add_trigger({}), timeout=5)
            check(False, "the admin API took a trigger without the --admin-token")
        except urllib.error.HTTPError as refused:
            check(refused.code == 401, "without the token: HTTP {}".format(refused.code))
        with urllib.request.urlopen(add_trigger({"Authorization": "Bearer " + token}),
                                    timeout=5) as answer:
            check(answer.status in (200, 201), "adding the trigger: HTTP {}".format(answer.status))
        client.put_item(TableName="shell-check", Item={"pk": {"S": "through-sh"}})
        delivered = server_root / "tmp" / "batch.json"
        deadline = time.monotonic() + START_DEADLINE_S
        while not delivered.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        check(delivered.exists(), "the Command trigger delivered nothing:\n" + run.log())
        event = json.loads(delivered.read_text())
        check(event["Records"][0]["dynamodb"]["NewImage"] == {"pk": {"S": "through-sh"}},
              "the Command trigger got {}".format(event))
        wait_for_one_server(run)
        code = run.stop()
        check(code == 0, "exit code {} after SIGTERM:\n{}".format(code, run.log()))
    finally:
        run.kill_if_running()


def wait_for_one_server(run):
    """Until the trigger's command has exec'd /bin/sh and exited."""
    deadline = time.monotonic() + START_DEADLINE_S
    while len(descendants_named(run.proc.pid, "localdynamo")) != 1:
        check(time.monotonic() < deadline, "the trigger's command never finished")
        time.sleep(0.05)


def check_admin_read_only(url):
    """Listening on 0.0.0.0 without a token, the admin API answers reads and
    refuses changes: another job on the CI network cannot reset this one."""
    with urllib.request.urlopen(url + "/_localdynamo/clock", timeout=5) as answer:
        check(answer.status == 200, "GET /_localdynamo/clock: HTTP {}".format(answer.status))
    request = urllib.request.Request(url + "/_localdynamo/reset", data=b"{}", method="POST")
    try:
        urllib.request.urlopen(request, timeout=5)
        check(False, "the image's admin API took a reset without a token")
    except urllib.error.HTTPError as refused:
        error_type = json.loads(refused.read()).get("__type", "")
        check(refused.code == 403 and error_type.endswith("#AdminApiReadOnlyException"),
              "a reset without a token: HTTP {} {}".format(refused.code, error_type))


def first_run(buildah, container, config, uid, log_dir):
    """The image as `docker run` starts it, plus a port of our own."""
    port = free_port()
    url = "http://127.0.0.1:{}".format(port)
    argv = (config.get("Entrypoint") or []) + (config.get("Cmd") or []) + ["-port", str(port)]
    run = Run(buildah, container, argv, log_dir)
    try:
        startup = run.wait_answering(url)
        print("server memory after start (RSS): {:.1f} MB".format(run.resident_kb() / 1024))
        uids = run.server_uid()
        check(all(u == uid for u in uids), "the server runs with uids {}".format(uids))
        run.check_data_in_volume(uid)
        health = run.exec_in_image(*config["Healthcheck"]["Test"][1:], url + "/")
        check(health.returncode == 0, "HEALTHCHECK failed: " + health.stderr)
        check_fixtures_in_image(buildah, run.container)
        client = client_for(url)
        tables = all_tables(client)
        expected = fixture_tables()
        check(expected <= tables, "preloaded tables missing: {}".format(expected - tables))
        if (REPO_ROOT / "fixtures" / "lambda-layers").is_dir():
            check("lambda-layers" in tables, "the lambda-layers model is not loaded")
        check_admin_read_only(url)
        client.create_table(TableName="container-check",
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            BillingMode="PAY_PER_REQUEST")
        client.put_item(TableName="container-check",
                        Item={"pk": {"S": "survivor"}, "n": {"N": "42"}})
        code = run.stop()
        check(code == 0, "exit code {} after SIGTERM:\n{}".format(code, run.log()))
        after = run.exec_in_image(*config["Healthcheck"]["Test"][1:], url + "/")
        check(after.returncode == 1, "HEALTHCHECK answered {} with no server".format(
            after.returncode))
        return startup, tables
    finally:
        run.kill_if_running()


def second_run(buildah, container, config, tables_before, log_dir):
    """A DynamoDB Local command line over the same volume."""
    port = free_port()
    url = "http://127.0.0.1:{}".format(port)
    argv = (config.get("Entrypoint") or []) + [
        "-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar", "-sharedDb",
        "-dbPath", "/data", "-port", str(port)]
    run = Run(buildah, container, argv, log_dir)
    try:
        startup = run.wait_answering(url)
        client = client_for(url)
        item = client.get_item(TableName="container-check", Key={"pk": {"S": "survivor"}},
                               ConsistentRead=True).get("Item")
        check(item == {"pk": {"S": "survivor"}, "n": {"N": "42"}},
              "the item did not survive the restart: {}".format(item))
        tables = all_tables(client)
        check(tables == tables_before | {"container-check"},
              "tables after the restart: {} (before: {})".format(tables, tables_before))
        code = run.stop()
        check(code == 0, "exit code {} after SIGTERM:\n{}".format(code, run.log()))
        return startup
    finally:
        run.kill_if_running()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--image", required=True)
    parser.add_argument("--storage-driver", default="vfs")
    parser.add_argument("--uid", type=int, default=1000)
    options = parser.parse_args()
    buildah = Buildah(options.storage_driver)

    config, _ = image_config(buildah, options.image)
    check_config(config, options.uid)
    size = image_size(buildah, options.image)
    print("image size: {:.1f} MB".format(size / 1e6))
    check(size < MAX_IMAGE_BYTES, "the image is {} bytes, over 40 MB".format(size))

    container = buildah("from", "--pull-never", options.image).strip()
    try:
        with tempfile.TemporaryDirectory(prefix="localdynamo-logs-") as log_dir:
            startup, tables = first_run(buildah, container, config, options.uid, log_dir)
            print("start to first answer (buildah run, empty volume): {:.0f} ms".format(
                startup * 1e3))
            restart = second_run(buildah, container, config, tables, log_dir)
            print("start to first answer (restart over the volume): {:.0f} ms".format(
                restart * 1e3))
        shell_container = buildah("from", "--pull-never", options.image).strip()
        try:
            with tempfile.TemporaryDirectory(prefix="localdynamo-logs-") as log_dir:
                check_shell_and_command_triggers(buildah, shell_container, config, log_dir)
            print("Testcontainers' port checks and a Command trigger work in the image")
        finally:
            buildah("rm", shell_container)
    finally:
        buildah("rm", container)
    print("container image checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("container test FAILED: {}".format(e), file=sys.stderr)
        sys.exit(1)
