# SPDX-License-Identifier: GPL-2.0
"""trees: the series as patch files, and what git am must keep.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import trees  # noqa: E402

class Series(unittest.TestCase):
    def test_series_numbers_each_patch_once(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            for name in ("0000-cover-letter.patch", "0001-a.patch", "0002-b.patch"):
                (d / name).write_text("")
            self.assertEqual([p.name for p in trees.series_patches(d)], ["0001-a.patch", "0002-b.patch"])
            (d / "0002-old-b.patch").write_text("")      # left behind by a renumbering
            with self.assertRaises(config.Failure) as e:
                trees.series_patches(d)
            self.assertIn("0002", str(e.exception))
            (d / "0002-old-b.patch").unlink()
            (d / "0004-d.patch").write_text("")          # a gap
            self.assertRaises(config.Failure, trees.series_patches, d)

    def test_notes_below_the_cut_line_come_back(self):
        patch = ("Subject: [PATCH 01/19] cred: x\n\nbody\n\nSigned-off-by: A <a@b.c>\n---\n\n"
                 "Notes:\n    Changes in v3:\n    - one\n\n    - two\n\n kernel/groups.c | 2 +-\n")
        self.assertEqual(trees.patch_notes(patch), "Changes in v3:\n- one\n\n- two")
        self.assertEqual(trees.patch_notes(patch.replace("Notes:", "Nope:")), "")


class Kernels(unittest.TestCase):
    def test_each_kernel_name_is_its_tree(self):
        with mock.patch.object(trees, "ensure_vanilla", return_value="vanilla tree"), \
                mock.patch.object(trees, "ensure_patched",
                                  side_effect=lambda upto=None, mutant=None, alone=None:
                                  (upto, mutant, alone)):
            self.assertEqual(trees.tree_of("vanilla"), "vanilla tree")
            self.assertEqual(trees.tree_of("patched"), (None, None, None))
            self.assertEqual(trees.tree_of("upto-0015"), ("0015", None, None))
            self.assertEqual(trees.tree_of("mutant-skip-sort"), (None, "skip-sort", None))
            self.assertEqual(trees.tree_of("alone-nfsd"), (None, None, "nfsd"))
            for bad in ("upto-15", "bisect", "mutant-", "Patched", "alone-"):
                self.assertRaises(config.Failure, trees.tree_of, bad)

    def test_upto_takes_the_series_up_to_that_patch(self):
        series = [Path(f"000{i}-p{i}.patch") for i in range(1, 4)]
        with mock.patch.object(trees, "series_patches", return_value=series):
            self.assertEqual(trees.kernel_source(), (series, None))
            self.assertEqual(trees.kernel_source(upto="0002"), (series[:2], None))
            self.assertRaises(config.Failure, trees.kernel_source, upto="0004")
            patches, broken = trees.kernel_source(mutant="skip-sort")
            self.assertEqual((patches, broken), (series, config.MUTANTS / "skip-sort.patch"))
            self.assertRaises(config.Failure, trees.kernel_source, mutant="no-such-mutant")

    def test_alone_takes_the_patches_of_its_directory_only(self):
        with tempfile.TemporaryDirectory() as d:
            series = Path(d)
            (series / "nfsd").mkdir()
            for name in ("0001-a.patch", "nfsd/0001-n.patch", "nfsd/0002-m.patch"):
                (series / name).write_text("")
            with mock.patch.object(trees, "settings",
                                   return_value=mock.Mock(series=series, base="7.3")):
                self.assertEqual(trees.kernel_source(alone="nfsd"),
                                 ([series / "nfsd/0001-n.patch", series / "nfsd/0002-m.patch"],
                                  None))
                self.assertRaises(config.Failure, trees.kernel_source, alone="mm")

    def test_an_export_marks_the_tree_as_what_its_files_say(self):
        with tempfile.TemporaryDirectory() as d:
            series, build = Path(d, "series"), Path(d, "build")
            series.mkdir()
            (series / "0001-a.patch").write_text("one")
            fake = mock.Mock(series=series, build=build, base="6.1")
            with mock.patch.object(trees, "settings", return_value=fake), \
                    mock.patch.object(trees, "installed_source_version", return_value="6.1.1"):
                stamp = build / "stamps/patched"
                trees.mark_exported()
                self.assertTrue(config.stamp_ok(stamp, trees.applied_digest(
                    [series / "0001-a.patch"])))
                (series / "0001-a.patch").write_text("two")     # edited since: stale
                self.assertFalse(config.stamp_ok(stamp, trees.applied_digest(
                    [series / "0001-a.patch"])))

    def test_a_patch_that_does_not_apply_is_aborted(self):
        with tempfile.TemporaryDirectory() as d:
            patch = Path(d, "0001-x.patch")
            patch.write_text("Subject: x\n---\n\nNotes:\n    v2: y\n\n x | 1 +\n")
            for code, applied in ((0, True), (1, False)):
                with mock.patch.object(trees, "sh", return_value=mock.Mock(returncode=code)) as sh, \
                        mock.patch.object(trees.subprocess, "run") as run:
                    self.assertIs(trees.git_am(Path(d), patch, Path(d, "log")), applied)
                self.assertEqual([c.args[0][:2] for c in run.call_args_list],
                                 [] if applied else [["git", "am"]])
                self.assertEqual([c.args[0][:3] for c in sh.call_args_list][1:],
                                 [["git", "notes", "add"]] if applied else [])


if __name__ == "__main__":
    unittest.main()
