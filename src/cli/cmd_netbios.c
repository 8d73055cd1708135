/*
 * cmd_netbios.c - "ipxlab netbios ...": NetBIOS over IPX from the shell.
 * Claim names and hold them (add), look names up (find), read a node's
 * name table (status), send and receive datagrams (send, recv), and
 * netcat over a NetBIOS session (listen, call). Every action is an NCB
 * submitted to the library (ipxlab/netbios.h), as a DOS program would.
 * The command line of "ipxlab bench netbios" is here too (the measuring
 * is in src/bench/nbrate.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/nb_stream.h"
#include "ipxlab/netbios.h"

#define MAX_NAMES 16
#define RECEIVES 4		/* RECEIVE DATAGRAMs kept posted */
#define MAX_JOBS 64

void help_netbios(FILE *out)
{
	fprintf(out,
		"  add NAME... [-g GROUP]...  claim names, print the name table, and\n"
		"                             hold (defend) them until interrupted\n"
		"  find NAME                  every node that has NAME\n"
		"  status [NAME]              the name table and counters of the node\n"
		"                             holding NAME (default: this one)\n"
		"  send NAME | -b             each line of stdin as a datagram to NAME,\n"
		"                             or broadcast\n"
		"  recv [NAME] [-b]           print the datagrams for NAME (claimed\n"
		"                             first) and/or broadcast ones\n"
		"  listen NAME [--from N]     claim NAME, wait for one call, then carry\n"
		"                             stdin to the peer and its data to stdout\n"
		"  call NAME                  call NAME, then the same\n\n"
		"Names: up to 15 characters and a suffix, NAME or NAME<XX> (hex, default\n"
		"00), or exactly 16 characters; \\xHH for any byte. Our own node is\n"
		"known as '*node XXXXXXXXXXXX' (its permanent name) unless --as NAME.\n\n"
		"  -g, --group NAME    add: also claim NAME as a group name\n"
		"  -b, --broadcast     send: broadcast; recv: broadcast datagrams too\n"
		"      --as NAME       send, call: claim NAME and use it as ours\n"
		"      --from NAME     listen: only calls from NAME\n"
		"  -c, --count N       recv: exit 0 after N datagrams\n"
		"  -t, --timeout S     add: hold the names S seconds; recv: listen\n"
		"                      that long; with -c, exit 1 if the N have not\n"
		"                      all come by then (alone: exit 0);\n"
		"                      listen: exit 1 if no call comes by then\n"
		"  -x, --hex           recv: payloads in hex\n"
		"      --stats         print the NetBIOS counters at the end\n"
		"listen and call: the end of our input is sent as an empty message\n"
		"(NetBIOS has no half-close), and the session is hung up once both\n"
		"ends' data is through, whichever input ends first.\n"
		"Exit status: 0 success (for listen and call: all our input was\n"
		"delivered and all the peer's data written), 1 a failure with its\n"
		"NetBIOS return code or what was cut short, 2 bad usage.\n" CLI_NODE_OPTS_HELP);
}

struct opts {
	const char *group[MAX_NAMES];
	unsigned ngroup;
	const char *as, *from;
	bool bcast, hex, stats;
	unsigned long count;
	double timeout;
};

/* One command of the tool, with its buffer. */
struct job {
	struct nb_ncb ncb;
	bool done;
	uint8_t buf[NB_MAX_MESSAGE];
};

static struct {
	struct cli_node cn;
	struct netbios *nb;
	struct opts o;
	/* netcat */
	struct nb_stream *stream;
	bool stdin_watched, finished;
	int result;
	/* recv */
	unsigned long got;
	bool out_closed;
	bool exiting;		/* POST routines have nothing more to do */
	/* every NCB the tool made (see job_new) */
	struct job *jobs[MAX_JOBS];
	unsigned njobs;
	/* names we claimed: given back at the end */
	uint8_t claimed[MAX_NAMES * 2][NB_NAME_LEN];
	unsigned nclaimed;
} nc;

static void job_post(struct nb_ncb *ncb)
{
	((struct job *)ncb->ctx)->done = true;
}

