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

/* Run one plan line; returns nothing, reports on the console. */
static void run(char *line)
{
	char *field[MAXARGS + 3], *save = NULL, *tok;
	int nfield = 0, status;
	double deadline;
	pid_t pid, w;

	for (tok = strtok_r(line, "\t", &save); tok && nfield < MAXARGS + 2;
	     tok = strtok_r(NULL, "\t", &save))
		field[nfield++] = tok;
	field[nfield] = NULL;
	if (nfield < 3) {
		say("# harness: bad plan line\n");
		return;
	}

	say("# harness: begin %s\n", field[0]);
	deadline = now() + atoi(field[1]);
	pid = fork();
	if (pid < 0) {
		say("# harness: end %s fork-failed\n", field[0]);
		return;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		if (chdir("/tmp"))
			_exit(126);
		setsid();
		execv(field[2], &field[2]);
		say("# harness: exec %s: %s\n", field[2], strerror(errno));
		_exit(127);
	}

	for (;;) {
		/* As pid 1 we also reap whatever the test orphaned. */
		w = waitpid(-1, &status, WNOHANG);
		if (w == pid)
			break;
		if (w > 0)
			continue;
		if (now() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			say("# harness: end %s timeout\n", field[0]);
			return;
		}
		usleep(w == 0 ? 2000 : 20000);
	}
	if (WIFEXITED(status))
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
