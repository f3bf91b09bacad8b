# SPDX-License-Identifier: GPL-2.0
"""What every benchmark shares: the order of its boots over the rounds (so
that machine noise hits every kernel alike), a boot again when an x86 guest
lost its clock, a boot's figures or why they cannot be used, where results
go, raw.tsv, the statistics of ratios over rounds, the plots, and the
command line of the QEMU benchmarks.
"""

import random
import shutil
import statistics
import subprocess

from config import Failure, progress, results_of, settings, target_command

# boots of a round before a guest that keeps losing its clock fails the run
CLOCK_TRIES = 5


class BadBoot(Exception):
    """A boot whose figures cannot be used (the benchmark's exit status is 1)"""


class NoUsableClock(Failure):
    """A guest that fell back to the jiffies clock at every boot"""


def turns(kernels, rounds, mirror=False):
    """The boots of the run, (round, kernel) in order: the kernels rotated each
    round (A B C, B C A, C A B, ...), or with mirror reversed every other round
    (A B C, C B A, ...); with two kernels both are A B, B A, ..."""
    kernels = list(kernels)
    for r in range(rounds):
        if mirror:
            order = kernels if r % 2 == 0 else kernels[::-1]
        else:
            shift = r % len(kernels)
            order = kernels[shift:] + kernels[:shift]
        for k in order:
            yield r, k


def run_rounds(name, kernels, rounds, measure, mirror=False):
    """{kernel: [its figures of each round]}: measure(kernel, round) gives one
    boot's (figures, note), the note ending the progress line of the boot."""
    runs = {k: [] for k in kernels}
    for r, k in turns(kernels, rounds, mirror):
        figures, note = measure(k, r)
        runs[k].append(figures)
        progress(f"{name}: round {r + 1}/{rounds} {k}{note}")
    return runs


def boot_rounds(name, kernels, rounds, outdir, boot_one, complaint):
    """One boot per kernel and round in run_rounds()'s order: boot_one(kernel,
    job) boots it, giving (lines, outcome, elapsed), and boot_figures() takes
    its figures.  The runs, also written to outdir/raw.tsv; None, said on
    stdout, when a boot's figures cannot be used."""
    def measure(k, r):
        job = job_of(k, outdir, r)
        figures, elapsed = boot_figures(name, job, lambda: boot_one(k, job), complaint)
        return figures, f" ({elapsed:.0f}s in the guest)"
    try:
        runs = run_rounds(name, kernels, rounds, measure)
    except (BadBoot, NoUsableClock) as e:
        print(e)
        return None
    write_raw(outdir, runs)
    return runs


def lost_clock(lines):
    """The clocksource line of a guest that ended on the jiffies clock, or None.

    With no HPET or PM timer (no ACPI in these configs), an x86 guest whose
    TSC fails calibration or the clocksource watchdog under TCG ends up on
    the jiffies clock, which times in 4 ms steps (targets.conf's
    tsc=reliable and TSC rate make it rare, not impossible): such a run is
    never used."""
    clock = [x for x in lines if "Switched to clocksource" in x]
    return clock[-1].split("] ")[-1] if clock and "jiffies" in clock[-1] else None


def boot_with_clock(name, job, boot, tries=CLOCK_TRIES):
    """boot(), which gives (lines, outcome, elapsed), again until the guest keeps a
    usable clock; NoUsableClock after tries boots"""
    for _ in range(tries):
        got = boot()
        clock = lost_clock(got[0])
        if clock is None:
            return got
        progress(f"{name}: {job}: {clock}, booting again")
    raise NoUsableClock(f"{name}: {job}: no usable clock in {tries} boots")


def boot_figures(name, job, boot, complaint, key=int):
    """One boot's figures (parse()) and its seconds in the guest, with a usable
    clock; BadBoot when the boot failed, a line was the program's complaint
    (complaint(line)), or a program exited non-zero"""
    lines, outcome, elapsed = boot_with_clock(name, job, boot)
    bad = [x for x in lines if complaint(x) or "exit=" in x and "exit=0" not in x]
    if outcome != "ok" or bad:
        raise BadBoot(f"{name}: {job}: {outcome}; {bad[:3]} (see {results_of(job)}/)")
    return parse(lines, key), elapsed


def bench_dir(name):
    """build/bench/<name>: a benchmark's results"""
    return settings().build / "bench" / name


def job_of(kernel, outdir, r):
    """The boot of kernel in round r of the benchmark writing to outdir
    (build/results/<job>/)"""
    return f"bench-{kernel}-{outdir.name}-r{r}"


