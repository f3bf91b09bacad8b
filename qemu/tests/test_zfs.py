# SPDX-License-Identifier: GPL-2.0
"""zfs: the layout and its rows, what each row must answer, the load order,
the row-for-row comparison of boots, the mutant.
"""

import re
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import zfs  # noqa: E402


def rows(flavour):
    return [r.split() for r in zfs.table(flavour).splitlines()]


def layout():
    return [r.split() for r in zfs.layout().splitlines()]


class Tables(unittest.TestCase):
    def test_spec_covers_ranges_and_lone_gids(self):
        self.assertEqual(zfs.spec(list(range(1100, 1116))), "1100-1115")
        self.assertEqual(zfs.spec([1300, zfs.BIG]), "1300,2415919104")
        self.assertEqual(zfs.spec([5, 1, 2, 9]), "1-2,5,9")

    def test_users_are_in_16_1023_2000_and_10000_groups(self):
        self.assertEqual([len(g) for _, _, g in zfs.USERS], [16, 1023, 2000, 10000])
        for name, uid, gids in zfs.USERS + (zfs.SIGNED,):
            self.assertNotIn(uid, gids, name)           # the primary gid grants nothing
            self.assertNotIn(zfs.OUTSIDE, gids, name)

    def test_every_path_a_row_names_is_laid_out(self):
        made = {r[1] for r in layout() if r[0] in ("dir", "file")}
        datasets = {r[1] for r in layout() if r[0] == "dataset"}
        for r in rows("patched"):
            label, op, args = r[0], r[1], r[2].split(",")
            if op in ("read", "unlink", "chgrp", "setgid"):
                self.assertIn(args[0], made, label)
            elif op in ("create", "rename"):
                self.assertNotIn(args[-1], made, label)
                self.assertIn(args[-1].rsplit("/", 1)[0], made, label)
            else:
                self.assertEqual(args[0], "zfs", label)
                ds = next(a for a in args if a.split("/")[0] == "tank")
                # a snapshot or child of a dataset laid out, or the pool itself
                top = "/".join(re.split(r"[@]", ds)[0].split("/")[:2])
                self.assertTrue(top == "tank" or top in datasets, label)

    def test_expectations_follow_membership(self):
        """Members may, others may not; only the rows OpenZFS's search decides for
        the user beside 0x90000000 depend on the flavour."""
        owner = {r[1]: int(r[3]) for r in layout() if r[0] in ("dir", "file")}
        for flavour in ("debian", "patched"):
            for label, op, args, uid, gid, gidspec, expect in rows(flavour):
                name, rest = label.split("-", 1)
                ways = zfs.ways(self.gids(name))
                way = next(w for w, _ in ways if rest.startswith(w + "-"))
                g = dict(ways)[way]
                member = g in self.gids(name)
                self.assertEqual(gid, uid, label)
                self.assertEqual(member, way not in ("outside", "above"), label)
                missed = flavour == "debian" and name == zfs.SIGNED[0] and g == 1300 and \
                    rest.endswith(("-setgid", "-zfs-groupused"))
                if member and not missed:
                    self.assertIn(expect, ("ok", "kept"), label)
                else:
                    self.assertNotIn(expect, ("ok", "kept"), label)
                # the file or directory a row works on belongs to the way's group
                path = args.split(",")[0]
                if op in ("create", "unlink", "rename"):
                    self.assertEqual(owner[path.rsplit("/", 1)[0]], g, label)
                elif op in ("setgid", "read") and "acl" not in path:
                    self.assertEqual(owner[path], g, label)

    @staticmethod
    def gids(name):
        return next(g for n, _, g in zfs.USERS + (zfs.SIGNED,) if n == name)

    def test_ways_take_both_ends_of_the_first_block_and_two_outsiders(self):
        ways = dict(zfs.ways(list(range(30000, 32000))))
        self.assertEqual(ways, {"first": 30000, "last": 31999, "block-end": 31023,
                                "block-start": 31024, "outside": 9999, "above": 32000})
        self.assertEqual([w for w, _ in zfs.ways(list(range(1100, 1116)))],
                         ["first", "last", "outside", "above"])

    def test_the_signed_rows_show_the_a_minus_b_search(self):
        """Debian's OpenZFS misses 1300 in {1300, 0x90000000}: the search of
        cr_groups_search() before 0002, run here, says so."""
        def old_search(gids, grp):
            left, right = 0, len(gids)
            while left < right:
                mid = (left + right) // 2
                cmp = (grp - gids[mid] + 2**31) % 2**32 - 2**31     # int cmp = a - b
                if cmp > 0:
                    left = mid + 1
                elif cmp < 0:
                    right = mid
                else:
                    return True
            return False
        gids = sorted(zfs.SIGNED[2])
        self.assertFalse(old_search(gids, 1300))
        self.assertTrue(old_search(gids, zfs.BIG))
        deb, pat = zfs.expectations("debian"), zfs.expectations("patched")
        self.assertEqual(deb["ubig-first-setgid"], "dropped")
        self.assertEqual(deb["ubig-first-zfs-groupused"], "no-value")
        self.assertEqual(deb["ubig-last-setgid"], "kept")          # the big gid is found
        self.assertEqual(deb["ubig-first-read-mode"], "ok")        # the kernel decides
        self.assertEqual({k for k in deb if deb[k] != pat[k]},
                         {"ubig-first-setgid", "ubig-first-zfs-groupused"})

    def test_rows_reach_every_operation_for_every_user(self):
        labels = {r[0] for r in rows("patched")}
        for name, _, gids in zfs.USERS + (zfs.SIGNED,):
            for way, _ in zfs.ways(gids):
                for what, *_ in zfs.CASES:
                    self.assertIn(f"{name}-{way}-{what}", labels)
        self.assertEqual(len(labels), len(rows("patched")))

    def test_etc_names_every_group_of_the_layout(self):
        passwd, group = zfs.etc_files()
        names = {int(line.split(":")[2]) for line in group.splitlines()}
        for r in layout():
            if r[0] == "dataset":
                self.assertIn(int(r[2]), names)
        self.assertEqual(len(passwd.splitlines()), len(zfs.USERS) + 2)


