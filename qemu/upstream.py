# SPDX-License-Identifier: GPL-2.0
"""Upstream readiness: make series-check and make send-email-dry-run.

series-check: checkpatch --strict on every patch; after each patch the x86_64
and arm64 harness kernels build (incrementally, in one worktree); a
tinyconfig with MULTIUSER=n builds; every object the series touches
compiles with W=1 and with sparse (C=2) on x86_64 and arm64 with no warning
that the vanilla tree does not have; and the same objects compile on the
other architectures that Debian has cross compilers for.

send-email-dry-run: git send-email --dry-run of the series, the cover letter
first and threaded, To and Cc from scripts/get_maintainer.pl on the patched
tree, whose MAINTAINERS must hold MAINTAINERS.snippet.
"""

import hashlib
import os
import re
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path

from checks import check_checkpatch
from config import (COMPILE, MUTANTS, Failure, PLACEHOLDER, ROOT, TARGETS, first_target_with,
                    progress, settings, sh, targets_with)
from guest import boot_suite
from kbuild import dropped_options, fragments, kmake, merge_config, parse_fragment, with_base
from mail import sender_identity, sign_as, touched_objects
from results import conclude, count, result_lines
from robust import mutant_bases
from trees import cover_letter, ensure_patched, ensure_vanilla, git_am, series_patches, tree_of

WARN = re.compile(r"warning:|error:")
# Kconfig's own warnings are printed only when a build reconfigures, which
# depends on the out directory's state, not on the code: not compared.
KCONFIG_WARN = re.compile(r"Kconfig:\d+:warning:")
FALLBACK_TO = "Andrew Morton <akpm@linux-foundation.org>"
# Seeds for the randstruct layout check: fixed, so that a failure can be
# reproduced; any 64 hex digits are a seed.
def randstruct_seeds(n=5):
    return [hashlib.sha256(f"group_info {i}".encode()).hexdigest() for i in range(1, n + 1)]


RANDSTRUCT_SEEDS = randstruct_seeds()
# Objects whose compilation evaluates <linux/cred.h>'s layout checks, with
# the struct as the plugin lays it out
RANDSTRUCT_OBJECTS = ["kernel/groups.o", "kernel/cred.o", "fs/proc/array.o"]


