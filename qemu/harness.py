#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The harness's one command line: build a Debian kernel tree with and without
the series, boot it in QEMU, test and measure it.  Every make target calls
it (python3 qemu/harness.py <command>; make help lists the commands from it).
The library is in the modules beside it (config, trees, kbuild, guest,
parser, results, checks, mail, benchlib); the modules of the longer checks
and benchmarks (bench, bench_frag, bench_walk, bench_native, kunit_tool,
nfs, robust, upstream, zfs) add their commands to it with add_commands().

The only per-architecture and per-base knowledge lives in qemu/targets.conf.
BASE (environment; make BASE=...) picks the base: its Debian source package,
the directory of its series (the top level for 6.1), its build directory;
main() reads it, BUILD and TEST_TIMEOUT once, before a command starts.
Everything this script makes goes under that build directory (build/ for
6.1, build/6.12/ for 6.12; git-ignored):

  build/vanilla/              the Debian tree, one deterministic base commit (tag "base")
  build/patched/              a worktree of it, branch "series": base + 0001..000N with git am
  build/upto-NNNN/            the same with the series up to patch NNNN (make bench)
  build/out/<kernel>-<target>/ out-of-tree kernel builds (O=)
  build/bin/<abi>/            static guest programs (init, selftests, demo)
  build/logs/                 verbose logs of every build step
  build/results/<job>/        console.log and summary.txt of every boot
