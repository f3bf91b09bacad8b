# SPDX-License-Identifier: GPL-2.0
"""make bench-native: each tree's own kernel/groups.c, timed on the host CPU.

As tools/testing/radix-tree does with lib/radix-tree.c, the benchmark
(bench/native/) compiles a tree's kernel/groups.c, lib/sort.c and
include/linux/cred.h unchanged against stand-in headers (bench/native/shim/)
into a user-space program, one per tree, with the same gcc flags.  The
programs take turns (A B A B ..., the order rotated each round), pinned to
one CPU, with the same data in a round.  Per metric and N the report gives
the median over the rounds of the per-round ratio to the first kernel
(vanilla) with a bootstrap 95% interval, and checks the targets: ok when the
interval is within the target, MISS when it is wholly beyond it,
inconclusive when it straddles it.  Results go to build/bench/native/:
results.md, raw.tsv, allocs.tsv, PNG plots.

Where valgrind is installed (or with --icount only), the same programs also
count instructions per call under callgrind (--count in bench.c), exact and
free of noise, against targets of their own: icount.tsv and a table in
results.md.
"""

import argparse
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from benchlib import (bench_dir, bootstrap, fmt, parse, plot, ratios_of, run_rounds, verdict_of,
                      write_raw)
from config import Failure, ROOT, base_arg, progress, settings, sh
from trees import tree_of

SRC = ROOT / "bench/native"


def native_dir(tcg=False):
    """build/bench/native: the programs and the report (native-tcg: the report
    of a run under QEMU's user-mode TCG)"""
    return bench_dir("native-tcg" if tcg else "native")


# The same flags for every tree and every unit; the kernel side sees only the
# stand-in headers (and, through them, the tree's cred.h).
CFLAGS = ["-O2", "-Wall", "-fno-strict-aliasing"]
KERNEL_FLAGS = ["-nostdinc", f"-I{SRC}/shim", "-include", "linux/kconfig.h"]
KERNEL_UNITS = ["groups_tu.c", "env.c", "sort_tu.c"]

LLC_SLICE = 32 << 20        # the L3 of one chiplet (see cold_notes())
COLD_CAP = 256 << 20        # the cold working set: 4x the LLC, at most this

# (metric, predicate on N, limit on patched/vanilla).  Cold targets only on
# the random and miss rows: the first, middle and last gids take the same
# probes in every set, which may fit in the cache (cold_notes()).
TARGETS = [
    (re.compile(r"search_hot_"), lambda n: True, 1.05),
    (re.compile(r"search_cold_(random|miss)$"), lambda n: n >= 1024, 1.0),
    # every line of the list flushed before each lookup, memory laid out as
    # the direct map is (bench.c, lookups_flushed())
    (re.compile(r"search_flush_(random|miss)$"), lambda n: n >= 10000, 0.90),
    (re.compile(r"search_flush_(random|miss)$"), lambda n: n >= 1023, 1.03),
    (re.compile(r"sort_random$"), lambda n: n == 65536, 0.3),
    (re.compile(r"sort_sorted$"), lambda n: n == 65536, 0.05),
]

# Instruction counts (callgrind): the metrics of bench.c's --count, the N of each
COUNTS = [("search", [1, 8, 32, 1000, 1022, 1023, 1024, 1025, 2048, 10000, 65536]),
          *[(m, [0, 1, 8, 32]) for m in ("alloc_fill_free", "alloc_fill_sort_free",
                                         "to_user", "from_user")],
          ("compare", [1, 8, 32, 1000, 10000, 65536])]
COUNT_CALLS = 1 << 14       # calls counted per run, at least
INLINE_MAX = 1022           # GROUPS_INLINE_MAX with the shim's 4 KiB pages
# (metric, predicate on N, limit, on what): "+" on the difference in instructions
# per call from the first kernel (vanilla), "x" on the ratio to it
ICOUNT_TARGETS = [
    (re.compile(r"search$"), lambda n: n <= INLINE_MAX, 1, "+"),
    (re.compile(r"search$"), lambda n: n >= 10000, 1.15, "x"),
    (re.compile(r"alloc_fill|to_user|from_user"), lambda n: n in (1, 8, 32), 1.05, "x"),
    (re.compile(r"compare$"), lambda n: True, 1.10, "x"),
]

