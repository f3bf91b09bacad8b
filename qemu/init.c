// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal /init for the test guests: no shell, no libraries.
 *
 * It mounts the usual file systems, then runs every line of /harness/plan:
 *
 *	label <TAB> timeout-seconds <TAB> program <TAB> arg ...
 *
 * with stdout and stderr on the console, framing each run with
 *
 *	# harness: begin <label>
 *	# harness: end <label> exit=<n> | signal=<n> | timeout
 *
 * and finally prints "# harness: done" and reboots, which QEMU (started with
 * -no-reboot) turns into an exit.  The host side (qemu/harness.py) reads
 * these lines from the console log.
 *
 * A program runs in a session of its own, but what it leaves behind may
 * have left that session too.  As pid 1, /init is the parent of every
 * orphan, and as it runs one program at a time, every process in the guest
 * but itself belongs to the current one: once the program has exited (or
 * timed out), kill(-1, SIGKILL) ends them all, and /init reaps them before
 * it prints the end line, so that nothing of one program runs on into the
 * next.  It waits by blocking in sigtimedwait() on SIGCHLD (blocked, so
 * queued) with the time left, never by polling.
 *
 * The system-wide settings that the tests change (SYSCTLS) are read before
 * each program and written back after it when they differ: a test that is
 * killed on a timeout cannot restore them itself, and the kselftest harness
 * of 6.1 runs no clean-up of its own once it has killed a test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PLAN	"/harness/plan"
#define MAXARGS	64
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define REAP_SECONDS	30	/* for the leftovers to die after SIGKILL */

/* What the tests change for everyone: put back after each program */
static const char *const SYSCTLS[] = {
	"/proc/sys/kernel/ngroups_max",
	"/proc/sys/kernel/overflowgid",
	"/proc/sys/net/ipv4/ping_group_range",
};

#define NSYSCTLS	ARRAY_SIZE(SYSCTLS)

static sigset_t chld_set, orig_mask;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (write(STDOUT_FILENO, buf, n) < 0)
		return;
}

static void do_mount(const char *src, const char *dst, const char *type,
		     unsigned long flags, const char *data, int optional)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, flags, data) && !optional)
		say("# harness: mount %s on %s: %s\n", type, dst, strerror(errno));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Wait until a child may have changed state or @deadline has passed:
 * false once it has passed.
 */
static int wait_chld(double deadline)
{
	struct timespec ts;
	double left = deadline - now();

	if (left <= 0)
		return 0;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
	if (sigtimedwait(&chld_set, NULL, &ts) < 0 && errno == EAGAIN)
		return now() < deadline;
	return 1;
}

/*
 * Reap children until @pid has exited (its status in @status) or, if @pid
 * is 0, until there are none left; the others are reaped as they come.
 * Returns the number of children reaped other than @pid, or -1 if
 * @deadline passed first.
 */
static int reap(pid_t pid, int *status, double deadline)
{
	int n = 0, st;
	pid_t w;

	for (;;) {
		w = waitpid(-1, &st, WNOHANG);
		if (w > 0 && w == pid) {
			*status = st;
			return n;
		}
		if (w > 0) {
			n++;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)	/* ECHILD: nobody left */
			return pid ? -1 : n;
		if (!wait_chld(deadline))
			return -1;
	}
}

/* Read a small (sysctl) file; NULL if there is none. */
static char *slurp(const char *path)
{
	char buf[256];
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0)
		return NULL;
	buf[len] = '\0';
	return strdup(buf);
}

/* Put the SYSCTLS back to @saved where they differ, and say so. */
static void restore_sysctls(const char *label, char **saved)
{
	unsigned int i;
	char *now_text;
	int fd, ok, err;

	for (i = 0; i < NSYSCTLS; i++) {
		if (!saved[i])
			continue;
		now_text = slurp(SYSCTLS[i]);
		if (now_text && strcmp(now_text, saved[i])) {
			fd = open(SYSCTLS[i], O_WRONLY | O_CLOEXEC);
			ok = fd >= 0 && write(fd, saved[i], strlen(saved[i])) ==
					(ssize_t)strlen(saved[i]);
			err = errno;
			if (fd >= 0)
				close(fd);
			now_text[strcspn(now_text, "\n")] = '\0';
			say("# harness: %s left %s at %s: %s\n", label, SYSCTLS[i] + 10,
			    now_text, ok ? "restored" : strerror(err));
		}
		free(now_text);
		free(saved[i]);
		saved[i] = NULL;
	}
}

