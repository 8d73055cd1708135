/*
 * afipx.c - an AF_IPX test program written as programs for Linux's
 * kernel IPX were (glibc's <netipx/ipx.h>, plain BSD sockets, nothing of
 * ipxlab), run under `ipxlab run` by tests/integ/stack_test.sh and
 * bench/stack.sh. One mode per argument:
 *
 *   recv PORT [COUNT [TIMEOUT_MS]]  bind PORT (hex, 0 = any), print
 *                                   "bound ADDR", then a line per datagram
 *   send ADDR [COUNT [TYPE [SIZE]]] send COUNT datagrams "msg N" (or SIZE
 *                                   bytes) to ADDR (SO_BROADCAST on)
 *   errors                          every af_ipx error case, one line each
 *   unpriv                          what needs CAP_NET_ADMIN (run without)
 *   nostack                         socket() without a stack
 *   iface NET                       create, use and delete an internal net
 *   numbering NET                   number the hub link, delete and
 *                                   create its interface again
 *   poll                            poll/select/epoll timeouts, O_NONBLOCK
 *   fork                            a socket across fork + exec (fd 3)
 *   child                           (the exec'd half of fork)
 *   pong                            answer Novell pings on 9086
 *   ping ADDR                       one Novell ping to ADDR
 *   sap TYPE NAME                   answer SAP general queries on 0x452
 *   sapq TYPE                       a SAP general query; print who answers
 *   blast ADDR COUNT SIZE           send as fast as possible, print rate
 *   sendfrom PORT ADDR              bind PORT (hex), send "from PORT" to ADDR
 *   route NET GATEWAY               SIOCADDRT: NET (hex) via GATEWAY
 *   efault                          bad address pointers give EFAULT
 *
 * Addresses are NNNNNNNN:XXXXXXXXXXXX:SSSS in hex. Exit status: 0 when
 * every check passed, 1 otherwise; "ok NAME" / "FAIL NAME ..." lines.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <linux/sockios.h>	/* SIOCGSTAMP */
#include <net/route.h>
#include <netipx/ipx.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ncpfs's name for the protocol argument (PF_IPX). */
#ifndef IPXPROTO_IPX
#define IPXPROTO_IPX PF_IPX
#endif

static int failures;

static void check(const char *name, int ok, const char *detail)
{
	if (ok)
		printf("ok %s\n", name);
	else {
		printf("FAIL %s %s\n", name, detail ? detail : "");
		failures++;
	}
	fflush(stdout);
}

/* rc must be -1 with errno want. */
static void expect_errno(const char *name, long rc, int want)
{
	char d[128];
	int got = errno;

	snprintf(d, sizeof(d), "(rc %ld errno %s, wanted %s)", rc,
		 rc < 0 ? strerror(got) : "-", strerror(want));
	check(name, rc == -1 && got == want, d);
}

static void expect_ok(const char *name, long rc)
{
	char d[128];

	snprintf(d, sizeof(d), "(rc %ld: %s)", rc, strerror(errno));
	check(name, rc >= 0, d);
}

static int parse_addr(const char *s, struct sockaddr_ipx *a)
{
	unsigned long net;
	unsigned n[6], port;

	memset(a, 0, sizeof(*a));
	if (sscanf(s, "%8lx:%2x%2x%2x%2x%2x%2x:%4x", &net, &n[0], &n[1], &n[2],
		   &n[3], &n[4], &n[5], &port) != 8)
		return -1;
	a->sipx_family = AF_IPX;
	a->sipx_network = htonl((uint32_t)net);
	for (int i = 0; i < 6; i++)
		a->sipx_node[i] = (unsigned char)n[i];
	a->sipx_port = htons((uint16_t)port);
	return 0;
}

static const char *fmt(const struct sockaddr_ipx *a)
{
	static char b[2][40];
	static int k;
	const unsigned char *n = a->sipx_node;

	k ^= 1;
	snprintf(b[k], sizeof(b[k]), "%08X:%02X%02X%02X%02X%02X%02X:%04X",
		 ntohl(a->sipx_network), n[0], n[1], n[2], n[3], n[4], n[5],
		 ntohs(a->sipx_port));
	return b[k];
}

static int open_bound(unsigned port, struct sockaddr_ipx *me)
{
	struct sockaddr_ipx a = { .sipx_family = AF_IPX };
	socklen_t len = sizeof(a);
	int s = socket(AF_IPX, SOCK_DGRAM, AF_IPX);

	if (s < 0) {
		perror("socket(AF_IPX)");
		exit(1);
	}
	a.sipx_port = htons((uint16_t)port);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		perror("bind");
		exit(1);
	}
	if (me && getsockname(s, (struct sockaddr *)me, &len) < 0) {
		perror("getsockname");
		exit(1);
	}
	return s;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int mode_recv(int argc, char **argv)
{
	unsigned port = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 16) : 0;
	long count = argc > 3 ? atol(argv[3]) : 1;
	int timeout = argc > 4 ? atoi(argv[4]) : 5000;
	struct sockaddr_ipx me;
	int s = open_bound(port, &me);
	int on = 1;

	setsockopt(s, SOL_SOCKET, SO_BROADCAST, &on, sizeof(on));
	printf("bound %s\n", fmt(&me));
	fflush(stdout);
	for (long i = 0; i < count; i++) {
		struct pollfd p = { s, POLLIN, 0 };
		struct sockaddr_ipx from;
		socklen_t fl = sizeof(from);
		char buf[2048];
		ssize_t n;

		if (poll(&p, 1, timeout) != 1) {
			printf("timeout after %ld datagrams\n", i);
			return 3;
		}
		n = recvfrom(s, buf, sizeof(buf) - 1, 0,
			     (struct sockaddr *)&from, &fl);
		if (n < 0) {
			perror("recvfrom");
			return 1;
		}
		buf[n] = '\0';
		printf("from %s type %u len %zd %s\n", fmt(&from),
		       from.sipx_type, n, buf);
		fflush(stdout);
	}
	return 0;
}

