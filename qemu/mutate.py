# SPDX-License-Identifier: GPL-2.0
"""make check-mutants FAST=1: mutants of the series' own lines, made by rule.

Each mutant changes one token of one line that the series adds to
kernel/groups.c, kernel/cred.c (groups_cmp) or kernel/uid16.c: a comparison
turned into its neighbour (< and <=, > and >=, == and !=), gid_lt() and
gid_gt() swapped or gid_eq() negated, an integer constant plus one, + and -
swapped, an if's condition negated, or a statement dropped.  Each runs, on a
worktree of the series (build/mutants-tree), against the KUnit suites through
the kernel's own tools/testing/kunit/kunit.py on UML with KASAN: one object
rebuilt and a relink, 10-25 s; a failed test, a crash, a timeout or a kernel
report (KASAN, BUG, WARNING) catches it.  A mutant of code that KUnit cannot
reach (the copies to and from user memory, the 16-bit calls, the syscalls)
boots instead the x86_64 kernel with make check's suite, rebuilt
incrementally (one to two minutes each), against an unmutated boot.

A survivor is a missing test, unless robust/mutants/equivalent.txt explains
why no test can tell it apart ("id | mutated line | reason").  The table goes
to build/results/mutants-fast.md; the exit status is non-zero if a mutant
survives unexplained.
"""

import fcntl
import re
import subprocess
import time
from pathlib import Path

from config import Failure, MUTANTS, ROOT, TARGETS, first_target_with, progress, settings, shown
from guest import boot_suite
from kbuild import ensure_config, kmake
from results import conclude
from trees import ensure_patched
import kunit_tool

FILES = ("kernel/groups.c", "kernel/cred.c", "kernel/uid16.c")
# What the KUnit suites cannot reach: user copies, syscalls, the sysctl
SUITE_ONLY = re.compile(r"^(groups_to_user|groups_from_user|groups16_\w+|[gs]etgroups(16)?|"
                        r"ngroups_limit|may_setgroups|in_e?group_p)$")
EQUIVALENT = ROOT / "robust/mutants/equivalent.txt"
# The suites run in about two seconds on UML: a mutant that loops is caught by this
KUNIT_TIMEOUT = 60
# KASAN (with stack instrumentation, GCC's default) sees what the tests cannot:
# a write one past a stack array changes no result
KUNIT_OPTIONS = ("CONFIG_KASAN=y",)

FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
CMP = re.compile(r"(?<![<>=!\-])(<=|>=|==|!=|<|>)(?![<>=])")
GID = re.compile(r"(!?)\bgid_(lt|gt|eq)\(")
CONST = re.compile(r"(?<![\w.])([1-9]\d*|0)U?\b(?![.\d])")
ARITH = re.compile(r"(?<=\w|\)|\]) ([+-]) (?=[\w(])")
DECL = re.compile(r"^(const |static |unsigned |int |bool |kgid_t |gid_t |old_gid_t |"
                  r"struct \w+ \*|struct \w+ \w+;|kgid_t \*)")
FUNC = re.compile(r"^(?:SYSCALL_DEFINE\d\((\w+)|[\w ]*?\**(\w+)\()")


def code_part(line):
    """The line without a trailing comment, or "" for a comment line."""
    s = line.strip()
    if s.startswith(("/*", "//")) or re.match(r"\*(\s|/|$)", s):
        return ""
    return line.split("/*")[0].split("//")[0].rstrip()


def condition_span(line):
    """(start, end) of the condition of an "if (" that closes on this line."""
    i = line.find("if (")
    if i < 0:
        return None
    depth, start = 0, i + 3
    for j in range(start, len(line)):
        depth += {"(": 1, ")": -1}.get(line[j], 0)
        if depth == 0:
            return start + 1, j
    return None


def starts_statement(prev):
    """Whether a line after prev starts a statement (prev is not cut short)."""
    p = code_part(prev).strip()
    return (not p or p.endswith((";", "{", "}")) or p == "else"
            or re.match(r"(} )?(else )?(if|for|while) \(", p) is not None
            and p.count("(") == p.count(")"))


