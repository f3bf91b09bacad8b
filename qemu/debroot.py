# SPDX-License-Identifier: GPL-2.0
"""A guest root of Debian's own programs: packages for the target's
architecture (apt-get download, then dpkg -x), with the libraries they
depend on.  Dependencies that are not libraries (init scripts, python3,
...) are left out: the checks start the programs by hand.  A dependency
on an exact version ("libzfs4linux (= 2.1.11-1+deb12u1)") is downloaded in
that version, so that a program from a backports suite gets its own
libraries and not the release's older ones.  make check-nfs and make
check-zfs use it.
"""

import os
import re
import shutil
import subprocess

from config import Failure, ROOT, progress, settings, sh, shown


def depends(deb):
    """A .deb's Depends and Pre-Depends (first alternatives): the package
    names, as name=version where the dependency is on an exact version."""
    out = []
    for field in ("Pre-Depends", "Depends"):
        text = subprocess.run(["dpkg-deb", "-f", deb, field], capture_output=True,
                              text=True).stdout
        for item in filter(None, (x.strip() for x in text.split(","))):
            first = item.split("|")[0].strip()
            name = re.split(r"[\s:(]", first)[0]
            m = re.search(r"\(\s*=\s*([^)\s]+)\s*\)", first)
            out.append(f"{name}={m.group(1)}" if m else name)
    return out


def dpkg_arch():
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                          text=True).stdout.strip()


def foreign_arch(arch, log):
    """Let apt download arch's packages (dpkg --add-architecture, apt-get update)."""
    have = subprocess.run(["dpkg", "--print-foreign-architectures"], capture_output=True,
                          text=True).stdout.split()
    if arch == dpkg_arch() or arch in have:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    progress(f"packages: adding the {arch} architecture to dpkg")
    sh([*sudo, "dpkg", "--add-architecture", arch], log)
    sh([*sudo, "apt-get", "update", "-qq"], log)


def field(name, key):
    """A field of the package's candidate version, as apt-cache shows it."""
    text = subprocess.run(["apt-cache", "show", "--no-all-versions", name.split("=")[0]],
                          capture_output=True, text=True).stdout
    m = re.search(rf"^{key}: (.*)$", text, re.M)
    return m.group(1).strip() if m else ""


def arch_all(name):
    """Is the package architecture-independent (apt wants no :arch for it)?"""
    return field(name, "Architecture") == "all"


def library(name):
    """Is it a library package (lib*, or in Debian's libs section, as zlib1g is)?"""
    return name.startswith("lib") or field(name, "Section") == "libs"


def deb_files(debs, want, arch):
    """The .deb files in debs for want (name or name=version), newest last."""
    name, _, version = want.partition("=")
    ver = version.replace(":", "%3a") if version else "*"
    return sorted(debs.glob(f"{name}_{ver}_{arch}.deb")) + \
        sorted(debs.glob(f"{name}_{ver}_all.deb"))


def download(wants, arch, debs, log):
    """apt-get download each of wants (name or name=version) for arch into debs;
    the .deb files, by want."""
    missing = [w for w in wants if not deb_files(debs, w, arch)]
    if missing:
        spec = [w if arch_all(w) else
                f"{w.partition('=')[0]}:{arch}" + (f"={w.partition('=')[2]}" if "=" in w else "")
                for w in missing]
        r = sh(["apt-get", "download", *spec], log, cwd=debs, check=False)
        if r.returncode:
            raise Failure(f"apt-get download of {arch} packages failed (log: {shown(log)})")
    found = {}
    for w in wants:
        hits = deb_files(debs, w, arch)
        if not hits:
            raise Failure(f"apt-get download gave no {w} for {arch}")
        found[w] = hits[-1]
    return found


def guest_root(name, arch, packages):
    """build/<name>/root-<arch> (one for every base): packages (name or
    name=version) and the libraries they depend on, unpacked."""
    top = ROOT / "build" / name
    root, debs = top / f"root-{arch}", top / f"debs-{arch}"
    stamp = root / ".harness-packages"
    if stamp.exists() and stamp.read_text().startswith("# " + " ".join(packages) + "\n"):
        return root
    debs.mkdir(parents=True, exist_ok=True)
    log = settings().build / f"logs/{name}-packages-{arch}.log"
    foreign_arch(arch, log)
    progress(f"{name}: Debian's {', '.join(packages)} and their libraries for {arch} "
             f"(log: {shown(log)})")
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    chosen, queue = {}, list(packages)       # name: the want unpacked for it
    while queue:
        # one version of each package: the exact one where some package asks
        # for it, even after another version was unpacked (it is unpacked over
        # it); two exact versions of one package are an error
        batch = {}
        for w in queue:
            pkg, pinned = w.split("=")[0], "=" in w
            had = batch.get(pkg) or chosen.get(pkg)
            if had and "=" in had and pinned and had != w:
                raise Failure(f"{pkg}: two packages ask for two versions ({had}, {w})")
            if not had or (pinned and "=" not in had):
                batch[pkg] = w
        queue = []
        chosen.update(batch)
        for deb in download(list(batch.values()), arch, debs, log).values():
            queue += [d for d in depends(deb) if library(d)]
            sh(["dpkg-deb", "-x", deb, root], log)
    for junk in ("usr/share/doc", "usr/share/man", "usr/share/locale", "usr/share/info",
                 "usr/share/lintian", "etc/init.d", "lib/systemd", "usr/lib/systemd"):
        shutil.rmtree(root / junk, ignore_errors=True)
    stamp.write_text("# " + " ".join(packages) + "\n" + "\n".join(sorted(chosen.values())) + "\n")
    progress(f"{name}: {len(chosen)} packages in {shown(root)}")
    return root
