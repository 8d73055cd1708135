/*
 * cmd_netbios_session.c - "ipxlab netbios listen" and "call": netcat
 * over a NetBIOS session (ipxlab/nb_stream.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_netbios.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/nb_stream.h"

/* ---- netcat over a session ---- */

/*
 * The stream (ipxlab/nb_stream.h) carries standard input and output and
 * decides the end: our end of data is a zero-length message, and the
 * session is hung up once both ends' are through, so neither side's end
 * of input cuts off the other's data.
 */
static void stdin_watch(unsigned ev)
{
	if (nt.stdin_watched)
		ipx_loop_mod_fd(nt.cn.loop, STDIN_FILENO, ev);
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
	if (nt.stdin_watched) {
		ipx_loop_del_fd(nt.cn.loop, STDIN_FILENO);
		nt.stdin_watched = false;
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
	nb_stream_get_status(nt.stream, &st);
	nt.finished = true;
	nt.result = result == NB_STREAM_OK ? CLI_OK : CLI_FAIL;
	if (nt.stdin_watched) {
		ipx_loop_del_fd(nt.cn.loop, STDIN_FILENO);
		nt.stdin_watched = false;
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
		nbc_fail("session", NULL, st.retcode);
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
	nb_stream_input(nt.stream);
}

static bool session_over(void *ctx)
{
	(void)ctx;
	return nt.finished;
}

/* The session 'lsn' is up: carry data both ways. */
int nbc_netcat(uint8_t lsn)
{
	struct nb_stream_status st;
	uint8_t rc;
	int lr;

	/* Watched from the start, but read only when the stream asks. */
	nt.stdin_watched = cli_stdin_watch(nt.cn.loop, on_stdin, NULL);
	stdin_watch(0);
	nt.stream = nb_stream_start(nt.nb, lsn, &stream_io, NULL, &rc);
	if (!nt.stream) {
		nbc_fail("receive", NULL, rc);
		return CLI_FAIL;
	}
	lr = ipx_loop_run_until(nt.cn.loop, session_over, NULL, UINT64_MAX / 4);
	fflush(stdout);
	if (lr != IPX_OK && !nt.finished) {
		/* SIGINT/SIGTERM: tell the peer now rather than leave it to
		 * its watchdog. */
		nt.exiting = true;
		nb_stream_get_status(nt.stream, &st);
		nb_stream_abort(nt.stream);
		ipx_loop_run_once(nt.cn.loop, 0);	/* sent now */
		cli_error("netbios",
			  "interrupted: sent %llu bytes, received %llu; session "
			  "end sent",
			  (unsigned long long)st.sent,
			  (unsigned long long)st.received);
		return CLI_FAIL;
	}
	return nt.result;
}

int nbc_session(bool listen, const char *name)
{
	struct job *j = nbc_job_new(listen ? NB_LISTEN : NB_CALL);
	char n[NB_NAME_STRLEN], a[IPX_ADDR_STRLEN];
	uint8_t rc, own[NB_NAME_LEN];
	bool no = false;
	int ret;

	if (listen) {
		if (nbc_parse_name("name", name, false, j->ncb.name) < 0 ||
		    nbc_parse_name("--from", nt.o.from ? nt.o.from : "*", true,
			       j->ncb.callname) < 0) {
			ret = CLI_USAGE;
			goto out;
		}
		if (nbc_claim(&name, &no, 1, NULL) < 0) {
			ret = CLI_FAIL;
			goto out;
		}
		nt.cn.addr.socket = IPX_SOCK_NETBIOS;
		fprintf(stderr, "listening as %s on %s\n",
			nb_name_format(j->ncb.name, n),
			ipx_addr_format(&nt.cn.addr, a));
	} else {
		uint8_t num;

		if (nbc_parse_name("name", name, false, j->ncb.callname) < 0) {
			ret = CLI_USAGE;
			goto out;
		}
		if (nbc_own_name(&num, own) < 0) {
			ret = CLI_FAIL;
			goto out;
		}
		memcpy(j->ncb.name, own, NB_NAME_LEN);
	}
	j->done = false;
	rc = nb_submit(nt.nb, &j->ncb);
	if (rc == NB_RC_PENDING) {
		ipx_time limit = listen && nt.o.timeout > 0
					 ? (ipx_time)(nt.o.timeout * IPX_SEC)
					 : UINT64_MAX / 4;
		int lr = ipx_loop_run_until(nt.cn.loop, nbc_job_done, j, limit);

		if (lr == IPX_ETIMEOUT) {
			cli_error("netbios", "no call came within %g s",
				  nt.o.timeout);
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
		nbc_fail(listen ? "listen" : "call",
			listen ? j->ncb.name : j->ncb.callname, rc);
		ret = CLI_FAIL;
		goto out;
	}
	{
		struct nb_session_info si = { 0 };

		nb_session_info(nt.nb, j->ncb.lsn, &si);
		ipx_info("session %u %s %s (%s), %zu-byte packets", j->ncb.lsn,
			 listen ? "from" : "to",
			 nb_name_format(j->ncb.callname, n),
			 ipx_addr_format(&j->ncb.remote, a), si.max_data);
	}
	ret = nbc_netcat(j->ncb.lsn);
out:
	return ret;
}
