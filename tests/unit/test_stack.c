/*
 * test_stack.c - the stack protocol's codec, and the stack daemon driven
 * over its real unix socket by a client written here (the shim's side of
 * stack_proto.h): OPEN gives a socketpair end, BIND's af_ipx rules
 * (network 0, dynamic ports, EADDRINUSE, EADDRNOTAVAIL, EINVAL twice),
 * CONNECT, INFO, datagrams through the node and back as DATA frames, the
 * internal network by IFSET, /proc text, counted bad frames. The node is
 * on the in-memory link with the fake clock; the loop turns by hand.
 */
#include "cm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/node.h"
#include "ipxlab/stack.h"
#include "ipxlab/stack_proto.h"

struct rig {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_node *node;
	struct ipx_stack *st;
	char path[108];
};

static int setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	struct ipx_stack_options so = { .path = r->path };
	char err[256];

	snprintf(r->path, sizeof(r->path), "/tmp/ipxlab-test-stack-%ld",
		 (long)getpid());
	ipx_clock_fake_init(&r->clk, 0);
	r->loop = ipx_loop_new(&r->clk);
	r->seg = ipx_mem_segment_new(r->loop, 0xAA, 7);
	r->node = ipx_node_new(r->loop, NULL);
	ipx_node_add_link(r->node, ipx_mem_link_new(r->seg, NULL));
	assert_int_equal(ipx_stack_new(r->node, &so, &r->st, err, sizeof(err)),
			 IPX_OK);
	ipx_stack_add_device(r->st, ipx_node_link(r->node, 0), "mem0",
			     IPX_STACK_LFRAME_ETHERII);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;

	ipx_stack_free(r->st);
	ipx_node_free(r->node);
	ipx_mem_segment_free(r->seg);
	ipx_loop_free(r->loop);
	assert_int_not_equal(access(r->path, F_OK), 0);	/* removed */
	free(r);
	return 0;
}

static void turn(struct rig *r)
{
	for (int i = 0; i < 4; i++)
		ipx_loop_run_once(r->loop, 0);
}

/* One request as the shim sends it; returns the errno, body in out. */
static int ask(struct rig *r, const struct ipx_stack_req *req, int fd,
	       uint8_t *out, size_t *outlen, int *got)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int))];
	} c;
	uint8_t msg[IPX_STACK_MAX_CTL];
	struct iovec iov = { msg, 0 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct ipx_stack_reply rep;
	int s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	ssize_t n;

	strcpy(sa.sun_path, r->path);
	assert_int_equal(connect(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	iov.iov_len = ipx_stack_req_encode(req, msg, sizeof(msg));
	assert_true(iov.iov_len > 0);
	memset(&c, 0, sizeof(c));
	if (fd >= 0) {
		m.msg_control = c.space;
		m.msg_controllen = sizeof(c.space);
		c.h.cmsg_level = SOL_SOCKET;
		c.h.cmsg_type = SCM_RIGHTS;
		c.h.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&c.h), &fd, sizeof(int));
	}
	assert_true(sendmsg(s, &m, 0) > 0);
	turn(r);
	iov.iov_len = sizeof(msg);
	m.msg_control = c.space;
	m.msg_controllen = sizeof(c.space);
	n = recvmsg(s, &m, MSG_DONTWAIT);
	close(s);
	assert_true(n >= IPX_STACK_REPLY_HDR);
	assert_int_equal(ipx_stack_reply_decode(msg, (size_t)n, &rep), IPX_OK);
	assert_int_equal(rep.op, req->op);
	if (out) {
		memcpy(out, rep.body, rep.len);
		*outlen = rep.len;
	}
	if (got) {
		struct cmsghdr *h = CMSG_FIRSTHDR(&m);

		assert_non_null(h);
		memcpy(got, CMSG_DATA(h), sizeof(int));
	}
	return (int)rep.err;
}

static int open_sock(struct rig *r)
{
	struct ipx_stack_req req = { .op = IPX_STACK_OPEN };
	int fd = -1;

	assert_int_equal(ask(r, &req, -1, NULL, NULL, &fd), 0);
	assert_true(fd >= 0);
	return fd;
}

static int bind_sock(struct rig *r, int fd, uint32_t net, uint16_t port,
		     struct ipx_addr *bound)
{
	struct ipx_stack_req req = { .op = IPX_STACK_BIND,
				     .addr = { .net = net, .socket = port } };
	uint8_t b[64];
	size_t len = 0;
	int err = ask(r, &req, fd, b, &len, NULL);

	if (!err && bound) {
		assert_int_equal(len, IPX_STACK_ADDR_LEN);
		ipx_stack_get_addr(b, bound);
	}
	return err;
}