/* What completes while the tool gives its names back is of no interest. */
#define IF_EXITING_RETURN()      \
	do {                     \
		if (nc.exiting)  \
			return;  \
	} while (0)

/*
 * An NCB must stay alive until it completes, and one that is still
 * pending when the tool stops is only let go by nb_close(): so every job
 * lives until then (freed at the very end), whatever happened.
 */
static struct job *job_new(uint8_t command)
{
	struct job *j = nc.njobs < MAX_JOBS ? calloc(1, sizeof(*j)) : NULL;

	if (!j) {
		cli_error("netbios", "out of memory");
		exit(CLI_FAIL);
	}
	nc.jobs[nc.njobs++] = j;
	j->ncb.command = command;
	j->ncb.buffer = j->buf;
	j->ncb.length = sizeof(j->buf);
	j->ncb.post = job_post;
	j->ncb.ctx = j;
	return j;
}

static bool job_done(void *ctx)
{
	return ((struct job *)ctx)->done;
}

/* Submit and wait. IPX_ECLOSED when interrupted (Ctrl-C). */
static int job_run(struct job *j, uint8_t *rc)
{
	j->done = false;
	*rc = nb_submit(nc.nb, &j->ncb);
	if (*rc != NB_RC_PENDING)
		return IPX_OK;
	if (ipx_loop_run_until(nc.cn.loop, job_done, j, UINT64_MAX / 4) !=
	    IPX_OK)
		return IPX_ECLOSED;
	*rc = j->ncb.retcode;
	return IPX_OK;
}

static void nb_fail(const char *what, const uint8_t *name, uint8_t rc)
{
	char n[NB_NAME_STRLEN];

	if (name)
		cli_error("netbios", "%s %s: %s (0x%02X)", what,
			  nb_name_format(name, n), nb_strerror(rc), rc);
	else
		cli_error("netbios", "%s: %s (0x%02X)", what, nb_strerror(rc),
			  rc);
}

static int parse_name(const char *what, const char *text, bool star,
		      uint8_t out[NB_NAME_LEN])
{
	if (nb_name_parse(text, star, out) == IPX_OK)
		return 0;
	cli_error("netbios", "%s '%s' is not a NetBIOS name (up to 15 "
			     "characters and <XX>, or 16; not starting with "
			     "'*' or \\x00)",
		  what, text);
	return -1;
}

/* ---- names ---- */

/* Claim names at once (in parallel). Returns 0, or -1 after a message
 * (names that were claimed stay: nb_close forgets them). */
