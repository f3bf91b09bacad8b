// SPDX-License-Identifier: GPL-2.0
/*
 * The client of make check-nfs and make check-zfs: file operations and
 * commands run as the users of a table, each with its whole group list, as
 * a login would give it (qemu/nfs.py and qemu/zfs.py write the tables).
 *
 *	access_client check TABLE		one KTAP line per row of TABLE
 *	access_client loop PATH UID GID GIDS N	N times stat() and access(R_OK)
 *
 * A row of TABLE:  label op args uid gid gids expect
 *
 * gids is a list of gids and ranges ("0,900", "3000-8999"): the caller's
 * supplementary groups.  The row runs in a child that takes them with
 * setgroups(), then gid and uid, and does op with args (a comma-separated
 * list):
 *
 *	read PATH		open PATH and read() a byte
 *	create PATH		create PATH (O_CREAT | O_EXCL)
 *	unlink PATH		unlink PATH
 *	rename FROM,TO		rename FROM to TO
 *	chgrp PATH,GID		chown PATH to group GID
 *	setgid PATH		chmod PATH 02644: "kept" if the set-group-ID
 *				bit stays, "dropped" if the file system took it
 *	write PATH,SEEN		write a byte into PATH, fsync() and close
 *				it, then stat SEEN (the file as the server
 *				has it): "kept" or "dropped" as for setgid.
 *				A write by a non-member of the file's group
 *				clears the bit of a file without group
 *				execute (setattr_should_drop_sgid())
 *	localwrite PATH,SEEN,MNT  write, and "over-rpc" if the NFS mount MNT
 *				counted a WRITE RPC for it in
 *				/proc/self/mountstats: the bytes were to go
 *				through LOCALIO, in nfsd with the caller's
 *				own group list
 *	run PROG,ARG...		run PROG; its output is shown
 *
 * expect is "ok", an errno name ("EACCES"), or for run "refused" (the
 * program failed and printed "permission denied", as zfs(8) does),
 * "failed" (it failed otherwise) or "no-value" (it succeeded but printed
 * only "-", as `zfs get` does for a property the caller may not read).
 * Whatever the op, a row whose own group list, read back with getgroups()
 * after it, is not the list it set (sorted, duplicates kept) answers
 * "groups-changed": no file system may write into its caller's list.
 * After its KTAP line every row prints "# answer LABEL ANSWER", which the
 * checks compare between kernels.
 *
 * loop prints "loop <N> <nanoseconds>": the metadata load of make
 * bench-nfs, whose RPCs the caller counts in /proc/net/rpc/nfsd.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define MAX_GIDS	65536
#define MAX_ARGS	16
#define NO_IDENTITY	200	/* exit status: setgroups(), setgid() or setuid() failed */
#define REFUSED		201	/* run: the program said "permission denied" */
#define FAILED		202	/* run: it failed otherwise */
#define NO_VALUE	203	/* run: it printed only "-" */
#define KEPT		204	/* setgid: the bit stayed */
#define DROPPED		205	/* setgid: the file system cleared it */
#define GROUPS_CHANGED	206	/* the row's own group list changed under it */
#define OVER_RPC	207	/* localwrite: a WRITE RPC went out */
#define ROW_SECONDS	120	/* a row that takes longer is killed */

static gid_t gids[MAX_GIDS], seen[MAX_GIDS];
static int ngids;

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
	ngids = n;
	if (setgroups(n, gids) || setgid(strtoul(gid, NULL, 10)) ||
	    setuid(strtoul(uid, NULL, 10)))
		return errno;
	return 0;
}

/* run: PROG's exit, REFUSED or FAILED; its output goes to ours, indented */
static int run(char **argv)
{
	char out[4096], drain[512], *line, *save = NULL;
	int fds[2], status, refused, no_value;
	ssize_t len = 0, got;
	pid_t pid;

	if (pipe(fds))
		return errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return errno;
	}
	if (!pid) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while (len < (ssize_t)sizeof(out) - 1 &&
	       (got = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += got;
	out[len] = 0;
	while (read(fds[0], drain, sizeof(drain)) > 0)	/* what does not fit */
		;
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0)
		return errno;
	refused = strstr(out, "permission denied") != NULL;
	no_value = !strcmp(out, "-\n");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("# %s: %s\n", argv[0], line);
	fflush(stdout);		/* the child leaves with _exit() */
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return no_value ? NO_VALUE : 0;
	return refused ? REFUSED : FAILED;
}

/* Whether getgroups() still gives the list become() set, in the kernel's order */
static bool own_groups_kept(void)
{
	int n = getgroups(MAX_GIDS, seen);

	qsort(gids, ngids, sizeof(gids[0]), cmp_gid);
	return n == ngids && !memcmp(seen, gids, n * sizeof(gids[0]));
}

/* How many WRITE RPCs NFS mount mnt has sent, or -1 */
static long write_rpcs(const char *mnt)
{
	char line[512], want[300];
	long ops = -1;
	bool in = false;
	FILE *f;

	/* setuid() left us undumpable: /proc/self/ would be root's, mode 0400 */
	prctl(PR_SET_DUMPABLE, 1);
	f = fopen("/proc/self/mountstats", "re");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), " mounted on %s with fstype nfs", mnt);
	while (fgets(line, sizeof(line), f)) {
		char *op = line + strspn(line, " \t");

		if (!strncmp(line, "device ", 7))
			in = strstr(line, want) != NULL;
		else if (in && !strncmp(op, "WRITE: ", 7))
			ops = atol(op + 7);
	}
	fclose(f);
	return ops;
}

