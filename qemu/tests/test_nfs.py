# SPDX-License-Identifier: GPL-2.0
"""nfs: the guest's users, groups and rows, the package closure, the report,
check-nfs's exit status, the kernels bench-nfs sets against the nfsd patch.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import debroot  # noqa: E402
import nfs  # noqa: E402


def getgrouplist(group_text, user, primary):
    """glibc's answer from /etc/group: the primary gid, then each group naming user."""
    out = [primary]
    for line in group_text.splitlines():
        name, _, gid, members = line.split(":")
        if user in members.split(",") and int(gid) not in out:
            out.append(int(gid))
    return out


class Users(unittest.TestCase):
    def test_etc_group_gives_each_user_its_list(self):
        passwd, group = nfs.etc_files()
        for name, uid, gids in nfs.USERS:
            line = next(x for x in passwd.splitlines() if x.split(":")[0] == name)
            self.assertEqual(int(line.split(":")[2]), uid)
            self.assertEqual(int(line.split(":")[3]), gids[0])
            self.assertEqual(sorted(getgrouplist(group, name, gids[0])), sorted(gids))
        self.assertEqual(getgrouplist(group, "nobody", 65534), [65534])
        self.assertIn(f":{nfs.OUTSIDE}:\n", group)

    def test_the_lists_fit_rpc_mountd_s_downcall(self):
        # cache_downcall() takes fewer than 32,768 bytes: "uid expiry n gid gid ..."
        for name, uid, gids in nfs.USERS:
            line = f"{uid} 2147483647 {len(gids)} " + " ".join(map(str, sorted(gids))) + "\n"
            self.assertLess(len(line), 32768, name)

    def test_spec_round_trips(self):
        self.assertEqual(nfs.spec([0, 900]), "0,900")
        self.assertEqual(nfs.spec(list(range(3000, 9000))), "3000-8999")
        self.assertEqual(nfs.spec([1200, 0, 1201]), "0,1200-1201")

    def test_rows_cover_both_mounts_beyond_16_and_squashing(self):
        rows = [r.split() for r in nfs.check_table().splitlines()]
        self.assertTrue(all(len(r) == 7 and r[1] in ("read", "write") for r in rows))
        labels = [r[0] for r in rows]
        for mnt in ("v3", "v4"):
            self.assertIn(f"{mnt}-root-squashed-from-gid-0", labels)
            self.assertIn(f"{mnt}-wheel-squashed-from-gid-0", labels)
            self.assertIn(f"{mnt}-u6000-last-group-beyond-the-16-of-auth-sys", labels)
            self.assertIn(f"{mnt}-wheel-write-drops-sgid-gid0", labels)
            self.assertIn(f"{mnt}-wheel-write-keeps-sgid-last", labels)
            self.assertIn(f"{mnt}-u1000-write-drops-sgid-outside", labels)
        self.assertNotIn("v3-u16-last-group-beyond-the-16-of-auth-sys", labels)
        self.assertEqual(len(labels), len(set(labels)))
        # the long list holding gid 0 is a paged one (more than 1,022 gids)
        self.assertGreater(len(dict((n, g) for n, _, g in nfs.USERS)["wheel"]), 1022)
        served = {line.split()[0]: line.split()[1:] for line in nfs.served_files().splitlines()}
        written = []
        for r in rows:
            path = r[2].split(",")[0].split("/", 3)[3]
            self.assertIn(path, served, r[0])
            gid, mode = int(served[path][1]), served[path][2]
            members = {int(g) for part in r[5].split(",")
                       for g in (range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1))}
            # squashed: gid 0 is taken from every list, uid 0 becomes the anonymous uid
            members.discard(0)
            if r[1] == "read":
                readable = mode == "0040" and gid in members
                self.assertEqual(r[6], "ok" if readable else "EACCES", r[0])
                continue
            # a write by a non-member of a 02666 file's group clears the bit;
            # the server's copy of the file is what tells
            self.assertEqual(mode, "2666", r[0])
            self.assertEqual(r[2].split(",")[1], f"/srv/{path}", r[0])
            self.assertEqual(r[6], "kept" if gid in members else "dropped", r[0])
            written.append(path)
        # a write changes its file: each row has one of its own
        self.assertEqual(len(written), len(set(written)))
        self.assertEqual(sum(m == "2666" for _, _, m in served.values()), len(written))

    def test_with_localio_the_writes_must_bypass_the_rpcs(self):
        plain = nfs.check_table().splitlines()
        local = nfs.check_table(localio=True).splitlines()
        self.assertEqual(len(plain), len(local))
        for p, q in zip(plain, local):
            p, q = p.split(), q.split()
            if p[1] == "read":
                self.assertEqual(p, q)
                continue
            mnt = p[0].split("-")[0]
            self.assertEqual(q[1], "localwrite")
            self.assertEqual(q[2], f"{p[2]},/mnt/{mnt}")
            self.assertEqual(p[:1] + p[3:], q[:1] + q[3:])