def git(tree, *args, check=True):
    r = subprocess.run(["git", *args], cwd=tree, capture_output=True, text=True)
    if check and r.returncode:
        raise Failure(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def bisect_tree():
    """A worktree at base for applying the series one patch at a time."""
    vanilla = ensure_vanilla()
    tree = settings().build / "bisect"
    if not (tree / ".git").exists():
        shutil.rmtree(tree, ignore_errors=True)
        git(vanilla, "worktree", "prune")
        git(vanilla, "worktree", "add", "-q", "-f", "-B", "bisect", str(tree), "base")
    git(tree, "checkout", "-q", "-f", "-B", "bisect", "base")
    return tree


def build_at(tree, name, target, frags, goal=None):
    t = TARGETS[target]
    out = settings().build / "out" / f"bisect-{name}"
    log = settings().build / f"logs/bisect-{name}.log"
    if not (out / ".config").exists():
        merge_config(tree, out, t, "tinyconfig", frags, log)
    # What the patched kernel adds (its KUnit suite) exists only from the
    # patch that adds it on: ask again after every patch, olddefconfig
    # drops it until then.
    patched = {k: v for f in with_base([ROOT / "kconfig/patched.config"])
               for k, v in parse_fragment(f).items()}
    for opt, val in patched.items():
        if frags[0].name == "base.config":
            sh([tree / "scripts/config", "--file", out / ".config", "--set-val",
                opt[len("CONFIG_"):], val], log)
    kmake(tree, out, t, "olddefconfig", log=log)
    # kmake: with a progress line once a minute
    r = kmake(tree, out, t, goal or os.path.basename(t["image"]), log=log, check=False)
    return r.returncode == 0, log, out / t["image"]


def check_bisect(results, only=None, boot=True, start=None):
    """Build (and boot) the kernels at base and after every patch; with start
    (a patch number, "0018"), the patches before it are applied without being
    built, to resume a run that stopped there."""
    tree = bisect_tree()
    patches = series_patches()
    # the harness's kernels as targets.conf configures them (without the
    # patched-only options, which build_at() asks for after each patch)
    first_target_with("bisect")           # a table with none is an error
    bisect = targets_with("bisect")
    kinds = [(t, t, fragments("vanilla", TARGETS[t])) for t in bisect]
    kinds.append((f"{bisect[0]}-nomultiuser", bisect[0],
                  with_base([ROOT / "kconfig/nomultiuser.config"])))
    for i, p in enumerate([None] + patches):
        if p is not None:
            log = settings().build / "logs/bisect-am.log"
            if not git_am(tree, p, log):
                results.append((f"bisect: {p.name} applies", "fail", f"see {log}"))
                return
        label = p.name[:4] if p else "base"
        last = p is not None and p == patches[-1]
        if start and (p is None or label < start):
            continue
        for name, target, frags in kinds:
            if only and name not in only:
                continue
            if "nomultiuser" in name and not last:
                continue            # MULTIUSER=n: with the whole series
            t0 = time.monotonic()
            ok, log, image = build_at(tree, name, target, frags)
            results.append((f"bisect: {label} builds {name}", "pass" if ok else "fail",
                            "" if ok else f"see {log}"))
            booted = ""
            if ok and "nomultiuser" not in name and boot:
                # and boots, passing the whole suite (KUnit once it is there)
                r = boot_suite("bisect", target, image, f"bisect-{label}-{name}", quiet=True)
                c = count(r)
                fails = [x[0] for x in r if x[1] == "fail"]
                results.append((f"bisect: {label} boots {name}", "fail" if fails else "pass",
                                "; ".join(fails[:3])))
                booted = f", booted: {c['pass']} passed, {c['fail']} failed, {c['skip']} skipped"
            progress(f"bisect: {label} {name}: {'ok' if ok else 'FAILED'}{booted}", t0)


def enabled(tree, out, obj):
    """Does the .config build obj?  Only "obj-$(CONFIG_X) += obj" lines of its
    directory's Makefile are looked at (kernel/uid16.o needs UID16, which
    most architectures lack); anything else is taken as built."""
    d, name = os.path.split(obj)
    mk = tree / d / "Makefile"
    if not mk.exists():
        return True
    config = (out / ".config").read_text()
    for m in re.finditer(r"^obj-\$\((CONFIG_\w+)\)\s*\+=(.*)$", mk.read_text(), re.M):
        if name in m.group(2).split():
            return re.search(rf"^{m.group(1)}=[ym]$", config, re.M) is not None
    return True


# kbuild's word when the checker that C=2 asks for is missing or too old (7.3
# needs a sparse that knows __typeof_unqual__, which Debian 12's 0.6.4 does not)
CHECKER_OFF = re.compile(r"C=\d specified, but \S+ is not available or not up to date")


def objects_warnings(kernel, arch, karch, cross, defconfig, w, strict=False):
    """Compile the touched objects of a tree; return (ok, warning lines), or (None,
    [why]) if kbuild would not run the checker asked for."""
    tree = tree_of(kernel)
    out = settings().build / "out" / f"objects-{kernel}-{arch}"
    log = settings().build / f"logs/objects-{kernel}-{arch}-{w or 'plain'}.log"
    log.unlink(missing_ok=True)
    t = {"karch": karch, "cross": cross}
    if not (out / ".config").exists():
        frags = with_base([ROOT / "kconfig/users.config"])
        have = merge_config(tree, out, t,
                            defconfig or "defconfig", frags, log)
        ignore = ["CONFIG_GROUPS_KUNIT_TEST"] if kernel == "vanilla" else []
        dropped = dropped_options(have, frags, ignore)
        if dropped and strict:
            shutil.rmtree(out)
            raise Failure(f"{arch}: users.config options dropped: {', '.join(dropped)}")
        if dropped:     # e.g. UID16 exists only where the architecture has 16-bit ids
            print(f"  note: {arch}: {'; '.join(dropped)}")
    objs = [o for o in touched_objects(ensure_patched())
            if (tree / o.replace(".o", ".c")).exists() and enabled(tree, out, o)]
    # Rebuild them every time, so that their warnings are seen.
    for o in objs:
        (out / o).unlink(missing_ok=True)
    extra = {"W=1": ["W=1"], "sparse": ["C=2"], "": []}[w]
    r = kmake(tree, out, t, *extra, *objs, log=log, check=False)
    text = log.read_text(errors="replace").splitlines()
    off = [x for x in text if CHECKER_OFF.search(x)]
    if off:
        # kbuild turned the checker off and compiled without it: nothing was checked
        return None, [re.sub(r"^.*?: ", "", off[0])]
    warnings = sorted({re.sub(r"^.*?/(kernel|fs|net|io_uring|security|include|arch)/", r"\1/", x)
                       for x in text if WARN.search(x) and not KCONFIG_WARN.search(x)})
    return r.returncode == 0, warnings


def new_warnings(patched, vanilla):
    """The warnings of @patched that @vanilla does not have, line numbers aside:
    a series that adds lines moves the warnings below them; one more of the
    same warning in a file is new."""
    def unlined(x):
        return re.sub(r":\d+(?::\d+)?:", ":", x, count=1)
    have = Counter(unlined(x) for x in vanilla)
    new = []
    for x in patched:
        if have[unlined(x)]:
            have[unlined(x)] -= 1
        else:
            new.append(x)
    return new


def check_objects(results, archs):
    for arch, karch, cross, defconfig, checks in COMPILE:
        if arch not in archs:
            continue
        if cross and not shutil.which(cross + "gcc"):
            results.append((f"objects: {arch}", "skip", f"no {cross}gcc"))
            continue
        for w in checks or [""]:
            start = time.monotonic()
            ok_p, warn_p = objects_warnings("patched", arch, karch, cross, defconfig, w,
                                            bool(checks))
            ok_v, warn_v = objects_warnings("vanilla", arch, karch, cross, defconfig, w,
                                            bool(checks))
            if ok_p is None or ok_v is None:
                why = (warn_p if ok_p is None else warn_v)[0]
                results.append((f"objects: {arch} {w}", "skip", why))
                progress(f"objects: {arch} {w}: not checked: {why}", start)
                continue
            new = new_warnings(warn_p, warn_v)
            status = "pass" if ok_p and not new else "fail"
            detail = "; ".join(new[:3]) if new else ("" if ok_p else "build failed")
            if not ok_p and not ok_v and not new:
                # e.g. Debian's 6.1 arch/alpha/include/asm/pgtable.h does not compile
                status = "skip"
                detail = "the vanilla tree fails the same way: " + "; ".join(
                    x for x in warn_v if "error:" in x)[:200]
            results.append((f"objects: {arch} {w or 'build'}", status, detail))
            progress(f"objects: {arch} {w or 'build'}: {len(new)} new warning(s), "
                     f"{len(warn_v)} in vanilla", start)


def check_randstruct(results, seeds=RANDSTRUCT_SEEDS, tree=None):
    """struct group_info under GCC's randstruct plugin (RANDSTRUCT_FULL): for
    each seed, the plugin is rebuilt with it and the objects that include
    <linux/cred.h> compile, so its static_assert()s on where the storage lies
    hold for that layout."""
    tree = tree or ensure_patched()
    target = first_target_with("randstruct")
    t = TARGETS[target]
    out = settings().build / "out" / f"randstruct-{tree.name}-{target}"
    log = settings().build / f"logs/randstruct-{tree.name}.log"
    log.unlink(missing_ok=True)
    frags = fragments("patched", t, extra=("randstruct",))
    start = time.monotonic()
    have = merge_config(tree, out, t, "tinyconfig", frags, log)
    dropped = dropped_options(have, frags, ignore=["CONFIG_GROUPS_KUNIT_TEST"])
    if dropped:
        raise Failure("randstruct: the plugin cannot be built ("
                      + "; ".join(dropped) + "): apt-get install gcc-12-plugin-dev")
    kmake(tree, out, t, "prepare", log=log)
    seed_file = out / "scripts/basic/randstruct.seed"
    for seed in seeds:
        # The build drew a seed once; replace it, and the plugin's copy.
        seed_file.write_text(seed + "\n")
        (out / "scripts/gcc-plugins/randomize_layout_seed.h").unlink(missing_ok=True)
        for o in RANDSTRUCT_OBJECTS:
            (out / o).unlink(missing_ok=True)
        before = log.stat().st_size
        r = kmake(tree, out, t, *RANDSTRUCT_OBJECTS, log=log, check=False)
        seed_h = out / "scripts/gcc-plugins/randomize_layout_seed.h"
        used = seed_h.read_text() if seed_h.exists() else ""
        with open(log, errors="replace") as f:
            f.seek(before)
            errors = sorted({re.sub(r"^.*error: ", "", x).strip() for x in f if "error:" in x})
        if seed not in used:
            ok, detail = False, "the plugin was not rebuilt with this seed"
        else:
            ok, detail = r.returncode == 0, "; ".join(errors[:2])
        results.append((f"randstruct: seed {seed[:12]}: {tree.name} group_info layout checks",
                        "pass" if ok else "fail", detail))
        progress(f"randstruct: seed {seed[:12]}: {'ok' if ok else 'FAILED'}")
    progress(f"randstruct: {len(seeds)} seeds (log: {log})", start)


def proposed_maintainers():
    """The vanilla MAINTAINERS with MAINTAINERS.snippet at its alphabetical place: the
    entry the series proposes without adding it (build/results/MAINTAINERS.proposed)."""
    snippet = (ROOT / "MAINTAINERS.snippet").read_text().strip() + "\n\n"
    text = (tree_of("vanilla") / "MAINTAINERS").read_text()
    name = snippet.splitlines()[0]
    heads = [m for m in re.finditer(r"^([A-Z0-9][^\t:\n]*)\n[A-Z]:\t", text, re.M)
             if m.group(1) > "3C"]   # the sorted entries start after the preamble
    at = next((m.start() for m in heads if m.group(1).upper() > name.upper()), len(text))
    out = settings().build / "results/MAINTAINERS.proposed"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text[:at] + snippet + text[at:])
    return out


