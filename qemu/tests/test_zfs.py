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
            if op in ("read", "unlink", "chgrp"):
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
        """Members may, others may not; only the signed rows depend on the flavour."""
        dirs = {r[1]: int(r[3]) for r in layout() if r[0] in ("dir", "file")}
        for flavour in ("debian", "patched"):
            for label, op, args, uid, gid, gidspec, expect in rows(flavour):
                name, way = label.split("-")[:2]
                member = way != "outside"
                self.assertEqual(gid, uid, label)
                # Debian's OpenZFS misses 1300 (the user's first group), not 0x90000000
                if member and not (flavour == "debian" and name == zfs.SIGNED[0] and
                                   way == "first" and
                                   op in ("create", "unlink", "rename", "chgrp")):
                    self.assertEqual(expect, "ok", label)
                else:
                    self.assertNotEqual(expect, "ok", label)
                if op in ("read", "create", "unlink", "rename") and "acl" not in args:
                    owner = dirs[args.split(",")[0].rsplit("/", 1)[0]] if op != "read" \
                        else dirs[args]
                    self.assertEqual(owner in [int(g) for g in gidspec.replace("-", ",")
                                               .split(",")], member, label)

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
        deb = {r[0]: r[6] for r in rows("debian")}
        self.assertEqual(deb["ubig-first-create"], "EACCES")
        self.assertEqual(deb["ubig-first-chgrp"], "EPERM")
        self.assertEqual(deb["ubig-last-create"], "ok")        # the big gid is found
        self.assertEqual(deb["ubig-first-read-mode"], "ok")    # the kernel's search

    def test_rows_reach_every_operation_for_every_user(self):
        labels = {r[0] for r in rows("patched")}
        for name, _, _ in zfs.USERS:
            for way in ("first", "last", "outside"):
                for what in ("create", "unlink", "rename", "chgrp", "read-mode", "read-acl",
                             "zfs-snapshot", "zfs-create", "zfs-groupused"):
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

    def test_compare_fails_a_difference_but_not_the_signed_rows(self):
        a = {"u16-first-create": "ok", "ubig-first-create": "EACCES"}
        b = {"u16-first-create": "ok", "ubig-first-create": "ok"}
        self.assertEqual([r[1] for r in zfs.compare({"v": a, "p": b})], ["pass"])
        c = dict(b, **{"u16-first-create": "EACCES"})
        got = zfs.compare({"v": a, "p": c})
        self.assertEqual([(r[0], r[1]) for r in got],
                         [("zfs/same-answer/u16-first-create", "fail")])
        missing = zfs.compare({"v": a, "p": {"ubig-first-create": "ok"}})
        self.assertEqual([r[1] for r in missing], ["fail"])
        self.assertEqual(zfs.compare({"v": a}), [])

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

    def test_an_unknown_base_is_refused(self):
        with tempfile.TemporaryDirectory(), \
                mock.patch.object(zfs, "RELEASES", {}), \
                self.assertRaises(zfs.Failure):
            zfs.cmd_check(mock.Mock(kernels=["patched"], zfs=None, mutant=None,
                                    target="x86_64"))


if __name__ == "__main__":
    unittest.main()
