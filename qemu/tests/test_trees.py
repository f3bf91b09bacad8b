# SPDX-License-Identifier: GPL-2.0
"""trees: the series as patch files, and what git am must keep.
"""

import sys
import tempfile
import unittest
from pathlib import Path

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


if __name__ == "__main__":
    unittest.main()