class Boots(unittest.TestCase):
    def test_answers_read_the_clients_lines(self):
        lines = ["ok 1 u16-first-create", "# answer u16-first-create ok",
                 "[   3.1] # answer u16-outside-create EACCES", "# answer"]
        self.assertEqual(zfs.answers(lines), {"u16-first-create": "ok",
                                              "u16-outside-create": "EACCES"})

    def test_compare_fails_a_difference_but_not_a_row_the_flavours_answer_apart(self):
        deb, pat = zfs.expectations("debian"), zfs.expectations("patched")
        self.assertEqual([r[1] for r in zfs.compare({"v": deb, "p": pat},
                                                    ["debian", "patched"])], ["pass"])
        # with one flavour, the signed rows must agree too
        got = zfs.compare({"v": deb, "p": pat}, ["patched", "patched"])
        self.assertEqual(sorted(r[0] for r in got),
                         ["zfs/same-answer/ubig-first-setgid",
                          "zfs/same-answer/ubig-first-zfs-groupused"])
        other = dict(pat, **{"u16-first-create": "EACCES"})
        got = zfs.compare({"v": deb, "p": other}, ["debian", "patched"])
        self.assertEqual([(r[0], r[1]) for r in got],
                         [("zfs/same-answer/u16-first-create", "fail")])
        missing = dict(pat)
        del missing["u16-last-read-acl"]
        self.assertEqual([r[1] for r in zfs.compare({"v": deb, "p": missing},
                                                    ["debian", "patched"])], ["fail"])
        self.assertEqual(zfs.compare({"v": deb}, ["debian"]), [])

    def test_load_order_puts_dependencies_first(self):
        deps = {"spl": "", "znvpair": "spl", "zcommon": "spl,znvpair",
                "zfs": "zcommon,spl,znvpair,icp", "icp": "spl,zcommon", "other": "ext4"}
        with tempfile.TemporaryDirectory() as d:
            modules = {}
            for n, dep in deps.items():
                modules[n] = Path(d, f"{n}.ko")
                modules[n].write_bytes(b"\x7fELF\0license=CDDL\0depends=" + dep.encode() +
                                       b"\0vermagic=6.1\0")
            order = zfs.load_order(modules)
        for n, d in deps.items():
            for dep in filter(lambda x: x in deps, d.split(",")):
                self.assertLess(order.index(dep), order.index(n), (dep, n))
        self.assertEqual(sorted(order), sorted(deps))

    def test_the_mutant_line_is_in_the_patch(self):
        """The mutant changes a line the patched spl-cred.c has exactly once."""
        for pdir in ("zfs-2.1", "zfs-2.3-2.4"):
            patch = next((zfs.ROOT / "openzfs" / pdir).glob("0003-*.patch")).read_text()
            for path, old, new in zfs.MUTANTS.values():
                self.assertEqual(patch.count("+" + "\t" + "for (b = 0; " + old), 1, pdir)
                self.assertNotEqual(old, new)

    def test_an_unknown_base_or_a_mutant_without_its_flavour_is_refused(self):
        args = mock.Mock(kernels=["patched"], zfs=None, mutant=None, target="x86_64")
        with mock.patch.object(zfs, "RELEASES", {}), self.assertRaises(zfs.Failure):
            zfs.cmd_check(args)
        args = mock.Mock(kernels=["vanilla"], zfs=None, mutant="first-block", target="x86_64")
        with mock.patch.object(zfs, "boot_zfs") as boot, self.assertRaises(zfs.Failure):
            zfs.cmd_check(args)
        boot.assert_not_called()

    def test_the_mutant_goes_only_to_the_patched_flavour(self):
        args = mock.Mock(kernels=["vanilla", "patched"], zfs=None, mutant="first-block",
                         target="x86_64")
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(zfs, "boot_zfs",
                                  side_effect=lambda k, t, f, m: (f"{k}-{f}", [], {})) as boot, \
                mock.patch("builtins.print"):
            zfs.cmd_check(args)
        self.assertEqual([c.args[2:] for c in boot.call_args_list],
                         [("debian", None), ("patched", "first-block")])

if __name__ == "__main__":
    unittest.main()
