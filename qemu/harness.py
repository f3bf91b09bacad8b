#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build a Debian kernel tree with and without the series, boot it in QEMU, test it.

The only per-architecture and per-base knowledge lives in qemu/targets.conf.
BASE (environment; make BASE=...) picks the base: its Debian source package,
the directory of its series (the top level for 6.1), its build directory.
Everything this script makes goes under that build directory (build/ for
6.1, build/6.12/ for 6.12; git-ignored):

  build/vanilla/              the Debian tree, one deterministic base commit (tag "base")
  build/patched/              a worktree of it, branch "series": base + 0001..000N with git am
  build/upto-NNNN/            the same with the series up to patch NNNN (make bench)
  build/out/<kernel>-<target>/ out-of-tree kernel builds (O=)
  build/bin/<abi>/            static guest programs (init, selftests, demo)
  build/logs/                 verbose logs of every build step
  build/results/<job>/        console.log and summary.txt of every boot
"""

import argparse
import hashlib
import os
import platform
import re
import selectors
import shlex
import shutil
import subprocess
import sys
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JOBS = str(os.cpu_count() or 2)
GIT_ID = {
    "GIT_AUTHOR_NAME": "Debian linux-source", "GIT_AUTHOR_EMAIL": "base@localhost",
    "GIT_COMMITTER_NAME": "harness", "GIT_COMMITTER_EMAIL": "harness@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}
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
KERNEL_NAME = re.compile(r"patched|vanilla|upto-\d{4}|mutant-[\w-]+")
MUTANTS = ROOT / "robust/mutants"
# The Debian package of a tool, where it is not the tool's name ("X-gcc" is gcc-X).
PACKAGE_OF = {"qemu-system-x86_64": "qemu-system-x86", "qemu-system-aarch64": "qemu-system-arm",
              "gnuplot": "gnuplot-nox"}
MARK = "# harness: "
MARKER = re.compile(rf"^{MARK}(begin|end) (\S+) ?(.*)$")     # /init's program markers
# The identity the repository's patches carry until their sender exports
# them: nobody can sign off (DCO) as it.
PLACEHOLDER = "Harness Dev <dev@example.org>"
# Mail domains that are nobody's (RFC 2606, RFC 6761)
RESERVED_DOMAIN = re.compile(r"(^|\.)(example(\.(com|net|org))?|invalid|test|localhost)$", re.I)
TEST_TIMEOUT = int(os.environ.get("TEST_TIMEOUT", 600))    # seconds per test program


class Failure(Exception):
    pass


# ---------------------------------------------------------------- helpers

def progress(what, start=None):
    took = f" ({time.monotonic() - start:.0f}s)" if start is not None else ""
    print(f"  {what}{took}", flush=True)


def shown(path):
    """A path as the user typed it: relative to the repository if it is inside."""
    path = Path(path)
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def package_of(tool):
    m = re.fullmatch(r"(.+)-gcc", tool)
    return PACKAGE_OF.get(tool) or (f"gcc-{m.group(1)}" if m else tool)


def sh(cmd, log=None, cwd=None, env=None, check=True, progress=None, every=60):
    """Run cmd; verbose output goes to log (appended), the tail is shown on failure.
    With a log and progress, progress(seconds, new log text) is printed every
    `every` seconds while cmd runs."""
    full_env = dict(os.environ, **(env or {}))
    if log is None:
        r = subprocess.run(cmd, cwd=cwd, env=full_env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = r.stdout
    else:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a") as f:
            f.write(f"$ {' '.join(shlex.quote(str(c)) for c in cmd)}\n")
            f.flush()
            start, t0 = f.tell(), time.monotonic()
            p = subprocess.Popen(cmd, cwd=cwd, env=full_env, stdout=f, stderr=subprocess.STDOUT)
            while True:
                try:
                    p.wait(timeout=every if progress else None)
                    break
                except subprocess.TimeoutExpired:
                    with open(log, errors="replace") as g:
                        g.seek(start)
                        print(progress(time.monotonic() - t0, g.read()), flush=True)
            r = subprocess.CompletedProcess(cmd, p.returncode)
        out = None
    if check and r.returncode:
        tail = out if out is not None else log.read_text(errors="replace")
        tail = "\n".join(tail.splitlines()[-40:])
        where = f" (log: {log})" if log else ""
        raise Failure(f"command failed{where}: {' '.join(map(str, cmd))}\n{tail}")
    return r if log is not None else out


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()


def stamp_ok(path, value):
    return path.exists() and path.read_text() == value


def write_stamp(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value)


# The fields of each kind of row of targets.conf, after the kind; a target's
# boot arguments may be several words
ROW_FIELDS = {
    "target": "name karch cross qemu machine cpu console image abis fragments bootargs",
    "abi": "name cc flags",
    "compile": "name karch cross defconfig",
    "base": "name package series build before-pages",
}


def load_table(text=None):
    """targets.conf: the kernel targets, the user-space ABIs, the compile-only targets,
    the bases."""
    targets, abis, compile_only, bases = {}, {}, [], {}
    if text is None:
        text = (ROOT / "qemu/targets.conf").read_text()
    for n, line in enumerate(text.splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        want = ROW_FIELDS.get(f[0], "").split()
        if not want or len(f) - 1 < len(want):
            raise Failure(f"qemu/targets.conf line {n}: " +
                          (f"a {f[0]} row has {len(want)} fields ({' '.join(want)}), "
                           f"this one {len(f) - 1}" if want else
                           f"unknown row kind {f[0]!r} (one of {', '.join(ROW_FIELDS)})"))
        if f[0] == "target":
            keys = ["name", "karch", "cross", "qemu", "machine", "cpu", "console",
                    "image", "abis", "fragments", "bootargs"]
            t = dict(zip(keys, f[1:]))
            t["bootargs"] = "" if f[11:] == ["-"] else " ".join(f[11:])
            t["cross"] = "" if t["cross"] == "-" else t["cross"]
            t["abis"] = t["abis"].split(",")
            t["fragments"] = t["fragments"].split(",")
            targets[t["name"]] = t
        elif f[0] == "abi":
            abis[f[1]] = {"cc": f[2], "cflags": [] if f[3] == "-" else f[3:]}
        elif f[0] == "compile":
            compile_only.append((f[1], f[2], "" if f[3] == "-" else f[3],
                                 "" if f[4] == "-" else f[4]))
        elif f[0] == "base":
            bases[f[1]] = {"package": f[2], "series": ROOT if f[3] == "." else ROOT / f[3],
                           "build": ROOT / ("build" if f[4] == "." else f[4]),
                           "before_pages": f[5]}
    return targets, abis, compile_only, bases


try:
    TARGETS, ABIS, COMPILE, BASES = load_table()
except Failure as e:
    sys.exit(f"harness: {e}")
# The kernel base (make BASE=...; the first row of targets.conf by default):
# its Debian source package, its series, its build directory.
BASE = os.environ.get("BASE") or next(iter(BASES))
_base = BASES.get(BASE, next(iter(BASES.values())))   # an unknown BASE fails in check_args()
SOURCE_PKG = _base["package"]
TARBALL = Path(f"/usr/src/{SOURCE_PKG}.tar.xz")
SERIES = _base["series"]
BUILD = Path(os.environ.get("BUILD") or _base["build"])
# the last patch before the storage moves to pages
BEFORE_PAGES = _base["before_pages"]


def base_arg():
    """ BASE=<base> for a command line shown in a report, or nothing for the default"""
    return "" if BASE == next(iter(BASES)) else f" BASE={BASE}"


def results_of(job):
    """Where a job's console.log and summary.txt go, as the messages show it"""
    return shown(BUILD / "results" / job)


