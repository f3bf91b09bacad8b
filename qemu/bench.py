# SPDX-License-Identifier: GPL-2.0
"""make bench: the patched kernel against vanilla, side by side under QEMU.

The kernels are built with the same config (kconfig/bench.config on top of
the target's), boot under the same QEMU settings and run the same static
program (bench/groups_bench.c), taking turns (A B C A B C ...) over the
rounds so that machine noise hits them all.  Per metric and N the report
gives the median ratio patched/vanilla over the rounds with its min-max
spread.  A third kernel, the series up to attribute() (the sort and copy
work on today's flat array, before the storage changes), splits each gain
between the sort and copy patches and the storage patch.  Results go to
build/bench/<target>/: results.md, raw.tsv, plots, the command.

The memory of a set is measured exactly in the guest, from the kmem
tracepoints around one setgroups() (see mem_window() in groups_bench.c),
and set against what the layout must take, computed here from the code's
constants (qemu/slub.py); make bench fails when the two differ for any
kernel, N and round, and when a time misses its target beyond the run's
noise (its bootstrap interval wholly beyond it; a row that straddles the
target is reported as inconclusive and does not fail the run).

make bench-lookups (--lookups) boots the same kernels to time only the
in-kernel lookups: a boot of seconds, so that more rounds fit, with no
other phase of the benchmark before them.  Its results go to
build/bench/<target>-lookups/.
"""

import shutil
import statistics
import time

import config
import slub
from benchlib import (arguments, bench_dir, boot_rounds, bootstrap, fmt, initramfs_of, load_raw,
                      plot, ratio_of, ratios_of, spread, verdict_of)
from config import ROOT, base_arg, kmalloc_min, settings
from guest import boot, compile_c, make_initramfs
from kbuild import build_kernel, kmake
from trees import tree_of

# (metric, predicate on N, limit): the series' targets, as ratios
TARGETS = [
    ("setgroups_random", lambda n, pg: n == 65536, 0.25),
    ("setgroups_sorted", lambda n, pg: n == 65536, 0.05),
    ("setgroups_random", lambda n, pg: n == 10000, 0.3),
    ("getgroups", lambda n, pg: n == 65536, 0.1),
    ("setgroups_random", lambda n, pg: n <= 32, 1.0),
    ("setgroups_sorted", lambda n, pg: n <= 32, 1.0),
    ("setgroups_reverse", lambda n, pg: n <= 32, 1.0),
    ("setgroups_dups", lambda n, pg: n <= 32, 1.0),
    ("getgroups", lambda n, pg: n <= 32, 1.0),
    ("lookup_first", lambda n, pg: True, 1.1),
    ("lookup_middle", lambda n, pg: True, 1.1),
    ("lookup_last", lambda n, pg: True, 1.1),
    ("lookup_miss", lambda n, pg: True, 1.1),
    ("lookup_random", lambda n, pg: True, 1.1),
    ("fork_exit_wait", lambda n, pg: True, 1.05),
    # 10,000 groups are paged only with 4K pages (GROUPS_INLINE_MAX 1,022; 16,382 with 64K)
    ("mem_measured", lambda n, pg: n == 10000 and n > slub.inline_max(pg), 0.7),
    ("mem_measured", lambda n, pg: n == 65536, 0.55),
    ("mem_measured", lambda n, pg: True, 1.0),
]

# counts whose target is an absolute 0 on the patched kernel: requests above a page
# (kmalloc/kvmalloc calls for more than PAGE_SIZE, accounted page allocations of
# order > 0 that back no kmalloc) and vmalloc areas
ZERO = {"requests_gt_page", "vmalloc_areas"}
# counts shown without a ratio or target: SLUB's own refills of order > 0 depend on
# how full the cache's slab was when the call came, not on the request
INFO = {"slab_refills_gt0"}
# shown in the memory table only
MEMORY_ONLY = {"mem_peak", "mem_freed"}
UNITS = {"mem_measured": "bytes", "mem_peak": "bytes", "mem_freed": "bytes",
         "requests_gt_page": "per call", "slab_refills_gt0": "per call",
         "vmalloc_areas": "per set"}

def attribute():
    """The last patch before the storage switch: sort and copy on the flat array"""
    return settings().before_pages


def results_dir(target, lookups):
    return bench_dir(target + ("-lookups" if lookups else ""))


