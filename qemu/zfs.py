# SPDX-License-Identifier: GPL-2.0
"""make check-zfs: OpenZFS on the kernel, as the file servers this series is
for run it.  OpenZFS's modules are built from Debian's zfs-dkms source of
the base's release (RELEASES) against the harness's kernel build: as
Debian ships it ("debian"), or with openzfs/'s patches 0002 and 0003
("patched").  The guest's root holds Debian's zfsutils-linux of the same
version (debroot.guest_root()); robust/zfs_guest.sh loads the modules,
creates a pool on a file in /tmp, lays out the directories, files and
datasets of layout() and runs robust/access_client.c over table(): users
in 16, 1,023, 2,000 and 10,000 groups, through their first and last
group, the ends of their list's first block of 1,024 gids, and gids
outside it below and above, do

  - what OpenZFS's own group code decides: chmod g+s of their own file of
    a group (zfs_setattr() keeps the set-group-ID bit only for a member,
    by groupmember()), `zfs get groupused@GID`, which a member may read
    (zfs_ioctl.c, groupmember()), and zfs snapshot and zfs create with
    rights that zfs allow delegated to a group (dsl_deleg.c's loop over
    the groups);
  - what the kernel decides before OpenZFS: create, unlink and rename in a
    directory writable through a group, chgrp, reads by mode bits and by a
    POSIX ACL entry.  OpenZFS calls groupmember() in some of these too, but
    on Linux its verdict yields to the kernel's (secpolicy_vnode_access2()
    and secpolicy_vnode_setattr() allow everything); these rows show that
    nothing changes for them.

A user in gids 1300 and 0x90000000 shows OpenZFS's own search today:
cr_groups_search() compares with `cmp = a - b`, so 1300 is not found in
{1300, 0x90000000}; 0002 fixes it.  Its rows that OpenZFS decides expect
what the build's flavour answers.

Each boot passes when every row gives its expected answer; with more than
one boot, the answers are compared row for row, and a difference fails the
check except in a row whose expected answer differs between the flavours
booted.  NFSv4 ACLs are not tested: OpenZFS has none on Linux in these
releases.
"""

import re
import shutil
import subprocess
import time

from config import (ABIS, Failure, JOBS, ROOT, TARGETS, digest, progress, settings, sh, shown,
                    stamp_ok, target_command, write_stamp)
from debroot import download, guest_root
from guest import boot_plan, compile_c, report_boot
from kbuild import build_kernel
from nfs import spec
from results import conclude
from trees import tree_of

# Debian's zfs-dkms and zfsutils-linux for each base (the newest in a suite
# of the base's Debian release), and what its configure needs: 7.3 is beyond
# the Linux-Maximum (7.2) that 2.4.4 declares, which it builds against only
# with --enable-linux-experimental
RELEASES = {"6.1": ("2.1.11-1+deb12u1", []), "6.12": ("2.3.2-2~bpo12+2", []),
            "7.3": ("2.4.4-1~bpo13+1", ["--enable-linux-experimental"])}
OUTSIDE = 9999                  # a group nobody is in
BIG = 0x90000000                # 2^31 and more above 1300
# name, uid (also its primary gid, in no list), supplementary groups
USERS = (
    ("u16", 1016, list(range(1100, 1116))),
    ("u1023", 1023, list(range(20000, 21023))),
    ("u2000", 2000, list(range(30000, 32000))),
    ("u10000", 10000, list(range(40000, 50000))),
)
SIGNED = ("ubig", 1301, [1300, BIG])
# A broken OpenZFS for the check to catch: groupmember() that looks only at
# the list's first block (its first page on a long list)
MUTANTS = {
    "first-block": ("module/os/linux/spl/spl-cred.c",
                    "(gids = group_info_block(group_info, b, &len)) != NULL;",
                    "b == 0 && (gids = group_info_block(group_info, b, &len)) != NULL;"),
}
MODULE_PARAMS = {"zfs": "zfs_arc_max=67108864"}


def ways(gids):
    """(way, gid) of a user's rows: its first and last gid, both ends of the
    first block of a list in pages (1,024 gids a 4K page), gids outside it
    below and above."""
    s = sorted(gids)
    ends = [("block-end", s[1023]), ("block-start", s[1024])] if len(s) > 1024 else []
    return [("first", s[0]), ("last", s[-1])] + ends + \
        [("outside", OUTSIDE), ("above", s[-1] + 1)]


