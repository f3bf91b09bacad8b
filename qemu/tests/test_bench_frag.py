# SPDX-License-Identifier: GPL-2.0
"""bench_frag: the report's checks and exit status on a made-up round.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_frag  # noqa: E402
import config  # noqa: E402


def round_of(kernel, stalls=0, free_ge4=0):
    run = {("page_size", 0): 4096, ("frag_free_ge4", 0): free_ge4}
    for n in bench_frag.SIZES:
        run[("frag_free_ge4_before", n)] = 0
        for m in ("vm_compact_stall", "vmalloc_sets", "enomem"):
            run[(f"frag_{m}", n)] = stalls if m == "vm_compact_stall" else 0
        for phase in bench_frag.PHASES:
            run[(f"{phase}_lat_median", n)] = 10.0 if kernel == "patched" else 20.0
    return run


class Report(unittest.TestCase):
    def report(self, runs):
        with tempfile.TemporaryDirectory() as d, mock.patch("builtins.print"):
            status = bench_frag.report("x86_64", Path(d), runs, 1)
            return status, (Path(d) / "results.md").read_text()

    def test_a_patched_stall_or_a_free_large_block_fails(self):
        good = {"vanilla": [round_of("vanilla", stalls=7)], "patched": [round_of("patched")]}
        status, md = self.report(good)
        self.assertEqual(status, 0)
        self.assertIn("compact_stall 7", md)
        self.assertIn("the scenario bites", md)
        self.assertIn("| clean | 10000 | median | 0.02 | 0.01 | 0.500", md)
        status, md = self.report({**good, "patched": [round_of("patched", stalls=1)]})
        self.assertEqual(status, 1)
        self.assertIn("MISS: round 1: frag_vm_compact_stall N=10000 = 1", md)
        status, md = self.report({**good, "vanilla": [round_of("vanilla", free_ge4=3)]})
        self.assertEqual(status, 1)
        self.assertIn("FAILED: vanilla round 1: frag_free_ge4 0 = 3", md)


class Configs(unittest.TestCase):
    def check(self, vanilla, patched):
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)):
            for kernel, text in (("vanilla", vanilla), ("patched", patched)):
                out = bench_frag.out_dir(kernel, "x86_64")
                out.mkdir(parents=True)
                (out / ".config").write_text(text)
            bench_frag.check_configs("x86_64")

    def test_the_two_kernels_must_be_configured_alike(self):
        self.check("CONFIG_A=y\nCONFIG_B=8\n", "CONFIG_A=y\nCONFIG_B=8\n")
        # the patched tree's KUnit option, not set there and absent from vanilla, is alike
        self.check("CONFIG_A=y\n", "CONFIG_A=y\n# CONFIG_GROUPS_KUNIT_TEST is not set\n")
        with self.assertRaises(config.Failure) as e:
            self.check("CONFIG_A=y\nCONFIG_B=8\n", "CONFIG_A=y\nCONFIG_B=16\n")
        self.assertIn("configs differ: CONFIG_B=8/16", str(e.exception))
        with self.assertRaises(config.Failure) as e:
            self.check("CONFIG_A=y\n", "CONFIG_A=y\nCONFIG_KUNIT=y\n")
        self.assertIn("CONFIG_KUNIT=n/y", str(e.exception))


class Latency(unittest.TestCase):
    def test_the_patched_kernel_must_be_no_slower(self):
        def rows(vanilla, patched):
            key = ("frag_lat_p99", 65536)
            return [x for x in bench_frag.latency_rows({"vanilla": [{key: v} for v in vanilla],
                                                        "patched": [{key: p} for p in patched]})
                    if x.startswith("| frag | 65536 | p99 |")]
        self.assertTrue(rows([20.0] * 3, [10.0] * 3)[0].endswith("| 0.500 [0.500-0.500] | ok |"))
        self.assertTrue(rows([20.0] * 3, [30.0] * 3)[0].endswith("| MISS |"))
        self.assertTrue(rows([20.0] * 3, [10.0, 30.0, 10.0])[0].endswith("| inconclusive |"))
        self.assertEqual(rows([0.0] * 3, [10.0] * 3), [])        # no ratio: no row


class Main(unittest.TestCase):
    def test_pages_above_4k_have_nothing_to_measure(self):
        args = SimpleNamespace(target="x86_64", report_only=False)
        with mock.patch.object(bench_frag, "cmd_bench", return_value=7) as run, \
                mock.patch("builtins.print") as shown:
            self.assertEqual(bench_frag.cmd_main(args), 7)
            self.assertEqual(run.call_count, 1)
            self.assertEqual(bench_frag.cmd_main(SimpleNamespace(target="arm64-64k",
                                                                 report_only=False)), 0)
            self.assertEqual(run.call_count, 1)
        self.assertIn("arm64-64k has 64K pages", shown.call_args.args[0])


if __name__ == "__main__":
    unittest.main()


class Outcome(unittest.TestCase):
    # 7.3 with two vCPUs: the console prints the kernel's OOM report of the
    # cgroup test after the program's own "FRAG cgroup-end" line
    LATE = ["FRAG cgroup-begin clean", "[    6.80] groups_frag cgroup-begin clean",
            "BENCH clean_cg_sets 65536 33.0", "FRAG cgroup-end clean",
            "[    6.86] groups_frag invoked oom-killer: gfp_mask=0x402cc2, order=0",
            "[    6.86] CPU: 0 UID: 0 PID: 77 Comm: groups_frag",
            "[    6.86] Call Trace:",
            "[    6.87] groups_frag: vmalloc error: size 266240, failed to allocate pages",
            "[    6.87] Call Trace:",
            "[    6.90] groups_frag cgroup-end clean"]

    def test_the_kernel_logs_markers_bound_the_expected_reports(self):
        ok = bench_frag.outcome_of(self.LATE, "kernel problem")
        self.assertFalse(ok.startswith("kernel problem"), ok)
        # a stack dump after the kernel's end marker is a problem
        late = self.LATE + ["[    7.00] WARNING: at mm/slub.c", "[    7.00] Call Trace:"]
        self.assertTrue(bench_frag.outcome_of(late, "kernel problem").startswith(
            "kernel problem in the console log: [    7.00] WARNING"))
        # without the kernel's markers, the console's bound the window: the
        # late report is outside it, as it was before the markers existed
        old = [x for x in self.LATE if "] groups_frag cgroup-" not in x]
        self.assertTrue(bench_frag.outcome_of(old, "kernel problem").startswith(
            "kernel problem in the console log: [    6.86] Call Trace:"))