def check_maintainers(results):
    """MAINTAINERS.snippet, the entry the series proposes (it adds none itself): the
    tree's own scripts/parse-maintainers.pl finds the vanilla MAINTAINERS plus exactly
    the snippet, in order and at its place, and get_maintainer.pl picks it for the
    files it names."""
    snippet = (ROOT / "MAINTAINERS.snippet").read_text().strip().splitlines()
    tree = tree_of("vanilla")
    proposed = proposed_maintainers()
    outs = {}
    for name, path in (("vanilla", tree / "MAINTAINERS"), ("proposed", proposed)):
        outs[name] = settings().build / f"results/MAINTAINERS.{name}.parsed"
        sh(["perl", "scripts/parse-maintainers.pl", f"--input={path}",
            f"--output={outs[name]}"], cwd=tree)
    diff = subprocess.run(["diff", outs["vanilla"], outs["proposed"]], capture_output=True,
                          text=True).stdout.splitlines()
    added = [x[2:] for x in diff if x.startswith("> ")]
    removed = [x for x in diff if x.startswith("< ")]
    ok = not removed and [x for x in added if x.strip()] == snippet
    untouched = "MAINTAINERS" not in subprocess.run(
        ["git", "diff", "--name-only", "base", "HEAD"], cwd=tree_of("patched"),
        capture_output=True, text=True).stdout.split()
    results.append(("MAINTAINERS: the series adds no entry", "pass" if untouched else "fail",
                    "" if untouched else "the series changes MAINTAINERS"))
    results.append(("MAINTAINERS: parse-maintainers.pl adds exactly MAINTAINERS.snippet",
                    "pass" if ok else "fail", "" if ok else "; ".join(diff[:4])))
    files = [x.split("\t", 1)[1].rstrip("/") for x in snippet if x.startswith("F:\t")]
    section = snippet[0]
    missing = []
    for f in files:
        r = subprocess.run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
                            f"--mpath={proposed}", "-f", f], cwd=tree_of("patched"),
                           capture_output=True, text=True).stdout
        if f"maintainer:{section}" not in r:
            missing.append(f)
    results.append((f"MAINTAINERS: get_maintainer.pl -f finds {section} for its F: entries",
                    "fail" if missing else "pass", ", ".join(missing)))
    progress(f"MAINTAINERS: {'ok' if ok and untouched and not missing else 'FAILED'}")


