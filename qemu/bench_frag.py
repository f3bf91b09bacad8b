# SPDX-License-Identifier: GPL-2.0
"""make bench-frag: setgroups() in fragmented memory and near a memory cgroup's limit.

The vanilla and the patched kernel, built with the same config (the target's
fragments + kconfig/bench.config + kconfig/frag.config: compaction, VM event
counters, the memory cgroup, kallsyms; checked identical here), boot in turn
(vanilla, patched; patched, vanilla; ...) for ROUNDS rounds under the same
QEMU settings (2 GiB, SMP vCPUs, TCG) and run bench/groups_frag.c as root, which

  1. times setgroups() of 10,000 and 65,536 random gids in the fresh guest,
     then runs the memory cgroup test (below) ("clean");
  2. fragments the free memory so that no block of order >= 4 is free and
     none can be made by compaction, while most memory stays free in blocks
     of orders 0-3 (1 GiB filled with unmovable pipe pages, one in 16 kept;
     every other free block of order >= 4 taken by unmovable kernel
     allocations; see the top of groups_frag.c), and shows /proc/buddyinfo
     and /proc/pagetypeinfo before and after;
  3. times the same calls in that memory ("frag"): latency median, 99th
     percentile and max; /proc/vmstat's compact_* and allocstall_* deltas
     over each loop; the calls whose set was vmalloc()ed and the most
     vmalloc areas of group lists alive at once; ENOMEM failures; on x86,
     the TLB-flush IPIs the loop caused ("TLB shootdowns" of /proc/interrupts:
     vfree()'s lazy purge flushes the kernel range on every CPU, so the guest
     has two);
  4. the memory cgroup test again in that memory: a child in a cgroup2
     group whose memory.max is memory.current + 16 MiB holds one set of
     65,536 gids per thread (each thread calls the raw syscall, so each
     keeps its own credentials), one thread after another until one fails;
     compared: how many sets fit, the charge per set, memory.events.

Results go to build/bench/<target>-frag/: results.md (a table per kernel),
raw.tsv (every value of every round, write_raw()'s format), the command.

How long it takes: docs/measurements.md.
"""

import re
import statistics
import time

from benchlib import (arguments, bench_dir, boot_rounds, bootstrap, fmt, initramfs_of, load_raw,
                      ratios_of, spread, verdict_of)
from config import Failure, ROOT, TARGETS, base_arg, settings
from guest import boot, compile_c, make_initramfs
from kbuild import build_kernel, page_size, parse_fragment
from parser import console_outcome, kernel_problem

KERNELS = ("vanilla", "patched")
EXTRA = ("bench", "frag")          # "bench": no patched.config on either kernel
SIZES = (10000, 65536)
PHASES = ("clean", "frag")
GUEST_TIMEOUT = 1500               # seconds, /init's limit for the program
SMP = 2                            # vCPUs: a TLB flush of the kernel range is an IPI to the other
BOOT_TIMEOUT = 1800
# A stack dump is expected only in these reports, during the memory cgroup test:
# the memcg OOM killer finding no killable task (oom_score_adj -1000), and
# vanilla's vmalloc() fallback failing on the charge (warn_alloc())
EXPECTED_REPORT = re.compile(r"invoked oom-killer:|vmalloc error:|page allocation failure:|"
                             r"Out of memory and no killable")
REPORT_SPAN = 12                   # lines from a report's first line to its "Call Trace:"


def results_dir(target):
    return bench_dir(f"{target}-frag")


def out_dir(kernel, target):
    """build_kernel()'s out directory for this kernel"""
    return settings().build / "out" / "-".join([kernel, target, *EXTRA])




def check_configs(target):
    """The two kernels must be configured alike: every option set in either .config
    (an option that one tree lacks counts as "n": the patched tree's KUnit option
    is "is not set" there and absent from vanilla)"""
    a, b = (parse_fragment(out_dir(k, target) / ".config") for k in KERNELS)
    diff = sorted(k for k in a.keys() | b.keys() if a.get(k, "n") != b.get(k, "n"))
    if diff:
        raise Failure("bench-frag: the vanilla and patched configs differ: "
                      + ", ".join(f"{k}={a.get(k, 'n')}/{b.get(k, 'n')}" for k in diff[:10]))


