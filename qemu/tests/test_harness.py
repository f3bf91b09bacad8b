# SPDX-License-Identifier: GPL-2.0
"""harness: the command line's argument checks, one line each.
"""

import argparse
import sys
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import harness as h  # noqa: E402

class Arguments(unittest.TestCase):
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


if __name__ == "__main__":
    unittest.main()
