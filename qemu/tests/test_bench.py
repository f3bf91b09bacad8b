# SPDX-License-Identifier: GPL-2.0
"""bench: the memory check and the targets missed beyond the noise, which
decide make bench's exit status.
"""

import io
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path
from unittest import mock

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


class Rows(unittest.TestCase):
    def row(self, m, n, vanilla, patched):
        runs = {"vanilla": [{(m, n): v} for v in vanilla],
                "patched": [{(m, n): p} for p in patched]}
        return bench.metric_row(runs, m, n, 4096, "upto-0015")

    def test_a_ratio_is_ok_within_its_target_a_miss_beyond_inconclusive_across(self):
        # getgroups at N=65,536: patched/vanilla <= 0.1
        row, miss, cover = self.row("getgroups", 65536, [100.0] * 3, [5.0] * 3)
        self.assertEqual((miss, cover[3]), ([], "<= 0.1 ok"))
        row, miss, cover = self.row("getgroups", 65536, [100.0] * 3, [50.0] * 3)
        self.assertEqual((miss, cover[3]), (["getgroups N=65536"], "<= 0.1 MISS"))
        row, miss, _ = self.row("getgroups", 65536, [100.0] * 3, [5.0, 50.0, 5.0])
        self.assertEqual(miss, ["getgroups N=65536 (inconclusive)"])
        # no target for this metric at this N: no verdict, never a miss
        row, miss, cover = self.row("getgroups", 1024, [100.0] * 3, [500.0] * 3)
        self.assertEqual((miss, cover[3]), ([], ""))

    def test_a_zero_count_must_be_zero_on_the_patched_kernel(self):
        _, miss, cover = self.row("requests_gt_page", 65536, [1.0], [0.0])
        self.assertEqual((miss, cover[3]), ([], "0 (patched) ok"))
        _, miss, _ = self.row("requests_gt_page", 65536, [1.0], [0.0, 1.0])
        self.assertEqual(miss, ["requests_gt_page N=65536"])

    def test_no_ratio_without_vanilla_and_no_row_without_both_kernels(self):
        row, miss, cover = self.row("getgroups", 65536, [0.0], [5.0])
        self.assertIn("- (vanilla 0)", row)
        self.assertEqual((miss, cover), ([], None))
        self.assertIsNone(bench.metric_row({"vanilla": [{}], "patched": [{("getgroups", 1): 1.0}]},
                                           "getgroups", 1, 4096, "upto-0015"))


def mem_runs(patched_10000):
    """make bench's memory figures: vanilla's and patched's as computed, but patched's at 10,000"""
    return {"vanilla": [{("mem_measured", 10000): 65536.0, ("mem_freed", 10000): 65536.0,
                         ("mem_measured", 65536): 524288.0, ("getgroups", 65536): 100.0}],
            "patched": [{("mem_measured", 10000): patched_10000,
                         ("mem_freed", 10000): patched_10000,
                         ("mem_measured", 65536): 262928.0, ("getgroups", 65536): 50.0}]}


class MemoryTable(unittest.TestCase):
    def test_measured_must_be_computed_for_every_kernel(self):
        md, failures = bench.memory_table("x86_64", mem_runs(41744.0), 4096)
        self.assertEqual(failures, [])
        self.assertIn("Memory measured against computed: 0 failure(s)", md)
        md, failures = bench.memory_table("x86_64", mem_runs(41745.0), 4096)
        self.assertEqual(len(failures), 1)
        self.assertIn("patched N=10000 round 1: measured 41,745, computed 41,744", failures[0])
        silent = {**mem_runs(41744.0), "upto-0015": [{("getgroups", 65536): 1.0}]}
        _, failures = bench.memory_table("x86_64", silent, 4096)
        self.assertEqual(len(failures), 1)
        self.assertIn("upto-0015: no mem_measured in any round", failures[0])


class Report(unittest.TestCase):
    def test_the_lookups_run_has_no_memory_check(self):
        with tempfile.TemporaryDirectory() as d, mock.patch.object(bench, "plot"), mock.patch("builtins.print"):
            failures, misses = bench.report("x86_64", Path(d), mem_runs(1.0), 1)
            self.assertEqual(len(failures), 1)
            self.assertEqual(misses, ["getgroups N=65536"])
            failures, misses = bench.report("x86_64", Path(d), mem_runs(1.0), 1, lookups=True)
            self.assertEqual((failures, misses), ([], ["getgroups N=65536"]))
            self.assertIn("| getgroups | 65536 | 100 | 50 |",
                          (Path(d) / "results.md").read_text())


if __name__ == "__main__":
    unittest.main()
