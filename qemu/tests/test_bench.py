# SPDX-License-Identifier: GPL-2.0
"""bench: the memory check and the targets missed beyond the noise, which
decide make bench's exit status.
"""

import io
import sys
import unittest
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench  # noqa: E402


class Memory(unittest.TestCase):
    def test_a_round_off_by_any_byte_fails(self):
        layout = (520, 10)                       # 41,480 bytes with 4K pages
        ok = {("mem_measured", 10000): 41480, ("mem_freed", 10000): 41480}
        near = {("mem_measured", 10000): 41480 - 4096}
        off = {("mem_measured", 10000): 41480 + 4097, ("mem_freed", 10000): 41480 + 4097}
        failures, notes, check = bench.memory_rounds([ok, near, off, {}], "patched", 10000,
                                                     4096, layout)
        self.assertEqual(len(failures), 3)
        self.assertIn("round 2: measured 37,384, computed 41,480 (520 header + 10 pages)",
                      failures[0])
        self.assertIn("round 3: measured 45,577", failures[1])
        self.assertIn("round 4: no mem_measured", failures[2])
        self.assertEqual(notes, ["patched N=10000 round 2: frees not verified"])
        self.assertEqual(check, ["DIFF patched", "DIFF patched"])

    def test_frees_that_differ_are_flagged(self):
        run = {("mem_measured", 1): 16, ("mem_freed", 1): 8}
        failures, notes, check = bench.memory_rounds([run], "vanilla", 1, 4096, (16, 0))
        self.assertEqual((failures, check), ([], ["freed vanilla"]))


class Verdicts(unittest.TestCase):
    def test_only_a_miss_beyond_the_noise_fails_the_run(self):
        quiet = io.StringIO()
        with redirect_stdout(quiet):
            self.assertEqual(bench.verdict([], [], Path("out")), 0)
            self.assertEqual(bench.verdict([], ["lookup_miss N=1024 (inconclusive)"],
                                           Path("out")), 0)
            self.assertEqual(bench.verdict([], ["getgroups N=32", "lookup_miss N=1024 "
                                                "(inconclusive)"], Path("out")), 1)
            self.assertEqual(bench.verdict(["round 1: measured 8"], [], Path("out")), 1)
        self.assertIn("beyond the run's noise: getgroups N=32;", quiet.getvalue())
        self.assertNotIn("lookup_miss N=1024;", quiet.getvalue())


if __name__ == "__main__":
    unittest.main()
