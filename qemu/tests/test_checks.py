# SPDX-License-Identifier: GPL-2.0
"""checks: checkpatch's findings, and the one question the MAINTAINERS snippet answers.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import checks  # noqa: E402

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