PLOTS = {"search-hot": ["search_hot_first", "search_hot_random", "search_hot_miss"],
         "search-cold": ["search_cold_first", "search_cold_random", "search_cold_miss"],
         "search-flushed": ["search_flush_random", "search_flush_miss"],
         "sort": ["sort_random", "sort_sorted", "sort_nomem_random"],
         "copies": ["alloc_fill_free", "to_user", "from_user"]}


def build(kernel, extra_cflags):
    """groups_native_bench-<kernel> from the tree's own sources, and what they were"""
    tree = tree_of(kernel)
    sources = {"BENCH_CRED_H": tree / "include/linux/cred.h",
               "BENCH_GROUPS_C": tree / "kernel/groups.c",
               "BENCH_SORT_C": tree / "lib/sort.c"}
    defs = [f'-D{name}="{path}"' for name, path in sources.items()]
    # vanilla has no group_info_set_gid(): groups_tu.c then sets gid[] itself
    if re.search(r"\bgroup_info_set_gid\s*\(", sources["BENCH_CRED_H"].read_text()):
        defs.append("-DBENCH_GROUP_INFO_ACCESSORS")
    # before groups_cmp() is in kernel/groups.c, groups_tu.c has cred_fscmp()'s loop
    if re.search(r"^int groups_cmp\(", sources["BENCH_GROUPS_C"].read_text(), re.M):
        defs.append("-DBENCH_GROUPS_CMP")
    # groups_to_user() with a bound on the gids it copies (getgroups()'s size)
    if re.search(r"groups_to_user\([^)]*\bmax\)", sources["BENCH_GROUPS_C"].read_text()):
        defs.append("-DBENCH_TO_USER_MAX")
    objdir = native_dir() / "obj" / kernel
    objdir.mkdir(parents=True, exist_ok=True)
    flags = CFLAGS + list(extra_cflags)
    objs, warnings = [], []
    for unit in KERNEL_UNITS + ["bench.c"]:
        obj = objdir / unit.replace(".c", ".o")
        kernel_side = unit in KERNEL_UNITS
        out = sh(["gcc", *flags, *(KERNEL_FLAGS + defs if kernel_side else []),
                  "-c", SRC / unit, "-o", obj])
        warnings += [x for x in out.splitlines() if "warning:" in x]
        objs.append(obj)
    if warnings:
        # a stand-in header the tree needs and bench/native/shim lacks: what would
        # be timed is not the tree's code
        raise Failure(f"bench-native: {kernel}: {tree} does not compile cleanly against "
                      "bench/native/shim:\n" + "\n".join(warnings[:5]))
    exe = native_dir() / f"groups_native_bench-{kernel}"
    sh(["gcc", "-o", exe, *objs])
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources.values())).hexdigest()
    return exe, f"{tree}, kernel/groups.c + cred.h + lib/sort.c sha256 {digest[:12]}"


def cold_notes(meta):
    """Which cold rows are cold.  A lookup of the first, middle or last gid walks the
    same probes in every set: about sets * (log2(N) + 1) cache lines, however large
    the sets are.  Where those lines fit in the cache a core can use (at most
    LLC_SLICE: a chiplet CPU's core uses its own chiplet's L3, and CPUID in a VM may
    report the whole package's or an invented size), those rows time cached
    probes, and only the random and miss rows are cold."""
    cache = min(meta["llc"], LLC_SLICE)
    warm = []
    for x in meta["cold_sets"]:
        n, sets = (int(v) for v in x.split()[:2])
        probed = sets * (n.bit_length() + 1) * 64
        if probed <= cache:
            warm.append(f"N={n} ({sets} sets, about {probed / (1 << 20):.1f} MiB probed)")
    if not warm:
        return []
    return [f"Not cold: the first, middle and last rows at {', '.join(warm)}: every set's "
            f"probes of those gids fit in {cache >> 20} MiB of cache, so there only the "
            "random and miss rows measure cold lookups."]


