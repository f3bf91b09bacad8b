# SPDX-License-Identifier: GPL-2.0
"""make kunit: the series' KUnit suites through the kernel's own
tools/testing/kunit/kunit.py, with the series' kernel/groups.kunitconfig (and
on 6.12 ksmbd's fs/smb/server/.kunitconfig), as a maintainer runs them: under QEMU for x86_64 and arm64 (kunit.py's own QEMU
configurations), or on UML.  Each architecture builds in
build/out/kunit-<arch>.  make check's at-boot KUnit (in the harness's own
kernels) is apart from this.
"""

import argparse
import re
import subprocess
import time
from pathlib import Path

from config import Failure, JOBS, TARGETS, progress, settings, shown
from parser import kernel_problem
from results import conclude, result_lines
from trees import ensure_patched

KUNITCONFIG = "kernel/groups.kunitconfig"
# the series' suites: each that the tree has
KUNITCONFIGS = (KUNITCONFIG, "fs/smb/server/.kunitconfig")
# kunit.py's --arch for a target of targets.conf, and UML's
ARCHS = {"um": "um", "x86_64": "x86_64", "arm64": "arm64"}
DEFAULT_ARCHS = ["x86_64", "arm64"]


def kunitconfigs(tree):
    return [c for c in KUNITCONFIGS if (Path(tree) / c).exists()]


def kunit_cmd(arch, timeout=300, name=None, options=(), configs=(KUNITCONFIG,)):
    """The kunit.py command line for arch (um, x86_64 or arm64), building in
    build/out/<name> (kunit-<arch> by default), with options added to the
    kunitconfigs (--kconfig_add)."""
    cmd = ["python3", "tools/testing/kunit/kunit.py", "run",
           *[x for c in configs for x in ("--kunitconfig", c)], "--build_dir", str(settings().build / "out" / (name or f"kunit-{arch}")), f"--jobs={JOBS}",
           f"--timeout={timeout}", *[f"--kconfig_add={o}" for o in options]]
    if arch != "um":
        cmd.append(f"--arch={TARGETS[arch]['karch']}")
        if TARGETS[arch]["cross"]:
            cmd.append(f"--cross_compile={TARGETS[arch]['cross']}")
    return cmd


def verdict(output, returncode, kernel_log=""):
    """("pass", [], counts), ("fail", what failed, counts) or ("build", why, None)
    from kunit.py's output; counts is (ran, passed).  A kernel that did not
    start for another reason than a build error is the tool's failure."""
    if "Starting KUnit Kernel" not in output:
        if "Building KUnit Kernel" in output and re.search(r"error:|make.*Error", output):
            return "build", ["does not build"], None
        raise Failure("kunit.py did not start a kernel: " +
                        (output.strip().splitlines() or ["no output"])[-1][:200])
    m = re.search(r"Ran (\d+) tests?:(.*)", output)
    if "Testing complete" not in output or not m:
        return "fail", ["no KUnit result (a crash or a timeout)"], None
    passed = re.search(r"passed: (\d+)", m.group(2))
    counts = (int(m.group(1)), int(passed.group(1)) if passed else 0)
    # a test's own line, or a parameterised test's summary (test names have a "_")
    failed = sorted(set(re.findall(r"\[FAILED\] (\w+_\w+)(?: =+)?$", output, re.M)))
    crashed = "[CRASHED]" in output
    # a KASAN, UBSAN or BUG report does not always fail the test it came in
    # (UML's own boot warnings come before the suites start)
    during = re.split(r"^.*K?TAP version.*$", kernel_log, maxsplit=1, flags=re.M)[-1]
    problems = [x.strip() for x in during.splitlines() if kernel_problem(x)]
    if returncode == 0 and not failed and not crashed and counts[0] == counts[1] \
            and not problems:
        return "pass", [], counts
    why = (["KUnit " + t for t in failed] or (["KUnit crashed"] if crashed else [])
           or ["kernel: " + x[:120] for x in problems[:1]] or [f"kunit.py exit {returncode}"])
    return "fail", why, counts


def run(tree, arch, log, timeout=300, name=None, options=(), configs=(KUNITCONFIG,)):
    """kunit.py in tree for arch; the verdict, and its output in log."""
    kernel_log = settings().build / "out" / (name or f"kunit-{arch}") / "test.log"
    kernel_log.unlink(missing_ok=True)
    r = subprocess.run(kunit_cmd(arch, timeout, name, options, configs), cwd=tree,
                       capture_output=True, text=True)
    log.write_text(r.stdout + r.stderr)
    return verdict(r.stdout + r.stderr, r.returncode,
                   kernel_log.read_text(errors="replace") if kernel_log.exists() else "")


def cmd_kunit(args):
    args.archs = args.archs or DEFAULT_ARCHS
    unknown = [a for a in args.archs if a not in ARCHS]
    if unknown:
        raise Failure(f"kunit: unknown architecture {', '.join(unknown)}: "
                      f"KUNIT_ARCHS takes {', '.join(ARCHS)}")
    t0, results = time.monotonic(), []
    tree = ensure_patched()
    for arch in args.archs:
        start = time.monotonic()
        log = settings().build / f"logs/kunit-{arch}.log"
        configs = kunitconfigs(tree)
        progress(f"kunit: {' '.join(kunit_cmd(arch, configs=configs))} (in {shown(tree)}; "
                 f"log: {shown(log)})")
        state, why, counts = run(tree, arch, log, configs=configs)
        detail = "; ".join(filter(None, [f"{counts[1]} of {counts[0]} passed" if counts else "",
                                         ", ".join(why)]))
        results.append((f"kunit: {arch}", "pass" if state == "pass" else "fail", detail))
        progress(f"kunit: {arch}: {detail}", start)
    print(result_lines(results), end="")
    return conclude("kunit", results, t0)


def add_commands(sub):
    ap = sub.add_parser("kunit", help="the KUnit suites through the kernel's kunit.py "
                        "(x86_64, arm64 or um)", description=__doc__,
                        formatter_class=argparse.RawTextHelpFormatter)
    # no choices=: Python 3.11's argparse checks an empty list against
    # them and fails; cmd_kunit() checks the names
    ap.add_argument("archs", nargs="*",
                    help=f"{', '.join(ARCHS)} (default: {' '.join(DEFAULT_ARCHS)})")
    ap.set_defaults(fn=cmd_kunit)
    return ap