# ---------------------------------------------------------------- trees

def installed_source_version():
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", SOURCE_PKG],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def series_patches(series=None):
    """The patch files in order; 0001 to N, each number once (a file left
    behind by a renumbering would be applied too)."""
    patches = sorted(p for p in (series or SERIES).glob("0[0-9][0-9][0-9]-*.patch")
                     if not p.name.startswith("0000-"))
    numbers = [p.name[:4] for p in patches]
    if numbers != ["%04d" % i for i in range(1, len(patches) + 1)]:
        stray = sorted({n for n in numbers if numbers.count(n) > 1}) or numbers
        raise Failure(f"{series or SERIES}: the patches must be numbered 0001-{len(patches):04d} "
                      f"once each; look at {', '.join(stray[:4])}")
    return patches


def cover_letter():
    return SERIES / "0000-cover-letter.patch"


def tested_base():
    """The Debian version the series was tested on, from the cover letter."""
    cover = cover_letter()
    if cover.exists():
        m = re.search(rf"^base-tree: Debian {re.escape(SOURCE_PKG)} (\S+)$", cover.read_text(),
                      re.M)
        if m:
            return m.group(1)
    return None


def ensure_vanilla():
    tree = BUILD / "vanilla"
    version = installed_source_version()
    stamp = BUILD / "stamps/vanilla"
    if (tree / ".git").exists() and stamp_ok(stamp, version):
        return tree
    if not TARBALL.exists():
        raise Failure(f"{TARBALL} is missing: run 'make deps' (apt-get install {SOURCE_PKG})")
    start = time.monotonic()
    log = BUILD / "logs/tree.log"
    progress(f"tree: extracting {SOURCE_PKG} {version} into {shown(tree)} and committing it "
             f"(about 80s; log: {shown(log)})")
    for d in (BUILD / "vanilla", BUILD / "patched", BUILD / "vanilla.tmp"):
        shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(BUILD / "out", ignore_errors=True)
    tmp = BUILD / "vanilla.tmp"
    tmp.mkdir(parents=True)
    sh(["tar", "-xf", TARBALL, "-C", tmp, "--strip-components=1"], log)
    # Debian's top-level .gitignore ignores every top-level entry: add -f.
    sh(["git", "init", "-q", "-b", "vanilla"], log, cwd=tmp)
    sh(["git", "add", "-f", "-A", "."], log, cwd=tmp)
    sh(["git", "commit", "-q", "-m", f"Debian {SOURCE_PKG} {version}"], log, cwd=tmp, env=GIT_ID)
    sh(["git", "tag", "base"], log, cwd=tmp)
    tmp.rename(tree)
    write_stamp(stamp, version)
    progress(f"tree: extracted {SOURCE_PKG} {version} into {tree}", start)
    return tree


def kernel_source(upto=None, mutant=None):
    """The patches of a patched tree and its mutant patch, or a Failure naming what
    does not exist."""
    patches = [p for p in series_patches() if not upto or p.name[:4] <= upto]
    if upto and not any(p.name[:4] == upto for p in patches):
        raise Failure(f"the {BASE} series has no patch {upto}")
    broken = MUTANTS / f"{mutant}.patch" if mutant else None
    if broken and not broken.exists():
        raise Failure(f"no {shown(broken)}; the mutants are "
                      f"{', '.join(p.stem for p in sorted(MUTANTS.glob('*.patch')))}")
    return patches, broken


