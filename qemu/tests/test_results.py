# SPDX-License-Identifier: GPL-2.0
"""results: counting, the results file, and the one exit policy.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import results  # noqa: E402

class ExitPolicy(unittest.TestCase):
    def test_any_failure_or_nothing_passed_is_non_zero(self):
        p, f, s = ("a", "pass", ""), ("b", "fail", "why"), ("c", "skip", "no 16-bit calls")
        with tempfile.TemporaryDirectory() as d, \
                config.using(build=Path(d)), mock.patch("builtins.print"):
            self.assertEqual(results.conclude("t", [p, s], 0), 0)
            self.assertEqual(results.conclude("t", [p, f], 0), 1)
            self.assertEqual(results.conclude("t", [s], 0), 1)         # nothing passed
            self.assertEqual(results.conclude("t", [s], 0, need_pass=False), 0)
            self.assertEqual(results.conclude("t", [], 0), 1)
            self.assertEqual((Path(d) / "results/t.txt").read_text(), "")
            results.conclude("t", [p, f, s], 0)
            self.assertEqual((Path(d) / "results/t.txt").read_text(),
                             "pass a\nfail b  # why\nskip c  # no 16-bit calls\n")
        self.assertEqual(results.count([p, f, f, s]), {"pass": 1, "fail": 2, "skip": 1})


if __name__ == "__main__":
    unittest.main()
