# SPDX-License-Identifier: GPL-2.0
"""bench_walk: the report's table and ratios on made-up rounds.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_walk  # noqa: E402


class Report(unittest.TestCase):
    def test_the_ratio_is_taken_round_by_round(self):
        # round 1: 1,100 / 1,000; round 2: 1,300 / 1,300
        runs = {"vanilla": [{("walk_ns", 10000): 1000.0}, {("walk_ns", 10000): 1300.0}],
                "patched": [{("walk_ns", 10000): 1100.0}, {("walk_ns", 10000): 1300.0}]}
        with tempfile.TemporaryDirectory() as d, mock.patch("builtins.print"):
            bench_walk.report("x86_64", Path(d), runs, 2)
            md = (Path(d) / "results.md").read_text()
        self.assertIn("| 10,000 | 1,150 [1,000-1,300] | 1,200 [1,100-1,300] | "
                      "1.050 [1.000-1.100] |", md)
        # a size never measured is a dash, not a number
        self.assertIn("| 16 | - | - | - |", md)
        self.assertIn("make bench-walk ARCH=x86_64 ROUNDS=2", md)


if __name__ == "__main__":
    unittest.main()
