"""A linearizability checker for histories of per-key registers.

A history is a list of Op: one client's call on one key, with the time it was
invoked and the time its answer came (time.monotonic()), and what it did:

  read         -> the value seen (None: the item was absent)
  write(v)     -> ok                 (PutItem; v None: DeleteItem)
  cas(e, v)    -> ok | fail          (a conditional update: v if the value is e)

and how it ended (`outcome`):

  "ok"         it took effect, with the result recorded
  "fail"       a cas whose condition was false: it saw a value other than e
  "error"      refused before it took effect (throttled, conflict, ...)
  "unknown"    no answer (timeout, dropped connection, a 500): it may have
               taken effect at any moment after its invocation, or never

The history is linearizable if every op that took effect can be given one
moment between its invocation and its answer at which it happened, in an
order that a single register would explain. Registers of different keys are
independent, so each key is checked on its own (P-compositionality): a
history is linearizable exactly when each key's sub-history is.

Per key the search is Wing & Gong's: walk the history in time order, try to
linearize an op whose call precedes the first pending answer, backtrack when
an answer comes whose op could not be placed. Lowe's memoization prunes it:
a configuration (which ops are linearized, the register's value) reached once
need not be explored again. An unknown op gets no answer event (its answer
time is infinite), so it may be placed anywhere after its call, or never.

Unknown ops are what makes the search expensive (each may or may not have
happened), so three sound reductions keep it small:
  - values no read or cas condition mentions are all alike (canonical_values);
  - unknown ops alike in kind and values are counted, not told apart, and a
    configuration with fewer of them placed covers one with more (_Reached);
    known ops are tried first, so the covering one tends to come first;
  - an unknown op is placed only where it changes the value and the next op
    looks at the value (advance): otherwise leaving it out works as well.
"""

from dataclasses import dataclass

READ, WRITE, CAS = "read", "write", "cas"
OK, FAIL, ERROR, UNKNOWN = "ok", "fail", "error", "unknown"


@dataclass(frozen=True)
class Op:
    client: object
    key: object
    kind: str          # READ, WRITE or CAS
    invoke: float
    ret: object        # answer time; None (or anything) when outcome is UNKNOWN
    value: object = None     # read: the value seen; write: written; cas: the new value
    expected: object = None  # cas: the value it compared with
    outcome: str = OK

    def __str__(self):
        what = {READ: "read -> {!r}".format(self.value),
                WRITE: "write({!r})".format(self.value),
                CAS: "cas({!r} -> {!r})".format(self.expected, self.value)}[self.kind]
        end = "?" if self.outcome == UNKNOWN or self.ret is None else "{:.6f}".format(self.ret)
        return "client {} {} {} [{:.6f}, {}]".format(self.client, what, self.outcome,
                                                     self.invoke, end)


def read(client, key, invoke, ret, seen, outcome=OK):
    return Op(client, key, READ, invoke, ret, value=seen, outcome=outcome)


def write(client, key, invoke, ret, value, outcome=OK):
    return Op(client, key, WRITE, invoke, ret, value=value, outcome=outcome)


def cas(client, key, invoke, ret, expected, new, outcome):
    return Op(client, key, CAS, invoke, ret, value=new, expected=expected, outcome=outcome)


@dataclass
class Result:
    ok: bool
    key: object = None       # the offending key (the one with the fewest ops)
    explanation: str = ""
    ops: tuple = ()          # the ops the explanation is about

    def __bool__(self):
        return self.ok


def check(history):
    """Checks every key's register; names the failing key with the fewest ops."""
    by_key = {}
    for op in history:
        validate(op)
        by_key.setdefault(op.key, []).append(op)
    failures = [check_key(key, ops) for key, ops in by_key.items()]
    failures = [f for f in failures if not f.ok]
    if not failures:
        return Result(True)
    return min(failures, key=lambda f: (len(by_key[f.key]), repr(f.key)))


def validate(op):
    if op.kind not in (READ, WRITE, CAS):
        raise ValueError("unknown op kind: {}".format(op))
    if op.outcome not in (OK, FAIL, ERROR, UNKNOWN):
        raise ValueError("unknown outcome: {}".format(op))
    if op.outcome == FAIL and op.kind != CAS:
        raise ValueError("only a cas can fail its condition: {}".format(op))
    if op.outcome != UNKNOWN and (op.ret is None or op.ret < op.invoke):
        raise ValueError("an answered op needs a return time after its call: {}".format(op))


# ---------------------------------------------------------------------------
# Preparing one key's history
# ---------------------------------------------------------------------------

def relevant(ops):
    """The ops that can constrain the register. An op refused before it took
    effect (error) changed nothing and saw nothing; a read without an answer
    saw nothing we know of. Either could be linearized anywhere as a no-op,
    so leaving it out changes no verdict."""
    return [op for op in ops
            if op.outcome != ERROR and not (op.kind == READ and op.outcome == UNKNOWN)]