def guest_args(args):
    return ["--calls", args.calls, "--clean-calls", args.clean_calls, "--fill-mb", args.fill_mb,
            "--keep", args.keep, "--cg-headroom-kb", args.cg_headroom_kb,
            "--loop-seconds", args.loop_seconds]


def outcome_of(lines, outcome):
    """boot()'s outcome, where a stack dump is allowed inside an expected OOM or
    allocation failure report of the memory cgroup test and nowhere else.  The
    test's bounds are the program's markers in the kernel's log, which keep
    their order among the kernel's messages when the console prints these
    after the program's own lines; a log without them, its console lines."""
    if not outcome.startswith("kernel problem"):
        return outcome
    kmsg = any("] groups_frag cgroup-begin" in x for x in lines)
    begin, end = ("] groups_frag cgroup-begin", "] groups_frag cgroup-end") if kmsg else \
        ("FRAG cgroup-begin", "FRAG cgroup-end")
    window, header, unexpected = False, -REPORT_SPAN - 1, []
    for i, line in enumerate(lines):
        if (begin in line) if kmsg else line.startswith(begin):
            window = True
        elif (end in line) if kmsg else line.startswith(end):
            window = False
        if window and EXPECTED_REPORT.search(line):
            header = i
        if kernel_problem(line) and not (window and "Call Trace:" in line
                                            and i - header <= REPORT_SPAN):
            unexpected.append(line)
    if unexpected:
        return "kernel problem in the console log: " + unexpected[0].strip()
    return console_outcome([x for x in lines if not kernel_problem(x)])


def cmd_bench(args):
    t0 = time.monotonic()
    target = args.target
    t = TARGETS[target]
    outdir = results_dir(target)
    outdir.mkdir(parents=True, exist_ok=True)
    abi = t["abis"][0]      # the kernel's allocations do not depend on the caller's ABI
    prog = compile_c(abi, ROOT / "bench/groups_frag.c",
                     settings().build / "bin" / abi / "groups_frag", libs=["-pthread"])
    images, initrds = {}, {}
    for k in KERNELS:
        images[k] = build_kernel(k, target, extra=EXTRA)
        plan = [["groups_frag", GUEST_TIMEOUT, "/bench/groups_frag", *guest_args(args)]]
        initrds[k] = make_initramfs(initramfs_of(k, outdir), target,
                                    {"/bench/groups_frag": prog}, plan)
    check_configs(target)
    if args.build_only:
        return 0

    def boot_one(k, job):
        lines, outcome, elapsed = boot(k, target, job, images[k], initrds[k], BOOT_TIMEOUT,
                                       smp=SMP)
        return lines, outcome_of(lines, outcome), elapsed
    # the program's own complaints start a line; the kernel's "groups_frag:
    # vmalloc error" (expected in the cgroup test) carries a time stamp first
    runs = boot_rounds("bench-frag", KERNELS, args.rounds, outdir, boot_one,
                       lambda line: line.startswith("groups_frag:"))
    if runs is None:
        return 1
    status = report(target, outdir, runs, args.rounds)
    print(f"bench-frag: {time.monotonic() - t0:.0f}s; results in {outdir}/")
    return status


# ---------------------------------------------------------------- the report

def values(runs, k, m, n):
    return [run[(m, n)] for run in runs.get(k, []) if (m, n) in run]


def cell(runs, k, m, n, scale=1.0):
    """median over the rounds [min-max], scaled; "-" when never measured"""
    return spread([x / scale for x in values(runs, k, m, n)])


def median_of(runs, k, m, n, default=None):
    v = values(runs, k, m, n)
    return statistics.median(v) if v else default


LOOP_COLUMNS = [   # (header, metric, scale)
    ("calls", "calls", 1), ("median µs", "lat_median", 1e3), ("p99 µs", "lat_p99", 1e3),
    ("max µs", "lat_max", 1e3), ("compact_stall", "vm_compact_stall", 1),
    ("compact_fail", "vm_compact_fail", 1), ("compact_success", "vm_compact_success", 1),
    ("allocstall", "vm_allocstall", 1), ("kcompactd wakes", "vm_compact_daemon_wake", 1),
    ("vmalloc()ed sets", "vmalloc_sets", 1), ("vmalloc areas max", "vmalloc_areas_max", 1),
    ("TLB shootdowns", "tlb_shootdowns", 1),
    ("ENOMEM", "enomem", 1), ("free order>=4 before", "free_ge4_before", 1),
    ("after", "free_ge4_after", 1),
]