static void codec_round_trips(void **state)
{
	struct ipx_stack_req in = { .op = IPX_STACK_IFSET,
				    .addr = { .net = 0xABCD,
					      .node = { 0, 0, 0, 0, 0, 1 } },
				    .special = IPX_STACK_INTERNAL,
				    .action = IPX_STACK_CRTITF },
			     out;
	struct ipx_stack_frame f = { .op = IPX_STACK_SEND,
				     .flags = IPX_STACK_F_ADDR, .type = 17,
				     .addr = { .net = 0xAA, .socket = 0x451 } },
			       g;
	uint8_t b[64];
	size_t n;

	(void)state;
	strcpy(in.dev, "eth0");
	n = ipx_stack_req_encode(&in, b, sizeof(b));
	assert_int_equal(n, IPX_STACK_REQ_HDR + 30);
	assert_int_equal(ipx_stack_req_decode(b, n, &out), IPX_OK);
	assert_int_equal(out.addr.net, 0xABCD);
	assert_string_equal(out.dev, "eth0");
	assert_int_equal(out.special, IPX_STACK_INTERNAL);
	/* Wrong length, padding, op: refused. */
	assert_int_equal(ipx_stack_req_decode(b, n - 1, &out), IPX_EINVAL);
	b[1] = 1;
	assert_int_equal(ipx_stack_req_decode(b, n, &out), IPX_EINVAL);
	b[1] = 0;
	b[0] = 0x7F;
	assert_int_equal(ipx_stack_req_decode(b, n, &out), IPX_EINVAL);
	ipx_stack_frame_encode(b, &f);
	assert_int_equal(ipx_stack_frame_decode(b, IPX_STACK_FRAME_HDR, &g),
			 IPX_OK);
	assert_int_equal(g.type, 17);
	assert_int_equal(g.addr.socket, 0x451);
	assert_int_equal(ipx_stack_frame_decode(b, IPX_STACK_FRAME_HDR - 1, &g),
			 IPX_EINVAL);
	b[1] = 0x80;	/* unknown flag */
	assert_int_equal(ipx_stack_frame_decode(b, IPX_STACK_FRAME_HDR, &g),
			 IPX_EINVAL);
}

static void bind_follows_af_ipx(void **state)
{
	struct rig *r = *state;
	struct ipx_addr a, b;
	int s1 = open_sock(r), s2 = open_sock(r), s3 = open_sock(r);

	assert_int_equal(bind_sock(r, s1, 0, 0, &a), 0);
	assert_int_equal(a.net, 0xAA);	/* network 0: the primary */
	assert_int_equal(a.socket, 0x4000);	/* dynamic, from 0x4000 */
	assert_int_equal(bind_sock(r, s1, 0, 0, NULL), EINVAL);	/* twice */
	assert_int_equal(bind_sock(r, s2, 0, 0x4000, NULL), EADDRINUSE);
	assert_int_equal(bind_sock(r, s2, 0xBEEF, 0, NULL), EADDRNOTAVAIL);
	assert_int_equal(bind_sock(r, s2, 0xAA, 0, &b), 0);
	assert_int_equal(b.socket, 0x4001);	/* counting up */
	/* Root holds CAP_NET_ADMIN; below 0x4000 is then allowed. */
	if (geteuid() == 0)
		assert_int_equal(bind_sock(r, s3, 0, 0x451, NULL), 0);
	assert_int_equal(ipx_stack_socket_count(r->st), 3);
	close(s1);
	close(s2);
	close(s3);
	turn(r);
	assert_int_equal(ipx_stack_socket_count(r->st), 0);
	assert_int_equal(ipx_node_socket_count(r->node), 0);
}

