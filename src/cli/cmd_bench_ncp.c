/*
 * cmd_bench_ncp.c - "ipxlab bench ncp": what one outstanding NCP request
 * per connection costs, against the round trip measured in the same run.
 *
 * A hub and a file server run as child processes (this binary, exec'd as
 * "ipxlab hub" and "ipxlab server" on loopback, the volume a temporary
 * directory with one large file); this process is the client node. In
 * turn, for --seconds each: IPX round trips to the server node (Novell
 * ping, empty and with a buffer of data), 1-byte reads, open/close pairs,
 * and 256 KB parts of the file in buffer-size reads; ten rounds of every
 * row in turn, so load changing during the run moves all rows alike.
 * The ratios: a 1-byte read against one round trip, an open/close pair
 * against two, and the large get against one buffer per round trip of a
 * small request and a buffer-sized answer (the mean of the empty and the
 * full ping). Targets: 80 % each.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/ping.h"
#include "ipxlab/sap.h"

#define TARGET 0.80
#define ROUNDS 10

void help_bench_ncp(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench ncp [options]\n\n"
		"NCP's cost against the IPX round trip measured in the same run:\n"
		"a hub and 'ipxlab server' as child processes on loopback, this\n"
		"process the client. Rates of 1-byte reads and of open/close\n"
		"pairs beside what one round trip per request allows, and a\n"
		"large get beside one negotiated buffer per round trip. Targets:\n"
		"%.0f%% each.\n\n"
		"  -s, --seconds S     measurement time per row, spread over %d\n"
		"                      rounds of every row in turn (default 5)\n"
		"      --size MB       the file the get reads in turn (default 4)\n"
		"      --bufsize N     buffer size to ask for (default 4096:\n"
		"                      the server answers what fits a packet)\n",
		TARGET * 100, ROUNDS);
}

struct bench {
	char dir[64], vol[96];
	pid_t hub, srv;
	char hubaddr[32];
	struct cli_node cn;
	struct ipx_sap *sap;
	struct ncp_client *cl;
	struct ipx_socket *ping;
	struct ipx_addr server;	/* the server node, socket 0 */
	uint16_t ping_id;
	bool pong;
};

static void on_pong(struct ipx_socket *s, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct bench *b = ctx;
	struct ipx_ping p;
	enum ipx_ping_drop why;

	(void)s;
	(void)h;
	if (ipx_ping_decode(data, len, &p, &why) == IPX_OK &&
	    p.type == IPX_PING_REPLY && p.id == b->ping_id)
		b->pong = true;
}

static bool got_pong(void *ctx)
{
	return ((struct bench *)ctx)->pong;
}

/* Time spent and calls made, summed over the rounds. */
struct acc {
	double t;
	unsigned long n;
};

/* Pings with 'size' bytes of data for 'secs' into a; -1 on no answer. */
static int rtt(struct bench *b, size_t size, double secs, struct acc *a)
{
	uint8_t data[1500] = { 0 }, pkt[1600];
	struct ipx_addr to = b->server;
	ipx_time t0 = ipx_loop_now(b->cn.loop), end;
	unsigned long n = 0;

	to.socket = 0x9086;
	end = t0 + (ipx_time)(secs * IPX_SEC);
	while (ipx_time_before(ipx_loop_now(b->cn.loop), end)) {
		size_t len = ipx_ping_encode(IPX_PING_REQUEST, ++b->ping_id,
					     data, size, pkt, sizeof(pkt));

		b->pong = false;
		if (!len || ipx_socket_sendto(b->ping, &to, IPX_TYPE_PEP, pkt,
					      len) != IPX_OK)
			return -1;
		if (ipx_loop_run_until(b->cn.loop, got_pong, b, IPX_SEC) !=
		    IPX_OK)
			return -1;
		n++;
	}
	a->t += (double)(ipx_loop_now(b->cn.loop) - t0) / IPX_SEC;
	a->n += n;
	return 0;
}

/* Calls of 'op' for 'secs' into a; its error, or 0. */
static int rate(struct bench *b, int (*op)(struct bench *b, void *ctx),
		void *ctx, double secs, struct acc *a)
{
	int err = 0;
	ipx_time t0 = ipx_loop_now(b->cn.loop), end;
	unsigned long n = 0;

	end = t0 + (ipx_time)(secs * IPX_SEC);
	while (ipx_time_before(ipx_loop_now(b->cn.loop), end)) {
		err = op(b, ctx);
		if (err)
			return err;
		n++;
	}
	a->t += (double)(ipx_loop_now(b->cn.loop) - t0) / IPX_SEC;
	a->n += n;
	return 0;
}

struct fileop {
	struct ncp_fh fh;
	uint8_t *buf;
	size_t size;
	uint32_t off;		/* where the next large read starts */
};