static int claim(const char *const *names, const bool *group, unsigned n,
		 uint8_t *nums)
{
	struct job *j[MAX_NAMES * 2];
	int ok = 0;

	for (unsigned i = 0; i < n; i++) {
		j[i] = job_new(group[i] ? NB_ADD_GROUP_NAME : NB_ADD_NAME);
		if (parse_name("name", names[i], false, j[i]->ncb.name) < 0)
			return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		uint8_t rc = nb_submit(nc.nb, &j[i]->ncb);

		j[i]->done = rc != NB_RC_PENDING;
	}
	for (unsigned i = 0; i < n && ok == 0; i++) {
		if (!j[i]->done &&
		    ipx_loop_run_until(nc.cn.loop, job_done, j[i],
				       UINT64_MAX / 4) != IPX_OK) {
			cli_error("netbios", "interrupted while claiming");
			ok = -1;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		if (j[i]->ncb.retcode == NB_RC_OK &&
		    nc.nclaimed < MAX_NAMES * 2)
			memcpy(nc.claimed[nc.nclaimed++], j[i]->ncb.name,
			       NB_NAME_LEN);
		if (ok == 0 && j[i]->ncb.retcode != NB_RC_OK) {
			nb_fail("add", j[i]->ncb.name, j[i]->ncb.retcode);
			ok = -1;
		}
		if (nums)
			nums[i] = j[i]->ncb.num;
	}
	return ok;
}

static const char *state_text(uint8_t flags)
{
	switch (flags & ~NB_NF_GROUP) {
	case NB_NAME_REGISTERING:
		return "registering";
	case NB_NAME_REGISTERED:
		return "registered";
	case NB_NAME_DEREGISTERED:
		return "deregistered";
	default:
		return "?";
	}
}

static void print_status(const uint8_t *buf, size_t len, bool counters)
{
	static struct nb_adapter_status st;
	char node[13], n[NB_NAME_STRLEN];

	if (nb_adapter_status_decode(buf, len, &st) != IPX_OK) {
		cli_error("netbios", "the status is too short (%zu bytes)", len);
		return;
	}
	printf("node %s, %u name%s\n", ipx_node_format(st.node, node),
	       st.name_count, st.name_count == 1 ? "" : "s");
	for (unsigned i = 0; i < st.names_present; i++)
		printf("  %3u  %-22s %-7s %s\n", st.names[i].num,
		       nb_name_format(st.names[i].name, n),
		       st.names[i].flags & NB_NF_GROUP ? "group" : "unique",
		       state_text(st.names[i].flags));
	if (st.names_present < st.name_count)
		printf("  (%u more did not fit)\n",
		       st.name_count - st.names_present);
	if (counters)
		printf("up %u min; packets sent %u, received %u, resent %u; "
		       "sessions %u of %u; commands free %u of %u; largest "
		       "datagram %u, session packet %u\n",
		       st.duration_min, st.xmit, st.recv, st.retransmits,
		       st.sessions, st.max_sessions, st.free_ncbs, st.max_ncbs,
		       st.max_dgram, st.max_sess_pkt);
}

/* The local table, as ADAPTER STATUS '*' gives it. */
static void print_table(void)
{
	struct job *j = job_new(NB_ADAPTER_STATUS);
	uint8_t rc;

	j->ncb.callname[0] = '*';
	if (job_run(j, &rc) == IPX_OK && rc == NB_RC_OK)
		print_status(j->buf, j->ncb.length, false);
	fflush(stdout);
}

static bool never(void *ctx)
{
	(void)ctx;
	return false;
}

static int do_add(char **names, int n)
{
	const char *all[MAX_NAMES * 2];
	bool group[MAX_NAMES * 2];
	unsigned k = 0;
	int rc;

	for (int i = 0; i < n && k < MAX_NAMES; i++, k++) {
		all[k] = names[i];
		group[k] = false;
	}
	for (unsigned i = 0; i < nc.o.ngroup; i++, k++) {
		all[k] = nc.o.group[i];
		group[k] = true;
	}
	if (claim(all, group, k, NULL) < 0)
		return CLI_FAIL;
	print_table();
	fprintf(stderr, "holding %u name%s%s\n", k, k == 1 ? "" : "s",
		nc.o.timeout > 0 ? "" : " until interrupted");
	rc = ipx_loop_run_until(nc.cn.loop, never, NULL,
				nc.o.timeout > 0
					? (ipx_time)(nc.o.timeout * IPX_SEC)
					: UINT64_MAX / 4);
	return rc == IPX_ETIMEOUT || rc == IPX_ECLOSED ? CLI_OK : CLI_FAIL;
}

static int do_find(const char *name)
{
	struct job *j = job_new(NB_FIND_NAME);
	struct ipx_addr a;
	char s[IPX_ADDR_STRLEN];
	uint8_t rc;
	unsigned n;

	if (parse_name("name", name, false, j->ncb.callname) < 0) {
		return CLI_USAGE;
	}
	if (job_run(j, &rc) != IPX_OK) {
		return CLI_FAIL;
	}
	if (rc != NB_RC_OK && rc != NB_RC_INCOMPLETE) {
		nb_fail("find", j->ncb.callname, rc);
		return CLI_FAIL;
	}
	n = ipx_get16le(j->buf);
	for (unsigned i = 0; i < n; i++) {
		ipx_addr_read(j->buf + NB_FN_HDR_LEN + i * NB_FN_ENTRY_LEN, &a);
		printf("%s %s\n", ipx_addr_format(&a, s),
		       j->buf[3] ? "group" : "unique");
	}
	return CLI_OK;
}

static int do_status(const char *name)
{
	struct job *j = job_new(NB_ADAPTER_STATUS);
	uint8_t rc;
	int ret = CLI_OK;

	if (!name)
		j->ncb.callname[0] = '*';
	else if (parse_name("name", name, false, j->ncb.callname) < 0)
		ret = CLI_USAGE;
	if (ret == CLI_OK && job_run(j, &rc) != IPX_OK)
		ret = CLI_FAIL;
	if (ret == CLI_OK && rc != NB_RC_OK && rc != NB_RC_INCOMPLETE) {
		nb_fail("status of", j->ncb.callname, rc);
		ret = CLI_FAIL;
	}
	if (ret == CLI_OK)
		print_status(j->buf, j->ncb.length, true);
	return ret;
}

/* Our name number: --as NAME (claimed now), else the permanent name. */
static int own_name(uint8_t *num, uint8_t name[NB_NAME_LEN])
{
	struct ipx_addr me;
	bool no = false;

	if (nc.o.as) {
		if (claim(&nc.o.as, &no, 1, num) < 0)
			return -1;
		nb_name_parse(nc.o.as, false, name);
		return 0;
	}
	*num = 1;
	ipx_node_address(nc.cn.node, &me);
	nb_permanent_name(me.node, name);
	return 0;
}

/* ---- datagrams ---- */

/* Standard input cut into lines, one datagram each. */
static struct {
	struct job *j;
	size_t len;		/* bytes of the line so far */
	unsigned long line;
	int ret;
} ls;

static void send_line(void)
{
	uint8_t rc;

	ls.line++;
	if (ls.len > NB_MAX_DATAGRAM) {
		/* A line too long is refused, never cut. */
		cli_error("netbios", "line %lu has %zu bytes: more than a "
				     "datagram carries (%d); not sent",
			  ls.line, ls.len, NB_MAX_DATAGRAM);
		ls.ret = CLI_FAIL;
	} else {
		ls.j->ncb.length = (uint16_t)ls.len;
		rc = nb_submit(nc.nb, &ls.j->ncb);
		if (rc != NB_RC_OK) {
			nb_fail("send datagram to",
				nc.o.bcast ? NULL : ls.j->ncb.callname, rc);
			ls.ret = CLI_FAIL;
		}
	}
	ls.len = 0;
}

static void feed_lines(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			send_line();
			continue;
		}
		if (ls.len < NB_MAX_DATAGRAM)
			ls.j->buf[ls.len] = (uint8_t)p[i];
		ls.len++;
	}
}

