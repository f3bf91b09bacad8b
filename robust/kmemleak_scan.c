// SPDX-License-Identifier: GPL-2.0
/*
 * The last step of make check-debug: ask kmemleak for a scan and report
 * every suspected leak.  kmemleak only reports objects older than five
 * seconds that stayed unreferenced, so wait, scan, wait and scan again (as
 * Documentation/dev-tools/kmemleak.rst suggests), then print
 * /sys/kernel/debug/kmemleak.  Each leak's report is also echoed to the
 * console, where the harness looks for "unreferenced object" too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "guest.h"

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

int main(void)
{
	char *text, *p;
	int leaks = 0, i, err;

	setvbuf(stdout, NULL, _IONBF, 0);
	ksft_print_header();
	ksft_set_plan(2);

	for (i = 0; i < 2; i++) {
		sleep(6);
		err = write_file(KMEMLEAK, "scan");
		if (err) {
			ksft_test_result_fail("kmemleak scan: %s (is kmemleak on?)\n",
					      strerror(-err));
			ksft_exit_fail();
		}
	}
	ksft_test_result_pass("kmemleak scanned twice\n");

	text = read_file(KMEMLEAK);
	if (!text)
		ksft_exit_fail_msg("%s: %s\n", KMEMLEAK, strerror(errno));
	for (p = text; (p = strstr(p, "unreferenced object")); p++)
		leaks++;
	for (p = strtok(text, "\n"); p; p = strtok(NULL, "\n"))
		printf("kmemleak: %s\n", p);
	ksft_test_result(leaks == 0, "kmemleak: %d suspected leaks\n", leaks);
	free(text);
	ksft_finished();
}