static int mode_send(int argc, char **argv)
{
	struct sockaddr_ipx to;
	long count = argc > 3 ? atol(argv[3]) : 1;
	int type = argc > 4 ? (int)strtol(argv[4], NULL, 0) : 4;
	long size = argc > 5 ? atol(argv[5]) : 0;
	int s, on = 1;
	char buf[65536];

	if (argc < 3 || parse_addr(argv[2], &to) < 0) {
		fprintf(stderr, "send ADDR [COUNT [TYPE [SIZE]]]\n");
		return 2;
	}
	s = open_bound(0, NULL);
	setsockopt(s, SOL_SOCKET, SO_BROADCAST, &on, sizeof(on));
	to.sipx_type = (uint8_t)type;
	for (long i = 0; i < count; i++) {
		size_t n = size ? (size_t)size
				: (size_t)snprintf(buf, sizeof(buf), "msg %ld", i);

		if (size)
			memset(buf, 'x', n);
		if (sendto(s, buf, n, 0, (struct sockaddr *)&to, sizeof(to)) !=
		    (ssize_t)n) {
			perror("sendto");
			return 1;
		}
	}
	return 0;
}

static int mode_blast(int argc, char **argv)
{
	struct sockaddr_ipx to;
	long count, size;
	char buf[1500];
	double t0;
	int s, room = 0;

	if (argc < 5 || parse_addr(argv[2], &to) < 0)
		return 2;
	count = atol(argv[3]);
	size = atol(argv[4]);
	if (size < 1 || size > (long)sizeof(buf))
		return 2;
	memset(buf, 'b', (size_t)size);
	s = open_bound(0, NULL);
	ioctl(s, TIOCOUTQ, &room);
	t0 = now();
	for (long i = 0; i < count; i++)
		if (sendto(s, buf, (size_t)size, 0, (struct sockaddr *)&to,
			   sizeof(to)) < 0) {
			perror("sendto");
			return 1;
		}
	/* Done when the stack has taken every datagram: the send queue's
	 * room is back (TIOCOUTQ), as a kernel socket's would be. */
	for (int i = 0; i < 5000; i++) {
		int left = 0;

		if (ioctl(s, TIOCOUTQ, &left) < 0 || left >= room)
			break;
		usleep(1000);
	}
	printf("sent %ld in %.3f s\n", count, now() - t0);
	return 0;
}

static int mode_sendfrom(int argc, char **argv)
{
	struct sockaddr_ipx to;
	char buf[32];
	int s, n;

	if (argc < 4 || parse_addr(argv[3], &to) < 0)
		return 2;
	s = open_bound((unsigned)strtoul(argv[2], NULL, 16), NULL);
	to.sipx_type = 4;
	n = snprintf(buf, sizeof(buf), "from %s", argv[2]);
	expect_ok("sendfrom", sendto(s, buf, (size_t)n, 0,
				     (struct sockaddr *)&to, sizeof(to)));
	return failures != 0;
}

/* SIOCADDRT as ncpfs's ipx_make_reachable_rip adds a route it learnt:
 * the gateway is the address a RIP answer came from. */
static int mode_route(int argc, char **argv)
{
	struct sockaddr_ipx gw;
	struct rtentry rt;
	int s = socket(AF_IPX, SOCK_DGRAM, 0);

	if (argc < 4 || parse_addr(argv[3], &gw) < 0)
		return 2;
	memset(&rt, 0, sizeof(rt));
	rt.rt_flags = RTF_GATEWAY;
	((struct sockaddr_ipx *)&rt.rt_dst)->sipx_family = AF_IPX;
	((struct sockaddr_ipx *)&rt.rt_dst)->sipx_network =
		htonl((uint32_t)strtoul(argv[2], NULL, 16));
	memcpy(&rt.rt_gateway, &gw, sizeof(gw));
	expect_ok("siocaddrt_via_the_answering_router",
		  ioctl(s, SIOCADDRT, &rt));
	return failures != 0;
}

/*
 * A bad address pointer to bind, connect, getsockname, getpeername,
 * sendto, sendmsg, recvfrom and recvmsg: the kernel's copy_from_user /
 * copy_to_user gave EFAULT (move_addr_to_kernel, move_addr_to_user), not
 * a crash. Each call runs in a child, so a SIGSEGV is reported by name.
 */
