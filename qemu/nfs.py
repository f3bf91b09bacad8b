# SPDX-License-Identifier: GPL-2.0
"""make check-nfs and make bench-nfs: the kernel's NFS server and client in
one guest, over the loopback address, with Debian's own daemons.

The guest's root holds Debian's nfs-kernel-server, nfs-common, rpcbind,
netbase and busybox-static for the target's architecture, with the
libraries they depend on (debroot.guest_root()).  robust/nfs_guest.sh
starts them: /srv, a tmpfs, exported with root_squash to 127.0.0.1,
rpc.mountd --manage-gids, then NFSv3 and NFSv4.2 mounts of it.

check: robust/access_client.c reads files of the export as the users below,
each with its whole group list: granted through a group beyond the 16
that AUTH_SYS carries (rpc.mountd supplies the rest), denied outside the
list, and root squashed (gid 0 taken from its list, not its other groups).
It also writes into set-group-ID files (mode 02666): the write keeps the bit
only for a member of the file's group, so the bit tells whether nfsd's
list held that group, gid 0 squashed or not.  Where the base has LOCALIO
(6.12 on), kconfig/<base>/nfs.config turns it on and these writes must
bypass the RPCs ("localwrite"): nfsd then takes the client process's own
list, and the process must find it unchanged afterwards.
Before it, robust/unix_gid_nl.c writes users' lists of up to 8,188 gids
through the auth.unix.gid cache's netlink writer (7.x; it skips on kernels
without one) and reads them back from the cache.

bench: vanilla, the series without the nfsd patch and the whole series,
booted in turn, ROUNDS times: RPCs per second of a stat()+access() loop as
users of 16, 1,000 and 6,000 groups, and per RPC the group lists that nfsd
builds (a kprobe on groups_alloc(), with nfsd_setuser() in its stack), slab
allocations and bytes, and page allocations by order (the kmem tracepoints),
and in memory that groups_frag --hold keeps fragmented (as make bench-frag),
RPCs per second and compaction stalls.

Why 6,000 and not 8,192: rpc.mountd hands a user's groups to the kernel in
one write to /proc/net/rpc/auth.unix.gid/channel, which the kernel takes
only below 32,768 bytes (cache_downcall()); with 4-digit gids that is
about 6,500 gids, whatever the kernel's NGROUPS_MAX.
"""

import json
import re
import statistics

from benchlib import bench_dir, parse, run_rounds
from config import (ABIS, Failure, ROOT, TARGETS, progress, results_of, settings, shown,
                    target_command)
from debroot import guest_root
from guest import boot_plan, compile_c, report_boot
from kbuild import build_kernel
from trees import ensure_vanilla, series_patches

DAEMONS = ("nfs-kernel-server", "nfs-common", "rpcbind", "netbase", "busybox-static")
NFSD_PATCH = re.compile(r"^Subject: \[[^]]*\] NFSD: .*root_squash", re.M)
OUTSIDE = 9999          # a group nobody is in
MOUNTS = ("v3", "v4")
# name, uid, its groups (the first is its primary group)
USERS = (
    ("root", 0, [0, 900]),
    ("wheel", 1001, [1200, 0] + list(range(1201, 3201))),   # a long list holding gid 0
    ("u16", 1016, list(range(1100, 1116))),
    ("u1000", 2000, list(range(2000, 3000))),
    ("u6000", 3000, list(range(3000, 9000))),
)
BENCH_USERS = ("u16", "u1000", "u6000")


def spec(gids):
    """[3000, 3001, ..., 8999] as "3000-8999"; [0, 900] as "0,900"."""
    out, start = [], None
    s = sorted(gids)
    for i, g in enumerate(s):
        if start is None:
            start = g
        if i + 1 == len(s) or s[i + 1] != g + 1:
            out.append(str(start) if start == g else f"{start}-{g}")
            start = None
    return ",".join(out)


