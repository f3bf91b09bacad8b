# SPDX-License-Identifier: GPL-2.0
"""Sending the series as a real person: the sender's identity (never the
repository's placeholder), sign-offs and the cover letter's shortlog
rewritten for them, and make export (build/patched back to patch files).
"""

import re
import subprocess
from pathlib import Path

from config import Failure, PLACEHOLDER, RESERVED_DOMAIN, ROOT, settings, sh
from trees import cover_letter, installed_source_version, mark_exported, series_patches


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
    tree = Path(args.tree or settings().build / "patched").resolve()
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
    for p in settings().series.glob("0[0-9][0-9][0-9]-*.patch"):
        p.unlink()
    tested = installed_source_version()
    sh(["git", "format-patch", "-q", "--cover-letter", "--zero-commit", "--base=base", "--notes",
        f"--subject-prefix={args.prefix}", "-o", settings().series, "base..HEAD"], cwd=tree)
    text = cover.read_text().replace("*** SUBJECT HERE ***", subject)
    text = text.replace("*** BLURB HERE ***", blurb)
    text = re.sub(r"^base-commit: .*$",
                  lambda m: m.group(0) + f"\nbase-tree: Debian {settings().source_pkg} {tested}",
                  text, flags=re.M)
    cover.write_text(text)
    if ident:
        for p in [cover] + series_patches():
            p.write_text(sign_as(p.read_text(), ident))
    elif tree == (settings().build / "patched").resolve():
        mark_exported()
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
