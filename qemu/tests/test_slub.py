# SPDX-License-Identifier: GPL-2.0
"""slub: the bytes a set must take, against the figures the cover letter gives.
"""

import re
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import slub  # noqa: E402

PAGE, KMIN = 4096, config.kmalloc_min("x86_64")


def both(n):
    return slub.mem_computed("vanilla", n, PAGE, KMIN), slub.mem_computed("patched", n, PAGE, KMIN)


class Model(unittest.TestCase):
    def test_the_cover_letters_bytes(self):
        text = (config.ROOT / "0000-cover-letter.patch").read_text()
        text = re.sub(r"\s+", " ", text)
        for n, (v, p) in ((1023, both(1023)), (10000, both(10000)), (65536, both(65536))):
            self.assertIn(f"{v:,} -> {p:,}", text, n)
        self.assertEqual(both(10000), (65536, 41744))
        self.assertEqual(both(65536), (524288, 262928))

    def test_worse_than_today_at_6132_sizes_by_at_most_784_bytes(self):
        excess = [p - v for v, p in map(both, range(slub.NGROUPS_MAX + 1)) if p > v]
        self.assertEqual((len(excess), max(excess)), (6132, 784))
        text = re.sub(r"\s+", " ", (config.ROOT / "0000-cover-letter.patch").read_text())
        self.assertIn("at most 784 bytes more than today, at 6,132 of the 65,537 sizes", text)

    def test_inline_lists_are_todays_and_arm64_has_no_small_classes(self):
        for n in (0, 1, 32, slub.inline_max(PAGE)):
            self.assertEqual(len(set(both(n))), 1, n)
        self.assertEqual(slub.kmalloc_bytes(12, PAGE, 128), 128)
        self.assertEqual(slub.kmalloc_bytes(136, PAGE, 128), 256)
        self.assertEqual(slub.kmalloc_bytes(136, PAGE, 8), 192)
        self.assertEqual(slub.paged_header(65536), 64)


if __name__ == "__main__":
    unittest.main()
