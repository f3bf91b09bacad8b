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
	bench-lookups bench-native bench-frag bench-walk check-nfs check-zfs bench-nfs \
	export series-check send-email-dry-run clean distclean

help:
	@echo "make <target>: each calls the command of qemu/harness.py of its name (this list is"
	@echo "the command line's own; python3 qemu/harness.py commands lists the rest):"
	@$(HARNESS) commands --make
	@echo "and, of make only:"
	@echo "  make deps             install what the project needs (apt-get; idempotent)"
	@echo "  make bench-lookups    make bench's in-kernel lookups only: short boots, more rounds"
	@echo "  make distclean        remove build/ entirely"
	@echo "Variables (each passed on only when set): BASE=6.1 (default), 6.12 or 7.3;"
	@echo "  ARCH=x86_64|arm64|arm64-64k; TARGETS=\"...\"; KERNEL=patched|vanilla;"
	@echo "  ROUNDS=N (benchmarks); guest-run: PROG= ARGS= OVERLAY= TIMEOUT= APPEND= ICOUNT=1;"
	@echo "  check-mutants: ALL=1 CHECKS= FAST=1 LIMIT= SUITE_LIMIT= MUTANTS=\"...\";"
	@echo "  kunit: KUNIT_ARCHS=\"x86_64 arm64\"|um; bench-native: KERNELS= ONLY= TCG=1 ICOUNT=;"
	@echo "  series-check: ARCHS= SKIP_BISECT=1 FROM=NNNN BISECT=x86_64 NO_BOOT=1; export: KEEP_AUTHOR=1;"
	@echo "  check-zfs: ZFS=debian|patched MUTANT=first-block."
	@echo "README.md says what each does."

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
	@$(HARNESS) check-debug $(call opt,ARCH,--target)

kunit: deps
	@$(HARNESS) kunit $(KUNIT_ARCHS)

check-mutants: deps
	@$(HARNESS) check-mutants $(if $(ALL),--all) $(if $(CHECKS),--checks $(CHECKS)) \
		$(if $(FAST),--fast $(if $(LIMIT),--limit $(LIMIT)) \
		$(if $(SUITE_LIMIT),--suite-limit $(SUITE_LIMIT))) $(MUTANTS)

check-kcsan: deps
	@$(HARNESS) check-kcsan

check-differential: deps
	@$(HARNESS) check-differential $(TARGETS)

# make bench ends with the fragmented-memory scenario (make bench-frag; a
# target with 64K pages says it has nothing to measure)
bench: deps
	@$(HARNESS) bench $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)
	@$(HARNESS) bench-frag $(call opt,ARCH,--target) $(call opt,FRAG_ROUNDS,--rounds)

bench-lookups: deps
	@$(HARNESS) bench $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds) --lookups

bench-frag: deps
	@$(HARNESS) bench-frag $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)

bench-walk: deps
	@$(HARNESS) bench-walk $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)

check-nfs: deps
	@$(HARNESS) check-nfs $(call opt,ARCH,--target) $(KERNEL)

# OpenZFS comes from Debian's contrib component (qemu/contrib.sh adds it);
# its configure is regenerated after the patches (autoconf, automake, libtool)
check-zfs: deps
	@$(SUDO) sh qemu/contrib.sh
	@$(MAKE) --no-print-directory install PACKAGES="autoconf automake libtool"
	@$(HARNESS) check-zfs $(call opt,ARCH,--target) $(call opt,ZFS,--zfs) \
		$(call opt,MUTANT,--mutant) $(KERNEL)

bench-nfs: deps
	@$(HARNESS) bench-nfs $(call opt,ARCH,--target) $(call opt,ROUNDS,--rounds)

bench-native: deps
	@$(HARNESS) bench-native $(call opt,ROUNDS,--rounds) $(if $(KERNELS),--kernels $(KERNELS)) \
		$(if $(TCG),--tcg) $(if $(ONLY),--only $(ONLY)) $(if $(ICOUNT),--icount $(ICOUNT))

export:
	@$(HARNESS) export $(if $(KEEP_AUTHOR),--keep-author)

series-check: deps
	@pkgs=$$($(HARNESS) packages --compile) || exit 1; \
		$(MAKE) --no-print-directory install PACKAGES="$$pkgs"
	@$(HARNESS) series-check $(if $(ARCHS),--archs $(ARCHS)) \
		$(if $(SKIP_BISECT),--skip-bisect) $(if $(FROM),--from $(FROM)) \
		$(if $(BISECT),--bisect $(BISECT)) $(if $(NO_BOOT),--no-boot)

send-email-dry-run: deps
	@$(HARNESS) send-email-dry-run

clean:
	@$(HARNESS) clean

distclean:
	rm -rf build