def llc_bytes():
    """the largest CPU cache: sysfs, else what the C library reads from CPUID"""
    sizes = []
    for f in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        m = re.fullmatch(r"(\d+)([KM]?)", f.read_text().strip())
        if m:
            sizes.append(int(m.group(1)) << {"": 0, "K": 10, "M": 20}[m.group(2)])
    if sizes:
        return max(sizes), "sysfs"
    for name in ("LEVEL3_CACHE_SIZE", "LEVEL2_CACHE_SIZE"):
        r = subprocess.run(["getconf", name], capture_output=True, text=True)
        if r.stdout.strip().isdigit() and int(r.stdout) > 0:
            return int(r.stdout), f"getconf {name}"
    return 32 << 20, "unknown, assumed"


def meminfo(key):
    m = re.search(rf"^{key}:\s+(\d+) kB", Path("/proc/meminfo").read_text(), re.M)
    return int(m.group(1)) << 10 if m else 0


def cpu_model(tcg=False):
    """The first CPU's model name, family, model and stepping from /proc/cpuinfo,
    or QEMU's user-mode TCG on it."""
    if tcg:
        qemu = subprocess.run(["qemu-x86_64", "--version"], capture_output=True,
                              text=True).stdout.splitlines()[0]
        return f"{qemu}, user-mode TCG, on {cpu_model()}"
    text = Path("/proc/cpuinfo").read_text().split("\n\n")[0]
    fields = dict(re.findall(r"^([^\t:]+?)\s*:\s*(.*)$", text, re.M))
    name = next((fields[k] for k in ("model name", "Model", "Hardware") if k in fields),
                os.uname().machine)
    ids = ", ".join(f"{k} {fields[k]}" for k in ("cpu family", "model", "stepping",
                                                  "CPU implementer", "CPU part") if k in fields)
    return f"{name} ({ids})" if ids else name


def run(exe, cpu, seed, cold_bytes, tcg=False, only=None):
    # The heap in transparent huge pages, as the kernel's direct map would be.
    env = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.hugetlb=1")
    cmd = ["taskset", "-c", str(cpu), *(["qemu-x86_64"] if tcg else []), exe, "--seed",
           str(seed), "--cold-bytes", str(cold_bytes), *(["--only", only] if only else [])]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode:
        raise Failure(f"{exe.name} --seed {seed} exited {r.returncode}:\n{r.stderr.strip()}")
    lines = r.stdout.splitlines()
    allocs = {(f[1], int(f[2])): (float(f[3]), float(f[4]))
              for f in map(str.split, lines) if f and f[0] == "ALLOCS"}
    info = [x for x in lines if x.startswith("INFO ")]
    return parse(lines), allocs, info


def fallback_notes(allocs):
    """what the sort_nomem_* rows time, per kernel, from the ALLOCS counts"""
    notes = []
    for k, counts in allocs.items():
        refused = sorted({n for (m, n), (_, bad) in counts.items()
                          if m.startswith("sort_nomem_") and bad > 0})
        missed = sorted({f"{m.replace('_nomem', '')} N={n}" for (m, n), (calls, _) in
                         counts.items() if not m.startswith("sort_nomem_") and calls > 0
                         and counts.get((m.replace("sort_", "sort_nomem_"), n), (0, 0))[1] == 0})
        if not refused:
            notes.append(f"- {k}: groups_sort() asked for no memory at any N: its "
                         "sort_nomem_* rows time the same code as sort_* (no fallback to reach).")
            continue
        inputs = sorted({m[len("sort_nomem_"):] for (m, n), (_, bad) in counts.items()
                         if m.startswith("sort_nomem_") and bad > 0})
        notes.append(f"- {k}: with allocations failing, groups_sort() was refused memory, "
                     f"so took its allocation-free sort, for {', '.join(inputs)} input at N = "
                     f"{', '.join(map(str, refused))}; elsewhere it asked for none.")
        if missed:
            notes.append(f"- {k}: FALLBACK NOT REACHED although the normal sort allocates: "
                         + ", ".join(missed))
    return notes