def line_mutants(line, prev=""):
    """[(rule, new line)] for one line of code (prev: the line before it)."""
    code = code_part(line)
    s = code.strip()
    if not s or s in ("{", "}", "};") or s.startswith(("EXPORT_SYMBOL", "BUILD_BUG_ON",
                                                       "static_assert", "#include", "#if",
                                                       "#endif", "#else")):
        return []
    out = []
    if s.startswith("#define"):
        return [("const", code[:m.start()] + str(int(m.group(1)) + 1) + code[m.end(1):]
                 + line[len(code):]) for m in CONST.finditer(code) if m.start() > 8]
    for m in CMP.finditer(code):
        if not re.search(r"\w", code[m.end():]) or code[:m.start()].rstrip().endswith("include"):
            continue
        out.append(("cmp", code[:m.start()] + FLIP[m.group(1)] + code[m.end():]))
    for m in GID.finditer(code):
        neg, op = m.group(1), m.group(2)
        new = {"lt": "gid_gt(", "gt": "gid_lt(", "eq": "gid_eq(" if neg else "!gid_eq("}[op]
        out.append(("gid", code[:m.start()] + ("" if op == "eq" else neg) + new
                    + code[m.end():]))
    for m in CONST.finditer(code):
        if code[:m.start()].endswith(("[", "SYSCALL_DEFINE")):
            continue
        out.append(("const", code[:m.start()] + str(int(m.group(1)) + 1) + code[m.end(1):]))
    for m in ARITH.finditer(code):
        other = "-" if m.group(1) == "+" else "+"
        out.append(("arith", code[:m.start()] + f" {other} " + code[m.end():]))
    span = condition_span(code)
    if span:
        a, b = span
        out.append(("negate", code[:a] + "!(" + code[a:b] + ")" + code[b:]))
    if (s.endswith(";") and not DECL.match(s) and s.count("(") == s.count(")")
            and starts_statement(prev)
            and not s.startswith(("return", "break", "continue", "goto", "}"))):
        out.append(("drop", code[:len(code) - len(code.lstrip())] + ";"))
    tail = line[len(code):]
    return [(rule, new + tail) for rule, new in out]


def added_lines(tree, path):
    """Numbers (1-based) of the lines of path that the series adds."""
    diff = subprocess.run(["git", "diff", "-U0", "base", "HEAD", "--", path], cwd=tree,
                          capture_output=True, text=True, check=True).stdout
    lines = set()
    for m in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.M):
        start, n = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
        lines.update(range(start, start + n))
    return lines


def function_of(lines, i):
    """The name of the function (or macro) that line i (0-based) belongs to."""
    for j in range(i, -1, -1):
        m = FUNC.match(lines[j])
        if m and not lines[j].rstrip().endswith(";"):
            return m.group(1) or m.group(2)
        if lines[j].startswith("#define"):
            return lines[j].split()[1] if j == i else "top"
        if lines[j].startswith("}") and j < i:
            return "top"            # between functions
    return "top"


def mutants_of(text, added, path):
    """Every mutant of the added lines of one file: dicts with id, path, line,
    function, rule and the new line."""
    lines = text.split("\n")
    found, seen = [], {}
    for n in sorted(added):
        if n > len(lines) or "ctl_table" in lines[n - 1]:
            continue
        func = function_of(lines, n - 1)
        if func in ("groups_sysctl_init", "groups_init", "top"):
            continue
        for rule, new in line_mutants(lines[n - 1], lines[n - 2] if n > 1 else ""):
            key = (func, rule)
            seen[key] = seen.get(key, 0) + 1
            found.append({"id": f"{Path(path).name}:{func}:{rule}{seen[key]}", "path": path,
                          "line": n, "function": func, "rule": rule, "old": lines[n - 1],
                          "new": new})
    return found


def pick(mutants, limit):
    """Up to limit mutants, taking one function at a time in turn so that every
    function and rule gets its share; all of them when limit is 0."""
    if not limit or limit >= len(mutants):
        return list(mutants)
    by_func = {}
    for m in mutants:
        by_func.setdefault(m["function"], []).append(m)
    # within a function, alternate the rules
    queues = []
    for ms in by_func.values():
        rules = {}
        for m in ms:
            rules.setdefault(m["rule"], []).append(m)
        order = []
        while any(rules.values()):
            for r in list(rules):
                if rules[r]:
                    order.append(rules[r].pop(0))
        queues.append(order)
    chosen = []
    while len(chosen) < limit and any(queues):
        for q in queues:
            if q and len(chosen) < limit:
                chosen.append(q.pop(0))
    return sorted(chosen, key=lambda m: (m["path"], m["line"], m["id"]))


