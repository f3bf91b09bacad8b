// SPDX-License-Identifier: GPL-2.0
/*
 * make check-nfs's client: reads files on the guest's NFS mounts as the
 * users of the guest's /etc/group, with their whole group lists, as a
 * login would give them (qemu/nfs.py writes both the table and the users).
 *
 *	nfs_client check TABLE		one KTAP line per row of TABLE
 *	nfs_client loop PATH UID GID GIDS N	N times stat() and access(R_OK)
 *
 * A row of TABLE:  label path uid gid gids expect
 *
 * gids is a list of gids and ranges ("0,900", "3000-8999"): the caller's
 * supplementary groups.  The row runs in a child that takes them with
 * setgroups(), then gid and uid, and opens path for reading; expect is
 * "read" (open and read() succeed) or an errno name ("EACCES").
 *
 * loop prints "loop <N> <nanoseconds>": the metadata load of make
 * bench-nfs, whose RPCs the caller counts in /proc/net/rpc/nfsd.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define MAX_GIDS	65536

static gid_t gids[MAX_GIDS];

/* "0,900" or "3000-8999,9999" into gids[]; the count, or -1 */
static int parse_gids(const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long lo, hi;
		char *end;

		lo = strtoul(tok, &end, 10);
		hi = *end == '-' ? strtoul(end + 1, &end, 10) : lo;
		if (*end || hi < lo || hi - lo >= (unsigned long)(MAX_GIDS - n)) {
			n = -1;
			break;
		}
		while (lo <= hi)
			gids[n++] = lo++;
	}
	free(copy);
	return n;
}

/* Become uid/gid with the groups of spec; 0 or an errno */
static int become(const char *uid, const char *gid, const char *spec)
{
	int n = parse_gids(spec);

	if (n < 0)
		return EINVAL;
	if (setgroups(n, gids) || setgid(atoi(gid)) || setuid(atoi(uid)))
		return errno;
	return 0;
}

/* In a child: 0 if path opens and reads, else the errno */
static int try_read(const char *path, const char *uid, const char *gid, const char *spec)
{
	int status, err;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (!pid) {
		char c;
		int fd;

		err = become(uid, gid, spec);
		if (err)
			_exit(200);
		fd = open(path, O_RDONLY);
		if (fd < 0 || read(fd, &c, 1) < 0)
			_exit(errno);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static const char *err_name(int err)
{
	switch (err) {
	case 0:		return "read";
	case EACCES:	return "EACCES";
	case EPERM:	return "EPERM";
	case ENOENT:	return "ENOENT";
	case EIO:	return "EIO";
	case 200:	return "no-setgroups";
	default:	return "other";
	}
}

static int check(const char *table)
{
	char line[512], label[128], path[256], uid[16], gid[16], spec[128], expect[16];
	int rows = 0, failed = 0;
	FILE *f = fopen(table, "r");

	if (!f) {
		perror(table);
		return 1;
	}
	while (fgets(line, sizeof(line), f))
		rows += line[0] != '#' && line[0] != '\n';
	rewind(f);
	printf("TAP version 13\n1..%d\n", rows);
	rows = 0;
	while (fgets(line, sizeof(line), f)) {
		int err;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%127s %255s %15s %15s %127s %15s",
			   label, path, uid, gid, spec, expect) != 6) {
			printf("not ok %d malformed row: %s", ++rows, line);
			failed++;
			continue;
		}
		err = try_read(path, uid, gid, spec);
		if (strcmp(err_name(err), expect)) {
			printf("not ok %d %s\n# %s as uid %s: got %s (%d), want %s\n",
			       ++rows, label, path, uid, err_name(err), err, expect);
			failed++;
		} else {
			printf("ok %d %s\n", ++rows, label);
		}
		fflush(stdout);
	}
	fclose(f);
	return failed ? 1 : 0;
}

static int loop(char **argv)
{
	long i, n = atol(argv[4]);
	struct stat st;
	uint64_t t0;
	int err = become(argv[1], argv[2], argv[3]);

	if (err) {
		printf("nfs_client: cannot become uid %s: %s\n", argv[1], strerror(err));
		return 1;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		if (stat(argv[0], &st) || access(argv[0], R_OK)) {
			printf("nfs_client: %s: %s\n", argv[0], strerror(errno));
			return 1;
		}
	}
	printf("loop %ld %llu\n", n, (unsigned long long)(now_ns() - t0));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	if (argc == 7 && !strcmp(argv[1], "loop"))
		return loop(argv + 2);
	fprintf(stderr, "usage: nfs_client check TABLE | loop PATH UID GID GIDS N\n");
	return 2;
}