def ensure_patched(upto=None, mutant=None):
    """build/patched: base + the whole series; build/upto-NNNN: up to patch NNNN;
    build/mutant-NAME: the whole series broken by robust/mutants/NAME.patch."""
    patches, broken = kernel_source(upto, mutant)
    vanilla = ensure_vanilla()
    name = f"upto-{upto}" if upto else f"mutant-{mutant}" if mutant else "patched"
    branch = "series" if name == "patched" else name
    tree = BUILD / name
    want = digest(installed_source_version(), *[p.read_bytes() for p in patches],
                  *([broken.read_bytes()] if broken else []))
    stamp = BUILD / f"stamps/{name}"
    if (tree / ".git").exists() and stamp_ok(stamp, want):
        return tree
    start = time.monotonic()
    log = BUILD / "logs/tree.log"
    progress(f"tree: applying {len(patches)} patch(es) in {shown(tree)} (log: {shown(log)})")
    kept = {}
    if not (tree / ".git").exists():
        shutil.rmtree(tree, ignore_errors=True)
        sh(["git", "worktree", "prune"], log, cwd=vanilla)
        sh(["git", "worktree", "add", "-q", "-f", "-B", branch, tree, "base"], log, cwd=vanilla)
        # a rebase -i of the series keeps each commit's notes
        sh(["git", "config", "notes.rewriteRef", "refs/notes/commits"], log, cwd=vanilla)
    else:
        dirty = subprocess.run(["git", "status", "--porcelain", "-uno"], cwd=tree,
                               capture_output=True, text=True).stdout
        if dirty.strip():
            raise Failure(f"{tree} has uncommitted changes and the series changed: commit "
                          "them and 'make export', or discard them (git checkout -f)")
        subprocess.run(["git", "am", "--abort"], cwd=tree, capture_output=True)
        kept = touched_blobs(tree)
        sh(["git", "checkout", "-q", "-f", "-B", branch, "base"], log, cwd=tree)
    tested, have = tested_base(), installed_source_version()
    if tested and tested != have:
        print(f"  note: the series was tested on {SOURCE_PKG} {tested}; this machine has {have}. "
              "Applying with git am -3.", flush=True)
    for p in patches:
        r = sh(["git", "am", "-3", "-q", p], log, cwd=tree, env={
            "GIT_COMMITTER_NAME": "harness", "GIT_COMMITTER_EMAIL": "harness@localhost"},
            check=False)
        if r.returncode:
            subprocess.run(["git", "am", "--abort"], cwd=tree, capture_output=True)
            raise Failure(f"{p.name} does not apply to {SOURCE_PKG} {have} "
                          f"(tested on {tested or 'unknown'}); see {log}")
        # git am drops the notes below "---" ("Changes in vN"): keep them,
        # so that make export writes them back
        notes = patch_notes(p.read_text())
        if notes:
            sh(["git", "notes", "add", "-f", "-m", notes, "HEAD"], log, cwd=tree)
    if broken:
        sh(["git", "apply", broken], log, cwd=tree)
        sh(["git", "commit", "-q", "-a", "-m", f"mutant: {broken.stem}"], log, cwd=tree,
           env={"GIT_AUTHOR_NAME": "harness", "GIT_AUTHOR_EMAIL": "harness@localhost",
                "GIT_COMMITTER_NAME": "harness", "GIT_COMMITTER_EMAIL": "harness@localhost"})
    # A file whose content came back the same keeps its old time stamp, so
    # that a changed commit message or test does not rebuild the kernel.
    for path, (blob, _) in touched_blobs(tree).items():
        if path in kept and kept[path][0] == blob:
            os.utime(tree / path, (kept[path][1], kept[path][1]))
    write_stamp(stamp, want)
    progress(f"tree: applied {len(patches)} patch(es) in {tree}", start)
    return tree


def patch_notes(text):
    """The git notes that format-patch --notes put below a patch's "---"."""
    m = re.search(r"^---\n\nNotes:\n((?:    .*\n|\n(?=    ))+)", text, re.M)
    return "\n".join(x[4:] for x in m.group(1).rstrip("\n").split("\n")) if m else ""


def touched_blobs(tree):
    """{path: (blob id, mtime)} of the files that differ from base."""
    names = subprocess.run(["git", "diff", "--name-only", "base", "HEAD"], cwd=tree,
                           capture_output=True, text=True).stdout.split()
    out = {}
    for n in names:
        r = subprocess.run(["git", "rev-parse", f"HEAD:{n}"], cwd=tree, capture_output=True,
                           text=True)
        if r.returncode == 0 and (tree / n).exists():
            out[n] = (r.stdout.strip(), (tree / n).stat().st_mtime)
    return out


def tree_of(kernel):
    if kernel == "vanilla":
        return ensure_vanilla()
    if kernel == "patched":
        return ensure_patched()
    m = re.fullmatch(r"upto-(\d{4})", kernel)
    if m:
        return ensure_patched(m.group(1))
    m = re.fullmatch(r"mutant-([\w-]+)", kernel)
    if m:
        return ensure_patched(mutant=m.group(1))
    raise Failure(f"KERNEL must be patched, vanilla, upto-NNNN or mutant-NAME, not {kernel!r}")


def kunit_expected(kernel, target, image):
    """Must this kernel's console carry the KUNIT_SUITE suite?  Its .config (in the out
    directory of image) says; the bisect kernels before the suite's patch have none."""
    image, rel = str(image), TARGETS[target]["image"]
    config = Path(image[:-len(rel)]) / ".config"
    if not image.endswith("/" + rel) or not config.exists():
        return kernel == "patched"
    return parse_fragment(config).get(KUNIT_OPTION) == "y"


# ---------------------------------------------------------------- kernels

BUILD_STEP = re.compile(r"^  (CC|AS|LD|AR|OBJCOPY|HOSTCC|CPP|GEN|UPD)\b.*$", re.M)


def build_progress(steps_before):
    """A line saying how far a kernel build is: the steps (CC, LD, ...) it
    has printed, against the last complete build's count when there was one."""
    def line(seconds, text):
        done = len(BUILD_STEP.findall(text))
        of = f" of about {steps_before}" if steps_before else ""
        return f"  kernel: {seconds / 60:.0f} min, build steps: {done}{of}"
    return line


def kmake(tree, out, t, *args, log):
    cmd = ["make", "-C", tree, f"O={out}", f"ARCH={t['karch']}", f"-j{JOBS}"]
    if t["cross"]:
        cmd.append(f"CROSS_COMPILE={t['cross']}")
    # the step count of the last complete run of these targets, for the progress line
    count = Path(out) / f".harness-steps-{digest(*args)[:12]}"
    before = int(count.read_text()) if count.exists() else 0
    offset = log.stat().st_size if log.exists() else 0
    r = sh(cmd + list(args), log, progress=build_progress(before))
    with open(log, errors="replace") as f:
        f.seek(offset)
        steps = len(BUILD_STEP.findall(f.read()))
    if steps > 100 and Path(out).is_dir():      # a build, not a make that had nothing to do
        count.write_text(str(steps))
    return r


def parse_fragment(path):
    want = {}
    for line in path.read_text().splitlines():
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            want[m.group(1)] = m.group(2)
        m = re.match(r"^# (CONFIG_\w+) is not set$", line)
        if m:
            want[m.group(1)] = "n"
    return want


def with_base(frags):
    """Each fragment kconfig/X.config, followed by kconfig/<BASE>/X.config where the
    base has options of its own for it (an option one base has and another lacks)."""
    out = []
    for f in frags:
        out.append(f)
        own = f.parent / BASE / f.name
        if own.exists():
            out.append(own)
    return out