def etc_files():
    """/etc/passwd and /etc/group of the guest."""
    passwd = ["root:x:0:0:root:/root:/bin/sh", "_rpc:x:100:65534::/run/rpcbind:/bin/false",
              "nobody:x:65534:65534:nobody:/nonexistent:/bin/false"]
    members = {OUTSIDE: [], 65534: []}
    for name, uid, gids in USERS:
        if uid:
            passwd.append(f"{name}:x:{uid}:{gids[0]}::/:/bin/sh")
        for g in gids:
            members.setdefault(g, []).append(name)
    group = [f"{'root' if g == 0 else 'nogroup' if g == 65534 else f'g{g}'}:x:{g}:"
             f"{','.join(m)}" for g, m in sorted(members.items())]
    return "\n".join(passwd) + "\n", "\n".join(group) + "\n"


def sgid_files(name, gids):
    """A user's set-group-ID files (file name, its group): one written by a
    member, one by a non-member, gid 0 counting as a non-member (squashed)."""
    if 0 in gids:
        return [("sgid-gid0", 0), ("sgid-last", max(gids))]
    return [("sgid-last", max(gids)), ("sgid-outside", OUTSIDE)]


def served_files():
    """Lines of /harness/nfs/files: path uid gid mode, under /srv."""
    rows = []
    for name, uid, gids in USERS:
        rows.append(f"{name}/ 0 0 0755")
        if name == "root":
            rows += ["root/gid0 0 0 0040", "root/owner 0 0 0400", "root/group900 0 900 0040"]
        elif name == "wheel":
            rows += ["wheel/gid0 0 0 0040", "wheel/own 0 1201 0040"]
        else:
            rows += [f"{name}/first 0 {min(gids)} 0040", f"{name}/last 0 {max(gids)} 0040",
                     f"{name}/outside 0 {OUTSIDE} 0040"]
        # a file a write changes, so one per mount
        rows += [f"{name}/{file}-{mnt} 0 {gid} 2666"
                 for mnt in MOUNTS for file, gid in sgid_files(name, gids)]
    return "\n".join(rows) + "\n"


def check_table(localio=False):
    """access_client's rows: label op args uid gid gids expect, on both mounts.
    localio: the writes must go through LOCALIO."""
    rows = []
    for mnt in MOUNTS:
        for name, uid, gids in USERS:
            who = f"/mnt/{mnt}/{name}"
            if name == "root":
                cases = [("root-squashed-from-gid-0", "gid0", "EACCES"),
                         ("root-squashed-from-uid-0", "owner", "EACCES"),
                         ("root-keeps-its-other-group", "group900", "ok")]
            elif name == "wheel":
                cases = [("wheel-squashed-from-gid-0", "gid0", "EACCES"),
                         ("wheel-keeps-its-own-group", "own", "ok")]
            else:
                beyond = "-beyond-the-16-of-auth-sys" if len(gids) > 16 else ""
                cases = [(f"{name}-first-group", "first", "ok"),
                         (f"{name}-last-group{beyond}", "last", "ok"),
                         (f"{name}-denied-outside-its-groups", "outside", "EACCES")]
            rows += [f"{mnt}-{label} read {who}/{file} {uid} {gids[0]} {spec(gids)} {expect}"
                     for label, file, expect in cases]
            op, via = ("localwrite", f",/mnt/{mnt}") if localio else ("write", "")
            for file, gid in sgid_files(name, gids):
                kept = gid and gid in gids
                rows.append(f"{mnt}-{name}-write-{'keeps' if kept else 'drops'}-{file} {op} "
                            f"{who}/{file}-{mnt},/srv/{name}/{file}-{mnt}{via} {uid} {gids[0]} "
                            f"{spec(gids)} {'kept' if kept else 'dropped'}")
    return "\n".join(rows) + "\n"


def localio():
    """Whether the base has LOCALIO, which kconfig/<base>/nfs.config then turns on."""
    return (ensure_vanilla() / "fs/nfs/localio.c").exists()


def users_file():
    return "".join(f"{n} {u} {g[0]} {spec(g)}\n" for n, u, g in USERS)


