# SPDX-License-Identifier: GPL-2.0
"""config: qemu/targets.conf read into the table, and running commands.
"""

import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import kbuild  # noqa: E402

class Table(unittest.TestCase):
    def test_short_or_unknown_rows_of_targets_conf_are_one_line(self):
        def error(text):
            with self.assertRaises(config.Failure) as e:
                config.load_table(text)
            self.assertNotIn("\n", str(e.exception))
            return str(e.exception)
        # a base row written before its before-pages column existed
        msg = error("# bases\nbase 6.1 linux-source-6.1 . build\n")
        self.assertIn("line 2", msg)
        self.assertIn("before-pages", msg)
        self.assertIn("unknown row kind 'bsae'", error("bsae 6.1 linux-source-6.1 . build 0013\n"))
        # each base's before-pages is the patch just before the one that moves the storage
        table = (config.ROOT / "qemu/targets.conf").read_text()
        for name, base in config.load_table(table)[3].items():
            nxt = "%04d" % (int(base["before_pages"]) + 1)
            series = config.ROOT / base["series"]
            self.assertTrue(list(series.glob(nxt + "-cred-keep-large-group-lists-in-order-0-pages.patch")),
                            f"{name}: {nxt} is not the pages patch")

    def test_a_target_is_one_row(self):
        row = ("target  riscv64 riscv riscv64-linux-gnu- qemu-system-riscv64 virt max ttyS0 "
               "arch/riscv/boot/Image riscv64 x86_64 8 bisect,differential -\n"
               "abi riscv64 riscv64 riscv64-linux-gnu-gcc libc6-dev-riscv64-cross -\n")
        targets = config.load_table(row)[0]
        self.assertEqual(targets["riscv64"]["kmalloc_min"], {"*": 8})
        two = config.load_table(row.replace(" 8 bisect", " 6.1=128,6.12=8 bisect"))[0]
        self.assertEqual(two["riscv64"]["kmalloc_min"], {"6.1": 128, "6.12": 8})
        self.assertEqual(targets["riscv64"]["checks"], ["bisect", "differential"])
        self.assertEqual(targets["riscv64"]["bootargs"], "")

        def error(text):
            with self.assertRaises(config.Failure) as e:
                config.load_table(text)
            return str(e.exception)
        self.assertIn("unknown check 'kasan'", error(row.replace("bisect,", "kasan,")))
        self.assertIn("kmalloc-min", error(row.replace(" 8 bisect", " eight bisect")))
        self.assertIn("kmalloc-min", error(row.replace(" 8 bisect", " 6.1=,6.12=8 bisect")))
        self.assertIn("kmalloc-min", error(row.replace(" 8 bisect", " =8 bisect")))
        self.assertIn("no kconfig/riscv.config", error(row.replace(" x86_64 8", " riscv 8")))
        self.assertIn("no abi row 'riscv64'", error(row.split("\n")[0]))

    def test_packages_come_from_the_rows(self):
        got = config.packages()
        for want in ("qemu-system-x86", "qemu-system-arm", "gcc-aarch64-linux-gnu",
                     "gcc-i686-linux-gnu", "libc6-dev-armhf-cross", "libc6-dev"):
            self.assertIn(want, got)
        self.assertIn("gcc-hppa-linux-gnu", config.packages(compile_rows=True))
        self.assertNotIn("gcc-hppa-linux-gnu", got)
        # and the kernel source of the base: the Makefile names none
        self.assertIn(config.settings().source_pkg, got)
        self.assertRegex(config.settings().source_pkg, r"^linux-source-\d")

    def test_every_check_has_a_target(self):
        for check in config.TARGET_CHECKS:
            self.assertTrue(config.targets_with(check), check)
        self.assertEqual(config.targets_with("kcsan"), ["x86_64"])
        self.assertEqual(config.kmalloc_min("x86_64"), 8)
        self.assertEqual(config.kmalloc_min("arm64"),
                         {"6.1": 128, "6.12": 8, "7.3": 8}[config.settings().base])
        self.assertIn(["W=1", "sparse"], [c[4] for c in config.COMPILE])

    def test_the_first_target_of_a_check_or_none(self):
        with mock.patch.object(config, "TARGETS", {"a": {"checks": []},
                                                   "b": {"checks": ["differential"]},
                                                   "c": {"checks": ["differential"]}}):
            self.assertEqual(config.first_target_with("differential"), "b")
            with self.assertRaises(config.Failure) as e:
                config.first_target_with("kcsan")
        self.assertIn("no target row names the check 'kcsan'", str(e.exception))