CG_COLUMNS = [
    ("threads", "cg_threads", 1), ("sets held", "cg_sets", 1),
    ("ended on ENOMEM", "cg_enomem", 1), ("memory.current growth per set, KiB", "cg_bytes_per_set", 1024),
    ("events max", "cg_events_max", 1), ("oom", "cg_events_oom", 1),
    ("oom_kill", "cg_events_oom_kill", 1), ("stat vmalloc KiB", "cg_stat_vmalloc", 1024),
    ("stat kernel KiB", "cg_stat_kernel", 1024), ("vmalloc()ed sets", "cg_vmalloc_sets", 1),
]


def frag_checks(runs):
    """(fragmentation failures, patched misses, vanilla shows the cost: per N)"""
    unfragmented, misses, cost = [], [], {}
    for k in runs:
        for r, run in enumerate(runs[k]):
            for key in [("frag_free_ge4", 0)] + [("frag_free_ge4_before", n) for n in SIZES]:
                v = run.get(key)
                if v is None or v > 0:
                    unfragmented.append(f"{k} round {r + 1}: {key[0]} {key[1]} = {v}")
    for r, run in enumerate(runs.get("patched", [])):
        for n in SIZES:
            for m in ("vm_compact_stall", "vmalloc_sets", "enomem"):
                v = run.get((f"frag_{m}", n))
                if v is None or v > 0:
                    misses.append(f"round {r + 1}: frag_{m} N={n} = {v}")
    for n in SIZES:
        stall = median_of(runs, "vanilla", "frag_vm_compact_stall", n, 0)
        vmalloced = median_of(runs, "vanilla", "frag_vmalloc_sets", n, 0)
        cost[n] = (stall, vmalloced)
    return unfragmented, misses, cost


def intro(target, page, rounds):
    """The report's title and how the scenario is made"""
    return [f"# setgroups() in fragmented memory, {target}, page size {page}, {rounds} rounds",
          "",
          "The vanilla and the patched kernel, configured identically (the target's fragments, "
          "`kconfig/bench.config`, `kconfig/frag.config`), boot in turn under QEMU TCG "
          f"(2 GiB, {SMP} vCPUs), the order swapped each round, and run `bench/groups_frag.c`.  "
          "Every cell is the median over the rounds [min-max when they differ].", "",
          "**clean**: in the freshly booted guest.  **frag**: after 1 GiB was filled with "
          "pipe pages (unmovable: not on the LRU, no movable_operations), one page in 16 "
          "kept (so every aligned 16-page block keeps a pinned page and its other 15 pages "
          "are free blocks of orders 0-3), and every other free block of order >= 4 was taken "
          "by an unmovable kernel allocation of that order (an empty pipe's resized ring), "
          "again before each loop.  Order 4 is what 10,000 gids take on vanilla "
          "(kvmalloc(40,008)), order 7 what 65,536 take (kvmalloc(262,152)); vanilla's "
          "kvmalloc() tries kmalloc() with __GFP_NORETRY (async direct compaction, which "
          "migrates only from unmovable pageblocks for an unmovable request; from 6.16, "
          "7.3 here, with no direct reclaim or compaction at all: kmalloc_gfp_adjust()) "
          "and then falls back to vmalloc(); the patched kernel takes order-0 pages and a "
          "header of at most a page.", ""]