def equivalents(text=None):
    """(id, the mutated line) -> why no test can tell that mutant from the
    series; each entry is "id | mutated line | reason", so that an entry whose
    mutant changed (a renumbering) no longer matches."""
    if text is None:
        text = EQUIVALENT.read_text() if EQUIVALENT.exists() else ""
    out = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            key, new, why = [x.strip() for x in (line.split(" | ", 2) + ["", ""])[:3]]
            out[(key, new)] = why
    return out


def explained(explain, m):
    return explain.get((m["id"], m["new"].strip()))


def mutants_tree():
    """A worktree at the series' head, for mutating one line at a time."""
    patched = ensure_patched()
    tree = settings().build / "mutants-tree"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=patched, capture_output=True,
                          text=True, check=True).stdout.strip()
    if not (tree / ".git").exists():
        subprocess.run(["git", "worktree", "prune"], cwd=patched, check=True)
        subprocess.run(["git", "worktree", "add", "-q", "-f", "--detach", str(tree), head],
                       cwd=patched, check=True)
    subprocess.run(["git", "checkout", "-q", "-f", "--detach", head], cwd=tree, check=True)
    return tree


def run_kunit(tree, log):
    """KUnit on UML: ("pass", []), ("fail", failed tests) or ("build", why)."""
    state, why, _ = kunit_tool.run(tree, "um", log, timeout=KUNIT_TIMEOUT,
                                   name="mutants-um-kasan", options=KUNIT_OPTIONS)
    return state, why


def run_suite(tree, job, baseline=()):
    """make check's suite on this tree's kernel, built incrementally; failures
    of the unmutated kernel (baseline) do not count."""
    target = first_target_with("mutants")
    t = TARGETS[target]
    out = settings().build / f"out/mutants-{target}"
    log = settings().build / f"logs/build-mutants-{target}.log"
    ensure_config("patched", t, tree, out)
    try:
        kmake(tree, out, t, Path(t["image"]).name, log=log)
    except Failure:
        return "build", ["does not build"]
    results = boot_suite("patched", target, out / t["image"], job, quiet=True)
    failed = [r[0] for r in results if r[1] == "fail"
              and r[0].split("/", 1)[-1] not in baseline]
    return ("fail", failed) if failed else ("pass", [])


def try_mutant(tree, m, job, baseline=()):
    """Apply one mutant, run what can catch it, restore the file."""
    path = tree / m["path"]
    text = path.read_text()
    lines = text.split("\n")
    assert lines[m["line"] - 1] == m["old"], m["id"]
    lines[m["line"] - 1] = m["new"]
    try:
        path.write_text("\n".join(lines))
        if m["path"] == "kernel/uid16.c" or SUITE_ONLY.match(m["function"]):
            return "suite", run_suite(tree, job, baseline)
        return "KUnit", run_kunit(tree, settings().build / f"logs/{job}.log")
    finally:
        path.write_text(text)


def all_mutants(tree):
    found = []
    for path in FILES:
        found += mutants_of((tree / path).read_text(), added_lines(tree, path), path)
    return found


def table(rows, explain):
    """Markdown: every mutant, what caught it, and the survivors' reasons."""
    out = ["| mutant | line | change | run | caught by | s |", "|---|---|---|---|---|---|"]
    for m, how, (verdict, why), secs in rows:
        caught = ", ".join(why[:3]) + (f" (+{len(why) - 3})" if len(why) > 3 else "")
        if verdict == "pass":
            caught = "**survived**: " + (explained(explain, m) or "no test catches it")
        elif verdict == "build":
            caught = "(does not build)"
        change = f"`{m['new'].strip()}`".replace("|", "\\|")
        out.append(f"| {m['id']} | {m['line']} | {change} | {how} | {caught} | {secs:.0f} |")
    return "\n".join(out) + "\n"


