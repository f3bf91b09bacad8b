# SPDX-License-Identifier: GPL-2.0
"""Reading a guest's console: kernel problems (panic, Oops, BUG, WARNING,
sanitizer reports), the TAP of the kselftests and of KUnit, the harness's
program markers, and the outcome of a whole boot as results.
"""

import re

from config import MARK, MARKER


# What makes a console log a failure, whatever the tests said.
KERNEL_PROBLEMS = re.compile(
    r"Kernel panic|Oops|BUG:|kernel BUG at|WARNING:|general protection fault|"
    r"Unable to handle kernel|UBSAN:|KASAN:|KFENCE:|sleeping function called|"
    r"possible circular locking|possible recursive locking|inconsistent lock state|"
    r"unreferenced object|Call Trace:|Internal error:")


TAP_RESULT = re.compile(r"^(\s*)(ok|not ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(\w+)(.*))?$")


TAP_PLAN = re.compile(r"^(\s*)1\.\.(\d+)")


RUN_LINE = re.compile(r"^#\s+RUN\s+(\S+) \.\.\.")


SUBTEST = re.compile(r"^(\s*)# Subtest: (\S+)")


# A kernel whose .config has KUNIT_OPTION=y must report the KUNIT_SUITE suite.
KUNIT_OPTION, KUNIT_SUITE = "CONFIG_GROUPS_KUNIT_TEST", "groups"


def kernel_problem(line):
    """Is this console line the kernel reporting a problem (not a harness line)?"""
    return bool(KERNEL_PROBLEMS.search(line)) and not line.startswith(MARK)


def console_outcome(lines, outcome="ok"):
    """'ok', or why a boot failed whatever its tests said: a kernel problem, no end marker."""
    return read(lines).outcome(outcome)


def parse_tap(lines, prefix):
    """Leaf results of (K)TAP text: [(name, 'pass'|'fail'|'skip', detail)], plus plan problems."""
    results, problems = [], []
    suites = []                           # KTAP "# Subtest: name" above: [(indent, name)]
    seen = []                             # (indent, status) of every result line so far
    top_plan, top_count = None, 0
    top_indent = None
    running = None
    for line in lines:
        line = re.sub(r"^\[\s*\d+\.\d+\]\s?", "", line)   # printk time stamps, if any
        m = SUBTEST.match(line)
        if m:                             # results at its indent are name/...
            suites = [x for x in suites if x[0] < len(m.group(1))] + [(len(m.group(1)), m.group(2))]
            continue
        m = TAP_PLAN.match(line)
        if m and top_indent is None:
            top_indent, top_plan = len(m.group(1)), int(m.group(2))
            continue
        m = RUN_LINE.match(line)
        if m:                             # kselftest_harness: "#  RUN  name ..."
            running = m.group(1)
            continue
        m = TAP_RESULT.match(line)
        if not m:
            continue
        indent, ok, _, name, directive, reason = m.groups()
        if not name.strip() and running:  # 6.1's harness omits the name of a skip
            name = running
        running = None
        indent = len(indent)
        suites = [x for x in suites if x[0] <= indent]
        name = "".join(f"{x[1]}/" for x in suites) + name.strip()
        if top_indent is not None and indent == top_indent:
            top_count += 1
        d = (directive or "").upper()
        status = "skip" if d == "SKIP" else ("pass" if ok == "ok" or d == "TODO" else "fail")
        children = children_of(seen, indent)
        seen.append((indent, status))
        if children:
            # a suite's summary line: count it only if it contradicts its own children
            if status == "fail" and "fail" not in children:
                results.append((f"{prefix}{name}", "fail", "suite failed"))
            continue
        results.append((f"{prefix}{name}", status, (reason or "").strip()))
    if top_plan is not None and top_count != top_plan:
        problems.append(f"{prefix}: planned {top_plan} tests, {top_count} reported")
    return results, problems


def children_of(seen, indent):
    """The statuses of the results just above a result line at indent that are
    deeper than it: the cases of the suite (or the parameters of the case) it sums up."""
    out = []
    for i, status in reversed(seen):
        if i <= indent:
            break
        out.append(status)
    return out