def build(kernel, target):
    t = config.TARGETS[target]
    image = build_kernel(kernel, target, extra=("bench",))
    out = settings().build / "out" / f"{kernel}-{target}-bench"
    moddir = settings().build / "bench" / f"module-{kernel}-{target}"
    shutil.rmtree(moddir, ignore_errors=True)
    shutil.copytree(ROOT / "bench/lookup", moddir)
    kmake(tree_of(kernel), out, t, f"M={moddir}", "modules",
          log=settings().build / f"logs/bench-module-{kernel}-{target}.log")
    return image, moddir / "groups_lookup_bench.ko"


def cmd_bench(args):
    t0 = time.monotonic()
    target = args.target
    t = config.TARGETS[target]
    outdir = results_dir(target, args.lookups)
    outdir.mkdir(parents=True, exist_ok=True)
    abis = t["abis"]
    mode = ["--lookups"] if args.lookups else []
    progs = {abi: compile_c(abi, ROOT / "bench/groups_bench.c",
                            settings().build / "bin" / abi / "groups_bench", libs=["-pthread"])
             for abi in abis}
    kernels = ("vanilla", f"upto-{attribute()}", "patched")
    initrds, images = {}, {}
    for k in kernels:
        images[k], module = build(k, target)
        files = {"/bench/groups_lookup_bench.ko": module}
        files.update({f"/bench/groups_bench-{abi}": progs[abi] for abi in abis})
        plan = [[f"{abis[0]}", 900, f"/bench/groups_bench-{abis[0]}", *mode, "--module",
                 "/bench/groups_lookup_bench.ko"]]
        if not args.lookups:
            plan += [[f"{abi}-compat16", 900, f"/bench/groups_bench-{abi}", "--compat16"]
                     for abi in abis[1:]]
        initrds[k] = make_initramfs(initramfs_of(k, outdir), target, files, plan)

    if args.build_only:
        return 0

    runs = boot_rounds("bench", kernels, args.rounds, outdir,
                       lambda k, job: boot(k, target, job, images[k], initrds[k], 1800),
                       lambda line: "groups_bench:" in line)
    if runs is None:
        return 1
    failures, misses = report(target, outdir, runs, args.rounds, lookups=args.lookups)
    print(f"bench: {time.monotonic() - t0:.0f}s; results in {outdir}/")
    return verdict(failures, misses, outdir)


def verdict(failures, misses, outdir):
    """The exit status: 1, with one clear line each, when the memory check
    failed or a target was missed beyond the run's noise (a row whose
    interval straddles its target is inconclusive: within the noise)"""
    beyond = [m for m in misses if not m.endswith("(inconclusive)")]
    if failures:
        more = " ..." if len(failures) > 1 else ""
        print(f"bench: FAILED: the measured memory of a set is not "
              f"what its layout must take ({len(failures)}: {failures[0]}{more}); "
              f"see {outdir}/results.md")
    if beyond:
        print(f"bench: FAILED: targets missed beyond the run's noise: {', '.join(beyond)}; "
              f"see {outdir}/results.md")
    return 1 if failures or beyond else 0


# The rows of the cover letter's table
COVER = [("setgroups_random", [32, 10000, 65536]), ("setgroups_sorted", [32, 65536]),
         ("getgroups", [32, 65536]), ("setgroups16_random", [65536]), ("getgroups16", [65536]),
         ("lookup_first", [32, 65536]), ("lookup_middle", [10000, 65536]),
         ("lookup_random", [32, 1024, 10000, 65536]), ("lookup_miss", [1024, 65536]),
         ("fork_exit_wait", [32, 65536]), ("mem_measured", [1023, 10000, 65536]),
         ("requests_gt_page", [10000, 65536])]