static void datagrams_loop_back_with_source_and_type(void **state)
{
	struct rig *r = *state;
	int s1 = open_sock(r), s2 = open_sock(r);
	struct ipx_addr a, b;
	struct ipx_stack_frame f = { .op = IPX_STACK_SEND,
				     .flags = IPX_STACK_F_ADDR |
					      IPX_STACK_F_TYPE,
				     .type = 4 };
	uint8_t frame[IPX_STACK_FRAME_HDR + 5], in[128];
	ssize_t n;

	bind_sock(r, s1, 0, 0, &a);
	bind_sock(r, s2, 0, 0, &b);
	f.addr = b;
	ipx_stack_frame_encode(frame, &f);
	memcpy(frame + IPX_STACK_FRAME_HDR, "hello", 5);
	assert_int_equal(send(s1, frame, sizeof(frame), 0), sizeof(frame));
	turn(r);
	n = recv(s2, in, sizeof(in), MSG_DONTWAIT);
	assert_int_equal(n, IPX_STACK_FRAME_HDR + 5);
	assert_int_equal(ipx_stack_frame_decode(in, (size_t)n, &f), IPX_OK);
	assert_int_equal(f.op, IPX_STACK_DATA);
	assert_int_equal(f.type, 4);
	assert_true(ipx_addr_eq(&f.addr, &a));
	assert_memory_equal(in + IPX_STACK_FRAME_HDR, "hello", 5);
	/* Unconnected and without an address: counted, not sent. */
	frame[1] = 0;
	send(s1, frame, sizeof(frame), 0);
	frame[3] = 9;	/* bad padding */
	send(s1, frame, sizeof(frame), 0);
	turn(r);
	assert_int_equal(ipx_stack_stats(r->st)->drops[IPX_STACK_DROP_NOT_CONNECTED], 1);
	assert_int_equal(ipx_stack_stats(r->st)->drops[IPX_STACK_DROP_BAD_FRAME], 1);
	/* Larger than the node's packets (1470 bytes): delivered whole to a
	 * local socket, as af_ipx looped it; for another node on the link,
	 * refused by the link and counted. */
	{
		static uint8_t big[IPX_STACK_FRAME_HDR + 2000], got[4000];

		f.op = IPX_STACK_SEND;
		f.flags = IPX_STACK_F_ADDR | IPX_STACK_F_TYPE;
		f.addr = b;
		ipx_stack_frame_encode(big, &f);
		big[sizeof(big) - 1] = 0x5A;
		send(s1, big, sizeof(big), 0);
		turn(r);
		n = recv(s2, got, sizeof(got), MSG_DONTWAIT);
		assert_int_equal(n, sizeof(big));
		assert_int_equal(got[sizeof(big) - 1], 0x5A);
		f.addr.node[0] ^= 0x40;	/* someone else on that network */
		ipx_stack_frame_encode(big, &f);
		send(s1, big, sizeof(big), 0);
		turn(r);
		assert_int_equal(ipx_stack_stats(r->st)->drops[IPX_STACK_DROP_TX_REFUSED], 1);
	}
	assert_int_equal(recv(s2, in, sizeof(in), MSG_DONTWAIT), -1);
	close(s1);
	close(s2);
	turn(r);
}

static void connect_sets_peer_and_type(void **state)
{
	struct rig *r = *state;
	int s = open_sock(r);
	struct ipx_stack_req req = { .op = IPX_STACK_CONNECT,
				     .addr = { .net = 0xAA, .socket = 0x4545 },
				     .type = 0x11 };
	uint8_t b[64];
	size_t len;
	struct ipx_addr peer;

	memset(req.addr.node, 0x42, IPX_NODE_LEN);
	assert_int_equal(ask(r, &req, s, NULL, NULL, NULL), 0);
	req.op = IPX_STACK_INFO;
	assert_int_equal(ask(r, &req, s, b, &len, NULL), 0);
	assert_int_equal(b[0], IPX_STACK_INFO_BOUND | IPX_STACK_INFO_CONNECTED);
	assert_int_equal(b[1], 0x11);
	ipx_stack_get_addr(b + 16, &peer);
	assert_int_equal(peer.socket, 0x4545);
	req.op = IPX_STACK_CONNECT;
	req.addr.net = 0xC0FFEE;
	assert_int_equal(ask(r, &req, s, NULL, NULL, NULL), ENETUNREACH);
	/* A descriptor the stack never gave: refused. */
	req.op = IPX_STACK_INFO;
	assert_int_equal(ask(r, &req, 0, NULL, NULL, NULL), EBADF);
	close(s);
	turn(r);
}

static void internal_network_by_ifset(void **state)
{
	struct rig *r = *state;
	struct ipx_stack_req req = { .op = IPX_STACK_IFSET,
				     .addr = { .net = 0xABCD },
				     .special = IPX_STACK_INTERNAL,
				     .action = IPX_STACK_CRTITF };
	uint8_t text[IPX_STACK_MAX_CTL];
	size_t len;
	struct ipx_addr a;
	int s;

	if (geteuid() != 0)
		skip();	/* IFSET needs CAP_NET_ADMIN */
	assert_int_equal(ask(r, &req, -1, NULL, NULL, NULL), 0);
	assert_int_equal(ask(r, &req, -1, NULL, NULL, NULL), EEXIST);
	s = open_sock(r);
	bind_sock(r, s, 0, 0, &a);
	assert_int_equal(a.net, 0xABCD);	/* now the primary */
	assert_int_equal(a.node[5], 1);
	req = (struct ipx_stack_req){ .op = IPX_STACK_PROC,
				      .which = IPX_STACK_PROC_INTERFACE };
	assert_int_equal(ask(r, &req, -1, text, &len, NULL), 0);
	text[len] = '\0';
	assert_non_null(strstr((char *)text,
			       "0000ABCD   000000000001   Yes      Internal   None\n"));
	assert_non_null(strstr((char *)text, "   No       mem0       EtherII\n"));
	req = (struct ipx_stack_req){ .op = IPX_STACK_IFSET,
				      .special = IPX_STACK_INTERNAL,
				      .action = IPX_STACK_DLTITF };
	assert_int_equal(ask(r, &req, -1, NULL, NULL, NULL), 0);
	assert_int_equal(ask(r, &req, -1, NULL, NULL, NULL), ENOENT);
	req = (struct ipx_stack_req){ .op = IPX_STACK_IFGET,
				      .type = IPX_STACK_LFRAME_8022 };
	strcpy(req.dev, "mem0");
	assert_int_equal(ask(r, &req, -1, NULL, NULL, NULL), EADDRNOTAVAIL);
	strcpy(req.dev, "nosuchdev9");
	assert_int_equal(ask(r, &req, -1, NULL, NULL, NULL), ENODEV);
	close(s);
	turn(r);
}