def fragments(kernel, t, extra=()):
    frags = [ROOT / "kconfig/base.config"] + [ROOT / f"kconfig/{f}.config" for f in t["fragments"]]
    # bench kernels must be configured identically: no patched-only options
    if (kernel == "patched" or kernel.startswith("mutant-")) and "bench" not in extra and \
            (ROOT / "kconfig/patched.config").exists():
        frags.append(ROOT / "kconfig/patched.config")
    return with_base(frags + [ROOT / f"kconfig/{e}.config" for e in extra])


def page_size(t):
    """A target's page size, from its fragments, a later one overriding an earlier
    one as merge_config.sh does (CONFIG_ARM64_<N>K_PAGES=y); 4K where none chooses"""
    merged = {k: v for f in fragments("vanilla", t) for k, v in parse_fragment(f).items()}
    for opt, val in merged.items():
        m = re.fullmatch(r"CONFIG_ARM64_(\d+)K_PAGES", opt)
        if m and val == "y":
            return int(m.group(1)) << 10
    return 4096


def merge_config(tree, out, t, base, frags, log):
    """`make <base>` (tinyconfig, defconfig) + fragments with merge_config.sh; the result."""
    out.mkdir(parents=True, exist_ok=True)
    kmake(tree, out, t, base, log=log)
    sh([tree / "scripts/kconfig/merge_config.sh", "-m", "-O", out, out / ".config", *frags],
       log, env={"ARCH": t["karch"], "CROSS_COMPILE": t["cross"]})
    kmake(tree, out, t, "olddefconfig", log=log)
    have = {}
    for line in (out / ".config").read_text().splitlines():
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            have[m.group(1)] = m.group(2)
    return have


def dropped_options(have, frags, ignore=()):
    """What the fragments ask for that the .config does not have (later fragments win)."""
    want_all = {}
    for f in frags:
        want_all.update({k: (v, f.name) for k, v in parse_fragment(f).items()})
    return [f"{k}={v} ({name}) but the .config has {have.get(k, 'n')}"
            for k, (v, name) in want_all.items() if have.get(k, "n") != v and k not in ignore]


def ensure_config(kernel, t, tree, out, extra=()):
    frags = fragments(kernel, t, extra)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True,
                          text=True).stdout.strip()
    want = digest(head, *[f.read_bytes() for f in frags])
    stamp = out / ".harness-config"
    if (out / ".config").exists() and stamp_ok(stamp, want):
        return
    have = merge_config(tree, out, t, "tinyconfig", frags,
                        BUILD / f"logs/build-{out.name}.log")
    dropped = dropped_options(have, frags)
    if dropped:
        raise Failure("Kconfig dropped options that a fragment asks for:\n  " + "\n  ".join(dropped))
    write_stamp(stamp, want)


def build_kernel(kernel, target, extra=()):
    t = TARGETS[target]
    tree = tree_of(kernel)
    name = "-".join([kernel, target, *extra])
    out = BUILD / "out" / name
    start = time.monotonic()
    log = BUILD / f"logs/build-{name}.log"
    progress(f"kernel: building {name} (log: {shown(log)})")
    log.unlink(missing_ok=True)
    ensure_config(kernel, t, tree, out, extra)
    goals = [Path(t["image"]).name] + (["modules"] if "bench" in extra else [])
    kmake(tree, out, t, *goals, log=log)
    progress(f"kernel: {name} built ({out / t['image']})", start)
    return out / t["image"]


# ---------------------------------------------------------------- guest programs

def selftest_programs():
    mk = ROOT / "selftests/Makefile"
    if not mk.exists():
        return []
    text = mk.read_text()
    m = re.search(r"^TEST_GEN_PROGS\s*:?=\s*(.*)$", text, re.M)
    return m.group(1).split() if m else []


def compile_c(abi, src, out, extra_flags=(), libs=()):
    a = ABIS[abi]
    out.parent.mkdir(parents=True, exist_ok=True)
    srcs = [src] + sorted(Path(src).parent.glob("*.h")) + sorted(ROOT.glob("selftests/*.h"))
    if out.exists() and all(out.stat().st_mtime >= s.stat().st_mtime for s in srcs):
        return out
    cmd = [a["cc"], "-static", "-O2", "-Wall", "-D_GNU_SOURCE", *extra_flags, "-o", out, src,
           *libs, *a["cflags"]]
    sh(cmd, BUILD / f"logs/userspace-{abi}.log")
    return out


def build_userspace(target, with_demo=False):
    """The static selftests (or the demo) for every ABI of the target."""
    t = TARGETS[target]
    tree = ensure_vanilla()
    start = time.monotonic()
    progress(f"userspace: building the {', '.join(t['abis'])} programs "
             f"(logs: {shown(BUILD / 'logs')}/userspace-<abi>.log)")
    kself = tree / "tools/testing/selftests/kselftest"   # so "../kselftest_harness.h" resolves
    built = {}
    for abi in t["abis"]:
        bindir = BUILD / "bin" / abi
        progs = {}
        for prog in [] if with_demo else selftest_programs():
            progs[prog] = compile_c(abi, ROOT / f"selftests/{prog}.c", bindir / prog,
                                    ["-I", kself])
        if not with_demo:
            # the exhaustive ABI sweeps that the kernel tree's selftests leave out
            progs["groups_abi"] = compile_c(abi, ROOT / "robust/groups_abi.c",
                                            bindir / "groups_abi", ["-I", kself.parent])
        if with_demo:
            progs["demo"] = compile_c(abi, ROOT / "qemu/demo.c", bindir / "demo")
        built[abi] = progs
    progress(f"userspace: {', '.join(t['abis'])} programs built", start)
    return built


def gen_init_cpio():
    exe = BUILD / "bin/host/gen_init_cpio"
    src = ensure_vanilla() / "usr/gen_init_cpio.c"
    if not exe.exists():
        exe.parent.mkdir(parents=True, exist_ok=True)
        sh(["gcc", "-O2", "-o", exe, src])
    return exe