def check_mutants_apply(results):
    """Each of robust/mutants/ made for this base applies to its series: a mutant
    that no longer applies checks nothing."""
    tree = ensure_patched()
    stale = []
    for p in sorted(MUTANTS.glob("*.patch")):
        bases = mutant_bases(p.stem)
        if bases and settings().base not in bases:
            continue
        r = subprocess.run(["git", "apply", "--check", p], cwd=tree, capture_output=True,
                           text=True)
        if r.returncode:
            stale.append(p.stem)
    results.append((f"mutants: each of robust/mutants/ applies to the {settings().base} series",
                    "fail" if stale else "pass", ", ".join(stale)))
    progress(f"mutants: {'ok' if not stale else 'do not apply: ' + ', '.join(stale)}")


def cmd_series_check(args):
    t0 = time.monotonic()
    patches = series_patches()
    if args.start and not any(p.name.startswith(args.start + "-") for p in patches):
        raise Failure(f"series-check: --from {args.start}: no patch of the series starts "
                      f"with that number (0001-{len(patches):04d})")
    results = check_checkpatch()
    check_maintainers(results)
    check_mutants_apply(results)
    check_randstruct(results)
    if not args.skip_bisect:
        check_bisect(results, args.bisect.split(",") if args.bisect else None,
                     boot=not args.no_boot, start=args.start)
    if args.archs != "none":
        check_objects(results, args.archs.split(",") if args.archs else [a[0] for a in COMPILE])
    print(result_lines([r for r in results if r[1] != "pass"]), end="")
    return conclude("series-check", results, t0, need_pass=False)