static void fault_check(const char *name, int s, int which, void *bad)
{
	struct sockaddr_ipx a = { .sipx_family = AF_IPX }, me;
	socklen_t len = sizeof(a), *badlen = bad;
	struct iovec iov = { "x", 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	char buf[64];
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long rc = 0;

		switch (which) {
		case 0: rc = bind(s, bad, sizeof(a)); break;
		case 1: rc = connect(s, bad, sizeof(a)); break;
		case 2: rc = getsockname(s, bad, &len); break;
		case 3: rc = getsockname(s, (struct sockaddr *)&a, badlen); break;
		case 4: rc = getpeername(s, bad, &len); break;
		case 5: rc = sendto(s, "x", 1, 0, bad, sizeof(a)); break;
		case 6: rc = sendto(s, bad, 1, 0, (struct sockaddr *)&a,
				    sizeof(a)); break;
		case 7: m.msg_name = bad; m.msg_namelen = sizeof(a);
			rc = sendmsg(s, &m, 0); break;
		case 8: rc = recvfrom(s, buf, sizeof(buf), MSG_DONTWAIT, bad,
				      &len); break;
		case 9: rc = recvfrom(s, buf, sizeof(buf), MSG_DONTWAIT,
				      (struct sockaddr *)&me, badlen); break;
		case 10: iov.iov_base = buf; iov.iov_len = sizeof(buf);
			m.msg_name = bad; m.msg_namelen = sizeof(a);
			rc = recvmsg(s, &m, MSG_DONTWAIT); break;
		case 11: rc = sendmsg(s, bad, 0); break;
		case 12: rc = bind(s, NULL, sizeof(a)); break;
		}
		expect_errno(name, rc, EFAULT);
		_exit(failures != 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
		char d[64];

		snprintf(d, sizeof(d), "(killed by signal %d)",
			 WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		check(name, 0, d);
	} else if (WEXITSTATUS(st)) {
		failures++;
	}
}

static int mode_efault(void)
{
	static const char *const names[] = {
		"bind_bad_address", "connect_bad_address",
		"getsockname_bad_address", "getsockname_bad_length",
		"getpeername_bad_address", "sendto_bad_address",
		"sendto_bad_data", "sendmsg_bad_name",
		"recvfrom_bad_address", "recvfrom_bad_length",
		"recvmsg_bad_name", "sendmsg_bad_msghdr", "bind_null_address",
	};
	struct sockaddr_ipx me, peer;
	socklen_t len = sizeof(me);
	void *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	int s = socket(AF_IPX, SOCK_DGRAM, 0), c = socket(AF_IPX, SOCK_DGRAM, 0);

	expect_ok("socket", s);
	check("mmap_prot_none", bad != MAP_FAILED, NULL);
	/* Unbound: bind and connect read the address first. */
	fault_check(names[0], s, 0, bad);
	fault_check(names[12], s, 12, NULL);
	fault_check(names[1], s, 1, bad);
	expect_ok("bind_after_faults",
		  bind(s, (struct sockaddr *)&(struct sockaddr_ipx){
				  .sipx_family = AF_IPX }, sizeof(me)));
	expect_ok("getsockname", getsockname(s, (struct sockaddr *)&me, &len));
	for (int i = 2; i <= 3; i++)
		fault_check(names[i], s, i, bad);
	peer = me;
	expect_ok("connect", connect(c, (struct sockaddr *)&peer,
				     sizeof(peer)));
	fault_check(names[4], c, 4, bad);
	for (int i = 5; i <= 7; i++)
		fault_check(names[i], s, i, bad);
	fault_check(names[11], s, 11, bad);
	/* A datagram waiting for each receive (each consumes one). */
	for (int i = 8; i <= 10; i++) {
		struct pollfd p = { s, POLLIN, 0 };

		sendto(c, "d", 1, 0, (struct sockaddr *)&me, sizeof(me));
		poll(&p, 1, 2000);
		fault_check(names[i], s, i, bad);
	}
	/* The socket still works. */
	{
		struct pollfd p = { s, POLLIN, 0 };
		char buf[8];

		sendto(c, "ok", 2, 0, (struct sockaddr *)&me, sizeof(me));
		poll(&p, 1, 2000);
		len = sizeof(peer);
		check("still_works",
		      recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&peer,
			       &len) == 2 && !memcmp(buf, "ok", 2),
		      NULL);
	}
	return failures != 0;
}

/* Every error case of af_ipx a program can meet with a stack running. */
static int mode_errors(void)
{
	struct sockaddr_ipx a = { .sipx_family = AF_IPX }, me, from;
	socklen_t len = sizeof(me);
	struct ifreq ifr;
	struct rtentry rt;
	struct msghdr m;
	struct iovec iov;
	char big[70000], small[10];
	int s1, s2, v;

	expect_errno("socket_stream", socket(AF_IPX, SOCK_STREAM, 0),
		     ESOCKTNOSUPPORT);
	expect_errno("socket_seqpacket", socket(AF_IPX, SOCK_SEQPACKET, 0),
		     ESOCKTNOSUPPORT);
	s1 = socket(AF_IPX, SOCK_DGRAM, IPXPROTO_IPX);
	expect_ok("socket_dgram", s1);
	expect_errno("send_unconnected", send(s1, "x", 1, 0), ENOTCONN);
	expect_errno("write_unconnected", write(s1, "x", 1), ENOTCONN);
	expect_errno("getpeername_unconnected",
		     getpeername(s1, (struct sockaddr *)&me, &len), ENOTCONN);
	expect_errno("bind_short_len",
		     bind(s1, (struct sockaddr *)&a, sizeof(a) - 1), EINVAL);
	a.sipx_network = htonl(0xDEADBEEF);
	expect_errno("bind_unknown_net",
		     bind(s1, (struct sockaddr *)&a, sizeof(a)), EADDRNOTAVAIL);
	a.sipx_network = 0;
	expect_ok("bind_any", bind(s1, (struct sockaddr *)&a, sizeof(a)));
	expect_errno("bind_twice", bind(s1, (struct sockaddr *)&a, sizeof(a)),
		     EINVAL);
	len = sizeof(me);
	expect_ok("getsockname", getsockname(s1, (struct sockaddr *)&me, &len));
	check("getsockname_len", len == sizeof(me), NULL);
	check("dynamic_port", ntohs(me.sipx_port) >= 0x4000 &&
				      ntohs(me.sipx_port) <= 0x7FFF, fmt(&me));
	s2 = socket(AF_IPX, SOCK_DGRAM, 0);
	a.sipx_port = me.sipx_port;
	expect_errno("bind_in_use", bind(s2, (struct sockaddr *)&a, sizeof(a)),
		     EADDRINUSE);
	me.sipx_type = 4;
	expect_errno("sendto_bad_flags",
		     sendto(s1, "x", 1, MSG_OOB, (struct sockaddr *)&me,
			    sizeof(me)),
		     EINVAL);
	expect_errno("sendto_nosignal_flag",
		     sendto(s1, "x", 1, MSG_NOSIGNAL, (struct sockaddr *)&me,
			    sizeof(me)),
		     EINVAL);
	from = me;
	from.sipx_family = AF_INET;
	expect_errno("sendto_bad_family",
		     sendto(s1, "x", 1, 0, (struct sockaddr *)&from,
			    sizeof(from)),
		     EINVAL);
	expect_errno("sendto_short_name",
		     sendto(s1, "x", 1, 0, (struct sockaddr *)&me, 8), EINVAL);
	memset(big, 'x', sizeof(big));
	expect_errno("sendto_too_big",
		     sendto(s1, big, 65536 - 30, 0, (struct sockaddr *)&me,
			    sizeof(me)),
		     EMSGSIZE);
	expect_errno("recv_dontwait_empty",
		     recv(s1, small, sizeof(small), MSG_DONTWAIT), EAGAIN);
	/* MSG_TRUNC: 100 bytes into a 10-byte buffer. */
	expect_ok("sendto_self", sendto(s1, big, 100, 0, (struct sockaddr *)&me,
					sizeof(me)));
	memset(&m, 0, sizeof(m));
	iov.iov_base = small;
	iov.iov_len = sizeof(small);
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_name = &from;
	m.msg_namelen = sizeof(from);
	{
		struct pollfd p = { s1, POLLIN, 0 };

		poll(&p, 1, 2000);
	}
	v = 0;
	ioctl(s1, TIOCINQ, &v);
	check("tiocinq_next_datagram", v == 100, NULL);
	check("recvmsg_trunc", recvmsg(s1, &m, 0) == 10 &&
				       (m.msg_flags & MSG_TRUNC),
	      NULL);
	check("recvmsg_source", !memcmp(from.sipx_node, me.sipx_node, 6) &&
					from.sipx_port == me.sipx_port &&
					from.sipx_type == 4,
	      fmt(&from));
	v = 17;
	expect_ok("ipx_type_set",
		  setsockopt(s1, SOL_IPX, IPX_TYPE, &v, sizeof(v)));
	v = 0;
	len = sizeof(v);
	expect_ok("ipx_type_get", getsockopt(s1, SOL_IPX, IPX_TYPE, &v, &len));
	check("ipx_type_value", v == 17, NULL);
	len = sizeof(v);
	getsockopt(s1, SOL_SOCKET, SO_TYPE, &v, &len);
	check("so_type_dgram", v == SOCK_DGRAM, NULL);
	expect_errno("setsockopt_unknown",
		     setsockopt(s1, SOL_IPX, 99, &v, sizeof(v)), ENOPROTOOPT);
	expect_errno("getsockopt_unknown",
		     getsockopt(s1, SOL_IPX, 99, &v, &len), ENOPROTOOPT);
	v = 1;
	expect_ok("so_broadcast",
		  setsockopt(s1, SOL_SOCKET, SO_BROADCAST, &v, sizeof(v)));
	expect_errno("listen", listen(s1, 5), EOPNOTSUPP);
	expect_errno("shutdown", shutdown(s1, SHUT_RDWR), EOPNOTSUPP);
	a.sipx_network = htonl(0x00C0FFEE);
	a.sipx_port = htons(0x4444);
	expect_errno("connect_unreachable",
		     connect(s2, (struct sockaddr *)&a, sizeof(a)), ENETUNREACH);
	/* sendto() too, at once, each time (no route: no datagram). */
	expect_errno("sendto_unreachable",
		     sendto(s2, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)),
		     ENETUNREACH);
	expect_errno("sendto_unreachable_again",
		     sendto(s2, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)),
		     ENETUNREACH);
	{	/* Locally the largest datagram goes through whole, as the
		 * kernel looped 65505 bytes; the node's links stop at 1470. */
		struct sockaddr_ipx m3;
		int s3 = open_bound(0, &m3);
		struct pollfd p3 = { s3, POLLIN, 0 };

		memset(big, 'y', sizeof(big));
		expect_ok("sendto_self_65505",
			  sendto(s3, big, 65535 - 30, 0,
				 (struct sockaddr *)&m3, sizeof(m3)));
		check("self_65505_arrives", poll(&p3, 1, 2000) == 1, NULL);
		memset(big, 0, sizeof(big));
		check("self_65505_whole",
		      recv(s3, big, sizeof(big), MSG_DONTWAIT) == 65535 - 30 &&
			      big[0] == 'y' && big[65535 - 31] == 'y',
		      NULL);
		close(s3);
	}
	{	/* SIOCGSTAMP: ENOENT before the first datagram, then when the
		 * last one arrived. */
		struct sockaddr_ipx m4;
		int s4 = open_bound(0, &m4);
		struct pollfd p4 = { s4, POLLIN, 0 };
		struct timeval before, after, st;

		expect_errno("siocgstamp_nothing_yet", ioctl(s4, SIOCGSTAMP, &st),
			     ENOENT);
		gettimeofday(&before, NULL);
		sendto(s4, "t", 1, 0, (struct sockaddr *)&m4, sizeof(m4));
		poll(&p4, 1, 2000);
		recv(s4, small, sizeof(small), 0);
		gettimeofday(&after, NULL);
		expect_ok("siocgstamp", ioctl(s4, SIOCGSTAMP, &st));
		check("siocgstamp_when_it_arrived",
		      st.tv_sec * 1000000LL + st.tv_usec >=
				      before.tv_sec * 1000000LL + before.tv_usec &&
			      st.tv_sec * 1000000LL + st.tv_usec <=
				      after.tv_sec * 1000000LL + after.tv_usec,
		      NULL);
		close(s4);
	}
	expect_errno("connect_short_len",
		     connect(s2, (struct sockaddr *)&me, 4), EINVAL);
	/* connect, then send() takes the type from connect's sipx_type. */
	me.sipx_type = 0x11;
	expect_ok("connect_self", connect(s2, (struct sockaddr *)&me,
					  sizeof(me)));
	expect_ok("send_connected", send(s2, "hi", 2, 0));
	{
		struct pollfd p = { s1, POLLIN, 0 };

		poll(&p, 1, 2000);
	}
	len = sizeof(from);
	check("connected_type",
	      recvfrom(s1, small, sizeof(small), 0, (struct sockaddr *)&from,
		       &len) == 2 &&
		      from.sipx_type == 0x11,
	      NULL);
	/* ncpfs's request: sendmsg with pieces and no name, then recv. */
	{
		struct iovec parts[3] = { { "ab", 2 }, { "cd", 2 }, { "ef", 2 } };
		struct msghdr g = { .msg_iov = parts, .msg_iovlen = 3 };
		struct pollfd p = { s1, POLLIN, 0 };

		expect_ok("sendmsg_gather_connected", sendmsg(s2, &g, 0));
		poll(&p, 1, 2000);
		check("recv_gathered", recv(s1, small, sizeof(small), 0) == 6 &&
					       !memcmp(small, "abcdef", 6),
		      NULL);
	}
	len = sizeof(from);
	expect_ok("getpeername_connected",
		  getpeername(s2, (struct sockaddr *)&from, &len));
	check("getpeername_value", from.sipx_port == me.sipx_port, fmt(&from));
	/* Interfaces and routes. */
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "nosuch0");
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_type = IPX_FRAME_ETHERII;
	expect_errno("siocgifaddr_no_device", ioctl(s1, SIOCGIFADDR, &ifr),
		     ENODEV);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	expect_errno("siocgifaddr_not_configured",
		     ioctl(s1, SIOCGIFADDR, &ifr), EADDRNOTAVAIL);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "hub0");
	expect_ok("siocgifaddr_hub0", ioctl(s1, SIOCGIFADDR, &ifr));
	check("siocgifaddr_node",
	      !memcmp(((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_node,
		      me.sipx_node, 6),
	      NULL);
	memset(&ifr, 0, sizeof(ifr));
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_family = AF_IPX;
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_special = IPX_INTERNAL;
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_action = IPX_DLTITF;
	expect_errno("delete_missing_internal", ioctl(s1, SIOCSIFADDR, &ifr),
		     ENOENT);
	memset(&rt, 0, sizeof(rt));
	rt.rt_flags = RTF_GATEWAY;
	((struct sockaddr_ipx *)&rt.rt_dst)->sipx_family = AF_IPX;
	((struct sockaddr_ipx *)&rt.rt_dst)->sipx_network = htonl(0x00C0FFEE);
	((struct sockaddr_ipx *)&rt.rt_gateway)->sipx_family = AF_IPX;
	((struct sockaddr_ipx *)&rt.rt_gateway)->sipx_network = htonl(0x4321);
	expect_errno("route_add_gateway_unreachable",
		     ioctl(s1, SIOCADDRT, &rt), ENETUNREACH);
	expect_errno("route_del_missing", ioctl(s1, SIOCDELRT, &rt), ENOENT);
	rt.rt_flags = 0;
	expect_errno("route_not_gateway", ioctl(s1, SIOCADDRT, &rt), EINVAL);
	((struct sockaddr_ipx *)&rt.rt_gateway)->sipx_network = me.sipx_network;
	memset(((struct sockaddr_ipx *)&rt.rt_gateway)->sipx_node, 0x42, 6);
	rt.rt_flags = RTF_GATEWAY;
	if (me.sipx_network) {
		expect_ok("route_add", ioctl(s1, SIOCADDRT, &rt));
		expect_ok("connect_via_route",
			  connect(s2, (struct sockaddr *)&a, sizeof(a)));
		expect_ok("route_del", ioctl(s1, SIOCDELRT, &rt));
	}
	{
		ipx_config_data cd;
		unsigned char one = 1;

		expect_ok("auto_create", ioctl(s1, SIOCAIPXITFCRT, &one));
		expect_ok("cfgdata", ioctl(s1, SIOCIPXCFGDATA, &cd));
		check("cfgdata_value", cd.ipxcfg_auto_create_interfaces == 1 &&
					       cd.ipxcfg_auto_select_primary == 0,
		      NULL);
	}
	close(s1);
	close(s2);
	return failures ? 1 : 0;
}

/* Run without CAP_NET_ADMIN. */
static int mode_unpriv(void)
{
	struct sockaddr_ipx a = { .sipx_family = AF_IPX };
	struct ifreq ifr;
	struct rtentry rt;
	int s = socket(AF_IPX, SOCK_DGRAM, 0);

	expect_ok("socket", s);
	a.sipx_port = htons(0x0451);
	expect_errno("bind_below_4000",
		     bind(s, (struct sockaddr *)&a, sizeof(a)), EACCES);
	a.sipx_port = htons(0x4321);
	expect_ok("bind_4321", bind(s, (struct sockaddr *)&a, sizeof(a)));
	memset(&ifr, 0, sizeof(ifr));
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_family = AF_IPX;
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_network = htonl(0xABC);
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_special = IPX_INTERNAL;
	((struct sockaddr_ipx *)&ifr.ifr_addr)->sipx_action = IPX_CRTITF;
	expect_errno("siocsifaddr", ioctl(s, SIOCSIFADDR, &ifr), EPERM);
	memset(&rt, 0, sizeof(rt));
	rt.rt_flags = RTF_GATEWAY;
	((struct sockaddr_ipx *)&rt.rt_dst)->sipx_family = AF_IPX;
	((struct sockaddr_ipx *)&rt.rt_gateway)->sipx_family = AF_IPX;
	expect_errno("siocaddrt", ioctl(s, SIOCADDRT, &rt), EPERM);
	return failures ? 1 : 0;
}

static int mode_nostack(void)
{
	expect_errno("socket_without_stack", socket(AF_IPX, SOCK_DGRAM, 0),
		     EAFNOSUPPORT);
	expect_errno("socket_stream_without_stack",
		     socket(AF_IPX, SOCK_STREAM, 0), EAFNOSUPPORT);
	return failures ? 1 : 0;
}

static void print_file(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("cannot open %s: %s\n", path, strerror(errno));
		failures++;
		return;
	}
	printf("--- %s\n", path);
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
}