def make_initramfs(path, target, files, plan, overlay=None):
    """The target's /init (qemu/init.c for its first ABI), files ({guest path: host
    path}) and plan (a list of argv lists: label, timeout, prog, args)."""
    abi = TARGETS[target]["abis"][0]
    files = dict(files, **{"/init": compile_c(abi, ROOT / "qemu/init.c",
                                               BUILD / "bin" / abi / "init")})
    path.parent.mkdir(parents=True, exist_ok=True)
    plan_file = path.with_suffix(".plan")
    plan_file.write_text("".join("\t".join(map(str, p)) + "\n" for p in plan))
    lines = ["dir /dev 0755 0 0", "nod /dev/console 0600 0 0 c 5 1", "nod /dev/null 0666 0 0 c 1 3"]
    dirs = {"/dev"}

    def add_dirs(guest):
        parts = Path(guest).parent.parts
        for i in range(2, len(parts) + 1):
            d = "/" + "/".join(parts[1:i])
            if d not in dirs:
                dirs.add(d)
                lines.append(f"dir {d} 0755 0 0")

    for d in ("/proc", "/sys", "/tmp", "/root", "/etc", "/bin"):
        add_dirs(d + "/x")
    base = {"/etc/passwd": ROOT / "qemu/passwd", "/etc/group": ROOT / "qemu/group",
            "/harness/plan": plan_file, **files}
    for guest, host in base.items():
        add_dirs(guest)
        mode = "0755" if os.access(host, os.X_OK) else "0644"
        lines.append(f"file {guest} {host} {mode} 0 0")
    if overlay:
        overlay = Path(overlay).resolve()
        for p in sorted(overlay.rglob("*")):
            guest = "/" + str(p.relative_to(overlay))
            mode = oct(p.lstat().st_mode & 0o7777)[2:]
            if p.is_symlink():
                add_dirs(guest)
                lines.append(f"slink {guest} {os.readlink(p)} {mode} 0 0")
            elif p.is_dir():
                add_dirs(guest + "/x")
            elif p.is_file():
                add_dirs(guest)
                lines.append(f"file {guest} {p} {mode} 0 0")
    spec = path.with_suffix(".list")
    spec.write_text("\n".join(lines) + "\n")
    with open(path, "wb") as f:
        subprocess.run([gen_init_cpio(), spec], stdout=f, check=True)
    return path


# ---------------------------------------------------------------- booting

def host_tsc_khz():
    """The rate of the host's TSC, at which an x86 guest's TSC counts under TCG."""
    if platform.machine() != "x86_64":
        return None
    m = re.search(r"^cpu MHz\s*:\s*([0-9.]+)", Path("/proc/cpuinfo").read_text(), re.M)
    return round(float(m.group(1)) * 1000) if m else None


def boot_args(t):
    """targets.conf's bootargs, with {host_tsc_khz} filled in or its argument dropped."""
    khz = host_tsc_khz()
    args = [a.replace("{host_tsc_khz}", str(khz)) for a in t["bootargs"].split()
            if khz or "{host_tsc_khz}" not in a]
    return " ".join([f"console={t['console']}", "panic=-1"] + args)


def boot(kernel, target, job, image, initrd, timeout, loglevel=None, echo=None, smp=1):
    """Boot, keep console.log, return (lines, outcome) where outcome is 'ok' or why not.
    smp > 1: that many vCPUs, on as many host threads (multi-threaded TCG)."""
    t = TARGETS[target]
    resdir = BUILD / "results" / job
    resdir.mkdir(parents=True, exist_ok=True)
    append = boot_args(t)
    if loglevel is not None:
        append += f" loglevel={loglevel}"
    # One CPU a socket: SeaBIOS's MP table, all that an x86 kernel without
    # ACPI has to find CPUs by, lists one CPU of each package only.
    cmd = [t["qemu"], "-M", t["machine"], "-cpu", t["cpu"], "-m", "2048",
           "-smp", f"{smp},sockets={smp},cores=1,threads=1",
           *(["-accel", "tcg,thread=multi"] if smp > 1 else []),
           "-nographic", "-monitor", "none", "-serial", "stdio", "-no-reboot",
           "-kernel", str(image), "-initrd", str(initrd), "-append", append]
    (resdir / "qemu.cmd").write_text(" ".join(shlex.quote(c) for c in cmd) + "\n")
    log = resdir / "console.log"
    lines, outcome = [], "ok"
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buf = b""
    with open(log, "wb") as f:
        while True:
            left = timeout - (time.monotonic() - start)
            if left <= 0:
                proc.kill()
                outcome = f"timeout after {timeout}s"
                break
            if not sel.select(timeout=min(left, 1.0)):
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            f.write(chunk)
            buf += chunk
            *done, buf = buf.split(b"\n")
            for raw in done:
                line = raw.decode(errors="replace").rstrip("\r")
                lines.append(line)
                if echo:
                    echo(line)
        if buf:
            lines.append(buf.decode(errors="replace").rstrip("\r"))
    proc.wait()
    return lines, console_outcome(lines, outcome), time.monotonic() - start


def kernel_problem(line):
    """Is this console line the kernel reporting a problem (not a harness line)?"""
    return bool(KERNEL_PROBLEMS.search(line)) and not line.startswith(MARK)


def console_outcome(lines, outcome="ok"):
    """'ok', or why a boot failed whatever its tests said: a kernel problem, no end marker."""
    problems = [line for line in lines if kernel_problem(line)]
    if outcome == "ok" and problems:
        outcome = "kernel problem in the console log: " + problems[0].strip()
    if outcome == "ok" and not any(line.startswith(MARK + "done") for line in lines):
        outcome = "the guest never reported '# harness: done' (crash or early exit)"
    return outcome


def parse_tap(lines, prefix):
    """Leaf results of (K)TAP text: [(name, 'pass'|'fail'|'skip', detail)], plus plan problems."""
    results, problems = [], []
    suites = []                           # KTAP "# Subtest: name" above: [(indent, name)]
    prev_indent = None
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
        is_parent = prev_indent is not None and prev_indent > indent
        prev_indent = indent
        d = (directive or "").upper()
        status = "skip" if d == "SKIP" else ("pass" if ok == "ok" or d == "TODO" else "fail")
        if is_parent:
            # a suite's summary line: count it only if it contradicts its children
            if status == "fail" and not any(r[1] == "fail" for r in results):
                results.append((f"{prefix}{name}", "fail", "suite failed"))
            continue
        results.append((f"{prefix}{name}", status, (reason or "").strip()))
    if top_plan is not None and top_count != top_plan:
        problems.append(f"{prefix}: planned {top_plan} tests, {top_count} reported")
    return results, problems


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
    seg = Segments()
    for line in lines:
        seg.feed(line)
    return seg.finish()


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