def fragmentation_rows(runs, kernels, page):
    """How fragmented the guest's memory was, per kernel and per order"""
    md = ["## Fragmentation", "",
           "Free blocks of order >= 4 once fragmented and before each loop must be 0, or "
           "the run measured nothing.", "",
           "| kernel | filled MiB | kept MiB | grabbed MiB (blocks) | MemFree MiB after "
           "| free order>=4 after | fill s | release s | grab s |",
           "|---|---|---|---|---|---|---|---|---|"]
    for k in kernels:
        mib = 1024 * 1024 / page
        md.append(f"| {k} | {cell(runs, k, 'frag_fill_pages', 0, mib)} | "
                  f"{cell(runs, k, 'frag_kept_pages', 0, mib)} | "
                  f"{cell(runs, k, 'frag_grab_pages', 0, mib)} "
                  f"({cell(runs, k, 'frag_grab_blocks', 0)}) | "
                  f"{cell(runs, k, 'memfree_kb_fragmented', 0, 1024)} | "
                  f"{cell(runs, k, 'frag_free_ge4', 0)} | "
                  f"{cell(runs, k, 'frag_fill_ms', 0, 1e3)} | "
                  f"{cell(runs, k, 'frag_release_ms', 0, 1e3)} | "
                  f"{cell(runs, k, 'frag_grab_ms', 0, 1e3)} |")
    orders = sorted({n for k in kernels for run in runs[k] for (m, n) in run
                     if m == "buddy_boot"})
    md += ["", "Free blocks per order (/proc/buddyinfo, all zones): at boot, once fragmented, "
           "at the end.", "",
           "| order | " + " | ".join(f"{k} {w}" for k in kernels
                                      for w in ("boot", "fragmented", "end")) + " |",
           "|---" * (1 + 3 * len(kernels)) + "|"]
    for o in orders:
        md.append(f"| {o} | " + " | ".join(cell(runs, k, f"buddy_{w}", o) for k in kernels
                                            for w in ("boot", "fragmented", "end")) + " |")
    return md


def loop_rows(runs, kernels):
    """setgroups() of each N, per kernel and phase"""
    md = []
    for k in kernels:
        md += ["", f"## {k}: setgroups() of N random gids", "",
               "| phase | N | " + " | ".join(c[0] for c in LOOP_COLUMNS) + " |",
               "|---" * (2 + len(LOOP_COLUMNS)) + "|"]
        for phase in PHASES:
            for n in SIZES:
                md.append(f"| {phase} | {n} | " + " | ".join(
                    cell(runs, k, f"{phase}_{m}", n, s) for _, m, s in LOOP_COLUMNS) + " |")
    return md


def latency_rows(runs):
    """patched / vanilla latency, with its interval and verdict"""
    md = ["", "## patched / vanilla, latency", "",
           "Median over the rounds of the per-round ratio [bootstrap 95% interval]; ok when "
           "the interval is at or below 1 (the patched kernel no slower), MISS when wholly "
           "above, inconclusive when it straddles it.", "",
           "| phase | N | metric | vanilla µs | patched µs | patched/vanilla [95% CI] | |",
           "|---|---|---|---|---|---|---|"]
    for phase in PHASES:
        for n in SIZES:
            for m in ("lat_median", "lat_p99", "lat_max"):
                key = (f"{phase}_{m}", n)
                ratios = ratios_of(runs, "patched", "vanilla", key)
                if not ratios:
                    continue
                lo, hi = bootstrap(ratios)
                md.append(f"| {phase} | {n} | {m[4:]} | {cell(runs, 'vanilla', key[0], n, 1e3)} "
                          f"| {cell(runs, 'patched', key[0], n, 1e3)} | "
                          f"{statistics.median(ratios):.3f} [{lo:.3f}-{hi:.3f}] | "
                          f"{verdict_of(lo, hi, 1.0)} |")
    return md


def cgroup_rows(runs, kernels):
    """Sets held within a memory cgroup's headroom"""
    md = ["", "## Memory cgroup near its limit", "",
           "A child process in its own cgroup2 group (oom_score_adj -1000) starts its threads, "
           "then memory.max is set to memory.current + the headroom; one thread after another "
           "calls the raw setgroups syscall with 65,536 gids and keeps that set (each thread "
           "has its own credentials), until a call fails.  Compared: the sets of 65,536 held "
           "at once within the same headroom, memory.current's growth per set ((after - "
           "before) / sets: below a set's charge where the group's other memory was "
           "reclaimed to make room), and the memory.events deltas (max: charges that hit the limit; "
           "oom: memcg OOM invocations, which find no killable task and let the charge fail "
           "with ENOMEM; oom_kill: must be 0).  Vanilla charges 512 KiB for a set kmalloc()ed "
           "(order 7) and 65 pages for one vmalloc()ed; the patched kernel 64 pages and a "
           "784-byte object of the group_info cache (64-bit, 4K pages).", "",
           "| kernel | phase | headroom KiB | " + " | ".join(c[0] for c in CG_COLUMNS) + " |",
           "|---" * (3 + len(CG_COLUMNS)) + "|"]
    for k in kernels:
        for phase in PHASES:
            md.append(f"| {k} | {phase} | {cell(runs, k, f'{phase}_cg_headroom', 65536, 1024)} | "
                      + " | ".join(cell(runs, k, f"{phase}_{m}", 65536, s)
                                   for _, m, s in CG_COLUMNS) + " |")
    return md