def layout():
    """Lines of /harness/zfs/layout, made in order by zfs_guest.sh:
    dir|file PATH UID GID MODE; acl PATH GID; dataset NAME GID RIGHTS."""
    rows = []
    for name, uid, gids in USERS + (SIGNED,):
        top = f"/tank/{name}"
        rows += [f"dir {top} 0 0 0755", f"file {top}/mine {uid} {uid} 0644"]
        for way, g in ways(gids):
            d = f"{top}/{way}"
            rows += [f"dir {d} 0 {g} 0070", f"file {d}/gone 0 {g} 0644",
                     f"file {d}/moved 0 {g} 0644", f"file {top}/read-{way} 0 {g} 0040",
                     f"file {top}/acl-{way} 0 0 0000", f"acl {top}/acl-{way} {g}",
                     f"file {top}/sgid-{way} {uid} {g} 0644",
                     f"dataset tank/{name}-{way} {g} snapshot,create,mount"]
    return "\n".join(rows) + "\n"


# What a row does, and what it answers for a gid the user is not in; the
# rows OpenZFS decides come first
CASES = (("setgid", "setgid", "{top}/sgid-{way}", "dropped"),
         ("zfs-groupused", "run", "zfs,get,-H,-o,value,groupused@{g},tank", "no-value"),
         ("zfs-snapshot", "run", "zfs,snapshot,{ds}@{name}", "refused"),
         ("zfs-create", "run", "zfs,create,-u,{ds}/child", "refused"),
         ("create", "create", "{top}/{way}/new", "EACCES"),
         ("unlink", "unlink", "{top}/{way}/gone", "EACCES"),
         ("rename", "rename", "{top}/{way}/moved,{top}/{way}/moved2", "EACCES"),
         ("chgrp", "chgrp", "{top}/mine,{g}", "EPERM"),
         ("read-mode", "read", "{top}/read-{way}", "EACCES"),
         ("read-acl", "read", "{top}/acl-{way}", "EACCES"))
# The rows where OpenZFS's groupmember() gives the answer
SEARCHED = ("setgid", "zfs-groupused")


def expected(flavour, name, gids, g, what, refused):
    """A row's answer: a member's, or refused's; Debian's OpenZFS misses
    1300 beside 0x90000000 where its own search decides."""
    if g not in gids:
        return refused
    if flavour == "debian" and name == SIGNED[0] and g < 2**31 and what in SEARCHED:
        return refused
    return "kept" if what == "setgid" else "ok"


def table(flavour):
    """access_client's rows: label op args uid gid gids expect."""
    rows = []
    for name, uid, gids in USERS + (SIGNED,):
        who, top = f"{uid} {uid} {spec(gids)}", f"/tank/{name}"
        for way, g in ways(gids):
            ds = f"tank/{name}-{way}"
            for what, op, args, refused in CASES:
                args = args.format(top=top, way=way, g=g, ds=ds, name=name)
                rows.append(f"{name}-{way}-{what} {op} {args} {who} "
                            f"{expected(flavour, name, gids, g, what, refused)}")
    return "\n".join(rows) + "\n"


def etc_files():
    """/etc/passwd and /etc/group of the guest: the users, and a name for every
    group the layout uses (zfs allow -g takes names)."""
    passwd = ["root:x:0:0:root:/root:/bin/sh"]
    groups = {0: "root", OUTSIDE: "outside"}
    for name, uid, gids in USERS + (SIGNED,):
        passwd.append(f"{name}:x:{uid}:{uid}::/:/bin/sh")
        groups[uid] = name
        groups.update({g: f"g{g}" for _, g in ways(gids) if g not in groups})
    return ("\n".join(passwd) + "\n",
            "".join(f"{n}:x:{g}:\n" for g, n in sorted(groups.items())))


