#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The NFS server and client of make check-nfs and make bench-nfs, in one
# guest, over the loopback address: Debian's rpcbind, exportfs, rpc.mountd
# --manage-gids and rpc.nfsd serve /srv (a tmpfs) with root_squash, and
# the kernel's client mounts it with NFSv3 and NFSv4.2.  qemu/nfs.py writes
# /etc/passwd, /etc/group, /harness/nfs/files (the files to serve) and
# /harness/nfs/table (who may read what).
#
#	nfs_guest.sh check		access_client's KTAP over both mounts
#	nfs_guest.sh bench N USER...	for each user, N metadata loops of
#					stat() and access(), with the RPCs, the
#					group lists nfsd builds and the memory
#					they take, per RPC (BENCH lines)
set -u
/bin/busybox mkdir -p /bb && /bin/busybox --install -s /bb
export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/bb
H=/harness/nfs
T=/sys/kernel/tracing

fail() {
	echo "nfs_guest: $*"
	exit 1
}

server() {
	ip link set lo up || fail "no loopback"
	mkdir -p /srv /run/rpcbind /var/lib/nfs/v4recovery /mnt/v3 /mnt/v4
	mount -t tmpfs -o mode=0755 srv /srv || fail "no tmpfs"
	while read -r path uid gid mode; do
		case "$path" in */) mkdir -p "/srv/$path" ;; *) echo data > "/srv/$path" ;; esac
		chown "$uid:$gid" "/srv/$path" && chmod "$mode" "/srv/$path"
	done < $H/files
	mount -t nfsd nfsd /proc/fs/nfsd || fail "no nfsd file system"
	# the shortest NFSv4 grace period nfsd takes
	echo 10 > /proc/fs/nfsd/nfsv4gracetime
	echo 10 > /proc/fs/nfsd/nfsv4leasetime
	rpcbind -w || fail "rpcbind did not start"
	echo "/srv 127.0.0.1(rw,root_squash,no_subtree_check,fsid=1,sec=sys)" > /etc/exports
	exportfs -ra || fail "exportfs failed"
	rpc.mountd --manage-gids || fail "rpc.mountd did not start"
	rpc.nfsd 4 || fail "rpc.nfsd did not start"
	mount.nfs 127.0.0.1:/srv /mnt/v3 -o vers=3,nolock,actimeo=0 || fail "NFSv3 mount failed"
}

# nfsd refuses OPEN until its grace period ends
mount_v4() {
	mount.nfs4 127.0.0.1:/srv /mnt/v4 -o vers=4.2,actimeo=0 || fail "NFSv4.2 mount failed"
	sleep 11
}

rpcs() {
	awk '$1 == "rpc" { print $2 }' /proc/net/rpc/nfsd
}

# The allocations of a window: page allocations by order, slab objects and
# bytes, and nfsd_setuser()'s group lists (calls and sizes of groups_alloc())
trace_on() {
	[ -d $T/events ] || mount -t tracefs tracefs $T || fail "no tracefs"
	echo 0 > $T/tracing_on
	echo 65536 > $T/buffer_size_kb
	echo > $T/trace
	echo > $T/kprobe_events
	# an optimised (jump) kprobe's stack trace ends at its trampoline
	[ ! -e /proc/sys/debug/kprobes-optimization ] ||
		echo 0 > /proc/sys/debug/kprobes-optimization
	echo "p:nfsgroups/groups_alloc groups_alloc n=\$arg1:s32" > $T/kprobe_events ||
		fail "no kprobe on groups_alloc"
	# who asked: nfsd_setuser() or the RPC layer (the wire's 16 gids)
	echo stacktrace > $T/events/nfsgroups/groups_alloc/trigger ||
		fail "no stacktrace trigger"
	for e in kmem/kmalloc kmem/kmem_cache_alloc kmem/mm_page_alloc nfsgroups/groups_alloc; do
		echo 1 > $T/events/$e/enable || fail "no event $e"
	done
	echo 1 > $T/tracing_on
}

trace_off() {
	echo 0 > $T/tracing_on
	for e in kmem/kmalloc kmem/kmem_cache_alloc kmem/mm_page_alloc nfsgroups/groups_alloc; do
		echo 0 > $T/events/$e/enable
	done
	echo '!stacktrace' > $T/events/nfsgroups/groups_alloc/trigger
}

