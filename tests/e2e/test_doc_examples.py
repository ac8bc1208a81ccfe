"""The examples in README.md and docs/*.md, run as a reader would run them.

Every fenced block in those files carries an HTML comment on the line just
above it that says what it is:

  <!-- example -->                      run it: sh with bash, python with
                                        python3, js with node (an ES module
                                        that finds tests/js/node_modules)
  <!-- example: OPTIONS -->             run it, with OPTIONS separated by ";":
      server ARGS                       against a server started with ARGS
                                        (default: --in-memory)
      no server                         without a server
      file NAME                         the block is a file: written to NAME
                                        in the working directory before the
                                        server starts (with e.g. `server
                                        --triggers NAME`); not executed
      expect TEXT                       its standard output contains TEXT
  <!-- example: not run here: PATHS -->  cannot run on a test machine (docker,
                                        npm or pip from a registry, brew ...);
                                        PATHS, comma-separated, name the tests
                                        that cover it, and must exist
  <!-- text ... -->                     not a command or program (a diagram,
                                        output); no language on its fence
  <!-- quick-start ... -->              the README's quick start
                                        (tests/e2e/test_quickstart.py), run
                                        here too

A new unmarked block fails test_every_block_is_marked.  A block runs in a
fresh temporary directory holding tests/e2e/data/docs/, with HOME empty, the
AWS_* variables of the quick start set, `localdynamo` on PATH meaning the
binary under test, and `localhost:8000` (also `127.0.0.1:8000`, `--port
8000`) rewritten to the test server's port.  Examples that depend on time
freeze the emulator's clock themselves, as a reader's test must.
"""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .e2e_util import EXTERNAL_URL, REPO_ROOT
from .server_util import ServerProcess, free_port, server_binary

# The design documents are not user documentation and hold no examples.
DESIGN_DOCS = {"architecture.md", "storage.md", "compatibility.md"}
DOC_FILES = [REPO_ROOT / "README.md"] + sorted(
    p for p in (REPO_ROOT / "docs").glob("*.md") if p.name not in DESIGN_DOCS)
DATA_DIR = Path(__file__).resolve().parent / "data" / "docs"
JS_MODULES = REPO_ROOT / "tests" / "js" / "node_modules"
README_LIMIT_BYTES = 12000
BLOCK_TIMEOUT_S = 60

FENCE = re.compile(r"^\s*```(\S*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*(example|text|quick-start)\b(.*?)-->\s*$")
RUNNERS = {"sh": "bash", "bash": "bash", "python": "python", "js": "node"}


class Block:
    def __init__(self, path, line, lang, body, marker):
        self.path, self.line, self.lang, self.body = path, line, lang, body
        self.kind = marker.group(1) if marker else None
        rest = marker.group(2).strip() if marker else ""
        self.rest = rest[1:].strip() if rest.startswith(":") else rest
        self.not_run = self.kind == "example" and self.rest.startswith("not run here:")
        self.options = [] if self.not_run or self.kind != "example" else [
            o.strip() for o in self.rest.split(";") if o.strip()]

    @property
    def where(self):
        return "{}:{}".format(self.path.relative_to(REPO_ROOT), self.line)

    def option(self, name):
        return [o[len(name):].strip() for o in self.options if o.startswith(name + " ")]

    def covering_paths(self):
        text = re.sub(r"\([^)]*\)", "", self.rest[len("not run here:"):])
        return [part.split()[0] for part in text.split(",") if part.split()]


def read_blocks(path):
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not re.match(r"^\s*```\s*$", lines[end]):
            end += 1
        assert end < len(lines), "{}:{}: unclosed fence".format(path, i + 1)
        marker = MARKER.match(lines[i - 1]) if i > 0 else None
        blocks.append(Block(path, i + 1, opening.group(1), "\n".join(lines[i + 1:end]) + "\n",
                            marker))
        i = end + 1
    return blocks


ALL_BLOCKS = [b for path in DOC_FILES for b in read_blocks(path)]
RUN_BLOCKS = [b for b in ALL_BLOCKS
              if b.kind == "quick-start" or (b.kind == "example" and not b.not_run)]


def test_every_block_is_marked():
    unmarked = [b.where for b in ALL_BLOCKS if b.kind is None]
    assert not unmarked, (
        "fenced blocks without <!-- example -->, <!-- example: not run here: TEST --> "
        "or <!-- text --> on the line above: {}".format(", ".join(unmarked)))


def test_every_example_can_be_run_and_text_blocks_are_not_programs():
    wrong = []
    for b in ALL_BLOCKS:
        if b in RUN_BLOCKS and not b.option("file") and b.lang not in RUNNERS:
            wrong.append("{}: ```{} has no runner (sh, python, js) and is no `file`".format(
                b.where, b.lang))
        if b.kind == "text" and b.lang not in ("", "text"):
            wrong.append("{}: a text block with language {}".format(b.where, b.lang))
    assert not wrong, "\n".join(wrong)


def test_not_run_markers_name_existing_tests():
    wrong = []
    for b in ALL_BLOCKS:
        if not b.not_run:
            continue
        paths = b.covering_paths()
        if not paths:
            wrong.append("{}: names no test".format(b.where))
        wrong += ["{}: {} does not exist".format(b.where, p)
                  for p in paths if not (REPO_ROOT / p).exists()]
    assert not wrong, "\n".join(wrong)


def test_the_readme_stays_short():
    size = len((REPO_ROOT / "README.md").read_bytes())
    assert size < README_LIMIT_BYTES, "README.md is {} bytes; move detail to docs/".format(size)


