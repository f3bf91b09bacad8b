# SPDX-License-Identifier: GPL-2.0
"""Robustness: make check-debug and make check-differential.

check-debug: the patched kernel with kconfig/debug.config (KASAN, UBSAN,
KFENCE, kmemleak, lockdep, atomic-sleep checks, SLUB debugging, failslab and
fail_page_alloc, DEBUG_CREDENTIALS) and kconfig/randstruct.config (GCC's
randstruct plugin, RANDSTRUCT_FULL, with the seed its build drew, which the
results name) boots once and runs, in order: every ABI's selftests (and
KUnit at boot), setgroups under fault injection for every ABI
(robust/groups_fault.c), concurrent set changes, status reads, forks and
execs for every ABI (robust/groups_stress.c), and a kmemleak scan
(robust/kmemleak_scan.c).  Any failed test, or any KASAN, UBSAN, KFENCE,
lockdep, BUG, WARNING, "sleeping function called" or leak report on the
console fails it.  The console must also show that each of those debug
facilities was on.

check-kcsan: the patched x86_64 kernel with kconfig/kcsan.config (KCSAN,
PREEMPT), 2 vCPUs under multi-threaded TCG, runs the stress program under
every ABI; any KCSAN report, as any other kernel problem, fails it.

check-mutants: each deliberately broken variant of the series in
robust/mutants/ (a patch on top of it) must be caught: by make check's
suite, by the differential test, or by the debug kernel, tried in that
order on x86_64, or by those its "Checks:" line names (check-nfs for the
NFS server's code) (--all: every one; --checks: only these); the results
name what caught it.

check-mutants --fast: see qemu/mutate.py.

check-differential: robust/groups_diff.c runs the same seeded random
sequence of group operations under every ABI of each target, on the vanilla
and on the patched kernel; it checks each result against a model of 6.1 and
prints a digest of them all.  The digests of the two kernels must agree.
"""

import re
import time
from pathlib import Path

from config import (Failure, MUTANTS, ROOT, TARGETS, first_target_with, progress, results_of,
                    settings, target_command, targets_with)
from guest import boot_plan, boot_suite, build_userspace, compile_c, report_boot, test_plan
from kbuild import build_kernel
from parser import segments
from results import conclude, result_lines
from trees import ensure_vanilla
import mutate
import nfs

# What the console of a debug kernel must show: the facilities were on.
DEBUG_ON = {
    "KASAN": re.compile(r"KernelAddressSanitizer initialized"),
    "KFENCE": re.compile(r"kfence: initialized"),
    "kmemleak": re.compile(r"kmemleak: Kernel memory leak detector initialized"),
    "lockdep": re.compile(r"Lock dependency validator"),
    "2 CPUs": re.compile(r"smp: Brought up \d+ nodes?, 2 CPUs"),
    "full preemption": re.compile(r"Dynamic Preempt: full|Linux version .* PREEMPT "),
}
KCSAN_ON = {
    "KCSAN": re.compile(r"kcsan: enabled early"),
    "2 CPUs": DEBUG_ON["2 CPUs"],
    "full preemption": DEBUG_ON["full preemption"],
}
FAULT_CALLS = 10000
# vCPUs of the debug guest, each on a host thread, so that the stress
# program's threads really run in the kernel at once (with PREEMPT)
DEBUG_SMP = 2
STRESS_SECONDS = 30
DIFF_OPS = 100000
# What check-mutants tries, in this order, until one catches the mutant
MUTANT_CHECKS = {"check": "make check", "differential": "make check-differential",
                 "debug": "make check-debug", "nfs": "make check-nfs"}
DIFF_SEED = 20261203


def robust_programs(target, names):
    """Static builds of robust/<name>.c for every ABI of the target."""
    kself = ensure_vanilla() / "tools/testing/selftests"
    bindir = settings().build / "bin"
    return {abi: {n: compile_c(abi, ROOT / f"robust/{n}.c", bindir / abi / n,
                                 ["-I", kself], libs=["-pthread"]) for n in names}
            for abi in TARGETS[target]["abis"]}


def debug_run(kernel, target, calls=FAULT_CALLS, seconds=STRESS_SECONDS):
    """The debug kernel of @kernel booted with the suite and the robustness
    programs: (results, console lines, randstruct seed)."""
    abis = TARGETS[target]["abis"]
    image = build_kernel(kernel, target, extra=("debug", "randstruct"))
    seed = (image.parents[len(Path(TARGETS[target]["image"]).parts) - 1]
            / "scripts/basic/randstruct.seed").read_text().strip()
    built = build_userspace(target)
    progs = robust_programs(target, ["groups_fault", "groups_stress", "kmemleak_scan"])
    files, plan = test_plan(target, built)
    for abi in abis:
        files[f"/robust/{abi}/groups_fault"] = progs[abi]["groups_fault"]
        plan.append([f"{abi}/groups_fault", 3600, f"/robust/{abi}/groups_fault",
                     "-c", calls, "-s", 1])
    for abi in abis:
        files[f"/robust/{abi}/groups_stress"] = progs[abi]["groups_stress"]
        plan.append([f"{abi}/groups_stress", seconds * 4 + 120,
                     f"/robust/{abi}/groups_stress", "--seconds", seconds])
    files["/robust/kmemleak_scan"] = progs[abis[0]]["kmemleak_scan"]
    plan.append(["kmemleak", 900, "/robust/kmemleak_scan"])

    job = "debug-" + target if kernel == "patched" else f"debug-{kernel}-{target}"
    results, lines = boot_checked(kernel, target, image, job, files, plan, built, DEBUG_ON)
    return results, lines, seed