class Segments:
    """A console split at /init's markers, a line at a time as it comes: the
    kernel's own lines, and each program's (label, lines, end), end being what
    its "# harness: end" line said after the label."""

    def __init__(self):
        self.kernel, self.programs, self.current = [], [], None

    def feed(self, line):
        """Take one console line; return what of it a program printed (a list)."""
        printed = []
        idx = line.find(MARK)
        if idx > 0:                       # a program's last line had no newline
            printed.append(line[:idx])
            line = line[idx:]
        m = MARKER.match(line)
        if m and m.group(1) == "begin":
            self.current = (m.group(2), [])
            return []
        if m and self.current is not None:
            self.current[1].extend(printed)
            self.programs.append((*self.current, m.group(3)))
            self.current = None
            return printed
        if self.current is None:
            self.kernel.append(line)
            return []
        printed.append(line)
        self.current[1].extend(printed)
        return printed

    def finish(self):
        """(kernel lines, programs), a program cut short ending "no end (crash or timeout)"."""
        if self.current is not None:
            self.programs.append((*self.current, "no end (crash or timeout)"))
            self.current = None
        return self.kernel, self.programs


def segments(lines):
    return read(lines).segments()


class Console(list):
    """A boot's console, read once, a line at a time as it comes: the list of
    its lines, and what they showed: the kernel's problems, whether /init said
    it was done, the segments of its programs."""

    def __init__(self):
        super().__init__()
        self.problems, self.done, self.seg = [], False, Segments()

    def feed(self, line):
        """Take one console line; return what of it a program printed (a list)."""
        self.append(line)
        if kernel_problem(line):
            self.problems.append(line)
        if line.startswith(MARK + "done"):
            self.done = True
        return self.seg.feed(line)

    def outcome(self, outcome="ok"):
        """'ok', or why the boot failed whatever its tests said: outcome (why
        QEMU stopped, if it did not stop by itself), a kernel problem, no end
        marker."""
        if outcome == "ok" and self.problems:
            outcome = "kernel problem in the console log: " + self.problems[0].strip()
        if outcome == "ok" and not self.done:
            outcome = "the guest never reported '# harness: done' (crash or early exit)"
        return outcome

    def segments(self):
        """(kernel lines, programs): see Segments.finish()"""
        return self.seg.finish()


def read(lines):
    """lines as a Console (read once: a Console is taken as it is)"""
    if isinstance(lines, Console):
        return lines
    console = Console()
    for line in lines:
        console.feed(line)
    return console


def read_log(text):
    """A saved console.log as the Console that boot() read: its lines split
    where boot() split them (at each newline, a carriage return dropped)"""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    return read(lines[:-1] if lines and not lines[-1] else lines)


def analyse(lines, outcome, job, kunit=False):
    """Split a console log into kernel (KUnit) and per-program segments; list every result.
    kunit: the kernel has the KUNIT_SUITE suite (kunit_expected), which must report."""
    results = []
    kernel_part, programs = segments(lines)
    if any("KTAP version" in line or "TAP version" in line for line in kernel_part):
        r, p = parse_tap(kernel_part, f"{job}/kunit/")
        results += r
        results += [(x, "fail", "KTAP plan") for x in p]
    if kunit:
        ran = any(r[0].startswith(f"{job}/kunit/{KUNIT_SUITE}/") for r in results)
        results.append((f"{job}/kunit/{KUNIT_SUITE} suite reported", "pass" if ran else "fail",
                        "" if ran else f"{KUNIT_OPTION}=y, but no result of the "
                        f"'{KUNIT_SUITE}' KUnit suite on the console"))
    for label, out, end in programs:
        r, p = parse_tap(out, f"{job}/{label}/")
        results += r
        results += [(x, "fail", "TAP plan") for x in p]
        if end not in ("exit=0", "exit=4") and not any(x[1] == "fail" for x in r):
            results.append((f"{job}/{label}", "fail", end))
        if not r and end in ("exit=0", "exit=4"):
            results.append((f"{job}/{label}", "fail", "reported no test"))
    if outcome != "ok":
        results.append((f"{job}/boot", "fail", outcome))
    return results