def report(outdir, runs, allocs, meta, counts):
    kernels = list(runs)
    base, others = kernels[0], kernels[1:]
    order = {m: i for i, (m, n) in reversed(list(enumerate(runs[base][0])))}
    keys = sorted(runs[base][0], key=lambda mn: (order[mn[0]], mn[1]))  # as the program runs them
    head = ["metric", "N", f"{base} ns", *[f"{k} ns" for k in others],
            *[f"{k}/{base} [95% CI]" for k in others], "target", *others]
    rows, misses, unclear = [], [], []
    for m, n in keys:
        med = [fmt(statistics.median(run[(m, n)] for run in runs[k])) for k in kernels]
        limits = [lim for rx, pred, lim in TARGETS if rx.match(m) and pred(n)]
        ratio_txt, verdicts = [], []
        for k in others:
            ratios = ratios_of(runs, k, base, (m, n))
            if not ratios:
                ratio_txt.append("-")
                verdicts.append("")
                continue
            lo, hi = bootstrap(ratios)
            ratio_txt.append(f"{statistics.median(ratios):.3f} [{lo:.3f}-{hi:.3f}]")
            v = verdict_of(lo, hi, min(limits)) if limits else ""
            verdicts.append(v)
            if v == "MISS":
                misses.append(f"{m} N={n}" + (f" ({k})" if others[1:] else ""))
            elif v == "inconclusive":
                unclear.append(f"{m} N={n}" + (f" ({k})" if others[1:] else ""))
        target = f"<= {min(limits)}" if limits else ""
        rows.append("| " + " | ".join([m, str(n), *med, *ratio_txt, target, *verdicts]) + " |")

    md = [f"Native benchmark: each tree's kernel/groups.c compiled into a user-space program "
          f"(bench/native/) and timed on the host CPU; {meta['rounds']} rounds, the programs "
          f"taking turns pinned to CPU {meta['cpu']}.  ns per call, medians of the rounds; "
          f"ratio = median over rounds of the per-round ratio, with a bootstrap 95% interval; "
          "verdict ok when the interval is within the target, MISS when it is wholly "
          "beyond it, inconclusive when it straddles it.", "",
          f"- CPU: {meta['cpu_model']} (pinned to CPU {meta['cpu']})",
          f"- last-level cache: {meta['llc'] >> 20} MiB ({meta['llc_from']}); cold lookups: "
          f"{meta['cold'] >> 20} MiB of sets (4x the LLC, at most {COLD_CAP >> 20} MiB and a "
          "quarter of the available memory), a random set for each lookup",
          f"- compiler: {meta['cc']}, `{' '.join(meta['cflags'])}` for every tree; "
          "kmalloc() and the page allocator are glibc malloc, its heap in transparent "
          "huge pages (glibc.malloc.hugetlb=1) as the kernel's direct map would be",
          *[f"- {k}: {meta['trees'][k]}" for k in kernels], "",
          "| " + " | ".join(head) + " |", "|" + "---|" * len(head), *rows, "",
          f"Targets missed: {', '.join(misses) if misses else 'none'}",
          f"Inconclusive: {', '.join(unclear) if unclear else 'none'}", "",
          "Allocation-free sort (sort_nomem_*: every allocation fails while groups_sort() "
          "runs):", *fallback_notes(allocs), "",
          "Cold working sets (N, sets, bytes): " + "; ".join(meta["cold_sets"]), "",
          *cold_notes(meta), "",
          *(icount_report(counts)[0] if counts else [meta["no_counts"]]), "",
          f"Command: `{meta['command']}`"]
    (outdir / "results.md").write_text("\n".join(md) + "\n")
    plot(outdir, runs, keys, PLOTS)
    print("\n".join(md))
    return misses + (icount_report(counts)[1] if counts else [])


def callgrind(exe, metric, n, passes):
    """The instructions of `exe --count metric n passes` in count_region(), and the
    calls that a pass makes."""
    cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=count_region",
           "--callgrind-out-file=/dev/null", exe, "--count", metric, str(n), str(passes)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    ir = re.search(r"^==\d+== Collected : (\d+)$", r.stderr, re.M)
    calls = re.search(r"^COUNT \S+ \d+ (\d+)$", r.stdout, re.M)
    if r.returncode or not ir or not calls:
        raise Failure(f"{' '.join(map(str, cmd))} exited {r.returncode}:\n"
                      f"{r.stderr.strip()[-2000:]}")
    return int(ir.group(1)), int(calls.group(1))


def per_call(ir0, ir1, ir2, calls):
    """Instructions per call from the counts of the runs with none, then `calls`, then
    2 * `calls` calls: the last `calls` calls' own, exactly.  The first ones must have
    cost the same to 0.01 per call (entering the calls' loop at all is the difference),
    or more than the calls differs between the runs."""
    first, second = (ir1 - ir0) / calls, (ir2 - ir1) / calls
    if abs(first - second) > 0.01:
        raise Failure(f"instruction counts {ir0}, {ir1}, {ir2} for 0, {calls} and "
                      f"{2 * calls} calls: not linear in the calls")
    return second