def choose(every, limit, suite_limit, only):
    """The mutants to run: those named, or up to limit that KUnit reaches and
    up to suite_limit that only the selftests reach."""
    if only:
        chosen = [m for m in every if m["id"] in only]
        unknown = set(only) - {m["id"] for m in chosen}
        if unknown:
            raise Failure(f"check-mutants: no mutant {', '.join(sorted(unknown))}")
        return chosen
    slow = [m for m in every if needs_suite(m)]
    return pick([m for m in every if m not in slow], limit) + pick(slow, suite_limit)


def needs_suite(m):
    return m["path"] == "kernel/uid16.c" or SUITE_ONLY.match(m["function"]) is not None


def baselines(tree, chosen):
    """The unmutated series must pass KUnit; the suite's failures without a
    mutant (none expected) are left out of the mutants' verdicts."""
    base, why = run_kunit(tree, settings().build / "logs/mutants-base.log")
    if base != "pass":
        raise Failure(f"check-mutants: the unmutated series fails KUnit: {why}")
    if not any(needs_suite(m) for m in chosen):
        return set()
    state, failed = run_suite(tree, "mutants-base")
    if failed:
        progress(f"check-mutants: the unmutated suite fails {len(failed)} test(s), "
                 f"not counted against the mutants: {', '.join(failed[:3])}")
    return {f.split("/", 1)[-1] for f in failed}


def verdict_of(m, verdict, why, explain):
    name = f"check-mutants: {m['id']} (line {m['line']})"
    if verdict == "fail":
        return name, "pass", f"caught by {why[0]}"
    if verdict == "build":
        return name, "skip", "does not build"
    if explained(explain, m):
        return name, "skip", f"survives, equivalent: {explained(explain, m)}"
    return name, "fail", "survives: no test catches it"


def cmd_patches(names):
    """Mutants of robust/mutants/, by name, against KUnit on UML with KASAN in the
    mutants tree, built incrementally: the quick way to show a new KUnit test
    failing on a broken variant."""
    t0 = time.monotonic()
    tree = mutants_tree()
    base, why = run_kunit(tree, settings().build / "logs/mutants-base.log")
    if base != "pass":
        raise Failure(f"check-mutants: the unmutated series fails KUnit: {why}")
    results = []
    for name in names:
        start, log = time.monotonic(), settings().build / f"logs/mutant-{name}-kunit.log"
        subprocess.run(["git", "apply", str(MUTANTS / f"{name}.patch")], cwd=tree, check=True)
        try:
            state, why = run_kunit(tree, log)
        finally:
            subprocess.run(["git", "checkout", "-q", "-f", "HEAD", "--", "."], cwd=tree,
                           check=True)
        caught = state == "fail"
        results.append((f"mutant {name} is caught by KUnit", "pass" if caught else "fail",
                        f"{len(why)} failed, e.g. {why[0]}" if caught else
                        f"not caught ({state}{': ' + str(why) if why else ''})"))
        progress(f"check-mutants: {name}: {results[-1][2]}", start)
    return conclude("check-mutants-kunit", results, t0)


def cmd_fast(limit, suite_limit, only=()):
    t0 = time.monotonic()
    lock = open(settings().build / "mutants.lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise Failure("check-mutants: another run holds build/mutants.lock") from None
    tree = mutants_tree()
    every = all_mutants(tree)
    chosen = choose(every, limit, suite_limit, only)
    progress(f"check-mutants: {len(chosen)} of {len(every)} mutants of the series' lines "
             f"(tree: {shown(tree)})")
    baseline = baselines(tree, chosen)
    explain, rows, results = equivalents(), [], []
    for k, m in enumerate(chosen, 1):
        start = time.monotonic()
        how, (verdict, why) = try_mutant(tree, m, f"mutant-{k}", baseline)
        rows.append((m, how, (verdict, why), time.monotonic() - start))
        results.append(verdict_of(m, verdict, why, explain))
        progress(f"check-mutants: {k}/{len(chosen)} {m['id']}: {results[-1][1]} "
                 f"{results[-1][2]}", start)
    md = settings().build / "results/mutants-fast.md"
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(table(rows, explain))
    print(f"check-mutants: the table is in {shown(md)}")
    return conclude("check-mutants-fast", results, t0)