def zfs_source(version, flavour, mutant=None):
    """build/zfs/src-<version>-<flavour>[-<mutant>]: Debian's zfs-dkms source, and
    for the patched flavour openzfs/'s Linux patches applied and configure
    regenerated.  The same for every base."""
    top = ROOT / "build" / "zfs"
    name = f"src-{version}-{flavour}" + (f"-{mutant}" if mutant else "")
    src = top / name
    pdir = ROOT / "openzfs" / ("zfs-2.1" if version.startswith("2.1.") else "zfs-2.3-2.4")
    patches = sorted(pdir.glob("000[23]-*.patch")) if flavour == "patched" else []
    want = digest(version, flavour, mutant, *[p.read_bytes() for p in patches],
                  MUTANTS.get(mutant))
    stamp = top / f"stamps/{name}"
    if src.is_dir() and stamp_ok(stamp, want):
        return src
    log = settings().build / f"logs/zfs-{name}.log"
    progress(f"zfs: Debian's zfs-dkms {version}, {flavour}"
             f"{' with mutant ' + mutant if mutant else ''} (log: {shown(log)})")
    debs = top / "debs-all"
    debs.mkdir(parents=True, exist_ok=True)
    deb = download([f"zfs-dkms={version}"], "all", debs, log)[f"zfs-dkms={version}"]
    unpacked = top / f"unpacked-{version}"
    shutil.rmtree(unpacked, ignore_errors=True)
    sh(["dpkg-deb", "-x", deb, unpacked], log)
    shutil.rmtree(src, ignore_errors=True)
    shutil.move(next((unpacked / "usr/src").glob("zfs-*")), src)
    shutil.rmtree(unpacked)
    for p in patches:
        sh(["patch", "-p1", "-i", p], log, cwd=src)
    if mutant:
        path, old, new = MUTANTS[mutant]
        text = (src / path).read_text()
        if text.count(old) != 1:
            raise Failure(f"zfs: mutant {mutant}: its line is not once in {path}")
        (src / path).write_text(text.replace(old, new))
    if patches:
        sh(["./autogen.sh"], log, cwd=src)
    write_stamp(stamp, want)
    return src


def zfs_modules(kernel, target, release, flavour, mutant=None):
    """OpenZFS's modules built against the kernel's build; {name: .ko}."""
    version, configure_args = release
    t = TARGETS[target]
    # a cross build as Debian's dkms.conf makes it: --host, and kbuild's ARCH
    # and CROSS_COMPILE for configure's test modules and the modules
    env = {"ARCH": t["karch"], "CROSS_COMPILE": t["cross"]} if t["cross"] else {}
    cross = [f"--host={t['cross'].rstrip('-')}"] if t["cross"] else []
    image = build_kernel(kernel, target, extra=("zfs",))
    out = image.parents[len(t["image"].split("/")) - 1]
    tree = tree_of(kernel)
    src = zfs_source(version, flavour, mutant)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True,
                          text=True).stdout.strip()
    name = f"{out.name}-{src.name[4:]}"
    build = settings().build / "zfs" / name
    want = digest(head, (out / ".config").read_bytes(), (out / "Module.symvers").read_bytes(),
                  (ROOT / "build/zfs/stamps" / src.name).read_text(), *cross, *configure_args)
    stamp = settings().build / f"zfs/stamps/{name}"
    log = settings().build / f"logs/zfs-{name}.log"
    if not (build.is_dir() and stamp_ok(stamp, want)):
        start = time.monotonic()
        progress(f"zfs: building OpenZFS {version} ({src.name[4:]}) for {out.name} "
                 f"(log: {shown(log)})")
        log.unlink(missing_ok=True)
        shutil.rmtree(build, ignore_errors=True)
        shutil.copytree(src, build, symlinks=True)
        r = sh(["./configure", "--with-config=kernel", f"--with-linux={tree}",
                f"--with-linux-obj={out}", *cross, *configure_args], log, cwd=build,
               env=env, check=False)
        if r.returncode:
            raise Failure(f"zfs: OpenZFS {src.name[4:]} does not configure for {out.name} "
                          f"(log: {shown(log)})")
        r = sh(["make", "-C", "module", f"-j{JOBS}"], log, cwd=build, env=env, check=False,
               progress=lambda s, text: f"  zfs: {s / 60:.0f} min", every=120)
        if r.returncode:
            raise Failure(f"zfs: OpenZFS {src.name[4:]} does not build for {out.name} "
                          f"(log: {shown(log)})")
        write_stamp(stamp, want)
        progress(f"zfs: built for {out.name}", start)
    return image, {p.stem: p for p in sorted((build / "module").rglob("*.ko"))}


def load_order(modules):
    """The modules' names, each after those it depends on (the "depends=" of
    its .modinfo section, as modinfo -F depends reads it)."""
    deps = {}
    for name, ko in modules.items():
        m = re.search(rb"(?:^|\0)depends=([^\0]*)\0", ko.read_bytes())
        deps[name] = [d for d in (m.group(1).decode() if m else "").split(",") if d in modules]
    order = []

    def visit(n, path=()):
        if n in path:
            raise Failure(f"zfs: the modules depend on each other in a circle: {path}")
        for d in deps[n]:
            visit(d, path + (n,))
        if n not in order:
            order.append(n)

    for n in sorted(deps):
        visit(n)
    return order


