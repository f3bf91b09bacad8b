# SPDX-License-Identifier: GPL-2.0
"""The harness's settings: qemu/targets.conf read into TARGETS, COMPILE and
BASES; the Settings of a run (the base that BASE picks, its build directory,
TEST_TIMEOUT), read from the environment once, when a command starts; and the
few helpers every module uses (progress lines, running a command with its
log, digests and stamps).
"""

import argparse
import hashlib
import os
import re
import shlex
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent


JOBS = str(os.cpu_count() or 2)


GIT_ID = {
    "GIT_AUTHOR_NAME": "Debian linux-source", "GIT_AUTHOR_EMAIL": "base@localhost",
    "GIT_COMMITTER_NAME": "harness", "GIT_COMMITTER_EMAIL": "harness@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}


KERNEL_NAME = re.compile(r"patched|vanilla|upto-\d{4}|mutant-[\w-]+|alone-\w+")


MUTANTS = ROOT / "robust/mutants"


# The Debian package of a tool, where it is not the tool's name ("X-gcc" is gcc-X).
PACKAGE_OF = {"qemu-system-x86_64": "qemu-system-x86", "qemu-system-aarch64": "qemu-system-arm",
              "gnuplot": "gnuplot-nox"}


MARK = "# harness: "


MARKER = re.compile(rf"^{MARK}(begin|end) (\S+) ?(.*)$")     # /init's program markers


# The identity the repository's patches carry until their sender exports
# them: nobody can sign off (DCO) as it.
PLACEHOLDER = "Harness Dev <dev@example.org>"


# Mail domains that are nobody's (RFC 2606, RFC 6761)
RESERVED_DOMAIN = re.compile(r"(^|\.)(example(\.(com|net|org))?|invalid|test|localhost)$", re.I)


TEST_TIMEOUT = 600         # seconds a test program may take, unless TEST_TIMEOUT says


class Failure(Exception):
    pass


def progress(what, start=None):
    took = f" ({time.monotonic() - start:.0f}s)" if start is not None else ""
    print(f"  {what}{took}", flush=True)


def shown(path):
    """A path as the user typed it: relative to the repository if it is inside."""
    path = Path(path)
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def package_of(tool):
    m = re.fullmatch(r"(.+)-gcc", tool)
    return PACKAGE_OF.get(tool) or (f"gcc-{m.group(1)}" if m else tool)


def sh(cmd, log=None, cwd=None, env=None, check=True, progress=None, every=60):
    """Run cmd; verbose output goes to log (appended), the tail is shown on failure.
    With a log and progress, progress(seconds, new log text) is printed every
    `every` seconds while cmd runs."""
    full_env = dict(os.environ, **(env or {}))
    if log is None:
        r = subprocess.run(cmd, cwd=cwd, env=full_env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = r.stdout
    else:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a") as f:
            f.write(f"$ {' '.join(shlex.quote(str(c)) for c in cmd)}\n")
            f.flush()
            start, t0 = f.tell(), time.monotonic()
            p = subprocess.Popen(cmd, cwd=cwd, env=full_env, stdout=f, stderr=subprocess.STDOUT)
            while True:
                try:
                    p.wait(timeout=every if progress else None)
                    break
                except subprocess.TimeoutExpired:
                    with open(log, errors="replace") as g:
                        g.seek(start)
                        print(progress(time.monotonic() - t0, g.read()), flush=True)
            r = subprocess.CompletedProcess(cmd, p.returncode)
        out = None
    if check and r.returncode:
        tail = out if out is not None else log.read_text(errors="replace")
        tail = "\n".join(tail.splitlines()[-40:])
        where = f" (log: {log})" if log else ""
        raise Failure(f"command failed{where}: {' '.join(map(str, cmd))}\n{tail}")
    return r if log is not None else out


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()


def stamp_ok(path, value):
    return path.exists() and path.read_text() == value


def write_stamp(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value)


# The fields of each kind of row of targets.conf, after the kind; a target's
# boot arguments may be several words
# What a target's and a compile row's checks column may name
TARGET_CHECKS = ("bisect", "randstruct", "kcsan", "mutants", "differential")
WARNING_CHECKS = ("W=1", "sparse")
ROW_FIELDS = {
    "target": "name karch cross qemu machine cpu console image abis fragments kmalloc-min "
              "checks bootargs",
    "abi": "name debian cc libc flags",
    "compile": "name karch cross defconfig checks",
    "base": "name package series build before-pages",
}


def load_table(text=None):
    """targets.conf: the kernel targets, the user-space ABIs, the compile-only targets,
    the bases."""
    targets, abis, compile_only, bases = {}, {}, [], {}
    if text is None:
        text = (ROOT / "qemu/targets.conf").read_text()
    for n, line in enumerate(text.splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        want = ROW_FIELDS.get(f[0], "").split()
        if not want or len(f) - 1 < len(want):
            raise Failure(f"qemu/targets.conf line {n}: " +
                          (f"a {f[0]} row has {len(want)} fields ({' '.join(want)}), "
                           f"this one {len(f) - 1}" if want else
                           f"unknown row kind {f[0]!r} (one of {', '.join(ROW_FIELDS)})"))
        if f[0] == "target":
            targets[f[1]] = target_row(f, n)
        elif f[0] == "abi":
            abis[f[1]] = {"debian": f[2], "cc": f[3], "libc": f[4],
                          "cflags": [] if f[5] == "-" else f[5:]}
        elif f[0] == "compile":
            compile_only.append((f[1], f[2], "" if f[3] == "-" else f[3],
                                 "" if f[4] == "-" else f[4], names(f[5], WARNING_CHECKS, n)))
        elif f[0] == "base":
            bases[f[1]] = {"package": f[2], "series": ROOT if f[3] == "." else ROOT / f[3],
                           "build": ROOT / ("build" if f[4] == "." else f[4]),
                           "before_pages": f[5]}
    for name, t in targets.items():
        for abi in t["abis"]:
            if abi not in abis:
                raise Failure(f"qemu/targets.conf: target {name}: no abi row {abi!r}")
    return targets, abis, compile_only, bases


def names(field, known, n):
    """A comma-separated column of names from known ("-": none)."""
    got = [] if field == "-" else field.split(",")
    unknown = [x for x in got if x not in known]
    if unknown:
        raise Failure(f"qemu/targets.conf line {n}: unknown check {unknown[0]!r} "
                      f"(one of {', '.join(known)})")
    return got


def target_row(f, n):
    """A kernel target row of targets.conf (its fields f, line n) as a dict."""
    keys = ROW_FIELDS["target"].split()
    t = dict(zip(keys, f[1:]))
    t["bootargs"] = "" if f[len(keys):] == ["-"] else " ".join(f[len(keys):])
    t["cross"] = "" if t["cross"] == "-" else t["cross"]
    t["abis"] = t["abis"].split(",")
    t["fragments"] = t["fragments"].split(",")
    for frag in t["fragments"]:
        if not (ROOT / f"kconfig/{frag}.config").exists():
            raise Failure(f"qemu/targets.conf line {n}: no kconfig/{frag}.config")
    # "N", or "base=N,base=N" where the bases differ
    kmin = [x.rpartition("=") for x in t.pop("kmalloc-min").split(",")]
    if not all(v.isdigit() and (not sep or base) for base, sep, v in kmin):
        raise Failure(f"qemu/targets.conf line {n}: kmalloc-min is a number of bytes, or "
                      "base=bytes for each base")
    t["kmalloc_min"] = {base or "*": int(v) for base, _, v in kmin}
    t["checks"] = names(t["checks"], TARGET_CHECKS, n)
    return t


def packages(compile_rows=False):
    """The Debian packages the base and the table's targets need (kernel
    source, QEMU, compilers, C libraries), or with compile_rows those of its
    compile-only targets"""
    if compile_rows:
        return sorted({package_of(c[2] + "gcc") for c in COMPILE if c[2]})
    want = {settings().source_pkg}      # the kernel source of the run's base
    for t in TARGETS.values():
        want.add(package_of(t["qemu"]))
        if t["cross"]:
            want.add(package_of(t["cross"] + "gcc"))
        for abi in t["abis"]:
            want |= {package_of(ABIS[abi]["cc"]), ABIS[abi]["libc"]}
    return sorted(want)


def kmalloc_min(target):
    """The target's KMALLOC_MIN_SIZE on the run's base"""
    kmin, base = TARGETS[target]["kmalloc_min"], settings().base
    if base not in kmin and "*" not in kmin:
        raise Failure(f"qemu/targets.conf: target {target}: no kmalloc-min for base {base}")
    return kmin.get(base, kmin.get("*"))


def targets_with(check):
    """The targets whose checks column names check, in the table's order."""
    return [name for name, t in TARGETS.items() if check in t["checks"]]


def target_command(sub, name, what, doc=None, fn=None, targets=None, target_help=None):
    """A command of the harness's command line that boots one target: --target
    (the first of targets, by default every target), its help, its doc."""
    targets = targets or list(TARGETS)
    p = sub.add_parser(name, help=what, description=doc,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target", default=targets[0], choices=targets, help=target_help)
    if fn:
        p.set_defaults(fn=fn)
    return p


def first_target_with(check):
    """The first target whose checks column names check"""
    found = targets_with(check)
    if not found:
        raise Failure(f"qemu/targets.conf: no target row names the check {check!r}")
    return found[0]


try:
    TARGETS, ABIS, COMPILE, BASES = load_table()
except Failure as e:
    sys.exit(f"harness: {e}")


@dataclass(frozen=True)
class Settings:
    """What a run is set to: the kernel base (qemu/targets.conf's "base" rows:
    its Debian source package, its series, its build directory), the build
    directory, and the seconds a test program may take."""
    base: str
    build: Path
    test_timeout: int = TEST_TIMEOUT

    @property
    def source_pkg(self):
        return BASES[self.base]["package"]

    @property
    def tarball(self):
        return Path(f"/usr/src/{self.source_pkg}.tar.xz")

    @property
    def series(self):
        return BASES[self.base]["series"]

    @property
    def before_pages(self):
        """the last patch before the storage moves to pages"""
        return BASES[self.base]["before_pages"]


def default_settings(base=None):
    """A base's settings (the first base's by default) with nothing changed by the
    environment"""
    base = base or next(iter(BASES))
    return Settings(base, BASES[base]["build"])


def from_environment(environ):
    """The settings BASE (make BASE=...), BUILD and TEST_TIMEOUT ask for, or a
    Failure saying which is wrong"""
    base = environ.get("BASE") or next(iter(BASES))
    if base not in BASES:
        raise Failure(f"unknown base {base!r}: BASE takes {', '.join(BASES)}")
    timeout = environ.get("TEST_TIMEOUT") or str(TEST_TIMEOUT)
    if not timeout.isdigit() or not int(timeout):
        raise Failure("TEST_TIMEOUT is a whole number of seconds a test program may take, "
                      f"not {timeout!r}")
    return Settings(base, Path(environ.get("BUILD") or BASES[base]["build"]), int(timeout))


_settings = None


def settings():
    """The run's settings: those use() was given when the command started, or
    the first base's defaults"""
    global _settings
    if _settings is None:
        _settings = default_settings()
    return _settings


def use(new):
    """Make new the run's settings; return the settings it replaces."""
    global _settings
    old, _settings = _settings, new
    return old


@contextmanager
def using(new=None, **changes):
    """The run's settings are new (by default the current ones) with changes, within
    the block: using(build=scratch) for a test."""
    old = use(replace(new or settings(), **changes))
    try:
        yield new
    finally:
        use(old)


def base_arg():
    """ BASE=<base> for a command line shown in a report, or nothing for the default"""
    base = settings().base
    return "" if base == next(iter(BASES)) else f" BASE={base}"


def results_of(job):
    """Where a job's console.log and summary.txt go, as the messages show it"""
    return shown(settings().build / "results" / job)
