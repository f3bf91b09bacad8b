# SPDX-License-Identifier: GPL-2.0
"""make bench-native's instruction counts: per call from callgrind's totals, and the
table's verdicts against the targets.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_native as bn  # noqa: E402
import config  # noqa: E402


class InstructionCounts(unittest.TestCase):
    def test_per_call_is_the_second_runs_calls_and_needs_linear_counts(self):
        # 1000 outside the calls, 20 to enter their loop, 34.5 a call
        calls = 1 << 14
        self.assertEqual(bn.per_call(1000, 1020 + 34.5 * calls, 1020 + 69 * calls, calls),
                         34.5)
        with self.assertRaises(config.Failure):      # the first calls cost one more each
            bn.per_call(1000, 1000 + 35.5 * calls, 1000 + 70 * calls, calls)

    def test_targets_absolute_for_inline_lists_ratios_for_the_rest(self):
        counts = {"vanilla": {("search", 8): 60.0, ("search", 1023): 100.0,
                              ("search", 10000): 150.0,
                              ("to_user", 0): 20.0, ("to_user", 1): 40.0},
                  "patched": {("search", 8): 61.5, ("search", 1023): 150.0,
                              ("search", 10000): 172.5,
                              ("to_user", 0): 40.0, ("to_user", 1): 42.5}}
        md, misses = bn.icount_report(counts)
        self.assertEqual(misses, ["search N=8", "to_user N=1"])
        cells = [[c.strip() for c in x.split("|")[1:-1]] for x in md if x.startswith("| ")]
        rows = {tuple(c[:2]): c[2:] for c in cells[1:]}
        self.assertEqual(rows[("search", "8")],
                         ["60.0", "61.5", "+1.5", "1.025", "<= vanilla + 1", "MISS"])
        self.assertEqual(rows[("search", "1023")][-2:], ["", ""])   # no target there
        self.assertEqual(rows[("search", "10000")][-2:], ["<= 1.15", "ok"])
        self.assertEqual(rows[("to_user", "0")][-2:], ["", ""])     # no target at 0
        self.assertEqual(rows[("to_user", "1")][-2:], ["<= 1.05", "MISS"])
        self.assertEqual(md[-1], "Instruction targets missed: search N=8, to_user N=1")


if __name__ == "__main__":
    unittest.main()