def initramfs_of(kernel, outdir):
    """Where the initramfs of kernel for the benchmark writing to outdir goes"""
    return outdir.parent / f"initramfs-{kernel}-{outdir.name}.cpio"


def parse(lines, key=int):
    """A guest's "BENCH <metric> <key> <value>" lines: {(metric, key(key)): value}."""
    values = {}
    for line in lines:
        f = line.split()
        if len(f) == 4 and f[0] == "BENCH":
            values[(f[1], key(f[2]))] = float(f[3])
    return values


def fmt(v):
    """A figure for a table: whole above 100, else 3 significant digits"""
    if v >= 100:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def spread(v):
    """A table cell of a figure's rounds: the median [min-max], one value when
    they agree, "-" when it was never measured"""
    if not v:
        return "-"
    if min(v) == max(v):
        return fmt(v[0])
    return f"{fmt(statistics.median(v))} [{fmt(min(v))}-{fmt(max(v))}]"


def write_raw(outdir, runs):
    """raw.tsv: every value of every round of every kernel"""
    raw = ["kernel\tround\tmetric\tN\tvalue"]
    for k in runs:
        for r, run in enumerate(runs[k]):
            raw += [f"{k}\t{r}\t{m}\t{n}\t{v}" for (m, n), v in sorted(run.items())]
    (outdir / "raw.tsv").write_text("\n".join(raw) + "\n")


def load_raw(outdir):
    """The runs write_raw() wrote"""
    runs = {}
    for line in (outdir / "raw.tsv").read_text().splitlines()[1:]:
        k, r, m, n, v = line.split("\t")
        runs.setdefault(k, [])
        while len(runs[k]) <= int(r):
            runs[k].append({})
        runs[k][int(r)][(m, int(n))] = float(v)
    return runs


def ratios_of(runs, a, b, key):
    """a/b round by round (the rounds where b is not 0), or None"""
    if a not in runs or b not in runs:
        return None
    x = [run.get(key) for run in runs[a]]
    y = [run.get(key) for run in runs[b]]
    if None in x or None in y:
        return None
    return [xi / yi for xi, yi in zip(x, y) if yi > 0] or None


def bootstrap(ratios, reps=4000, seed=1):
    """95% interval of the median of ratios, resampling the rounds"""
    rnd = random.Random(seed)
    meds = sorted(statistics.median(rnd.choices(ratios, k=len(ratios))) for _ in range(reps))
    return meds[int(0.025 * reps)], meds[int(0.975 * reps) - 1]


def verdict_of(lo, hi, limit):
    """ok when the interval is within the target, MISS when wholly beyond it"""
    return "ok" if hi <= limit else "MISS" if lo > limit else "inconclusive"


def ratio_of(runs, a, b, key):
    """median and spread of a/b over the rounds, or None"""
    ratios = ratios_of(runs, a, b, key)
    if not ratios:
        return None
    return statistics.median(ratios), min(ratios), max(ratios)


def plot(outdir, runs, keys, groups):
    """cost against N, log axes, every kernel: one PNG per group of metrics"""
    if not shutil.which("gnuplot"):
        print("bench: gnuplot is missing (make deps), no plot")
        return
    for name, metrics in groups.items():
        series = []
        for m in metrics:
            for k in runs:
                pts = sorted((n, statistics.median(run[(m, n)] for run in runs[k]))
                             for (mm, n) in keys if mm == m and n > 0)
                if not pts:
                    continue
                dat = outdir / f"{name}-{m}-{k}.dat"
                dat.write_text("".join(f"{n} {v}\n" for n, v in pts))
                series.append(f"'{dat}' using 1:2 with linespoints title '{m} {k}'")
        if not series:
            continue
        ylabel = "bytes per set" if name == "memory" else "ns per call"
        script = (f"set terminal png size 1000,650\nset output '{outdir / (name + '.png')}'\n"
                  f"set logscale xy\nset xlabel 'N (groups)'\nset ylabel '{ylabel}'\n"
                  f"set key left top\nset grid\nplot " + ", ".join(series) + "\n")
        (outdir / f"{name}.gnuplot").write_text(script)
        subprocess.run(["gnuplot", outdir / f"{name}.gnuplot"], check=False)


def arguments(sub, name, what, doc, rounds, results, target_help=None):
    """The command name (what it does: what) of the harness's command line, with
    the options every QEMU benchmark shares"""
    ap = target_command(sub, name, what, doc, target_help=target_help)
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--build-only", action="store_true",
                    help="build the kernels and programs, check the configs, do not boot")
    ap.add_argument("--report-only", action="store_true",
                    help=f"rebuild the report from build/bench/{results}/raw.tsv")
    return ap