static int set_internal_node(int s, unsigned long net, int action,
			     const unsigned char node[IPX_NODE_LEN])
{
	struct ifreq ifr;
	struct sockaddr_ipx *x = (struct sockaddr_ipx *)&ifr.ifr_addr;

	memset(&ifr, 0, sizeof(ifr));
	x->sipx_family = AF_IPX;
	x->sipx_network = htonl((uint32_t)net);
	x->sipx_special = IPX_INTERNAL;
	x->sipx_action = (unsigned char)action;
	memcpy(x->sipx_node, node, IPX_NODE_LEN);
	return ioctl(s, SIOCSIFADDR, &ifr);
}

static int set_internal(int s, unsigned long net, int action)
{
	/* mars_nwe's 00 00 + htonl(1) */
	static const unsigned char one[IPX_NODE_LEN] = { 0, 0, 0, 0, 0, 1 };

	return set_internal_node(s, net, action, one);
}

static int mode_iface(int argc, char **argv)
{
	unsigned long net = argc > 2 ? strtoul(argv[2], NULL, 16) : 0xABCD;
	struct sockaddr_ipx me, from;
	socklen_t len = sizeof(me);
	int s = socket(AF_IPX, SOCK_DGRAM, 0), t, fd;
	char buf[64];

	expect_ok("create_internal", set_internal(s, net, IPX_CRTITF));
	expect_errno("create_internal_again", set_internal(s, net, IPX_CRTITF),
		     EEXIST);
	print_file("/proc/net/ipx/interface");
	print_file("/proc/net/ipx_interface");
	print_file("/proc/net/ipx_route");
	t = open_bound(0, &me);
	check("bind_lands_on_internal",
	      ntohl(me.sipx_network) == net && me.sipx_node[5] == 1 &&
		      !memcmp(me.sipx_node, "\0\0\0\0\0", 5),
	      fmt(&me));
	me.sipx_type = 4;
	expect_ok("send_to_internal_address",
		  sendto(t, "loop", 4, 0, (struct sockaddr *)&me, sizeof(me)));
	{
		struct pollfd p = { t, POLLIN, 0 };

		check("delivered_locally", poll(&p, 1, 2000) == 1, NULL);
	}
	len = sizeof(from);
	check("received_from_internal",
	      recvfrom(t, buf, sizeof(buf), 0, (struct sockaddr *)&from,
		       &len) == 4 &&
		      from.sipx_network == me.sipx_network,
	      fmt(&from));
	print_file("/proc/net/ipx/socket");
	fd = open("/proc/net/ipx", O_RDONLY);
	check("open_proc_net_ipx", fd >= 0 && read(fd, buf, 10) == 10 &&
					   !memcmp(buf, "Local_Addr", 10),
	      NULL);
	if (fd >= 0)
		close(fd);
	expect_ok("delete_internal", set_internal(s, net, IPX_DLTITF));
	expect_errno("delete_internal_again", set_internal(s, net, IPX_DLTITF),
		     ENOENT);
	print_file("/proc/net/ipx/interface");
	{	/* The node is the caller's, as the kernel took it. */
		static const unsigned char n1234[IPX_NODE_LEN] = { 0, 0, 0, 0,
								   0x12, 0x34 };
		static const unsigned char bcast[IPX_NODE_LEN] = {
			0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

		expect_errno("create_internal_broadcast_node",
			     set_internal_node(s, net, IPX_CRTITF, bcast),
			     EINVAL);
		expect_ok("create_internal_node_1234",
			  set_internal_node(s, net, IPX_CRTITF, n1234));
		close(open_bound(0, &me));
		check("bind_on_internal_node_1234",
		      ntohl(me.sipx_network) == net &&
			      !memcmp(me.sipx_node, n1234, IPX_NODE_LEN),
		      fmt(&me));
		print_file("/proc/net/ipx/interface");
		expect_ok("delete_internal_node_1234",
			  set_internal(s, net, IPX_DLTITF));
	}
	return failures ? 1 : 0;
}

static int set_device(int s, const char *dev, unsigned long net, int action)
{
	struct ifreq ifr;
	struct sockaddr_ipx *x = (struct sockaddr_ipx *)&ifr.ifr_addr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	x->sipx_family = AF_IPX;
	x->sipx_network = htonl((uint32_t)net);
	x->sipx_type = IPX_FRAME_ETHERII;
	x->sipx_special = IPX_SPECIAL_NONE;
	x->sipx_action = (unsigned char)action;
	return ioctl(s, SIOCSIFADDR, &ifr);
}

/* Number a link whose network is unknown (a hub's 0), then remove it. */
static int mode_numbering(int argc, char **argv)
{
	unsigned long net = argc > 2 ? strtoul(argv[2], NULL, 16) : 0xBB;
	int s = socket(AF_IPX, SOCK_DGRAM, 0);
	struct ifreq ifr;
	struct sockaddr_ipx *x = (struct sockaddr_ipx *)&ifr.ifr_addr, me;
	unsigned char node[IPX_NODE_LEN];

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "hub0");
	x->sipx_type = IPX_FRAME_ETHERII;
	expect_ok("siocgifaddr_before", ioctl(s, SIOCGIFADDR, &ifr));
	check("hub_network_unknown", x->sipx_network == 0, NULL);
	expect_ok("number_hub0", set_device(s, "hub0", net, IPX_CRTITF));
	expect_ok("siocgifaddr_after", ioctl(s, SIOCGIFADDR, &ifr));
	check("hub0_numbered", ntohl(x->sipx_network) == net, NULL);
	expect_errno("renumber_hub0", set_device(s, "hub0", net + 1, IPX_CRTITF),
		     EEXIST);
	close(open_bound(0, &me));
	check("bind_on_the_new_number", ntohl(me.sipx_network) == net,
	      fmt(&me));
	expect_errno("unknown_device", set_device(s, "nosuch0", 0xCC, IPX_CRTITF),
		     ENODEV);
	x->sipx_type = 9;
	expect_errno("bad_frame_type", ioctl(s, SIOCGIFADDR, &ifr),
		     EADDRNOTAVAIL);
	x->sipx_type = IPX_FRAME_ETHERII;
	expect_ok("siocgifaddr_node", ioctl(s, SIOCGIFADDR, &ifr));
	memcpy(node, x->sipx_node, sizeof(node));
	expect_ok("delete_hub0", set_device(s, "hub0", 0, IPX_DLTITF));
	/* The device stays, as a network card did: mars_nwe deletes the
	 * interface of each device it is given, then creates it again. */
	expect_errno("delete_hub0_again", set_device(s, "hub0", 0, IPX_DLTITF),
		     EINVAL);
	expect_errno("siocgifaddr_deleted", ioctl(s, SIOCGIFADDR, &ifr),
		     EADDRNOTAVAIL);
	print_file("/proc/net/ipx/interface");
	expect_ok("create_hub0_again", set_device(s, "hub0", net + 2, IPX_CRTITF));
	expect_ok("siocgifaddr_recreated", ioctl(s, SIOCGIFADDR, &ifr));
	check("hub0_same_node_new_number",
	      ntohl(x->sipx_network) == net + 2 &&
		      !memcmp(x->sipx_node, node, sizeof(node)),
	      NULL);
	close(open_bound(0, &me));
	check("bind_on_the_recreated_interface",
	      ntohl(me.sipx_network) == net + 2, fmt(&me));
	return failures ? 1 : 0;
}