class _Junk:
    """Stands for every value no op ever compares with (see canonical_values)."""

    def __repr__(self):
        return "<a value nobody read>"


JUNK = _Junk()


def canonical_values(ops):
    """A map value -> value the search uses. Only reads and cas conditions
    look at the register, so values none of them mentions behave alike:
    they all become JUNK. Fewer distinct states means fewer configurations
    to remember, and unknown writes of unread values become interchangeable."""
    observed = set()
    for op in ops:
        if op.kind == READ:
            observed.add(op.value)
        elif op.kind == CAS:
            observed.add(op.expected)
    return lambda v: v if v in observed else JUNK


class _Prepared:
    """One op as the search sees it: canonical values and its place in a
    configuration. A known op owns one bit of the `known` bitset. Unknown ops
    of the same kind with the same canonical arguments are interchangeable
    once called (neither has to happen, either may happen at any later
    moment), so a configuration says how many of each such class are placed,
    not which: the class owns the bits shift.. of the `unknown` bitset (mask
    wide), filled from the low end, one bit per placed op; "fewer placed in
    every class" is then "a subset of the bits"."""
    __slots__ = ("op", "kind", "value", "expected", "outcome", "unknown", "bit", "shift",
                 "mask")


def prepare(ops):
    canon = canonical_values(ops)
    prepared, classes, known = [], {}, 0
    for op in ops:
        p = _Prepared()
        p.op, p.kind, p.outcome = op, op.kind, op.outcome
        p.value, p.expected = canon(op.value), canon(op.expected)
        p.unknown = op.outcome == UNKNOWN
        p.bit = p.shift = p.mask = 0
        if p.unknown:
            classes.setdefault((p.kind, p.value, p.expected), []).append(p)
        else:
            p.bit, known = 1 << known, known + 1
        prepared.append(p)
    shift = 0
    for members in classes.values():
        for p in members:
            p.shift, p.mask = shift, (1 << len(members)) - 1
        shift += len(members)
    return prepared, canon(None)


def place_unknown(unknown, p):
    """The `unknown` bitset with one more op of p's class placed: the class's
    field 0..01..1 gets one more 1."""
    field = (unknown >> p.shift) & p.mask
    return unknown | ((field + 1) << p.shift)


# ---------------------------------------------------------------------------
# The register model
# ---------------------------------------------------------------------------

IMPOSSIBLE = object()


def step(state, p):
    """The register's value after op p at value `state`, or IMPOSSIBLE when p's
    recorded result contradicts that value."""
    if p.kind == READ:
        return state if state == p.value else IMPOSSIBLE
    if p.kind == WRITE:
        return p.value
    matches = state == p.expected
    if p.unknown:  # the result was not seen: either branch is fine
        return p.value if matches else state
    if p.outcome == OK:
        return p.value if matches else IMPOSSIBLE
    return state if not matches else IMPOSSIBLE  # FAIL


# ---------------------------------------------------------------------------
# The history as a doubly linked list of call and return events
# ---------------------------------------------------------------------------

class _Event:
    __slots__ = ("index", "is_call", "match", "prev", "next")

    def __init__(self, index, is_call):
        self.index, self.is_call = index, is_call
        self.match = self.prev = self.next = None


def event_list(prepared):
    """The events in time order behind a sentinel head. At equal times calls
    come first: the clock cannot tell those ops apart, so they are treated as
    concurrent rather than ordered (the lenient reading). Unknown ops have
    no return event: their answer never comes."""
    timed = []
    for i, p in enumerate(prepared):
        call = _Event(i, True)
        timed.append((p.op.invoke, 0, i, call))
        if not p.unknown:
            call.match = _Event(i, False)
            timed.append((p.op.ret, 1, i, call.match))
    timed.sort(key=lambda t: t[:3])
    head = _Event(-1, False)
    last = head
    for *_, event in timed:
        last.next, event.prev = event, last
        last = event
    return head


def lift(call):
    """Takes a linearized op's call and return out of the list."""
    for e in (call, call.match):
        if e is not None:
            e.prev.next = e.next
            if e.next is not None:
                e.next.prev = e.prev


def unlift(call):
    """Puts them back (in the reverse order, as the stack unwinds)."""
    for e in (call.match, call):
        if e is not None:
            e.prev.next = e
            if e.next is not None:
                e.next.prev = e


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------

