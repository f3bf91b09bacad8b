# SPDX-License-Identifier: GPL-2.0
"""make kunit and the fast mutants: kunit.py's command and its verdict, on
recorded output of the series' suites on UML.
"""

import sys
import tempfile
import unittest
from types import SimpleNamespace
from unittest import mock
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import harness  # noqa: E402
import kunit_tool  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "testdata"


class Verdict(unittest.TestCase):
    def test_all_passed(self):
        out = (DATA / "kunit-tool-pass.log").read_text()
        self.assertEqual(kunit_tool.verdict(out, 0), ("pass", [], (208, 208)))

    def test_failed_suites_are_named(self):
        out = (DATA / "kunit-tool-fail.log").read_text()
        state, why, counts = kunit_tool.verdict(out, 1)
        self.assertEqual(state, "fail")
        self.assertEqual(why, ["KUnit groups_test_search", "KUnit groups_test_search_duplicates",
                               "KUnit groups_test_search_unsorted_call"])
        self.assertLess(counts[1], counts[0])

    def test_a_non_zero_exit_is_never_a_pass(self):
        out = (DATA / "kunit-tool-pass.log").read_text()
        self.assertEqual(kunit_tool.verdict(out, 1)[0], "fail")

    def test_no_result_is_a_crash_or_a_build_error(self):
        out = (DATA / "kunit-tool-pass.log").read_text()
        cut = out[:out.index("Testing complete")]
        self.assertEqual(kunit_tool.verdict(cut, 1)[0], "fail")
        self.assertEqual(kunit_tool.verdict(
            "Building KUnit Kernel ...\nkernel/groups.c:300:1: error: expected ';'\n"
            "make[2]: *** Error 1", 1)[0], "build")
        # a kernel that printed "error:" after it started was built
        self.assertEqual(kunit_tool.verdict(
            "Building KUnit Kernel ...\nStarting KUnit Kernel (1/1)...\nerror: x\n", 1)[0],
            "fail")
        with self.assertRaises(kunit_tool.Failure):
            kunit_tool.verdict("Traceback: no space left on device\n", 1)

    def test_a_kasan_report_fails_a_run_whose_tests_passed(self):
        out = (DATA / "kunit-tool-pass.log").read_text()
        log = ("[    0.5] WARNING: CPU: 0 PID: 1 at arch/um/drivers/virt-pci.c:886\n"
               "[    2.0] KTAP version 1\n[    2.1] ok 1 groups_test_layout\n"
               "[    2.2] BUG: KASAN: stack-out-of-bounds in groups_radix_permute+0xe9/0x310\n")
        self.assertEqual(kunit_tool.verdict(out, 0, log),
                         ("fail", ["kernel: [    2.2] BUG: KASAN: stack-out-of-bounds in "
                                   "groups_radix_permute+0xe9/0x310"], (208, 208)))
        # UML's boot warnings come before the suites
        self.assertEqual(kunit_tool.verdict(out, 0, "\n".join(log.split("\n")[:3]))[0], "pass")

    def test_all_failed_has_no_passed_count(self):
        out = (DATA / "kunit-tool-fail.log").read_text().replace(
            "Ran 208 tests: passed: 181, failed: 27", "Ran 208 tests: failed: 208")
        self.assertEqual(kunit_tool.verdict(out, 1)[2], (208, 0))


class Command(unittest.TestCase):
    def test_qemu_arches_cross_compile_uml_does_not(self):
        arm = kunit_tool.kunit_cmd("arm64")
        self.assertIn("--arch=arm64", arm)
        self.assertTrue(any(a.startswith("--cross_compile=aarch64-linux-gnu") for a in arm))
        self.assertIn("kernel/groups.kunitconfig", arm)
        self.assertFalse(any(a.startswith(("--arch", "--cross")) for a in kunit_tool.kunit_cmd("um")))
        self.assertIn("--arch=x86_64", kunit_tool.kunit_cmd("x86_64"))

    def test_no_arch_given_means_x86_64_and_arm64(self):
        """make kunit passes no architecture unless KUNIT_ARCHS is set"""
        args = harness.parser().parse_args(["kunit"])
        with mock.patch.object(kunit_tool, "ensure_patched", side_effect=StopIteration):
            with self.assertRaises(StopIteration):
                args.fn(args)
        self.assertEqual(args.archs, ["x86_64", "arm64"])
        self.assertEqual(harness.parser().parse_args(["kunit", "um"]).archs, ["um"])
        bad = harness.parser().parse_args(["kunit", "riscv"])
        with self.assertRaises(kunit_tool.Failure):
            bad.fn(bad)


class Runs(unittest.TestCase):
    def test_the_suites_are_those_the_tree_has(self):
        with tempfile.TemporaryDirectory() as tree:
            self.assertEqual(kunit_tool.kunitconfigs(tree), [])
            Path(tree, "kernel").mkdir()
            Path(tree, "kernel/groups.kunitconfig").write_text("CONFIG_KUNIT=y\n")
            self.assertEqual(kunit_tool.kunitconfigs(tree), ["kernel/groups.kunitconfig"])
            Path(tree, "fs/smb/server").mkdir(parents=True)
            Path(tree, "fs/smb/server/.kunitconfig").write_text("CONFIG_KUNIT=y\n")
            self.assertEqual(kunit_tool.kunitconfigs(tree), list(kunit_tool.KUNITCONFIGS))

    def test_only_a_passing_verdict_passes_an_architecture(self):
        verdicts = {"um": ("build", ["does not build"], None),
                    "x86_64": ("pass", [], (208, 208)),
                    "arm64": ("fail", ["KUnit groups_test_search"], (208, 207))}
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(kunit_tool, "ensure_patched", return_value=Path(d)), \
                mock.patch.object(kunit_tool, "run",
                                  side_effect=lambda tree, arch, *a, **kw: verdicts[arch]), \
                mock.patch("builtins.print"):
            self.assertEqual(kunit_tool.cmd_kunit(SimpleNamespace(archs=["x86_64"])), 0)
            self.assertEqual(kunit_tool.cmd_kunit(SimpleNamespace(archs=["x86_64", "um",
                                                                         "arm64"])), 1)
            lines = (Path(d) / "results/kunit.txt").read_text().splitlines()
        self.assertEqual([x.split("  # ")[0] for x in lines],
                         ["pass kunit: x86_64", "fail kunit: um", "fail kunit: arm64"])
        self.assertTrue(lines[1].endswith("does not build"), lines[1])
        self.assertTrue(lines[2].endswith("207 of 208 passed; KUnit groups_test_search"))


if __name__ == "__main__":
    unittest.main()