static int do_send(const char *name)
{
	uint8_t own[NB_NAME_LEN];

	memset(&ls, 0, sizeof(ls));
	ls.j = job_new(nc.o.bcast ? NB_SEND_BCAST_DATAGRAM : NB_SEND_DATAGRAM);
	ls.ret = CLI_OK;
	if (name && parse_name("name", name, false, ls.j->ncb.callname) < 0) {
		return CLI_USAGE;
	}
	if (own_name(&ls.j->ncb.num, own) < 0) {
		return CLI_FAIL;
	}
	cli_stdin_lines(nc.cn.loop, feed_lines, NULL);
	if (ls.len)
		send_line();	/* a last line without a newline */
	ipx_loop_run_for(nc.cn.loop, 50 * IPX_MSEC);
	return ls.ret;
}

static void on_datagram(struct nb_ncb *ncb)
{
	char n[NB_NAME_STRLEN];

	IF_EXITING_RETURN();
	if (ncb->retcode != NB_RC_OK && ncb->retcode != NB_RC_INCOMPLETE) {
		nb_fail("receive datagram", NULL, ncb->retcode);
		nc.result = CLI_FAIL;
		ipx_loop_stop(nc.cn.loop);
		return;
	}
	printf("%s%s ", nb_name_format(ncb->callname, n),
	       ncb->command == NB_RECEIVE_BCAST_DATAGRAM ? " [broadcast]" : "");
	if (nc.o.hex)
		for (size_t i = 0; i < ncb->length; i++)
			printf("%02X", ncb->buffer[i]);
	else
		cli_print_escaped(stdout, ncb->buffer, ncb->length);
	if (ncb->retcode == NB_RC_INCOMPLETE)
		printf(" [cut]");
	putchar('\n');
	nc.got++;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		nc.out_closed = true;
		ipx_loop_stop(nc.cn.loop);
		return;
	}
	if (nc.o.count && nc.got >= nc.o.count) {
		ipx_loop_stop(nc.cn.loop);
		return;
	}
	ncb->length = NB_MAX_DATAGRAM;
	if (nb_submit(nc.nb, ncb) != NB_RC_PENDING) {
		nb_fail("receive datagram", NULL, ncb->retcode);
		nc.result = CLI_FAIL;
		ipx_loop_stop(nc.cn.loop);
	}
}