static void collect(struct ipx_socket *sock, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_header *last = ctx;

	(void)sock;
	(void)data;
	(void)len;
	*last = *h;
}

/* Send "x" from a stack socket bound to 'port' to 'to'; the header the
 * peer node got. */
static struct ipx_header sent_from(struct rig *r, uint16_t port,
				   const struct ipx_addr *to,
				   struct ipx_header *got)
{
	struct ipx_stack_frame f = { .op = IPX_STACK_SEND,
				     .flags = IPX_STACK_F_ADDR, .addr = *to };
	uint8_t frame[IPX_STACK_FRAME_HDR + 1];
	int s = open_sock(r);

	assert_int_equal(bind_sock(r, s, 0, port, NULL), 0);
	ipx_stack_frame_encode(frame, &f);
	frame[IPX_STACK_FRAME_HDR] = 'x';
	memset(got, 0, sizeof(*got));
	assert_int_equal(send(s, frame, sizeof(frame), 0), sizeof(frame));
	turn(r);
	close(s);
	turn(r);
	return *got;
}

/*
 * With an internal network, af_ipx sent from SAP (0x452) and RIP (0x453)
 * sockets with the outgoing interface's network and node ("RIP/SAP special
 * handling for mars_nwe" in ipxrtr_route_packet); every other socket sent
 * from the internal network's address.
 */
static void sap_and_rip_sockets_send_from_the_link(void **state)
{
	struct rig *r = *state;
	struct ipx_node *peer = ipx_node_new(r->loop, NULL);
	struct ipx_link *pl = ipx_mem_link_new(r->seg, NULL);
	struct ipx_link *own = ipx_node_link(r->node, 0);
	struct ipx_socket *ps;
	struct ipx_header got, h;
	struct ipx_addr to = { .net = 0xAA, .socket = 0x5000 };

	if (geteuid() != 0)
		skip();	/* ports below 0x4000 need CAP_NET_ADMIN */
	ipx_node_add_link(peer, pl);
	assert_int_equal(ipx_socket_open(peer, 0x5000, collect, &got, &ps),
			 IPX_OK);
	assert_int_equal(ipx_node_set_internal_net(r->node, 0xBAD), IPX_OK);
	turn(r);
	memcpy(to.node, pl->node, IPX_NODE_LEN);
	for (uint16_t port = 0x452; port <= 0x453; port++) {
		h = sent_from(r, port, &to, &got);
		assert_int_equal(h.src.net, 0xAA);
		assert_memory_equal(h.src.node, own->node, IPX_NODE_LEN);
		assert_int_equal(h.src.socket, port);
	}
	/* NCP, diagnostics and a dynamic socket: the internal address. */
	h = sent_from(r, 0x451, &to, &got);
	assert_int_equal(h.src.net, 0xBAD);
	assert_memory_equal(h.src.node, ipx_node_internal, IPX_NODE_LEN);
	h = sent_from(r, 0x456, &to, &got);
	assert_int_equal(h.src.net, 0xBAD);
	h = sent_from(r, 0, &to, &got);
	assert_int_equal(h.src.net, 0xBAD);
	ipx_socket_close(ps);
	ipx_node_free(peer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(codec_round_trips),
		cmocka_unit_test_setup_teardown(bind_follows_af_ipx, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			datagrams_loop_back_with_source_and_type, setup,
			teardown),
		cmocka_unit_test_setup_teardown(connect_sets_peer_and_type,
						setup, teardown),
		cmocka_unit_test_setup_teardown(internal_network_by_ifset,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			sap_and_rip_sockets_send_from_the_link, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
