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


def table(runs, rounds):
    """bench_walk.report()'s results.md for runs"""
    with tempfile.TemporaryDirectory() as d, mock.patch("builtins.print"):
        bench_walk.report("x86_64", Path(d), runs, rounds)
        return (Path(d) / "results.md").read_text()


class Report(unittest.TestCase):
    def test_the_ratio_is_taken_round_by_round(self):
        # round 1: 1,100 / 1,000; round 2: 1,300 / 1,300
        key = ("walk_ns", 10000)
        md = table({"vanilla": [{key: 1000.0}, {key: 1300.0}],
                    "patched": [{key: 1100.0}, {key: 1300.0}]}, 2)
        for row in ("| 10,000 | 1,150 [1,000-1,300] | 1,200 [1,100-1,300] | 1.050 [1.000-1.100] |",
                    "| 16 | - | - | - |",                  # never measured: a dash
                    "Command: `make bench-walk ARCH=x86_64 ROUNDS=2"):
            self.assertIn(row, md)


if __name__ == "__main__":
    unittest.main()