static int do_recv(const char *name)
{
	struct job *j[RECEIVES + 1];
	unsigned nj = 0;
	uint8_t num = 0xFF;
	char n[NB_NAME_STRLEN], a[IPX_ADDR_STRLEN];
	uint8_t bin[NB_NAME_LEN];
	bool no = false;
	int rc;

	if (name) {
		if (parse_name("name", name, false, bin) < 0)
			return CLI_USAGE;
		if (claim(&name, &no, 1, &num) < 0)
			return CLI_FAIL;
	}
	for (int kind = 0; kind < 2; kind++) {
		if ((kind == 0 && !name) || (kind == 1 && !nc.o.bcast))
			continue;
		/* A broadcast datagram completes every RECEIVE BROADCAST
		 * DATAGRAM pending: one is enough. Directed ones take one
		 * each, so a few wait for bursts. */
		for (int i = 0; i < (kind ? 1 : RECEIVES); i++, nj++) {
			j[nj] = job_new(kind ? NB_RECEIVE_BCAST_DATAGRAM
					     : NB_RECEIVE_DATAGRAM);
			j[nj]->ncb.num = num;
			j[nj]->ncb.length = NB_MAX_DATAGRAM;
			j[nj]->ncb.post = on_datagram;
			if (nb_submit(nc.nb, &j[nj]->ncb) != NB_RC_PENDING) {
				nb_fail("receive datagram", NULL,
					j[nj]->ncb.retcode);
				return CLI_FAIL;
			}
		}
	}
	nc.cn.addr.socket = IPX_SOCK_NETBIOS;
	fprintf(stderr, "receiving%s%s%s on %s\n", name ? " for " : "",
		name ? nb_name_format(bin, n) : "",
		nc.o.bcast ? (name ? " and broadcast" : " broadcast") : "",
		ipx_addr_format(&nc.cn.addr, a));
	nc.result = CLI_OK;
	rc = ipx_loop_run_until(nc.cn.loop, never, NULL,
				nc.o.timeout > 0
					? (ipx_time)(nc.o.timeout * IPX_SEC)
					: UINT64_MAX / 4);
	if (nc.out_closed)
		return CLI_OK;
	if (nc.result != CLI_OK)
		return nc.result;
	if (rc != IPX_OK && rc != IPX_ECLOSED && rc != IPX_ETIMEOUT)
		return CLI_FAIL;
	return cli_count_result("netbios", nc.got, nc.o.count,
				rc == IPX_ECLOSED);
}

/* ---- netcat over a session ---- */

/*
 * The stream (ipxlab/nb_stream.h) carries standard input and output and
 * decides the end: our end of data is a zero-length message, and the
 * session is hung up once both ends' are through, so neither side's end
 * of input cuts off the other's data.
 */
static void stdin_watch(unsigned ev)
{
	if (nc.stdin_watched)
		ipx_loop_mod_fd(nc.cn.loop, STDIN_FILENO, ev);
}

static long stream_read(void *ctx, uint8_t *buf, size_t n)
{
	ssize_t r = read(STDIN_FILENO, buf, n);

	(void)ctx;
	if (r > 0) {
		stdin_watch(0);	/* until the stream asks again */
		return (long)r;
	}
	if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
		stdin_watch(IPX_EV_READ);
		return -1;
	}
	if (r < 0)
		cli_error("netbios", "standard input: %s: taken as its end",
			  strerror(errno));
	if (nc.stdin_watched) {
		ipx_loop_del_fd(nc.cn.loop, STDIN_FILENO);
		nc.stdin_watched = false;
	}
	return 0;
}

