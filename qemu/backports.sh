#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make deps BASE=7.3: Debian's newest kernel tree, linux-source-7.3, is in the
# trixie-backports suite.  Add that suite as an apt source, on the mirror this
# machine's apt already uses, pinned at priority 1: nothing comes from it but
# what is asked for by name.
set -e
src=/etc/apt/sources.list.d/trixie-backports.sources
[ -f "$src" ] && exit 0
uri=$(sed -n -e 's/^URIs:[[:space:]]*//p' \
	-e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]\{1,\}\).*/\2/p' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
	2>/dev/null | grep -v security | head -n 1)
if [ -z "$uri" ]; then
	echo "deps: no Debian mirror in this machine's apt sources to add trixie-backports to" >&2
	exit 1
fi
echo "deps: adding trixie-backports ($uri), pinned at priority 1"
printf 'Types: deb\nURIs: %s\nSuites: trixie-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	"$uri" >"$src"
printf 'Package: *\nPin: release n=trixie-backports\nPin-Priority: 1\n' \
	>/etc/apt/preferences.d/trixie-backports.pref
apt-get update -qq
