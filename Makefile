# SPDX-License-Identifier: GPL-2.0
#
# Supplementary groups in a list of pages: the series, and the harness that
# builds Debian's linux-source-6.1 (or, with BASE=6.12, linux-source-6.12)
# with it and boots it under QEMU.
# "make help" lists the targets; README.md explains them.

# Every option below is passed on only when it is set: the defaults are
# the commands' own (BASE: the first base of qemu/targets.conf; ARCH: its
# first target; TARGETS: all of them; ROUNDS: per benchmark), as make help
# says.
opt = $(if $($(1)),$(2) $($(1)))

# The kernel base (qemu/targets.conf's "base" rows) for every target below
export BASE

HARNESS := python3 qemu/harness.py
SUDO    := $(if $(filter 0,$(shell id -u)),,sudo)

# What the project uses from Debian's archive besides what qemu/targets.conf's
# rows need (QEMU, compilers and C libraries: "harness.py packages" lists
# them, and make deps installs them next).  No gcc-multilib: it conflicts
# with the cross compilers.
PACKAGES := make flex bison bc libelf-dev libssl-dev cpio perl \
	python3 git xz-utils gnuplot-nox git-email libmailtools-perl sparse \
	gcc-12-plugin-dev gcc-12-plugin-dev-aarch64-linux-gnu qemu-user valgrind

.PHONY: help deps install tree build run guest-run check kunit check-debug check-kcsan check-mutants check-differential bench \
	bench-lookups bench-native bench-frag bench-walk check-nfs bench-nfs \
	export series-check send-email-dry-run clean distclean

help:
	@echo "Every target takes BASE=6.1 (the default), BASE=6.12 or BASE=7.3: the Debian"
	@echo "kernel source it builds, and the series for it (6.12/ and 7.3/ hold theirs)."
	@echo "make deps        install what the project needs (apt-get; idempotent)"
	@echo "make run         build the patched kernel and show 10,000 groups at work in QEMU"
	@echo "                 (ARCH=x86_64|arm64|arm64-64k, KERNEL=patched|vanilla)"
	@echo "make check       boot x86_64, arm64 and arm64-64k with every ABI's selftests and"
	@echo "                 the KUnit suites, check the series; ends with 'N passed, N failed'"
	@echo "                 (TARGETS=\"...\" and KERNEL=vanilla narrow or switch it)"
	@echo "make guest-run   run your static program in a guest:"
	@echo "                 PROG=/path ARGS=\"...\" OVERLAY=/dir ARCH=... KERNEL=... TIMEOUT=s"
	@echo "                 APPEND=\"kernel params\" ICOUNT=1 (guest time follows its instructions)"
	@echo "make kunit       the KUnit suites through the kernel's tools/testing/kunit/kunit.py"
	@echo "                 (kernel/groups.kunitconfig) under QEMU: KUNIT_ARCHS=\"x86_64 arm64\" or um"
	@echo "make check-debug the patched kernel with KASAN, UBSAN, KFENCE, kmemleak, lockdep:"
	@echo "                 selftests, fault injection, concurrency, leak scan (ARCH=...)"
	@echo "make check-mutants  each broken variant in robust/mutants/ must be caught by"
	@echo "                 check, check-differential or check-debug, or those its"
	@echo "                 \"Checks:\" line names (check-nfs) (ALL=1: by each)"
	@echo "                 FAST=1: 40+10 mutants of the series' lines made by rule, against"
	@echo "                 KUnit on UML with KASAN (kunit.py) or the x86_64 suite (LIMIT=, SUITE_LIMIT=; 0: all);"
	@echo "                 FAST=1 MUTANTS=\"name ...\": those of robust/mutants/ against KUnit on UML"
	@echo "make check-kcsan  the patched x86_64 kernel with KCSAN, 2 vCPUs: the stress program"
	@echo "make check-differential  a seeded random sequence of group calls under every ABI,"
	@echo "                 checked against a model of 6.1; vanilla and patched digests agree"
	@echo "make check-nfs   the kernel's NFS server and client in one guest, Debian's daemons,"
	@echo "                 root_squash and rpc.mountd --manage-gids: who may read what, as users"
	@echo "                 of 16 to 6,000 groups and as root (ARCH=..., KERNEL=patched|vanilla)"
	@echo "make bench-nfs   vanilla, the series without and with its nfsd patch: RPCs per second"
	@echo "                 and allocations per RPC, boots alternated: build/bench/nfs-<arch>/"
	@echo "                 (ARCH=..., ROUNDS=3)"
	@echo "make bench       patched vs vanilla under QEMU, alternating boots: table and plots"
	@echo "                 in build/bench/<arch>/ (ARCH=..., ROUNDS=5), then bench-frag"
	@echo "                 (FRAG_ROUNDS=3); not part of make check"
	@echo "make bench-lookups  the same kernels, in-kernel lookups only: short boots, more rounds"
	@echo "make bench-frag  setgroups() of 10,000 and 65,536 gids in fragmented memory and near a"
	@echo "                 memory cgroup's limit, vanilla and patched in turn: build/bench/<arch>-frag/"
	@echo "                 (ARCH=x86_64|arm64, ROUNDS=3)"
	@echo "make bench-walk  fstatat() and faccessat() on a tree of group-owned directories"
	@echo "                 as a user in 16 to 65,536 groups, under -icount (guest ns are"
	@echo "                 instructions), vanilla and patched: build/bench/<arch>-walk/"
	@echo "                 (ARCH=..., ROUNDS=3)"
	@echo "make bench-native  vanilla's and the patched kernel/groups.c compiled into user space"
	@echo "                 and timed on the host CPU: table and plots in build/bench/native/"
	@echo "                 (ROUNDS=9, KERNELS=\"vanilla upto-0014 patched\" adds a tree)"
	@echo "make series-check  checkpatch, bisect builds, W=1/sparse, 13 architectures (long)"
	@echo "make send-email-dry-run  the mails of the series, recipients from get_maintainer.pl"
	@echo "make export      format-patch build/patched back into 0001-*.patch"
	@echo "make tree        extract build/vanilla and apply the series in build/patched"
	@echo "make build       build the kernels and guest programs for TARGETS"
	@echo "make clean       remove kernel builds and results (keeps the trees)"
	@echo "make distclean   remove build/ entirely"