static bool stream_write(void *ctx, const uint8_t *buf, size_t n)
{
	(void)ctx;
	if (fwrite(buf, 1, n, stdout) != n || fflush(stdout) == EOF) {
		cli_error("netbios", "standard output closed: hanging up");
		return false;
	}
	return true;
}

static void stream_done(void *ctx, int result)
{
	struct nb_stream_status st;

	(void)ctx;
	nb_stream_get_status(nc.stream, &st);
	nc.finished = true;
	nc.result = result == NB_STREAM_OK ? CLI_OK : CLI_FAIL;
	if (nc.stdin_watched) {
		ipx_loop_del_fd(nc.cn.loop, STDIN_FILENO);
		nc.stdin_watched = false;
	}
	switch (result) {
	case NB_STREAM_OK:
		ipx_info("session closed%s: sent %llu bytes, received %llu%s",
			 st.closed_by_peer ? " by the peer" : "",
			 (unsigned long long)st.sent,
			 (unsigned long long)st.received,
			 st.retcode ? " (our session end was not acknowledged)"
				    : "");
		break;
	case NB_STREAM_PEER_EARLY:
	case NB_STREAM_CUT:
		cli_error("netbios",
			  "session closed by the peer before %s: sent %llu "
			  "bytes%s, received %llu",
			  !st.peer_ended ? "the end of its data (interrupted?)"
					 : "all our data was through",
			  (unsigned long long)st.sent,
			  st.input_ended ? "" : " (our input had not ended)",
			  (unsigned long long)st.received);
		break;
	case NB_STREAM_OUTPUT:
		break;	/* said when it failed */
	default:
		nb_fail("session", NULL, st.retcode);
	}
}

static const struct nb_stream_io stream_io = {
	.read = stream_read,
	.write = stream_write,
	.done = stream_done,
};

static void on_stdin(struct ipx_loop *loop, int fd, unsigned ev, void *ctx)
{
	(void)loop;
	(void)fd;
	(void)ev;
	(void)ctx;
	nb_stream_input(nc.stream);
}

static bool session_over(void *ctx)
{
	(void)ctx;
	return nc.finished;
}

/* The session 'lsn' is up: carry data both ways. */
static int netcat(uint8_t lsn)
{
	struct nb_stream_status st;
	uint8_t rc;
	int lr;

	/* Watched from the start, but read only when the stream asks. */
	nc.stdin_watched = cli_stdin_watch(nc.cn.loop, on_stdin, NULL);
	stdin_watch(0);
	nc.stream = nb_stream_start(nc.nb, lsn, &stream_io, NULL, &rc);
	if (!nc.stream) {
		nb_fail("receive", NULL, rc);
		return CLI_FAIL;
	}
	lr = ipx_loop_run_until(nc.cn.loop, session_over, NULL, UINT64_MAX / 4);
	fflush(stdout);
	if (lr != IPX_OK && !nc.finished) {
		/* SIGINT/SIGTERM: tell the peer now rather than leave it to
		 * its watchdog. */
		nc.exiting = true;
		nb_stream_get_status(nc.stream, &st);
		nb_stream_abort(nc.stream);
		ipx_loop_run_once(nc.cn.loop, 0);	/* sent now */
		cli_error("netbios",
			  "interrupted: sent %llu bytes, received %llu; session "
			  "end sent",
			  (unsigned long long)st.sent,
			  (unsigned long long)st.received);
		return CLI_FAIL;
	}
	return nc.result;
}

