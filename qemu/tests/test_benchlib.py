# SPDX-License-Identifier: GPL-2.0
"""benchlib: the order of the boots, a boot again on a lost clock, which boots'
figures are used, where results go, raw.tsv, and the verdict of a ratio.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import benchlib  # noqa: E402
import config  # noqa: E402

TSC = "[    0.5] clocksource: Switched to clocksource tsc"
JIFFIES = "[    2.1] clocksource: Switched to clocksource jiffies"


class BootRounds(unittest.TestCase):
    def test_each_boot_s_figures_go_to_raw_tsv_and_a_bad_boot_ends_the_run(self):
        ok = ["BENCH walk_ns 16 1055.0", "# harness: end walk exit=0"]
        with tempfile.TemporaryDirectory() as d, mock.patch("builtins.print") as shown:
            out = Path(d)
            runs = benchlib.boot_rounds("b", ["v", "p"], 2, out,
                                        lambda k, job: (ok + [f"BENCH job 0 {len(job)}"], "ok", 1.0),
                                        lambda line: line.startswith("prog:"))
            self.assertEqual(runs["v"][1][("walk_ns", 16)], 1055.0)
            self.assertEqual(benchlib.load_raw(out), runs)
            # the boots are named after the kernel, the results and the round
            self.assertEqual(runs["p"][0][("job", 0)], len(f"bench-p-{out.name}-r0"))
            bad = benchlib.boot_rounds("b", ["v"], 1, out,
                                       lambda k, job: (ok + ["prog: no memory"], "ok", 1.0),
                                       lambda line: line.startswith("prog:"))
        self.assertIsNone(bad)
        self.assertIn("prog: no memory", str(shown.call_args_list[-1].args[0]))


class Turns(unittest.TestCase):
    def order(self, kernels, rounds, mirror=False):
        return ["".join(k for r, k in benchlib.turns(kernels, rounds, mirror) if r == i)
                for i in range(rounds)]

    def test_each_kernel_takes_each_place_in_turn(self):
        self.assertEqual(self.order("ABC", 4), ["ABC", "BCA", "CAB", "ABC"])
        self.assertEqual(self.order("ABC", 3, mirror=True), ["ABC", "CBA", "ABC"])
        self.assertEqual(self.order("AB", 3), self.order("AB", 3, mirror=True))
        self.assertEqual(self.order("AB", 3), ["AB", "BA", "AB"])
        self.assertEqual(list(benchlib.turns(["A"], 0)), [])

    def test_run_rounds_keeps_each_kernel_s_rounds_in_order(self):
        with mock.patch("builtins.print") as shown:
            runs = benchlib.run_rounds("b", ["v", "p"], 2,
                                       lambda k, r: ({"r": r, "k": k}, f" note {k}{r}"))
        self.assertEqual(runs, {"v": [{"r": 0, "k": "v"}, {"r": 1, "k": "v"}],
                                "p": [{"r": 0, "k": "p"}, {"r": 1, "k": "p"}]})
        lines = [c.args[0] for c in shown.call_args_list]
        self.assertEqual(lines,
                         ["  b: round 1/2 v note v0", "  b: round 1/2 p note p0",
                          "  b: round 2/2 p note p1", "  b: round 2/2 v note v1"])


class Boots(unittest.TestCase):
    def boots(self, *consoles):
        """A boot() that gives each console in turn, and the calls it got"""
        calls = []

        def boot():
            calls.append(1)
            return consoles[len(calls) - 1], "ok", 1.0
        return boot, calls

    def test_a_guest_on_the_jiffies_clock_boots_again(self):
        self.assertIsNone(benchlib.lost_clock([TSC]))
        self.assertIsNone(benchlib.lost_clock(["no clocksource line"]))
        self.assertEqual(benchlib.lost_clock([TSC, JIFFIES]),
                         "clocksource: Switched to clocksource jiffies")
        boot, calls = self.boots([JIFFIES], [JIFFIES], [TSC, "BENCH a 1 2"])
        with mock.patch("builtins.print"):
            lines, _, _ = benchlib.boot_with_clock("b", "job", boot)
        self.assertEqual((lines, len(calls)), ([TSC, "BENCH a 1 2"], 3))

    def test_five_boots_without_a_clock_fail(self):
        boot, calls = self.boots(*[[JIFFIES]] * 6)
        with mock.patch("builtins.print"), self.assertRaises(benchlib.NoUsableClock) as e:
            benchlib.boot_with_clock("bench", "job", boot)
        self.assertEqual(len(calls), benchlib.CLOCK_TRIES)
        self.assertEqual(str(e.exception), "bench: job: no usable clock in 5 boots")
        self.assertIsInstance(e.exception, config.Failure)

    def test_figures_only_of_a_clean_boot(self):
        def figures(lines, outcome="ok"):
            return benchlib.boot_figures("b", "job", lambda: (lines, outcome, 2.0),
                                         lambda line: line.startswith("prog:"))
        self.assertEqual(figures(["BENCH m 10 1.5", "exit=0"]), ({("m", 10): 1.5}, 2.0))
        for lines, outcome in ((["prog: cannot set"], "ok"), (["exit=1"], "ok"),
                               (["BENCH m 10 1.5"], "timeout after 9s")):
            with self.assertRaises(benchlib.BadBoot) as e:
                figures(lines, outcome)
            self.assertIn("b: job: ", str(e.exception))
        # a kernel line naming the program is not its complaint
        self.assertEqual(figures(["[ 1.0] prog: vmalloc error", "BENCH m 1 2"])[0],
                         {("m", 1): 2.0})


class Places(unittest.TestCase):
    def test_results_boots_and_initramfs_names(self):
        with config.using(build=Path("/b")):
            out = benchlib.bench_dir("x86_64-frag")
        self.assertEqual(out, Path("/b/bench/x86_64-frag"))
        self.assertEqual(benchlib.job_of("patched", out, 2), "bench-patched-x86_64-frag-r2")
        self.assertEqual(benchlib.initramfs_of("vanilla", out),
                         Path("/b/bench/initramfs-vanilla-x86_64-frag.cpio"))

    def test_raw_tsv_gives_back_the_runs(self):
        runs = {"vanilla": [{("m", 1): 1.5, ("n", 0): 2.0}, {("m", 1): 3.0}],
                "patched": [{("m", 1): 0.5}]}
        with tempfile.TemporaryDirectory() as d:
            benchlib.write_raw(Path(d), runs)
            self.assertEqual(benchlib.load_raw(Path(d)), runs)


class Ratios(unittest.TestCase):
    def test_within_beyond_or_straddling_the_target(self):
        self.assertEqual(benchlib.verdict_of(0.5, 0.6, 0.7), "ok")
        self.assertEqual(benchlib.verdict_of(0.8, 0.9, 0.7), "MISS")
        self.assertEqual(benchlib.verdict_of(0.6, 0.8, 0.7), "inconclusive")

    def test_ratios_round_by_round(self):
        runs = {"p": [{("m", 1): 1.0}, {("m", 1): 3.0}], "v": [{("m", 1): 2.0}, {("m", 1): 0}]}
        self.assertEqual(benchlib.ratios_of(runs, "p", "v", ("m", 1)), [0.5])
        self.assertIsNone(benchlib.ratios_of(runs, "p", "x", ("m", 1)))
        self.assertIsNone(benchlib.ratios_of(runs, "p", "v", ("z", 1)))
        self.assertEqual(benchlib.ratio_of(runs, "v", "p", ("m", 1)), (1.0, 0.0, 2.0))

    def test_the_interval_is_the_median_s_over_resampled_rounds(self):
        self.assertEqual(benchlib.bootstrap([0.5]), (0.5, 0.5))
        self.assertEqual(benchlib.bootstrap([0.5] * 9), (0.5, 0.5))
        ratios = [0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.3]
        lo, hi = benchlib.bootstrap(ratios)
        self.assertTrue(0.9 <= lo < 1.05 < hi <= 1.3, (lo, hi))
        self.assertEqual(benchlib.bootstrap(ratios), (lo, hi))          # seeded: repeatable
        # one wild round moves the median's interval little
        self.assertLess(benchlib.bootstrap(ratios[:-1] + [50.0])[1], 1.3)


if __name__ == "__main__":
    unittest.main()