def count(results):
    return {s: sum(1 for r in results if r[1] == s) for s in ("pass", "fail", "skip")}


def result_lines(results):
    return "".join(f"{s:4} {n}{'  # ' + d if d else ''}\n" for n, s, d in results)


def conclude(name, results, t0, need_pass=True):
    """Every command's end: build/results/<name>.txt with every result, the time,
    the closing 'N passed, N failed, N skipped' line; the exit status."""
    c = count(results)
    (BUILD / "results").mkdir(parents=True, exist_ok=True)
    (BUILD / f"results/{name}.txt").write_text(result_lines(results))
    print(f"{name}: {time.monotonic() - t0:.0f}s; every result in "
          f"{shown(BUILD / 'results' / name)}.txt")
    print(f"{c['pass']} passed, {c['fail']} failed, {c['skip']} skipped")
    return 1 if c["fail"] or (need_pass and not c["pass"]) else 0


def write_summary(job, results, elapsed):
    resdir = BUILD / "results" / job
    counts = count(results)
    text = result_lines(results)
    text += (f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped "
             f"in {elapsed:.1f}s\n")
    (resdir / "summary.txt").write_text(text)
    return counts


# ---------------------------------------------------------------- jobs

def test_plan(target, built):
    plan = []
    files = {}
    for abi in TARGETS[target]["abis"]:
        for prog, host in built[abi].items():
            if prog == "demo":
                continue
            files[f"/tests/{abi}/{prog}"] = host
            plan.append([f"{abi}/{prog}", TEST_TIMEOUT, f"/tests/{abi}/{prog}"])
    return files, plan


def boot_suite(kernel, target, image=None, job=None, quiet=False):
    """Boot a kernel (image, or the one build_kernel() makes) with the whole selftest
    suite; return its results."""
    image = image or build_kernel(kernel, target)
    built = build_userspace(target)
    files, plan = test_plan(target, built)
    job = job or f"{kernel}-{target}"
    lines, outcome, elapsed, results = boot_plan(kernel, target, image, job, files, plan, 900,
                                                 built)
    report_boot(job, results, lines, outcome, elapsed, quiet)
    return results


def boot_plan(kernel, target, image, job, files, plan, timeout, built=None, smp=1):
    """Boot with /init, files and plan; return the console, outcome, time and results.
    built: build_userspace(target), if the caller has it already."""
    built = built or build_userspace(target)
    initrd = make_initramfs(BUILD / "results" / job / "initramfs.cpio", target, files, plan)
    progress(f"boot: {job}: booting {kernel} {target} "
             f"(console: {results_of(job)}/console.log)")
    lines, outcome, elapsed = boot(kernel, target, job, image, initrd, timeout, smp=smp,
                                   echo=stream)
    return lines, outcome, elapsed, analyse(lines, outcome, job,
                                            kunit_expected(kernel, target, image))


def stream(line):
    """What a boot shows as it goes: each program's start and end, every failed test
    and every kernel problem, the moment the console has them."""
    text = line[line.find(MARK):] if MARK in line else line
    m = MARKER.match(text)
    if m:
        print(f"    {'running' if m.group(1) == 'begin' else 'done   '} {m.group(2)}"
              f"{' ' + m.group(3).rstrip() if m.group(3).strip() else ''}", flush=True)
    elif re.match(r"^\s*not ok \d+", text) or kernel_problem(line):
        print(f"      {text.strip()}", flush=True)


def report_boot(job, results, lines, outcome, elapsed, quiet=False):
    """summary.txt, a one-line count, and on failure the failures and the console."""
    c = write_summary(job, results, elapsed)
    if not quiet:
        progress(f"boot: {job}: {c['pass']} passed, {c['fail']} failed, {c['skip']} skipped "
                 f"in {elapsed:.0f}s ({results_of(job)}/)")
    if c["fail"] or outcome != "ok":
        for n, s, d in results:
            if s == "fail":
                print(f"    FAIL {n}{': ' + d if d else ''}")
        problems = [x for x in lines if kernel_problem(x)]
        print("    --- " + ("kernel problems" if problems else "console tail") + " ---")
        print("\n".join("    " + x for x in (problems or lines)[-25:]))
    return c


def check_selftests_sync():
    """selftests/ must be what the series adds under tools/testing/selftests/groups/."""
    intree = ensure_patched() / "tools/testing/selftests/groups"
    if not intree.exists():
        return [("selftests/ = tools/testing/selftests/groups/", "skip",
                 "the series does not add tools/testing/selftests/groups/ yet")]
    ours = {p.relative_to(ROOT / "selftests") for p in (ROOT / "selftests").rglob("*") if p.is_file()}
    theirs = {p.relative_to(intree) for p in intree.rglob("*") if p.is_file()}
    diff = sorted(str(p) for p in ours ^ theirs)
    diff += sorted(str(p) for p in ours & theirs
                   if (ROOT / "selftests" / p).read_bytes() != (intree / p).read_bytes())
    return [("selftests/ = tools/testing/selftests/groups/", "fail" if diff else "pass",
             ("differ: " + ", ".join(diff)) if diff else "")]


MAINTAINERS_QUESTION = "WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?"


def snippet_covers(path, snippet):
    """Whether an F: line of MAINTAINERS.snippet's text names the file (or its directory)."""
    pats = [x.split("\t", 1)[1] for x in snippet.splitlines() if x.startswith("F:\t")]
    return any(path == f or (f.endswith("/") and path.startswith(f)) for f in pats)