def test_the_readme_links_every_page():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    unlinked = [p.name for p in sorted((REPO_ROOT / "docs").glob("*.md"))
                if "(docs/{})".format(p.name) not in readme]
    assert not unlinked, "README.md links no docs page named " + ", ".join(unlinked)


def slug(heading):
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_pages_resolve():
    anchors = {}
    for path in [REPO_ROOT / "README.md"] + sorted((REPO_ROOT / "docs").glob("*.md")):
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        anchors[path.resolve()] = {slug(h) for h in re.findall(r"^#+\s+(.*)$", text, re.M)}
    broken = []
    for path in DOC_FILES:
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (path.parent / file_part).resolve() if file_part else path.resolve()
            if not resolved.exists():
                broken.append("{}: {} (no such file)".format(path.name, target))
            elif anchor and anchor not in anchors.get(resolved, set()):
                broken.append("{}: {} (no such heading)".format(path.name, target))
    assert not broken, "\n".join(broken)


# --------------------------------------------------------------------------
# Running the examples
# --------------------------------------------------------------------------

def on_port(text, port):
    for old in ("localhost:8000", "127.0.0.1:8000"):
        text = text.replace(old, "{}:{}".format(old.split(":")[0], port))
    return text.replace("--port 8000", "--port {}".format(port))


def reader_env(workdir, port):
    home = workdir / ".home"
    bin_dir = workdir / ".bin"
    home.mkdir()
    bin_dir.mkdir()
    (bin_dir / "localdynamo").symlink_to(server_binary().resolve())
    tools = [str(bin_dir)]
    for tool in ("node", "aws"):
        # Debian's AWS CLI first, as the README's machine has it; the node the
        # set-up put first on PATH (scripts/node-env.sh: Debian's 18 is older
        # than the JS SDK the examples import supports).
        debian = "/usr/bin/" + tool
        if tool == "aws" and os.access(debian, os.X_OK):
            found = debian
        else:
            found = shutil.which(tool) or (debian if os.access(debian, os.X_OK) else None)
        if found and str(Path(found).parent) not in tools:
            tools.append(str(Path(found).parent))
    return {
        "HOME": str(home),
        "PATH": ":".join(tools + ["/usr/bin", "/bin"]),
        "LANG": "C.UTF-8",
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_REGION": "us-east-1",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL_DYNAMODB": "http://localhost:{}".format(port),
    }


def command_for(block, workdir, source):
    runner = RUNNERS[block.lang]
    if runner == "bash":
        (workdir / "example.sh").write_text("set -e\n" + source)
        return ["bash", "example.sh"]
    if runner == "python":
        (workdir / "example.py").write_text(source)
        return [sys.executable, "example.py"]
    if not JS_MODULES.is_dir():
        pytest.fail("tests/js has no node_modules: run scripts/setup.sh --tests")
    (workdir / "node_modules").symlink_to(JS_MODULES)
    (workdir / "example.mjs").write_text(source)
    return ["node", "example.mjs"]


def run_in_own_group(command, workdir, env):
    """Runs the example; anything it left running in the background (a
    server started with &) is killed with its process group."""
    proc = subprocess.Popen(command, cwd=str(workdir), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=BLOCK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail("example did not finish within {} s\n--- stdout ---\n{}\n--- stderr ---\n{}"
                    .format(BLOCK_TIMEOUT_S, out, err))
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    return proc.returncode, out, err


def server_args(block, workdir):
    given = block.option("server")
    args = shlex.split(given[0]) if given else ["--in-memory"]
    # The server runs in the repository; files the example names are in its directory.
    return [str(workdir / a) if (workdir / a).is_file() else a for a in args]


@pytest.mark.parametrize("block", RUN_BLOCKS, ids=[b.where for b in RUN_BLOCKS])
def test_example(block, tmp_path):
    if EXTERNAL_URL:
        pytest.skip("the examples start servers of their own")
    workdir = tmp_path / "work"
    shutil.copytree(DATA_DIR, workdir)
    for name in block.option("file"):
        (workdir / name).write_text(block.body)

    server = None
    if "no server" not in block.options:
        server = ServerProcess(server_args(block, workdir)).start()
    try:
        port = server.port if server else free_port()
        env = reader_env(workdir, port)
        if block.option("file"):
            code, out, err = 0, "", ""
        else:
            code, out, err = run_in_own_group(command_for(block, workdir, on_port(block.body, port)),
                                              workdir, env)
    finally:
        rc = server.stop() if server else 0
        log = server.log_tail() if server else ""
        if server:
            server.remove_log()
    report = "{}\n--- stdout ---\n{}\n--- stderr ---\n{}\n--- server log ---\n{}".format(
        block.where, out, err, log)
    assert code == 0, report
    for text in block.option("expect"):
        assert text in out, "expected {!r} in the output of {}".format(text, report)
    assert rc == 0, "the server exited with {}: {}".format(rc, report)


def test_the_start_up_lines_are_what_the_server_prints():
    if EXTERNAL_URL:
        pytest.skip("starts a server of its own")
    shown = [b for b in ALL_BLOCKS
             if b.kind == "text" and b.body.startswith("Initializing DynamoDB Local")]
    assert len(shown) == 1, "docs/command-line.md lost the start-up lines"
    server = ServerProcess(["--in-memory"]).start()
    try:
        printed = server.log_tail()
    finally:
        assert server.stop() == 0
        server.remove_log()
    expected = shown[0].body.replace("Port:\t8000", "Port:\t{}".format(server.port))
    assert expected in printed, "the server printed:\n" + printed
