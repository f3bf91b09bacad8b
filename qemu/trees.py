# SPDX-License-Identifier: GPL-2.0
"""The kernel trees under the build directory: Debian's source extracted once
(build/vanilla, tag "base"), and worktrees of it with the series applied by
git am (build/patched; build/upto-NNNN for a prefix of the series;
build/mutant-NAME for a series with one of robust/mutants/ on top;
build/alone-NAME for the patches of the series' directory NAME alone, which
go to their maintainers on their own, 7.3/nfsd/ for one).
"""

import os
import re
import shutil
import subprocess
import time

from config import (Failure, GIT_ID, MUTANTS, digest, progress, settings, sh, shown, stamp_ok,
                    write_stamp)


def installed_source_version():
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", settings().source_pkg],
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def series_patches(series=None):
    """The patch files in order; 0001 to N, each number once (a file left
    behind by a renumbering would be applied too)."""
    series = series or settings().series
    patches = sorted(p for p in series.glob("0[0-9][0-9][0-9]-*.patch")
                     if not p.name.startswith("0000-"))
    numbers = [p.name[:4] for p in patches]
    if numbers != ["%04d" % i for i in range(1, len(patches) + 1)]:
        stray = sorted({n for n in numbers if numbers.count(n) > 1}) or numbers
        raise Failure(f"{series}: the patches must be numbered 0001-{len(patches):04d} "
                      f"once each; look at {', '.join(stray[:4])}")
    return patches


def cover_letter():
    return settings().series / "0000-cover-letter.patch"


def tested_base():
    """The Debian version the series was tested on, from the cover letter."""
    cover = cover_letter()
    if cover.exists():
        m = re.search(rf"^base-tree: Debian {re.escape(settings().source_pkg)} (\S+)$",
                      cover.read_text(), re.M)
        if m:
            return m.group(1)
    return None


def ensure_vanilla():
    build, pkg, tarball = settings().build, settings().source_pkg, settings().tarball
    tree = build / "vanilla"
    version = installed_source_version()
    stamp = build / "stamps/vanilla"
    if (tree / ".git").exists() and stamp_ok(stamp, version):
        return tree
    if not tarball.exists():
        raise Failure(f"{tarball} is missing: run 'make deps' (apt-get install {pkg})")
    start = time.monotonic()
    log = build / "logs/tree.log"
    progress(f"tree: extracting {pkg} {version} into {shown(tree)} and committing it "
             f"(about 80s; log: {shown(log)})")
    for d in (build / "vanilla", build / "patched", build / "vanilla.tmp"):
        shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(build / "out", ignore_errors=True)
    tmp = build / "vanilla.tmp"
    tmp.mkdir(parents=True)
    sh(["tar", "-xf", tarball, "-C", tmp, "--strip-components=1"], log)
    # Debian's top-level .gitignore ignores every top-level entry: add -f.
    sh(["git", "init", "-q", "-b", "vanilla"], log, cwd=tmp)
    sh(["git", "add", "-f", "-A", "."], log, cwd=tmp)
    sh(["git", "commit", "-q", "-m", f"Debian {pkg} {version}"], log, cwd=tmp, env=GIT_ID)
    sh(["git", "tag", "base"], log, cwd=tmp)
    tmp.rename(tree)
    write_stamp(stamp, version)
    progress(f"tree: extracted {pkg} {version} into {tree}", start)
    return tree


def kernel_source(upto=None, mutant=None, alone=None):
    """The patches of a patched tree and its mutant patch, or a Failure naming what
    does not exist."""
    if alone:
        patches = series_patches(settings().series / alone)
        if not patches:
            raise Failure(f"the {settings().base} series has no patches in {alone}/")
        return patches, None
    patches = [p for p in series_patches() if not upto or p.name[:4] <= upto]
    if upto and not any(p.name[:4] == upto for p in patches):
        raise Failure(f"the {settings().base} series has no patch {upto}")
    broken = MUTANTS / f"{mutant}.patch" if mutant else None
    if broken and not broken.exists():
        raise Failure(f"no {shown(broken)}; the mutants are "
                      f"{', '.join(p.stem for p in sorted(MUTANTS.glob('*.patch')))}")
    return patches, broken


def git_am(tree, patch, log):
    """Apply one patch of the series on tree's branch with git am -3, with its
    notes; False (and the am aborted) if it does not apply."""
    r = sh(["git", "am", "-3", "-q", patch], log, cwd=tree, env={
        "GIT_COMMITTER_NAME": "harness", "GIT_COMMITTER_EMAIL": "harness@localhost"},
        check=False)
    if r.returncode:
        subprocess.run(["git", "am", "--abort"], cwd=tree, capture_output=True)
        return False
    # git am drops the notes below "---" ("Changes in vN"): keep them, so
    # that make export writes them back
    notes = patch_notes(patch.read_text())
    if notes:
        sh(["git", "notes", "add", "-f", "-m", notes, "HEAD"], log, cwd=tree)
    return True


def applied_digest(patches, broken=None):
    """What a tree's stamp holds once these patches (and a mutant) are applied"""
    return digest(installed_source_version(), *[p.read_bytes() for p in patches],
                  *([broken.read_bytes()] if broken else []))


def mark_exported():
    """build/patched is what the series' files now say: make export wrote them from
    it, so that the next command does not apply them again over its commits."""
    write_stamp(settings().build / "stamps/patched", applied_digest(series_patches()))


def ensure_patched(upto=None, mutant=None, alone=None):
    """build/patched: base + the whole series; build/upto-NNNN: up to patch NNNN;
    build/mutant-NAME: the whole series broken by robust/mutants/NAME.patch;
    build/alone-NAME: base + the patches of the series' directory NAME."""
    patches, broken = kernel_source(upto, mutant, alone)
    vanilla = ensure_vanilla()
    name = f"upto-{upto}" if upto else f"mutant-{mutant}" if mutant else \
        f"alone-{alone}" if alone else "patched"
    branch = "series" if name == "patched" else name
    tree = settings().build / name
    want = applied_digest(patches, broken)
    stamp = settings().build / f"stamps/{name}"
    if (tree / ".git").exists() and stamp_ok(stamp, want):
        return tree
    start = time.monotonic()
    log = settings().build / "logs/tree.log"
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
        print(f"  note: the series was tested on {settings().source_pkg} {tested}; this machine "
              f"has {have}. Applying with git am -3.", flush=True)
    for p in patches:
        if not git_am(tree, p, log):
            raise Failure(f"{p.name} does not apply to {settings().source_pkg} {have} "
                          f"(tested on {tested or 'unknown'}); see {log}")
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
    m = re.fullmatch(r"alone-(\w+)", kernel)
    if m:
        return ensure_patched(alone=m.group(1))
    raise Failure("KERNEL must be patched, vanilla, upto-NNNN, mutant-NAME or alone-NAME, "
                  f"not {kernel!r}")
