# SPDX-License-Identifier: GPL-2.0
"""checks: checkpatch's findings, and the one question the MAINTAINERS snippet answers.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import checks  # noqa: E402
import config  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "testdata"

class Checkpatch(unittest.TestCase):
    def test_checkpatch_error_warning_and_check_count(self):
        text = (DATA / "checkpatch-findings.txt").read_text()
        self.assertEqual([x.split(":")[0] for x in checks.checkpatch_findings(text)],
                         ["CHECK", "WARNING", "ERROR"])
        self.assertEqual(checks.checkpatch_findings(""), [])
    def test_maintainers_question_answered_by_an_entry_not_the_rest(self):
        out = checks.MAINTAINERS_QUESTION + "\n"
        tree = ("KSMBD\nM:\tSomeone <a@b>\nF:\tfs/smb/server/\n\n"
                "THE REST\nM:\tLinus <c@d>\nF:\t*\nF:\t*/\n")
        test = "diff --git a/fs/smb/server/t.c b/fs/smb/server/t.c\nnew file mode 100644\n"
        self.assertEqual(checks.checkpatch_findings(out, test, "", tree), [])
        other = "diff --git a/kernel/t.c b/kernel/t.c\nnew file mode 100644\n"
        self.assertEqual(checks.checkpatch_findings(out, other, "", tree),
                         [checks.MAINTAINERS_QUESTION])

    def test_maintainers_question_answered_only_by_the_snippet(self):
        out = checks.MAINTAINERS_QUESTION + "\n"
        snippet = "GROUPS\nF:\tkernel/groups_kunit.c\nF:\ttools/testing/selftests/groups/\n"
        patch = ("diff --git a/kernel/groups_kunit.c b/kernel/groups_kunit.c\nnew file mode 100644\n"
                 "diff --git a/tools/testing/selftests/groups/x.c b/tools/testing/selftests/groups/x.c"
                 "\nnew file mode 100644\n")
        self.assertEqual(checks.checkpatch_findings(out, patch, snippet), [])
        other = patch + "diff --git a/kernel/other.c b/kernel/other.c\nnew file mode 100644\n"
        self.assertEqual(checks.checkpatch_findings(out, other, snippet), [checks.MAINTAINERS_QUESTION])
        self.assertEqual(checks.checkpatch_findings(out), [checks.MAINTAINERS_QUESTION])
        self.assertEqual(checks.checkpatch_findings("WARNING: x\n", patch, snippet), ["WARNING: x"])


class Verdicts(unittest.TestCase):
    def test_selftests_must_be_what_the_series_adds(self):
        ours = {Path("groups_test.c"): b"int main;\n", Path("config"): b"CONFIG_X=y\n"}
        with tempfile.TemporaryDirectory() as d, \
                mock.patch.object(checks, "ensure_patched", return_value=Path(d)), \
                mock.patch.object(checks, "selftest_sources", return_value=ours):
            self.assertEqual(checks.check_selftests_sync()[0][1], "skip")   # not added yet
            intree = Path(d, "tools/testing/selftests/groups")
            intree.mkdir(parents=True)
            for path, text in ours.items():
                (intree / path).write_bytes(text)
            self.assertEqual(checks.check_selftests_sync()[0][1:], ("pass", ""))
            (intree / "config").write_bytes(b"CONFIG_Y=y\n")
            (intree / "extra.c").write_bytes(b"")
            self.assertEqual(checks.check_selftests_sync()[0][1:],
                             ("fail", "differ: extra.c, config"))

    def test_a_patch_with_a_checkpatch_finding_fails(self):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "MAINTAINERS").write_text("THE REST\nF:\t*\n")
            patch = Path(d, "0001-cred-x.patch")
            patch.write_text("Subject: [PATCH 01/19] cred: x\n")

            def results(stdout):
                # (open: the patch as checkpatch's stdin, which it would not close)
                with mock.patch.object(checks, "ensure_vanilla", return_value=Path(d)), \
                        mock.patch.object(checks, "series_patches", return_value=[patch]), \
                        mock.patch.object(checks, "open", mock.mock_open(), create=True), \
                        mock.patch.object(checks.subprocess, "run",
                                          return_value=mock.Mock(stdout=stdout)):
                    return checks.check_checkpatch()
            self.assertEqual(results("total: 0 errors\n"),
                             [("checkpatch --strict 0001-cred-x.patch", "pass", "")])
            self.assertEqual(results("ERROR: trailing whitespace\n#12: FILE: x.c\n"),
                             [("checkpatch --strict 0001-cred-x.patch", "fail",
                               "ERROR: trailing whitespace")])

    def test_each_unit_test_is_a_result(self):
        class Inner(unittest.TestCase):
            def test_pass(self):
                pass

            def test_fail(self):
                self.assertEqual(1, 2)

            @unittest.skip("no 16-bit calls")
            def test_skip(self):
                pass
        suite = unittest.TestSuite([unittest.TestSuite(
            unittest.defaultTestLoader.loadTestsFromTestCase(Inner))])
        with mock.patch.object(checks.unittest.defaultTestLoader, "discover", return_value=suite):
            results = checks.check_harness()
        got = {name.rsplit(".", 1)[1]: (status, detail)
               for name, status, detail in results[:-1]}
        self.assertEqual(got, {"test_pass": ("pass", ""),
                               "test_fail": ("fail", "AssertionError: 1 != 2"),
                               "test_skip": ("skip", "no 16-bit calls")})
        self.assertEqual(results[-1][:2], ("harness: unit tests leave the run's settings as "
                                           "they found them", "pass"))

    def test_a_test_that_changes_the_run_s_settings_fails_and_is_undone(self):
        class Leaky(unittest.TestCase):
            def test_leak(self):
                config.use(config.replace(config.settings(), build=Path("/elsewhere")))
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(Leaky)
        before = config.settings()
        with mock.patch.object(checks.unittest.defaultTestLoader, "discover", return_value=suite):
            results = checks.check_harness()
        self.assertEqual(config.settings(), before)
        self.assertEqual(results[0][1], "pass")
        self.assertEqual(results[-1][1], "fail")
        self.assertIn("/elsewhere", results[-1][2])


if __name__ == "__main__":
    unittest.main()


class SelftestSources(unittest.TestCase):
    def test_a_series_directory_replaces_the_files_its_base_needs(self):
        top = checks.selftest_sources(".")
        own = checks.selftest_sources("7.3")
        self.assertEqual(top.keys(), own.keys())
        self.assertIn(b"CONFIG_PROC_SYSCTL=y", top[Path("config")])
        self.assertIn(b"CONFIG_SYSCTL=y\n", own[Path("config")])
        self.assertNotIn(b"PROC_SYSCTL", own[Path("config")])
        self.assertEqual(top[Path("groups_test.c")], own[Path("groups_test.c")])
