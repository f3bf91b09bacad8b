# SPDX-License-Identifier: GPL-2.0
"""The harness's result parser on recorded console logs (qemu/testdata/).

python3 -m unittest discover -s qemu/tests   (make check runs these first)
"""

import argparse
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import harness as h  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "testdata"


def parse(name, kunit=True, outcome="ok"):
    """(outcome, results) of a recorded console log, as boot_plan would make them."""
    lines = (DATA / name).read_text().splitlines()
    outcome = h.console_outcome(lines, outcome)
    return outcome, h.analyse(lines, outcome, "t", kunit)


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
            outcome = h.console_outcome(log)
            self.assertEqual(outcome, "ok")
            self.assertEqual(list(fails(h.analyse(log, outcome, "t", kunit=True))),
                             ["t/kunit/groups suite reported"])
            # the bisect kernels before the suite's patch have none: no failure
            self.assertEqual(fails(h.analyse(log, outcome, "t", kunit=False)), {})


class Markers(unittest.TestCase):
    def test_segments_split_a_line_a_program_left_unterminated(self):
        seg = h.Segments()
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
        self.assertEqual(h.segments(["# harness: begin p", "# harness: end p timeout"]),
                         ([], [("p", [], "timeout")]))


class Rules(unittest.TestCase):
    def test_kunit_expected_from_the_config(self):
        with tempfile.TemporaryDirectory() as out:
            image = Path(out) / h.TARGETS["x86_64"]["image"]
            self.assertTrue(h.kunit_expected("patched", "x86_64", image))   # no .config
            (Path(out) / ".config").write_text("CONFIG_KUNIT=y\n")
            self.assertFalse(h.kunit_expected("bisect", "x86_64", image))
            self.assertFalse(h.kunit_expected("patched", "x86_64", image))
            (Path(out) / ".config").write_text("CONFIG_KUNIT=y\nCONFIG_GROUPS_KUNIT_TEST=y\n")
            self.assertTrue(h.kunit_expected("bisect", "x86_64", image))

    def test_checkpatch_error_warning_and_check_count(self):
        text = (DATA / "checkpatch-findings.txt").read_text()
        self.assertEqual([x.split(":")[0] for x in h.checkpatch_findings(text)],
                         ["CHECK", "WARNING", "ERROR"])
        self.assertEqual(h.checkpatch_findings(""), [])

    def test_unknown_names_and_missing_tools_are_one_line(self):
        def error(**kw):
            with self.assertRaises(h.Failure) as e:
                h.check_args(argparse.Namespace(**kw))
            self.assertNotIn("\n", str(e.exception))
            return str(e.exception)
        self.assertIn("x86_64, arm64, arm64-64k", error(targets=["arm"], kernel="patched"))
        self.assertIn("x86_64, arm64, arm64-64k", error(target="arm", kernel="patched"))
        self.assertIn("patched, vanilla, upto-NNNN or mutant-NAME",
                      error(targets=["x86_64"], kernel="foo"))
        self.assertIn("series has no patch 0099", error(targets=["x86_64"], kernel="upto-0099"))
        self.assertIn("the mutants are", error(targets=["x86_64"], kernel="mutant-nosuch"))
        with mock.patch.object(h.shutil, "which", return_value=None):
            msg = error(targets=["arm64"], kernel="patched")
        for want in ("make deps", "qemu-system-arm", "gcc-aarch64-linux-gnu",
                     "gcc-arm-linux-gnueabihf"):
            self.assertIn(want, msg)

    def test_short_or_unknown_rows_of_targets_conf_are_one_line(self):
        def error(text):
            with self.assertRaises(h.Failure) as e:
                h.load_table(text)
            self.assertNotIn("\n", str(e.exception))
            return str(e.exception)
        # a base row written before its before-pages column existed
        msg = error("# bases\nbase 6.1 linux-source-6.1 . build\n")
        self.assertIn("line 2", msg)
        self.assertIn("before-pages", msg)
        self.assertIn("unknown row kind 'bsae'", error("bsae 6.1 linux-source-6.1 . build 0013\n"))
        # each base's before-pages is the patch just before the one that moves the storage
        table = (h.ROOT / "qemu/targets.conf").read_text()
        for name, base in h.load_table(table)[3].items():
            nxt = "%04d" % (int(base["before_pages"]) + 1)
            series = h.ROOT / base["series"]
            self.assertTrue(list(series.glob(nxt + "-cred-keep-large-group-lists-in-order-0-pages.patch")),
                            f"{name}: {nxt} is not the pages patch")


    def test_series_numbers_each_patch_once(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            for name in ("0000-cover-letter.patch", "0001-a.patch", "0002-b.patch"):
                (d / name).write_text("")
            self.assertEqual([p.name for p in h.series_patches(d)], ["0001-a.patch", "0002-b.patch"])
            (d / "0002-old-b.patch").write_text("")      # left behind by a renumbering
            with self.assertRaises(h.Failure) as e:
                h.series_patches(d)
            self.assertIn("0002", str(e.exception))
            (d / "0002-old-b.patch").unlink()
            (d / "0004-d.patch").write_text("")          # a gap
            self.assertRaises(h.Failure, h.series_patches, d)

    def test_long_commands_report_progress(self):
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "build.log"
            script = ("sleep 0.1; echo '  CC      a.o'; sleep 0.8; echo '  CC      b.o'; "
                      "echo '  LD      vmlinux'; sleep 0.8")
            with mock.patch("builtins.print") as shown:
                h.sh(["sh", "-c", script], log, progress=h.build_progress(10), every=0.2)
            lines = [c.args[0] for c in shown.call_args_list]
            for line in lines:
                self.assertRegex(line, r"^  kernel: 0 min, build steps: [0-3] of about 10$")
            counts = [int(x.split()[-4]) for x in lines]
            self.assertEqual(counts, sorted(counts))
            self.assertIn(1, counts)            # between the two steps: it ran while make ran
            self.assertEqual(counts[-1], 3)
            self.assertIn("  LD      vmlinux", log.read_text())
        self.assertEqual(h.build_progress(0)(125, "  CC x\n"), "  kernel: 2 min, build steps: 1")

    def test_sign_as_rewrites_author_signoff_and_shortlog(self):
        cover = ("From: Harness Dev <dev@example.org>\n\nblurb\n\n"
                 "Harness Dev (19):\n  cred: one\n\n"
                 "Signed-off-by: Harness Dev <dev@example.org>\n")
        out = h.sign_as(cover, "Ada Lovelace <ada@kernel.example.net>")
        self.assertNotIn("Harness Dev", out)
        self.assertIn("\nAda Lovelace (19):\n", out)
        self.assertIn("From: Ada Lovelace <ada@kernel.example.net>\n", out)
        self.assertIn("Signed-off-by: Ada Lovelace <ada@kernel.example.net>\n", out)

    def test_maintainers_question_answered_only_by_the_snippet(self):
        out = h.MAINTAINERS_QUESTION + "\n"
        snippet = "GROUPS\nF:\tkernel/groups_kunit.c\nF:\ttools/testing/selftests/groups/\n"
        patch = ("diff --git a/kernel/groups_kunit.c b/kernel/groups_kunit.c\nnew file mode 100644\n"
                 "diff --git a/tools/testing/selftests/groups/x.c b/tools/testing/selftests/groups/x.c"
                 "\nnew file mode 100644\n")
        self.assertEqual(h.checkpatch_findings(out, patch, snippet), [])
        other = patch + "diff --git a/kernel/other.c b/kernel/other.c\nnew file mode 100644\n"
        self.assertEqual(h.checkpatch_findings(out, other, snippet), [h.MAINTAINERS_QUESTION])
        self.assertEqual(h.checkpatch_findings(out), [h.MAINTAINERS_QUESTION])
        self.assertEqual(h.checkpatch_findings("WARNING: x\n", patch, snippet), ["WARNING: x"])

if __name__ == "__main__":
    unittest.main()