def guest_files(target, mode_args):
    """The files and plan of one boot."""
    t = TARGETS[target]
    abi = t["abis"][0]
    bindir = settings().build / "bin" / abi
    work = settings().build / "nfs" / "etc"
    work.mkdir(parents=True, exist_ok=True)
    passwd, group = etc_files()
    texts = {"passwd": passwd, "group": group, "files": served_files(),
             "table": check_table(localio()), "users": users_file()}
    for name, text in texts.items():
        (work / name).write_text(text)
    client = compile_c(abi, ROOT / "robust/access_client.c", bindir / "access_client")
    frag = compile_c(abi, ROOT / "bench/groups_frag.c", bindir / "groups_frag",
                     libs=["-pthread"])
    files = {"/etc/passwd": work / "passwd", "/etc/group": work / "group",
             "/harness/nfs/files": work / "files", "/harness/nfs/table": work / "table",
             "/harness/nfs/users": work / "users", "/harness/nfs/guest.sh":
             ROOT / "robust/nfs_guest.sh", "/usr/local/bin/access_client": client,
             "/usr/local/bin/groups_frag": frag}
    plan = [["nfs", 900, "/bin/busybox", "sh", "/harness/nfs/guest.sh", *mode_args]]
    if mode_args[0] == "check":
        # the auth.unix.gid cache's netlink writer (7.x), which rpc.mountd does not use
        kself = ensure_vanilla() / "tools/testing/selftests"
        files["/usr/local/bin/unix_gid_nl"] = compile_c(
            abi, ROOT / "robust/unix_gid_nl.c", bindir / "unix_gid_nl", ["-I", kself])
        # a base whose tree has the writer must run it, not skip
        need = (ensure_vanilla() / "include/uapi/linux/sunrpc_netlink.h").exists()
        plan.insert(0, ["unix_gid_nl", 300] +
                    (["/bin/busybox", "env", "UNIX_GID_NL_REQUIRE=1"] if need else []) +
                    ["/usr/local/bin/unix_gid_nl"])
    return files, plan, guest_root("nfs", ABIS[abi]["debian"], DAEMONS)


def boot_nfs(kernel, target, job, mode_args, timeout=900):
    image = build_kernel(kernel, target, extra=("nfs",))
    files, plan, root = guest_files(target, mode_args)
    return boot_plan(kernel, target, image, job, files, plan, timeout, built={},
                     overlay=root)


def check_kernel(kernel, target):
    """One boot of the NFS check; its results."""
    job = f"nfs-{kernel}-{target}"
    lines, outcome, elapsed, results = boot_nfs(kernel, target, job, ["check"])
    report_boot(job, results, lines, outcome, elapsed)
    return results


def cmd_check(args):
    status = 0
    for kernel in args.kernels:
        results = check_kernel(kernel, args.target)
        if not results or any(r[1] == "fail" for r in results):
            status = 1
    return status


def nfsd_upto():
    """upto-NNNN: the series up to the patch before the nfsd one."""
    names = [p.name for p in series_patches()]
    for i, text in enumerate(p.read_text() for p in series_patches()):
        if NFSD_PATCH.search(text.split("\n\n", 1)[0].replace("\n ", " ")):
            if not i:
                raise Failure("the nfsd root_squash patch is the first: nothing to compare "
                              "it against")
            return f"upto-{names[i - 1][:4]}"
    raise Failure("the series has no nfsd root_squash patch")


def alone_nfsd():
    """alone-nfsd where the series has the nfsd patch on its own (7.3/nfsd/), to be
    measured on today's flat array too"""
    return ["alone-nfsd"] if series_patches(settings().series / "nfsd") else []


def cmd_bench(args):
    kernels = ["vanilla", *alone_nfsd(), nfsd_upto(), "patched"]
    for k in kernels:
        build_kernel(k, args.target, extra=("nfs",))

    def measure(k, r):
        job = f"bench-nfs-{k}-{args.target}"
        lines, outcome, elapsed, _ = boot_nfs(k, args.target, job,
                                               ["bench", str(args.loops), *BENCH_USERS])
        got = parse(lines, key=str)
        if outcome != "ok" or not got:
            raise Failure(f"{job}: {outcome}; no figures (console: "
                          f"{results_of(job)}/console.log)")
        return got, ": " + ", ".join(f"{u} {rate(got, u):.0f} RPC/s" for u in BENCH_USERS)

    # A B C, C B A, ...: each kernel boots first and last in turn
    runs = run_rounds("bench-nfs", kernels, args.rounds, measure, mirror=True)
    return report(args.target, kernels, runs)


