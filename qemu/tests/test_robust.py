# SPDX-License-Identifier: GPL-2.0
"""robust: which checks a mutant is for.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import robust  # noqa: E402


class MutantChecks(unittest.TestCase):
    def checks_of(self, header):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "m.patch").write_text(header + "\n--- a/x\n+++ b/x\n")
            with mock.patch.object(robust, "MUTANTS", Path(d)):
                return robust.mutant_checks("m")

    def test_a_checks_line_names_them(self):
        self.assertEqual(self.checks_of("Mutant: nfsd\nChecks: nfs"), ["nfs"])
        self.assertEqual(self.checks_of("Mutant\nChecks: check,debug"), ["check", "debug"])

    def test_without_one_every_check_but_nfs(self):
        self.assertEqual(self.checks_of("Mutant: groups.c"), ["check", "differential", "debug"])

    def test_the_repository_s_nfsd_mutant_is_for_check_nfs(self):
        self.assertEqual(robust.mutant_checks("nfsd-squash-shares-gid-0"), ["nfs"])


if __name__ == "__main__":
    unittest.main()
