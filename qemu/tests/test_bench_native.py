# SPDX-License-Identifier: GPL-2.0
"""make bench-native's instruction counts: per call from callgrind's totals, and the
table's verdicts against the targets.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_native as bn  # noqa: E402
import config  # noqa: E402


def ran(stdout="", stderr="", returncode=0):
    """What subprocess.run gives for a program that printed stdout and stderr"""
    return mock.Mock(stdout=stdout, stderr=stderr, returncode=returncode)


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

    def test_callgrind_gives_the_region_s_instructions_and_the_calls_of_a_pass(self):
        out = ran("COUNT search 8 16\n", "==12== Events    : Ir\n==12== Collected : 4567\n")
        with mock.patch.object(bn.subprocess, "run", return_value=out):
            self.assertEqual(bn.callgrind(Path("/b/exe"), "search", 8, 2), (4567, 16))
        for bad in (ran("COUNT search 8 16\n", "==12== Collected : 4567\n", returncode=1),
                    ran("COUNT search 8 16\n", "valgrind: no such tool\n"),
                    ran("", "==12== Collected : 4567\n")):
            with mock.patch.object(bn.subprocess, "run", return_value=bad), \
                    self.assertRaises(config.Failure):
                bn.callgrind(Path("/b/exe"), "search", 8, 2)


class Programs(unittest.TestCase):
    def tree(self, d, to_user):
        for f, text in (("include/linux/cred.h", "void group_info_set_gid(void);\n"),
                        ("kernel/groups.c", f"int groups_cmp(void);\n{to_user}\n"),
                        ("lib/sort.c", "")):
            (d / f).parent.mkdir(parents=True, exist_ok=True)
            (d / f).write_text(text)
        return d

    def test_the_build_follows_the_tree_and_refuses_warnings(self):
        calls = []

        def gcc(cmd, **kw):
            calls.append([str(x) for x in cmd])
            return warn

        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d) / "build"):
            d = Path(d)
            for to_user, defined in (
                    ("static int groups_to_user(gid_t __user *grouplist,\n"
                     "\t\t\t  const struct group_info *group_info, unsigned int max)", True),
                    ("static int groups_to_user(gid_t __user *grouplist,\n"
                     "\t\t\t  const struct group_info *group_info)", False)):
                calls.clear()
                warn = ""
                tree = self.tree(d / "tree", to_user)
                with mock.patch.object(bn, "tree_of", return_value=tree), \
                        mock.patch.object(bn, "sh", side_effect=gcc):
                    bn.build("patched", [])
                units = [c for c in calls if "-nostdinc" in c]
                self.assertEqual(len(units), len(bn.KERNEL_UNITS))
                for c in units:
                    self.assertEqual("-DBENCH_TO_USER_MAX" in c, defined)
                    self.assertIn("-DBENCH_GROUPS_CMP", c)
                    self.assertIn("-DBENCH_GROUP_INFO_ACCESSORS", c)
            # a warning (a stand-in the tree needs, missing) stops the run
            warn = "cred.h:400:43: warning: implicit declaration of function 'IS_ERR_OR_NULL'"
            with mock.patch.object(bn, "tree_of", return_value=tree), \
                    mock.patch.object(bn, "sh", side_effect=gcc), \
                    self.assertRaisesRegex(config.Failure, "IS_ERR_OR_NULL"):
                bn.build("patched", [])

    def test_a_run_s_figures_allocations_and_info_lines(self):
        out = ran("INFO cold_sets 1024 100 1.2MB\nBENCH search_hot_first 16 12.5\n"
                  "ALLOCS sort_random 1024 1.0 0\nnot a figure\n")
        with mock.patch.object(bn.subprocess, "run", return_value=out):
            self.assertEqual(bn.run(Path("/b/exe"), 3, 1, 1 << 20),
                             ({("search_hot_first", 16): 12.5},
                              {("sort_random", 1024): (1.0, 0.0)},
                              ["INFO cold_sets 1024 100 1.2MB"]))
        with mock.patch.object(bn.subprocess, "run", return_value=ran("", "oom", 2)), \
                self.assertRaises(config.Failure) as e:
            bn.run(Path("/b/exe"), 3, 1, 1 << 20)
        self.assertIn("exe --seed 1 exited 2", str(e.exception))

    def test_the_kernels_must_measure_the_same_metrics(self):
        args = SimpleNamespace(cpu=1, tcg=False, only=None, kernels=["vanilla", "patched"],
                               rounds=2)
        figures = {"/v": {("search_hot_first", 16): 1.0}, "/p": {("search_hot_first", 16): 2.0}}

        def run(exe, *a):
            return figures[str(exe)], {}, []
        exes = {"vanilla": Path("/v"), "patched": Path("/p")}
        with mock.patch.object(bn, "run", side_effect=run), mock.patch("builtins.print"):
            runs, _, _ = bn.timed_rounds(args, exes, 1 << 20)
            self.assertEqual(runs["patched"], [{("search_hot_first", 16): 2.0}] * 2)
            figures["/p"] = {("search_hot_last", 16): 2.0}
            with self.assertRaises(config.Failure):
                bn.timed_rounds(args, exes, 1 << 20)


class Notes(unittest.TestCase):
    def test_only_rows_whose_probes_fit_the_cache_are_not_cold(self):
        # 100 sets of 1,024: 76,800 bytes of probes; 10^6 sets of 65,536: 1.1 GB
        huge = "65536 1000000 262152000000"
        meta = {"llc": 1 << 30, "cold_sets": ["1024 100 819200", huge]}
        notes = bn.cold_notes(meta)
        self.assertEqual(len(notes), 1)
        self.assertIn("at N=1024 (100 sets", notes[0])
        self.assertNotIn("N=65536", notes[0])
        self.assertIn("fit in 32 MiB of cache", notes[0])       # at most a chiplet's L3
        self.assertEqual(bn.cold_notes({"llc": 1 << 30, "cold_sets": [huge]}), [])

    def test_a_sort_that_allocates_must_reach_its_fallback(self):
        notes = bn.fallback_notes({"vanilla": {("sort_random", 1024): (1.0, 0.0),
                                               ("sort_nomem_random", 1024): (0.0, 0.0)}})
        self.assertEqual(len(notes), 1)
        self.assertIn("vanilla: groups_sort() asked for no memory at any N", notes[0])
        reached = {("sort_random", 1024): (1.0, 0.0), ("sort_nomem_random", 1024): (0.0, 5.0)}
        notes = bn.fallback_notes({"patched": reached})
        self.assertEqual(len(notes), 1)
        self.assertIn("allocation-free sort, for random input at N = 1024", notes[0])
        notes = bn.fallback_notes({"patched": {**reached, ("sort_sorted", 65536): (1.0, 0.0),
                                               ("sort_nomem_sorted", 65536): (0.0, 0.0)}})
        self.assertEqual(notes[-1], "- patched: FALLBACK NOT REACHED although the normal sort "
                                    "allocates: sort_sorted N=65536")


class Report(unittest.TestCase):
    META = {"rounds": 1, "cpu": 3, "cpu_model": "cpu", "llc": 32 << 20, "llc_from": "sysfs",
            "cold": 128 << 20, "cc": "gcc", "cflags": ["-O2"], "cold_sets": [],
            "trees": {"vanilla": "v", "patched": "p"}, "no_counts": "none", "command": "make"}

    def misses(self, patched_sort, counts=None):
        runs = {"vanilla": [{("search_hot_random", 1024): 10.0, ("sort_random", 65536): 100.0}],
                "patched": [{("search_hot_random", 1024): 10.0,
                             ("sort_random", 65536): patched_sort}]}
        with tempfile.TemporaryDirectory() as d, mock.patch.object(bn, "plot"), \
                mock.patch("builtins.print"):
            return bn.report(Path(d), runs, {}, self.META, counts)

    def test_a_time_beyond_its_target_or_a_count_beyond_its_own_is_a_miss(self):
        self.assertEqual(self.misses(20.0), [])                   # sort_random: <= 0.3
        self.assertEqual(self.misses(50.0), ["sort_random N=65536"])
        counts = {"vanilla": {("compare", 8): 100.0}, "patched": {("compare", 8): 120.0}}
        self.assertEqual(self.misses(20.0, counts), ["compare N=8"])


class Exit(unittest.TestCase):
    def test_a_missed_target_is_a_non_zero_exit(self):
        with mock.patch("builtins.print") as shown:
            self.assertEqual(bn.missed([], 0, "out/"), 0)
            self.assertEqual(bn.missed(["sort_random N=65536"], 0, "out/"), 1)
        self.assertIn("targets missed beyond the run's noise: sort_random N=65536",
                      shown.call_args.args[0])


if __name__ == "__main__":
    unittest.main()