static int mode_poll(void)
{
	struct sockaddr_ipx me;
	int s = open_bound(0, &me), ep, fl;
	struct pollfd p = { s, POLLIN, 0 };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct timeval tv = { 0, 200000 };
	fd_set rd;
	double t0;
	char buf[16];
	volatile size_t vlen = sizeof(buf);

	t0 = now();
	check("poll_timeout", poll(&p, 1, 200) == 0 && now() - t0 >= 0.19,
	      NULL);
	FD_ZERO(&rd);
	FD_SET(s, &rd);
	t0 = now();
	check("select_timeout",
	      select(s + 1, &rd, NULL, NULL, &tv) == 0 && now() - t0 >= 0.19,
	      NULL);
	ep = epoll_create1(0);
	ev.data.fd = s;
	epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev);
	check("epoll_timeout", epoll_wait(ep, &out, 1, 100) == 0, NULL);
	me.sipx_type = 4;
	sendto(s, "wake", 4, 0, (struct sockaddr *)&me, sizeof(me));
	check("poll_readable", poll(&p, 1, 2000) == 1 && (p.revents & POLLIN),
	      NULL);
	FD_ZERO(&rd);
	FD_SET(s, &rd);
	tv.tv_sec = 2;
	check("select_readable",
	      select(s + 1, &rd, NULL, NULL, &tv) == 1 && FD_ISSET(s, &rd),
	      NULL);
	check("epoll_readable", epoll_wait(ep, &out, 1, 2000) == 1, NULL);
	/* A length the compiler cannot see: fortified builds call
	 * __read_chk, __recv_chk and __recvfrom_chk here. */
	check("read_datagram", read(s, buf, vlen) == 4, NULL);
	/* writev and readv, sendmmsg and recvmmsg: a datagram each. */
	{
		struct iovec w[2] = { { "wr", 2 }, { "itev", 4 } };
		char r1[3], r2[8];
		struct iovec r[2] = { { r1, 3 }, { r2, 8 } };
		struct mmsghdr mm[2];
		struct iovec one = { "mm", 2 }, back[2] = { { r1, 3 }, { r2, 8 } };

		check("writev", writev(s, w, 2) == -1 && errno == ENOTCONN,
		      "(unconnected)");
		expect_ok("connect_self", connect(s, (struct sockaddr *)&me,
						  sizeof(me)));
		expect_ok("writev_connected", writev(s, w, 2));
		poll(&p, 1, 2000);
		check("readv", readv(s, r, 2) == 6 && !memcmp(r1, "wri", 3) &&
				       !memcmp(r2, "tev", 3),
		      NULL);
		memset(mm, 0, sizeof(mm));
		for (int i = 0; i < 2; i++) {
			mm[i].msg_hdr.msg_iov = &one;
			mm[i].msg_hdr.msg_iovlen = 1;
		}
		check("sendmmsg", sendmmsg(s, mm, 2, 0) == 2, NULL);
		poll(&p, 1, 2000);
		usleep(100000);
		mm[0].msg_hdr.msg_iov = &back[0];
		mm[1].msg_hdr.msg_iov = &back[1];
		check("recvmmsg", recvmmsg(s, mm, 2, 0, NULL) == 2 &&
					  mm[0].msg_len == 2 &&
					  mm[1].msg_len == 2,
		      NULL);
	}
	fl = fcntl(s, F_GETFL);
	expect_ok("o_nonblock", fcntl(s, F_SETFL, fl | O_NONBLOCK));
	expect_errno("recv_nonblock_empty", recv(s, buf, vlen, 0), EAGAIN);
	expect_errno("recvfrom_nonblock_empty",
		     recvfrom(s, buf, vlen, 0, NULL, NULL), EAGAIN);
	{
		int d = dup(s);

		expect_ok("dup", d);
		sendto(s, "dup!", 4, 0, (struct sockaddr *)&me, sizeof(me));
		poll(&p, 1, 2000);
		check("recv_on_dup", recv(d, buf, sizeof(buf), 0) == 4, NULL);
		close(d);
		check("socket_survives_close_of_dup",
		      sendto(s, "x", 1, 0, (struct sockaddr *)&me,
			     sizeof(me)) == 1,
		      NULL);
	}
	close(ep);
	return failures ? 1 : 0;
}