static int do_session(bool listen, const char *name)
{
	struct job *j = job_new(listen ? NB_LISTEN : NB_CALL);
	char n[NB_NAME_STRLEN], a[IPX_ADDR_STRLEN];
	uint8_t rc, own[NB_NAME_LEN];
	bool no = false;
	int ret;

	if (listen) {
		if (parse_name("name", name, false, j->ncb.name) < 0 ||
		    parse_name("--from", nc.o.from ? nc.o.from : "*", true,
			       j->ncb.callname) < 0) {
			ret = CLI_USAGE;
			goto out;
		}
		if (claim(&name, &no, 1, NULL) < 0) {
			ret = CLI_FAIL;
			goto out;
		}
		nc.cn.addr.socket = IPX_SOCK_NETBIOS;
		fprintf(stderr, "listening as %s on %s\n",
			nb_name_format(j->ncb.name, n),
			ipx_addr_format(&nc.cn.addr, a));
	} else {
		uint8_t num;

		if (parse_name("name", name, false, j->ncb.callname) < 0) {
			ret = CLI_USAGE;
			goto out;
		}
		if (own_name(&num, own) < 0) {
			ret = CLI_FAIL;
			goto out;
		}
		memcpy(j->ncb.name, own, NB_NAME_LEN);
	}
	j->done = false;
	rc = nb_submit(nc.nb, &j->ncb);
	if (rc == NB_RC_PENDING) {
		ipx_time limit = listen && nc.o.timeout > 0
					 ? (ipx_time)(nc.o.timeout * IPX_SEC)
					 : UINT64_MAX / 4;
		int lr = ipx_loop_run_until(nc.cn.loop, job_done, j, limit);

		if (lr == IPX_ETIMEOUT) {
			cli_error("netbios", "no call came within %g s",
				  nc.o.timeout);
			ret = CLI_FAIL;
			goto out;
		}
		if (lr != IPX_OK) {
			cli_error("netbios", "interrupted");
			ret = CLI_FAIL;
			goto out;
		}
		rc = j->ncb.retcode;
	}
	if (rc != NB_RC_OK) {
		nb_fail(listen ? "listen" : "call",
			listen ? j->ncb.name : j->ncb.callname, rc);
		ret = CLI_FAIL;
		goto out;
	}
	{
		struct nb_session_info si = { 0 };

		nb_session_info(nc.nb, j->ncb.lsn, &si);
		ipx_info("session %u %s %s (%s), %zu-byte packets", j->ncb.lsn,
			 listen ? "from" : "to",
			 nb_name_format(j->ncb.callname, n),
			 ipx_addr_format(&j->ncb.remote, a), si.max_data);
	}
	ret = netcat(j->ncb.lsn);
out:
	return ret;
}

/* ---- the command ---- */

enum { OPT_AS = OPT_FIRST_CMD, OPT_FROM, OPT_STATS };

/* Options of every action; 1 after --help, -1 on a bad one. */
static int parse_opts(int argc, char **argv, struct cli_node_opts *no)
{
	static const struct option longopts[] = {
		{ "group", required_argument, NULL, 'g' },
		{ "broadcast", no_argument, NULL, 'b' },
		{ "as", required_argument, NULL, OPT_AS },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "hex", no_argument, NULL, 'x' },
		{ "stats", no_argument, NULL, OPT_STATS },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	cli_node_opts_init(no);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "g:bc:t:xvqh", longopts, NULL)) !=
	       -1) {
		int r = cli_node_opt(no, "netbios", opt, optarg);

		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		switch (opt) {
		case 'g':
			if (nc.o.ngroup == MAX_NAMES) {
				cli_error("netbios", "at most %d group names",
					  MAX_NAMES);
				return -1;
			}
			nc.o.group[nc.o.ngroup++] = optarg;
			break;
		case 'b':
			nc.o.bcast = true;
			break;
		case OPT_AS:
			nc.o.as = optarg;
			break;
		case OPT_FROM:
			nc.o.from = optarg;
			break;
		case 'c':
			if (cli_parse_uint("netbios", "--count", optarg, 1,
					   1000000000, &nc.o.count) < 0)
				return -1;
			break;
		case 't':
			if (cli_parse_seconds("netbios", "--timeout", optarg,
					      0.1, 1e6, &nc.o.timeout) < 0)
				return -1;
			break;
		case 'x':
			nc.o.hex = true;
			break;
		case OPT_STATS:
			nc.o.stats = true;
			break;
		case 'h':
			cli_usage_line(stdout, "netbios");
			help_netbios(stdout);
			return 1;
		default:
			cli_bad_option("netbios", argv, "g:bc:t:xvqh",
				       longopts);
			return -1;
		}
	}
	return 0;
}

/* Names each action takes, at least and at most. */
static const struct {
	const char *name;
	int min, max;
} actions[] = {
	{ "add", 0, MAX_NAMES }, { "find", 1, 1 },   { "status", 0, 1 },
	{ "send", 0, 1 },	 { "recv", 0, 1 },   { "listen", 1, 1 },
	{ "call", 1, 1 },
};