def check_rows(runs, kernels):
    """The checks: (Markdown lines, whether the run failed)"""
    unfragmented, misses, cost = frag_checks(runs)
    md = ["", "## Checks", ""]
    md.append("- fragmentation (no free block of order >= 4 once fragmented and before each "
              "frag loop, every boot): " + ("ok" if not unfragmented else
                                            "FAILED: " + "; ".join(unfragmented[:8])))
    if "patched" in runs:
        md.append("- patched in fragmented memory: no compaction stall, no vmalloc()ed set, no "
                  "ENOMEM, every round: " + ("ok" if not misses else
                                             "MISS: " + "; ".join(misses[:8])))
    for n, (stall, vmalloced) in cost.items():
        bit = stall > 0 or vmalloced > 0
        md.append(f"- vanilla in fragmented memory at N={n}: compact_stall {fmt(stall)}, "
                  f"vmalloc()ed sets {fmt(vmalloced)} (median round): "
                  + ("the scenario bites" if bit else
                     "NOTHING: its kmalloc() never failed; the fragmentation did not hold"))
    for phase in PHASES:
        ended = [f"{k}" for k in kernels
                 if median_of(runs, k, f"{phase}_cg_enomem", 65536, 0) < 1]
        if ended:
            md.append(f"- memory cgroup, {phase}: {', '.join(ended)} held a set in every "
                      "thread without reaching the limit: the count is a lower bound")
    return md, bool(unfragmented or misses)


def report(target, outdir, runs, rounds):
    kernels = [k for k in KERNELS if runs.get(k)]
    page = int(median_of(runs, kernels[0], "page_size", 0, 4096)) if kernels else 4096
    cmd = f"make bench-frag ARCH={target} ROUNDS={rounds}{base_arg()}"
    checks, failed = check_rows(runs, kernels)
    md = (intro(target, page, rounds) + fragmentation_rows(runs, kernels, page)
          + loop_rows(runs, kernels) + latency_rows(runs) + cgroup_rows(runs, kernels)
          + checks + ["", f"Command: `{cmd}`"])
    (outdir / "results.md").write_text("\n".join(md) + "\n")
    (outdir / "command.txt").write_text(cmd + "\n")
    print("\n".join(md))
    return 1 if failed else 0


def cmd_main(args):
    page = page_size(TARGETS[args.target])
    if page != 4096:
        print(f"bench-frag: {args.target} has {page >> 10}K pages: neither set size needs a "
              "costly order there, nothing to measure")
        return 0
    if args.report_only:
        outdir = results_dir(args.target)
        runs = load_raw(outdir)
        return report(args.target, outdir, runs, len(next(iter(runs.values()))))
    return cmd_bench(args)


def add_commands(sub):
    ap = arguments(sub, "bench-frag", "setgroups() in fragmented memory and near a "
                   "memory cgroup's limit, vanilla and patched", __doc__, 3, "<target>-frag",
                   "with pages above 4K neither set size is a costly order: nothing to do")
    ap.add_argument("--calls", type=int, default=200, help="setgroups() per N, fragmented")
    ap.add_argument("--clean-calls", type=int, default=100, help="setgroups() per N, fresh guest")
    ap.add_argument("--fill-mb", type=int, default=1024, help="MiB of the 2 GiB to fragment")
    ap.add_argument("--keep", type=int, default=16, help="one page in KEEP stays pinned")
    ap.add_argument("--cg-headroom-kb", type=int, default=16384)
    ap.add_argument("--loop-seconds", type=int, default=120, help="at most, per timed loop")
    ap.set_defaults(fn=cmd_main)