/* The parent keeps receiving on the socket it passed, as ncpserv does. */
static int mode_fork(char *self)
{
	struct sockaddr_ipx shared, me, from;
	int s = open_bound(0, &shared), t = open_bound(0, &me), status;
	struct pollfd p = { t, POLLIN, 0 };
	socklen_t len = sizeof(from);
	char buf[64];
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		dup2(s, 3);
		for (int fd = 4; fd < 64; fd++)
			close(fd);	/* as mars_nwe's children do */
		execl(self, self, "child", (char *)NULL);
		_exit(127);
	}
	shared.sipx_type = 4;
	sendto(t, "ping", 4, 0, (struct sockaddr *)&shared, sizeof(shared));
	check("reply_from_child", poll(&p, 1, 5000) == 1 &&
					  recvfrom(t, buf, sizeof(buf) - 1, 0,
						   (struct sockaddr *)&from,
						   &len) > 0,
	      NULL);
	check("reply_source_is_shared_socket",
	      from.sipx_port == shared.sipx_port, fmt(&from));
	waitpid(pid, &status, 0);
	check("child_ok", WIFEXITED(status) && WEXITSTATUS(status) == 0, NULL);
	/* The parent's copy still works after the child exited. */
	sendto(t, "again", 5, 0, (struct sockaddr *)&shared, sizeof(shared));
	p.fd = s;
	check("parent_copy_receives", poll(&p, 1, 2000) == 1 &&
					      recv(s, buf, sizeof(buf), 0) == 5,
	      NULL);
	return failures ? 1 : 0;
}

