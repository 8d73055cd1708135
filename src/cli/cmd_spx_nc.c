/*
 * cmd_spx_nc.c - netcat over the SPX session of "ipxlab spx": standard
 * input into the session while it has room, the peer's data to standard
 * output, end of input an orderly release, and the session's events.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_spx.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

/* Move standard input into the session while it has room. */
static void pump_stdin(void)
{
	for (;;) {
		ssize_t n;
		int rc;

		if (!sn.conn)
			return;
		if (sn.have) {
			rc = spx_send(sn.conn, sn.buf, sn.have, 0, 0);
			if (rc == IPX_EAGAIN) {
				if (sn.stdin_watched)
					ipx_loop_mod_fd(sn.cn.loop, STDIN_FILENO, 0);
				return;	/* on_sendable resumes */
			}
			if (rc != IPX_OK) {
				cli_error("spx", "send: %s", ipx_strerror(rc));
				spx_abort(sn.conn);
				return;
			}
			sn.bytes_in += sn.have;
			sn.have = 0;
		}
		if (sn.stdin_eof)
			return;
		n = read(STDIN_FILENO, sn.buf, sizeof(sn.buf));
		if (n > 0) {
			sn.have = (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (sn.stdin_watched)
				ipx_loop_mod_fd(sn.cn.loop, STDIN_FILENO,
						IPX_EV_READ);
			return;
		}
		/* End of input: our end of data follows what is queued; we
		 * go on receiving until the peer's ends too (or, asked to,
		 * disconnect once all of ours is acknowledged). */
		sn.stdin_eof = true;
		if (sn.stdin_watched) {
			ipx_loop_del_fd(sn.cn.loop, STDIN_FILENO);
			sn.stdin_watched = false;
		}
		if (sn.close_at_eof) {
			sn.we_closed = true;
			spx_close(sn.conn);
		} else {
			spx_release(sn.conn);
		}
		return;
	}
}

static void on_stdin(struct ipx_loop *loop, int fd, unsigned ev, void *ctx)
{
	(void)loop;
	(void)fd;
	(void)ev;
	(void)ctx;
	pump_stdin();
}

static void start_stdin(void)
{
	struct stat sb;

	sn.stdin_regular = fstat(STDIN_FILENO, &sb) == 0 && !S_ISFIFO(sb.st_mode) &&
			   !S_ISCHR(sb.st_mode) && !S_ISSOCK(sb.st_mode);
	if (!sn.stdin_regular) {
		fcntl(STDIN_FILENO, F_SETFL,
		      fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
		if (ipx_loop_add_fd(sn.cn.loop, STDIN_FILENO, IPX_EV_READ,
				    on_stdin, NULL) == IPX_OK)
			sn.stdin_watched = true;
		else
			sn.stdin_regular = true;	/* not pollable */
	}
	pump_stdin();
}

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	(void)c;
	(void)flags;
	(void)ds;
	(void)ctx;
	if (sn.out_failed)
		return;
	if (fwrite(data, 1, len, stdout) != len) {
		sn.out_failed = true;
		cli_error("spx", "standard output closed: disconnecting");
		spx_disconnect(sn.conn);
		return;
	}
	sn.bytes_out += len;
}

static void on_release(struct spx_conn *c, void *ctx)
{
	(void)c;
	(void)ctx;
	sn.peer_done = true;
	ipx_debug("the peer's data has ended (%llu bytes)",
		  (unsigned long long)sn.bytes_out);
}

static void on_sendable(struct spx_conn *c, void *ctx)
{
	(void)c;
	(void)ctx;
	pump_stdin();
}

static const char *version_text(struct spx_conn *c, char *out, size_t n)
{
	struct spx_status st;

	spx_get_status(c, &st);
	snprintf(out, n, "SPX%s, %zu-byte packets", st.version == 2 ? " II" : "",
		 st.max_data);
	return out;
}

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	char v[64];

	(void)ctx;
	if (sn.interrupted) {
		sn.conn = NULL;
		return;
	}
	if (status == IPX_EREFUSED) {
		cli_error("spx", "connect: refused: the listener is busy with "
				 "another session (or out of SPX CONNECTIONS)");
		sn.conn = NULL;
		sn.result = status;
		sn.done = true;
		return;
	}
	if (status != IPX_OK) {
		cli_error("spx", "connect: %s (nobody listening there?)",
			  ipx_strerror(status));
		sn.conn = NULL;
		sn.result = status;
		sn.done = true;
		return;
	}
	ipx_info("connected (%s)", version_text(c, v, sizeof(v)));
	start_stdin();
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	(void)ctx;
	spx_get_status(c, &sn.final);
	sn.conn = NULL;
	sn.result = reason;
	sn.done = true;
	if (sn.interrupted || sn.out_failed)
		return;
	if (reason != IPX_OK)
		cli_error("spx", "session ended: %s", ipx_strerror(reason));
	else if (!sn.stdin_eof || sn.have)
		cli_error("spx", "session ended by the peer before our input "
				 "ended (%llu bytes sent)",
			  (unsigned long long)sn.bytes_in);
	else if (sn.we_closed && !sn.peer_done)
		ipx_info("session closed by our disconnect (%llu bytes sent, "
			 "received %llu)",
			 (unsigned long long)sn.bytes_in,
			 (unsigned long long)sn.bytes_out);
	else if (!sn.peer_done)
		ipx_info("session closed by the peer's disconnect (%llu bytes "
			 "sent, received %llu)",
			 (unsigned long long)sn.bytes_in,
			 (unsigned long long)sn.bytes_out);
	else
		ipx_info("session closed");
}

const struct spx_handlers spx_nc_handlers = {
	.on_connected = on_connected,
	.on_data = on_data,
	.on_sendable = on_sendable,
	.on_release = on_release,
	.on_closed = on_closed,
};

void spx_nc_on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct spx_status st;
	char a[IPX_ADDR_STRLEN];

	(void)ctx;
	spx_get_status(c, &st);
	sn.conn = c;
	/* One session: later callers are refused at once. */
	spx_listener_set_busy(l, true);
	spx_set_handlers(c, &spx_nc_handlers, NULL);
	ipx_info("session from %s (SPX%s)", ipx_addr_format(&st.remote, a),
		 st.version == 2 ? " II" : "");
	start_stdin();
}

void spx_nc_flush_stdout(struct ipx_loop *loop, void *ctx)
{
	(void)loop;
	(void)ctx;
	fflush(stdout);
}