class Packages(unittest.TestCase):
    @staticmethod
    def depends(pre, dep):
        """debroot.depends() of a .deb with these Pre-Depends and Depends"""
        fields = {"Pre-Depends": pre, "Depends": dep}
        run = mock.Mock(side_effect=lambda cmd, **kw: mock.Mock(stdout=fields[cmd[-1]]))
        with mock.patch("subprocess.run", run):
            return debroot.depends("x.deb")

    def test_depends_takes_first_alternatives_and_names(self):
        self.assertEqual(self.depends("libc6 (>= 2.34)", "libtirpc3 (>= 1.0.2), python3 | "
                                      "python3-minimal, libevent-core-2.1-7:any"),
                         ["libc6", "libtirpc3", "python3", "libevent-core-2.1-7"])

    def test_depends_keeps_an_exact_version(self):
        self.assertEqual(self.depends("", "libzfs4linux (= 2.1.11-1+deb12u1), libc6 (>= 2.34), "
                                      "zfs-modules | zfs-dkms"),
                         ["libzfs4linux=2.1.11-1+deb12u1", "libc6", "zfs-modules"])

    def test_deb_files_matches_a_version_and_its_epoch(self):
        with tempfile.TemporaryDirectory() as d:
            for f in ("libzfs4linux_2.1.11-1+deb12u1_amd64.deb",
                      "libzfs4linux_2.3.2-2~bpo12+2_amd64.deb", "libfoo_1%3a2.0-1_amd64.deb"):
                (Path(d) / f).touch()
            self.assertEqual([p.name for p in debroot.deb_files(
                Path(d), "libzfs4linux=2.1.11-1+deb12u1", "amd64")],
                ["libzfs4linux_2.1.11-1+deb12u1_amd64.deb"])
            self.assertEqual(len(debroot.deb_files(Path(d), "libzfs4linux", "amd64")), 2)
            self.assertEqual(len(debroot.deb_files(Path(d), "libfoo=1:2.0-1", "amd64")), 1)


def boot(rate=1000.0, groups_alloc=0.0, stalls=0):
    got = {}
    for u in nfs.BENCH_USERS:
        got.update({("rpcs", u): rate, ("loop_ns", u): 1e9, ("nfsd_lists_per_rpc", u):
                    groups_alloc, ("groups_alloc_per_rpc", u): 1.0, ("frag_rpcs", u): 10000, ("frag_loop_ns", u): 2e9,
                    ("frag_compact_stall", u): stalls, ("pages_order3_per_rpc", u): 0.5})
    return got


class Report(unittest.TestCase):
    def report(self, runs):
        with tempfile.TemporaryDirectory() as d, mock.patch("builtins.print"), \
                config.using(build=Path(d)):
            status = nfs.report("x86_64", list(runs), runs)
            return status, (Path(d) / "bench/nfs-x86_64/table.md").read_text()

    def test_a_patched_nfsd_that_builds_lists_fails(self):
        runs = {"vanilla": [boot(900, 1.0, 3)], "upto-0017": [boot(950, 1.0)],
                "patched": [boot(1000)]}
        status, md = self.report(runs)
        self.assertEqual(status, 0)
        self.assertIn("| RPCs per second | u6000 | 900 (900-900) | 950 (950-950) | "
                      "1000 (1000-1000) |", md)
        self.assertIn("| fragmented memory: compaction stalls per 10,000 RPCs | u16 | "
                      "3 (3-3) | 0 (0-0) | 0 (0-0) |", md)
        runs["patched"] = [boot(1000, 0.5)]
        status, md = self.report(runs)
        self.assertEqual(status, 1)
        self.assertIn("MISS: the patched nfsd built group lists", md)
        # the nfsd patch alone on today's flat array is held to the same
        runs = {"vanilla": [boot(900, 1.0)], "alone-nfsd": [boot(950, 0.25)],
                "upto-0017": [boot(950, 1.0)], "patched": [boot(1000)]}
        status, md = self.report(runs)
        self.assertEqual(status, 1)
        self.assertIn("MISS: the alone-nfsd nfsd built group lists", md)
        self.assertNotIn("MISS: the patched", md)
        runs["alone-nfsd"] = [boot(950)]
        self.assertEqual(self.report(runs)[0], 0)

    def test_rows_of_zeros_stay_but_unused_page_orders(self):
        runs = {"vanilla": [boot()], "patched": [boot()]}
        status, md = self.report(runs)
        self.assertIn("| fragmented memory: compaction stalls per 10,000 RPCs | u6000 | "
                      "0 (0-0) | 0 (0-0) |", md)
        self.assertIn("| group lists nfsd_setuser() built per RPC | u16 | 0 (0-0)", md)
        self.assertNotIn("order-0", md)