# BENCH <metric> <user> <value> lines from the trace, per RPC ($2 RPCs); a
# groups_alloc() is nfsd's when nfsd_setuser() is in its stack trace
trace_report() {
	awk -v u="$1" -v r="$2" '
	function flush() {
		if (pend && nfsd) { na++; ng += pn }
		pend = 0
	}
	!/^ => / && !/<stack trace>/ { flush() }
	/^ => / { if ($2 ~ /^nfsd_setuser/) nfsd = 1; next }
	/ groups_alloc: / { ga++; split($NF, a, "="); gn += a[2]; pend = 1; pn = a[2]; nfsd = 0 }
	/ kmalloc: | kmem_cache_alloc: / {
		n++
		for (i = 1; i <= NF; i++) if ($i ~ /^bytes_alloc=/) { split($i, a, "="); b += a[2] }
	}
	/ mm_page_alloc: / {
		for (i = 1; i <= NF; i++) if ($i ~ /^order=/) { split($i, a, "="); o[a[2]]++ }
	}
	/LOST|lost events/ { lost++ }
	END {
		flush()
		printf "BENCH groups_alloc_per_rpc %s %.4f\n", u, ga / r
		printf "BENCH groups_alloc_gids_per_rpc %s %.1f\n", u, gn / r
		printf "BENCH nfsd_lists_per_rpc %s %.4f\n", u, na / r
		printf "BENCH nfsd_list_gids_per_rpc %s %.1f\n", u, ng / r
		printf "BENCH slab_allocs_per_rpc %s %.3f\n", u, n / r
		printf "BENCH slab_bytes_per_rpc %s %.1f\n", u, b / r
		for (k = 0; k <= 10; k++)
			if (o[k]) printf "BENCH pages_order%d_per_rpc %s %.4f\n", k, u, o[k] / r
		printf "BENCH trace_lost %s %d\n", u, lost
	}' $T/trace
	# a sample, for the record: the first traced list and its stack
	grep -m2 -A14 " groups_alloc: .* n=[0-9][0-9][0-9]" $T/trace | sed "s/^/# trace: /"
}

bench() {
	n=$1
	shift
	for user in "$@"; do
		line=$(grep "^$user " $H/users) || fail "no user $user"
		uid=$(echo "$line" | cut -d' ' -f2)
		gid=$(echo "$line" | cut -d' ' -f3)
		gids=$(echo "$line" | cut -d' ' -f4)
		file=/mnt/v3/$user/first
		# a warm-up: rpc.mountd's answer for the user enters the kernel's cache
		access_client loop $file "$uid" "$gid" "$gids" 20 > /dev/null ||
			fail "warm-up as $user failed"
		before=$(rpcs)
		out=$(access_client loop $file "$uid" "$gid" "$gids" "$n") || fail "$out"
		after=$(rpcs)
		echo "BENCH rpcs $user $((after - before))"
		echo "BENCH loop_ns $user $(echo "$out" | cut -d' ' -f3)"
		# the traced window: fewer loops, for the trace buffer to hold them
		before=$(rpcs)
		trace_on
		access_client loop $file "$uid" "$gid" "$gids" $((n / 4)) > /dev/null ||
			fail "traced loop as $user failed"
		trace_off
		after=$(rpcs)
		echo "BENCH traced_rpcs $user $((after - before))"
		trace_report "$user" $((after - before))
	done
}

vmstat() {
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

# The same loops in memory that groups_frag --hold keeps fragmented (as make
# bench-frag does): compaction stalls and RPCs of each
frag() {
	n=$1
	shift
	groups_frag --hold > /tmp/frag.log 2>&1 &
	i=0
	until grep -q "^FRAG held" /tmp/frag.log; do
		kill -0 $! 2> /dev/null || fail "groups_frag: $(tail -3 /tmp/frag.log)"
		[ $i -lt 900 ] || fail "groups_frag did not fragment memory in 900 s"
		sleep 1
		i=$((i + 1))
	done
	grep "^BENCH" /tmp/frag.log | grep -E "buddy_fragmented|frag_free_ge4"
	for user in "$@"; do
		line=$(grep "^$user " $H/users) || fail "no user $user"
		set -- $line
		stalls=$(vmstat compact_stall)
		before=$(rpcs)
		out=$(access_client loop /mnt/v3/$user/first "$2" "$3" "$4" "$n") || fail "$out"
		after=$(rpcs)
		echo "BENCH frag_rpcs $user $((after - before))"
		echo "BENCH frag_loop_ns $user $(echo "$out" | cut -d' ' -f3)"
		echo "BENCH frag_compact_stall $user $(($(vmstat compact_stall) - stalls))"
	done
}

server
case "${1:-check}" in
check)
	mount_v4
	access_client check $H/table ;;
bench)
	shift
	bench "$@"
	frag "$@" ;;
*)
	fail "unknown mode $1" ;;
esac