class Settings(unittest.TestCase):
    def test_the_environment_read_once_into_settings(self):
        first = next(iter(config.BASES))
        s = config.from_environment({})
        self.assertEqual(s, config.default_settings())
        self.assertEqual((s.base, s.test_timeout), (first, 600))
        self.assertEqual(s.tarball, Path(f"/usr/src/{s.source_pkg}.tar.xz"))
        s = config.from_environment({"BASE": "6.12", "TEST_TIMEOUT": "30", "BUILD": "/b"})
        self.assertEqual((s.base, s.build, s.test_timeout), ("6.12", Path("/b"), 30))
        self.assertEqual(s.build, Path("/b"))
        self.assertEqual(config.from_environment({"BASE": "6.12"}).build,
                         config.ROOT / "build/6.12")
        for env, why in (({"BASE": "6.2"}, "unknown base '6.2': BASE takes 6.1, 6.12"),
                         ({"TEST_TIMEOUT": "abc"}, "not 'abc'"),
                         ({"TEST_TIMEOUT": "0"}, "not '0'"),
                         ({"TEST_TIMEOUT": "-5"}, "not '-5'")):
            with self.assertRaises(config.Failure) as e:
                config.from_environment(env)
            self.assertIn(why, str(e.exception))

    def test_using_changes_the_run_s_settings_within_a_block(self):
        before = config.settings()
        with config.using(build=Path("/scratch")):
            self.assertEqual(config.settings().build, Path("/scratch"))
            self.assertEqual(config.settings().base, before.base)
            self.assertEqual(config.results_of("job"), Path("/scratch/results/job"))
        self.assertIs(config.settings(), before)


class Stamps(unittest.TestCase):
    def test_a_stamp_is_up_to_date_only_with_the_same_value(self):
        with tempfile.TemporaryDirectory() as d:
            stamp = Path(d, "stamps/vanilla")
            self.assertFalse(config.stamp_ok(stamp, "6.1.158-1"))
            config.write_stamp(stamp, "6.1.158-1")
            self.assertTrue(config.stamp_ok(stamp, "6.1.158-1"))
            self.assertFalse(config.stamp_ok(stamp, "6.1.159-1"))
            self.assertFalse(config.stamp_ok(stamp, "6.1.158-1\n"))


class Commands(unittest.TestCase):
    def test_long_commands_report_progress(self):
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "build.log"
            script = ("sleep 0.1; echo '  CC      a.o'; sleep 0.8; echo '  CC      b.o'; "
                      "echo '  LD      vmlinux'; sleep 0.8")
            with mock.patch("builtins.print") as shown:
                config.sh(["sh", "-c", script], log, progress=kbuild.build_progress(10), every=0.2)
            lines = [c.args[0] for c in shown.call_args_list]
            for line in lines:
                self.assertRegex(line, r"^  kernel: 0 min, build steps: [0-3] of about 10$")
            counts = [int(x.split()[-4]) for x in lines]
            self.assertEqual(counts, sorted(counts))
            self.assertIn(1, counts)            # between the two steps: it ran while make ran
            self.assertEqual(counts[-1], 3)
            self.assertIn("  LD      vmlinux", log.read_text())
        self.assertEqual(kbuild.build_progress(0)(125, "  CC x\n"), "  kernel: 2 min, build steps: 1")
        # past the last build's count, no estimate
        self.assertEqual(kbuild.build_progress(1)(60, "  CC x\n  LD y\n"),
                         "  kernel: 1 min, build steps: 2")


if __name__ == "__main__":
    unittest.main()
