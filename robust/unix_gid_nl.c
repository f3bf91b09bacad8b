// SPDX-License-Identifier: GPL-2.0
/*
 * unix_gid_nl - the netlink writer of nfsd's auth.unix.gid cache: the
 * "sunrpc" generic netlink family's SUNRPC_CMD_UNIX_GID_SET_REQS (Linux
 * 7.x), which builds a group list with groups_alloc(),
 * group_info_set_gid() and groups_sort().  Debian 12's rpc.mountd still
 * writes /proc/net/rpc/auth.unix.gid/channel, so make check-nfs runs this
 * in its guest:
 *
 *  - a user's gids written through it, shuffled, with duplicates and with
 *    gids at and above 2^31, at sizes on both sides of the inline limit and
 *    up to what one request's nested attribute holds (8,188 gids: the
 *    kernel's own limit, 8,192, cannot be reached), are read back from
 *    /proc/net/rpc/auth.unix.gid/content in unsigned order, duplicates
 *    kept;
 *  - a list holding an invalid gid (first, at the end of the inline part,
 *    last) is refused with EINVAL, and the user's cached list stays as it
 *    was.
 *
 * Run as root.  Where the kernel has no "sunrpc" family it skips, unless
 * UNIX_GID_NL_REQUIRE=1 is in its environment (the 7.x bases), when it
 * fails.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

/* include/uapi/linux/sunrpc_netlink.h (Linux 7.x) */
#define SUNRPC_FAMILY_NAME		"sunrpc"
#define SUNRPC_CMD_UNIX_GID_SET_REQS	5
#define SUNRPC_A_UNIX_GID_REQS_REQUESTS	1
#define SUNRPC_A_UNIX_GID_UID		2
#define SUNRPC_A_UNIX_GID_GIDS		3
#define SUNRPC_A_UNIX_GID_EXPIRY	5

#define CONTENT		"/proc/net/rpc/auth.unix.gid/content"
/* A u32 attribute is 8 bytes; the request's nest (uid 8, expiry 12) has a u16 length */
#define MAX_GIDS	((0xffff - NLA_HDRLEN - 8 - 12) / 8)	/* 8,188 */
#define INVALID_GID	4294967295U	/* (gid_t)-1: no kgid */

static char msg[80 * 1024];
static unsigned int seq;

static struct nlattr *put(struct nlmsghdr *nh, int type, const void *data, int len)
{
	struct nlattr *a = (void *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

/*
 * Send a generic netlink request; 0 or the negative errno of its ack (the
 * socket has NETLINK_CAP_ACK: an error ack does not echo the request).
 */
static int request(int fd, struct nlmsghdr *nh)
{
	char buf[8192];
	struct nlmsghdr *r = (void *)buf;
	ssize_t len;

	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = ++seq;
	if (send(fd, nh, nh->nlmsg_len, 0) < 0)
		return -errno;
	len = recv(fd, buf, sizeof(buf), 0);
	if (len < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) ||
	    r->nlmsg_type != NLMSG_ERROR || r->nlmsg_seq != seq)
		return -EBADMSG;	/* not the ack of this request */
	return ((struct nlmsgerr *)NLMSG_DATA(r))->error;
}

static struct nlmsghdr *start(int type, int cmd)
{
	struct nlmsghdr *nh = (void *)msg;
	struct genlmsghdr *g = NLMSG_DATA(nh);

