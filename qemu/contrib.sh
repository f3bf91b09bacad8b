#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make check-zfs: Debian packages OpenZFS (zfs-dkms, zfsutils-linux) in its
# contrib component.  Add contrib for each suite one of the bases takes its
# OpenZFS from (qemu/zfs.py's RELEASES: bookworm for 6.1, bookworm-backports
# for 6.12, trixie-backports for 7.3), on the mirror this machine's apt
# already uses; the backports suites pinned at priority 1, so that nothing
# comes from them but what is asked for by version.  Suites whose contrib
# apt already knows are left alone.
set -e
have=$(apt-cache policy | sed -n 's/.* \([a-z-]*\)\/contrib .*/\1/p' | sort -u)
want=
for suite in bookworm bookworm-backports trixie-backports; do
	echo "$have" | grep -qx "$suite" || want="$want $suite"
done
[ -n "$want" ] || exit 0
uri=$(sed -n -e 's/^URIs:[[:space:]]*//p' \
	-e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]\{1,\}\).*/\2/p' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
	2>/dev/null | grep -v security | grep debian | head -n 1)
if [ -z "$uri" ]; then
	echo "deps: no Debian mirror in this machine's apt sources to add contrib to" >&2
	exit 1
fi
echo "deps: adding contrib for$want ($uri)"
printf 'Types: deb\nURIs: %s\nSuites:%s\nComponents: contrib\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	"$uri" "$want" >/etc/apt/sources.list.d/harness-contrib.sources
for suite in $want; do
	[ "$suite" = bookworm ] && continue
	printf 'Package: *\nPin: release n=%s\nPin-Priority: 1\n\n' "$suite"
done >/etc/apt/preferences.d/harness-contrib.pref
apt-get update -qq