"""

import argparse
import os
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

import bench
import bench_frag
import bench_native
import bench_walk
import kunit_tool
import nfs
import robust
import upstream
import zfs
from checks import check_checkpatch, check_harness, check_selftests_sync
from config import (ABIS, Failure, KERNEL_NAME, ROOT, TARGETS, from_environment, package_of,
                    packages, progress, results_of, settings, shown, use)
from guest import boot, boot_suite, build_userspace, make_initramfs
from kbuild import build_kernel
from mail import cmd_export
from parser import KUNIT_OPTION, KUNIT_SUITE, analyse, read_log
from results import conclude, count, counted, exit_status, result_lines
from trees import kernel_source, tree_of


def cmd_check(args):
    t0 = time.monotonic()
    print("== harness", flush=True)
    results = check_harness()
    c = count(results)
    progress(f"harness: unit tests (qemu/tests): {c['pass']} passed, {c['fail']} failed, "
             f"{c['skip']} skipped")
    for n, s, d in results:
        if s == "fail":
            print(f"    FAIL {n}: {d}")
    for target in args.targets:
        print(f"== {args.kernel} {target}", flush=True)
        results += boot_suite(args.kernel, target)
    if args.kernel == "patched":
        print("== series", flush=True)
        series = check_selftests_sync() + check_checkpatch()
        for n, s, d in series:
            print(f"  {s:4} {n}{'  # ' + d if d else ''}")
        results += series
    else:
        print(f"== series: skipped (its checks run with the patched kernel, not {args.kernel})",
              flush=True)
    return conclude("check", results, t0)


def guest_program(args, image, files, plan_argv, job):
    """Boot with one program; echo what it prints; return its exit status."""
    plan = [["prog", args.timeout, *plan_argv]]
    initrd = make_initramfs(settings().build / "results" / job / "initramfs.cpio", args.target,
                            files, plan, overlay=getattr(args, "overlay", None))

    def echo(line, printed):
        for text in printed:
            print(text, flush=True)

    print(f"== {job}: booting (console log: {results_of(job)}/console.log)", flush=True)
    console, outcome, elapsed = boot(args.kernel, args.target, job, image, initrd,
                                     timeout=args.timeout + 120, loglevel=5, echo=echo,
                                     icount=getattr(args, "icount", False),
                                     append=getattr(args, "append", None) or "")
    ends = [end for label, _, end in console.segments()[1] if label == "prog"]
    status = None
    if ends:
        m = re.search(r"exit=(\d+)", ends[-1])
        status = int(m.group(1)) if m else None
        if "timeout" in ends[-1]:
            outcome = f"the program timed out after {args.timeout}s"
        elif "signal=" in ends[-1]:
            outcome = "the program was killed by " + ends[-1].split()[-1]
    if outcome != "ok":
        print(f"guest-run: {outcome}", file=sys.stderr)
        if status in (None, 0):
            status = 125
    elif status is None:
        status = 125
    print(f"== {job}: exit status {status} ({elapsed:.1f}s in the guest)", flush=True)
    return status


def cmd_guest_run(args):
    if not args.prog:
        raise Failure("PROG=/path/to/static-binary is required")
    prog = Path(args.prog).resolve()
    if not prog.is_file():
        raise Failure(f"PROG {prog} is not a file")
    argv = shlex.split(args.args or "")
    image = build_kernel(args.kernel, args.target)
    return guest_program(args, image, {"/harness/prog": prog}, ["/harness/prog", *argv],
                         f"guest-run-{args.kernel}-{args.target}")


def cmd_run(args):
    t = TARGETS[args.target]
    image = build_kernel(args.kernel, args.target)
    built = build_userspace(args.target, with_demo=True)
    status = 0
    for abi in t["abis"]:
        s = guest_program(args, image, {f"/bin/demo-{abi}": built[abi]["demo"]},
                          [f"/bin/demo-{abi}"], f"run-{args.kernel}-{args.target}-{abi}")
        status = status or s
    return status


def cmd_parse(args):
    """A saved console log judged again, as the boot that wrote it was judged
    (less what only QEMU knew: a timeout is a missing end marker here): every
    result, the count, and the exit status make check would give."""
    if args.log == "-":
        text, job = sys.stdin.read(), args.job or "console"
    else:
        log = Path(args.log)
        if not log.is_file():
            raise Failure(f"no console log {args.log}")
        text = log.read_text(errors="replace")
        job = args.job or (log.parent.name if log.name == "console.log" else log.stem)
    console = read_log(text)
    results = analyse(console, console.outcome(), job, kunit=args.kunit)
    print(result_lines(results), end="")
    print(counted(results))
    return exit_status(results)


def cmd_prepare(args):
    for k in args.kernels:
        tree_of(k)
    return 0


def cmd_clean(args):
    build = settings().build
    for d in ("out", "bin", "results", "logs"):
        shutil.rmtree(build / d, ignore_errors=True)
    print(f"removed the kernel builds, programs, results and logs under {shown(build)}")
    return 0


def cmd_build(args):
    for target in args.targets:
        build_kernel(args.kernel, target)
        build_userspace(target)
    return 0


# The modules that add commands of their own to the command line
COMMAND_MODULES = (bench, bench_frag, bench_walk, bench_native, kunit_tool, nfs, robust,
                   upstream, zfs)


def parser():
    """The whole command line: this module's commands and those of COMMAND_MODULES"""
    ap = argparse.ArgumentParser(prog="harness.py", description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="command")
    p = sub.add_parser("tree", help="extract the vanilla tree and apply the series")
    p.add_argument("kernels", nargs="*", default=["vanilla", "patched"])
    p.set_defaults(fn=cmd_prepare)
    p = sub.add_parser("export", help="format-patch a tree's commits back into the repository")
    p.add_argument("--tree", help="default: build/patched")
    p.add_argument("--prefix", default="PATCH v4")
    p.add_argument("--keep-author", action="store_true",
                   help="keep the commits' authors and sign-offs (working copies, not for sending)")
    p.set_defaults(fn=cmd_export)
    p = sub.add_parser("packages", help="the Debian packages targets.conf's rows need")
    p.add_argument("--compile", action="store_true", help="those of the compile-only rows")
    p.set_defaults(fn=lambda args: print(" ".join(packages(args.compile))))
    p = sub.add_parser("parse", help="judge a saved console log again (build/results/<job>/"
                       "console.log)")
    p.add_argument("log", help="the console log; - reads it from stdin")
    p.add_argument("--job", help="the results' prefix (default: the log's directory)")
    p.add_argument("--kunit", action="store_true",
                   help=f"the kernel had {KUNIT_OPTION}=y: the {KUNIT_SUITE} suite must report")
    p.set_defaults(fn=cmd_parse)
    p = sub.add_parser("clean", help="remove kernel builds, programs, results, logs (not trees)")
    p.set_defaults(fn=cmd_clean)
    p = sub.add_parser("build", help="build kernels and guest programs")
    p.add_argument("--kernel", default="patched")
    p.add_argument("targets", nargs="*", default=list(TARGETS))
    p.set_defaults(fn=cmd_build)
    p = sub.add_parser("check", help="boot every target and run the whole suite")
    p.add_argument("--kernel", default="patched")
    p.add_argument("targets", nargs="*", default=list(TARGETS))
    p.set_defaults(fn=cmd_check)
    for name, fn, what in (("run", cmd_run, "show 10,000 groups at work in a guest"),
                           ("guest-run", cmd_guest_run, "run your static program in a guest")):
        p = sub.add_parser(name, help=what)
        p.add_argument("--kernel", default="patched")
        p.add_argument("--target", default=next(iter(TARGETS)), help=", ".join(TARGETS))
        p.add_argument("--timeout", type=int, default=300)
        if name == "guest-run":
            p.add_argument("--prog")
            p.add_argument("--args", default="")
            p.add_argument("--overlay")
            p.add_argument("--icount", action="store_true",
                           help="guest time advances with its instructions (QEMU -icount)")
            p.add_argument("--append", help="more kernel parameters")
        p.set_defaults(fn=fn)
    for module in COMMAND_MODULES:
        module.add_commands(sub)
    p = sub.add_parser("commands", help="each command and what it does, one line each")
    p.add_argument("--make", action="store_true",
                   help="only those the Makefile has a target for, as make targets (make help)")
    p.set_defaults(fn=lambda args: print(command_list(ap, make_targets() if args.make else None)))
    return ap