def check_key(key, ops):
    """Wing & Gong's search with Lowe's memo over one key's register.

    The candidates to place next are the calls before the first answer still
    in the list. Each is tried in two passes, known ops first, then unknown
    ones: a configuration reached with fewer unknown ops placed covers those
    with more (_Reached), so reaching it first prunes them."""
    prepared, initial = prepare(relevant(ops))
    head = event_list(prepared)
    total = pending = sum(1 for p in prepared if not p.unknown)  # known ops still to place
    config = (0, 0, initial, False)
    stack, reached = [], _Reached()
    deepest = _Deepest()
    event, unknown_pass = head.next, False
    while pending:
        if event.is_call:
            p = prepared[event.index]
            placed = None if p.unknown != unknown_pass else advance(config, p)
            if placed is not None and reached.add(placed):
                stack.append((event, config, unknown_pass))
                config = placed
                pending -= not p.unknown
                lift(event)
                event, unknown_pass = head.next, False
                continue
            event = event.next
        elif not unknown_pass:
            event, unknown_pass = head.next, True
        else:
            # An answer came for an op we could not place before it: undo
            # the last choice and try the next candidate after it.
            deepest.note(total - pending, stack, event)
            if not stack:
                return deepest.failure(key, ops, prepared)
            event, config, unknown_pass = stack.pop()
            unlift(event)
            pending += not prepared[event.index].unknown
            event = event.next
    return Result(True, key)


def advance(config, p):
    """The configuration after placing op p, or None when p cannot go next.

    A configuration is (known ops placed: a bit each, unknown ops placed:
    counts per class, the register's value, whether the next op must look at
    the value). It is all the future depends on, so it is what the memo keeps.
    """
    known, unknown, state, must_look = config
    if must_look and p.kind == WRITE:
        # The unknown op placed last would be overwritten unseen: any
        # linearization with it there also works without it, so only
        # orders in which each placed unknown op is looked at are searched.
        return None
    new = step(state, p)
    if new is IMPOSSIBLE:
        return None
    if p.unknown:
        # An unknown op that changes nothing is better left unplaced: it
        # stays available for later, and placing it proves nothing.
        return None if new == state else (known, place_unknown(unknown, p), new, True)
    return (known | p.bit, unknown, new, False)


class _Reached:
    """Lowe's memo: the configurations the search has reached. A configuration
    is covered by a reached one with the same known ops placed, the same value
    and flag, and no more unknown ops of any class placed: every move open to
    it is open to the reached one too (the unknown ops it placed are called,
    so still available there), hence it can succeed only if that one can."""

    def __init__(self):
        self.unknowns = {}  # (known, value, must_look) -> the unknown bitsets reached

    def add(self, config):
        """Records config; False if a reached configuration covers it."""
        known, unknown, state, must_look = config
        reached = self.unknowns.setdefault((known, state, must_look), [])
        if any(other & ~unknown == 0 for other in reached):  # other's ops a subset
            return False
        reached.append(unknown)
        return True


class _Deepest:
    """Remembers the furthest the search got, for the failure's explanation."""

    def __init__(self):
        self.depth = -1
        self.order = []
        self.stuck = None

    def note(self, depth, stack, event):
        """`depth`: how many known ops are placed when the answer `event`
        came for an op that could not be placed."""
        if depth > self.depth:
            self.depth, self.stuck = depth, event.index
            self.order = [e.index for e, *_ in stack]

    def failure(self, key, ops, prepared):
        stuck = prepared[self.stuck].op
        placed = [prepared[i].op for i in self.order]
        around = [p.op for p in prepared
                  if p.op is not stuck and overlaps(p.op, stuck)]
        lines = ["key {!r}: not linearizable ({} ops).".format(key, len(ops))]
        if placed:
            lines.append("At best {} ops take effect in an order a register explains; the "
                         "last of them:".format(len(placed)))
            lines += ["  " + str(op) for op in placed[-4:]]
        lines.append("{}this op cannot take effect (the register held {!r}):".format(
            "then " if placed else "", value_after(placed)))
        lines.append("  " + str(stuck))
        wanted = stuck.value if stuck.kind == READ else stuck.expected
        writers = [op for op in ops if op.kind != READ and op.value == wanted][:4]
        if writers:
            lines.append("the value it {} was written by:".format(
                "read" if stuck.kind == READ else "compared with"))
            lines += ["  " + str(op) for op in writers]
        if around:
            lines.append("ops concurrent with it:")
            lines += ["  " + str(op) for op in sorted(around, key=lambda o: o.invoke)[:12]]
        involved = tuple(dict.fromkeys(placed[-4:] + [stuck] + writers + around))
        return Result(False, key, "\n".join(lines), involved)


def value_after(placed):
    """The register's value, in the ops' own values, after ops placed in
    this order (a placed cas took effect unless it failed)."""
    value = None
    for op in placed:
        if op.kind == WRITE or (op.kind == CAS and op.outcome != FAIL):
            value = op.value
    return value


def overlaps(a, b):
    """Whether two ops' intervals meet (an unknown op's never ends)."""
    a_end = float("inf") if a.outcome == UNKNOWN else a.ret
    b_end = float("inf") if b.outcome == UNKNOWN else b.ret
    return a.invoke <= b_end and b.invoke <= a_end