def boot_checked(kernel, target, image, job, files, plan, built, facilities):
    """A debug guest (DEBUG_SMP vCPUs): its results, and one each for the
    facilities (name: console pattern) that must have been on."""
    lines, outcome, elapsed, results = boot_plan(kernel, target, image, job, files, plan,
                                                 timeout=6 * 3600, built=built, smp=DEBUG_SMP)
    text = "\n".join(lines)
    for what, pattern in facilities.items():
        on = bool(pattern.search(text))
        results.append((f"{job}/{what} was on", "pass" if on else "fail",
                        "" if on else f"no '{pattern.pattern}' on the console"))
    report_boot(job, results, lines, outcome, elapsed)
    return results, lines


def cmd_debug(args):
    t0 = time.monotonic()
    job = f"debug-{args.target}"
    results, lines, seed = debug_run("patched", args.target, args.calls, args.seconds)
    for line in lines:
        if re.search(r"# \d+ calls .*faults injected|# \d+s: \d+ setgroups|"
                     r"# memory: (pages in use|\d+ pages held)|kmemleak: \d+ suspected", line):
            print(f"    {line.strip()}")
    print(f"check-debug: randstruct seed {seed[:16]}… (the out directory's "
          f"scripts/basic/randstruct.seed); console and summary in {results_of(job)}/")
    return conclude("check-debug", results, t0)


def cmd_kcsan(args):
    t0 = time.monotonic()
    target = args.target
    abis = TARGETS[target]["abis"]
    image = build_kernel("patched", target, extra=("kcsan",))
    built = build_userspace(target)
    progs = robust_programs(target, ["groups_stress"])
    files = {f"/robust/{abi}/groups_stress": progs[abi]["groups_stress"] for abi in abis}
    plan = [[f"{abi}/groups_stress", args.seconds * 4 + 120, f"/robust/{abi}/groups_stress",
             "--seconds", args.seconds] for abi in abis]
    job = f"kcsan-{target}"
    results, lines = boot_checked("patched", target, image, job, files, plan, built, KCSAN_ON)
    print(f"check-kcsan: {sum('KCSAN:' in x for x in lines)} KCSAN report(s); console in "
          f"{results_of(job)}/")
    return conclude("check-kcsan", results, t0)


def differential(kernel, target, seed=DIFF_SEED, ops=DIFF_OPS):
    """robust/groups_diff under every ABI of @kernel: (results, {label: (digest, ops)})."""
    abis = TARGETS[target]["abis"]
    progs = robust_programs(target, ["groups_diff"])
    files = {f"/robust/{abi}/groups_diff": progs[abi]["groups_diff"] for abi in abis}
    plan = [[f"{abi}/groups_diff", 3600, f"/robust/{abi}/groups_diff", "--seed", seed,
             "--ops", ops] for abi in abis]
    image = build_kernel(kernel, target)
    job = f"differential-{kernel}-{target}"
    lines, outcome, elapsed, results = boot_plan(kernel, target, image, job, files, plan,
                                                 timeout=3 * 3600)
    # the KUnit suites of the patched kernel are make check's business
    results = [x for x in results if "/kunit/" not in x[0]]
    report_boot(job, results, lines, outcome, elapsed)
    digests = {}
    for label, out, _ in segments(lines)[1]:
        for line in out:
            m = re.search(r"# digest: ([0-9a-f]{16}) ops=(\d+)", line)
            if m:
                digests[label] = (m.group(1), int(m.group(2)))
    return results, digests


def cmd_differential(args):
    t0 = time.monotonic()
    results, digests = [], {}
    for target in args.targets:
        abis = TARGETS[target]["abis"]
        for kernel in ("vanilla", "patched"):
            r, d = differential(kernel, target, args.seed, args.ops)
            results += r
            digests.update({(target, label, kernel): v for label, v in d.items()})
        for abi in abis:
            v = digests.get((target, f"{abi}/groups_diff", "vanilla"))
            p = digests.get((target, f"{abi}/groups_diff", "patched"))
            same = v is not None and v == p
            results.append((f"differential: {target} {abi}: vanilla and patched digests",
                            "pass" if same else "fail", f"vanilla {v}, patched {p}"))
            print(f"  {target} {abi}: vanilla {v[0] if v else None}, patched "
                  f"{p[0] if p else None} ({p[1] if p else 0} ops): "
                  f"{'same' if same else 'DIFFERENT'}", flush=True)
    return conclude("check-differential", results, t0)


