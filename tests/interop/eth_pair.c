/*
 * eth_pair.c - one IPX node on an Ethernet link (src/link/eth.c), for the
 * network-namespace test tests/integ/eth_link_test.sh. Two of these, one
 * per namespace, exchange datagrams over a veth pair.
 *
 *   eth_pair IFACE FRAME echo [--seconds S] [--pcap FILE]
 *       answer every datagram to socket 4545 with the same bytes, to the
 *       socket it came from, for S seconds (default 10) or until SIGTERM
 *   eth_pair IFACE FRAME ping NODE [--sizes N,N,...] [--pcap FILE]
 *       send one datagram of each payload size (default 1,100,546,max:
 *       the link's largest) to NODE's socket 4545 and wait for the echo,
 *       which must come back with exactly those bytes (3 tries, 1 s each)
 *   eth_pair IFACE FRAME send NODE COUNT [--pcap FILE]
 *       send COUNT 100-byte datagrams to NODE without waiting
 *
 * FRAME is a frame type as ipx_frame_type_parse takes it ("auto" too).
 * Prints "ready node=MAC frame=TYPE mtu=N" once open, a line per
 * datagram ("echo N bytes from ADDR", "ok N" / "FAIL N: why"), and at the
 * end "stats frame=TYPE rx=N tx=N" with every drop counter of frame.h.
 * --pcap writes every frame the link sends or receives (its capture tap).
 * Exit status 0 if everything asked for worked, 1 if not, 2 on bad usage.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipxlab/err.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/log.h"
#include "ipxlab/node.h"
#include "ipxlab/priv/pcap.h"

#define SOCKET 0x4545
#define MAX_SIZES 16

static struct ipx_loop *loop;
static struct ipx_link *link_;
static struct ipx_pcap *pc;
static uint8_t want[IPX_MAX_PACKET];
static size_t want_len;
static bool got, bad;
static char why[128];

static void usage(void)
{
	fprintf(stderr,
		"usage: eth_pair IFACE FRAME echo [--seconds S] [--pcap FILE]\n"
		"       eth_pair IFACE FRAME ping NODE [--sizes N,...] [--pcap FILE]\n"
		"       eth_pair IFACE FRAME send NODE COUNT [--pcap FILE]\n");
	exit(2);
}

static void tap(struct ipx_link *link, const struct ipx_link_tap_pkt *p,
		void *ctx)
{
	struct timespec ts;

	(void)link;
	(void)ctx;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (p->frame)
		ipx_pcap_write_frame(pc, (ipx_time)ts.tv_sec * IPX_SEC +
						 (ipx_time)ts.tv_nsec / 1000,
				     p->data, p->len);
}

static void on_echo(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx)
{
	char a[IPX_ADDR_STRLEN];

	(void)ctx;
	printf("echo %zu bytes from %s\n", len, ipx_addr_format(&hdr->src, a));
	fflush(stdout);
	ipx_socket_sendto(sock, &hdr->src, 4, data, len);
}

static void on_reply(struct ipx_socket *sock, const struct ipx_header *hdr,
		     const uint8_t *data, size_t len, void *ctx)
{
	(void)sock;
	(void)hdr;
	(void)ctx;
	if (len != want_len)
		snprintf(why, sizeof(why), "echo of %zu bytes, sent %zu", len,
			 want_len);
	else if (memcmp(data, want, len))
		snprintf(why, sizeof(why), "echo differs from what was sent");
	else
		why[0] = '\0';
	bad = why[0] != '\0';
	got = true;
}

static bool got_reply(void *ctx)
{
	(void)ctx;
	return got;
}

static void on_signal(struct ipx_loop *l, int signo, void *ctx)
{
	(void)signo;
	(void)ctx;
	ipx_loop_stop(l);
}

static void print_stats(void)
{
	printf("stats frame=%s rx=%llu tx=%llu tx_errors=%llu",
	       ipx_frame_type_name(ipx_eth_link_frame(link_)),
	       (unsigned long long)link_->stats.rx_packets,
	       (unsigned long long)link_->stats.tx_packets,
	       (unsigned long long)link_->stats.tx_errors);
	for (int d = 0; d < IPX_FRAME_DROP_COUNT; d++)
		printf(" %s=%llu", ipx_frame_drop_name((enum ipx_frame_drop)d),
		       (unsigned long long)ipx_eth_link_drops(
			       link_, (enum ipx_frame_drop)d));
	printf("\n");
	fflush(stdout);
}

/* One datagram of 'size' payload bytes to 'dst', echoed back intact. */
static bool ping_one(struct ipx_socket *sock, const struct ipx_addr *dst,
		     size_t size)
{
	want_len = size;
	for (size_t i = 0; i < size; i++)
		want[i] = (uint8_t)(i * 13 + size);
	for (int attempt = 0; attempt < 3; attempt++) {
		int rc = ipx_socket_sendto(sock, dst, 4, want, size);

		if (rc != IPX_OK) {
			snprintf(why, sizeof(why), "send: %s",
				 ipx_strerror(rc));
			return false;
		}
		got = false;
		if (ipx_loop_run_until(loop, got_reply, NULL, IPX_SEC) ==
		    IPX_OK)
			return !bad;
		snprintf(why, sizeof(why), "no echo within 1 s (3 tries)");
	}
	return false;
}