static int mode_child(void)
{
	struct sockaddr_ipx me, from;
	socklen_t len = sizeof(me);
	struct pollfd p = { 3, POLLIN, 0 };
	char buf[64];
	ssize_t n;

	expect_ok("child_getsockname_fd3",
		  getsockname(3, (struct sockaddr *)&me, &len));
	printf("child has %s on fd 3\n", fmt(&me));
	check("child_poll", poll(&p, 1, 5000) == 1, NULL);
	len = sizeof(from);
	n = recvfrom(3, buf, sizeof(buf), 0, (struct sockaddr *)&from, &len);
	check("child_recv", n == 4, NULL);
	expect_ok("child_reply",
		  sendto(3, "pong", 4, 0, (struct sockaddr *)&from, len));
	return failures ? 1 : 0;
}

static int mode_pong(int argc, char **argv)
{
	long count = argc > 2 ? atol(argv[2]) : 1;
	int s = open_bound(0x9086, NULL);

	printf("pong ready\n");
	fflush(stdout);
	for (long i = 0; i < count;) {
		struct sockaddr_ipx from;
		socklen_t len = sizeof(from);
		unsigned char b[600];
		ssize_t n = recvfrom(s, b, sizeof(b), 0,
				     (struct sockaddr *)&from, &len);

		if (n < 10 || memcmp(b, "Ping", 4) || b[5] != 0)
			continue;
		b[5] = 1;	/* reply */
		b[8] = 1;	/* result */
		from.sipx_type = 4;
		sendto(s, b, (size_t)n, 0, (struct sockaddr *)&from, len);
		printf("answered ping %u from %s\n", (b[6] << 8) | b[7],
		       fmt(&from));
		fflush(stdout);
		i++;
	}
	return 0;
}