/* Run one plan line; returns nothing, reports on the console. */
static void run(char *line)
{
	char *field[MAXARGS + 3], *save = NULL, *tok, *saved[NSYSCTLS];
	int nfield = 0, status = 0, timed_out, left, n;
	unsigned int i;
	double deadline;
	pid_t pid;

	for (tok = strtok_r(line, "\t", &save); tok && nfield < MAXARGS + 2;
	     tok = strtok_r(NULL, "\t", &save))
		field[nfield++] = tok;
	field[nfield] = NULL;
	if (nfield < 3) {
		say("# harness: bad plan line\n");
		return;
	}

	say("# harness: begin %s\n", field[0]);
	for (i = 0; i < NSYSCTLS; i++)
		saved[i] = slurp(SYSCTLS[i]);
	deadline = now() + atoi(field[1]);
	pid = fork();
	if (pid < 0) {
		for (i = 0; i < NSYSCTLS; i++)
			free(saved[i]);
		say("# harness: end %s fork-failed\n", field[0]);
		return;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		sigprocmask(SIG_SETMASK, &orig_mask, NULL);
		if (chdir("/tmp"))
			_exit(126);
		setsid();
		execv(field[2], &field[2]);
		say("# harness: exec %s: %s\n", field[2], strerror(errno));
		_exit(127);
	}

	/* the program, reaping whatever it orphans on the way */
	timed_out = reap(pid, &status, deadline) < 0;

	/* then everything it left, and on a timeout the program itself */
	kill(-1, SIGKILL);
	left = timed_out ? reap(pid, &status, now() + REAP_SECONDS) : 0;
	if (left >= 0) {
		n = reap(0, NULL, now() + REAP_SECONDS);
		left = n < 0 ? -1 : left + n;
	}
	if (left > 0)
		say("# harness: %s left %d processes behind: killed\n", field[0], left);
	else if (left < 0)
		say("# harness: %s: processes left that SIGKILL did not end in %ds\n",
		    field[0], REAP_SECONDS);
	restore_sysctls(field[0], saved);

	if (timed_out)
		say("# harness: end %s timeout\n", field[0]);
	else if (WIFEXITED(status))
		say("# harness: end %s exit=%d\n", field[0], WEXITSTATUS(status));
	else
		say("# harness: end %s signal=%d\n", field[0], WTERMSIG(status));
}

int main(void)
{
	char line[4096];
	FILE *plan;

	do_mount("proc", "/proc", "proc", 0, NULL, 0);
	do_mount("sysfs", "/sys", "sysfs", 0, NULL, 0);
	do_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL, 0);
	do_mount("tmpfs", "/dev/shm", "tmpfs", 0, "mode=1777", 0);
	do_mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777", 0);
	do_mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL, 1);

	setenv("PATH", "/bin:/usr/bin:/sbin:/usr/sbin", 1);
	setenv("HOME", "/root", 1);
	setvbuf(stdout, NULL, _IONBF, 0);

	/* blocked, SIGCHLD is queued for sigtimedwait() rather than ignored */
	sigemptyset(&chld_set);
	sigaddset(&chld_set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld_set, &orig_mask);

	plan = fopen(PLAN, "r");
	if (!plan) {
		say("# harness: no %s: %s\n", PLAN, strerror(errno));
	} else {
		while (fgets(line, sizeof(line), plan)) {
			line[strcspn(line, "\n")] = '\0';
			if (line[0] && line[0] != '#')
				run(line);
		}
		fclose(plan);
	}
	say("# harness: done\n");
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
