# SPDX-License-Identifier: GPL-2.0
"""make bench-walk: the kernel's own lookups on a permission-heavy path, as a
user in 16 to 65,536 groups, counted in guest instructions.

The vanilla and the patched kernel of make bench (the target's fragments +
kconfig/bench.config, configured alike) boot in turn (vanilla, patched;
patched, vanilla; ...) under QEMU -icount (shift=0: the guest's clock
advances 1 ns per instruction it executes, whatever the host's load) and run
bench/groups_walk.c: fstatat() and faccessat(R_OK) of every file of a tree
whose directories belong to groups the user is in and groups it is not in.
Each figure is a pass's guest time per operation: the instructions of the
whole system call, path walk included, of which the group search is a part.
TCG models no cache and no TLB: the cache side of a lookup is make
bench-native's flushed rows.

The run fails (exit 1) when a pass does not allow exactly the directories
of the user's groups, on either kernel.  Results go to
build/bench/<target>-walk/: results.md, raw.tsv, the command.
"""

import time

from benchlib import (arguments, bench_dir, boot_rounds, initramfs_of, load_raw, ratio_of, spread)
from config import ROOT, TARGETS, base_arg, settings
from guest import boot, compile_c, make_initramfs
from kbuild import build_kernel

KERNELS = ("vanilla", "patched")
SIZES = (16, 1022, 1023, 2000, 10000, 65536)
PASSES = 9
BOOT_TIMEOUT = 1800


def results_dir(target):
    return bench_dir(f"{target}-walk")


def cmd_bench(args):
    t0 = time.monotonic()
    target = args.target
    outdir = results_dir(target)
    outdir.mkdir(parents=True, exist_ok=True)
    abi = TARGETS[target]["abis"][0]
    prog = compile_c(abi, ROOT / "bench/groups_walk.c",
                     settings().build / "bin" / abi / "groups_walk")
    plan = [["groups_walk", BOOT_TIMEOUT, "/bench/groups_walk", "--passes", PASSES, *SIZES]]
    images, initrds = {}, {}
    for k in KERNELS:
        images[k] = build_kernel(k, target, extra=("bench",))
        initrds[k] = make_initramfs(initramfs_of(k, outdir), target,
                                    {"/bench/groups_walk": prog}, plan)
    if args.build_only:
        return 0

    runs = boot_rounds("bench-walk", KERNELS, args.rounds, outdir,
                       lambda k, job: boot(k, target, job, images[k], initrds[k], BOOT_TIMEOUT,
                                           icount=True),
                       lambda line: line.startswith("groups_walk:"))
    if runs is None:
        return 1
    report(target, outdir, runs, args.rounds)
    print(f"bench-walk: {time.monotonic() - t0:.0f}s; results in {outdir}/")
    return 0


def report(target, outdir, runs, rounds):
    cmd = f"make bench-walk ARCH={target} ROUNDS={rounds}{base_arg()}"
    md = [f"# Permission checks on a path walk, {target}, {settings().base}, "
          f"{rounds} rounds under -icount", "",
          "Guest ns (= instructions) per fstatat() or faccessat(R_OK), median of "
          f"{PASSES} passes, median over the rounds [min-max]; ratio patched/vanilla "
          "round by round.", "",
          "| N | vanilla | patched | patched/vanilla |", "|---|---|---|---|"]
    for n in SIZES:
        cells = []
        for k in KERNELS:
            cells.append(spread([run[("walk_ns", n)] for run in runs.get(k, [])
                                 if ("walk_ns", n) in run]))
        ratio = ratio_of(runs, "patched", "vanilla", ("walk_ns", n))
        cells.append(f"{ratio[0]:.3f} [{ratio[1]:.3f}-{ratio[2]:.3f}]" if ratio else "-")
        md.append(f"| {n:,} | " + " | ".join(cells) + " |")
    md += ["", f"Command: `{cmd}`"]
    (outdir / "results.md").write_text("\n".join(md) + "\n")
    (outdir / "command.txt").write_text(cmd + "\n")
    print("\n".join(md))


def cmd_main(args):
    if args.report_only:
        outdir = results_dir(args.target)
        runs = load_raw(outdir)
        report(args.target, outdir, runs, len(next(iter(runs.values()))))
        return 0
    return cmd_bench(args)


def add_commands(sub):
    ap = arguments(sub, "bench-walk", "fstatat() and faccessat() on group-owned "
                   "directories, vanilla and patched under -icount", __doc__, 3, "<target>-walk")
    ap.set_defaults(fn=cmd_main)