def metric_row(runs, m, n, page, mid):
    """One metric at one N: (its Markdown row, [the miss, if any], its cells
    for the cover letter), or None if a kernel lacks it."""
    v = [run.get((m, n)) for run in runs["vanilla"]]
    p = [run.get((m, n)) for run in runs["patched"]]
    if None in v or None in p:
        return None
    vm, pm = statistics.median(v), statistics.median(p)
    target_txt, verdict = "", ""
    r_mid = ratio_of(runs, mid, "vanilla", (m, n))
    mid_txt = f"{r_mid[0]:.3f} [{r_mid[1]:.3f}-{r_mid[2]:.3f}]" if r_mid else "-"
    if m in ZERO or m in INFO:
        ratio_txt = "-"
        if m in ZERO:
            target_txt = "0 (patched)"
            verdict = "ok" if max(p) == 0 else "MISS"
        if mid in runs:
            mid_txt = fmt(statistics.median(run.get((m, n), 0) for run in runs[mid]))
    else:
        r = ratio_of(runs, "patched", "vanilla", (m, n))
        if not r:               # vanilla 0 in every round: no ratio
            return (f"| {m} | {n} | {fmt(vm)} | {fmt(pm)} | {UNITS.get(m, 'ns')} | "
                    "- (vanilla 0) | | | |", [], None)
        lo, hi = bootstrap(ratios_of(runs, "patched", "vanilla", (m, n)))
        ratio_txt = f"{r[0]:.3f} [{lo:.3f}-{hi:.3f}]"
        limits = [lim for tm, pred, lim in TARGETS if tm == m and pred(n, page)]
        if limits:
            target_txt = f"<= {min(limits)}"
            verdict = verdict_of(lo, hi, min(limits))
    miss = [f"{m} N={n}{' (inconclusive)' if verdict == 'inconclusive' else ''}"
            ] if verdict in ("MISS", "inconclusive") else []
    return (f"| {m} | {n} | {fmt(vm)} | {fmt(pm)} | {UNITS.get(m, 'ns')} | {ratio_txt} | "
            f"{target_txt} | {verdict} | {mid_txt} |", miss,
            (fmt(vm), fmt(pm), ratio_txt, f"{target_txt} {verdict}".strip(),
             mid_txt.split(" ")[0]))


def cover_table(cover_rows):
    """The rows of COVER that the run has, as the cover letter's table"""
    line = "  %-18s %5s %10s %10s  %-21s %-10s %s"
    cover = [line % ("metric", "N", "vanilla", "patched", "patched/vanilla", "target",
                     f"to {attribute()}")]
    cover += [line % (m, n, *cover_rows[(m, n)]) for m, ns in COVER for n in ns
              if (m, n) in cover_rows]
    return "\n".join(cover) + "\n"


def report(target, outdir, runs, rounds, lookups=False):
    """results.md, cover-table.txt and the plots, from the runs"""
    keys = sorted({key for run in runs["vanilla"] for key in run},
                  key=lambda kn: (kn[0], kn[1]))
    page = int(runs["vanilla"][0].get(("page_size", 0), 4096))
    mid = f"upto-{attribute()}"

    rows, misses, cover_rows = [], [], {}
    for m, n in keys:
        if m == "page_size" or m in MEMORY_ONLY:
            continue
        row = metric_row(runs, m, n, page, mid)
        if row:
            rows.append(row[0])
            misses += row[1]
            if row[2]:
                cover_rows[(m, n)] = row[2]

    cmd = f"make bench{'-lookups' if lookups else ''} ARCH={target} ROUNDS={rounds}{base_arg()}"
    md = [f"Benchmark: patched / vanilla, {target}, page size {page}, {rounds} rounds; "
          f"the kernels ({', '.join(runs)}) boot in turn under QEMU TCG, the order "
          "rotated each round; medians of the rounds, ratio = median over rounds of "
          "patched/vanilla [bootstrap 95% interval of that median]; a verdict is ok when "
          "the interval is within the target, MISS when wholly beyond it, inconclusive "
          "when it straddles it.  The last "
          f"column is the same ratio for the series up to {attribute()} (the sort and copy "
          "patches on the flat array): what remains between it and the patched column is "
          "the storage patch's doing.", "",
          f"| metric | N | vanilla | patched | unit | patched/vanilla [95% CI] | target | | "
          f"up to {attribute()}/vanilla |",
          "|---|---|---|---|---|---|---|---|---|", *rows, "",
          f"Targets missed or inconclusive: {', '.join(misses) if misses else 'none'}", ""]
    failures = []
    if not lookups:
        mem_md, failures = memory_table(target, runs, page)
        md += mem_md
    md += [f"Command: `{cmd}`"]
    (outdir / "results.md").write_text("\n".join(md) + "\n")
    (outdir / "command.txt").write_text(cmd + "\n")
    (outdir / "cover-table.txt").write_text(cover_table(cover_rows))
    plot(outdir, runs, keys, PLOTS)
    print("\n".join(md))
    return failures, misses