def answers(lines):
    """{label: answer} from access_client's "# answer LABEL ANSWER" lines."""
    got = {}
    for line in lines:
        m = re.search(r"# answer (\S+) (\S+)$", line)
        if m:
            got[m.group(1)] = m.group(2)
    return got


def boot_zfs(kernel, target, flavour, mutant):
    version = RELEASES[settings().base][0]
    image, modules = zfs_modules(kernel, target, RELEASES[settings().base], flavour, mutant)
    abi = TARGETS[target]["abis"][0]
    bindir = settings().build / "bin" / abi
    work = settings().build / "zfs" / "etc"
    work.mkdir(parents=True, exist_ok=True)
    passwd, group = etc_files()
    order = load_order(modules)
    texts = {"passwd": passwd, "group": group, "layout": layout(), "table": table(flavour),
             "modules": "".join(f"{m} {MODULE_PARAMS.get(m, '')}\n" for m in order)}
    for name, text in texts.items():
        (work / name).write_text(text)
    files = {"/etc/passwd": work / "passwd", "/etc/group": work / "group",
             "/harness/zfs/layout": work / "layout", "/harness/zfs/table": work / "table",
             "/harness/zfs/modules": work / "modules",
             "/harness/zfs/guest.sh": ROOT / "robust/zfs_guest.sh",
             "/usr/local/bin/access_client":
             compile_c(abi, ROOT / "robust/access_client.c", bindir / "access_client"),
             **{f"/lib/modules/zfs/{m}.ko": ko for m, ko in modules.items()}}
    plan = [["zfs", 1200, "/bin/busybox", "sh", "/harness/zfs/guest.sh"]]
    root = guest_root(f"zfs-{version}", ABIS[abi]["debian"],
                      [f"zfsutils-linux={version}", "mount", "acl", "busybox-static"])
    job = f"zfs-{kernel}-{target}-{flavour}" + (f"-{mutant}" if mutant else "")
    lines, outcome, elapsed, results = boot_plan(kernel, target, image, job, files, plan,
                                                 1500, built={}, overlay=root)
    report_boot(job, results, lines, outcome, elapsed)
    return job, results, answers(lines)


def expectations(flavour):
    return {r.split()[0]: r.split()[-1] for r in table(flavour).splitlines()}


def compare(boots, flavours):
    """Results that fail where two boots answered a row differently, except in
    a row whose expected answer differs between the flavours booted."""
    out = []
    exp = {f: expectations(f) for f in set(flavours)}
    free = {label for label in exp[flavours[0]]
            if len({e.get(label) for e in exp.values()}) > 1}
    (first, a), *rest = boots.items()
    for job, b in rest:
        for label in sorted(set(a) | set(b)):
            if a.get(label) != b.get(label) and label not in free:
                out.append((f"zfs/same-answer/{label}", "fail",
                            f"{first}: {a.get(label)}, {job}: {b.get(label)}"))
    if rest and not out:
        out.append(("zfs/same-answers", "pass", f"{len(a)} rows, {len(boots)} boots"
                    + (f", {len(free)} left out (flavours)" if free else "")))
    return out


def cmd_check(args):
    t0 = time.monotonic()
    if settings().base not in RELEASES:
        raise Failure(f"check-zfs: no OpenZFS release is named for base {settings().base}")
    flavours = [args.zfs or ("debian" if k == "vanilla" else "patched") for k in args.kernels]
    if args.mutant and "patched" not in flavours:
        raise Failure("check-zfs: a mutant breaks the patched OpenZFS, and no boot has it")
    results, boots = [], {}
    for kernel, flavour in zip(args.kernels, flavours):
        job, res, got = boot_zfs(kernel, args.target, flavour,
                                 args.mutant if flavour == "patched" else None)
        results += res
        boots[job] = got
    results += compare(boots, flavours)
    return conclude("check-zfs", results, t0)


def add_commands(sub):
    p = target_command(sub, "check-zfs", "OpenZFS from Debian's zfs-dkms and zfsutils-linux "
                       "on the kernel: group rights on a pool, vanilla and patched alike",
                       __doc__, cmd_check)
    p.add_argument("--zfs", choices=("debian", "patched"),
                   help="OpenZFS as Debian ships it or with openzfs/'s patches (default: "
                   "Debian's for vanilla, patched for the patched kernel)")
    p.add_argument("--mutant", choices=sorted(MUTANTS),
                   help="break the patched OpenZFS on purpose: the check must fail")
    p.add_argument("kernels", nargs="*", default=["vanilla", "patched"])