def failed(results):
    return [x[0] for x in results if x[1] == "fail"]


def mutant_checks(name):
    """The checks a mutant is for: its patch's "Checks:" line, or all but nfs (which
    only sees the NFS server's code)."""
    m = re.search(r"^Checks: (.*)$", (MUTANTS / f"{name}.patch").read_text(), re.M)
    return m.group(1).split(",") if m else [c for c in MUTANT_CHECKS if c != "nfs"]


def mutant_bases(name):
    """The bases a mutant applies to: its patch's "Bases:" line, or all (None)."""
    m = re.search(r"^Bases: (.*)$", (MUTANTS / f"{name}.patch").read_text(), re.M)
    return m.group(1).split(",") if m else None


def cmd_mutants(args):
    if args.fast and args.names and all((MUTANTS / f"{n}.patch").exists() for n in args.names):
        return mutate.cmd_patches(args.names)
    if args.fast:
        return mutate.cmd_fast(args.limit, args.suite_limit, args.names)
    t0 = time.monotonic()
    target = first_target_with("mutants")
    names = args.names or sorted(p.stem for p in MUTANTS.glob("*.patch"))
    checks = args.checks.split(",")
    unknown = [c for c in checks if c not in MUTANT_CHECKS]
    if unknown:
        raise Failure(f"unknown check {unknown[0]!r}: CHECKS takes {','.join(MUTANT_CHECKS)}")
    results, vanilla = [], None

    def differential_check(kernel):
        nonlocal vanilla
        if vanilla is None:
            vanilla = differential("vanilla", target)[1]
        r, digests = differential(kernel, target)
        return failed(r) + [f"{label}: digest {digests.get(label)}, vanilla {v}"
                            for label, v in vanilla.items() if digests.get(label) != v]

    run = {"check": lambda k: failed(boot_suite(k, target)),
           "differential": differential_check,
           "debug": lambda k: failed(debug_run(k, target)[0]),
           "nfs": lambda k: failed(nfs.check_kernel(k, target))}
    for name in names:
        kernel, caught = f"mutant-{name}", []
        bases = mutant_bases(name)
        if bases and settings().base not in bases:
            results.append((f"mutant {name} is caught", "skip",
                            f"its code exists on {', '.join(bases)} only"))
            continue
        print(f"== {kernel}", flush=True)
        for check in [c for c in MUTANT_CHECKS if c in checks and c in mutant_checks(name)]:
            if caught and not args.all:
                break
            bad = run[check](kernel)
            if bad:
                caught.append(f"{MUTANT_CHECKS[check]}: {len(bad)} failed, e.g. {bad[0]}")
        results.append((f"mutant {name} is caught", "pass" if caught else "fail",
                        "; ".join(caught) or "nothing caught it: a hole in the tests"))
        progress(f"mutant {name}: {'; '.join(caught) or 'NOT CAUGHT'}")
    print(result_lines(results), end="")
    return conclude("check-mutants", results, t0)


def add_commands(sub):
    p = target_command(sub, "check-debug", "the patched kernel with the debug options: "
                       "selftests, fault injection, concurrency, leak scan", __doc__, cmd_debug)
    p.add_argument("--calls", type=int, default=FAULT_CALLS)
    p.add_argument("--seconds", type=int, default=STRESS_SECONDS)
    p = target_command(sub, "check-kcsan", "KCSAN, 2 vCPUs: the concurrency test",
                       fn=cmd_kcsan, targets=targets_with("kcsan"))
    p.add_argument("--seconds", type=int, default=STRESS_SECONDS)
    p = sub.add_parser("check-mutants", help="each broken variant must be caught")
    p.add_argument("--all", action="store_true", help="run every check of a mutant on it")
    p.add_argument("--checks", default=",".join(MUTANT_CHECKS),
                   help="the checks to try, of " + ",".join(MUTANT_CHECKS))
    p.add_argument("--fast", action="store_true",
                   help="mutants of the series' lines made by rule, against KUnit on UML")
    p.add_argument("--limit", type=int, default=40,
                   help="--fast: mutants KUnit can reach (0: all)")
    p.add_argument("--suite-limit", type=int, default=10,
                   help="--fast: mutants only the selftests reach (0: all)")
    p.add_argument("names", nargs="*", help="mutants (robust/mutants/NAME.patch, or with "
                   "--fast the ids of its table); default all")
    p.set_defaults(fn=cmd_mutants)
    p = sub.add_parser("check-differential", help="seeded random group calls under every "
                       "ABI against a model of 6.1; vanilla and patched digests agree")
    p.add_argument("--seed", type=int, default=DIFF_SEED)
    p.add_argument("--ops", type=int, default=DIFF_OPS)
    p.add_argument("targets", nargs="*", default=targets_with("differential"))
    p.set_defaults(fn=cmd_differential)