	memset(msg, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nh->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	nh->nlmsg_type = type;
	g->cmd = cmd;
	g->version = 1;
	return nh;
}

/* The "sunrpc" family's id, or 0 where the kernel has none */
static int family(int fd)
{
	struct nlmsghdr *nh = start(GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	char buf[8192];
	struct nlattr *a;
	ssize_t len;
	int rem;

	put(nh, CTRL_ATTR_FAMILY_NAME, SUNRPC_FAMILY_NAME, sizeof(SUNRPC_FAMILY_NAME));
	nh->nlmsg_flags = NLM_F_REQUEST;
	if (send(fd, nh, nh->nlmsg_len, 0) < 0)
		return 0;
	len = recv(fd, buf, sizeof(buf), 0);
	nh = (void *)buf;
	if (len < (ssize_t)NLMSG_HDRLEN || nh->nlmsg_type == NLMSG_ERROR)
		return 0;
	a = (void *)((char *)NLMSG_DATA(nh) + GENL_HDRLEN);
	rem = nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	for (; rem >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len), a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)a + NLA_HDRLEN);
	return 0;
}

/* SUNRPC_CMD_UNIX_GID_SET_REQS: uid's list is gids[0..n); 0 or -errno */
static int set_gids(int fd, int fam, uint32_t uid, const uint32_t *gids, int n)
{
	struct nlmsghdr *nh = start(fam, SUNRPC_CMD_UNIX_GID_SET_REQS);
	uint64_t expiry = time(NULL) + 600;
	struct nlattr *nest;
	int i;

	if (n > MAX_GIDS)
		return -E2BIG;
	nest = put(nh, SUNRPC_A_UNIX_GID_REQS_REQUESTS | NLA_F_NESTED, NULL, 0);
	put(nh, SUNRPC_A_UNIX_GID_UID, &uid, sizeof(uid));
	put(nh, SUNRPC_A_UNIX_GID_EXPIRY, &expiry, sizeof(expiry));
	for (i = 0; i < n; i++)
		put(nh, SUNRPC_A_UNIX_GID_GIDS, &gids[i], sizeof(gids[i]));
	nest->nla_len = (char *)nh + nh->nlmsg_len - (char *)nest;
	return request(fd, nh);
}

/* uid's list as the cache shows it, into out; its length, or -1 if uid has no line */
static int cached(uint32_t uid, uint32_t *out, int max)
{
	static char line[MAX_GIDS * 12 + 64];
	unsigned long u;
	int n = -1, cnt;
	char *p, *end;
	FILE *f = fopen(CONTENT, "r");

	if (!f)
		return -1;
	while (n < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lu %d:", &u, &cnt) != 2 || u != uid)
			continue;
		p = strchr(line, ':') + 1;
		for (n = 0; n < max; n++) {
			/* unix_gid_show() prints gids with %d */
			long g = strtol(p, &end, 10);

			if (end == p)
				break;
			out[n] = (uint32_t)g;
			p = end;
		}
		if (n != cnt)
			n = -2;		/* the count and the gids disagree */
	}
	fclose(f);
	return n;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

FIXTURE(nl) {
	int fd;
	int family;
	uint32_t gids[MAX_GIDS];
	uint32_t want[MAX_GIDS];
	uint32_t got[MAX_GIDS];
};

FIXTURE_SETUP(nl)
{
	int one = 1;

	self->fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, setsockopt(self->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)));
	self->family = access(CONTENT, R_OK) ? 0 : family(self->fd);
}

/*
 * In the test, not the setup: 6.1's harness runs a test whose setup
 * skipped.  The 7.x bases must have the family.
 */
#define NEED_FAMILY()							\
	do {								\
		ASSERT_FALSE(!self->family && getenv("UNIX_GID_NL_REQUIRE")); \
		if (!self->family)					\
			SKIP(return, "no sunrpc netlink family or cache"); \
	} while (0)

FIXTURE_TEARDOWN(nl)
{
	close(self->fd);
}

/* Shuffled, each gid twice, half at or above 2^31: read back sorted, duplicates kept */
TEST_F(nl, lists_read_back_sorted_at_every_size)
{
	static const int sizes[] = { 1, 16, 1022, 1023, 1024, 2000, MAX_GIDS };
	unsigned int s;
	int i, n;

	NEED_FAMILY();
	srandom(1);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint32_t uid = 70000 + s;

		n = sizes[s];
		for (i = 0; i < n; i++)
			self->gids[i] = (i / 2 % 2 ? 0x80000000U : 100000) + i / 4 * 3;
		for (i = n - 1; i > 0; i--) {
			int j = random() % (i + 1);
			uint32_t t = self->gids[i];

			self->gids[i] = self->gids[j];
			self->gids[j] = t;
		}
		memcpy(self->want, self->gids, n * sizeof(uint32_t));
		qsort(self->want, n, sizeof(uint32_t), cmp_u32);
		ASSERT_EQ(0, set_gids(self->fd, self->family, uid, self->gids, n)) {
			TH_LOG("%d gids", n);
		}
		ASSERT_EQ(n, cached(uid, self->got, MAX_GIDS)) {
			TH_LOG("%d gids written", n);
		}
		ASSERT_EQ(0, memcmp(self->want, self->got, n * sizeof(uint32_t))) {
			TH_LOG("%d gids: not read back sorted", n);
		}
	}
}

/* An invalid gid anywhere: EINVAL, and the cached list is the one before */
TEST_F(nl, an_invalid_gid_is_refused_and_changes_nothing)
{
	static const int at[] = { 0, 1021, 1999 };
	uint32_t uid = 71000, before[] = { 5, 6, 7 };
	unsigned int k;
	int i, n = 2000;

	NEED_FAMILY();
	ASSERT_EQ(0, set_gids(self->fd, self->family, uid, before, 3));
	for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		for (i = 0; i < n; i++)
			self->gids[i] = 200000 + i;
		self->gids[at[k]] = INVALID_GID;
		ASSERT_EQ(-EINVAL, set_gids(self->fd, self->family, uid, self->gids, n)) {
			TH_LOG("invalid gid at %d", at[k]);
		}
		ASSERT_EQ(3, cached(uid, self->got, MAX_GIDS));
		ASSERT_EQ(0, memcmp(before, self->got, sizeof(before)));
	}
}

TEST_HARNESS_MAIN