# The cover letter also goes to the people of the code the design touches
# without a patch to it: cred and user namespaces, the page allocator
# (linux-mm), and randstruct (hardening).
COVER_FILES = ["kernel/cred.c", "kernel/user_namespace.c", "include/linux/cred.h",
               "mm/page_alloc.c", "scripts/gcc-plugins/randomize_layout_plugin.c"]
# The credential core has no MAINTAINERS entry: a patch that changes it goes to
# -mm, which merges it, with the hardening list and the reviewers of credentials
# and user namespaces in Cc.
CORE_FILES = ("kernel/groups.c", "include/linux/cred.h", "kernel/uid16.c", "kernel/cred.c")
CORE_TO = [FALLBACK_TO, "linux-mm@kvack.org"]
CORE_CC = ["Kees Cook <keescook@chromium.org>", "linux-hardening@vger.kernel.org",
           '"Eric W. Biederman" <ebiederm@xmission.com>', "Serge Hallyn <serge@hallyn.com>"]


def cmd_randstruct(args):
    """The layout check alone, on build/patched or another tree under build/."""
    t0, results = time.monotonic(), []
    tree = settings().build / args.tree if args.tree != "patched" else None
    check_randstruct(results, randstruct_seeds(args.seeds), tree)
    return conclude("randstruct", results, t0)


def get_maintainer(tree, patch, role, file=False):
    flag = {"to": ["--nol"], "cc": ["--nom"], "all": []}[role]
    r = subprocess.run(["perl", "scripts/get_maintainer.pl", "--norolestats", "--no-git",
                        "--no-git-fallback", *flag, *(["-f"] if file else []), str(patch)],
                       cwd=tree, capture_output=True, text=True)
    return [x.strip() for x in r.stdout.splitlines() if "@" in x]


def cmd_recipients(args):
    """--to-cmd / --cc-cmd for git send-email: per patch, the union for the cover."""
    tree = ensure_patched()
    patch = args.patch
    patches = [patch]
    if os.path.basename(patch).startswith("0000-"):
        patches = [str(p) for p in series_patches()]
    seen = []
    for p in patches:
        touched = re.findall(r"^\+\+\+ b/(\S+)$", Path(p).read_text(), re.M)
        if set(touched) & set(CORE_FILES):
            # and groups.c and uid16.c, without an entry, go to cred.h's (7.3: CREDENTIALS)
            seen += [a for a in (CORE_TO if args.role == "to" else CORE_CC) +
                     get_maintainer(tree, "include/linux/cred.h", args.role, file=True)
                     if a not in seen and a != PLACEHOLDER]
        for a in get_maintainer(tree, p, args.role):
            # MAINTAINERS.snippet's placeholder is the sender-to-be
            if a not in seen and a != PLACEHOLDER:
                seen.append(a)
    if os.path.basename(patch).startswith("0000-") and args.role == "cc":
        for f in COVER_FILES:
            # the page allocator's list, not its many maintainers
            for a in get_maintainer(tree, f, "cc" if f.startswith("mm/") else "all", file=True):
                if a not in seen:
                    seen.append(a)
    author = re.search(r"^From: (.*)$", Path(patches[-1]).read_text(), re.M).group(1)
    if args.role == "to" and not [a for a in seen if a != author]:
        # kernel/groups.c has had no maintainer: such patches go through -mm
        seen.append(FALLBACK_TO)
    print("\n".join(seen))
    return 0


# Directories of a series (7.3/nfsd/) whose patches go to their maintainers
# on their own, each directory one thread, before the series
ALONE = ("nfsd",)