def memory_rounds(runs, k, n, page, layout):
    """Each round of kernel k at N against the layout's (header, pages):
    (failures, notes on the frees, the row's flags)"""
    header, pages = layout
    c = header + pages * page
    failures, notes, check = [], [], []
    for r, run in enumerate(runs):
        v = run.get(("mem_measured", n))
        if v is None:
            failures.append(f"{k} N={n} round {r + 1}: no mem_measured")
            continue
        if v != c:
            vm = run.get(("vmalloc_areas", n), 0)
            failures.append(f"{k} N={n} round {r + 1}: measured {v:,.0f}, computed {c:,} "
                            f"({header:,} header + {pages} pages), {v - c:+,.0f} bytes"
                            + (f"; the set was vmalloc()ed ({vm:.0f} area)" if vm else ""))
            check.append(f"DIFF {k}")
        freed = run.get(("mem_freed", n))
        if freed is None:
            notes.append(f"{k} N={n} round {r + 1}: frees not verified")
        elif freed != v:
            notes.append(f"{k} N={n} round {r + 1}: {freed:,.0f} bytes freed once "
                         f"replaced, {v:,.0f} measured")
            check.append(f"freed {k}")
    return failures, notes, check


def memory_table(target, runs, page):
    """The memory of a set per kernel, measured against computed: (Markdown, failures)

    A failure is a kernel, N and round whose measured figure is not what the
    layout must take, or a kernel that measured nothing."""
    kmin = kmalloc_min(target)
    kernels = list(runs)
    ns = sorted({n for k in kernels for run in runs[k] for (m, n) in run if m == "mem_measured"})
    failures, notes, silent = [], [], set()
    for k in kernels:
        if not any(("mem_measured", n) in run for run in runs[k] for n in ns):
            failures.append(f"{k}: no mem_measured in any round (tracefs or the kmem "
                            "events missing in the guest?)")
            silent.add(k)

    def cell(k, m, n):
        return spread([run[(m, n)] for run in runs[k] if (m, n) in run])

    rows = []
    for n in ns:
        cells, check = [], []
        for k in kernels:
            computed = slub.mem_computed(k, n, page, kmin)
            cells += [cell(k, "mem_measured", n), f"{computed:,}"]
            if k not in silent:
                f, nt, ch = memory_rounds(runs[k], k, n, page, slub.layout(k, n, page, kmin))
                failures += f
                notes += nt
                check += ch
        peak = cell("patched", "mem_peak", n) if "patched" in runs else "-"
        check = sorted(set(check))
        rows.append(f"| {n} | " + " | ".join(cells) + f" | {peak} | "
                    f"{', '.join(check) if check else 'ok'} |")
    head = " | ".join(f"{k} measured | {k} computed" for k in kernels)
    md = [f"Memory per set, bytes: measured = what one setgroups() hands out and keeps "
          "(kmem tracepoints in the guest: kmalloc size classes, groups_alloc()'s "
          "objects of the group_info cache and accounted pages, less what the call "
          "frees again), the least of 8 calls; computed = what the layout must take, "
          f"from the code's constants (vanilla and up to {attribute()}: kvmalloc(8 + 4N); "
          "patched: kmalloc(8 + 4N) inline, else the cache's object and a page a block) "
          f"with page size {page} and KMALLOC_MIN_SIZE {kmin}; peak = the most the "
          "patched kernel held at once during the call.  "
          "make bench fails when measured and computed differ at all.", "",
          f"| N | {head} | patched peak | |",
          "|---" * (2 * len(kernels) + 3) + "|", *rows, ""]
    if notes:
        md += ["Frees: " + "; ".join(notes[:20]) + (" ..." if len(notes) > 20 else ""), ""]
    md += [f"Memory measured against computed: {len(failures)} failure(s)"
           + (":\n  " + "\n  ".join(failures) if failures else ""), ""]
    return md, failures


# the plots of make bench: name -> metrics
PLOTS = {"syscalls": ["setgroups_random", "setgroups_sorted", "getgroups"],
         "lookup": ["lookup_first", "lookup_random", "lookup_miss"],
         "memory": ["mem_measured"]}


def cmd_main(args):
    if args.report_only:
        outdir = results_dir(args.target, args.lookups)
        runs = load_raw(outdir)
        failures, misses = report(args.target, outdir, runs, len(runs["vanilla"]),
                                  lookups=args.lookups)
        return verdict(failures, misses, outdir)
    return cmd_bench(args)


def add_commands(sub):
    ap = arguments(sub, "bench", "vanilla and patched under QEMU, boots alternated: "
                   "times, bytes per set, plots", __doc__, 5, "<target>")
    ap.add_argument("--lookups", action="store_true",
                    help="time only the in-kernel lookups (build/bench/<target>-lookups/)")
    ap.set_defaults(fn=cmd_main)