static int check_args(const char *action, char **args, int nargs)
{
	uint8_t n[NB_NAME_LEN];
	size_t i;

	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(actions[i].name, action))
			break;
	if (i == sizeof(actions) / sizeof(actions[0])) {
		cli_error("netbios", "unknown action '%s' (add, find, status, "
				     "send, recv, listen, call)",
			  action);
		return -1;
	}
	if (nargs < actions[i].min || nargs > actions[i].max) {
		cli_error("netbios", "%s takes %d to %d NAME%s", action,
			  actions[i].min, actions[i].max,
			  actions[i].max == 1 ? "" : "s");
		return -1;
	}
	for (int k = 0; k < nargs; k++)
		if (parse_name("name", args[k], false, n) < 0)
			return -1;
	for (unsigned k = 0; k < nc.o.ngroup; k++)
		if (parse_name("--group", nc.o.group[k], false, n) < 0)
			return -1;
	if ((nc.o.as && parse_name("--as", nc.o.as, false, n) < 0) ||
	    (nc.o.from && parse_name("--from", nc.o.from, true, n) < 0))
		return -1;
	if (!strcmp(action, "add") && nargs == 0 && nc.o.ngroup == 0)
		cli_error("netbios", "add needs a NAME or a --group NAME");
	else if (!strcmp(action, "send") && (nargs == 1) == nc.o.bcast)
		cli_error("netbios", "send takes a NAME or --broadcast (one)");
	else if (!strcmp(action, "recv") && nargs == 0 && !nc.o.bcast)
		cli_error("netbios", "recv takes a NAME, --broadcast, or both");
	else
		return 0;
	return -1;
}

int cmd_netbios(int argc, char **argv)
{
	struct cli_node_opts no;
	const char *action;
	char **args;
	int nargs, rc;

	memset(&nc, 0, sizeof(nc));
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		cli_usage_line(argc < 2 ? stderr : stdout, "netbios");
		help_netbios(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	action = argv[1];
	argc--;
	argv++;
	rc = parse_opts(argc, argv, &no);
	if (rc)
		return rc > 0 ? CLI_OK : CLI_USAGE;
	args = argv + optind;
	nargs = argc - optind;
	if (check_args(action, args, nargs) < 0)
		return CLI_USAGE;
	rc = cli_node_open(&nc.cn, &no);
	if (rc)
		return rc;
	rc = nb_open(nc.cn.node, NULL, &nc.nb);
	if (rc != IPX_OK) {
		cli_error("netbios", "cannot open socket 0455: %s",
			  ipx_strerror(rc));
		cli_node_close(&nc.cn);
		return CLI_FAIL;
	}
	if (!strcmp(action, "add"))
		rc = do_add(args, nargs);
	else if (!strcmp(action, "find"))
		rc = do_find(args[0]);
	else if (!strcmp(action, "status"))
		rc = do_status(nargs ? args[0] : NULL);
	else if (!strcmp(action, "send"))
		rc = do_send(nargs ? args[0] : NULL);
	else if (!strcmp(action, "recv"))
		rc = do_recv(nargs ? args[0] : NULL);
	else
		rc = do_session(!strcmp(action, "listen"), args[0]);
	/* Give our names back (a deregister broadcast each), so that other
	 * nodes' caches forget them now. */
	nc.exiting = true;
	for (unsigned i = 0; i < nc.nclaimed; i++) {
		struct nb_ncb d = { .command = NB_DELETE_NAME };

		memcpy(d.name, nc.claimed[i], NB_NAME_LEN);
		nb_submit(nc.nb, &d);
	}
	if (nc.o.stats)
		nb_print_stats(nc.nb, stderr);
	/* Let what is queued (a last ack, a deregister) leave. */
	ipx_loop_run_once(nc.cn.loop, 0);
	nb_close(nc.nb);
	if (nc.stream)
		nb_stream_free(nc.stream);	/* nothing of it pending now */
	cli_node_close(&nc.cn);
	while (nc.njobs)
		free(nc.jobs[--nc.njobs]);
	return rc;
}