def icount(out, exes):
    """{kernel: {(metric, N): instructions per call}} for every metric and N of COUNTS,
    also in icount.tsv"""
    counts = {k: {} for k in exes}
    for k, exe in exes.items():
        start = time.monotonic()
        for metric, sizes in COUNTS:
            for n in sizes:
                ir0, calls = callgrind(exe, metric, n, 0)
                passes = -(-COUNT_CALLS // calls)
                runs = [ir0, *(callgrind(exe, metric, n, p * passes)[0] for p in (1, 2))]
                counts[k][(metric, n)] = per_call(*runs, passes * calls)
        progress(f"bench-native: instruction counts {k}", start)
    (out / "icount.tsv").write_text("kernel\tmetric\tN\tinstructions_per_call\n" + "".join(
        f"{k}\t{m}\t{n}\t{v}\n" for k in counts for (m, n), v in counts[k].items()))
    return counts


def icount_report(counts):
    """The table of instructions per call, each kernel against the first, and the
    targets missed: (Markdown lines, misses)"""
    kernels = list(counts)
    base, others = kernels[0], kernels[1:]
    head = ["metric", "N", *kernels, *[f"{k} - {base}" for k in others],
            *[f"{k}/{base}" for k in others], "target", *others]
    rows, misses = [], []
    for (m, n), b in counts[base].items():
        target = next(((lim, on) for rx, pred, lim, on in ICOUNT_TARGETS
                       if rx.match(m) and pred(n)), None)
        verdicts = []
        for k in others:
            v = counts[k][(m, n)]
            x = v - b if target and target[1] == "+" else v / b if b else 0
            verdicts.append(verdict_of(x, x, target[0]) if target else "")
            if verdicts[-1] == "MISS":
                misses.append(f"{m} N={n}" + (f" ({k})" if others[1:] else ""))
        rows.append("| " + " | ".join([
            m, str(n), *[f"{counts[k][(m, n)]:.1f}" for k in kernels],
            *[f"{counts[k][(m, n)] - b:+.1f}" for k in others],
            *[f"{counts[k][(m, n)] / b:.3f}" if b else "-" for k in others],
            (f"<= {base} + {target[0]}" if target[1] == "+" else f"<= {target[0]}")
            if target else "", *verdicts]) + " |")
    lines = ["Instructions per call, counted by callgrind (valgrind --tool=callgrind "
            "--toggle-collect=count_region; `--count` in bench/native/bench.c) in three "
            f"runs of the same program: with no calls, at least {COUNT_CALLS} and twice "
            "as many; the last two's difference per call, which the first two's must "
            "equal to 0.01 (only the calls differ).  search: "
            "groups_search() (in_group_p() needs a task's credentials) on the set "
            "{2i + 10 : i < N}, each member and each gap looked up once a pass, with the "
            "benchmark's own loop (a few instructions, the same for every kernel); "
            "alloc_fill_*: groups_alloc(), the gids set, groups_sort() in the _sort_ row, "
            "groups_free(); to_user, from_user: groups_to_user() and groups_from_user() "
            "in the initial namespace.", "",
            "| " + " | ".join(head) + " |", "|" + "---|" * len(head), *rows, "",
             f"Instruction targets missed: {', '.join(misses) if misses else 'none'}"]
    return lines, misses


def command_of(args):
    """The make command that repeats this run"""
    command = ("make bench-native" + base_arg() +
               (f" ROUNDS={args.rounds}" if args.rounds != 9 else ""))
    if args.kernels != ["vanilla", "patched"]:
        command += f" KERNELS=\"{' '.join(args.kernels)}\""
    command += (" TCG=1" if args.tcg else "") + (f" ONLY={args.only}" if args.only else "")
    if args.icount != "auto":
        command += f" (qemu/bench_native.py --icount {args.icount})"
    return command


def timed_rounds(args, exes, cold):
    """The programs in turn, A B then B A ...: (runs, allocations, info lines)"""
    allocs, info = {}, []

    def measure(k, r):
        start = time.monotonic()
        values, tries, lines = run(exes[k], args.cpu, r + 1, cold, args.tcg, args.only)
        allocs.setdefault(k, tries)
        info[:] = info or lines
        return values, f" ({time.monotonic() - start:.0f}s)"

    runs = run_rounds("bench-native", args.kernels, args.rounds, measure)
    keys = {k: set(runs[k][0]) for k in runs}
    if any(v != keys[args.kernels[0]] for v in keys.values()):
        raise Failure("the kernels' programs measured different metrics")
    return runs, allocs, info


def missed(misses, t0, where):
    """The one exit rule: a target missed beyond the run's noise (the interval
    wholly past it, or an instruction count, which has none) is non-zero."""
    print(f"bench-native: {time.monotonic() - t0:.0f}s; results in {where}")
    if misses:
        print(f"bench-native: targets missed beyond the run's noise: {', '.join(misses)}")
    return 1 if misses else 0


def cmd_main(args):
    out = native_dir(args.tcg)
    t0 = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    (settings().build / "logs").mkdir(parents=True, exist_ok=True)
    cflags = CFLAGS + args.cflags.split()
    exes, trees = {}, {}
    for k in args.kernels:
        exes[k], trees[k] = build(k, args.cflags.split())
    command = command_of(args)
    cc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    if args.icount == "only":
        lines, misses = icount_report(icount(out, exes))
        md = [*[f"- {k}: {trees[k]}" for k in exes],
              f"- compiler: {cc.splitlines()[0]}, `{' '.join(cflags)}` for every tree", "",
              *lines, "", f"Command: `{command}`"]
        (out / "icount.md").write_text("\n".join(md) + "\n")
        print("\n".join(md))
        return missed(misses, t0, f"{out}/icount.md")
    llc, llc_from = llc_bytes()
    cold = (args.cold_mib << 20 if args.cold_mib else
            min(4 * llc, COLD_CAP, meminfo("MemAvailable") // 4))
    progress(f"bench-native: built {', '.join(exes)}; LLC {llc >> 20} MiB ({llc_from}), "
             f"cold working set {cold >> 20} MiB, CPU {args.cpu}", t0)
    runs, allocs, info = timed_rounds(args, exes, cold)
    write_raw(out, runs)
    (out / "allocs.tsv").write_text("kernel\tmetric\tN\tallocs_per_sort\trefused\n" + "".join(
        f"{k}\t{m}\t{n}\t{c}\t{f}\n" for k in allocs for (m, n), (c, f) in
        sorted(allocs[k].items())))
    counts = icount(out, exes) if args.icount == "auto" and shutil.which("valgrind") else None
    meta = {"rounds": args.rounds, "cpu": args.cpu, "cpu_model": cpu_model(args.tcg),
            "llc": llc, "llc_from": llc_from, "cold": cold, "cc": cc.splitlines()[0],
            "cflags": cflags, "trees": trees, "command": command,
            "cold_sets": [" ".join(x.split()[2:5]) for x in info
                          if x.startswith("INFO cold_sets")],
            "no_counts": "No instruction counts: " + ("--icount no." if args.icount == "no"
                                                      else "valgrind is not installed.")}
    return missed(report(out, runs, allocs, meta, counts), t0, f"{out}/")


def add_commands(sub):
    ap = sub.add_parser("bench-native", help="each tree's kernel/groups.c in user space: "
                        "host-CPU times and callgrind counts", description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--kernels", nargs="+", default=["vanilla", "patched"],
                    help="trees to compare, the first is the baseline "
                         "(vanilla, patched, upto-NNNN)")
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)),
                    help="the CPU to pin the programs to (default: the last one)")
    ap.add_argument("--cold-mib", type=int,
                    help="the cold lookups' working set (default: 4x the LLC, capped)")
    ap.add_argument("--cflags", default="", help="extra gcc flags, for every tree")
    ap.add_argument("--tcg", action="store_true",
                    help="run the programs under QEMU's user-mode TCG (qemu-x86_64), "
                         "results in build/bench/native-tcg/")
    ap.add_argument("--only", help="only the metrics whose name starts with this")
    ap.add_argument("--icount", choices=["auto", "only", "no"], default="auto",
                    help="instructions per call under callgrind: auto (where valgrind "
                         "is installed), only (no timings; icount.md) or no")
    ap.set_defaults(fn=cmd_main)
