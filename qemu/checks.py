# SPDX-License-Identifier: GPL-2.0
"""The checks of make check besides the guests: the harness's own unit tests,
selftests/ against what the series adds, and checkpatch.pl --strict.
"""

import fnmatch
import re
import subprocess
import unittest

from config import ROOT, settings, use
from trees import ensure_patched, ensure_vanilla, series_patches


def selftest_sources(series):
    """{path: bytes} of the selftests a base's series adds: selftests/, each file
    replaced by the series directory's selftests/<file> where that base needs
    its own (7.3's config names CONFIG_SYSCTL, which replaced CONFIG_PROC_SYSCTL)"""
    files = {}
    for top in (ROOT / "selftests", ROOT / series / "selftests"):   # the same for "."
        files.update({p.relative_to(top): p.read_bytes() for p in top.rglob("*") if p.is_file()})
    return files


def check_selftests_sync():
    """selftests/ must be what the series adds under tools/testing/selftests/groups/."""
    intree = ensure_patched() / "tools/testing/selftests/groups"
    if not intree.exists():
        return [("selftests/ = tools/testing/selftests/groups/", "skip",
                 "the series does not add tools/testing/selftests/groups/ yet")]
    ours = selftest_sources(settings().series)
    theirs = {p.relative_to(intree) for p in intree.rglob("*") if p.is_file()}
    diff = sorted(str(p) for p in ours.keys() ^ theirs)
    diff += sorted(str(p) for p in ours.keys() & theirs if ours[p] != (intree / p).read_bytes())
    return [("selftests/ = tools/testing/selftests/groups/", "fail" if diff else "pass",
             ("differ: " + ", ".join(diff)) if diff else "")]


MAINTAINERS_QUESTION = "WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?"


def snippet_covers(path, snippet):
    """Whether an F: line of a MAINTAINERS text names the file (or its directory)."""
    pats = [x.split("\t", 1)[1] for x in snippet.splitlines() if x.startswith("F:\t")]
    return any(path == f or (f.endswith("/") and path.startswith(f)) or
               ("*" in f and fnmatch.fnmatchcase(path, f)) for f in pats)


def maintained(text):
    """The F: lines of a MAINTAINERS text, but for THE REST's (which names every file)."""
    sections = re.split(r"\n\s*\n", text)
    return "\n".join(s for s in sections if not s.startswith("THE REST"))


def checkpatch_findings(out, patch="", snippet="", maintainers=""):
    """What checkpatch --strict reported: its ERROR, WARNING and CHECK lines.  Its
    question whether MAINTAINERS needs updating is answered, not reported, when
    every file the patch adds has an entry: in the tree's MAINTAINERS (THE REST
    aside), or in MAINTAINERS.snippet (the entry the series proposes instead of
    adding one)."""
    added = re.findall(r"^diff --git a/\S+ b/(\S+)\nnew file mode", patch, re.M)
    entries = snippet + "\n" + maintained(maintainers)
    answered = bool(added) and all(snippet_covers(f, entries) for f in added)
    return [x for x in out.splitlines() if x.startswith(("ERROR:", "WARNING:", "CHECK:"))
            and not (answered and x == MAINTAINERS_QUESTION)]


def check_checkpatch():
    tree = ensure_vanilla()
    results = []
    for p in series_patches():
        # From stdin: run on a file that git tracks, checkpatch checks it as source.
        out = subprocess.run(["perl", tree / "scripts/checkpatch.pl", "--strict", "--no-tree",
                              "-q", "-"], input=p.read_text(), capture_output=True,
                             text=True).stdout
        bad = checkpatch_findings(out, p.read_text(), (ROOT / "MAINTAINERS.snippet").read_text(),
                                  (tree / "MAINTAINERS").read_text())
        results.append((f"checkpatch --strict {p.name}", "fail" if bad else "pass",
                        "; ".join(bad[:3])))
    return results


def check_harness():
    """qemu/tests/: the harness's own unit tests (on recorded data), a result each."""
    def each(suite):
        for t in suite:
            yield from each(t) if isinstance(t, unittest.TestSuite) else [t]
    tests = list(each(unittest.defaultTestLoader.discover(str(ROOT / "qemu/tests"))))
    r = unittest.TestResult()
    # The tests run in this process: a test that changed the run's settings
    # (its base, its build directory) would send what follows elsewhere
    before = settings()
    unittest.TestSuite(tests).run(r)
    after = use(before)
    why = {t.id(): ("fail", tb.strip().splitlines()[-1]) for t, tb in r.failures + r.errors}
    why.update({t.id(): ("skip", reason) for t, reason in r.skipped})
    return [(f"harness: unit tests: {t.id()}", *why.get(t.id(), ("pass", "")))
            for t in tests] + \
        [("harness: unit tests leave the run's settings as they found them",
          "pass" if after == before else "fail",
          "" if after == before else f"{before} became {after}")]