def checkpatch_findings(out, patch="", snippet=""):
    """What checkpatch --strict reported: its ERROR, WARNING and CHECK lines.  Its
    question whether MAINTAINERS needs updating is answered, not reported, when
    MAINTAINERS.snippet (the entry the series proposes instead of adding one)
    names every file the patch adds."""
    added = re.findall(r"^diff --git a/\S+ b/(\S+)\nnew file mode", patch, re.M)
    answered = bool(added) and all(snippet_covers(f, snippet) for f in added)
    return [x for x in out.splitlines() if x.startswith(("ERROR:", "WARNING:", "CHECK:"))
            and not (answered and x == MAINTAINERS_QUESTION)]


def check_checkpatch():
    tree = ensure_vanilla()
    results = []
    for p in series_patches():
        # From stdin: run on a file that git tracks, checkpatch checks it as source.
        out = subprocess.run(["perl", tree / "scripts/checkpatch.pl", "--strict", "--no-tree",
                              "-q", "-"], stdin=open(p), capture_output=True, text=True).stdout
        bad = checkpatch_findings(out, p.read_text(), (ROOT / "MAINTAINERS.snippet").read_text())
        results.append((f"checkpatch --strict {p.name}", "fail" if bad else "pass",
                        "; ".join(bad[:3])))
    return results


def check_harness():
    """qemu/tests/: the harness's own unit tests (its parser on recorded logs), a result each."""
    def each(suite):
        for t in suite:
            yield from each(t) if isinstance(t, unittest.TestSuite) else [t]
    tests = list(each(unittest.defaultTestLoader.discover(str(ROOT / "qemu/tests"))))
    r = unittest.TestResult()
    unittest.TestSuite(tests).run(r)
    why = {t.id(): ("fail", tb.strip().splitlines()[-1]) for t, tb in r.failures + r.errors}
    why.update({t.id(): ("skip", reason) for t, reason in r.skipped})
    return [(f"harness: parser unit tests: {t.id()}", *why.get(t.id(), ("pass", "")))
            for t in tests]


def cmd_check(args):
    t0 = time.monotonic()
    print("== harness", flush=True)
    results = check_harness()
    c = count(results)
    progress(f"harness: parser unit tests (qemu/tests): {c['pass']} passed, {c['fail']} failed, "
             f"{c['skip']} skipped")
    for n, s, d in results:
        if s == "fail":
            print(f"    FAIL {n}: {d}")
    for target in args.targets:
        print(f"== {args.kernel} {target}", flush=True)
        results += boot_suite(args.kernel, target)
    if args.kernel == "patched":
        print("== series", flush=True)
        series = check_selftests_sync() + check_checkpatch()
        for n, s, d in series:
            print(f"  {s:4} {n}{'  # ' + d if d else ''}")
        results += series
    else:
        print(f"== series: skipped (its checks run with the patched kernel, not {args.kernel})",
              flush=True)
    return conclude("check", results, t0)


def guest_program(args, image, files, plan_argv, job):
    """Boot with one program; echo what it prints; return its exit status."""
    plan = [["prog", args.timeout, *plan_argv]]
    initrd = make_initramfs(BUILD / "results" / job / "initramfs.cpio", args.target, files, plan,
                            overlay=getattr(args, "overlay", None))
    seg = Segments()

    def echo(line):
        for text in seg.feed(line):
            print(text, flush=True)

    print(f"== {job}: booting (console log: {results_of(job)}/console.log)", flush=True)
    lines, outcome, elapsed = boot(args.kernel, args.target, job, image, initrd,
                                   timeout=args.timeout + 120, loglevel=5, echo=echo)
    ends = [end for label, _, end in seg.finish()[1] if label == "prog"]
    status = None
    if ends:
        m = re.search(r"exit=(\d+)", ends[-1])
        status = int(m.group(1)) if m else None
        if "timeout" in ends[-1]:
            outcome = f"the program timed out after {args.timeout}s"
        elif "signal=" in ends[-1]:
            outcome = "the program was killed by " + ends[-1].split()[-1]
    if outcome != "ok":
        print(f"guest-run: {outcome}", file=sys.stderr)
        if status in (None, 0):
            status = 125
    elif status is None:
        status = 125
    print(f"== {job}: exit status {status} ({elapsed:.1f}s in the guest)", flush=True)
    return status


def cmd_guest_run(args):
    if not args.prog:
        raise Failure("PROG=/path/to/static-binary is required")
    prog = Path(args.prog).resolve()
    if not prog.is_file():
        raise Failure(f"PROG {prog} is not a file")
    argv = shlex.split(args.args or "")
    image = build_kernel(args.kernel, args.target)
    return guest_program(args, image, {"/harness/prog": prog}, ["/harness/prog", *argv],
                         f"guest-run-{args.kernel}-{args.target}")


def cmd_run(args):
    t = TARGETS[args.target]
    image = build_kernel(args.kernel, args.target)
    built = build_userspace(args.target, with_demo=True)
    status = 0
    for abi in t["abis"]:
        s = guest_program(args, image, {f"/bin/demo-{abi}": built[abi]["demo"]},
                          [f"/bin/demo-{abi}"], f"run-{args.kernel}-{args.target}-{abi}")
        status = status or s
    return status