static size_t parse_sizes(const char *text, size_t *sizes, size_t max)
{
	char buf[256], *save = NULL;
	size_t n = 0, most = link_->mtu - IPX_HDR_LEN;

	snprintf(buf, sizeof(buf), "%s", text);
	for (char *t = strtok_r(buf, ",", &save); t && n < MAX_SIZES;
	     t = strtok_r(NULL, ",", &save)) {
		size_t v = strcmp(t, "max") ? strtoul(t, NULL, 10) : most;

		if (v > max)
			usage();
		sizes[n++] = v;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct ipx_eth_options o = { 0 };
	struct ipx_node *node;
	struct ipx_socket *sock;
	struct ipx_addr dst = { .socket = SOCKET };
	const char *pcap_path = NULL, *sizes_text = "1,100,546,max";
	double seconds = 10;
	unsigned long count = 0;
	char err[256], mac[13];
	int rc = 0, argi;
	static const int sigs[] = { SIGTERM, SIGINT };

	if (argc < 4 || ipx_frame_type_parse(argv[2], &o.frame) < 0)
		usage();
	argi = 4;
	if (strcmp(argv[3], "echo")) {
		if (argc < 5 || ipx_addr_parse(argv[4], &dst) != IPX_OK) {
			char full[64];

			/* A bare node: network 0, socket 4545. */
			snprintf(full, sizeof(full), "0:%s:%x",
				 argc > 4 ? argv[4] : "", SOCKET);
			if (argc < 5 || ipx_addr_parse(full, &dst) != IPX_OK)
				usage();
		}
		argi = 5;
		if (!strcmp(argv[3], "send")) {
			if (argc < 6)
				usage();
			count = strtoul(argv[5], NULL, 10);
			argi = 6;
		} else if (strcmp(argv[3], "ping")) {
			usage();
		}
	}
	for (; argi < argc; argi++) {
		if (argi + 1 >= argc)
			usage();
		if (!strcmp(argv[argi], "--pcap"))
			pcap_path = argv[++argi];
		else if (!strcmp(argv[argi], "--seconds"))
			seconds = atof(argv[++argi]);
		else if (!strcmp(argv[argi], "--sizes"))
			sizes_text = argv[++argi];
		else
			usage();
	}
	ipx_log_set_level(IPX_LOG_INFO);
	loop = ipx_loop_new(ipx_clock_system());
	node = ipx_node_new(loop, NULL);
	if (!loop || !node)
		return 1;
	if (ipx_eth_link_open(loop, argv[1], &o, &link_, err, sizeof(err)) !=
	    IPX_OK) {
		fprintf(stderr, "eth_pair: %s\n", err);
		return 1;
	}
	if (pcap_path) {
		if (ipx_pcap_open(pcap_path, &pc, err, sizeof(err)) != IPX_OK) {
			fprintf(stderr, "eth_pair: %s\n", err);
			return 1;
		}
		link_->tap = tap;
	}
	ipx_node_add_link(node, link_);
	ipx_loop_watch_signals(loop, sigs, 2, on_signal, NULL);
	if (ipx_socket_open(node, SOCKET,
			    strcmp(argv[3], "echo") ? on_reply : on_echo, NULL,
			    &sock) != IPX_OK)
		return 1;
	printf("ready node=%s frame=%s mtu=%zu\n",
	       ipx_node_format(link_->node, mac),
	       ipx_frame_type_name(ipx_eth_link_frame(link_)), link_->mtu);
	fflush(stdout);

	if (!strcmp(argv[3], "echo")) {
		ipx_loop_run_for(loop, (ipx_time)(seconds * IPX_SEC));
	} else if (!strcmp(argv[3], "send")) {
		memset(want, 0x5A, 100);
		for (unsigned long i = 0; i < count; i++)
			if (ipx_socket_sendto(sock, &dst, 4, want, 100) != IPX_OK)
				rc = 1;
		ipx_loop_run_for(loop, 100 * IPX_MSEC);
	} else {
		size_t sizes[MAX_SIZES];
		size_t n = parse_sizes(sizes_text, sizes, IPX_MAX_PACKET - 30);

		for (size_t i = 0; i < n; i++) {
			if (ping_one(sock, &dst, sizes[i])) {
				printf("ok %zu\n", sizes[i]);
			} else {
				printf("FAIL %zu: %s\n", sizes[i], why);
				rc = 1;
			}
			fflush(stdout);
		}
	}
	print_stats();
	ipx_socket_close(sock);
	ipx_node_free(node);	/* closes the link too */
	ipx_loop_free(loop);
	if (pc && ipx_pcap_close(pc) != IPX_OK)
		rc = 1;
	return rc;
}