deps:
	@$(MAKE) --no-print-directory install PACKAGES="$(PACKAGES)"
	@[ "$(BASE)" != 7.3 ] || $(SUDO) sh qemu/backports.sh
	@pkgs=$$($(HARNESS) packages) || exit 1; \
		$(MAKE) --no-print-directory install PACKAGES="$$pkgs"

install:
	@missing=$$(for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q ' installed$$' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing" $$missing; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
			--no-install-recommends $$missing >/dev/null || exit 1; \
	fi

tree: deps
	@$(HARNESS) tree

build: deps
	@$(HARNESS) build $(call opt,KERNEL,--kernel) $(TARGETS)

run: deps
	@$(HARNESS) run $(call opt,KERNEL,--kernel) $(call opt,ARCH,--target) $(call opt,TIMEOUT,--timeout)

guest-run: deps
	@$(HARNESS) guest-run $(call opt,KERNEL,--kernel) $(call opt,ARCH,--target) \
		$(call opt,TIMEOUT,--timeout) --prog "$(PROG)" --args "$(ARGS)" \
		$(if $(OVERLAY),--overlay "$(OVERLAY)") $(if $(ICOUNT),--icount) \
		$(if $(APPEND),--append "$(APPEND)")

check: deps
	@$(HARNESS) check $(call opt,KERNEL,--kernel) $(TARGETS)

check-debug: deps
	@python3 qemu/robust.py check-debug $(call opt,ARCH,--target)

kunit: deps
	@python3 qemu/kunit_tool.py $(KUNIT_ARCHS)

check-mutants: deps
	@python3 qemu/robust.py check-mutants $(if $(ALL),--all) $(if $(CHECKS),--checks $(CHECKS)) \
		$(if $(FAST),--fast $(if $(LIMIT),--limit $(LIMIT)) \
		$(if $(SUITE_LIMIT),--suite-limit $(SUITE_LIMIT))) $(MUTANTS)

check-kcsan: deps
	@python3 qemu/robust.py check-kcsan

check-differential: deps
	@python3 qemu/robust.py check-differential $(TARGETS)

# make bench ends with the fragmented-memory scenario (make bench-frag; a
# target with 64K pages says it has nothing to measure)
bench: deps
	@python3 qemu/bench.py $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)
	@python3 qemu/bench_frag.py $(call opt,ARCH,--target) $(call opt,FRAG_ROUNDS,--rounds)

bench-lookups: deps
	@python3 qemu/bench.py $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds) --lookups

bench-frag: deps
	@python3 qemu/bench_frag.py $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)

bench-walk: deps
	@python3 qemu/bench_walk.py $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)

check-nfs: deps
	@python3 qemu/nfs.py check $(call opt,ARCH,--target) $(KERNEL)

bench-nfs: deps
	@python3 qemu/nfs.py bench $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)

bench-native: deps
	@python3 qemu/bench_native.py $(call opt,ROUNDS,--rounds) $(if $(KERNELS),--kernels $(KERNELS)) \
		$(if $(TCG),--tcg) $(if $(ONLY),--only $(ONLY)) $(if $(ICOUNT),--icount $(ICOUNT))

export:
	@$(HARNESS) export $(if $(KEEP_AUTHOR),--keep-author)

series-check: deps
	@pkgs=$$($(HARNESS) packages --compile) || exit 1; \
		$(MAKE) --no-print-directory install PACKAGES="$$pkgs"
	@python3 qemu/upstream.py series-check $(if $(ARCHS),--archs $(ARCHS)) \
		$(if $(SKIP_BISECT),--skip-bisect) $(if $(FROM),--from $(FROM))

send-email-dry-run: deps
	@python3 qemu/upstream.py send-email-dry-run

clean:
	@$(HARNESS) clean

distclean:
	rm -rf build
