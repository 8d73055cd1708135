/*
 * fn_msg.c - broadcast messages (0x15, dispatch.c sends them here), in
 * the layouts of Wireshark's NCP dissector (ncp2222.py) and ncpfs:
 * 0x15 0x00 Send Broadcast Message (count, 1-byte connection numbers,
 * message; a status byte per connection back), 0x15 0x0A the same with
 * a LE2 count and LE4 numbers and statuses, 0x15 0x01 / 0x0B Get
 * Broadcast Message (the held message, empty if none), 0x15 0x02 / 0x03
 * disable / enable them, 0x15 0x09 to the console (the log). A
 * connection holds one message, as NetWare does: while it waits, every
 * reply to that connection has status bit 0x40 and the 2-byte signal
 * [connection, '!'] goes once to its socket + 2 (mars_nwe); a second
 * message is refused for it (0xFC) until the first is fetched.
 */
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/log.h"
#include "srv_int.h"

/* Per-connection results of a send (NetWare's). */
enum { SENT = 0x00, HELD_FULL = 0xFC, BAD_CONN = 0xFD, DISABLED = 0xFF };

static uint8_t deliver(struct ncp_call *c, uint32_t n, const char *msg)
{
	struct ncp_conn *t = n > 0xFFFF ? NULL
				       : ncp_conn_by_number(c->srv,
							    (uint16_t)n);
	uint8_t r = !t ? BAD_CONN : t->msg_off ? DISABLED
			 : t->msg_held ? HELD_FULL : SENT;

	if (r != SENT) {
		c->srv->stats.messages_refused++;
		return r;
	}
	snprintf(t->msg, sizeof(t->msg), "%s", msg);
	t->msg_held = true;
	c->srv->stats.messages_sent++;
	ncp_send_notice(c->srv, t, '!');
	return SENT;
}

/* 0x00 (wide false): count, numbers (1 byte), message; 0x0A: count LE2,
 * numbers LE4, message. The numbers are read before the message. */
static void send_msg(struct ncp_call *c, bool wide)
{
	uint32_t to[256];
	unsigned n = wide ? 0 : ncp_rd8(&c->rd);
	char msg[256];
	const uint8_t *q;

	if (wide) {
		q = ncp_rdn(&c->rd, 2);
		n = q ? ipx_get16le(q) : 0;
	}
	if (n > 255) {
		ncp_malformed(c);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		q = wide ? ncp_rdn(&c->rd, 4) : NULL;
		to[i] = !wide ? ncp_rd8(&c->rd)
			: q ? ipx_get16le(q) | (uint32_t)ipx_get16le(q + 2) << 16
			    : 0;
	}
	ncp_rdstr(&c->rd, msg, sizeof(msg));
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (wide) {
		uint8_t b[2];

		ipx_put16le(b, (uint16_t)n);
		ncp_wrn(&c->wr, b, 2);
	} else {
		ncp_wr8(&c->wr, (uint8_t)n);
	}
	for (unsigned i = 0; i < n; i++) {
		uint8_t r = deliver(c, to[i], msg), b[4] = { r, 0, 0, 0 };

		if (wide)
			ncp_wrn(&c->wr, b, 4);
		else
			ncp_wr8(&c->wr, r);
	}
}

/* The held message (at most 58 bytes in the old form), then none. */
static void get_msg(struct ncp_call *c, bool old)
{
	struct ncp_conn *t = c->conn;
	size_t n = t->msg_held ? strlen(t->msg) : 0;

	if (old && n > 58)
		n = 58;
	ncp_wr8(&c->wr, (uint8_t)n);
	ncp_wrn(&c->wr, (const uint8_t *)t->msg, n);
	if (t->msg_held)
		c->srv->stats.messages_fetched++;
	t->msg_held = false;
	/* This reply already goes without the waiting bit. */
}

void ncp_fn_msg(struct ncp_call *c)
{
	uint16_t len = ncp_rd16(&c->rd);
	uint8_t sub = ncp_rd8(&c->rd);
	char msg[256];

	if (c->rd.bad || len > c->rd.len - 2) {
		ncp_malformed(c);
		return;
	}
	switch (sub) {
	case 0x00:
	case 0x0A:
		send_msg(c, sub == 0x0A);
		return;
	case 0x01:
	case 0x0B:
		get_msg(c, sub == 0x01);
		return;
	case 0x02:
	case 0x03:
		c->conn->msg_off = sub == 0x02;
		return;
	case 0x09:
		if (ncp_rdstr(&c->rd, msg, sizeof(msg)) < 0) {
			ncp_malformed(c);
			return;
		}
		ipx_info("ncp: message to the console from connection %u: %s",
			 c->conn->number, msg);
		return;
	default:
		ncp_unknown(c, true);
	}
}
