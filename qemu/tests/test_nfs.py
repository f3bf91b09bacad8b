# SPDX-License-Identifier: GPL-2.0
"""nfs: the guest's users, groups and rows, the package closure, the report.
"""

import sys
import tempfile
import unittest
from pathlib import Path
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
        self.assertTrue(all(len(r) == 7 and r[1] == "read" for r in rows))
        rows = [[r[0]] + r[2:] for r in rows]
        labels = [r[0] for r in rows]
        for mnt in ("v3", "v4"):
            self.assertIn(f"{mnt}-root-squashed-from-gid-0", labels)
            self.assertIn(f"{mnt}-wheel-squashed-from-gid-0", labels)
            self.assertIn(f"{mnt}-u6000-last-group-beyond-the-16-of-auth-sys", labels)
        self.assertNotIn("v3-u16-last-group-beyond-the-16-of-auth-sys", labels)
        served = {line.split()[0]: line.split()[1:] for line in nfs.served_files().splitlines()}
        for r in rows:
            path = r[1].split("/", 3)[3]
            self.assertIn(path, served, r[0])
            gid, mode = int(served[path][1]), served[path][2]
            members = {int(g) for part in r[4].split(",")
                       for g in (range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1))}
            # squashed: gid 0 is taken from every list, uid 0 becomes the anonymous uid
            members.discard(0)
            readable = mode == "0040" and gid in members
            self.assertEqual(r[5], "ok" if readable else "EACCES", r[0])


class Packages(unittest.TestCase):
    def test_depends_takes_first_alternatives_and_names(self):
        fields = {"Pre-Depends": "libc6 (>= 2.34)",
                  "Depends": "libtirpc3 (>= 1.0.2), python3 | python3-minimal, "
                             "libevent-core-2.1-7:any"}
        run = mock.Mock(side_effect=lambda cmd, **kw: mock.Mock(stdout=fields[cmd[-1]]))
        with mock.patch("subprocess.run", run):
            self.assertEqual(debroot.depends("x.deb"),
                             ["libc6", "libtirpc3", "python3", "libevent-core-2.1-7"])

    def test_depends_keeps_an_exact_version(self):
        fields = {"Pre-Depends": "",
                  "Depends": "libzfs4linux (= 2.1.11-1+deb12u1), libc6 (>= 2.34), "
                             "zfs-modules | zfs-dkms"}
        run = mock.Mock(side_effect=lambda cmd, **kw: mock.Mock(stdout=fields[cmd[-1]]))
        with mock.patch("subprocess.run", run):
            self.assertEqual(debroot.depends("x.deb"),
                             ["libzfs4linux=2.1.11-1+deb12u1", "libc6", "zfs-modules"])

    def test_guest_root_takes_the_exact_version_that_a_package_asks_for(self):
        deps = {"zfsutils-linux=2": ["libzfs=2", "libnvpair=2", "python3"],
                "busybox-static": ["libnvpair", "libc6"], "libzfs=2": ["libnvpair", "zlib1g"],
                "libnvpair=2": ["libc6"], "libc6": [], "zlib1g": []}
        asked = []

        def download(wants, arch, debs, log):
            asked.extend(wants)
            return {w: w for w in wants}

        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(debroot, "ROOT", Path(d)), \
                mock.patch.object(debroot, "download", download), \
                mock.patch.object(debroot, "depends", lambda deb: deps[deb]), \
                mock.patch.object(debroot, "library",
                                  lambda n: n.startswith("lib") or n == "zlib1g"), \
                mock.patch.object(debroot, "foreign_arch"), \
                mock.patch.object(debroot, "sh"), mock.patch.object(debroot, "progress"):
            debroot.guest_root("zfs", "amd64", ["zfsutils-linux=2", "busybox-static"])
        self.assertEqual(sorted(asked), ["busybox-static", "libc6", "libnvpair=2", "libzfs=2",
                                         "zfsutils-linux=2", "zlib1g"])

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

    def test_rows_of_zeros_stay_but_unused_page_orders(self):
        runs = {"vanilla": [boot()], "patched": [boot()]}
        status, md = self.report(runs)
        self.assertIn("| fragmented memory: compaction stalls per 10,000 RPCs | u6000 | "
                      "0 (0-0) | 0 (0-0) |", md)
        self.assertIn("| group lists nfsd_setuser() built per RPC | u16 | 0 (0-0)", md)
        self.assertNotIn("order-0", md)


if __name__ == "__main__":
    unittest.main()
