# SPDX-License-Identifier: GPL-2.0
"""harness: the command line's argument checks, one line each.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import harness as h  # noqa: E402
import config  # noqa: E402
from config import BASES  # noqa: E402

QEMU = Path(__file__).resolve().parent.parent

# A command line of each module's commands that would start work
COMMANDS = [["packages"], ["check-nfs"], ["check-kcsan"], ["randstruct"], ["kunit"], ["bench"],
            ["bench-frag"], ["bench-walk"], ["bench-native"], ["check"]]


def run_script(script, argv, input=None, **env):
    """The command line run with env added to an environment in which no
    program can be found and the build directory is a scratch one: if it
    does not refuse its arguments, it fails at its first command."""
    with tempfile.TemporaryDirectory() as d:
        full = {k: v for k, v in os.environ.items() if k not in ("BASE", "BUILD", "TEST_TIMEOUT")}
        full.update(PATH=str(Path(d) / "nothing"), BUILD=d, **env)
        return subprocess.run([sys.executable, str(QEMU / script), *argv], env=full,
                              input=input, capture_output=True, text=True, timeout=60)


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

    def test_every_command_refuses_an_unknown_base(self):
        for argv in COMMANDS:
            with self.subTest(argv=argv):
                r = run_script("harness.py", argv, BASE="nosuch")
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                self.assertEqual(r.stderr,
                                 f"error: unknown base 'nosuch': BASE takes {', '.join(BASES)}\n")

    def test_a_bad_test_timeout_breaks_no_import_and_is_refused_once(self):
        modules = sorted(p.stem for p in QEMU.glob("*.py"))
        r = subprocess.run([sys.executable, "-c", f"import {', '.join(modules)}"], cwd=QEMU,
                           env=dict(os.environ, TEST_TIMEOUT="abc"), capture_output=True,
                           text=True, timeout=60)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        for argv in COMMANDS:
            with self.subTest(argv=argv):
                r = run_script("harness.py", argv, TEST_TIMEOUT="abc")
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                self.assertEqual(r.stderr, "error: TEST_TIMEOUT is a whole number of seconds "
                                 "a test program may take, not 'abc'\n")


class OneCommandLine(unittest.TestCase):
    def test_harness_py_is_the_only_entry_point(self):
        mains = sorted(p.name for p in QEMU.glob("*.py") if "__main__" in p.read_text())
        self.assertEqual(mains, ["harness.py"])

    def test_every_make_target_calls_a_command_of_it(self):
        makefile = (QEMU.parent / "Makefile").read_text()
        called = re.findall(r"\$\(HARNESS\) ([a-z0-9-]+)", makefile)
        self.assertNotIn("python3 qemu/", makefile.replace("python3 qemu/harness.py", ""))
        sub = next(a for a in h.parser()._actions if isinstance(a, argparse._SubParsersAction))
        self.assertGreater(len(called), 20)
        self.assertEqual(sorted(set(called) - set(sub.choices)), [])
        # make help lists every command, from the command line itself
        listed = h.command_list(h.parser())
        for name in sub.choices:
            self.assertIn(f"  {name} ", listed)


class Parse(unittest.TestCase):
    def test_a_saved_console_log_is_judged_again(self):
        data = QEMU / "testdata"
        r = run_script("harness.py", ["parse", "--kunit", str(data / "kunit-failure.log")])
        self.assertEqual((r.returncode, r.stderr), (1, ""))
        fails = [x for x in r.stdout.splitlines() if x.startswith("fail")]
        self.assertEqual(fails, ["fail kunit-failure/kunit/groups/groups_test_sort/n=1023"])
        self.assertTrue(r.stdout.endswith("\n32 passed, 1 failed, 1 skipped\n"), r.stdout)
        with tempfile.TemporaryDirectory() as d:
            log = Path(d, "patched-x86_64", "console.log")
            log.parent.mkdir()
            log.write_bytes((data / "pass.log").read_bytes().replace(b"\n", b"\r\n"))
            r = run_script("harness.py", ["parse", "--kunit", str(log)])
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("pass patched-x86_64/kunit/groups suite reported\n", r.stdout)
        self.assertTrue(r.stdout.endswith("\n33 passed, 0 failed, 1 skipped\n"), r.stdout)
        r = run_script("harness.py", ["parse", "--kunit", "--job", "t", "-"],
                       input=(data / "panic.log").read_text())
        self.assertEqual(r.returncode, 1)
        self.assertIn("fail t/boot  # kernel problem in the console log: [    3.120551] "
                      "Kernel panic - not syncing: corrupted group_info list\n", r.stdout)
        r = run_script("harness.py", ["parse", str(data / "no-such.log")])
        self.assertEqual((r.returncode, r.stderr), (2, f"error: no console log "
                                                       f"{data / 'no-such.log'}\n"))


class EndToEnd(unittest.TestCase):
    """make check as a whole, with a stand-in for QEMU that replays a recorded
    console: builds, the harness's own tests and the series checks stubbed,
    everything from the boot on (the streamed console, the verdicts, the
    summary, the exit status) run as it is."""

    def check(self, log):
        data = QEMU / "testdata"
        with tempfile.TemporaryDirectory() as d, \
                mock.patch.dict(os.environ, {"BUILD": d, "BASE": "", "TEST_TIMEOUT": ""}), \
                mock.patch.object(h, "check_harness", return_value=[]), \
                mock.patch.object(h, "check_selftests_sync", return_value=[]), \
                mock.patch.object(h, "check_checkpatch", return_value=[]), \
                mock.patch.object(h.shutil, "which", return_value="/bin/true"), \
                mock.patch("guest.build_kernel",
                           return_value=Path(d, "out/patched-x86_64/arch/x86/boot/bzImage")), \
                mock.patch("guest.build_userspace", return_value={"x86_64": {}, "i386": {}}), \
                mock.patch("guest.make_initramfs", side_effect=lambda path, *a, **k: path), \
                mock.patch("guest.qemu_command", return_value=["cat", str(data / log)]), \
                mock.patch("builtins.print") as out, \
                config.using(), \
                self.assertRaises(SystemExit) as end:
            # main() makes the environment's settings the run's: using() puts
            # back the ones of the process that runs this test
            h.main(["check", "x86_64"])
            self.fail("check did not exit")
        summary = Path(d, "results/patched-x86_64/summary.txt")
        printed = "\n".join(" ".join(map(str, c.args)) for c in out.call_args_list)
        return end.exception.code, printed, summary

    def test_a_passing_console_passes(self):
        code, printed, _ = self.check("pass.log")
        self.assertEqual(code, 0, printed)
        self.assertIn("33 passed, 0 failed, 1 skipped", printed)

    def test_every_broken_console_fails(self):
        for log in ("oops.log", "panic.log", "warn.log", "hang.log", "silent.log",
                    "kunit-failure.log", "kunit-later-suite-failure.log", "no-kunit.log"):
            code, printed, _ = self.check(log)
            self.assertEqual(code, 1, f"{log}: {printed}")


if __name__ == "__main__":
    unittest.main()