/* write: a byte into path; KEPT or DROPPED from seen_path's mode, or an errno */
static int write_byte(const char *path, const char *seen_path)
{
	struct stat st;
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return errno;
	/* fsync(): with a write delegation, close() need not wait for the server */
	if (write(fd, "w", 1) != 1 || fsync(fd) || close(fd) || stat(seen_path, &st))
		return errno;
	return st.st_mode & S_ISGID ? KEPT : DROPPED;
}

/* In the child: op on args; 0 or an errno (or run's statuses) */
static int operate(const char *op, char **args, int nargs)
{
	char c;
	int fd;

	if (!strcmp(op, "read") && nargs == 1) {
		fd = open(args[0], O_RDONLY);
		return fd < 0 || read(fd, &c, 1) < 0 ? errno : 0;
	}
	if (!strcmp(op, "create") && nargs == 1)
		return open(args[0], O_CREAT | O_EXCL | O_WRONLY, 0644) < 0 ? errno : 0;
	if (!strcmp(op, "unlink") && nargs == 1)
		return unlink(args[0]) ? errno : 0;
	if (!strcmp(op, "rename") && nargs == 2)
		return rename(args[0], args[1]) ? errno : 0;
	if (!strcmp(op, "chgrp") && nargs == 2)
		return chown(args[0], -1, strtoul(args[1], NULL, 10)) ? errno : 0;
	if (!strcmp(op, "setgid") && nargs == 1) {
		struct stat st;

		if (chmod(args[0], 02644) || stat(args[0], &st))
			return errno;
		return st.st_mode & S_ISGID ? KEPT : DROPPED;
	}
	if (!strcmp(op, "write") && nargs == 2)
		return write_byte(args[0], args[1]);
	if (!strcmp(op, "localwrite") && nargs == 3) {
		long before = write_rpcs(args[2]), after;
		int status;

		if (before < 0)
			return ENOENT;
		status = write_byte(args[0], args[1]);
		after = write_rpcs(args[2]);
		return after == before ? status : OVER_RPC;
	}
	if (!strcmp(op, "run") && nargs >= 1)
		return run(args);
	return EINVAL;
}

/* A row's answer: "ok", an errno name, or one of run's */
static const char *answer(int status)
{
	static char other[32];

	switch (status) {
	case -1:	return "killed";	/* or not waited for */
	case 0:		return "ok";
	case EACCES:	return "EACCES";
	case EPERM:	return "EPERM";
	case ENOENT:	return "ENOENT";
	case EEXIST:	return "EEXIST";
	case EINVAL:	return "EINVAL";
	case EIO:	return "EIO";
	case NO_IDENTITY: return "no-identity";
	case REFUSED:	return "refused";
	case FAILED:	return "failed";
	case NO_VALUE:	return "no-value";
	case KEPT:	return "kept";
	case DROPPED:	return "dropped";
	case GROUPS_CHANGED: return "groups-changed";
	case OVER_RPC:	return "over-rpc";
	default:	snprintf(other, sizeof(other), "errno-%d", status);
			return other;
	}
}

/* Run one row in a child: its exit status, or -1 */
static int row(const char *op, char *argstr, const char *uid, const char *gid,
	       const char *spec)
{
	char *args[MAX_ARGS + 1], *save = NULL;
	int status, nargs = 0;
	pid_t pid;

	for (args[0] = strtok_r(argstr, ",", &save); args[nargs] && nargs < MAX_ARGS;
	     args[++nargs] = strtok_r(NULL, ",", &save))
		;
	args[nargs] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		alarm(ROW_SECONDS);	/* a hung program is killed, with its row */
		if (become(uid, gid, spec))
			_exit(NO_IDENTITY);
		status = operate(op, args, nargs);
		_exit(own_groups_kept() ? status : GROUPS_CHANGED);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int check(const char *table)
{
	char line[1024], label[128], op[16], args[512], uid[16], gid[16], spec[128], expect[16];
	int rows = 0, failed = 0;
	FILE *f = fopen(table, "re");

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
		const char *got;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%127s %15s %511s %15s %15s %127s %15s",
			   label, op, args, uid, gid, spec, expect) != 7) {
			printf("not ok %d malformed row: %s", ++rows, line);
			failed++;
			continue;
		}
		got = answer(row(op, args, uid, gid, spec));
		if (strcmp(got, expect)) {
			printf("not ok %d %s\n# %s %s as uid %s: got %s, want %s\n",
			       ++rows, label, op, args, uid, got, expect);
			failed++;
		} else {
			printf("ok %d %s\n", ++rows, label);
		}
		printf("# answer %s %s\n", label, got);
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
		printf("access_client: cannot become uid %s: %s\n", argv[1], strerror(err));
		return 1;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		if (stat(argv[0], &st) || access(argv[0], R_OK)) {
			printf("access_client: %s: %s\n", argv[0], strerror(errno));
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
	fprintf(stderr, "usage: access_client check TABLE | loop PATH UID GID GIDS N\n");
	return 2;
}
