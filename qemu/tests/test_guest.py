# SPDX-License-Identifier: GPL-2.0
"""guest: a target's kernel command line and the plan of its suite.
"""

import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import config  # noqa: E402
import guest  # noqa: E402


class Guest(unittest.TestCase):
    def test_boot_args_fill_in_or_drop_the_host_tsc(self):
        x86 = config.TARGETS["x86_64"]
        with mock.patch.object(guest, "host_tsc_khz", return_value=2445406):
            self.assertEqual(guest.boot_args(x86), "console=ttyS0 panic=-1 tsc=reliable "
                             "tsc_early_khz=2445406")
        with mock.patch.object(guest, "host_tsc_khz", return_value=None):
            self.assertEqual(guest.boot_args(x86), "console=ttyS0 panic=-1 tsc=reliable")
            self.assertEqual(guest.boot_args(config.TARGETS["arm64"]),
                             "console=ttyAMA0 panic=-1")

    def test_qemu_command_counts_instructions_on_request(self):
        plain = guest.qemu_command("x86_64", "/k", "/i", "console=ttyS0")
        self.assertNotIn("-icount", plain)
        self.assertEqual(plain[-2:], ["-append", "console=ttyS0"])
        counted = guest.qemu_command("x86_64", "/k", "/i", "console=ttyS0", icount=True)
        self.assertEqual(counted[counted.index("-icount") + 1], "shift=0,sleep=off")
        # -icount runs one host thread: no multi-threaded TCG beside it
        self.assertIn("tcg,thread=multi", guest.qemu_command("arm64", "/k", "/i", "", smp=2))
        self.assertNotIn("tcg,thread=multi",
                         guest.qemu_command("arm64", "/k", "/i", "", smp=2, icount=True))

    def test_plan_runs_every_abi_program_but_the_demo(self):
        built = {"aarch64": {"groups_test": "/b/a/t", "demo": "/b/a/demo"},
                 "armhf": {"groups_test": "/b/h/t"}}
        with config.using(test_timeout=42):
            files, plan = guest.test_plan("arm64", built)
        self.assertEqual(files, {"/tests/aarch64/groups_test": "/b/a/t",
                                 "/tests/armhf/groups_test": "/b/h/t"})
        self.assertEqual([p[0] for p in plan], ["aarch64/groups_test", "armhf/groups_test"])
        self.assertTrue(all(p[1] == 42 for p in plan))

    def test_the_selftests_are_the_makefile_s_programs(self):
        with tempfile.TemporaryDirectory() as d, mock.patch.object(guest, "ROOT", Path(d)):
            self.assertEqual(guest.selftest_programs(), [])
            (Path(d) / "selftests").mkdir()
            (Path(d) / "selftests/Makefile").write_text("CFLAGS += -Wall\n")
            self.assertEqual(guest.selftest_programs(), [])
            (Path(d) / "selftests/Makefile").write_text(
                "CFLAGS += -Wall\nTEST_GEN_PROGS := groups_test groups_users_test\n")
            self.assertEqual(guest.selftest_programs(), ["groups_test", "groups_users_test"])


class Programs(unittest.TestCase):
    def test_a_program_is_rebuilt_when_it_or_what_it_includes_changed(self):
        clock = [1000]

        def tick(path):
            clock[0] += 10
            os.utime(path, (clock[0], clock[0]))

        def cc(cmd, log):
            out = Path(cmd[cmd.index("-o") + 1])
            out.write_text("elf")
            tick(out)
        with tempfile.TemporaryDirectory() as d, config.using(build=Path(d)), \
                mock.patch.object(guest, "sh", side_effect=cc) as sh:
            src, own = Path(d, "src/prog.c"), Path(d, "src/own.h")
            shared, other = Path(d, "inc/shared.h"), Path(d, "inc/other.h")
            for f in (src, own, shared, other):
                f.parent.mkdir(exist_ok=True)
                f.write_text("")
                tick(f)
            src.write_text('#include "own.h"\n#include "../inc/shared.h"\n')
            tick(src)
            out = Path(d, "bin/x86_64/prog")

            def built(touched=None):
                if touched:
                    tick(touched)
                before = sh.call_count
                self.assertEqual(guest.compile_c("x86_64", src, out), out)
                return sh.call_count - before
            self.assertEqual(built(), 1)
            self.assertEqual(built(), 0)                # up to date
            self.assertEqual(built(own), 1)             # a header beside it
            self.assertEqual(built(shared), 1)          # one it includes by a path
            self.assertEqual(built(other), 0)           # neither
            self.assertEqual(built(src), 1)


if __name__ == "__main__":
    unittest.main()