def cmd_send_email(args):
    tree = ensure_patched()
    author = sender_identity()
    # The mails as they would go out: from the sender, signed off by them
    outgoing = settings().build / "outgoing"
    shutil.rmtree(outgoing, ignore_errors=True)
    threads = [(name, sorted((settings().series / name).glob("0[0-9][0-9][0-9]-*.patch")))
               for name in ALONE]
    threads = [t for t in threads if t[1]] + [("series", [cover_letter()] + series_patches())]
    logs = []
    for name, files in threads:
        logs.append(send_thread(tree, author, outgoing / name, files))
        mails = re.findall(r"^Dry-OK\. Log says:\n(.*?)(?=^Result:|\Z)", logs[-1], re.M | re.S)
        print(f"{name}: {len(mails)} mails, one thread (nothing sent):")
        for m in mails:
            m = re.sub(r"\n[ \t]+", " ", m)        # unfold continued header lines
            subj = re.search(r"^Subject: (.*)$", m, re.M)
            to = re.findall(r"^To: (.*)$", m, re.M)
            cc = re.findall(r"^Cc: (.*)$", m, re.M)
            irt = re.search(r"^In-Reply-To: (.*)$", m, re.M)
            print(f"- {subj.group(1) if subj else '?'}")
            print(f"    To: {', '.join(to)}")
            if cc:
                print(f"    Cc: {', '.join(cc)}")
            print(f"    {'in reply to the cover letter' if irt else 'starts the thread'}")
    (settings().build / "results").mkdir(parents=True, exist_ok=True)
    (settings().build / "results/send-email-dry-run.txt").write_text("".join(logs))
    return 0


def send_thread(tree, author, outgoing, files):
    """git send-email --dry-run of one thread, as author; its output."""
    me = f"python3 {ROOT / 'qemu/harness.py'} recipients"
    outgoing.mkdir(parents=True)
    patches = []
    for p in files:
        text = sign_as(p.read_text(), author)
        if p.name.startswith("0000-"):
            # format-patch wrote whoever exported it, maybe folded
            text = re.sub(r"^From: .*(?:\n[ \t].*)*$", f"From: {author}", text, count=1,
                          flags=re.M)
        (outgoing / p.name).write_text(text)
        patches.append(str(outgoing / p.name))
    unsigned = [os.path.basename(p) for p in patches
                if not os.path.basename(p).startswith("0000-") and
                f"Signed-off-by: {author}" not in Path(p).read_text()]
    if unsigned:
        raise Failure(f"not signed off by {author}: {', '.join(unsigned)}")
    cmd = ["git", "send-email", "--dry-run", "--confirm=never", "--no-validate",
           "--suppress-cc=self", "--thread", "--no-chain-reply-to", f"--from={author}",
           "--smtp-server=/bin/false", f"--to-cmd={me} --role to",
           f"--cc-cmd={me} --role cc", *patches]
    # A fresh machine has no git identity: the mails' sender is the author.
    name, email = re.match(r"^(.*?) <(.*)>$", author).groups()
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True,
                       env=dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME=str(settings().build),
                                GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
                                GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email))
    out = r.stdout + r.stderr
    if r.returncode:
        print(out[-3000:])
        raise Failure("git send-email --dry-run failed")
    return out


def add_commands(sub):
    p = sub.add_parser("series-check", help="checkpatch, bisect builds, W=1/sparse, "
                       "13 architectures (long)")
    p.add_argument("--skip-bisect", action="store_true")
    p.add_argument("--archs", default="")
    p.add_argument("--bisect", default="", help="x86_64,arm64,x86_64-nomultiuser (default all)")
    p.add_argument("--no-boot", action="store_true", help="bisect: build, do not boot")
    p.add_argument("--from", dest="start", default=None, metavar="NNNN",
                   help="bisect: start building at this patch (resume a stopped run)")
    p.set_defaults(fn=cmd_series_check)
    p = sub.add_parser("randstruct", help="struct group_info's layout checks, seed by seed")
    p.add_argument("--tree", default="patched", help="a tree under build/ (default patched)")
    p.add_argument("--seeds", type=int, default=len(RANDSTRUCT_SEEDS))
    p.set_defaults(fn=cmd_randstruct)
    p = sub.add_parser("send-email-dry-run", help="the mails of the series, recipients "
                       "from get_maintainer.pl; nothing is sent")
    p.set_defaults(fn=cmd_send_email)
    p = sub.add_parser("recipients", help="a patch's To or Cc addresses (git send-email's "
                       "--to-cmd and --cc-cmd)")
    p.add_argument("--role", choices=("to", "cc"), default="to")
    p.add_argument("patch")
    p.set_defaults(fn=cmd_recipients)