def make_targets():
    """The targets the Makefile defines"""
    return set(re.findall(r"^([a-z0-9-]+):", (ROOT / "Makefile").read_text(), re.M))


def command_list(ap, only=None):
    """'<command>  <help>' for every command of ap (of only, when given, as
    'make <command>'): make help's list"""
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return "\n".join(f"  {'make ' if only else ''}{c.dest:<20} {c.help}"
                      for c in sub._choices_actions if only is None or c.dest in only)


def main(argv=None):
    dispatch(parser(), argv)


def check_args(args):
    """Unknown targets or kernel, or a missing tool, as a Failure, before any work."""
    targets = list(getattr(args, "targets", None) or []) + \
        ([args.target] if getattr(args, "target", None) else [])
    for name in targets:
        if name not in TARGETS:
            raise Failure(f"unknown target {name!r}: TARGETS and ARCH take {', '.join(TARGETS)}")
    kernel = getattr(args, "kernel", None)
    if kernel is not None and not KERNEL_NAME.fullmatch(kernel):
        raise Failure(f"KERNEL must be patched, vanilla, upto-NNNN or mutant-NAME, not {kernel!r}")
    if kernel and kernel.startswith(("upto-", "mutant-")):
        kind, _, what = kernel.partition("-")
        kernel_source(**{kind: what})
    tools = {x for name in targets for x in [TARGETS[name]["qemu"], TARGETS[name]["cross"] + "gcc",
                                              *(ABIS[a]["cc"] for a in TARGETS[name]["abis"])]}
    missing = sorted(x for x in tools if not shutil.which(x))
    if missing:
        raise Failure(f"{', '.join(missing)} not installed: run 'make deps' (apt-get install "
                      f"{' '.join(sorted({package_of(x) for x in missing}))})")


def dispatch(ap, argv=None):
    """Run the command with the settings the environment asks for; a Failure (a
    wrong setting or argument), or a tool that is not installed, is one line on
    stderr and exit status 2."""
    args = ap.parse_args(argv)
    try:
        use(from_environment(os.environ))
        check_args(args)
        sys.exit(args.fn(args))
    except Failure as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except FileNotFoundError as e:        # subprocess: a program that is not installed
        if not e.filename or "/" in str(e.filename):
            raise
        print(f"error: {e.filename} is not installed: run 'make deps' (apt-get install "
              f"{package_of(str(e.filename))})", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
