"""The check reporter of the Python driver programs: each check prints one
`ok NAME` or `FAIL NAME: why` line; done() exits non-zero if any failed.
The connection comes from libpq's PG* environment variables, which
tests/integration/drivers.sh sets."""

import os
import sys
import traceback

_failed = []
_prefix = ""


def begin(prefix):
    """Names every following check `prefix/name`."""
    global _prefix
    _prefix = prefix


def _report(name, error, prefixed=True):
    full = f"{_prefix}/{name}" if _prefix and prefixed else name
    if error is None:
        print(f"ok   {full}", flush=True)
    else:
        _failed.append(full)
        print(f"FAIL {full}: {error}", flush=True)


def eq(name, got, want):
    """Passes when got == want and both have the same type."""
    if got == want and type(got) is type(want):
        _report(name, None)
    else:
        _report(name, f"got {got!r} ({type(got).__name__}), want {want!r} ({type(want).__name__})")


def true(name, cond, detail=""):
    _report(name, None if cond else (detail or "condition false"))


def run(name, fn):
    """Runs fn(); an exception fails the check named `name` (and fn's own checks stop)."""
    try:
        fn()
        return True
    except Exception as e:  # the failure is the report
        first = (str(e).strip().splitlines() or [""])[0]
        _report(name, f"{type(e).__name__}: {first}", prefixed=False)
        if os.environ.get("DRIVERS_VERBOSE"):
            traceback.print_exc()
        return False


def done(hard=False):
    """Exits 1 if a check failed; hard=True exits at once, leaving open
    connections unclosed (no Terminate message: the socket just closes)."""
    print(f"{len(_failed)} failed" if _failed else "all checks passed", flush=True)
    code = 1 if _failed else 0
    if hard:
        os._exit(code)
    sys.exit(code)