class Check(unittest.TestCase):
    def status(self, *per_kernel):
        """cmd_check()'s exit status when the kernels' boots give these results"""
        results = list(per_kernel)
        with mock.patch.object(nfs, "check_kernel", side_effect=lambda k, t: results.pop(0)):
            return nfs.cmd_check(SimpleNamespace(kernels=["vanilla", "patched"][:len(per_kernel)],
                                                 target="x86_64"))

    def test_a_failure_or_a_boot_with_no_result_fails(self):
        ok, bad = ("nfs/v3-u16-first-group", "pass", ""), ("nfs/v3-root-squashed", "fail", "ok")
        self.assertEqual(self.status([ok]), 0)
        self.assertEqual(self.status([ok], [ok, bad]), 1)
        self.assertEqual(self.status([ok], []), 1)


class Kernels(unittest.TestCase):
    def upto(self, *subjects):
        """nfsd_upto() of a series of patches with these subjects"""
        with tempfile.TemporaryDirectory() as d:
            patches = [Path(d, f"{i:04d}-p.patch") for i in range(1, len(subjects) + 1)]
            for p, subject in zip(patches, subjects):
                p.write_text(f"From: x\nSubject: {subject}\n\nbody\n")
            with mock.patch.object(nfs, "series_patches", return_value=patches):
                return nfs.nfsd_upto()

    def test_the_series_up_to_the_patch_before_nfsd_s(self):
        self.assertEqual(self.upto("[PATCH 01/03] cred: a", "[PATCH 02/03] cred: b",
                                   "[PATCH 03/03] NFSD: root_squash gid 0"), "upto-0002")
        # a subject folded onto two lines
        self.assertEqual(self.upto("[PATCH 1/2] cred: a",
                                   "[PATCH 2/2] NFSD: take gid 0 away under\n root_squash"),
                         "upto-0001")
        with self.assertRaises(config.Failure):
            self.upto("[PATCH 1/2] cred: a", "[PATCH 2/2] cred: root_squash")
        with self.assertRaises(config.Failure):       # nothing before it to compare with
            self.upto("[PATCH 1/2] NFSD: root_squash gid 0", "[PATCH 2/2] cred: a")


class Bench(unittest.TestCase):
    def bench(self, boots, alone=()):
        """cmd_bench()'s report of one round, each boot giving (lines, outcome) in turn,
        on a series with these alone-NAME kernels"""
        figures = [f"BENCH {m} {u} 1000" for m in ("rpcs", "loop_ns") for u in nfs.BENCH_USERS]
        boots = [(figures if lines is None else lines, outcome) for lines, outcome in boots]
        with mock.patch.object(nfs, "nfsd_upto", return_value="upto-0017"), \
                mock.patch.object(nfs, "alone_nfsd", return_value=list(alone)), \
                mock.patch.object(nfs, "build_kernel"), \
                mock.patch.object(nfs, "boot_nfs",
                                  side_effect=lambda *a: (*boots.pop(0), 1.0, [])), \
                mock.patch.object(nfs, "report", side_effect=lambda t, k, runs: runs), \
                mock.patch("builtins.print"):
            return nfs.cmd_bench(SimpleNamespace(target="x86_64", loops=10, rounds=1))

    def test_only_a_clean_boot_with_figures_counts(self):
        runs = self.bench([(None, "ok")] * 3)
        self.assertEqual(list(runs), ["vanilla", "upto-0017", "patched"])
        self.assertEqual(runs["patched"][0][("rpcs", "u16")], 1000.0)
        for bad in ([(None, "ok"), (None, "timeout after 900s")], [(None, "ok"), ([], "ok")]):
            with self.assertRaises(config.Failure) as e:
                self.bench(bad + [(None, "ok")])
            self.assertIn("bench-nfs-upto-0017-x86_64", str(e.exception))

    def test_the_nfsd_patch_alone_is_a_kernel_of_its_own(self):
        runs = self.bench([(None, "ok")] * 4, alone=["alone-nfsd"])
        self.assertEqual(list(runs), ["vanilla", "alone-nfsd", "upto-0017", "patched"])


if __name__ == "__main__":
    unittest.main()
