# SPDX-License-Identifier: GPL-2.0
"""kbuild: config fragments, what Kconfig dropped, and which kernels have KUnit.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

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


class Configs(unittest.TestCase):
    def test_only_patched_kernels_outside_a_benchmark_take_patched_config(self):
        patched = config.ROOT / "kconfig/patched.config"
        x86 = config.TARGETS["x86_64"]
        self.assertIn(patched, kbuild.fragments("patched", x86))
        self.assertIn(patched, kbuild.fragments("mutant-skip-sort", x86))
        self.assertNotIn(patched, kbuild.fragments("vanilla", x86))
        self.assertNotIn(patched, kbuild.fragments("upto-0015", x86))
        bench = kbuild.fragments("patched", x86, extra=("bench",))
        self.assertNotIn(patched, bench)
        self.assertEqual(bench[-1], config.ROOT / "kconfig/bench.config")
        self.assertEqual(bench[0], config.ROOT / "kconfig/base.config")
        self.assertIn(config.ROOT / "kconfig/x86_64.config", bench)

    def test_the_page_size_is_the_last_fragment_s_choice(self):
        self.assertEqual(kbuild.page_size(config.TARGETS["x86_64"]), 4096)
        self.assertEqual(kbuild.page_size(config.TARGETS["arm64"]), 4096)
        # arm64.config chooses 4K pages, arm64-64k.config after it 64K
        self.assertEqual(kbuild.page_size(config.TARGETS["arm64-64k"]), 65536)

    def test_a_config_is_made_again_only_when_its_stamp_is_stale(self):
        t = config.TARGETS["x86_64"]
        head = ["abc123"]

        def merge(tree, out, t, base, frags, log):
            (out / ".config").write_text("CONFIG_X=y\n")
            return {"CONFIG_X": "y"}
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(kbuild.subprocess, "run",
                                  side_effect=lambda *a, **kw: mock.Mock(stdout=head[0])), \
                mock.patch.object(kbuild, "merge_config", side_effect=merge) as merged, \
                mock.patch.object(kbuild, "dropped_options", return_value=[]) as dropped:
            out = Path(d, "out/vanilla-x86_64")
            out.mkdir(parents=True)
            kbuild.ensure_config("vanilla", t, Path(d), out)
            kbuild.ensure_config("vanilla", t, Path(d), out)
            self.assertEqual(merged.call_count, 1)             # up to date the second time
            head[0] = "def456"                                  # the tree moved on
            kbuild.ensure_config("vanilla", t, Path(d), out)
            self.assertEqual(merged.call_count, 2)
            (out / ".config").unlink()
            kbuild.ensure_config("vanilla", t, Path(d), out)
            self.assertEqual(merged.call_count, 3)
            head[0] = "0123ab"
            dropped.return_value = ["CONFIG_UID16=y (x86_64.config) but the .config has n"]
            with self.assertRaises(config.Failure) as e:
                kbuild.ensure_config("vanilla", t, Path(d), out)
            self.assertIn("Kconfig dropped options", str(e.exception))
            dropped.return_value = []
            kbuild.ensure_config("vanilla", t, Path(d), out)    # a failure stamps nothing
            self.assertEqual(merged.call_count, 5)


if __name__ == "__main__":
    unittest.main()
