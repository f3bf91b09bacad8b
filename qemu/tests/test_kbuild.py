# SPDX-License-Identifier: GPL-2.0
"""kbuild: config fragments, what Kconfig dropped, and which kernels have KUnit.
"""

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import kbuild  # noqa: E402

class Kernels(unittest.TestCase):
    def test_kunit_expected_from_the_config(self):
        with tempfile.TemporaryDirectory() as out:
            image = Path(out) / config.TARGETS["x86_64"]["image"]
            self.assertTrue(kbuild.kunit_expected("patched", "x86_64", image))   # no .config
            (Path(out) / ".config").write_text("CONFIG_KUNIT=y\n")
            self.assertFalse(kbuild.kunit_expected("bisect", "x86_64", image))
            self.assertFalse(kbuild.kunit_expected("patched", "x86_64", image))
            (Path(out) / ".config").write_text("CONFIG_KUNIT=y\nCONFIG_GROUPS_KUNIT_TEST=y\n")
            self.assertTrue(kbuild.kunit_expected("bisect", "x86_64", image))

    def test_fragments_later_ones_win_and_dropped_options_are_named(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d) / "a.config", Path(d) / "b.config"
            a.write_text("CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\nnot a line\n")
            b.write_text("# CONFIG_B is not set\nCONFIG_D=\"x y\"\n")
            self.assertEqual(kbuild.parse_fragment(a), {"CONFIG_A": "y", "CONFIG_B": "y",
                                                        "CONFIG_C": "n"})
            have = {"CONFIG_A": "y", "CONFIG_D": '"x y"', "CONFIG_C": "y"}
            self.assertEqual(kbuild.dropped_options(have, [a, b]),
                             ["CONFIG_C=n (a.config) but the .config has y"])
            self.assertEqual(kbuild.dropped_options({}, [a], ignore=["CONFIG_A", "CONFIG_B"]),
                             [])
            # a base's own options for a fragment follow it
            base = config.settings().base
            (Path(d) / base).mkdir()
            self.assertEqual(kbuild.with_base([a, b]), [a, b])
            (Path(d) / base / "a.config").write_text("CONFIG_A=n\n")
            self.assertEqual(kbuild.with_base([a, b]), [a, Path(d) / base / "a.config", b])


if __name__ == "__main__":
    unittest.main()
