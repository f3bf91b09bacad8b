# SPDX-License-Identifier: GPL-2.0
"""What runs in a guest: the static guest programs of every ABI, the
initramfs with /init and its plan, and boot(): QEMU (TCG) with a timeout,
its console streamed and parsed; boot_suite() boots the whole suite.
"""

import os
import platform
import re
import selectors
import shlex
import subprocess
import time
from pathlib import Path

from config import ABIS, MARK, MARKER, ROOT, TARGETS, progress, results_of, settings, sh, shown
from kbuild import build_kernel, kunit_expected
from parser import Console, analyse, kernel_problem, read
from results import write_summary
from trees import ensure_vanilla


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
    # rebuilt when it, a header beside it or one it includes by a path ("../robust/guest.h") changes
    included = [Path(src).parent / h for h in
                re.findall(r'^\s*#\s*include\s+"([^"]+)"', Path(src).read_text(), re.M)]
    srcs = [src] + sorted(Path(src).parent.glob("*.h")) + [h for h in included if h.exists()]
    if out.exists() and all(out.stat().st_mtime >= s.stat().st_mtime for s in srcs):
        return out
    cmd = [a["cc"], "-static", "-O2", "-Wall", "-D_GNU_SOURCE", *extra_flags, "-o", out, src,
           *libs, *a["cflags"]]
    sh(cmd, settings().build / f"logs/userspace-{abi}.log")
    return out


def build_userspace(target, with_demo=False):
    """The static selftests (or the demo) for every ABI of the target."""
    t = TARGETS[target]
    tree = ensure_vanilla()
    start = time.monotonic()
    progress(f"userspace: building the {', '.join(t['abis'])} programs "
             f"(logs: {shown(settings().build / 'logs')}/userspace-<abi>.log)")
    kself = tree / "tools/testing/selftests/kselftest"   # so "../kselftest_harness.h" resolves
    built = {}
    for abi in t["abis"]:
        bindir = settings().build / "bin" / abi
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
    exe = settings().build / "bin/host/gen_init_cpio"
    src = ensure_vanilla() / "usr/gen_init_cpio.c"
    if not exe.exists():
        exe.parent.mkdir(parents=True, exist_ok=True)
        sh(["gcc", "-O2", "-o", exe, src])
    return exe


def make_initramfs(path, target, files, plan, overlay=None):
    """The target's /init (qemu/init.c for its first ABI), files ({guest path: host
    path}) and plan (a list of argv lists: label, timeout, prog, args)."""
    abi = TARGETS[target]["abis"][0]
    init = compile_c(abi, ROOT / "qemu/init.c", settings().build / "bin" / abi / "init")
    files = dict(files, **{"/init": init})
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


def qemu_command(target, image, initrd, append, smp=1, icount=False):
    """The QEMU command line of a boot.  smp > 1: that many vCPUs, on as many
    host threads (multi-threaded TCG).  icount: QEMU's virtual clock, and the
    guest's clocks with it, advances by the instructions the guest executes,
    so that what it times does not depend on the host's load (-icount
    shift=0: 1 ns an instruction, one host thread; an x86 guest that takes
    its TSC for the host's rate reads time scaled by that rate)."""
    t = TARGETS[target]
    # One CPU a socket: SeaBIOS's MP table, all that an x86 kernel without
    # ACPI has to find CPUs by, lists one CPU of each package only.
    return [t["qemu"], "-M", t["machine"], "-cpu", t["cpu"], "-m", "2048",
            "-smp", f"{smp},sockets={smp},cores=1,threads=1",
            *(["-accel", "tcg,thread=multi"] if smp > 1 and not icount else []),
            *(["-icount", "shift=0,sleep=off"] if icount else []),
            "-nographic", "-monitor", "none", "-serial", "stdio", "-no-reboot",
            "-kernel", str(image), "-initrd", str(initrd), "-append", append]


def boot(kernel, target, job, image, initrd, timeout, loglevel=None, echo=None, smp=1,
         icount=False, append=""):
    """Boot, keep console.log, return (console, outcome, seconds) where console is
    the Console that read it (its lines) and outcome 'ok' or why not.  echo(line,
    what of it a program printed) sees each line as it comes.  append: more
    kernel parameters; smp and icount: see qemu_command()."""
    t = TARGETS[target]
    resdir = settings().build / "results" / job
    resdir.mkdir(parents=True, exist_ok=True)
    cmdline = boot_args(t)
    if loglevel is not None:
        cmdline += f" loglevel={loglevel}"
    if append:
        cmdline += f" {append}"
    cmd = qemu_command(target, image, initrd, cmdline, smp, icount)
    (resdir / "qemu.cmd").write_text(" ".join(shlex.quote(c) for c in cmd) + "\n")
    log = resdir / "console.log"
    console, outcome = Console(), "ok"
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
                printed = console.feed(line)
                if echo:
                    echo(line, printed)
        if buf:
            console.feed(buf.decode(errors="replace").rstrip("\r"))
    proc.wait()
    proc.stdout.close()
    return console, console.outcome(outcome), time.monotonic() - start


def test_plan(target, built):
    plan = []
    files = {}
    for abi in TARGETS[target]["abis"]:
        for prog, host in built[abi].items():
            if prog == "demo":
                continue
            files[f"/tests/{abi}/{prog}"] = host
            plan.append([f"{abi}/{prog}", settings().test_timeout, f"/tests/{abi}/{prog}"])
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


def boot_plan(kernel, target, image, job, files, plan, timeout, built=None, smp=1,
              overlay=None):
    """Boot with /init, files, plan and overlay (a directory the guest's root gets
    whole); return the console, outcome, time and results.  built:
    build_userspace(target), if the caller has it already."""
    if built is None:
        build_userspace(target)
    initrd = make_initramfs(settings().build / "results" / job / "initramfs.cpio", target, files,
                            plan, overlay)
    progress(f"boot: {job}: booting {kernel} {target} "
             f"(console: {results_of(job)}/console.log)")
    lines, outcome, elapsed = boot(kernel, target, job, image, initrd, timeout, smp=smp,
                                   echo=stream)
    return lines, outcome, elapsed, analyse(lines, outcome, job,
                                            kunit_expected(kernel, target, image))


def stream(line, printed=()):
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
        problems = read(lines).problems
        print("    --- " + ("kernel problems" if problems else "console tail") + " ---")
        print("\n".join("    " + x for x in (problems or lines)[-25:]))
    return c