def rate(got, user, phase=""):
    return got[(f"{phase}rpcs", user)] / got[(f"{phase}loop_ns", user)] * 1e9


# The table's rows: name, and how a boot's figures give it for a user
ROWS = [("RPCs per second", lambda g, u: rate(g, u)),
        ("group lists nfsd_setuser() built per RPC",
         lambda g, u: g.get(("nfsd_lists_per_rpc", u), 0)),
        ("gids in them per RPC", lambda g, u: g.get(("nfsd_list_gids_per_rpc", u), 0)),
        ("group lists built per RPC, all (groups_alloc calls)",
         lambda g, u: g.get(("groups_alloc_per_rpc", u), 0)),
        ("slab allocations per RPC", lambda g, u: g.get(("slab_allocs_per_rpc", u), 0)),
        ("slab bytes per RPC", lambda g, u: g.get(("slab_bytes_per_rpc", u), 0))] + \
    [(f"order-{o} page allocations per RPC",
      (lambda o: lambda g, u: g.get((f"pages_order{o}_per_rpc", u), 0))(o)) for o in range(11)] + \
    [("fragmented memory: RPCs per second", lambda g, u: rate(g, u, "frag_")),
     ("fragmented memory: compaction stalls per 10,000 RPCs",
      lambda g, u: g[("frag_compact_stall", u)] / g[("frag_rpcs", u)] * 1e4)]


def report(target, kernels, runs):
    out = bench_dir(f"nfs-{target}")
    out.mkdir(parents=True, exist_ok=True)
    rows = [f"# make bench-nfs ARCH={target}: {len(runs[kernels[0]])} rounds, boots "
            "alternated; median (min-max) over rounds", "",
            "| per RPC of a stat()+access() loop on NFSv3 | user | " + " | ".join(kernels) + " |",
            "|---|---|" + "---|" * len(kernels)]
    status = 0
    for name, fn in ROWS:
        for u in BENCH_USERS:
            vals = {k: [fn(g, u) for g in runs[k]] for k in kernels}
            # page orders no kernel asked for are left out; every other row stays
            if name.startswith("order-") and not any(v for k in kernels for v in vals[k]):
                continue
            rows.append(f"| {name} | {u} | " + " | ".join(
                f"{statistics.median(v):.4g} ({min(v):.4g}-{max(v):.4g})"
                for v in vals.values()) + " |")
    for u in BENCH_USERS:
        if any(g.get(("trace_lost", u), 0) for k in kernels for g in runs[k]):
            rows.append(f"\nThe trace lost events for {u}: its per-RPC counts are short.")
            status = 1
        for k in [k for k in kernels if k in ("patched", "alone-nfsd")]:
            if any(g.get(("nfsd_lists_per_rpc", u), 0) for g in runs[k]):
                rows.append(f"\nMISS: the {k} nfsd built group lists for {u}.")
                status = 1
    text = "\n".join(rows) + "\n"
    (out / "table.md").write_text(text)
    (out / "runs.json").write_text(json.dumps(
        {k: [{f"{m} {u}": v for (m, u), v in g.items()} for g in runs[k]] for k in kernels},
        indent=1))
    print(text)
    progress(f"bench-nfs: table in {shown(out / 'table.md')}")
    return status


def add_commands(sub):
    p = target_command(sub, "check-nfs", "the kernel's NFS server and client with Debian's "
                       "daemons: who may read what", __doc__, cmd_check)
    p.add_argument("kernels", nargs="*", default=["patched"])
    p = target_command(sub, "bench-nfs", "vanilla, the series without and with its nfsd patch: "
                       "RPCs per second, allocations per RPC", fn=cmd_bench)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--loops", type=int, default=1000)