#define GET_CHUNK (256 * 1024)	/* one large-get call: many requests */

static int read1(struct bench *b, void *ctx)
{
	struct fileop *f = ctx;
	size_t got;
	int rc = ncp_read(b->cl, &f->fh, 0, f->buf, 1, &got);

	return rc ? rc : got == 1 ? 0 : NCP_E_BADREPLY;
}

static int open_close(struct bench *b, void *ctx)
{
	struct ncp_fh fh;
	int rc = ncp_open(b->cl, "BIG.BIN", NCP_OPEN_READ, &fh);

	(void)ctx;
	return rc ? rc : ncp_close(b->cl, &fh);
}

/* 256 KB of the file, the next part each call (the whole file in turn). */
static int get_part(struct bench *b, void *ctx)
{
	struct fileop *f = ctx;
	size_t got;
	int rc;

	if (f->off + GET_CHUNK > f->size)
		f->off = 0;
	rc = ncp_read(b->cl, &f->fh, f->off, f->buf, GET_CHUNK, &got);
	f->off += GET_CHUNK;
	return rc ? rc : got == GET_CHUNK ? 0 : NCP_E_BADREPLY;
}

static int setup(struct bench *b, size_t size, unsigned bufsize)
{
	char spec[200], name[48], port[8];
	struct cli_node_opts no;
	struct ipx_addr addr;
	int fd, p = cli_free_udp_port(), rc;
	char *hub_argv[] = { "ipxlab", "hub", "--bind", "127.0.0.1", "--port",
			     port, "-q", NULL };
	char *srv_argv[] = { "ipxlab", "server", "--hub", b->hubaddr, "--name",
			     name, "--volume", spec, "-q", NULL };
	uint8_t chunk[65536];

	snprintf(b->dir, sizeof(b->dir), "/tmp/ipxlab-bench-ncp.XXXXXX");
	if (!mkdtemp(b->dir)) {
		b->dir[0] = '\0';
		cli_error("bench", "mkdtemp: %s", strerror(errno));
		return CLI_FAIL;
	}
	snprintf(b->vol, sizeof(b->vol), "%s/BIG.BIN", b->dir);
	fd = open(b->vol, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (size_t i = 0; i < sizeof(chunk); i++)
		chunk[i] = (uint8_t)(i * 31 + 7);
	for (size_t done = 0; fd >= 0 && done < size; done += sizeof(chunk))
		if (write(fd, chunk, size - done < sizeof(chunk)
					     ? size - done
					     : sizeof(chunk)) < 0)
			break;
	if (fd < 0 || close(fd) < 0) {
		cli_error("bench", "cannot write %s", b->vol);
		return CLI_FAIL;
	}
	if (!p) {
		cli_error("bench", "no free UDP port on 127.0.0.1");
		return CLI_FAIL;
	}
	snprintf(port, sizeof(port), "%d", p);
	snprintf(b->hubaddr, sizeof(b->hubaddr), "127.0.0.1:%d", p);
	snprintf(name, sizeof(name), "BENCHNCP-%d", (int)getpid());
	snprintf(spec, sizeof(spec), "SYS=%s", b->dir);
	b->hub = cli_spawn_self(hub_argv);
	usleep(300000);
	b->srv = cli_spawn_self(srv_argv);
	cli_node_opts_init(&no);
	no.hub = b->hubaddr;
	rc = cli_node_open(&b->cn, &no);
	if (rc != CLI_OK)
		return rc;
	if (ipx_sap_new(b->cn.node, NULL, &b->sap) != IPX_OK ||
	    ncp_client_new(b->cn.node, NULL, &b->cl) != IPX_OK ||
	    cli_open_client_socket(b->cn.node, on_pong, b, &b->ping) !=
		    IPX_OK) {
		cli_error("bench", "cannot open the client's sockets");
		return CLI_FAIL;
	}
	rc = NCP_E_NOSERVER;
	for (int i = 0; i < 20 && rc == NCP_E_NOSERVER; i++)
		rc = ncp_find_server(b->cl, b->sap, name, 250 * IPX_MSEC,
				     &addr, NULL);
	if (!rc)
		rc = ncp_connect(b->cl, &addr);
	if (!rc)
		rc = ncp_login(b->cl, "GUEST", "");
	if (!rc)
		rc = ncp_negotiate(b->cl, (uint16_t)bufsize);
	if (rc) {
		cli_error("bench", "the server: %s", ncp_strerror(rc));
		return CLI_FAIL;
	}
	b->server = addr;
	b->server.socket = 0;
	return CLI_OK;
}

static void teardown(struct bench *b)
{
	ncp_client_free(b->cl);
	if (b->ping)
		ipx_socket_close(b->ping);
	ipx_sap_free(b->sap);
	if (b->cn.loop)
		cli_node_close(&b->cn);
	cli_stop_child(&b->srv);
	cli_stop_child(&b->hub);
	if (b->dir[0])
		cli_remove_tree(b->dir);
}

static void row(const char *what, double value, const char *unit,
		double bound, const char *of)
{
	double r = bound > 0 ? value / bound : 0;

	printf("  %-22s %10.1f %-8s %10.1f %-8s %5.1f%%  %s\n", what, value,
	       unit, bound, of, r * 100, r >= TARGET ? "PASS" : "MISS");
}

int bench_ncp(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, OPT_FIRST_CMD },
		{ "bufsize", required_argument, NULL, OPT_FIRST_CMD + 1 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench b;
	struct fileop f = { 0 };
	double secs = 5, small, full, r_read, r_oc, r_get;
	struct acc a_small = { 0 }, a_full = { 0 }, a_read = { 0 },
		   a_oc = { 0 }, a_get = { 0 };
	unsigned long mb = 4, bufsize = 4096;
	int opt, rc, err = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "s:h", longopts, NULL)) != -1) {
		int r = bench_window_opt(opt, optarg, &secs, NULL, NULL, 1);

		if (r < 0)
			return CLI_USAGE;
		if (r > 0)
			continue;
		if (opt == OPT_FIRST_CMD) {
			if (cli_parse_uint("bench", "--size", optarg, 1, 1024,
					   &mb) < 0)
				return CLI_USAGE;
		} else if (opt == OPT_FIRST_CMD + 1) {
			if (cli_parse_uint("bench", "--bufsize", optarg, 512,
					   4096, &bufsize) < 0)
				return CLI_USAGE;
		} else if (opt == 'h') {
			help_bench_ncp(stdout);
			return CLI_OK;
		} else {
			return bench_bad_option("ncp", opt, argv);
		}
	}
	if (optind < argc) {
		cli_error("bench", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	memset(&b, 0, sizeof(b));
	ipx_log_set_level(IPX_LOG_WARN);
	f.size = mb << 20;
	f.buf = malloc(f.size);
	rc = f.buf ? setup(&b, f.size, (unsigned)bufsize) : CLI_FAIL;
	if (rc == CLI_OK &&
	    (err = ncp_open(b.cl, "BIG.BIN", NCP_OPEN_READ, &f.fh)) != 0) {
		cli_error("bench", "open: %s", ncp_strerror(err));
		rc = CLI_FAIL;
	}
	if (rc != CLI_OK) {
		teardown(&b);
		free(f.buf);
		return rc;
	}
	/* Ten rounds of every row in turn, so a machine whose load changes
	 * during the run moves the round trip and the rates alike. */
	for (int round = 0; round < ROUNDS && !err; round++) {
		double t = secs / ROUNDS;

		if (rtt(&b, 0, t / 2, &a_small) < 0 ||
		    rtt(&b, ncp_bufsize(b.cl), t / 2, &a_full) < 0) {
			cli_error("bench", "no answer to a ping of the server");
			err = IPX_ETIMEOUT;
			break;
		}
		err = rate(&b, read1, &f, t, &a_read);
		if (!err)
			err = rate(&b, open_close, NULL, t, &a_oc);
		if (!err)
			err = rate(&b, get_part, &f, t, &a_get);
		if (err)
			cli_error("bench", "%s", ncp_strerror(err));
	}
	ncp_close(b.cl, &f.fh);
	if (err || !a_small.n || !a_full.n || !a_read.n || !a_oc.n ||
	    !a_get.n) {
		teardown(&b);
		free(f.buf);
		return CLI_FAIL;
	}
	small = a_small.t / a_small.n;
	full = a_full.t / a_full.n;
	r_read = a_read.n / a_read.t;
	r_oc = a_oc.n / a_oc.t;
	r_get = a_get.n * (double)GET_CHUNK / a_get.t;
	printf("NCP over the hub on loopback, one request outstanding "
	       "(buffer %u bytes, %lu MB file, %.1f s per row in %d rounds)\n",
	       ncp_bufsize(b.cl), mb, secs, ROUNDS);
	printf("  IPX round trip (ping of the server node): %.1f us empty, "
	       "%.1f us with %u bytes\n",
	       small * 1e6, full * 1e6, ncp_bufsize(b.cl));
	printf("  %-22s %10s %-8s %10s %-8s %6s\n", "row", "measured", "",
	       "bound", "", "ratio");
	row("1-byte read", r_read, "ops/s", 1 / small, "ops/s");
	row("open+close", r_oc, "pairs/s", 1 / (2 * small), "pairs/s");
	row("large get", r_get / 1024, "KB/s",
	    ncp_bufsize(b.cl) / ((small + full) / 2) / 1024, "KB/s");
	teardown(&b);
	free(f.buf);
	return CLI_OK;
}
