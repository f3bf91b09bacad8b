# SPDX-License-Identifier: GPL-2.0
"""parser: a guest's console read into results, on recorded logs (qemu/testdata/).
"""

import sys
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import parser  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "testdata"


def parse(name, kunit=True, outcome="ok"):
    """(outcome, results) of a recorded console log, as boot_plan would make them."""
    lines = (DATA / name).read_text().splitlines()
    outcome = parser.console_outcome(lines, outcome)
    return outcome, parser.analyse(lines, outcome, "t", kunit)


def fails(results):
    return {n: d for n, s, d in results if s == "fail"}


class ConsoleLogs(unittest.TestCase):
    def test_pass(self):
        outcome, results = parse("pass.log")
        self.assertEqual(outcome, "ok")
        self.assertEqual(fails(results), {})
        names = [n for n, _, _ in results]
        self.assertEqual(len(names), len(set(names)), "result names must be unique")
        self.assertIn(("t/kunit/groups/groups_test_sort/n=1023", "pass", ""), results)
        self.assertIn(("t/kunit/groups/groups_test_alloc_limits", "pass", ""), results)
        self.assertIn(("t/kunit/groups suite reported", "pass", ""), results)
        self.assertIn(("t/x86_64/groups_test/global.compat16_overflow", "skip",
                       "no 16-bit group calls in this ABI"), results)
        self.assertIn(("t/i386/groups_test/global.compat16_overflow", "pass", ""), results)
        count = {s: sum(1 for r in results if r[1] == s) for s in ("pass", "fail", "skip")}
        self.assertEqual(count, {"pass": 25 + 1 + 3 + 2 + 2, "fail": 0, "skip": 1})

    def test_kunit_failure(self):
        outcome, results = parse("kunit-failure.log")
        self.assertEqual(outcome, "ok")
        self.assertEqual(list(fails(results)), ["t/kunit/groups/groups_test_sort/n=1023"])

    def test_a_later_suite_s_own_failure_counts(self):
        # groups fails in a case (its summary line is not counted again);
        # the console dropped the line of ksmbd_user's failing case: only
        # the suite's own "not ok" says it failed
        outcome, results = parse("kunit-later-suite-failure.log")
        self.assertEqual(outcome, "ok")
        self.assertEqual(list(fails(results)), ["t/kunit/groups/groups_test_sort/n=1023",
                                                "t/kunit/ksmbd_user"])

    def test_panic(self):
        outcome, results = parse("panic.log")
        self.assertIn("Kernel panic", outcome)
        f = fails(results)
        self.assertIn("Kernel panic", f["t/boot"])
        self.assertEqual(f["t/x86_64/groups_test"], "no end (crash or timeout)")

    def test_oops(self):
        outcome, results = parse("oops.log")
        self.assertIn("BUG: kernel NULL pointer dereference", outcome)
        f = fails(results)
        self.assertEqual(set(f), {"t/boot", "t/x86_64/groups_test/global.block_edges"})

    def test_warn_fails_a_boot_whose_tests_passed(self):
        outcome, results = parse("warn.log")
        self.assertIn("WARNING: CPU: 0 PID: 68 at kernel/groups.c:142", outcome)
        self.assertEqual(list(fails(results)), ["t/boot"])

    def test_hang(self):
        for given in ("ok", "timeout after 900s"):
            outcome, results = parse("hang.log", outcome=given)
            self.assertNotEqual(outcome, "ok")
            f = fails(results)
            self.assertEqual(f["t/x86_64/groups_test"], "no end (crash or timeout)")
            self.assertIn("t/boot", f)

    def test_program_that_printed_nothing(self):
        outcome, results = parse("silent.log")
        self.assertEqual(outcome, "ok")
        self.assertEqual(fails(results), {"t/x86_64/groups_users_test": "reported no test"})

    def test_missing_kunit_suite(self):
        lines = (DATA / "no-kunit.log").read_text().splitlines()
        for log in (lines, [x for x in lines if "KTAP" not in x and "1..0" not in x]):
            outcome = parser.console_outcome(log)
            self.assertEqual(outcome, "ok")
            self.assertEqual(list(fails(parser.analyse(log, outcome, "t", kunit=True))),
                             ["t/kunit/groups suite reported"])
            # the bisect kernels before the suite's patch have none: no failure
            self.assertEqual(fails(parser.analyse(log, outcome, "t", kunit=False)), {})


class Reading(unittest.TestCase):
    def test_a_boot_s_console_is_read_once(self):
        lines = (DATA / "kunit-failure.log").read_text().splitlines()
        feed, problem = parser.Segments.feed, parser.kernel_problem
        with mock.patch.object(parser.Segments, "feed", autospec=True,
                               side_effect=feed) as fed, \
                mock.patch.object(parser, "kernel_problem", side_effect=problem) as looked:
            console = parser.Console()
            for line in lines:
                console.feed(line)
            outcome = console.outcome()
            results = parser.analyse(console, outcome, "t", kunit=True)
        self.assertEqual((fed.call_count, looked.call_count), (len(lines), len(lines)))
        self.assertEqual(console, lines)
        self.assertEqual((outcome, results), parse("kunit-failure.log"))

    def test_a_saved_log_splits_as_the_boot_did(self):
        console = parser.read_log("a\r\nb\x0cc\n# harness: done\n")
        self.assertEqual(console, ["a", "b\x0cc", "# harness: done"])
        self.assertTrue(console.done)
        self.assertEqual(parser.read_log("a\npartial"), ["a", "partial"])


class Markers(unittest.TestCase):
    def test_segments_split_a_line_a_program_left_unterminated(self):
        seg = parser.Segments()
        fed = [seg.feed(x) for x in [
            "[    1.0] Linux version", "# harness: begin a/prog", "ok 1 x",
            "partial# harness: end a/prog exit=0", "[    2.0] kernel line",
            "# harness: begin b/prog", "# digest: 0123456789abcdef ops=5"]]
        self.assertEqual(fed, [[], [], ["ok 1 x"], ["partial"], [], [],
                               ["# digest: 0123456789abcdef ops=5"]])
        kernel, programs = seg.finish()
        self.assertEqual(kernel, ["[    1.0] Linux version", "[    2.0] kernel line"])
        self.assertEqual(programs, [("a/prog", ["ok 1 x", "partial"], "exit=0"),
                                    ("b/prog", ["# digest: 0123456789abcdef ops=5"],
                                     "no end (crash or timeout)")])
        self.assertEqual(parser.segments(["# harness: begin p", "# harness: end p timeout"]),
                         ([], [("p", [], "timeout")]))


if __name__ == "__main__":
    unittest.main()
