# SPDX-License-Identifier: GPL-2.0
"""Kernel builds: the config fragments of kconfig/ for a kernel and target,
merged onto tinyconfig (and the options Kconfig dropped), the one make
command (kmake, with a progress line once a minute), and build_kernel().
"""

import re
import subprocess
import time
from pathlib import Path

from config import (Failure, JOBS, ROOT, TARGETS, digest, progress, settings, sh, shown,
                    stamp_ok, write_stamp)
from parser import KUNIT_OPTION
from trees import tree_of


def kunit_expected(kernel, target, image):
    """Must this kernel's console carry the KUNIT_SUITE suite?  Its .config (in the out
    directory of image) says; the bisect kernels before the suite's patch have none."""
    image, rel = str(image), TARGETS[target]["image"]
    config = Path(image[:-len(rel)]) / ".config"
    if not image.endswith("/" + rel) or not config.exists():
        return kernel == "patched"
    return parse_fragment(config).get(KUNIT_OPTION) == "y"


BUILD_STEP = re.compile(r"^  (CC|AS|LD|AR|OBJCOPY|HOSTCC|CPP|GEN|UPD)\b.*$", re.M)


def build_progress(steps_before):
    """A line saying how far a kernel build is: the steps (CC, LD, ...) it
    has printed, against the last complete build's count when there was one
    and this build has not gone past it (a full build after a small one)."""
    def line(seconds, text):
        done = len(BUILD_STEP.findall(text))
        of = f" of about {steps_before}" if steps_before and done <= steps_before else ""
        return f"  kernel: {seconds / 60:.0f} min, build steps: {done}{of}"
    return line


def kmake(tree, out, t, *args, log, check=True):
    cmd = ["make", "-C", tree, f"O={out}", f"ARCH={t['karch']}", f"-j{JOBS}"]
    if t["cross"]:
        cmd.append(f"CROSS_COMPILE={t['cross']}")
    # the step count of the last complete run of these targets, for the progress line
    count = Path(out) / f".harness-steps-{digest(*args)[:12]}"
    before = int(count.read_text()) if count.exists() else 0
    offset = log.stat().st_size if log.exists() else 0
    r = sh(cmd + list(args), log, check=check, progress=build_progress(before))
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
        own = f.parent / settings().base / f.name
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
                        settings().build / f"logs/build-{out.name}.log")
    dropped = dropped_options(have, frags)
    if dropped:
        raise Failure("Kconfig dropped options that a fragment asks for:\n  " + "\n  ".join(dropped))
    write_stamp(stamp, want)


def build_kernel(kernel, target, extra=()):
    t = TARGETS[target]
    tree = tree_of(kernel)
    name = "-".join([kernel, target, *extra])
    out = settings().build / "out" / name
    start = time.monotonic()
    log = settings().build / f"logs/build-{name}.log"
    progress(f"kernel: building {name} (log: {shown(log)})")
    log.unlink(missing_ok=True)
    ensure_config(kernel, t, tree, out, extra)
    # bench and zfs kernels load modules: build them, and Module.symvers for
    # the modules built outside the tree
    goals = [Path(t["image"]).name] + (["modules"] if {"bench", "zfs"} & set(extra) else [])
    kmake(tree, out, t, *goals, log=log)
    progress(f"kernel: {name} built ({out / t['image']})", start)
    return out / t["image"]