def sender_identity():
    """The sender's git identity, for From: and Signed-off-by:; never the
    placeholder, nor an address in a reserved domain."""
    def cfg(key):
        return subprocess.run(["git", "config", key], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
    name, email = cfg("user.name"), cfg("user.email")
    ident = f"{name} <{email}>"
    if not name or not email or ident == PLACEHOLDER or \
            RESERVED_DOMAIN.search(email.rpartition("@")[2]):
        raise Failure(f"the patches are signed off by their sender, not {ident if name else 'nobody'}: "
                      "git config --global user.name 'Your Name'; "
                      "git config --global user.email you@your.domain")
    return ident


def sign_as(text, ident):
    """A patch whose author, sign-off and MAINTAINERS entry are the
    placeholder's, as its sender's."""
    for field in ("From: ", "Signed-off-by: ", "+M:\t"):
        text = re.sub(rf"^{re.escape(field)}{re.escape(PLACEHOLDER)}$", f"{field}{ident}", text,
                      flags=re.M)
    # the cover letter's shortlog names the author: "Harness Dev (19):"
    name = PLACEHOLDER.rsplit(" <", 1)[0]
    return re.sub(rf"^{re.escape(name)} (\(\d+\):)$", lambda m: f"{ident.rsplit(' <', 1)[0]} {m.group(1)}",
                  text, flags=re.M)


def cmd_export(args):
    """Write base..HEAD of a tree back as 0001-*.patch, keeping the cover letter's text."""
    tree = Path(args.tree).resolve()
    ident = None if args.keep_author else sender_identity()
    cover = cover_letter()
    subject, blurb = "*** SUBJECT HERE ***", "*** BLURB HERE ***"
    if cover.exists():
        text = cover.read_text()
        m = re.search(r"^Subject: \[[^]]*\] (.*(?:\n [^\n]*)*)", text, re.M)
        subject = m.group(1).replace("\n ", " ") if m else subject
        body = text.split("\n\n", 1)[1]
        m = re.search(r"^\S.* \(\d+\):$", body, re.M)
        blurb = body[:m.start()].rstrip("\n") if m else blurb
    for p in SERIES.glob("0[0-9][0-9][0-9]-*.patch"):
        p.unlink()
    tested = installed_source_version()
    sh(["git", "format-patch", "-q", "--cover-letter", "--zero-commit", "--base=base", "--notes",
        f"--subject-prefix={args.prefix}", "-o", SERIES, "base..HEAD"], cwd=tree)
    text = cover.read_text().replace("*** SUBJECT HERE ***", subject)
    text = text.replace("*** BLURB HERE ***", blurb)
    text = re.sub(r"^base-commit: .*$",
                  lambda m: m.group(0) + f"\nbase-tree: Debian {SOURCE_PKG} {tested}",
                  text, flags=re.M)
    cover.write_text(text)
    if ident:
        for p in [cover] + series_patches():
            p.write_text(sign_as(p.read_text(), ident))
    print(f"exported {len(series_patches())} patches and the cover letter from {tree}"
          + (f", from and signed off by {ident}" if ident else ", authors kept"))
    return 0


def touched_objects(tree):
    """The object files of the C files that the series changes."""
    names = subprocess.run(["git", "diff", "--name-only", "base", "HEAD", "--", "*.c"],
                           cwd=tree, capture_output=True, text=True).stdout.split()
    objs = []
    for n in names:
        if n.startswith(("tools/", "samples/")) or n.endswith("_kunit.c"):
            continue            # user space, or #included by another file
        objs.append(n[:-2] + ".o")
    return objs


def cmd_prepare(args):
    for k in args.kernels:
        tree_of(k)
    return 0


def cmd_clean(args):
    for d in ("out", "bin", "results", "logs"):
        shutil.rmtree(BUILD / d, ignore_errors=True)
    print(f"removed the kernel builds, programs, results and logs under {shown(BUILD)}")
    return 0


def cmd_build(args):
    for target in args.targets:
        build_kernel(args.kernel, target)
        build_userspace(target)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("tree", help="extract the vanilla tree and apply the series")
    p.add_argument("kernels", nargs="*", default=["vanilla", "patched"])
    p.set_defaults(fn=cmd_prepare)
    p = sub.add_parser("export", help="format-patch a tree's commits back into the repository")
    p.add_argument("--tree", default=str(BUILD / "patched"))
    p.add_argument("--prefix", default="PATCH v3")
    p.add_argument("--keep-author", action="store_true",
                   help="keep the commits' authors and sign-offs (working copies, not for sending)")
    p.set_defaults(fn=cmd_export)
    p = sub.add_parser("clean", help="remove kernel builds, programs, results, logs (not trees)")
    p.set_defaults(fn=cmd_clean)
    p = sub.add_parser("build", help="build kernels and guest programs")
    p.add_argument("--kernel", default="patched")
    p.add_argument("targets", nargs="*", default=list(TARGETS))
    p.set_defaults(fn=cmd_build)
    p = sub.add_parser("check", help="boot every target and run the whole suite")
    p.add_argument("--kernel", default="patched")
    p.add_argument("targets", nargs="*", default=list(TARGETS))
    p.set_defaults(fn=cmd_check)
    for name, fn in (("run", cmd_run), ("guest-run", cmd_guest_run)):
        p = sub.add_parser(name)
        p.add_argument("--kernel", default="patched")
        p.add_argument("--target", default="x86_64", help=", ".join(TARGETS))
        p.add_argument("--timeout", type=int, default=300)
        if name == "guest-run":
            p.add_argument("--prog")
            p.add_argument("--args", default="")
            p.add_argument("--overlay")
        p.set_defaults(fn=fn)
    dispatch(ap)


def check_args(args):
    """Unknown targets or kernel, or a missing tool, as a Failure, before any work."""
    if BASE not in BASES:
        raise Failure(f"unknown base {BASE!r}: BASE takes {', '.join(BASES)}")
    targets = list(getattr(args, "targets", None) or []) + \
        ([args.target] if getattr(args, "target", None) else [])
    for name in targets:
        if name not in TARGETS:
            raise Failure(f"unknown target {name!r}: TARGETS and ARCH take {', '.join(TARGETS)}")
    kernel = getattr(args, "kernel", None)
    if kernel is not None and not KERNEL_NAME.fullmatch(kernel):
        raise Failure(f"KERNEL must be patched, vanilla, upto-NNNN or mutant-NAME, not {kernel!r}")
    if kernel and kernel.startswith(("upto-", "mutant-")):
        kind, _, what = kernel.partition("-")
        kernel_source(**{kind: what})
    tools = {x for name in targets for x in [TARGETS[name]["qemu"], TARGETS[name]["cross"] + "gcc",
                                              *(ABIS[a]["cc"] for a in TARGETS[name]["abis"])]}
    missing = sorted(x for x in tools if not shutil.which(x))
    if missing:
        raise Failure(f"{', '.join(missing)} not installed: run 'make deps' (apt-get install "
                      f"{' '.join(sorted({package_of(x) for x in missing}))})")


def dispatch(ap):
    """Run the subcommand; a Failure, or a tool that is not installed, is one line on
    stderr and exit status 2."""
    args = ap.parse_args()
    try:
        check_args(args)
        sys.exit(args.fn(args))
    except Failure as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except FileNotFoundError as e:        # subprocess: a program that is not installed
        if not e.filename or "/" in str(e.filename):
            raise
        print(f"error: {e.filename} is not installed: run 'make deps' (apt-get install "
              f"{package_of(str(e.filename))})", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
