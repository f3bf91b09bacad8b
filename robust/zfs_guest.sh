#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check-zfs in the guest: OpenZFS's modules, a pool on a file in /tmp,
# the directories, files and datasets of /harness/zfs/layout, then
# access_client over /harness/zfs/table.  qemu/zfs.py writes both, the
# module list (in load order, with parameters), /etc/passwd and /etc/group.
set -u
/bin/busybox mkdir -p /bb && /bin/busybox --install -s /bb
export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/bb
H=/harness/zfs

fail() {
	echo "zfs_guest: $*"
	exit 1
}

while read -r mod params; do
	# shellcheck disable=SC2086
	insmod /lib/modules/zfs/$mod.ko $params || fail "insmod $mod failed"
done < $H/modules
[ -c /dev/zfs ] || fail "no /dev/zfs"
# what OpenZFS's udev rule does: users may ask for delegated rights
chmod 0666 /dev/zfs
truncate -s 256M /tmp/pool.img || fail "no room for the pool's file"
zpool create -m /tank -O acltype=posixacl -O xattr=sa tank /tmp/pool.img ||
	fail "zpool create failed"
while read -r kind path a b c; do
	case "$kind" in
	dir)	mkdir "$path" && chown "$a:$b" "$path" && chmod "$c" "$path" ;;
	file)	echo data > "$path" && chown "$a:$b" "$path" && chmod "$c" "$path" ;;
	acl)	setfacl -m "g:$a:r,m::r" "$path" ;;
	dataset) zfs create "$path" && zfs allow -g "$a" "$b" "$path" ;;
	*)	false ;;
	esac || fail "layout: $kind $path $a $b $c"
done < $H/layout
zpool list -H -o name,size,health tank
access_client check $H/table
status=$?
zpool export tank || fail "zpool export failed"
exit $status