static int mode_ping(int argc, char **argv)
{
	struct sockaddr_ipx to, from;
	unsigned char b[32] = "Ping";
	struct pollfd p;
	socklen_t len = sizeof(from);
	int s;

	if (argc < 3 || parse_addr(argv[2], &to) < 0)
		return 2;
	s = open_bound(0, NULL);
	b[4] = 1;	/* version */
	b[6] = 0x12;
	b[7] = 0x34;	/* ID */
	to.sipx_type = 4;
	sendto(s, b, 20, 0, (struct sockaddr *)&to, sizeof(to));
	p.fd = s;
	p.events = POLLIN;
	if (poll(&p, 1, 3000) != 1 ||
	    recvfrom(s, b, sizeof(b), 0, (struct sockaddr *)&from, &len) < 10) {
		printf("no reply\n");
		return 1;
	}
	printf("reply type %u result %u id %02X%02X from %s\n", b[5], b[8],
	       b[6], b[7], fmt(&from));
	return b[5] == 1 && b[6] == 0x12 && b[7] == 0x34 ? 0 : 1;
}

/* A service answering SAP general queries, as a 1990s server did. */
static int mode_sap(int argc, char **argv)
{
	struct sockaddr_ipx me;
	unsigned type;
	int s;

	if (argc < 4)
		return 2;
	type = (unsigned)strtoul(argv[2], NULL, 16);
	s = open_bound(0x452, &me);
	printf("sap ready %s\n", fmt(&me));
	fflush(stdout);
	for (;;) {
		struct sockaddr_ipx from;
		socklen_t len = sizeof(from);
		unsigned char q[64], r[66];
		unsigned qt;
		ssize_t n = recvfrom(s, q, sizeof(q), 0,
				     (struct sockaddr *)&from, &len);

		if (n < 4 || q[0] != 0 || q[1] != 1)
			continue;	/* not a general query */
		qt = (unsigned)((q[2] << 8) | q[3]);
		if (qt != type && qt != 0xFFFF)
			continue;
		memset(r, 0, sizeof(r));
		r[1] = 2;	/* general response */
		r[2] = (unsigned char)(type >> 8);
		r[3] = (unsigned char)type;
		strncpy((char *)r + 4, argv[3], 47);
		memcpy(r + 52, &me.sipx_network, 4);
		memcpy(r + 56, me.sipx_node, 6);
		r[62] = 0x40;
		r[63] = 0x00;	/* the service's socket: 4000 */
		r[65] = 1;	/* hops */
		from.sipx_type = 4;
		sendto(s, r, sizeof(r), 0, (struct sockaddr *)&from, len);
		printf("answered a query from %s\n", fmt(&from));
		fflush(stdout);
	}
}

/* A SAP general query, broadcast, as a 1990s client asked: print each
 * service of TYPE that answers within 2 s. */
static int mode_sapq(int argc, char **argv)
{
	struct sockaddr_ipx to = { .sipx_family = AF_IPX, .sipx_type = 4 };
	unsigned type = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 16) : 4;
	unsigned char q[4] = { 0, 1, (unsigned char)(type >> 8),
			       (unsigned char)type };
	int s = open_bound(0, NULL), on = 1, found = 0;
	double end;

	setsockopt(s, SOL_SOCKET, SO_BROADCAST, &on, sizeof(on));
	memset(to.sipx_node, 0xFF, 6);
	to.sipx_port = htons(0x452);
	if (sendto(s, q, sizeof(q), 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		perror("sendto");
		return 1;
	}
	end = now() + 2;
	while (now() < end) {
		struct pollfd p = { s, POLLIN, 0 };
		unsigned char r[600];
		ssize_t n;

		if (poll(&p, 1, (int)((end - now()) * 1000) + 1) != 1)
			break;
		n = recv(s, r, sizeof(r), 0);
		if (n < 2 || r[0] != 0 || r[1] != 2)
			continue;
		for (ssize_t off = 2; off + 64 <= n; off += 64) {
			char name[49];

			memcpy(name, r + off + 2, 48);
			name[48] = '\0';
			printf("service %02X%02X %s\n", r[off], r[off + 1], name);
			found++;
		}
	}
	return found ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(m, "recv"))
		return mode_recv(argc, argv);
	if (!strcmp(m, "send"))
		return mode_send(argc, argv);
	if (!strcmp(m, "blast"))
		return mode_blast(argc, argv);
	if (!strcmp(m, "errors"))
		return mode_errors();
	if (!strcmp(m, "unpriv"))
		return mode_unpriv();
	if (!strcmp(m, "nostack"))
		return mode_nostack();
	if (!strcmp(m, "iface"))
		return mode_iface(argc, argv);
	if (!strcmp(m, "numbering"))
		return mode_numbering(argc, argv);
	if (!strcmp(m, "poll"))
		return mode_poll();
	if (!strcmp(m, "fork"))
		return mode_fork(argv[0]);
	if (!strcmp(m, "child"))
		return mode_child();
	if (!strcmp(m, "pong"))
		return mode_pong(argc, argv);
	if (!strcmp(m, "ping"))
		return mode_ping(argc, argv);
	if (!strcmp(m, "sapq"))
		return mode_sapq(argc, argv);
	if (!strcmp(m, "sap"))
		return mode_sap(argc, argv);
	if (!strcmp(m, "sendfrom"))
		return mode_sendfrom(argc, argv);
	if (!strcmp(m, "route"))
		return mode_route(argc, argv);
	if (!strcmp(m, "efault"))
		return mode_efault();
	fprintf(stderr, "usage: afipx recv|send|blast|errors|unpriv|nostack|"
			"iface|numbering|poll|fork|pong|ping|sap|sapq|sendfrom|route|\n"
			"efault ...\n");
	return 2;
}
