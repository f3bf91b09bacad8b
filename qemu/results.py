# SPDX-License-Identifier: GPL-2.0
"""Results: (name, "pass"|"fail"|"skip", detail) tuples, counted and written
to build/results/; conclude() is every command's exit policy.
"""

import time

from config import settings, shown


def count(results):
    return {s: sum(1 for r in results if r[1] == s) for s in ("pass", "fail", "skip")}


def result_lines(results):
    return "".join(f"{s:4} {n}{'  # ' + d if d else ''}\n" for n, s, d in results)


def conclude(name, results, t0, need_pass=True):
    """Every command's end: build/results/<name>.txt with every result, the time,
    the closing 'N passed, N failed, N skipped' line; the exit status."""
    (settings().build / "results").mkdir(parents=True, exist_ok=True)
    (settings().build / f"results/{name}.txt").write_text(result_lines(results))
    print(f"{name}: {time.monotonic() - t0:.0f}s; every result in "
          f"{shown(settings().build / 'results' / name)}.txt")
    print(counted(results))
    return exit_status(results, need_pass)


def counted(results):
    """The closing line: 'N passed, N failed, N skipped'"""
    c = count(results)
    return f"{c['pass']} passed, {c['fail']} failed, {c['skip']} skipped"


def exit_status(results, need_pass=True):
    """1 when a result failed or (need_pass) none passed, else 0"""
    c = count(results)
    return 1 if c["fail"] or (need_pass and not c["pass"]) else 0


def write_summary(job, results, elapsed):
    resdir = settings().build / "results" / job
    counts = count(results)
    text = result_lines(results)
    text += (f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped "
             f"in {elapsed:.1f}s\n")
    (resdir / "summary.txt").write_text(text)
    return counts
